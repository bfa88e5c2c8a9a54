"""Amazonas' tile converter (tools/gen_tiles.py runs it): data/tiles/amazonas.tiles.json is a
RECONSTRUCTION (the real tiles are published only as pictures; see
shared/reference/tiles/amazonas.md): its data are the AMAZONAS_* tables in this file, checked
against the known facts when generated.

The tile file's "correcting" and "generated_from" texts still name tools/gen_tiles.py, where these
tables were until each game's converter moved to its folder: they are kept so that the file stays
byte-identical; the tables are here."""
from tilegen.common import PORTS, SIDES, DIRS, plural, side_terrains, edges_match

# convert() is given this file of ../shared/reference/tiles: parsed if JSON, else its text
REFERENCE = "amazonas.md"  # facts only: the data are the tables below


# Amazonas: a RECONSTRUCTED tile set (shared/reference/tiles/amazonas.md). The real per-tile
# contents are published only as pictures; everything below obeys the known facts (65 land +
# 15 Amazon tiles, 3 with "!", 4 double Amazon tiles, 2x4 start board, 10 open cells at the start)
# and models the land tiles on the base game's shapes. A player who owns the box corrects it by
# editing the tables below (AMAZONAS_LAND, AMAZONAS_RIVER, AMAZONAS_DOUBLES, AMAZONAS_START) and
# rerunning tools/gen_tiles.py, keeping ids and counts.
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
        return "jungle" + (f" ({plural(bank[1], 'animal')})" if bank[1] else "")
    if bank[0] == "village":
        return "village" + (f" ({plural(bank[1], 'fruit')})" if bank[1] else "")
    extra = [x for x in (plural(bank[1], "fruit") if bank[1] else "", plural(bank[2], "boat icon") if bank[2] else "") if x]
    return "tributary ending at the Amazon" + (f" ({', '.join(extra)})" if extra else "")


def _amz_river_text(north, south, caimans, piranhas):
    return (f"Amazon W-E, {plural(caimans, 'caiman')}, {plural(piranhas, 'piranha')}; "
            f"north bank: {_amz_bank_text(north)}; south bank: {_amz_bank_text(south)}")


def _amz_attrs_text(feats):
    parts = []
    for f in feats:
        for k, v in f.get("attrs", {}).items():
            parts.append(f"{plural(v, 'boat icon' if k == 'boat' else k)} on the {f['type']}")
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
            if side_terrains(t, 0, side) != ("jungle", "amazon", "jungle"):
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
        if not edges_match(t, 0, 1, east, 0):
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
    land_sides = {side_terrains(t, 0, s) for t in land for s in range(4)}

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
                if nb and not edges_match(t, r, s, nb[0], nb[1]):
                    _amz_fail(t["id"], f"side {SIDES[s]} does not match {nb[0]['id']} at {x + dx},{y + dy}")
                if nb is None and (x, y) != (3, 0) and side_terrains(t, r, s) not in {
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
                    if any(all(edges_match(lt, r, s, *board[(c[0] + ddx, c[1] + ddy)])
                               for s, (ddx, ddy) in enumerate(DIRS) if (c[0] + ddx, c[1] + ddy) in board)
                           for r in range(4)):
                        open_cells.add(c)
                        break
        want = {(x, -1) for x in range(4)} | {(x, 2) for x in range(4)} | {(-1, 0), (-1, 1)}
        if open_cells != want:
            raise SystemExit(f"amazonas start {side['name']!r}: land fits at {sorted(open_cells)}, want the 10 cells {sorted(want)}")
        # weak check: every land tile fits next to the start board or beside another land tile
        for lt in land:
            ok = any(edges_match(lt, r, s, *board[(c[0] + dx, c[1] + dy)])
                     for c in want for s, (dx, dy) in enumerate(DIRS) if (c[0] + dx, c[1] + dy) in board
                     for r in range(4))
            ok = ok or any(edges_match(lt, r, s, o, ro) for o in land for ro in range(4)
                           for r in range(4) for s in range(4))
            if not ok:
                _amz_fail(lt["id"], "fits nowhere")
    # Amazon banks must be matchable by land tiles (rows y = -1 and y = 1 next to the river)
    for t in tiles:
        if t.get("kind") in ("amazon", "amazon!", "double"):
            for s in (0, 2):
                if side_terrains(t, 0, s) not in {tuple(reversed(ls)) for ls in land_sides}:
                    _amz_fail(t["id"], f"bank side {SIDES[s]} is matched by no land tile")
            # either orientation continues any other Amazon tile
            for o in river:
                for r in (0, 2):
                    if not edges_match(o, 0, 1, t, r):
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


def convert(reference_text):
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
