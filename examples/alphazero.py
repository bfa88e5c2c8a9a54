#!/usr/bin/python3
"""A small AlphaZero for the base game, on CPU with Debian's python3-torch (docs/python.md).

Self-play runs many games at once through carcassonne.BatchedMCTS, whose evaluator is the network
on a batch of leaves; the network learns the search's visit distributions and the games' returns,
with the board's four turns as augmentation; then it plays `random`, `greedy` and `mcts` at a fixed
budget (the network with its search on one seat, the engine's bot on the other, seats alternating).

    PYTHONPATH=build/python /usr/bin/python3 examples/alphazero.py --iterations 40 --out az/
    PYTHONPATH=build/python /usr/bin/python3 examples/alphazero.py --load az/net.pt --evaluate --eval-games 200
    PYTHONPATH=build/python /usr/bin/python3 examples/alphazero.py --smoke     # one tiny iteration
"""
import argparse
import json
import os
import random
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

import carcassonne


class Net(nn.Module):
    """Convolutions over the planes; placements read from a 4-channel map (one per rotation, the
    action space's cell x rotation order); the other actions (pieces on the tile just laid, pass)
    and the value from the features pooled over the board, the features at the tile laid this turn
    and the scalars."""

    def __init__(self, game, channels=16, blocks=2):
        super().__init__()
        c, w, _ = game.observation_planes_shape()
        self.c, self.w, self.s = c, w, game.observation_scalars_size()
        self.a = game.num_distinct_actions()
        place = next(b for b in game.action_blocks() if b["name"] == "place")
        assert place["offset"] == 0 and place["size"] == w * w * 4
        self.n_place = place["size"]
        self.laid = game.plane_names().index("placed_this_turn")
        self.stem = nn.Conv2d(c, channels, 3, padding=1)
        self.body = nn.ModuleList(nn.Conv2d(channels, channels, 3, padding=1) for _ in range(blocks))
        self.place_head = nn.Conv2d(channels, 4, 1)
        self.scal = nn.Linear(self.s, channels)
        self.rest_head = nn.Linear(3 * channels, self.a - self.n_place)
        self.value_head = nn.Sequential(nn.Linear(3 * channels, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, obs):
        n = obs.shape[0]
        planes = obs[:, : self.c * self.w * self.w].reshape(n, self.c, self.w, self.w)
        scalars = torch.log1p(obs[:, self.c * self.w * self.w:].clamp(min=0))
        x = F.relu(self.stem(planes))
        for conv in self.body:
            x = F.relu(x + conv(x))
        place = self.place_head(x).permute(0, 2, 3, 1).reshape(n, self.n_place)  # (y, x, rot): cell * 4 + rot
        laid = planes[:, self.laid].unsqueeze(1)  # where the tile of this turn lies (none before it is laid)
        at_laid = (x * laid).sum(dim=(2, 3)) / laid.sum(dim=(2, 3)).clamp(min=1)
        pooled = torch.cat([x.mean(dim=(2, 3)), at_laid, F.relu(self.scal(scalars))], dim=1)
        logits = torch.cat([place, self.rest_head(pooled)], dim=1)
        return logits, torch.tanh(self.value_head(pooled)).squeeze(1)


def evaluator(net):
    def ev(obs):
        with torch.no_grad():
            logits, v = net(torch.from_numpy(obs))
            return torch.softmax(logits, dim=1).numpy(), v.numpy()
    return ev


def improved_policy(prior_logits, legal, visits, q, value, c_visit=50.0, c_scale=0.1):
    """Gumbel AlphaZero's policy target (Danihelka et al., ICLR 2022) for one root: the network's
    prior logits plus sigma(completed Q), over the legal actions. An action the search did not visit
    gets the mixed value of the root; the completed values are rescaled to 0..1 over the legal
    actions (a range under 1e-6 is float noise: the prior is left as it was). With few simulations
    this improves on the prior (visit counts that mostly follow the prior do not: a first run trained
    on visits collapsed onto "pass")."""
    lg = prior_logits[legal].astype(np.float64)
    lg -= lg.max()
    p = np.exp(lg)
    p /= p.sum()
    n = visits[legal]
    qv = q[legal].astype(np.float64)
    seen = n > 0
    if seen.any():
        v_mix = (value + n.sum() / p[seen].sum() * (p[seen] * qv[seen]).sum()) / (1.0 + n.sum())
    else:
        v_mix = value
    completed = np.where(seen, np.nan_to_num(qv), v_mix)
    lo, hi = completed.min(), completed.max()
    completed = (completed - lo) / (hi - lo) if hi - lo > 1e-6 else np.zeros_like(completed)
    z = lg + (c_visit + n.max()) * c_scale * completed
    z -= z.max()
    pi = np.zeros(len(prior_logits), np.float32)
    pi[legal] = np.exp(z) / np.exp(z).sum()
    return pi


def search_policies(mcts, net, states):
    """The search from every state, then each root's improved policy (float32 over all actions)."""
    visits = mcts.search(states, evaluator(net))
    q = mcts.root_q()
    obs = np.stack([s.observation_tensor(s.current_player()) for s in states])
    with torch.no_grad():
        logits, v = net(torch.from_numpy(obs))
    logits, v = logits.numpy(), v.numpy()
    return [improved_policy(logits[i], np.array(s.legal_actions()), visits[i], q[i], float(v[i])) for i, s in enumerate(states)]


def play_to_decision(state):
    while state.is_chance_node():
        state.apply_action(state.sample_chance_outcome())


def value_target(scores, player, margin_scale):
    """The value a position is trained to: the result (+1 win, 0 draw, -1 loss: the returns) when
    margin_scale is 0, else tanh(margin / margin_scale), the final score margin over the best other
    player: the same sign, and a denser signal for a small run (a win by 40 is not a win by 1)."""
    others = max(x for j, x in enumerate(scores) if j != player)
    margin = scores[player] - others
    if margin_scale <= 0:
        return float(np.sign(margin))
    return float(np.tanh(margin / margin_scale))


def self_play(game, net, n_games, simulations, seed, temp_moves=30, keep=0.25, margin_scale=20.0):
    """n_games games at once; returns (observations, policies, values) from the mover's seat: a
    share `keep` of the positions, each turned a random quarter (the rules do not change), the
    observations as float16 (an observation is 105k floats, mostly zeros: memory, not precision)."""
    mcts = carcassonne.BatchedMCTS(game, simulations=simulations, seed=seed)
    states = [game.new_initial_state(seed=seed * 10007 + i) for i in range(n_games)]
    for s in states:
        play_to_decision(s)
    samples = [[] for _ in states]  # (obs, pi, player)
    rng = np.random.default_rng(seed)
    turns = game.turn_symmetric()
    live = list(range(n_games))
    while live:
        policies = search_policies(mcts, net, [states[i] for i in live])
        for row, i in enumerate(live):
            s = states[i]
            pi = policies[row]
            player = s.current_player()
            if rng.random() < keep:
                obs = s.observation_tensor(player)
                k = int(rng.integers(4)) if turns else 0
                if k:  # turned now: a placement's rotations depend on the tile in hand
                    obs, pol = s.turn_observation(obs, k), s.turn_policy(pi.astype(np.float32), k)
                else:
                    pol = pi.astype(np.float32)
                samples[i].append((obs.astype(np.float16), pol, player))
            if s.move_number() < temp_moves:
                a = int(rng.choice(len(pi), p=pi))
            else:
                a = int(np.argmax(pi))
            s.apply_action(a)
            play_to_decision(s)
        live = [i for i in live if not states[i].is_terminal()]
    obs, pis, vals = [], [], []
    for i, s in enumerate(states):
        sc = s.scores()
        for o, pi, player in samples[i]:
            obs.append(o)
            pis.append(pi)
            vals.append(value_target(sc, player, margin_scale))
    return np.stack(obs), np.stack(pis), np.array(vals, np.float32), [s.scores() for s in states]


def train(net, opt, data, epochs, batch):
    obs, pis, vals = (torch.from_numpy(x) for x in data)
    n = obs.shape[0]
    net.train()
    total = 0.0
    for _ in range(epochs):
        perm = torch.randperm(n)
        for b in range(0, n, batch):
            idx = perm[b:b + batch]
            logits, v = net(obs[idx].float())
            loss = -(pis[idx] * F.log_softmax(logits, dim=1)).sum(1).mean() + F.mse_loss(v, vals[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total = float(loss)
    net.eval()
    return total


def match(game, net, opponent, n_games, simulations, seed):
    """The network with its search against an engine bot, seats alternating; returns (wins, games,
    mean score margin).
    All the games run at once: the network's turns are searched together, one batch of leaves."""
    mcts = carcassonne.BatchedMCTS(game, simulations=simulations, noise=0.0, seed=seed)
    states = [game.new_initial_state(seed=900000 + seed * 1000 + g) for g in range(n_games)]
    moves = [0] * n_games
    for s in states:
        play_to_decision(s)

    def bot_until_mine(g):
        s = states[g]
        while not s.is_terminal() and s.current_player() != g % 2:
            s.apply_action(carcassonne.bot_action(s, opponent, seed * 100003 + g * 1009 + moves[g]))
            moves[g] += 1
            play_to_decision(s)

    live = list(range(n_games))
    while live:
        for g in live:
            bot_until_mine(g)
        live = [g for g in live if not states[g].is_terminal()]
        if not live:
            break
        policies = search_policies(mcts, net, [states[g] for g in live])
        for row, g in enumerate(live):
            states[g].apply_action(int(np.argmax(policies[row])))
            moves[g] += 1
            play_to_decision(states[g])
    wins, margin = 0.0, 0.0
    for g, s in enumerate(states):
        me, sc = g % 2, s.scores()
        wins += 1.0 if sc[me] > sc[1 - me] else 0.5 if sc[me] == sc[1 - me] else 0.0
        margin += sc[me] - sc[1 - me]
    return wins, n_games, margin / n_games


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iterations", type=int, default=40)
    ap.add_argument("--games", type=int, default=32, help="self-play games per iteration (played at once)")
    ap.add_argument("--simulations", type=int, default=32, help="search simulations per move")
    ap.add_argument("--channels", type=int, default=16)
    ap.add_argument("--blocks", type=int, default=2)
    ap.add_argument("--margin-scale", type=float, default=20.0, help="value target tanh(score margin / this); 0: the result (+1, 0, -1)")
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--window", type=int, default=4, help="iterations of self-play kept for training")
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--eval-games", type=int, default=40, help="games against each opponent after training")
    ap.add_argument("--eval-every", type=int, default=10)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default=None, help="folder for the network and the log")
    ap.add_argument("--load", default=None, help="start from this network (a net.pt written by --out)")
    ap.add_argument("--evaluate", action="store_true", help="no training: play --eval-games against each opponent")
    ap.add_argument("--eval-simulations", type=int, default=None, help="the network's search in matches (default: --simulations)")
    ap.add_argument("--smoke", action="store_true", help="one tiny iteration (a test of the example)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.smoke:
        a.iterations, a.games, a.simulations, a.epochs, a.eval_games, a.eval_every = 1, 2, 4, 1, 2, 1
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    random.seed(a.seed)
    game = carcassonne.Game("base", players=2)
    net = Net(game, a.channels, a.blocks).eval()
    if a.load:
        net.load_state_dict(torch.load(a.load))
    opponents = ["random", "greedy", "mcts:playouts=200,threads=1"]
    eval_sims = a.eval_simulations or a.simulations
    if a.evaluate:
        t0 = time.process_time()
        for opp in opponents:
            w, n, m = match(game, net, opp, a.eval_games, eval_sims, a.seed)
            print(json.dumps({"opponent": opp, "games": n, "score": round(w / n, 3), "margin": round(m, 1),
                              "cpu_s": round(time.process_time() - t0, 1)}), flush=True)
        return
    opt = torch.optim.Adam(net.parameters(), lr=1e-3, weight_decay=1e-4)
    log = []
    if a.out:
        os.makedirs(a.out, exist_ok=True)
    t0 = time.process_time()
    buffer = []
    for it in range(1, a.iterations + 1):
        obs, pis, vals, scores = self_play(game, net, a.games, a.simulations, a.seed * 1000 + it, margin_scale=a.margin_scale)
        buffer = (buffer + [(obs, pis, vals)])[-a.window:]
        data = tuple(np.concatenate([b[j] for b in buffer]) for j in range(3))
        loss = train(net, opt, data, a.epochs, a.batch)
        entry = {"iteration": it, "samples": int(obs.shape[0]), "trained_on": int(data[0].shape[0]), "loss": round(loss, 4), "cpu_s": round(time.process_time() - t0, 1),
                 "mean_score": round(float(np.mean(scores)), 1)}
        if it % a.eval_every == 0 or it == a.iterations:
            for opp in opponents:
                w, n, m = match(game, net, opp, a.eval_games, eval_sims, it)
                entry[f"vs_{opp.split(':')[0]}"] = round(w / n, 3)
                entry[f"margin_vs_{opp.split(':')[0]}"] = round(m, 1)
        log.append(entry)
        print(json.dumps(entry), flush=True)
        if a.out:
            torch.save(net.state_dict(), os.path.join(a.out, "net.pt"))
            with open(os.path.join(a.out, "log.json"), "w") as f:
                json.dump(log, f, indent=1)


if __name__ == "__main__":
    main()
