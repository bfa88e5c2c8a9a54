#!/usr/bin/env python3
"""Generate the project's tile files (docs/tile-format.md) from the reference tile facts.

For each game of src/games/GAMES, its converter src/games/<id>/tiles.py gives the tile file
data/tiles/<id>.tiles.json: the module names its reference file (REFERENCE, in the reference
folder) and convert(ref) turns that file (parsed if it is JSON, else its text) into the tile file's
object. Helpers the converters share: src/games/tilegen/common.py (beside the games, so that src/ never
imports from tools/). What each game's file is converted
from, and how it is checked, is in its converter's docstring.

Usage: tools/gen_tiles.py [--reference DIR] [--out DIR] [--check]

  --reference DIR  folder holding the reference files (default: ../shared/reference/tiles)
  --out DIR        where to write <game>.tiles.json (default: data/tiles)
  --check          do not write; exit 1 if a generated file differs from the one on disk

The output is deterministic (sorted keys where order does not matter, fixed indentation), so
regenerating from the same reference yields byte-identical files; a test checks that.
"""
import argparse
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)  # game_list
sys.path.insert(0, os.path.join(ROOT, "src", "games"))  # tilegen, for this script and the converters it loads

from game_list import read_list  # noqa: E402
from tilegen.common import dump  # noqa: E402


def converter(game):
    """The module src/games/<game>/tiles.py."""
    path = os.path.join(ROOT, "src", "games", game, "tiles.py")
    spec = importlib.util.spec_from_file_location(f"carc_tiles_{game}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reference", default=os.path.join(ROOT, "..", "shared", "reference", "tiles"))
    ap.add_argument("--out", default=os.path.join(ROOT, "data", "tiles"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    status = 0
    # the games of src/games/GAMES (not the test games of tests/games/GAMES)
    for game in read_list(os.path.join(ROOT, "src", "games", "GAMES")):
        conv = converter(game)
        src = os.path.join(args.reference, conv.REFERENCE)
        with open(src, encoding="utf-8") as fh:
            # JSON reference facts are parsed; any other reference (amazonas.md) is passed as text
            ref = json.load(fh) if conv.REFERENCE.endswith(".json") else fh.read()
        doc = conv.convert(ref)
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
