#!/usr/bin/python3
"""The Python interface's benchmark (docs/python.md): figures as CPU time of this process.

    PYTHONPATH=build/python /usr/bin/python3 tools/python_bench.py [--games N] [--quick]

1. random base games per second through VecEnv with masks, on one core (one thread), against the
   same loop run in C++ alone (carcassonne._core._bench_vec_env_cpp);
2. the same with observations;
3. State.apply_action + State.legal_actions per call;
4. State.observation_tensor per state;
5. the batched search's leaves per CPU second (a trivial evaluator) for every game;
6. pickling a mid-game state of every game (dumps + loads, the record's size);
7. how often a board outgrows the observation window: greedy and mcts games (carcassonne
   selfplay records) and random games (--no-window skips it: it takes minutes).
"""
import argparse
import json
import pickle
import os
import random
import subprocess
import sys
import tempfile
import time

import carcassonne

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("CARC_BIN", os.path.join(HERE, "..", "build", "carcassonne"))


def cpu():
    return time.process_time()


def vec_env_games(name, envs, games, observations):
    env = carcassonne.VecEnv(name, envs, seed=1, threads=1, observations=observations)
    t0 = cpu()
    env.reset()
    done = 0
    while done < games:
        _, _, _, d, _ = env.step(env.sample_actions())
        done += int(d.sum())
    return done / (cpu() - t0)


def per_call(name, n_games):
    game = carcassonne.Game(name)
    calls, t_apply, t_obs, n_obs = 0, 0.0, 0.0, 0
    rng = random.Random(1)
    for seed in range(n_games):
        st = game.new_initial_state(seed=seed)
        while not st.is_terminal():
            t0 = cpu()
            if st.is_chance_node():
                a = st.sample_chance_outcome()
            else:
                a = rng.choice(st.legal_actions())
            st.apply_action(a)
            t_apply += cpu() - t0
            calls += 1
            if not st.is_terminal() and not st.is_chance_node():
                t0 = cpu()
                st.observation_tensor()
                t_obs += cpu() - t0
                n_obs += 1
    return t_apply / calls, t_obs / n_obs


def batched_leaves(name, games, simulations):
    """Leaves per CPU second of the batched search with a trivial evaluator (uniform priors, value 0)."""
    import numpy as np
    game = carcassonne.Game(name)
    states = []
    for seed in range(games):
        st = game.new_initial_state(seed=seed)
        while st.is_chance_node():
            st.apply_action(st.sample_chance_outcome())
        rng = random.Random(seed)
        for _ in range(30):  # a mid-game position
            st.apply_action(st.sample_chance_outcome() if st.is_chance_node() else rng.choice(st.legal_actions()))
        while st.is_chance_node():
            st.apply_action(st.sample_chance_outcome())
        states.append(st)
    a = game.num_distinct_actions()

    def trivial(obs):
        return np.ones((obs.shape[0], a), np.float32), np.zeros(obs.shape[0], np.float32)

    mcts = carcassonne.BatchedMCTS(game, simulations=simulations, seed=1)
    t0 = cpu()
    mcts.search(states, trivial)
    return mcts.leaves_evaluated / (cpu() - t0)


def pickle_cost(name, actions, reps):
    """CPU microseconds to pickle and to unpickle a state `actions` actions into a game, and its size."""
    game = carcassonne.Game(name)
    st = game.new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(actions):
        if st.is_terminal():
            break
        st.apply_action(st.sample_chance_outcome() if st.is_chance_node() else rng.choice(st.legal_actions()))
    t0 = cpu()
    for _ in range(reps):
        blob = pickle.dumps(st)
    t1 = cpu()
    for _ in range(reps):
        back = pickle.loads(blob)
    t2 = cpu()
    assert back.history() == st.history()
    return (t1 - t0) / reps * 1e6, (t2 - t1) / reps * 1e6, len(blob), len(st.history())


def window_overflow(name, bots, games, folder):
    """Share of games with a tile off the window, and the largest distance reached."""
    g = carcassonne.Game(name)
    cx, cy = g.window_centre()
    r = g.radius()
    out = os.path.join(folder, f"{name}-{bots.replace(':', '_').replace(',', '_')}")
    os.makedirs(out, exist_ok=True)
    subprocess.run([BIN, "selfplay", "--game", name, "--bots", bots, "--games", str(games), "--seed", "1", "--records", out],
                   check=True, stdout=subprocess.DEVNULL)
    over, reach = 0, 0
    files = sorted(f for f in os.listdir(out) if f.endswith(".json"))
    for f in files:
        rec = json.load(open(os.path.join(out, f)))
        far = max((max(abs(m["x"] - cx), abs(m["y"] - cy)) for m in rec["moves"]), default=0)
        reach = max(reach, far)
        over += far > r
    return len(files), over, reach


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20000, help="games for the VecEnv figures")
    ap.add_argument("--quick", action="store_true", help="small counts (a smoke run)")
    ap.add_argument("--no-window", action="store_true", help="skip the window figures (selfplay games)")
    a = ap.parse_args()
    games = 500 if a.quick else a.games
    res = {}
    py = vec_env_games("base", 64, games, False)
    n, t = carcassonne._core._bench_vec_env_cpp("base", 2, 64, games, False)
    res["vecenv_base_masks_games_per_cpu_s"] = round(py)
    res["cpp_same_loop_games_per_cpu_s"] = round(n / t)
    res["python_vs_cpp"] = round(py / (n / t), 3)
    og = max(50, games // 40)
    res["vecenv_base_masks_observations_games_per_cpu_s"] = round(vec_env_games("base", 64, og, True))
    games_played = [g for g in carcassonne.games() if g in ("base", "amazonas", "hunters", "safari")]
    for name in games_played:
        res[f"vecenv_{name}_masks_games_per_cpu_s"] = round(vec_env_games(name, 64, games // 4, False))
        res[f"vecenv_{name}_masks_observations_games_per_cpu_s"] = round(vec_env_games(name, 64, og, True))
    ap_us, obs_us = per_call("base", 5 if a.quick else 50)
    res["apply_action_plus_legal_actions_us"] = round(ap_us * 1e6, 2)
    res["observation_tensor_us"] = round(obs_us * 1e6, 2)
    for name in games_played:
        res[f"batched_mcts_leaves_per_cpu_s_{name}_64_games"] = round(batched_leaves(name, 64, 20 if a.quick else 200))
    for name in games_played:
        dumps_us, loads_us, size, length = pickle_cost(name, 100, 20 if a.quick else 200)
        res[f"pickle_{name}_after_100_actions"] = {"dumps_us": round(dumps_us, 1), "loads_us": round(loads_us, 1),
                                                   "bytes": size, "actions": length}
    if a.no_window:
        json.dump(res, sys.stdout, indent=1)
        print()
        return
    with tempfile.TemporaryDirectory() as d:
        ng = 20 if a.quick else 200
        for name in carcassonne.games():
            for bots in ["random", "greedy", "mcts:playouts=300,threads=1"]:
                k = ng if not bots.startswith("mcts") else max(5, ng // 10)
                n_, over, reach = window_overflow(name, bots, k, d)
                res[f"window_{name}_{bots.split(':')[0]}"] = {"games": n_, "off_window": over, "farthest": reach,
                                                             "radius": carcassonne.Game(name).radius()}
    json.dump(res, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
