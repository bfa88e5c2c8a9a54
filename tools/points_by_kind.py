#!/usr/bin/env python3
"""Where a bot's points come from: the score events of game records, summed by kind.

    carcassonne arena --game base --bots mcts:playouts=2000,threads=1,greedy --games 60 \
        --seed 9001 --quiet --records DIR
    tools/points_by_kind.py DIR --bot mcts

For every kind of scoring (the event's feature and reason, e.g. "city completed", "field farm"),
the mean points per game of the seat whose bot spec starts with --bot, of the other seats
together divided by their number (the mean other seat), and the difference. Records are
docs/record.md's JSON; files that are not, or have no such seat, are skipped and named (the
first three) on standard error; with none left the exit status is 2.
"""
import argparse
import collections
import json
import pathlib
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("records", help="a folder of records (arena --records DIR) or one record")
    ap.add_argument("--bot", required=True, help="the studied seat: the first whose bot spec starts with this")
    ap.add_argument("--json", action="store_true", help="print the table as JSON")
    args = ap.parse_args()

    root = pathlib.Path(args.records)
    files = sorted(root.glob("*.json")) if root.is_dir() else [root]
    if not files:
        print(f"points_by_kind: no .json records in {root}", file=sys.stderr)
        return 2
    mine = collections.Counter()
    theirs = collections.Counter()
    games = wins = 0
    skipped = []
    total_mine = total_theirs = 0.0
    for f in files:
        try:
            d = json.loads(f.read_text())
            players = d["players"]
            seats = [i for i, p in enumerate(players) if str(p.get("bot", "")).startswith(args.bot)]
            events = d["events"]
            final = d["final_scores"]
        except (OSError, ValueError, KeyError, TypeError) as e:
            skipped.append(f"{f}: not a record: {e}")
            continue
        if not seats:
            skipped.append(f"{f}: no seat's bot starts with {args.bot!r}")
            continue
        if len(players) < 2 or not isinstance(final, list) or len(final) != len(players):
            skipped.append(f"{f}: its final scores do not match its players")
            continue
        me = seats[0]
        others = len(players) - 1
        games += 1
        best_other = max(s for i, s in enumerate(final) if i != me)
        wins += 1 if final[me] > best_other else 0
        total_mine += final[me]
        total_theirs += sum(s for i, s in enumerate(final) if i != me) / others
        for e in events:
            if "points" not in e or "player" not in e:
                continue
            kind = f"{e.get('feature', '?')} {e.get('reason', '?')}"
            if e["player"] == me:
                mine[kind] += e["points"]
            else:
                theirs[kind] += e["points"] / others
    for s in skipped[:3]:
        print(f"points_by_kind: skipped {s}", file=sys.stderr)
    if len(skipped) > 3:
        print(f"points_by_kind: skipped {len(skipped) - 3} more", file=sys.stderr)
    if games == 0:
        print("points_by_kind: no record to count", file=sys.stderr)
        return 2
    rows = []
    for kind in sorted(set(mine) | set(theirs), key=lambda k: -(mine[k] + theirs[k])):
        rows.append({"kind": kind, "bot": mine[kind] / games, "others": theirs[kind] / games,
                     "difference": (mine[kind] - theirs[kind]) / games})
    if args.json:
        print(json.dumps({"games": games, "wins": wins, "score": total_mine / games,
                          "others_score": total_theirs / games, "kinds": rows}, indent=1))
        return 0
    print(f"{games} games, the seat of {args.bot!r} won {wins}; points per game "
          f"(others: the mean other seat)")
    print(f"  {'kind':<24}{'bot':>8}{'others':>8}{'diff':>8}")
    for r in rows:
        print(f"  {r['kind']:<24}{r['bot']:8.1f}{r['others']:8.1f}{r['difference']:+8.1f}")
    print(f"  {'final score':<24}{total_mine / games:8.1f}{total_theirs / games:8.1f}"
          f"{(total_mine - total_theirs) / games:+8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
