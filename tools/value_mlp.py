#!/usr/bin/python3
"""Does a small network on the fitted value's features predict better than the linear fit?

Reads the rows `carcassonne fit-value ... --dump FILE` wrote (per player and tile placement: the
44 features, then the points that player still scored, as little-endian float32), fits the linear
model by least squares on the first nine tenths (as fit-value does, without its small ridge), then
a one-hidden-layer ReLU network (Adam) on the linear fit's residuals, and prints both RMS errors
on the last tenth (rows of later games) after every epoch. numpy only (docs/mcts.md, "A small
network on the same features").

  tools/value_mlp.py ROWS [--hidden 64] [--epochs 6] [--seed 1]
"""
import argparse
import os
import sys
import time

import numpy as np

FEATURES = 44


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows", help="a file fit-value --dump wrote")
    ap.add_argument("--hidden", type=int, default=64, help="hidden units (default 64)")
    ap.add_argument("--epochs", type=int, default=6, help="passes over the training rows (default 6)")
    ap.add_argument("--seed", type=int, default=1, help="initial weights and batch order")
    a = ap.parse_args()
    if a.hidden < 1 or a.epochs < 1:
        print("value_mlp: --hidden and --epochs must be at least 1", file=sys.stderr)
        return 2
    try:
        raw = np.fromfile(a.rows, dtype="<f4")
        size = os.path.getsize(a.rows)
    except OSError as e:
        print(f"value_mlp: cannot read {a.rows}: {e.strerror}", file=sys.stderr)
        return 2
    row_bytes = 4 * (FEATURES + 1)
    if size == 0 or size % row_bytes:
        print(f"value_mlp: {a.rows}: {size} bytes, not rows of {FEATURES + 1} float32 ({row_bytes} bytes each)",
              file=sys.stderr)
        return 2
    data = raw.reshape(-1, FEATURES + 1).astype(np.float64)
    if not np.isfinite(data).all():
        print(f"value_mlp: {a.rows}: a number is not finite", file=sys.stderr)
        return 2
    x, y = data[:, :FEATURES], data[:, FEATURES]
    cut = int(len(y) * 0.9)
    if cut < 1 or cut == len(y):
        print(f"value_mlp: {a.rows}: {len(y)} rows are too few to split", file=sys.stderr)
        return 2
    xtr, ytr, xte, yte = x[:cut], y[:cut], x[cut:], y[cut:]
    w, *_ = np.linalg.lstsq(xtr, ytr, rcond=None)
    rms = lambda e: float(np.sqrt(np.mean(e * e)))  # noqa: E731
    print(f"{len(y)} rows; linear: train RMS {rms(xtr @ w - ytr):.3f}, test RMS {rms(xte @ w - yte):.3f}", flush=True)

    mu, sd = xtr.mean(0), xtr.std(0) + 1e-6
    ztr = ((xtr - mu) / sd).astype(np.float32)
    zte = ((xte - mu) / sd).astype(np.float32)
    rtr = (ytr - xtr @ w).astype(np.float32)  # the network fits what the linear fit leaves
    rte = (yte - xte @ w).astype(np.float32)
    rng = np.random.default_rng(a.seed)
    w1 = (rng.standard_normal((FEATURES, a.hidden)) * np.sqrt(2 / FEATURES)).astype(np.float32)
    b1 = np.zeros(a.hidden, np.float32)
    w2 = np.zeros((a.hidden, 1), np.float32)
    b2 = np.zeros(1, np.float32)
    params = [w1, b1, w2, b2]
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    lr, batch, step = 1e-3, 2048, 0

    def forward(z):
        h = np.maximum(z @ w1 + b1, 0)
        return h, (h @ w2 + b2)[:, 0]

    for epoch in range(a.epochs):
        t0 = time.process_time()
        order = rng.permutation(len(rtr))
        for i in range(0, len(order), batch):
            idx = order[i:i + batch]
            z, r = ztr[idx], rtr[idx]
            h, out = forward(z)
            g = (2 * (out - r) / len(idx))[:, None].astype(np.float32)
            gh = (g @ w2.T) * (h > 0)
            grads = [z.T @ gh, gh.sum(0), h.T @ g, g.sum(0)]
            step += 1
            for p, gr, s1, s2 in zip(params, grads, m1, m2):
                s1 *= 0.9
                s1 += 0.1 * gr
                s2 *= 0.999
                s2 += 0.001 * gr * gr
                p -= lr * (s1 / (1 - 0.9**step)) / (np.sqrt(s2 / (1 - 0.999**step)) + 1e-8)
        _, out_te = forward(zte)
        print(f"epoch {epoch + 1}: linear + network test RMS {rms(out_te - rte):.3f} "
              f"(linear alone {rms(rte):.3f}; {time.process_time() - t0:.0f} s CPU)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
