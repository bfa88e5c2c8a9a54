#!/usr/bin/env python3
"""Generate the project's tile files (docs/tile-format.md) from the reference tile facts.

Usage: tools/gen_tiles.py [--reference DIR] [--out DIR] [--check]

  --reference DIR  folder holding the reference JSON (default: ../shared/reference/tiles)
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


GENERATORS = {"base": ("base.json", base_tileset)}


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
            ref = json.load(fh)
        text = dump(gen(ref))
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
    return status


if __name__ == "__main__":
    sys.exit(main())
