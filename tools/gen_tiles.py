#!/usr/bin/env python3
"""Generate the project's tile files (docs/tile-format.md) from the reference tile facts.

base.tiles.json is converted from shared/reference/tiles/base.json. amazonas.tiles.json is a
RECONSTRUCTION (the real tiles are published only as pictures; see amazonas.md): its data are the
AMAZONAS_* tables in this file, checked against the known facts when generated. hunters.tiles.json
is converted from shared/reference/tiles/hunters-2020.json and checked against its totals.
safari.tiles.json is converted from shared/reference/tiles/safari.json (one tile type per physical
copy) and checked against its totals; its disputed tiles switch with SAFARI_CS10_READING and
SAFARI_CS33_READING.

Usage: tools/gen_tiles.py [--reference DIR] [--out DIR] [--check]

  --reference DIR  folder holding the reference files (default: ../shared/reference/tiles)
  --out DIR        where to write <game>.tiles.json (default: data/tiles)
  --check          do not write; exit 1 if a generated file differs from the one on disk

The output is deterministic (sorted keys where order does not matter, fixed indentation), so
regenerating from the same reference yields byte-identical files; a test checks that.
"""
import argparse
import json
import os
import sys

PORTS = ["NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW"]
SIDES = ["N", "E", "S", "W"]


def base_tileset(ref):
    tiles = []
    for t in ref["tiles"]:
        labels = []  # feature labels in first-seen order over ports, then centre features
        ports_of = {}
        for s_i, side in enumerate(SIDES):
            for third, label in enumerate(t["edges"][side]):
                port = PORTS[3 * s_i + third]
                if label not in ports_of:
                    ports_of[label] = []
                    labels.append(label)
                ports_of[label].append(port)
        for label in t["features"]:
            if label not in ports_of:
                raise SystemExit(f"tile {t['id']}: feature {label} touches no edge")
        index = {label: i for i, label in enumerate(labels)}
        feats = []
        for label in labels:
            f = t["features"][label]
            out = {"type": f["type"], "ports": ports_of[label]}
            if t.get("shield_on") == label:
                out["attrs"] = {"shield": 1}
            if f["type"] == "field":
                out["borders"] = [index[c] for c in f.get("adjacent_cities", [])]
            feats.append(out)
        if t.get("monastery"):
            feats.append({"type": "monastery", "ports": ["C"]})
        tiles.append({
            "id": t["id"],
            "count": t["count"],
            "description": t["description"],
            "features": feats,
        })
    return {
        "format": "carcassonne-tiles/1",
        "game": "base",
        "title": ref["game"],
        "generated_from": "shared/reference/tiles/base.json",
        "generated_by": "tools/gen_tiles.py (do not edit by hand; regenerate)",
        "total_tiles": ref["total_tiles"],
        "start": [{"tile": ref["start_tile"]["id"], "x": 0, "y": 0, "rot": 0}],
        "tiles": tiles,
    }


# ---------------------------------------------------------------------------------------------
# Amazonas: a RECONSTRUCTED tile set (shared/reference/tiles/amazonas.md). The real per-tile
# contents are published only as pictures; everything below obeys the known facts (65 land +
# 15 Amazon tiles, 3 with "!", 4 double Amazon tiles, 2x4 start board, 10 open cells at the start)
# and models the land tiles on the base game's shapes. A player who owns the box corrects it by
# editing the tables below (AMAZONAS_LAND, AMAZONAS_RIVER, AMAZONAS_DOUBLES, AMAZONAS_START) and
# rerunning this script, keeping ids and counts.
#
# Tile notation: "edges" lists the 12 ports as 4 sides of 3 labels, in port order
#   N: NNW N NNE | E: ENE E ESE | S: SSE S SSW | W: WSW W WNW
# (each side clockwise). Equal labels are one feature. A label's first letter gives its type:
# v = village, t = tributary, j = jungle, a = amazon. "attrs" maps a label to its symbol counts.

AMAZONAS_TYPES = {"v": "village", "t": "tributary", "j": "jungle", "a": "amazon"}
AMAZONAS_CLASS = {"village": "area", "tributary": "path", "jungle": "field", "amazon": "path"}
AMAZONAS_ATTRS = {"tributary": ("fruit", "boat"), "village": ("fruit",), "jungle": ("animal",),
                  "amazon": ("caiman", "piranha")}

# Land shapes, after the base game's tile types (letter in brackets); cities -> villages,
# roads -> tributaries, fields -> jungle. Base A (road to a monastery) becomes a tributary ending
# at a rock; base B (monastery alone) is dropped.
AMAZONAS_SHAPES = {
    "C": ("village on all four sides", "v v v|v v v|v v v|v v v"),
    "D": ("village N, straight tributary W-E", "v v v|j1 t j2|j2 j2 j2|j2 t j1"),
    "E": ("village N", "v v v|j j j|j j j|j j j"),
    "F/G": ("village band E-W (connected)", "j1 j1 j1|v v v|j2 j2 j2|v v v"),
    "H": ("two separate villages N and S", "v1 v1 v1|j j j|v2 v2 v2|j j j"),
    "I": ("two separate villages N and W", "v1 v1 v1|j j j|j j j|v2 v2 v2"),
    "J": ("village N, tributary curve E-S", "v v v|j1 t j2|j2 t j1|j1 j1 j1"),
    "K": ("village N, tributary curve S-W", "v v v|j1 j1 j1|j1 t j2|j2 t j1"),
    "L": ("village N, crossing of three tributaries E, S, W", "v v v|j1 t1 j2|j2 t2 j3|j3 t3 j1"),
    "M/N": ("village N+E connected", "v v v|v v v|j j j|j j j"),
    "O/P": ("village N+W connected, tributary curve E-S", "v v v|j1 t j2|j2 t j1|v v v"),
    "Q/R": ("village N, E, W connected", "v v v|v v v|j j j|v v v"),
    "S/T": ("village N, E, W connected, tributary from S ends at the village", "v v v|v v v|j1 t j2|v v v"),
    "U": ("straight tributary N-S", "j1 t j2|j2 j2 j2|j2 t j1|j1 j1 j1"),
    "V": ("tributary curve S-W", "j1 j1 j1|j1 j1 j1|j1 t j2|j2 t j1"),
    "W": ("crossing of three tributaries E, S, W", "j1 j1 j1|j1 t1 j2|j2 t2 j3|j3 t3 j1"),
    "X": ("crossing of four tributaries", "j1 t1 j2|j2 t2 j3|j3 t3 j4|j4 t4 j1"),
    "A": ("tributary from S ends at a rock", "j j j|j j j|j t j|j j j"),
}

# (id, count, shape, attrs). Base counts: C1 D4 E5 F2 G1 H3 I2 J3 K3 L3 M2 N3 O2 P3 Q1 R3 S2 T1
# U8 V9 W4 X1 (+ A2 B4 monasteries). Here: base G, N, P, R, T share the shapes of F, M, O, Q, S
# (they differ only by the shield); A2 becomes 2 rock tiles, B4 is dropped, and E, U, V lose one
# copy each (66 + 2 - 3 = 65). Base shields become village fruit.
AMAZONAS_LAND = [
    ("L01", 1, "C", {"v": {"fruit": 1}}),
    ("L02", 2, "D", {"t": {"boat": 1}, "j2": {"animal": 2}}),
    ("L03", 1, "D", {"t": {"fruit": 1}, "j2": {"animal": 1}}),
    ("L04", 1, "D", {"j2": {"animal": 1}}),
    ("L05", 2, "E", {"j": {"animal": 2}}),
    ("L06", 1, "E", {"v": {"fruit": 1}, "j": {"animal": 1}}),
    ("L07", 1, "E", {"j": {"animal": 1}}),
    ("L08", 2, "F/G", {"v": {"fruit": 1}, "j1": {"animal": 1}}),
    ("L09", 1, "F/G", {"j1": {"animal": 1}, "j2": {"animal": 1}}),
    ("L10", 3, "H", {"j": {"animal": 1}}),
    ("L11", 2, "I", {"j": {"animal": 2}}),
    ("L12", 1, "J", {"t": {"boat": 1}, "j2": {"animal": 1}}),
    ("L13", 2, "J", {"j2": {"animal": 2}}),
    ("L14", 1, "K", {"t": {"fruit": 1}, "j1": {"animal": 1}}),
    ("L15", 2, "K", {"j1": {"animal": 2}}),
    ("L16", 2, "L", {"j1": {"animal": 1}}),
    ("L17", 1, "L", {"t2": {"fruit": 1}, "j3": {"animal": 2}}),
    ("L18", 2, "M/N", {"v": {"fruit": 1}, "j": {"animal": 2}}),
    ("L19", 3, "M/N", {"j": {"animal": 1}}),
    ("L20", 2, "O/P", {"v": {"fruit": 1}, "j2": {"animal": 1}}),
    ("L21", 1, "O/P", {"t": {"boat": 1}, "j2": {"animal": 1}}),
    ("L22", 2, "O/P", {"j2": {"animal": 2}}),
    ("L23", 1, "Q/R", {"v": {"fruit": 1}, "j": {"animal": 1}}),
    ("L24", 2, "Q/R", {"j": {"animal": 1}}),
    ("L25", 1, "Q/R", {"v": {"fruit": 1}}),
    ("L26", 2, "S/T", {"v": {"fruit": 1}, "j1": {"animal": 1}}),
    ("L27", 1, "S/T", {"j2": {"animal": 1}}),
    ("L28", 3, "U", {"t": {"boat": 1}, "j1": {"animal": 1}}),
    ("L29", 2, "U", {"t": {"fruit": 1}, "j2": {"animal": 2}}),
    ("L30", 2, "U", {"j1": {"animal": 1}, "j2": {"animal": 1}}),
    ("L31", 3, "V", {"t": {"boat": 1}, "j1": {"animal": 2}}),
    ("L32", 1, "V", {"t": {"fruit": 1, "boat": 1}, "j1": {"animal": 1}}),
    ("L33", 1, "V", {"t": {"fruit": 1}, "j1": {"animal": 3}}),
    ("L34", 3, "V", {"j1": {"animal": 1}}),
    ("L35", 1, "W", {"t1": {"boat": 1}, "j1": {"animal": 2}}),
    ("L36", 1, "W", {"t2": {"fruit": 1}, "j1": {"animal": 1}, "j2": {"animal": 1}}),
    ("L37", 2, "W", {"j1": {"animal": 1}}),
    ("L38", 1, "X", {"t1": {"boat": 1}, "j1": {"animal": 1}, "j3": {"animal": 1}}),
    ("L39", 1, "A", {"t": {"boat": 1}, "j": {"animal": 2}}),
    ("L40", 1, "A", {"t": {"fruit": 1}, "j": {"animal": 1}}),
]

# Amazon tiles, canonical orientation: the Amazon flows W -> E through the middle ports.
# A bank is ("jungle", animals), ("village", fruit) (village on the whole outer side, jungle on
# the E/W thirds of that bank) or ("tributary", fruit, boats) (a tributary mouth at the outer
# side's middle port, splitting the bank's jungle in two).
# (id, kind, north bank, south bank, caimans, piranhas)
AMAZONAS_RIVER = [
    ("A01", "amazon", ("jungle", 1), ("jungle", 0), 2, 0),
    ("A02", "amazon", ("jungle", 0), ("jungle", 2), 1, 1),
    ("A03", "amazon", ("village", 1), ("jungle", 1), 1, 2),
    ("A04", "amazon", ("tributary", 0, 0), ("jungle", 1), 3, 0),
    ("A05", "amazon", ("jungle", 2), ("tributary", 0, 0), 0, 2),
    ("A06", "amazon", ("jungle", 1), ("village", 0), 2, 1),
    ("A07", "amazon", ("tributary", 0, 0), ("village", 1), 1, 0),
    ("A08", "amazon", ("jungle", 1), ("jungle", 1), 2, 2),
    ("A09", "amazon", ("village", 0), ("tributary", 0, 0), 1, 3),
    ("A10", "amazon", ("jungle", 0), ("jungle", 1), 3, 1),
    ("A11", "amazon", ("tributary", 0, 0), ("tributary", 0, 0), 0, 1),
    ("A12", "amazon", ("jungle", 2), ("jungle", 0), 2, 3),
    ("X1", "amazon!", ("jungle", 1), ("jungle", 1), 1, 1),
    ("X2", "amazon!", ("tributary", 0, 0), ("jungle", 0), 2, 0),
    ("X3", "amazon!", ("jungle", 0), ("village", 0), 0, 2),
]

# Double Amazon tiles: two cells along the flow, each (north bank, south bank, caimans, piranhas).
# (id of the upstream cell, upstream cell, downstream cell); the downstream cell's id is id + "b".
AMAZONAS_DOUBLES = [
    ("D1", (("jungle", 1), ("jungle", 0), 1, 1), (("village", 0), ("jungle", 1), 1, 0)),
    ("D2", (("tributary", 0, 0), ("jungle", 1), 2, 0), (("jungle", 0), ("jungle", 2), 0, 2)),
    ("D3", (("jungle", 2), ("village", 1), 1, 2), (("jungle", 1), ("tributary", 0, 0), 2, 1)),
    ("D4", (("jungle", 0), ("jungle", 1), 1, 0), (("jungle", 1), ("jungle", 0), 0, 1)),
]

# Start board (both sides get these same 8 cells; the real pictures are unknown).
# (id, x, y, rot, description, edges, attrs)
AMAZONAS_START = [
    ("S1", 0, 0, 0, "start board, source of the Amazon (leaves E); a tributary from W ends at the source",
     "j1 j1 j1|j1 a j2|j2 j2 j2|j2 t j1", {"j1": {"animal": 1}, "j2": {"animal": 1}}),
    ("S2", 1, 0, 0, "start board, Amazon W-E; village on the north bank; jungle on the south bank",
     "v v v|j1 a j2|j2 j2 j2|j2 a j1", {"v": {"fruit": 1}, "j2": {"animal": 1}}),
    ("S3", 2, 0, 0, "start board, Amazon W-E; jungle on the north bank; a tributary from S ends at the Amazon",
     "j1 j1 j1|j1 a j2|j2 t j3|j3 a j1", {"j1": {"animal": 2}}),
    ("S4", 3, 0, 0, "start board, Amazon W-E (leaves E, downstream end); a tributary from N ends at the Amazon",
     "j1 t j2|j2 a j3|j3 j3 j3|j3 a j1", {"j2": {"animal": 1}, "j3": {"animal": 1}}),
    ("S5", 0, 1, 0, "start board, land: village W, jungle",
     "j j j|j j j|j j j|v v v", {"j": {"animal": 1}}),
    ("S6", 1, 1, 0, "start board, land: tributary curve E-S",
     "j1 j1 j1|j1 t j2|j2 t j1|j1 j1 j1", {"t": {"fruit": 1}, "j1": {"animal": 1}}),
    ("S7", 2, 1, 0, "start board, land: tributary curve N-W",
     "j1 t j2|j2 j2 j2|j2 j2 j2|j2 t j1", {"t": {"boat": 1}, "j2": {"animal": 2}}),
    ("S8", 3, 1, 0, "start board, land: village S, jungle",
     "j j j|j j j|v v v|j j j", {"v": {"fruit": 1}, "j": {"animal": 1}}),
]
AMAZONAS_START_SIDES = [("2-3 players", [2, 3], 16), ("4-5 players", [4, 5], 8)]
AMAZONAS_START_KIND = None  # kind of the start cells (None: the default "land"; pile "start" marks them)


def _amz_fail(tid, msg):
    raise SystemExit(f"amazonas tile {tid}: {msg}")


def _amz_features(tid, edges, attrs):
    sides = [s.split() for s in edges.split("|")]
    if len(sides) != 4 or any(len(s) != 3 for s in sides):
        _amz_fail(tid, f"edges must be 4 sides of 3 labels: {edges!r}")
    labels, ports_of = [], {}
    for s_i, side in enumerate(sides):
        for third, label in enumerate(side):
            if label not in ports_of:
                ports_of[label] = []
                labels.append(label)
            ports_of[label].append(PORTS[3 * s_i + third])
    for label in attrs:
        if label not in ports_of:
            _amz_fail(tid, f"attrs name label {label!r}, which is on no port")
    feats = []
    for label in labels:
        if label[0] not in AMAZONAS_TYPES:
            _amz_fail(tid, f"label {label!r} does not start with one of {sorted(AMAZONAS_TYPES)}")
        f = {"type": AMAZONAS_TYPES[label[0]], "ports": ports_of[label]}
        a = {k: v for k, v in sorted(attrs.get(label, {}).items()) if v}
        if a:
            f["attrs"] = a
        feats.append(f)
    return feats


def _amz_bank(bank, north, n):
    """Labels for one bank (north: NNW N NNE, ENE, WNW; south: SSE S SSW, ESE, WSW) + attrs."""
    kind = bank[0]
    j, j2, v, t = f"j{n}", f"j{n + 1}", f"v{n}", f"t{n}"
    if kind == "jungle":
        outer, upstream_third, downstream_third = [j, j, j], j, j
        attrs = {j: {"animal": bank[1]}}
    elif kind == "village":
        outer, upstream_third, downstream_third = [v, v, v], j, j
        attrs = {v: {"fruit": bank[1]}}
    elif kind == "tributary":
        # north: NNW (upstream half) N NNE (downstream half); south: SSE (downstream) S SSW (upstream)
        outer = [j, t, j2] if north else [j2, t, j]
        upstream_third, downstream_third = j, j2
        attrs = {t: {"fruit": bank[1], "boat": bank[2]}}
    else:
        raise SystemExit(f"amazonas: unknown bank {bank!r}")
    return outer, upstream_third, downstream_third, attrs


def _amz_river_cell(north, south, caimans, piranhas):
    n_out, n_up, n_down, n_attrs = _amz_bank(north, True, 1)
    s_out, s_up, s_down, s_attrs = _amz_bank(south, False, 3)
    edges = "|".join([" ".join(n_out), f"{n_down} a {s_down}", " ".join(s_out), f"{s_up} a {n_up}"])
    attrs = {**n_attrs, **s_attrs, "a": {"caiman": caimans, "piranha": piranhas}}
    return edges, attrs


def _amz_bank_text(bank):
    if bank[0] == "jungle":
        return "jungle" + (f" ({_plural(bank[1], 'animal')})" if bank[1] else "")
    if bank[0] == "village":
        return "village" + (f" ({_plural(bank[1], 'fruit')})" if bank[1] else "")
    extra = [x for x in (_plural(bank[1], "fruit") if bank[1] else "", _plural(bank[2], "boat icon") if bank[2] else "") if x]
    return "tributary ending at the Amazon" + (f" ({', '.join(extra)})" if extra else "")


def _plural(n, word):
    return f"{n} {word}" + ("" if n == 1 or word == "fruit" else "s")


def _amz_river_text(north, south, caimans, piranhas):
    return (f"Amazon W-E, {_plural(caimans, 'caiman')}, {_plural(piranhas, 'piranha')}; "
            f"north bank: {_amz_bank_text(north)}; south bank: {_amz_bank_text(south)}")


def _amz_attrs_text(feats):
    parts = []
    for f in feats:
        for k, v in f.get("attrs", {}).items():
            parts.append(f"{_plural(v, 'boat icon' if k == 'boat' else k)} on the {f['type']}")
    return "; ".join(parts) if parts else "no symbols"


def _amz_tile(tid, count, kind, pile, description, feats, east=None):
    t = {"id": tid, "count": count}
    if kind and kind != "land":
        t["kind"] = kind
    if pile != "draw":
        t["pile"] = pile
    if east:
        t["east"] = east
    t["description"] = description
    t["features"] = feats
    return t


# --- checks -----------------------------------------------------------------------------------

def _rot_port_feats(tile, rot):
    """Board port (0..11) -> feature index, for the tile turned rot quarter turns clockwise."""
    out = [None] * 12
    for fi, f in enumerate(tile["features"]):
        for p in f["ports"]:
            if p != "C":
                out[(PORTS.index(p) + 3 * rot) % 12] = fi
    return out


def _side_terrains(tile, rot, side):
    pf = _rot_port_feats(tile, rot)
    return tuple(tile["features"][pf[3 * side + i]]["type"] for i in range(3))


def _edges_match(a, rot_a, side_a, b, rot_b):
    """Tile a's side side_a against tile b's facing side: third i meets third 2-i."""
    ta = _side_terrains(a, rot_a, side_a)
    tb = _side_terrains(b, rot_b, (side_a + 2) % 4)
    return all(ta[i] == tb[2 - i] for i in range(3))


DIRS = [(0, -1), (1, 0), (0, 1), (-1, 0)]  # N E S W; y grows to the south


def _amz_check_tile(t):
    tid = t["id"]
    if not 1 <= len(tid) <= 6:
        _amz_fail(tid, "id must have 1 to 6 characters")
    seen = {}
    for fi, f in enumerate(t["features"]):
        ft = f["type"]
        if ft not in AMAZONAS_CLASS:
            _amz_fail(tid, f"unknown feature type {ft!r}")
        for k, v in f.get("attrs", {}).items():
            if k not in AMAZONAS_ATTRS[ft]:
                _amz_fail(tid, f"attribute {k!r} not allowed on a {ft}")
            if not isinstance(v, int) or not 1 <= v <= 20:
                _amz_fail(tid, f"attribute {k} = {v!r}: 1..20 (omit zero counts)")
        if "borders" in f:
            _amz_fail(tid, "amazonas features carry no borders")
        for p in f["ports"]:
            if p not in PORTS:
                _amz_fail(tid, f"port {p!r} is not a side port")
            if p in seen:
                _amz_fail(tid, f"port {p} belongs to features {seen[p]} and {fi}")
            seen[p] = fi
            if AMAZONAS_CLASS[ft] == "path" and PORTS.index(p) % 3 != 1:
                _amz_fail(tid, f"{ft} on port {p}: paths use middle ports only")
        if AMAZONAS_CLASS[ft] == "area":
            for s in range(4):
                thirds = set(PORTS[3 * s:3 * s + 3])
                if thirds & set(f["ports"]) and not thirds <= set(f["ports"]):
                    _amz_fail(tid, f"village covers only part of side {SIDES[s]}")
    missing = [p for p in PORTS if p not in seen]
    if missing:
        _amz_fail(tid, f"ports {missing} belong to no feature")
    amazon = [f for f in t["features"] if f["type"] == "amazon"]
    kind = t.get("kind", "land")
    if kind in ("amazon", "amazon!", "double"):
        if len(amazon) != 1 or amazon[0]["ports"] != ["E", "W"]:
            _amz_fail(tid, "an Amazon tile has one amazon feature on ports W and E")
        for side in (1, 3):
            if _side_terrains(t, 0, side) != ("jungle", "amazon", "jungle"):
                _amz_fail(tid, f"side {SIDES[side]} must be jungle, amazon, jungle")
    elif kind == "land" and t.get("pile", "draw") != "start" and amazon:
        _amz_fail(tid, "a land tile shows no Amazon")


def _amz_check_set(doc):
    tiles = doc["tiles"]
    by_id = {}
    for t in tiles:
        if t["id"] in by_id:
            _amz_fail(t["id"], "duplicate id")
        by_id[t["id"]] = t
        _amz_check_tile(t)

    def n(pred):
        return sum(t["count"] for t in tiles if pred(t))

    land = [t for t in tiles if t.get("kind", "land") == "land" and t.get("pile", "draw") == "draw"]
    if sum(t["count"] for t in land) != 65:
        raise SystemExit(f"amazonas: {sum(t['count'] for t in land)} land tiles in the draw pile, need 65")
    river = [t for t in tiles if t.get("kind") in ("amazon", "amazon!")]
    for t in river:
        if t["count"] != 1 or t.get("pile", "draw") != "draw":
            _amz_fail(t["id"], "Amazon tiles are single copies in the draw pile")
        a = next(f for f in t["features"] if f["type"] == "amazon").get("attrs", {})
        if not 1 <= a.get("caiman", 0) + a.get("piranha", 0) <= 5:
            _amz_fail(t["id"], "caimans + piranhas must be 1..5")
    if n(lambda t: t.get("kind") in ("amazon", "amazon!")) != 15 or n(lambda t: t.get("kind") == "amazon!") != 3:
        raise SystemExit("amazonas: need 15 Amazon tiles in the draw pile, exactly 3 of them with \"!\"")
    firsts = [t for t in tiles if t.get("kind") == "double" and t.get("pile") == "aside"]
    if len(firsts) != 4 or n(lambda t: t.get("pile") == "aside") != 4:
        raise SystemExit("amazonas: need 4 double tiles set aside")
    parts = [t for t in tiles if t.get("pile") == "part"]
    for t in firsts:
        east = by_id.get(t.get("east"))
        if east is None or east.get("pile") != "part" or east.get("kind") != "double":
            _amz_fail(t["id"], "a double tile's first cell names its downstream part in \"east\"")
        if t["count"] != 1 or east["count"] != 1:
            _amz_fail(t["id"], "double tiles are single copies")
        if not _edges_match(t, 0, 1, east, 0):
            _amz_fail(t["id"], f"E side does not match the W side of {east['id']}")
        total = sum(f.get("attrs", {}).get(k, 0) for c in (t, east) for f in c["features"]
                    if f["type"] == "amazon" for k in ("caiman", "piranha"))
        if not 2 <= total <= 6:
            _amz_fail(t["id"], "a double tile shows 2..6 caimans + piranhas")
    if sorted(p["id"] for p in parts) != sorted(t["east"] for t in firsts):
        raise SystemExit("amazonas: every \"part\" tile must be the east cell of exactly one double tile")
    for t in tiles:
        if "east" in t and t.get("pile") != "aside":
            _amz_fail(t["id"], "only a double tile's first cell has \"east\"")
    land_sides = {_side_terrains(t, 0, s) for t in land for s in range(4)}

    for side in doc["start"]:
        cells = side["cells"]
        if len(cells) != 8:
            raise SystemExit(f"amazonas start side {side['name']!r}: needs 8 cells")
        board = {}
        for c in cells:
            t = by_id.get(c["tile"])
            if t is None or t.get("pile") != "start":
                raise SystemExit(f"amazonas start side {side['name']!r}: {c['tile']} is not a start cell")
            if (c["x"], c["y"]) in board:
                raise SystemExit(f"amazonas start: two cells at {c['x']},{c['y']}")
            board[(c["x"], c["y"])] = (t, c["rot"] // 90)
        if set(board) != {(x, y) for x in range(4) for y in range(2)}:
            raise SystemExit("amazonas start: the cells must be x 0..3, y 0..1")
        for x in range(4):  # the Amazon: source at (0,0) with port E only, then W-E, leaving E at (3,0)
            t, r = board[(x, 0)]
            amz = [f for f in t["features"] if f["type"] == "amazon"]
            want = {(PORTS.index(p) - 3 * r) % 12 for p in (["E"] if x == 0 else ["W", "E"])}
            if len(amz) != 1 or {PORTS.index(p) for p in amz[0]["ports"]} != want:
                _amz_fail(t["id"], "the start board's Amazon runs from the source at (0,0) W-E along y=0")
        for (x, y), (t, r) in board.items():
            if y == 1 and any(f["type"] == "amazon" for f in t["features"]):
                _amz_fail(t["id"], "the start board's land row shows no Amazon")
            for s, (dx, dy) in enumerate(DIRS):
                nb = board.get((x + dx, y + dy))
                if nb and not _edges_match(t, r, s, nb[0], nb[1]):
                    _amz_fail(t["id"], f"side {SIDES[s]} does not match {nb[0]['id']} at {x + dx},{y + dy}")
                if nb is None and (x, y) != (3, 0) and _side_terrains(t, r, s) not in {
                        tuple(reversed(ls)) for ls in land_sides}:
                    _amz_fail(t["id"], f"outer side {SIDES[s]} is matched by no land tile")
        # the cells open to land tiles at the start: empty, next to the board, x <= 3 (river front)
        open_cells = set()
        for (x, y) in board:
            for dx, dy in DIRS:
                c = (x + dx, y + dy)
                if c in board or c[0] > 3:
                    continue
                for lt in land:
                    if any(all(_edges_match(lt, r, s, *board[(c[0] + ddx, c[1] + ddy)])
                               for s, (ddx, ddy) in enumerate(DIRS) if (c[0] + ddx, c[1] + ddy) in board)
                           for r in range(4)):
                        open_cells.add(c)
                        break
        want = {(x, -1) for x in range(4)} | {(x, 2) for x in range(4)} | {(-1, 0), (-1, 1)}
        if open_cells != want:
            raise SystemExit(f"amazonas start {side['name']!r}: land fits at {sorted(open_cells)}, want the 10 cells {sorted(want)}")
        # weak check: every land tile fits next to the start board or beside another land tile
        for lt in land:
            ok = any(_edges_match(lt, r, s, *board[(c[0] + dx, c[1] + dy)])
                     for c in want for s, (dx, dy) in enumerate(DIRS) if (c[0] + dx, c[1] + dy) in board
                     for r in range(4))
            ok = ok or any(_edges_match(lt, r, s, o, ro) for o in land for ro in range(4)
                           for r in range(4) for s in range(4))
            if not ok:
                _amz_fail(lt["id"], "fits nowhere")
    # Amazon banks must be matchable by land tiles (rows y = -1 and y = 1 next to the river)
    for t in tiles:
        if t.get("kind") in ("amazon", "amazon!", "double"):
            for s in (0, 2):
                if _side_terrains(t, 0, s) not in {tuple(reversed(ls)) for ls in land_sides}:
                    _amz_fail(t["id"], f"bank side {SIDES[s]} is matched by no land tile")
            # either orientation continues any other Amazon tile
            for o in river:
                for r in (0, 2):
                    if not _edges_match(o, 0, 1, t, r):
                        _amz_fail(t["id"], f"rotated {90 * r} it does not continue {o['id']}")


def _amz_totals(doc, land_shape_of):
    tiles = doc["tiles"]
    groups = {
        "land": lambda t: t.get("kind", "land") == "land" and t.get("pile", "draw") == "draw",
        "amazon": lambda t: t.get("kind") in ("amazon", "amazon!"),
        "double": lambda t: t.get("kind") == "double",
        "start_board": lambda t: t.get("pile") == "start",
    }
    symbols = {
        "boat_icons": ("tributary", "boat"),
        "fruit_on_tributaries": ("tributary", "fruit"),
        "fruit_in_villages": ("village", "fruit"),
        "animals": ("jungle", "animal"),
        "caimans": ("amazon", "caiman"),
        "piranhas": ("amazon", "piranha"),
    }
    out = {}
    shapes = {}
    for t in tiles:
        if groups["land"](t):
            shapes[land_shape_of[t["id"]]] = shapes.get(land_shape_of[t["id"]], 0) + t["count"]
    out["land_tiles_by_shape"] = shapes
    out["tiles_by_kind"] = {
        "land (draw pile)": sum(t["count"] for t in tiles if groups["land"](t)),
        "amazon (draw pile)": sum(t["count"] for t in tiles if t.get("kind") == "amazon"),
        "amazon! (draw pile)": sum(t["count"] for t in tiles if t.get("kind") == "amazon!"),
        "double tiles (set aside, 2 cells each)": sum(t["count"] for t in tiles if t.get("pile") == "aside"),
        "start board cells (per side)": sum(t["count"] for t in tiles if t.get("pile") == "start"),
    }
    for name, (ftype, attr) in symbols.items():
        per = {}
        for g, pred in groups.items():
            v = sum(t["count"] * f.get("attrs", {}).get(attr, 0) for t in tiles if pred(t)
                    for f in t["features"] if f["type"] == ftype)
            if v:
                per[g] = v
        per["total"] = sum(per.values())
        out[name] = per
    return out


def amazonas_tileset(reference_text):
    del reference_text  # the reference holds facts only (amazonas.md); the tables above are the data
    tiles, land_shape_of = [], {}
    for tid, count, shape, attrs in AMAZONAS_LAND:
        shape_desc, edges = AMAZONAS_SHAPES[shape]
        feats = _amz_features(tid, edges, attrs)
        base_letter = {"A": "A, monastery replaced by a rock"}.get(shape, shape)
        tiles.append(_amz_tile(tid, count, "land", "draw",
                               f"{shape_desc} (base {base_letter}); {_amz_attrs_text(feats)}", feats))
        land_shape_of[tid] = f"{shape_desc} (base {base_letter})"
    for tid, kind, north, south, caimans, piranhas in AMAZONAS_RIVER:
        edges, attrs = _amz_river_cell(north, south, caimans, piranhas)
        desc = _amz_river_text(north, south, caimans, piranhas)
        if kind == "amazon!":
            desc = "\"!\" tile (then place a double tile): " + desc
        tiles.append(_amz_tile(tid, 1, kind, "draw", desc, _amz_features(tid, edges, attrs)))
    for tid, up, down in AMAZONAS_DOUBLES:
        for cell, pile, east, where in ((up, "aside", tid + "b", "upstream"), (down, "part", None, "downstream")):
            cid = tid if pile == "aside" else tid + "b"
            edges, attrs = _amz_river_cell(*cell)
            desc = f"double Amazon tile {tid}, {where} cell: " + _amz_river_text(*cell)
            tiles.append(_amz_tile(cid, 1, "double", pile, desc, _amz_features(cid, edges, attrs), east))
    cells = []
    for tid, x, y, rot, desc, edges, attrs in AMAZONAS_START:
        desc += " (the real start board pictures are unknown: both sides use these same 8 cells)"
        tiles.append(_amz_tile(tid, 1, AMAZONAS_START_KIND, "start", desc, _amz_features(tid, edges, attrs)))
        cells.append({"tile": tid, "x": x, "y": y, "rot": rot})
    start = [{"name": name, "players": players, "track": track, "cells": cells}
             for name, players, track in AMAZONAS_START_SIDES]
    doc = {"start": start, "tiles": tiles}
    _amz_check_set(doc)
    totals = _amz_totals(doc, land_shape_of)
    return {
        "format": "carcassonne-tiles/1",
        "game": "amazonas",
        "title": "Carcassonne: Amazonas (HiG 2016) - RECONSTRUCTED tile set",
        "reconstruction": True,
        "reconstruction_note": (
            "This is a reconstruction, not the real tile set: the real per-tile contents of the 65 land "
            "tiles, 15 Amazon tiles, 4 double Amazon tiles and the start board are published only as "
            "pictures (see shared/reference/tiles/amazonas.md). It obeys every known fact (65 land + 15 "
            "Amazon tiles in one draw pile, 3 of them with \"!\", 4 double tiles set aside, a 2x4 start "
            "board whose sides carry 16 and 8 boat spaces, exactly 10 open cells at the start) and models "
            "the land tiles on the base game's shapes: cities -> villages, roads -> tributaries, fields -> "
            "jungle, shields -> village fruit; base A (road to a monastery) -> tributary ending at a rock, "
            "base B (monastery) dropped, one copy each of base E, U and V dropped (66 + 2 - 3 = 65). Both "
            "start board sides use the same 8 (invented) cells. Symbol totals are chosen, see \"totals\"."),
        "correcting": (
            "If you own the box, correct the set tile by tile: edit the tables AMAZONAS_LAND, "
            "AMAZONAS_SHAPES, AMAZONAS_RIVER, AMAZONAS_DOUBLES and AMAZONAS_START in tools/gen_tiles.py "
            "and rerun python3 tools/gen_tiles.py (its checks name any tile that breaks a rule), or load a "
            "hand-edited copy of this file with --tiles FILE. Keep the ids and counts (65 land, 15 Amazon "
            "with 3 \"!\", 4 double tiles, 8 start cells); the loader validates the file."),
        "generated_from": "shared/reference/tiles/amazonas.md (facts) + the tables in tools/gen_tiles.py",
        "generated_by": "tools/gen_tiles.py (do not edit by hand; regenerate)",
        "totals": totals,
        "total_tiles": sum(t["count"] for t in tiles),
        "start": start,
        "tiles": tiles,
    }


# ---------------------------------------------------------------------------------------------
# Hunters & Gatherers (2020 edition): converted from shared/reference/tiles/hunters-2020.json
# (one entry per physical tile, ids 0..94). Feature order per tile: first seen over the ports
# N, E, S, W (as for base), then the lakes (reference labels l8, l9: they touch no edge). The first
# lake of a tile sits at "C", a second one has no port. Rivers that end in a lake and the lake
# point at each other with "links". Special powers are renamed to the names our rules use.

HUNTERS_TYPES = ("river", "lake", "forest", "meadow")
HUNTERS_ATTRS = {  # attribute slots per feature type, in slot order
    "river": ("fish",),
    "lake": ("fish",),
    "forest": ("mushroom", "menhir"),
    "meadow": ("deer", "aurochs", "mammoth", "tiger"),
}
HUNTERS_SPECIALS = {  # reference name -> (our name, feature type it must sit on)
    "logboat": ("canoe", "lake"),
    "hunting_trap": ("pit_trap", "meadow"),  # scores the 3x3 area at once, then covers those animals
    "pit_trap": ("big_trap", "meadow"),      # doubles the 3x3 area at final scoring
    "wild_fire": ("fire", "meadow"),
    "shaman": ("shaman", "meadow"),
    "raft": ("raft", "lake"),
}
HUNTERS_SPECIAL_TEXT = {"canoe": "canoe", "pit_trap": "pit trap", "big_trap": "big trap",
                        "fire": "fire", "shaman": "shaman", "raft": "raft"}
HUNTERS_PILES = {"start": "start", "normal": "draw", "bonus": "bonus"}  # reference kind -> pile
HUNTERS_PILE_SIZES = {"start": 1, "draw": 78, "bonus": 16}
HUNTERS_EDGE_TERRAIN = {"forest": ("forest",) * 3, "meadow": ("meadow",) * 3,
                        "river": ("meadow", "river", "meadow")}
HUNTERS_SEGMENTS = [f"{s}{i}" for s in SIDES for i in range(3)]  # N0..W2, same order as PORTS


def _hg_fail(tid, msg):
    raise SystemExit(f"hunters tile {tid}: {msg}")


def _hg_where(ports):
    """'N+E' for whole sides, port names for single thirds, in port order."""
    parts = []
    for s_i, side in enumerate(SIDES):
        thirds = [p for p in PORTS[3 * s_i:3 * s_i + 3] if p in ports]
        parts += [side] if len(thirds) == 3 else thirds
    return "+".join(parts)


def _hg_description(feats):
    lakes = [i for i, f in enumerate(feats) if f["type"] == "lake"]

    def lake_name(i):
        return "lake" if len(lakes) == 1 else f"lake {lakes.index(i) + 1}"

    parts = []
    for i, f in enumerate(feats):
        a = f.get("attrs", {})
        extra = []
        if f["type"] == "river":
            sides = "-".join(f["ports"])  # middle ports, named like their sides
            if f.get("links"):
                lake = lake_name(f["links"][0])
                head = f"river {sides} into {'the lake' if lake == 'lake' else lake}"
            elif len(f["ports"]) == 1:
                head = f"river {sides} ending on the tile"
            else:
                head = f"river {sides}"
        elif f["type"] == "lake":
            head = lake_name(i)
        else:
            head = f"{f['type']} {_hg_where(f['ports'])}"
        for k in HUNTERS_ATTRS[f["type"]]:
            v = a.get(k, 0)
            if not v:
                continue
            if k == "menhir":
                extra.append("menhir")
            elif k == "mushroom":
                extra.append("mushroom glade")
            else:
                extra.append(f"{v} {k}")
        if "special" in f:
            extra.append(HUNTERS_SPECIAL_TEXT[f["special"]])
        parts.append(head + (" with " + ", ".join(extra) if extra else ""))
    return "; ".join(parts)


def _hg_convert_tile(t):
    tid = str(t["id"])
    F = t["features"]
    labels, ports_of = [], {}
    for s_i, side in enumerate(SIDES):
        row = t["edges"][side]
        if len(row) != 3:
            _hg_fail(tid, f"edge {side} must list 3 thirds")
        types = tuple(F[label]["type"] if label in F else None for label in row)
        if types != HUNTERS_EDGE_TERRAIN.get(t["edge_terrain"][side]):
            _hg_fail(tid, f"edge {side} is {t['edge_terrain'][side]} but its thirds are {types}")
        for third, label in enumerate(row):
            if label not in ports_of:
                ports_of[label] = []
                labels.append(label)
            ports_of[label].append(PORTS[3 * s_i + third])
    lakes = sorted((label for label, f in F.items() if f["type"] == "lake"), key=lambda l: F[l]["chacun_local_id"])
    for label, f in F.items():
        if f["type"] not in HUNTERS_TYPES:
            _hg_fail(tid, f"unknown feature type {f['type']!r} ({label})")
        if f["type"] == "lake":
            if label in ports_of:
                _hg_fail(tid, f"lake {label} touches an edge")
            continue
        if label not in ports_of:
            _hg_fail(tid, f"{f['type']} {label} touches no edge")
        segs = [HUNTERS_SEGMENTS[PORTS.index(p)] for p in ports_of[label]]
        if sorted(segs) != sorted(f["segments"]):
            _hg_fail(tid, f"{label}: segments {f['segments']} disagree with the edges ({segs})")
    order = labels + lakes
    index = {label: i for i, label in enumerate(order)}
    feats = []
    for label in order:
        f = F[label]
        ft = f["type"]
        a = {}
        if ft in ("river", "lake"):
            a["fish"] = f["fish"]
        elif ft == "forest":
            a["mushroom"] = int(bool(f["mushrooms"]))
            a["menhir"] = int(bool(f["menhir"]))
        else:
            for animal in f["animals"]:
                if animal not in HUNTERS_ATTRS["meadow"]:
                    _hg_fail(tid, f"unknown animal {animal!r} in {label}")
                a[animal] = a.get(animal, 0) + 1
        out = {"type": ft}
        if ft == "lake":
            out["ports"] = ["C"] if lakes.index(label) == 0 else []
        else:
            out["ports"] = ports_of[label]
        a = {k: a[k] for k in HUNTERS_ATTRS[ft] if a.get(k)}
        if a:
            out["attrs"] = a
        if "special" in f:
            if f["special"] not in HUNTERS_SPECIALS:
                _hg_fail(tid, f"unknown special power {f['special']!r}")
            name, on = HUNTERS_SPECIALS[f["special"]]
            if ft != on:
                _hg_fail(tid, f"special {f['special']} on a {ft}, expected a {on}")
            out["special"] = name
        if ft == "river":
            shape, lake = f["shape"], f["lake"]
            want_ports = 2 if shape == "through" else 1
            if len(ports_of[label]) != want_ports or (shape == "ends_in_lake") != (lake is not None):
                _hg_fail(tid, f"river {label}: shape {shape}, lake {lake}, {len(ports_of[label])} port(s)")
            if lake is not None:
                if lake not in lakes or label not in F[lake]["rivers"]:
                    _hg_fail(tid, f"river {label} ends in {lake}, which does not list it")
                out["links"] = [index[lake]]
        elif ft == "lake":
            for r in f["rivers"]:
                if F.get(r, {}).get("type") != "river" or F[r]["lake"] != label:
                    _hg_fail(tid, f"lake {label} lists {r}, which does not end in it")
            out["links"] = sorted(index[r] for r in f["rivers"])
        feats.append(out)
    tile = {"id": tid, "count": t["count"]}
    if t["kind"] not in HUNTERS_PILES:
        _hg_fail(tid, f"unknown kind {t['kind']!r}")
    if HUNTERS_PILES[t["kind"]] != "draw":
        tile["pile"] = HUNTERS_PILES[t["kind"]]
    tile["description"] = _hg_description(feats)
    tile["features"] = feats
    return tile


def _hg_check_tile(t):
    tid = t["id"]
    feats = t["features"]
    seen = {}
    lakes = 0
    for fi, f in enumerate(feats):
        ft = f["type"]
        for k, v in f.get("attrs", {}).items():
            if k not in HUNTERS_ATTRS[ft]:
                _hg_fail(tid, f"attribute {k!r} not allowed on a {ft}")
            if not isinstance(v, int) or not 1 <= v <= 20:
                _hg_fail(tid, f"attribute {k} = {v!r}: 1..20 (omit zero counts)")
        if ft == "lake":
            if f["ports"] != (["C"] if lakes == 0 else []):
                _hg_fail(tid, "the first lake sits at C, a second one has no port")
            lakes += 1
            if not f.get("links"):
                _hg_fail(tid, f"lake (feature {fi}) is joined to no river on its tile")
        for p in f["ports"]:
            if p == "C":
                if ft != "lake":
                    _hg_fail(tid, f"{ft} at C: only lakes sit at the centre")
                continue
            if p in seen:
                _hg_fail(tid, f"port {p} belongs to features {seen[p]} and {fi}")
            seen[p] = fi
            if ft == "river" and PORTS.index(p) % 3 != 1:
                _hg_fail(tid, f"river on port {p}: rivers use middle ports only")
        if ft == "forest":
            for s in range(4):
                thirds = set(PORTS[3 * s:3 * s + 3])
                if thirds & set(f["ports"]) and not thirds <= set(f["ports"]):
                    _hg_fail(tid, f"forest covers only part of side {SIDES[s]}")
        for j in f.get("links", []):
            if not 0 <= j < len(feats) or fi not in feats[j].get("links", []):
                _hg_fail(tid, f"link {fi} -> {j} is not returned")
            if {ft, feats[j]["type"]} != {"river", "lake"}:
                _hg_fail(tid, f"link {fi} -> {j} does not join a river and a lake")
    missing = [p for p in PORTS if p not in seen]
    if missing:
        _hg_fail(tid, f"ports {missing} belong to no feature")
    for s in range(4):  # edge terrains: forest, meadow, or meadow-river-meadow
        terr = tuple(feats[seen[PORTS[3 * s + i]]]["type"] for i in range(3))
        if terr not in HUNTERS_EDGE_TERRAIN.values():
            _hg_fail(tid, f"side {SIDES[s]} shows {terr}")


def _hg_canonical(t, rot):
    """The tile's contents turned rot quarter turns clockwise, independent of feature order."""
    def turned(f):
        return tuple(sorted(p if p == "C" else PORTS[(PORTS.index(p) + 3 * rot) % 12] for p in f["ports"]))
    fs = t["features"]
    return sorted((f["type"], turned(f), tuple(sorted(f.get("attrs", {}).items())), f.get("special", ""),
                   tuple(sorted((fs[j]["type"], turned(fs[j])) for j in f.get("links", [])))) for f in fs)


def _hg_check_identical(ref, tiles):
    """The reference's identical_up_to_rotation pairs must convert to the same tile, turned."""
    by_id = {t["id"]: t for t in tiles}
    for rt in ref["tiles"]:
        for other in rt.get("identical_up_to_rotation", []):
            a, b = by_id[str(rt["id"])], by_id.get(str(other))
            if b is None or not any(_hg_canonical(a, r) == _hg_canonical(b, 0) for r in range(4)):
                _hg_fail(a["id"], f"the reference calls it identical to tile {other} up to rotation; it is not")


def _hg_totals(tiles):
    piles = ("start", "draw", "bonus")

    def per_pile(value):
        out = {}
        for p in piles:
            v = sum(value(t) for t in tiles if t.get("pile", "draw") == p)
            if v:
                out[p] = v
        out["total"] = sum(out.values())
        return out

    def feats(t, ftype):
        return [f for f in t["features"] if f["type"] == ftype]

    def attr_sum(ftype, attr):
        return lambda t: sum(t["count"] * f.get("attrs", {}).get(attr, 0) for f in feats(t, ftype))

    def count(ftype):
        return lambda t: t["count"] * len(feats(t, ftype))

    totals = {
        "tiles": per_pile(lambda t: t["count"]),
        "fish_in_rivers": per_pile(attr_sum("river", "fish")),
        "fish_in_lakes": per_pile(attr_sum("lake", "fish")),
        "lakes": per_pile(count("lake")),
        "rivers": per_pile(count("river")),
        "forests": per_pile(count("forest")),
        "meadows": per_pile(count("meadow")),
        "forests_with_menhir": per_pile(attr_sum("forest", "menhir")),
        "forests_with_mushrooms": per_pile(attr_sum("forest", "mushroom")),
        "animals": {a: per_pile(attr_sum("meadow", a)) for a in HUNTERS_ATTRS["meadow"]},
        "specials": {},
    }
    for name in sorted(HUNTERS_SPECIAL_TEXT):
        totals["specials"][name] = per_pile(
            lambda t, name=name: t["count"] * sum(1 for f in t["features"] if f.get("special") == name))
    return totals


def _hg_check_totals(totals, ref_totals):
    """Compare the computed totals with the reference's totals_by_kind (missing keys are 0)."""
    kind_of = {"normal": "draw", "start": "start", "bonus": "bonus"}
    ours = {k: totals[k] for k in ("tiles", "fish_in_rivers", "fish_in_lakes", "forests_with_menhir",
                                   "forests_with_mushrooms")}
    ours.update({"lake_features": totals["lakes"], "river_features": totals["rivers"],
                 "forest_features": totals["forests"], "meadow_features": totals["meadows"]})
    ours.update({f"animal_{a}": v for a, v in totals["animals"].items()})
    renamed = {ours_name: ref_name for ref_name, (ours_name, _) in HUNTERS_SPECIALS.items()}
    ours.update({f"special_{renamed[s]}": v for s, v in totals["specials"].items()})
    for kind, figures in ref_totals.items():
        if kind not in kind_of:
            raise SystemExit(f"hunters: unknown kind {kind!r} in totals_by_kind")
        for key in figures:
            if key not in ours:
                raise SystemExit(f"hunters: totals_by_kind.{kind}.{key} is not checked by the generator")
    for kind, pile in kind_of.items():
        for key, per in ours.items():
            want = ref_totals.get(kind, {}).get(key, 0)
            got = per.get(pile, 0)
            if got != want:
                raise SystemExit(f"hunters: {key} on {kind} tiles is {got}, the reference says {want}")


def hunters_tileset(ref):
    tiles = [_hg_convert_tile(t) for t in ref["tiles"]]
    ids = [t["id"] for t in tiles]
    for tid in ids:
        if ids.count(tid) != 1:
            _hg_fail(tid, "duplicate id")
    for t in tiles:
        _hg_check_tile(t)
    for pile, n in HUNTERS_PILE_SIZES.items():
        got = sum(t["count"] for t in tiles if t.get("pile", "draw") == pile)
        if got != n:
            raise SystemExit(f"hunters: {got} tiles with pile {pile}, need {n}")
    if any(t["count"] != 1 for t in tiles) or len(tiles) != 95:
        raise SystemExit("hunters: need 95 tiles with count 1")
    _hg_check_identical(ref, tiles)
    totals = _hg_totals(tiles)
    _hg_check_totals(totals, ref["totals_by_kind"])
    start = [t["id"] for t in tiles if t.get("pile") == "start"]
    return {
        "format": "carcassonne-tiles/1",
        "game": "hunters",
        "title": ref["game"],
        "generated_from": "shared/reference/tiles/hunters-2020.json",
        "generated_by": "tools/gen_tiles.py (do not edit by hand; regenerate)",
        "total_tiles": sum(t["count"] for t in tiles),
        "totals": totals,
        "start": [{"tile": start[0], "x": 0, "y": 0, "rot": 0}],
        "tiles": tiles,
    }


# ---------------------------------------------------------------------------------------------
# Safari: converted from shared/reference/tiles/safari.json (33 tile types / 72 land tiles with
# each physical copy's animals, plus the 3 cells of the start board). One source only (the hobby
# project leandro-barcelos/carc_safari: its tiles.json, cross-checked against its pixel art), so
# the generator checks every total the reference states. One output tile type per physical copy
# (ids CS21a, CS21b, ... or CS2 for a single copy; count 1 each); the top-level "types" keeps the
# grouping. Feature order per tile: first seen over the ports N, E, S, W, then the baobab at C.
#
# Disputed tiles. The reference follows tiles.json for CS10 and CS33 and marks both as disputed by
# the source's own pixel art; CS19 is already corrected there (tiles.json gives an impossible tile).
# Both readings of CS10 and CS33 are written out below; switch one with its constant and rerun.

SAFARI_CS10_READING = "json"  # or "art"
SAFARI_CS33_READING = "json"  # or "art"

# Each reading in the reference's own notation: edges (4 sides of 3 labels, clockwise as in the
# reference: t* trail, b* bush, s* savanna), birds per bush label, and the corner labels
# (NE = N2 E0, SE = E2 S0, SW = S2 W0, NW = W2 N0). The animals per copy (labels t0, t1, b0) are
# the same under both readings and come from the reference. The "json" reading must equal the
# reference's entry (checked), so it is written here only to keep the other reading one edit away.
SAFARI_READINGS = {
    "CS10": {
        "json": {  # tiles.json: two dead-end trails at N and S (opposite), baobab
            "edges": "s0 t0 s0|s0 s0 s0|s0 t1 s0|s0 s0 s0",
            "birds": {},
            "text": "dead-end trails at N and S (opposite), baobab (tiles.json: trails [[N], [S]])",
        },
        "art": {  # the source's pixel art CS10.png: dead-end trails at N and W (adjacent), baobab
            "edges": "s0 t0 s0|s0 s0 s0|s0 s0 s0|s0 t1 s0",
            "birds": {},
            "text": "dead-end trails at N and W (adjacent), baobab (the source's pixel art CS10.png)",
        },
    },
    "CS33": {
        "json": {  # tiles.json: one bush on N, E and S, no birds
            "edges": "b0 b0 b0|b0 b0 b0|b0 b0 b0|s0 s0 s0",
            "birds": {"b0": 0},
            "text": "one bush on N, E and S with no birds (tiles.json: bushes [{sides [N, E, S], birds 0}])",
        },
        "art": {  # the source's pixel art CS33.png: one bush on N+E (diagonal, like CS28/CS29), 2 birds
            "edges": "b0 b0 b0|b0 b0 b0|s0 s0 s0|s0 s0 s0",
            "birds": {"b0": 2},
            "text": "one bush on N+E (diagonal, like CS28/CS29) with 2 birds (the source's pixel art CS33.png)",
        },
    },
}
SAFARI_READING = {"CS10": SAFARI_CS10_READING, "CS33": SAFARI_CS33_READING}

SAFARI_DISPUTES = {  # per reading: what it shows, and the case for choosing it
    "CS10": {
        "json": "Two dead-end trails at N and S (opposite) and a baobab.",
        "art": "Two dead-end trails at N and W (adjacent) and a baobab: CS9's shape plus a baobab.",
        "why": {
            "json": (
                "tiles.json is the source's machine-readable data, is self-consistent for this tile (unlike "
                "CS19) and names the trails explicitly ([[N], [S]], unlike CS9's [[N], [E]] just above it). "
                "The pixel art is hand-drawn, not the real tile art, and is drawn without regard to the "
                "data's orientation (CS2, CS3, CS6, CS7, CS9 and CS11 appear in other rotations), and CS10's art "
                "shows the same dead ends as CS9's art (N and W) plus a baobab, as a copied drawing would. "
                "Both readings leave every total unchanged (animals, birds, baobabs, usable corners)."),
            "art": (
                "The pixel art shows the dead ends adjacent (N and W), making CS10 CS9's shape plus a baobab, "
                "like the other baobab/no-baobab pairs (CS2/CS3, CS4/CS5, CS6/CS7, CS12/CS13, CS16/CS17, "
                "CS20/CS21). Both readings leave every total unchanged."),
        },
    },
    "CS33": {
        "json": "One bush on N, E and S, no birds; savanna W.",
        "art": "One bush on N+E (diagonal, like CS28/CS29) with 2 birds; savanna S and W.",
        "why": {
            "json": (
                "tiles.json is self-consistent here and its bird count is the one behind the reference's "
                "totals (34 birds on land tiles; computed from tiles.json, so consistent rather than "
                "independent evidence); the art reading adds 2 birds on each of the 3 copies (40) "
                "and makes CS33 the same picture as CS28 without its baobab, leaving no three-sided bush in "
                "the set. The art is hand-drawn and unreliable in detail (see CS10). The species totals do "
                "not depend on the reading."),
            "art": (
                "The pixel art shows a diagonal bush N+E with 2 birds, like CS28/CS29. The reference's bird "
                "total (34) counts the tiles.json reading, so the generator expects 40 birds on land tiles; "
                "each copy gains a usable corner (SW), 163 on land tiles instead of 160."),
        },
    },
    "CS19": {
        "chosen": "art",
        "json": "tiles.json: through-trail N-E and a dead-end trail S, bush E (impossible: E would be both bush and trail).",
        "art": "Through-trail W-N, dead-end trail S, bush E with 1 bird (the reference's correction, from the pixel art).",
        "why": {"art": ("tiles.json is internally inconsistent for this tile, so the reference's corrected edges "
                        "(from the pixel art) are used as given; there is no second valid reading to switch to.")},
    },
}
SAFARI_SPECIES = ("monkey", "elephant", "giraffe", "lion", "zebra")
SAFARI_TYPES = {"t": "trail", "b": "bush", "s": "savanna"}  # reference label prefix -> our type
SAFARI_ATTRS = {  # attribute slots per feature type, in slot order
    "trail": SAFARI_SPECIES,
    "bush": SAFARI_SPECIES + ("bird",),
    "savanna": (),
    "baobab": (),
}
SAFARI_CLASS = {"trail": "path", "bush": "area", "savanna": "field", "baobab": "point"}
SAFARI_EDGE_TERRAIN = {"savanna": ("savanna",) * 3, "bush": ("bush",) * 3,
                       "trail": ("savanna", "trail", "savanna")}
SAFARI_CORNERS = {"NE": ("NNE", "ENE"), "SE": ("ESE", "SSE"), "SW": ("SSW", "WSW"), "NW": ("WNW", "NNW")}
SAFARI_CORNER_THIRDS = {"NE": ("N2", "E0"), "SE": ("E2", "S0"), "SW": ("S2", "W0"), "NW": ("W2", "N0")}
SAFARI_START_NAMES = {-1: "west", 0: "middle", 1: "east"}
SAFARI_CORNER_RULE = (
    "[D] A tile corner can hold a watering-hole quarter (it is listed in the tile's \"corners\") iff both "
    "edge thirds meeting there belong to savanna features: NE = NNE and ENE, SE = ESE and SSE, SW = SSW "
    "and WSW, NW = WNW and NNW (canonical orientation; a quarter turn clockwise maps NE->SE->SW->NW->NE). "
    "RULES.md section 4 says a quarter is usable when that corner shows savanna (not bush); the rulebook "
    "text and the reference give no per-corner data, so this reading of \"shows savanna\" from the edge "
    "thirds is ours. A trail never reaches a corner (trails use middle ports only), so in practice a "
    "corner is unusable exactly when a bush covers one of the two sides meeting there. Checked against "
    "the reference's corner labels (the two thirds' labels per corner).")


def _sf_fail(tid, msg):
    raise SystemExit(f"safari tile {tid}: {msg}")


def _sf_sides(tid, edges):
    sides = [s.split() for s in edges.split("|")]
    if len(sides) != 4 or any(len(s) != 3 for s in sides):
        _sf_fail(tid, f"edges must be 4 sides of 3 labels: {edges!r}")
    return {side: sides[i] for i, side in enumerate(SIDES)}


def _sf_reading(t):
    """The reference type t with a disputed tile's edges/birds/corners replaced by the chosen reading."""
    tid = t["type_id"]
    if tid not in SAFARI_READINGS:
        return t
    choice = SAFARI_READING[tid]
    if choice not in SAFARI_READINGS[tid]:
        _sf_fail(tid, f"unknown reading {choice!r}: use one of {sorted(SAFARI_READINGS[tid])}")
    want = SAFARI_READINGS[tid]["json"]
    if _sf_sides(tid, want["edges"]) != t["edges"] or any(
            t["features"][b].get("birds") != n for b, n in want["birds"].items()):
        _sf_fail(tid, "the reference no longer matches the \"json\" reading written in SAFARI_READINGS")
    if choice == "json":
        return t  # the reference's own entry, with its segments, shapes and corner labels
    r = SAFARI_READINGS[tid][choice]
    edges = _sf_sides(tid, r["edges"])
    labels = {label for side in edges.values() for label in side}
    feats = {}
    for label in sorted(labels):
        f = {"type": SAFARI_TYPES[label[0]]}
        if f["type"] == "bush":
            f["birds"] = r["birds"][label]
        feats[label] = f
    corners = {c: [edges[a[0]][int(a[1])], edges[b[0]][int(b[1])]] for c, (a, b) in SAFARI_CORNER_THIRDS.items()}
    terrain = {s: next(k for k, v in SAFARI_EDGE_TERRAIN.items()
                       if v == tuple(SAFARI_TYPES[x[0]] for x in edges[s])) for s in SIDES}
    out = dict(t)
    out.update({"edges": edges, "features": feats, "corners": corners, "edge_terrain": terrain})
    return out


def _sf_where(ports):
    """'N+E' for the whole sides a bush covers."""
    return "+".join(SIDES[i] for i in range(4) if PORTS[3 * i + 1] in ports)


def _sf_article(animal):
    return ("an " if animal[0] in "aeiou" else "a ") + animal


def _sf_description(feats):
    parts = []
    for f in feats:
        a = f.get("attrs", {})
        extra = [_sf_article(k) for k in SAFARI_SPECIES for _ in range(a.get(k, 0))]
        if a.get("bird"):
            extra.append(_plural(a["bird"], "bird"))
        with_ = " with " + " and ".join(extra) if extra else ""
        if f["type"] == "trail":
            order = ["N", "W", "S", "E"]  # reads "W-E", "N-S", "N-E", "W-S", "N-W"
            sides = sorted(f["ports"], key=order.index)
            if len(sides) == 1:
                parts.append(f"dead-end trail {sides[0]}{with_}")
            else:
                parts.append(f"trail {'-'.join(sides)}{with_}")
        elif f["type"] == "bush":
            parts.append(f"bush {_sf_where(f['ports'])}{with_}")
        elif f["type"] == "baobab":
            parts.append("baobab")
    if not any(f["type"] in ("trail", "bush") for f in feats):
        parts.insert(0, "only savanna")
    return "; ".join(parts)


def _sf_convert(t, copy, tid, pile):
    """One physical copy of reference type t (already with the chosen reading) -> our tile."""
    ref_id = t["type_id"]
    F = t["features"]
    labels, ports_of = [], {}
    for s_i, side in enumerate(SIDES):
        row = t["edges"][side]
        if len(row) != 3:
            _sf_fail(ref_id, f"edge {side} must list 3 thirds")
        types = tuple(F[label]["type"] if label in F else None for label in row)
        if types != SAFARI_EDGE_TERRAIN.get(t["edge_terrain"][side]):
            _sf_fail(ref_id, f"edge {side} is {t['edge_terrain'][side]} but its thirds are {types}")
        for third, label in enumerate(row):
            if label not in ports_of:
                ports_of[label] = []
                labels.append(label)
            ports_of[label].append(PORTS[3 * s_i + third])
    for label, f in F.items():
        if label not in ports_of:
            _sf_fail(ref_id, f"{f['type']} {label} touches no edge")
        if SAFARI_TYPES.get(label[0]) != f["type"]:
            _sf_fail(ref_id, f"label {label} is a {f['type']}")
        if "segments" in f:  # the reference's own list must agree with its edges
            segs = [HUNTERS_SEGMENTS[PORTS.index(p)] for p in ports_of[label]]
            if sorted(segs) != sorted(f["segments"]):
                _sf_fail(ref_id, f"{label}: segments {f['segments']} disagree with the edges ({segs})")
        if "shape" in f and f["shape"] != ("through" if len(ports_of[label]) == 2 else "dead_end"):
            _sf_fail(ref_id, f"trail {label}: shape {f['shape']} but {len(ports_of[label])} port(s)")
    for label, animal in copy.items():
        if label not in F or F[label]["type"] not in ("trail", "bush"):
            _sf_fail(ref_id, f"a copy puts {animal!r} on {label}, which is no trail or bush")
        if animal is not None and animal not in SAFARI_SPECIES:
            _sf_fail(ref_id, f"unknown species {animal!r} on {label}")
    feats = []
    for label in labels:
        f = F[label]
        a = {}
        if copy.get(label):
            a[copy[label]] = 1
        if f.get("birds"):
            a["bird"] = f["birds"]
        out = {"type": f["type"], "ports": ports_of[label]}
        a = {k: a[k] for k in SAFARI_ATTRS[f["type"]] if a.get(k)}
        if a:
            out["attrs"] = a
        feats.append(out)
    if t["baobab"]:
        feats.append({"type": "baobab", "ports": ["C"]})
    # corners: the reference's labels of the two thirds must be the ones our ports hold
    feature_of = {p: label for label in labels for p in ports_of[label]}
    corners = []
    for c, (p1, p2) in SAFARI_CORNERS.items():
        if t["corners"][c] != [feature_of[p1], feature_of[p2]]:
            _sf_fail(ref_id, f"corner {c}: the reference lists {t['corners'][c]}, the edges give "
                             f"{[feature_of[p1], feature_of[p2]]}")
        if all(F[feature_of[p]]["type"] == "savanna" for p in (p1, p2)):
            corners.append(c)
    tile = {"id": tid, "count": 1}
    if pile != "draw":
        tile["pile"] = pile
    desc = _sf_description(feats)
    if pile == "start":
        desc = f"start board, {SAFARI_START_NAMES[t['board_position']['x']]} cell: {desc}"
    tile["description"] = desc
    tile["corners"] = corners
    tile["features"] = feats
    return tile


def _sf_check_tile(t):
    tid = t["id"]
    if not 1 <= len(tid) <= 6:
        _sf_fail(tid, "id must have 1 to 6 characters")
    seen = {}
    for fi, f in enumerate(t["features"]):
        ft = f["type"]
        if ft not in SAFARI_CLASS:
            _sf_fail(tid, f"unknown feature type {ft!r}")
        for k, v in f.get("attrs", {}).items():
            if k not in SAFARI_ATTRS[ft]:
                _sf_fail(tid, f"attribute {k!r} not allowed on a {ft}")
            if not isinstance(v, int) or not 1 <= v <= 20:
                _sf_fail(tid, f"attribute {k} = {v!r}: 1..20 (omit zero counts)")
        if list(f.get("attrs", {})) != [k for k in SAFARI_ATTRS[ft] if k in f.get("attrs", {})]:
            _sf_fail(tid, f"{ft} attributes out of slot order")
        if ft == "baobab":
            if f["ports"] != ["C"]:
                _sf_fail(tid, "a baobab sits at C")
            continue
        for p in f["ports"]:
            if p not in PORTS:
                _sf_fail(tid, f"{ft} on port {p!r}: only baobabs sit at the centre")
            if p in seen:
                _sf_fail(tid, f"port {p} belongs to features {seen[p]} and {fi}")
            seen[p] = fi
            if ft == "trail" and PORTS.index(p) % 3 != 1:
                _sf_fail(tid, f"trail on port {p}: trails use middle ports only")
        if ft == "bush":
            for s in range(4):
                thirds = set(PORTS[3 * s:3 * s + 3])
                if thirds & set(f["ports"]) and not thirds <= set(f["ports"]):
                    _sf_fail(tid, f"bush covers only part of side {SIDES[s]}")
    missing = [p for p in PORTS if p not in seen]
    if missing:
        _sf_fail(tid, f"ports {missing} belong to no feature")
    if sum(f["type"] == "baobab" for f in t["features"]) > 1:
        _sf_fail(tid, "at most one baobab")
    for s in range(4):
        if _side_terrains(t, 0, s) not in SAFARI_EDGE_TERRAIN.values():
            _sf_fail(tid, f"side {SIDES[s]} shows {_side_terrains(t, 0, s)}")
    want = [c for c, ps in SAFARI_CORNERS.items()
            if all(t["features"][seen[p]]["type"] == "savanna" for p in ps)]
    if t["corners"] != want:
        _sf_fail(tid, f"corners {t['corners']}, the corner rule gives {want}")


def _sf_totals(tiles):
    piles = (("land", "draw"), ("start", "start"))

    def per(value):
        out = {name: sum(value(t) for t in tiles if t.get("pile", "draw") == pile) for name, pile in piles}
        out["total"] = sum(out.values())
        return out

    def attr_sum(ftypes, attr):
        return lambda t: sum(f.get("attrs", {}).get(attr, 0) for f in t["features"] if f["type"] in ftypes)

    return {
        "tiles": per(lambda t: t["count"]),
        "baobabs": per(lambda t: sum(f["type"] == "baobab" for f in t["features"])),
        "birds": per(attr_sum(("bush",), "bird")),
        "trails": per(lambda t: sum(f["type"] == "trail" for f in t["features"])),
        "bushes": per(lambda t: sum(f["type"] == "bush" for f in t["features"])),
        "usable_corners": per(lambda t: len(t["corners"])),
        "animals": {a: per(attr_sum(("trail", "bush"), a)) for a in SAFARI_SPECIES},
        "animals_on_trails": {a: per(attr_sum(("trail",), a)) for a in SAFARI_SPECIES},
        "animals_in_bushes": {a: per(attr_sum(("bush",), a)) for a in SAFARI_SPECIES},
    }


def _sf_check_totals(totals, ref, n_types):
    """Every figure of the reference's totals (and start_board.species) against ours."""
    birds_delta = 0  # a non-"json" reading may change the birds the reference's totals count
    for tid, choice in SAFARI_READING.items():
        copies = next(len(t["copies"]) for t in ref["tile_types"] if t["type_id"] == tid)
        birds = {name: sum(r["birds"].values()) for name, r in SAFARI_READINGS[tid].items()}
        birds_delta += copies * (birds[choice] - birds["json"])
    rt = ref["totals"]
    land = lambda per: per["land"]  # noqa: E731
    ours = {
        "land_tiles": land(totals["tiles"]),
        "types": n_types,
        "baobab_tiles": land(totals["baobabs"]),
        "birds_on_land_tiles": land(totals["birds"]) - birds_delta,
        "animals_on_land_tiles": {a: land(v) for a, v in totals["animals"].items()},
        "animals_by_feature": {**{f"bush:{a}": land(v) for a, v in totals["animals_in_bushes"].items()},
                               **{f"trail:{a}": land(v) for a, v in totals["animals_on_trails"].items()}},
        "animals_incl_start": {a: v["total"] for a, v in totals["animals"].items()},
    }
    for key in rt:
        if key not in ours:
            raise SystemExit(f"safari: totals.{key} is not checked by the generator")
        if ours[key] != rt[key]:
            raise SystemExit(f"safari: {key} is {ours[key]}, the reference says {rt[key]}"
                             + (f" (birds adjusted by {birds_delta} for the chosen readings)" if birds_delta else ""))
    start_species = {a: v["start"] for a, v in totals["animals"].items() if v["start"]}
    if start_species != ref["start_board"]["species"]:
        raise SystemExit(f"safari: start board animals {start_species}, the reference says {ref['start_board']['species']}")
    # the facts the checks are really about, stated independently of the reference's totals
    if totals["tiles"] != {"land": 72, "start": 3, "total": 75}:
        raise SystemExit(f"safari: tiles {totals['tiles']}, need 72 land tiles + 3 start cells")
    for a, v in totals["animals"].items():
        if v["total"] != 20:
            raise SystemExit(f"safari: {v['total']} {a}s including the start board, need 20")
    if totals["baobabs"]["total"] != 29 or land(totals["birds"]) != 34 + birds_delta:
        raise SystemExit(f"safari: {totals['baobabs']['total']} baobabs (need 29), "
                         f"{land(totals['birds'])} birds on land tiles (need {34 + birds_delta})")


def safari_tileset(ref):
    tiles, types = [], {}
    for t in ref["tile_types"]:
        if t["kind"] != "land" or t["count"] != len(t["copies"]):
            _sf_fail(t["type_id"], f"kind {t['kind']!r}, count {t['count']} for {len(t['copies'])} copies")
        t = _sf_reading(t)
        n = len(t["copies"])
        if n > 26:
            _sf_fail(t["type_id"], "more than 26 copies")
        ids = [t["type_id"] + chr(ord("a") + i) for i in range(n)]  # one letter per copy, even a single one
        types[t["type_id"]] = ids
        for copy, tid in zip(t["copies"], ids):
            tile = _sf_convert(t, copy, tid, "draw")
            if n == 1:
                # the bare type id that tile files before every copy carried its letter gave it (CS2
                # for CS2a): records and stored games of those versions name it so
                items = list(tile.items())
                tile = dict(items[:1] + [("aliases", [t["type_id"]])] + items[1:])
            tiles.append(tile)
    start = []
    for part in ref["start_board"]["parts"]:
        if part["kind"] != "start_board_part" or len(part["copies"]) != 1:
            _sf_fail(part["type_id"], "a start board part is one cell")
        tiles.append(_sf_convert(part, part["copies"][0], part["type_id"], "start"))
        types[part["type_id"]] = [part["type_id"]]
        pos = part["board_position"]
        start.append({"tile": part["type_id"], "x": pos["x"], "y": pos["y"], "rot": 0})
    by_id = {}
    for t in tiles:
        if t["id"] in by_id:
            _sf_fail(t["id"], "duplicate id")
        by_id[t["id"]] = t
        _sf_check_tile(t)
    # the start board: 3 cells in a row whose touching sides match
    cells = {(c["x"], c["y"]): by_id[c["tile"]] for c in start}
    xs = sorted(x for x, _ in cells)
    if len(cells) != 3 or len({y for _, y in cells}) != 1 or xs != list(range(xs[0], xs[0] + 3)):
        raise SystemExit(f"safari: the start board must be 3 cells in a row, got {sorted(cells)}")
    for (x, y), t in cells.items():
        for s, (dx, dy) in enumerate(DIRS):
            nb = cells.get((x + dx, y + dy))
            if nb and not _edges_match(t, 0, s, nb, 0):
                _sf_fail(t["id"], f"side {SIDES[s]} does not match start cell {nb['id']}")
    totals = _sf_totals(tiles)
    _sf_check_totals(totals, ref, len(ref["tile_types"]))
    disputes = {}
    for tid, d in SAFARI_DISPUTES.items():
        chosen = d.get("chosen") or SAFARI_READING[tid]
        entry = {"chosen": chosen, "json": d["json"], "art": d["art"], "why": d["why"][chosen]}
        if tid in SAFARI_READING:
            entry["switch"] = f"SAFARI_{tid}_READING in tools/gen_tiles.py (\"json\" or \"art\"), then regenerate"
        disputes[tid] = entry
    return {
        "format": "carcassonne-tiles/1",
        "game": "safari",
        "title": ref["game"],
        "generated_from": ("shared/reference/tiles/safari.json (one secondary source: the hobby project "
                           "leandro-barcelos/carc_safari, assets/tiles.json, cross-checked with its pixel art)"),
        "generated_by": "tools/gen_tiles.py (do not edit by hand; regenerate)",
        "total_tiles": sum(t["count"] for t in tiles),
        "disputes": disputes,
        "corner_rule": SAFARI_CORNER_RULE,
        "totals": totals,
        "types": types,
        "start": start,
        "tiles": tiles,
    }


GENERATORS = {
    "base": ("base.json", base_tileset),
    "amazonas": ("amazonas.md", amazonas_tileset),
    "hunters": ("hunters-2020.json", hunters_tileset),
    "safari": ("safari.json", safari_tileset),
}


def dump(obj):
    # one feature per line keeps diffs of the data readable
    lines = ["{"]
    keys = list(obj.keys())
    for ki, k in enumerate(keys):
        comma = "," if ki + 1 < len(keys) else ""
        if k == "tiles":
            lines.append('  "tiles": [')
            for ti, t in enumerate(obj["tiles"]):
                lines.append("    {")
                tk = list(t.keys())
                for j, key in enumerate(tk):
                    c2 = "," if j + 1 < len(tk) else ""
                    if key == "features":
                        lines.append('      "features": [')
                        for fi, f in enumerate(t["features"]):
                            c3 = "," if fi + 1 < len(t["features"]) else ""
                            lines.append("        " + json.dumps(f, ensure_ascii=False) + c3)
                        lines.append("      ]" + c2)
                    else:
                        lines.append(f"      {json.dumps(key)}: {json.dumps(t[key], ensure_ascii=False)}{c2}")
                lines.append("    }" + ("," if ti + 1 < len(obj["tiles"]) else ""))
            lines.append("  ]" + comma)
        else:
            lines.append(f"  {json.dumps(k)}: {json.dumps(obj[k], ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", default=os.path.join(root, "..", "shared", "reference", "tiles"))
    ap.add_argument("--out", default=os.path.join(root, "data", "tiles"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    status = 0
    for game, (fname, gen) in GENERATORS.items():
        src = os.path.join(args.reference, fname)
        with open(src, encoding="utf-8") as fh:
            # JSON reference facts are parsed; any other reference (amazonas.md) is passed as text
            ref = json.load(fh) if fname.endswith(".json") else fh.read()
        doc = gen(ref)
        text = dump(doc)
        dst = os.path.join(args.out, f"{game}.tiles.json")
        if args.check:
            try:
                with open(dst, encoding="utf-8") as fh:
                    old = fh.read()
            except OSError:
                old = None
            if old != text:
                print(f"{dst}: differs from what {src} generates", file=sys.stderr)
                status = 1
            else:
                print(f"{dst}: up to date")
        else:
            with open(dst, "w", encoding="utf-8") as fh:
                fh.write(text)
            print(f"wrote {dst}")
            for key, val in doc.get("totals", {}).items():  # reconstructed sets: show the chosen totals
                print(f"  {key}: {json.dumps(val, ensure_ascii=False)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
