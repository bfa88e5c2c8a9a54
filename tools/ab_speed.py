#!/usr/bin/env python3
"""Alternating speed comparison of two carcassonne binaries (CPU time, medians).

  tools/ab_speed.py OLD_BIN NEW_BIN [--rounds 7] [--games base,amazonas,hunters,safari]

Per round and game, in alternating order (old first on even rounds): the signature run's random
games per CPU-second (`bench --no-gbench --games N`, CPU from getrusage of the child) and the
Google Benchmark cases MctsPlayout and MctsMove (their playouts per CPU-second counter). Prints each figure's median for
both binaries and the new one's change in percent (positive: new is slower)."""
import argparse, re, resource, statistics, subprocess, sys


def random_games(binary, game, games):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([binary, "bench", "--game", game, "--no-gbench", "--games", str(games)],
                         capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    sig = re.search(r"signature\S*:?\s*([0-9a-f]{16})", out)
    return games / cpu, sig.group(1) if sig else "?"


def gbench(binary, game, min_time):
    out = subprocess.run([binary, "bench", "--game", game, "--min-time", str(min_time), "--filter", f"Mcts.*/{game}"],
                         capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.splitlines():
        # the playouts/s counter: per CPU-second, five digits (the time columns have three)
        m = re.match(r"(Mcts\S+)\s.*playouts/s=([\d.]+)(k?)/s", line)
        if m:
            res[m.group(1)] = float(m.group(2)) * (1000 if m.group(3) else 1)
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--games", default="base,amazonas,hunters,safari")
    ap.add_argument("--random-games", type=int, default=40000)
    ap.add_argument("--min-time", type=float, default=1.0)
    a = ap.parse_args()
    figs = {}  # (game, what) -> {"old": [...], "new": [...]}
    sigs = {}  # game -> {"old": signature, "new": signature}
    for r in range(a.rounds):
        for game in a.games.split(","):
            order = [("old", a.old), ("new", a.new)]
            if r % 2:
                order.reverse()
            for who, b in order:
                rate, sig = random_games(b, game, a.random_games)
                sigs.setdefault(game, {})[who] = sig
                figs.setdefault((game, "random games/CPU-s"), {}).setdefault(who, []).append(rate)
                for case, ms in gbench(b, game, a.min_time).items():
                    figs.setdefault((game, case + " playouts/CPU-s"), {}).setdefault(who, []).append(ms)
        print(f"round {r + 1} done", file=sys.stderr, flush=True)
    for game, s in sigs.items():
        print(f"{game:9} signature old {s['old']} new {s['new']}" + ("" if s["old"] == s["new"] else "  DIFFERENT"))
    print(f"{'game':9} {'figure':45} {'old':>10} {'new':>10} {'change':>8}")
    for (game, what), d in figs.items():
        if "old" not in d or "new" not in d:
            continue
        o, n = statistics.median(d["old"]), statistics.median(d["new"])
        change = (o / n - 1) * 100  # a rate: positive when the new binary does fewer per CPU-second
        print(f"{game:9} {what:45} {o:10.0f} {n:10.0f} {change:+7.1f}%  ({len(d['old'])} runs each)")


if __name__ == "__main__":
    main()
