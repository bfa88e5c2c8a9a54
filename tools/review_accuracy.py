#!/usr/bin/env python3
"""How often a review's mark is right (docs/mcts.md, "Review"): plays seeded games (greedy against
random by default, or the bots named by --bots, seats alternating), reviews each (`carcassonne review --json`), and for the marked moves
plays both continuations, the played move and the review's best, out to the end N times each
with greedy bots on both sides and fresh draws. A mark is right when the best move's mean final
margin beats the played one's by at least the mark's threshold (a blunder's, a mistake's...).

  PYTHONPATH=build/python /usr/bin/python3 tools/review_accuracy.py build/carcassonne \\
      [--game base] [--games 20] [--playouts 1000] [--rollouts 200] [--marks blunder,mistake] [--per-game 3]
      [--first-game K] [--pick first|spread] [--review-args "--share 0.5"] [--dump marks.jsonl]
      [--bots greedy,greedy]

--pick spread takes a game's marks spread over the game rather than the first ones; --dump writes
each measured mark (the review's loss and its standard error, the played-out difference) as a JSON
line, to study other thresholds offline.
"""
import argparse
import json
import os
import random
import subprocess
import tempfile

import carcassonne as c


def play_game(game, seed, players):
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


def at_decision(game, seed, history, index):
    """The state at the index-th player decision (from 1) and the action played there."""
    s = game.new_initial_state(seed=seed)
    n = 0
    for a in history:
        if not s.is_chance_node():
            n += 1
            if n == index:
                return s, a
        s.apply_action(a)
    raise RuntimeError("no such decision")


def margin_of(s, me):
    sc = list(s.scores())
    return sc[me] - max(x for i, x in enumerate(sc) if i != me)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin")
    ap.add_argument("--game", default="base")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--playouts", type=int, default=1000)
    ap.add_argument("--rollouts", type=int, default=200)
    ap.add_argument("--marks", default="blunder,mistake")
    ap.add_argument("--per-game", type=int, default=3)
    ap.add_argument("--first-game", type=int, default=0, help="games are seeded 1000 + k from this k")
    ap.add_argument("--review-args", default="", help="more arguments for carcassonne review")
    ap.add_argument("--pick", choices=["first", "spread"], default="first", help="which of a game's marks: the first, or spread over the game")
    ap.add_argument("--dump", help="write every measured mark (loss, loss_se, played-out difference) here, JSON lines")
    ap.add_argument("--bots", default="greedy,random", help="the two players of the games reviewed: levels or bot specs without commas (greedy,easy)")
    a = ap.parse_args()
    players = a.bots.split(",")
    if len(players) != 2:
        ap.error("--bots takes two bots, comma-separated")
    game = c.Game(a.game)
    marks = a.marks.split(",")
    tally = {m: [0, 0] for m in marks}
    with tempfile.TemporaryDirectory() as tmp:
        dump = open(a.dump, "w") if a.dump else None
        for g in range(a.first_game, a.first_game + a.games):
            seed = 1000 + g
            s, history = play_game(game, seed, players)
            path = os.path.join(tmp, f"{g}.json")
            with open(path, "w") as f:
                f.write(s.to_record_json())
            rv = json.loads(subprocess.run([a.bin, "review", "--json", "--playouts", str(a.playouts), *a.review_args.split(), path], check=True, capture_output=True, text=True).stdout)
            th = rv["thresholds"]
            picked = [d for d in rv["decisions"] if d["mark"] in marks]
            if a.pick == "spread" and len(picked) > a.per_game:
                picked = [picked[k * len(picked) // a.per_game] for k in range(a.per_game)]
            picked = picked[: a.per_game]
            for d in picked:
                st, played = at_decision(game, seed, history, d["index"])
                me = st.current_player()
                best = st.string_to_action(d["best"]["move"])
                rng = random.Random(seed * 7 + d["index"])
                means, vars_ = [], []
                for act in (best, played):
                    child = st.child(act)
                    tot = tot2 = 0.0
                    for _ in range(a.rollouts):
                        t = child.clone()
                        while not t.is_terminal():
                            if t.is_chance_node():
                                acts, probs = zip(*t.chance_outcomes())
                                t.apply_action(rng.choices(acts, probs)[0])
                            else:
                                t.apply_action(c.bot_action(t, "greedy", rng.randrange(1 << 30)))
                        m = margin_of(t, me)
                        tot += m
                        tot2 += m * m
                    means.append(tot / a.rollouts)
                    vars_.append(max(0.0, tot2 / a.rollouts - means[-1] ** 2) / max(1, a.rollouts - 1))
                right = means[0] - means[1] >= th[d["mark"]]
                tally[d["mark"]][0] += right
                tally[d["mark"]][1] += 1
                if dump:
                    dump.write(json.dumps({"game": g, "index": d["index"], "mark": d["mark"], "loss": d["loss"], "loss_se": d["loss_se"], "options": d["options"], "turn": d["turn"], "best_margin": d["best"]["margin"], "played_margin": d["played"]["margin"], "threshold": th[d["mark"]], "played_out": round(means[0] - means[1], 2), "played_out_se": round((vars_[0] + vars_[1]) ** 0.5, 2)}) + "\n")
                    dump.flush()
                print(f"game {g} decision {d['index']} {d['mark']}: review loss {d['loss']}, played out {means[0] - means[1]:+.1f} ({'right' if right else 'wrong'})", flush=True)
    print(json.dumps({m: {"right": r, "marked": n, "share": round(r / n, 3) if n else None} for m, (r, n) in tally.items()}))


main()
