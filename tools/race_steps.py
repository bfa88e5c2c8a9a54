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
"""
import collections
import json
import pathlib
import sys


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 1
    root = pathlib.Path(sys.argv[1])
    files = sorted(root.glob("*.json")) if root.is_dir() else [root]
    parts = {"start to the first scoring": collections.Counter(), "between scorings": collections.Counter(),
             "the last scoring to the mouth": collections.Counter()}
    used = 0
    for f in files:
        try:
            d = json.loads(f.read_text())
        except (OSError, ValueError) as e:
            print(f"race_steps: {f}: {e}", file=sys.stderr)
            continue
        if d.get("game") != "amazonas" or len(d.get("players", [])) != 2:
            continue
        used += 1
        track = [1, 1]
        events = d["events"]
        start_lead, first = 0, True
        i = 0
        while i < len(events):
            e = events[i]
            reason = e.get("reason")
            if reason == "track" and e.get("cause") != 4:
                track[e["player"]] = e["space"]
            if reason == "amazon":
                lead = track[0] - track[1]
                parts["start to the first scoring" if first else "between scorings"][lead - start_lead] += 1
                first = False
                j = i  # this turn's scorings and the moves of boats that scored nothing
                while j < len(events) and events[j]["turn"] == e["turn"] and (
                        events[j].get("reason") == "amazon"
                        or (events[j].get("reason") == "track" and events[j].get("cause") == 4)):
                    if events[j].get("reason") == "track":
                        track[events[j]["player"]] = events[j]["space"]
                    j += 1
                start_lead = track[0] - track[1]
                i = j
                continue
            if reason == "mouth":
                parts["the last scoring to the mouth"][track[0] - track[1] - start_lead] += 1
                break
            i += 1
    if not used:
        print(f"race_steps: no two-player Amazonas records in {root}", file=sys.stderr)
        return 2
    print(f"{used} games")
    for name, c in parts.items():
        n = sum(c.values())
        if not n:
            continue
        mean = sum(k * v for k, v in c.items()) / n
        var = sum(k * k * v for k, v in c.items()) / n - mean * mean
        dist = ", ".join(f"{k:+d}: {v / n:.3f}" for k, v in sorted(c.items()))
        print(f"{name}: {n} steps, mean {mean:+.2f}, variance {var:.2f} ({dist})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
