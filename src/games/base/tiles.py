"""The base game's tile converter (tools/gen_tiles.py runs it): shared/reference/tiles/base.json ->
data/tiles/base.tiles.json (docs/tile-format.md)."""
from tilegen.common import PORTS, SIDES

# convert() is given this file of ../shared/reference/tiles: parsed if JSON, else its text
REFERENCE = "base.json"


def convert(ref):
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
