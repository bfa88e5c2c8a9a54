"""Hunters & Gatherers' tile converter (tools/gen_tiles.py runs it):
shared/reference/tiles/hunters-2020.json -> data/tiles/hunters.tiles.json, checked against the
reference's totals."""
from tilegen.common import PORTS, SIDES, SEGMENTS

# convert() is given this file of ../shared/reference/tiles: parsed if JSON, else its text
REFERENCE = "hunters-2020.json"


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
        segs = [SEGMENTS[PORTS.index(p)] for p in ports_of[label]]
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


def convert(ref):
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
