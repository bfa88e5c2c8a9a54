#!/usr/bin/env python3
"""How right a review's marks are (docs/mcts.md, "How right the marks are"): plays seeded games
between two bots (seats alternating), reviews each (`carcassonne review --json`), and judges
decisions by playing them out with a stronger continuation than the review's own playouts.

A judged decision compares the played move with the review's suggestion (for an unmarked decision
whose played move the review found best: the review's best other option) with `carcassonne judge`
(ai/judge.hpp): both moves are played on in pairs, the n-th continuation of each drawing its chance
outcomes and its bots' seeds from the same random stream; a continuation is --depth decisions of
the judge's bot (--judge, a search at every decision, both sides), then a deeper analysis
(--eval-playouts) of the position reached gives the expected final margin. The true loss is the
mean paired difference of the mover's margin (own score minus the best other's), with its standard
error; pairs are added (from --pairs up to --max-pairs) while the loss is within 2.5 standard
errors of the threshold that decides the question.

- A marked decision is right when the true loss reaches the mark's threshold within two standard
  errors (loss + 2 se >= threshold): the precision of `?!`, `?` and `??`.
- An unmarked decision is right when the true loss stays under the `?!` threshold within two
  standard errors (loss - 2 se < threshold); the share is weighted by how many unmarked decisions
  each judged one stands for.
- Recall of a level: of the judged decisions whose true loss is at least its threshold (loss - 2 se
  >= threshold), the share the review marked at that level or worse, unmarked decisions counted
  with the weight of the ones they were sampled from.

Every judged decision is a line of --dump (JSON), and --from-dump reads such lines instead of
judging (the report again, or several runs pooled).

  PYTHONPATH=build/python /usr/bin/python3 tools/review_accuracy.py build/carcassonne \\
      [--game base] [--games 10] [--first-game 0] [--bots greedy,random] [--playouts 1000]
      [--review-args "--value 0"] [--judge mcts:playouts=200,threads=1] [--depth 6]
      [--eval-playouts 2000] [--pairs 8]
      [--max-pairs 32] [--unmarked 6] [--candidates] [--dump F] [--from-dump F[,F...]]
"""
import argparse
import json
import math
import os
import random
import subprocess
import sys
import tempfile

LEVELS = ["inaccuracy", "mistake", "blunder"]
SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def wilson(k, n, z=1.96):
    if n == 0:
        return (float("nan"), float("nan"))
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def play_game(c, game, seed, players):
    s = game.new_initial_state(seed=seed)
    bots = players if seed % 2 == 0 else players[::-1]
    history = []
    k = 0
    while not s.is_terminal():
        if s.is_chance_node():
            a = s.sample_chance_outcome()
        else:
            k += 1
            a = c.bot_action(s, bots[s.current_player()], seed * 1000 + k)
        history.append(a)
        s.apply_action(a)
    return s, history


def points_mark(r):
    """The mark of the loss less its standard error alone (no chance-to-win condition)."""
    x = r["review_loss"] - r["review_se"]
    th = r["thresholds"]
    return next((lv for lv in reversed(LEVELS) if x >= th[lv]), "")


def report(rows, out=sys.stdout, rule="review"):
    """Precision per mark, the unmarked within the ?! threshold, recall per level, from judged rows.
    rule "points": each row marked by points_mark instead of the review's mark (needs --candidates)."""
    if rule == "points":
        rows = [dict(r, mark=points_mark(r)) for r in rows]
    by_game = {}
    for r in rows:
        by_game.setdefault(r["game"], []).append(r)
    summary = {}
    for game, rs in sorted(by_game.items()):
        th = rs[0]["thresholds"]
        g = {"decisions": len(rs)}
        for lv in LEVELS:
            marked = [r for r in rs if r["mark"] == lv]
            right = sum(r["loss"] + 2 * r["se"] >= th[lv] for r in marked)
            lo, hi = wilson(right, len(marked))
            g[lv] = {"marked": len(marked), "right": right, "precision": right / len(marked) if marked else None, "ci": [lo, hi]}
        # the unmarked: the share within the ?! threshold, each judged decision weighted by how many
        # unmarked ones it stands for (all candidates judged, the rest sampled); the interval is
        # Wilson's at the weighted share over the judged count
        un = [r for r in rs if r["mark"] == ""]
        within = sum(r["loss"] - 2 * r["se"] < th["inaccuracy"] for r in un)
        w_all = sum(r["weight"] for r in un)
        share = sum(r["weight"] for r in un if r["loss"] - 2 * r["se"] < th["inaccuracy"]) / w_all if w_all else None
        lo, hi = wilson(share * len(un), len(un)) if un else (None, None)
        g["unmarked"] = {"judged": len(un), "within": within, "share": share, "ci": [lo, hi]}
        for i, lv in enumerate(LEVELS):
            # truly at least this level: weight each judged decision by how many it stands for
            truly = [r for r in rs if r["loss"] - 2 * r["se"] >= th[lv]]
            w_all = sum(r["weight"] for r in truly)
            w_hit = sum(r["weight"] for r in truly if r["mark"] in LEVELS[i:])
            g[lv]["recall"] = w_hit / w_all if w_all else None
            g[lv]["truly"] = len(truly)
        summary[game] = g
        print(f"{game}: {len(rs)} decisions judged (thresholds ?! {th['inaccuracy']:.1f}, ? {th['mistake']:.1f}, ?? {th['blunder']:.1f})", file=out)
        for lv in LEVELS:
            x = g[lv]
            p = "-" if x["precision"] is None else f"{100 * x['precision']:.0f}% ({100 * x['ci'][0]:.0f}-{100 * x['ci'][1]:.0f})"
            rc = "-" if x["recall"] is None else f"{100 * x['recall']:.0f}% of {x['truly']} truly so"
            print(f"  {SIGNS[lv]:3} marked {x['marked']:4}, right {x['right']:4}: precision {p}; recall {rc}", file=out)
        u = g["unmarked"]
        sh = "-" if u["share"] is None else f"{100 * u['share']:.0f}% ({100 * u['ci'][0]:.0f}-{100 * u['ci'][1]:.0f})"
        print(f"  unmarked judged {u['judged']:4}, within ?! {u['within']:4}: weighted {sh}", file=out)
    return summary


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bin", nargs="?")
    ap.add_argument("--game", default="base")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--first-game", type=int, default=0, help="games are seeded 1000 + k from this k")
    ap.add_argument("--bots", default="greedy,random", help="the two players of the games reviewed: levels or bot specs without commas")
    ap.add_argument("--playouts", type=int, default=1000, help="the review's playouts per decision")
    ap.add_argument("--review-args", default="", help="more arguments for carcassonne review")
    ap.add_argument("--judge", default="mcts:playouts=200,threads=1", help="the continuation's bot, both sides")
    ap.add_argument("--depth", type=int, default=6, help="decisions the judge plays before a deeper analysis judges the position")
    ap.add_argument("--eval-playouts", type=int, default=2000, help="that analysis' playouts (0: every continuation to the end)")
    ap.add_argument("--pairs", type=int, default=8, help="paired continuations at least")
    ap.add_argument("--max-pairs", type=int, default=32, help="paired continuations at most")
    ap.add_argument("--unmarked", type=int, default=6, help="unmarked decisions judged per game (sampled)")
    ap.add_argument("--marks", default="inaccuracy,mistake,blunder", help="which marks are judged")
    ap.add_argument("--candidates", action="store_true", help="judge too every unmarked decision whose review loss less its se reaches the ?! threshold (to try other rules on the dump)")
    ap.add_argument("--dump", help="append every judged decision here, a JSON line each")
    ap.add_argument("--from-dump", help="report from these dumps (comma-separated) instead of judging")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON too")
    ap.add_argument("--rule", choices=["review", "points"], default="review",
                    help="with --from-dump: the review's marks, or marks of the loss less its se alone (dumps made with --candidates)")
    a = ap.parse_args()
    if a.from_dump:
        rows = [json.loads(line) for f in a.from_dump.split(",") for line in open(f) if line.strip()]
        s = report(rows, rule=a.rule)
        if a.json:
            print(json.dumps(s))
        return
    if not a.bin:
        ap.error("the carcassonne binary is needed unless --from-dump")
    import carcassonne as c

    players = a.bots.split(",")
    if len(players) != 2:
        ap.error("--bots takes two bots, comma-separated")
    game = c.Game(a.game)
    marks = a.marks.split(",")
    rows = []
    dump = open(a.dump, "a") if a.dump else None
    with tempfile.TemporaryDirectory() as tmp:
        for g in range(a.first_game, a.first_game + a.games):
            seed = 1000 + g
            s, history = play_game(c, game, seed, players)
            path = os.path.join(tmp, f"{g}.json")
            with open(path, "w") as f:
                f.write(s.to_record_json())
            rv = json.loads(subprocess.run([a.bin, "review", "--json", "--playouts", str(a.playouts), *a.review_args.split(), path],
                                           check=True, capture_output=True, text=True).stdout)
            th = rv["thresholds"]
            with_choice = [d for d in rv["decisions"] if d["options"] > 1]
            picked = [d for d in with_choice if d["mark"] in marks]
            if a.candidates:  # unmarked, but losing the ?! threshold less the loss's se (another rule's marks)
                picked += [d for d in with_choice if not d["mark"] and d["loss"] - d["loss_se"] >= th["inaccuracy"]]
            unmarked = [d for d in with_choice if not d["mark"] and d not in picked]
            sample = random.Random(seed).sample(unmarked, min(a.unmarked, len(unmarked)))
            weight = len(unmarked) / len(sample) if sample else 0
            for d in picked + sample:
                other = d["best"]["move"]
                if other == d["played"]["move"]:
                    others = [o["move"] for o in d["top"] if o["move"] != d["played"]["move"]]
                    if not others:
                        continue
                    other = others[0]
                thr = th[d["mark"]] if d["mark"] else th["inaccuracy"]
                j = json.loads(subprocess.run([a.bin, "judge", path, "--decision", str(d["index"]), "--better", other, "--threshold", str(thr),
                                               "--bot", a.judge, "--depth", str(a.depth), "--eval-playouts", str(a.eval_playouts),
                                               "--pairs", str(a.pairs), "--max-pairs", str(a.max_pairs), "--seed", str(seed * 1000 + d["index"])],
                                              check=True, capture_output=True, text=True).stdout)
                row = {"game": a.game, "record": g, "index": d["index"], "turn": d["turn"], "mark": d["mark"], "weight": 1 if d in picked else weight,
                       "review_loss": d["loss"], "review_se": d["loss_se"], "win_loss": round(d["best"]["win_prob"] - d["played"]["win_prob"], 4),
                       "loss": round(j["loss"], 3), "se": round(j["se"], 3), "pairs": j["pairs"], "thresholds": th,
                       "judge": a.judge, "depth": a.depth, "eval_playouts": a.eval_playouts, "playouts": a.playouts, "bots": a.bots}
                rows.append(row)
                if dump:
                    dump.write(json.dumps(row) + "\n")
                    dump.flush()
                print(f"game {g} decision {d['index']} {SIGNS.get(d['mark'], '  ')}: review loss {d['loss']:+.1f}, "
                      f"judged {j['loss']:+.1f} ± {j['se']:.1f} ({j['pairs']} pairs)", flush=True)
    s = report(rows)
    if a.json:
        print(json.dumps(s))


main()
