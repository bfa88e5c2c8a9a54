"""The AlphaZero example's one-iteration smoke run: self-play through BatchedMCTS with the torch
network as evaluator, a training step, and the matches against random, greedy and mcts."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "..", "examples", "alphazero.py")


def test_alphazero_smoke(tmp_path):
    r = subprocess.run([sys.executable, EXAMPLE, "--smoke", "--out", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    entry = json.loads(r.stdout.strip().splitlines()[-1])
    assert entry["iteration"] == 1 and entry["samples"] > 30
    for k in ("vs_random", "vs_greedy", "vs_mcts"):
        assert 0.0 <= entry[k] <= 1.0
    assert os.path.getsize(tmp_path / "net.pt") > 10000
    assert json.loads((tmp_path / "log.json").read_text())[0]["iteration"] == 1
