#!/usr/bin/env python3
"""The list of games, as the engine's game_ids() gives it: src/games/GAMES (one id a line, #
comments), then tests/games/GAMES when CARCASSONNE_TEST_GAMES=1 (docs/architecture.md, "Adding a
game"). For scripts and tests that do not load the engine; run it to print the ids, one a line."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_list(path):
    """The ids of one list file; [] if there is none."""
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except FileNotFoundError:
        return []
    return [gid for gid in (line.split("#", 1)[0].strip() for line in lines) if gid]


def game_ids(root=ROOT):
    ids = read_list(os.path.join(root, "src", "games", "GAMES"))
    if os.environ.get("CARCASSONNE_TEST_GAMES") == "1":
        ids += read_list(os.path.join(root, "tests", "games", "GAMES"))
    return ids


if __name__ == "__main__":
    print("\n".join(game_ids()))
