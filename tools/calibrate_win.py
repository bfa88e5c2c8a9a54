#!/usr/bin/env python3
"""Win probability from the search's expected margin (docs/mcts.md, "Win probability"): plays
arena games (greedy bots, seats rotating), reviews each record (`carcassonne review --json`: at
every decision with a choice, the mover's expected final margin of the best option), and fits
P(win) = 1 / (1 + exp(-margin / s)) by maximum likelihood, per game and player count: s in points.
A win is finishing first (a tie for first counts half).

  /usr/bin/python3 tools/calibrate_win.py build/carcassonne [--games 60] [--playouts 100]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile


def fit(points):
    """The s maximising the likelihood of (margin, outcome) pairs: a scan, then a finer one."""
    def nll(s):
        t = 0.0
        for m, y in points:
            p = 1 / (1 + math.exp(-max(-60, min(60, m / s))))
            p = min(max(p, 1e-9), 1 - 1e-9)
            t -= y * math.log(p) + (1 - y) * math.log(1 - p)
        return t
    best = min((nll(s), s) for s in [0.5 * 1.1 ** k for k in range(60)])
    lo, hi = best[1] / 1.1, best[1] * 1.1
    best = min((nll(lo + (hi - lo) * i / 40), lo + (hi - lo) * i / 40) for i in range(41))
    return best[1], best[0] / max(1, len(points))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--playouts", type=int, default=100)
    ap.add_argument("--configs", default="base:2,amazonas:2,hunters:2,safari:2,base:3,base:4")
    a = ap.parse_args()
    out = {}
    for cfg in a.configs.split(","):
        game, n = cfg.split(":")
        n = int(n)
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([a.bin, "arena", "--game", game, "--bots", ",".join(["greedy"] * n), "--games", str(a.games), "--seed", "101",
                            "--quiet", "--records", tmp], check=True, stdout=subprocess.DEVNULL)
            points = []
            for f in sorted(os.listdir(tmp)):
                r = subprocess.run([a.bin, "review", "--json", "--playouts", str(a.playouts), os.path.join(tmp, f)], check=True,
                                   capture_output=True, text=True)
                rv = json.loads(r.stdout)
                sc = rv["final_scores"]
                top = max(sc)
                firsts = sum(1 for x in sc if x == top)
                for d in rv["decisions"]:
                    p = d["player"]
                    y = (1.0 / firsts) if sc[p] == top else 0.0
                    points.append((d["best"]["margin"], y))
        s, loss = fit(points)
        out[cfg] = {"s": round(s, 2), "positions": len(points), "log_loss": round(loss, 4), "games": a.games, "playouts": a.playouts}
        print(cfg, out[cfg], flush=True)
    json.dump(out, sys.stdout, indent=1)
    print()


main()
