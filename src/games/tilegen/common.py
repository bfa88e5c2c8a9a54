"""What the games' tile converters (src/games/<id>/tiles.py) share: the port and side names of
docs/tile-format.md, edge checks between tiles, and the one text layout of data/tiles/<id>.tiles.json."""
import json

PORTS = ["NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW"]
SIDES = ["N", "E", "S", "W"]
SEGMENTS = [f"{s}{i}" for s in SIDES for i in range(3)]  # N0..W2, same order as PORTS
DIRS = [(0, -1), (1, 0), (0, 1), (-1, 0)]  # N E S W; y grows to the south


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 or word == "fruit" else "s")


def rot_port_feats(tile, rot):
    """Board port (0..11) -> feature index, for the tile turned rot quarter turns clockwise."""
    out = [None] * 12
    for fi, f in enumerate(tile["features"]):
        for p in f["ports"]:
            if p != "C":
                out[(PORTS.index(p) + 3 * rot) % 12] = fi
    return out


def side_terrains(tile, rot, side):
    pf = rot_port_feats(tile, rot)
    return tuple(tile["features"][pf[3 * side + i]]["type"] for i in range(3))


def edges_match(a, rot_a, side_a, b, rot_b):
    """Tile a's side side_a against tile b's facing side: third i meets third 2-i."""
    ta = side_terrains(a, rot_a, side_a)
    tb = side_terrains(b, rot_b, (side_a + 2) % 4)
    return all(ta[i] == tb[2 - i] for i in range(3))


def dump(obj):
    """A tile file's text: one tile key per line, one feature per line (docs/tile-format.md)."""
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
