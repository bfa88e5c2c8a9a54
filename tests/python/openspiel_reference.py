"""Helpers for test_openspiel.py: a small reference of OpenSpiel's UCT MCTS (MCTSBot with a
RandomRolloutEvaluator), written from its documentation, and the continuation a process-pool
worker plays.

The MCTS uses only OpenSpiel's State/Game API (get_type, num_players, max_utility, clone,
apply_action, legal_actions, chance_outcomes, is_chance_node, is_terminal, returns,
current_player), so it runs unchanged on pyspiel games. Enum fields are compared by their
`.name`, which pyspiel's pybind11 enums and Python's enums both have.
"""
import math
import os
import pickle
import random


def _sample(rng, outcomes):
    actions, probs = zip(*outcomes)
    return rng.choices(actions, probs)[0]


class RandomRolloutEvaluator:
    """The mean returns of n random games played from the state (chance by its odds)."""

    def __init__(self, n_rollouts=1, rng=None):
        self.n_rollouts = n_rollouts
        self.rng = rng or random.Random(0)
        self.rollout_steps = 0

    def evaluate(self, state):
        total = None
        for _ in range(self.n_rollouts):
            s = state.clone()
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(_sample(self.rng, s.chance_outcomes()))
                else:
                    s.apply_action(self.rng.choice(s.legal_actions()))
                self.rollout_steps += 1
            r = list(s.returns())
            total = r if total is None else [a + b for a, b in zip(total, r)]
        return [t / self.n_rollouts for t in total]

    def prior(self, state):
        """Uniform over legal actions at a decision; the chance odds at a chance node."""
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class SearchNode:
    """A node of the tree: the action that led here, who chose it, its prior, visits, and the
    summed returns of the simulations through it for `player` (the chooser)."""
    __slots__ = ("action", "player", "prior", "explore_count", "total_reward", "children")

    def __init__(self, action, player, prior):
        self.action = action
        self.player = player
        self.prior = prior
        self.explore_count = 0
        self.total_reward = 0.0
        self.children = []

    def uct_value(self, parent_explore_count, uct_c):
        if self.explore_count == 0:
            return float("inf")  # unexplored children first
        return (self.total_reward / self.explore_count +
                uct_c * math.sqrt(math.log(parent_explore_count) / self.explore_count))

    def sort_key(self):
        return (self.explore_count, self.total_reward)


class MCTSBot:
    """UCT search: the tree policy descends (chance sampled by its odds, decisions by UCT with
    unexplored children first), expands a visited leaf with uniform priors, evaluates a new leaf
    with random rollouts, backs the returns up from each chooser's viewpoint, and plays the most
    visited root child."""

    def __init__(self, game, uct_c, max_simulations, evaluator, rng=None):
        game_type = game.get_type()
        if game_type.reward_model.name != "TERMINAL":
            raise ValueError("Game must have terminal rewards.")
        if game_type.dynamics.name != "SEQUENTIAL":
            raise ValueError("Game must have sequential turns.")
        if game_type.chance_mode.name not in ("DETERMINISTIC", "EXPLICIT_STOCHASTIC"):
            raise ValueError("Game must have explicit chance (or none).")
        self.game = game
        self.uct_c = uct_c
        self.max_simulations = max_simulations
        self.evaluator = evaluator
        self.rng = rng or random.Random(0)
        self.last_root = None

    def _apply_tree_policy(self, root, state):
        path = [root]
        working = state.clone()
        node = root
        while not working.is_terminal() and node.explore_count > 0:
            if not node.children:
                priors = self.evaluator.prior(working)
                self.rng.shuffle(priors)  # no bias from the order of legal actions
                player = working.current_player()
                node.children = [SearchNode(a, player, p) for a, p in priors]
            if working.is_chance_node():
                action = _sample(self.rng, working.chance_outcomes())
                chosen = next(c for c in node.children if c.action == action)
            else:
                chosen = max(node.children, key=lambda c: c.uct_value(node.explore_count, self.uct_c))
            working.apply_action(chosen.action)
            node = chosen
            path.append(node)
        return path, working

    def mcts_search(self, state):
        root = SearchNode(None, state.current_player(), 1.0)
        for _ in range(self.max_simulations):
            path, working = self._apply_tree_policy(root, state)
            if working.is_terminal():
                returns = list(working.returns())
            else:
                returns = self.evaluator.evaluate(working)
            for node in reversed(path):
                node.explore_count += 1
                if node.player >= 0:  # a seat's choice (the root's player may be anything)
                    node.total_reward += returns[node.player]
                # chance nodes (player CHANCE) keep only their visits
        self.last_root = root
        return root

    def step(self, state):
        root = self.mcts_search(state)
        return max(root.children, key=SearchNode.sort_key).action


def finish_game(state, k):
    """Plays the state to the end: chance by the state's own generator (sample_chance_outcome),
    decisions by random.Random(k).choice(legal_actions()). Returns (returns, len(history()))."""
    rng = random.Random(k)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return list(state.returns()), len(state.history())


def finish_pickled(job):
    """A process-pool worker: (pickled state, k) -> (returns, history length, the state's
    serialize() before playing, this process's id)."""
    blob, k = job
    state = pickle.loads(blob)
    before = state.serialize()
    returns, length = finish_game(state, k)
    return returns, length, before, os.getpid()
