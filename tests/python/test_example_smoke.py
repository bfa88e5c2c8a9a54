"""The AlphaZero example's one-iteration smoke run: self-play through BatchedMCTS with the torch
network as evaluator, a training step, and the matches against random, greedy and mcts."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "..", "examples", "alphazero.py")


def test_alphazero_smoke(tmp_path):
    # --threads 1: torch's two OpenMP threads (the example's default) spin against each other and
    # the other tests ctest runs at once on a busy 2-core machine: 7 s alone, 30 to 50 s there
    # (15 s with one thread). The same run otherwise: one thread computes the same network.
    r = subprocess.run([sys.executable, EXAMPLE, "--smoke", "--threads", "1", "--out", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    entry = json.loads(r.stdout.strip().splitlines()[-1])
    assert entry["iteration"] == 1 and entry["samples"] > 30
    for k in ("vs_random", "vs_greedy", "vs_mcts"):
        assert 0.0 <= entry[k] <= 1.0
    assert os.path.getsize(tmp_path / "net.pt") > 10000
    assert json.loads((tmp_path / "log.json").read_text())[0]["iteration"] == 1


def test_improved_policy():
    import importlib.util

    import numpy as np
    spec = importlib.util.spec_from_file_location("alphazero", EXAMPLE)
    az = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(az)
    logits = np.log(np.array([0.1, 0.6, 0.3, 0.5, 0.0001], np.float32))
    legal = np.array([0, 1, 2])  # actions 3 and 4 are not legal
    visits = np.array([2, 5, 0, 0, 0], np.float32)
    q = np.array([0.8, -0.2, np.nan, np.nan, np.nan], np.float32)
    pi = az.improved_policy(logits, legal, visits, q, value=0.0)
    assert pi.dtype == np.float32 and abs(pi.sum() - 1) < 1e-6 and (pi[3:] == 0).all()
    assert pi[0] > 0.9, "the best searched action takes the mass, whatever its prior"
    assert pi[2] > pi[1], "an action not visited gets the root's mixed value, above a bad one"
    # values that do not tell actions apart leave the prior as it was
    flat = az.improved_policy(logits, legal, visits, np.array([0.1, 0.1, np.nan, 0, 0], np.float32), value=0.1)
    assert np.allclose(flat[:3], [0.1, 0.6, 0.3], atol=1e-5)
