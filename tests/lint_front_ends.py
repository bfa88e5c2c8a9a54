#!/usr/bin/env python3
"""Front ends name no game (issue 24): fails when a game's id or a game-specific term appears in
the front ends' folders (src/cli, src/server, src/rl, src/view, web/src), comments included.

Games are data plus hooks in their own folders (src/games/<id>/, tests/games/<id>/); front ends
draw the view (src/view) with the game's look and never know which game it is. The ids come from
src/games/GAMES and tests/games/GAMES, except "base": the base game is the default and its word is
ordinary English ("the base look"); its concepts (roads, cities, followers) are the generic ones.
The terms are words only some games use. A match is a whole word, case-insensitive, with a plural
or -er/-ing ending ("photographers"), also inside identifiers ("kJeepCount", "jeep_line").

No front-end folder may name any (ALLOW, empty now, could list a file with its exact count of
lines; a file with more fails, one with fewer is reported so that its count can come down).

Usage: lint_front_ends.py [ROOT]   (ROOT: the checkout; default: this file's parent folder)
"""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ["src/cli", "src/server", "src/rl", "src/view", "web/src"]
STRICT = set(FOLDERS)  # no mention at all, anywhere
TERMS = ["jeep", "watering", "boat", "amazon", "mouth", "huts?", "camp", "photograph", "baobab", "caiman",
         "fish", "raft", "shaman", "menhir", "explorer", "beacon"]
EXTENSIONS = (".cpp", ".hpp", ".h", ".cc", ".c", ".js", ".mjs", ".ts", ".css", ".html", ".json", ".md", ".txt", ".py")

# Lines allowed to name a game or a game's term outside src/cli (file -> lines): none since every
# front-end folder was cleaned (issue 24). A mention that must stay goes here with its exact count.
ALLOW: dict[str, int] = {}


def game_ids():
    ids = []
    for rel in ("src/games/GAMES", "tests/games/GAMES"):
        try:
            with open(os.path.join(ROOT, rel), encoding="utf-8") as fh:
                ids += [w for w in (line.split("#", 1)[0].strip() for line in fh) if w]
        except FileNotFoundError:
            pass
    return [i for i in ids if i != "base"]


def pattern(words):
    alts = "|".join(words)
    # a word of its own: no letter before it (or a lower-case letter then the word capitalised, as in
    # camelCase), no lower-case letter after its ending
    return re.compile(r"(?:(?<![A-Za-z])|(?<=[a-z])(?=[A-Z]))(?i:(?:%s)(?:e?s|ers?|ing)?)(?![a-z])" % alts)


def main():
    ids = game_ids()
    if not ids:
        print("lint_front_ends: no game ids found", file=sys.stderr)
        return 1
    pat = pattern([re.escape(i) for i in ids] + TERMS)
    bad, notes = [], []
    found = {}
    for folder in FOLDERS:
        base = os.path.join(ROOT, folder)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if d not in ("node_modules", "dist"))
            for name in sorted(filenames):
                if not name.endswith(EXTENSIONS):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, ROOT)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for n, line in enumerate(fh, 1):
                        m = pat.search(line)
                        if m:
                            found.setdefault(rel, []).append((n, m.group(0), line.strip()))
    for rel, hits in sorted(found.items()):
        strict = any(rel == f or rel.startswith(f + "/") for f in STRICT)
        allowed = 0 if strict else ALLOW.get(rel, 0)
        if len(hits) > allowed:
            bad.append((rel, hits, allowed))
        elif len(hits) < allowed:
            notes.append(f"{rel}: {len(hits)} lines now, ALLOW says {allowed}: lower it")
    for rel, allowed in sorted(ALLOW.items()):
        if rel not in found and allowed:
            notes.append(f"{rel}: no mention left: remove it from ALLOW")
    for note in notes:
        print("note:", note)
    if bad:
        for rel, hits, allowed in bad:
            print(f"{rel}: {len(hits)} lines name a game or a game's term (allowed: {allowed})")
            for n, word, text in hits:
                print(f"  {rel}:{n}: {word!r}: {text[:120]}")
        print("Front ends must not name a game: draw from the view and the game's look (docs/view.md).")
        return 1
    total = sum(len(h) for h in found.values())
    print(f"lint_front_ends: ok ({total} allowed lines outside src/cli, {len(ids)} game ids and {len(TERMS)} terms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
