#!/usr/bin/env python3
"""How Amazonas' boat race moves between two Amazon scorings, from game records.

    carcassonne selfplay --game amazonas --players 2 --bots greedy,greedy --games 300 --seed 77 \
        --records DIR
    tools/race_steps.py DIR

For two-player records (docs/record.md): the lead (seat 1's space less seat 2's) just before each
Amazon scoring less the lead just after the one before (the boats' own moves in between: passes and
boat icons, not the scoring's moves of boats that scored nothing), from the start to the first
scoring, between scorings, and from the last one to the river mouth; each with its count, mean,
variance and distribution. The search's model of the race (docs/mcts.md, "Amazonas: a model of the
boat race") takes its step variances from these (2.08 between scorings, 0.71 after the last).

Records of three or more players get the same three parts for each boat's own move ("each boat")
and for the difference of two boats' moves ("two boats"), every pair of seats once; the model's
step for each boat has half the variance of the two boats' difference.
"""
import collections
import json
import pathlib
import sys

PARTS = ("start to the first scoring", "between scorings", "the last scoring to the mouth")


def steps(events, n):
    """(part, each boat's own move since the last scoring) for every interval of one game."""
    track = [1] * n
    base = [1] * n
    part = PARTS[0]
    out = []
    i = 0
    while i < len(events):
        e = events[i]
        reason = e.get("reason")
        if reason == "track" and e.get("cause") != 4:
            track[e["player"]] = e["space"]
        if reason == "amazon":
            out.append((part, [track[p] - base[p] for p in range(n)]))
            part = PARTS[1]
            j = i  # this turn's scorings and the moves of boats that scored nothing
            while j < len(events) and events[j]["turn"] == e["turn"] and (
                    events[j].get("reason") == "amazon"
                    or (events[j].get("reason") == "track" and events[j].get("cause") == 4)):
                if events[j].get("reason") == "track":
                    track[events[j]["player"]] = events[j]["space"]
                j += 1
            base = list(track)
            i = j
            continue
        if reason == "mouth":
            out.append((PARTS[2], [track[p] - base[p] for p in range(n)]))
            break
        i += 1
    return out


def line(name, c):
    n = sum(c.values())
    mean = sum(k * v for k, v in c.items()) / n
    var = sum(k * k * v for k, v in c.items()) / n - mean * mean
    dist = ", ".join(f"{k:+d}: {v / n:.3f}" for k, v in sorted(c.items()))
    return f"{name}: {n} steps, mean {mean:+.2f}, variance {var:.2f} ({dist})"


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 1
    root = pathlib.Path(sys.argv[1])
    files = sorted(root.glob("*.json")) if root.is_dir() else [root]
    # by player count: part -> Counter, for the lead (2), each boat and two boats (3 or more)
    lead = {p: collections.Counter() for p in PARTS}
    each = collections.defaultdict(lambda: {p: collections.Counter() for p in PARTS})
    pair = collections.defaultdict(lambda: {p: collections.Counter() for p in PARTS})
    games = collections.Counter()
    for f in files:
        try:
            d = json.loads(f.read_text())
        except (OSError, ValueError) as e:
            print(f"race_steps: {f}: {e}", file=sys.stderr)
            continue
        n = len(d.get("players", []))
        if d.get("game") != "amazonas" or n < 2:
            continue
        games[n] += 1
        for part, moved in steps(d["events"], n):
            if n == 2:
                lead[part][moved[0] - moved[1]] += 1
                continue
            for p in range(n):
                each[n][part][moved[p]] += 1
                for q in range(p + 1, n):
                    pair[n][part][moved[p] - moved[q]] += 1
    if not games:
        print(f"race_steps: no Amazonas records in {root}", file=sys.stderr)
        return 2
    print(f"{sum(games.values())} games")
    for name, c in lead.items():
        if sum(c.values()):
            print(line(name, c))
    for n in sorted(k for k in games if k > 2):
        print(f"{n} players, {games[n]} games")
        for part in PARTS:
            if sum(each[n][part].values()):
                print("  " + line(f"each boat, {part}", each[n][part]))
                print("  " + line(f"two boats, {part}", pair[n][part]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
