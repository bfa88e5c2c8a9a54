"""carcassonne.spaces and carcassonne.gym against Gymnasium's documented contracts (what
gymnasium.utils.env_checker.check_env and the vector env's autoreset modes require), without
gymnasium: spaces hold every observation, reset/step return types, seeded determinism, masked
sampling gives legal actions, whole games of the four games, truncation, next-step and same-step
autoreset checked step by step against a model built from carcassonne.State, bad inputs refused."""
import random

import numpy as np
import pytest

import carcassonne
from carcassonne import selfplay
from carcassonne.gym import CarcassonneEnv, CarcassonneVectorEnv
from carcassonne.spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete

GAMES = ["base", "amazonas", "hunters", "safari"]


def test_spaces():
    box = Box(0.0, 65535.0, (3,), np.float32)
    assert box.shape == (3,) and box.dtype == np.float32
    assert np.zeros(3, np.float32) in box and np.full(3, 7, np.float32) in box
    assert np.full(3, -1, np.float32) not in box and np.zeros(4, np.float32) not in box
    assert np.zeros(3, np.float64) not in box  # float64 does not cast safely to float32
    assert box.sample() in box and box == Box(0.0, 65535.0, (3,)) and box != Box(0.0, 1.0, (3,))
    half = Box(0.0, np.inf, (50,))
    assert half.sample() in half  # bounded below only: exponential draws
    mb = MultiBinary(4)
    assert mb.shape == (4,) and np.array([0, 1, 1, 0], np.int8) in mb and np.array([0, 2, 0, 0]) not in mb
    d = Discrete(5)
    assert 4 in d and np.int64(0) in d and 5 not in d and 1.0 not in d and d.shape == ()
    mask = np.array([0, 0, 1, 0, 1], np.int8)
    d.seed(3)
    draws = [int(d.sample(mask=mask)) for _ in range(40)]
    assert set(draws) == {2, 4}
    d.seed(3)
    assert [int(d.sample(mask=mask)) for _ in range(40)] == draws, "seeded samples repeat"
    assert int(d.sample(mask=np.zeros(5, np.int8))) == 0  # nothing allowed: start, as Gymnasium
    with pytest.raises(ValueError):
        d.sample(mask=np.zeros(4, np.int8))
    md = MultiDiscrete([5, 5])
    assert md.sample(mask=(mask, mask)).tolist() in ([2, 2], [2, 4], [4, 2], [4, 4])
    space = Dict({"observation": box, "action_mask": mb})
    assert list(space) == ["observation", "action_mask"] and space["action_mask"] is mb
    assert space.sample() in space
    assert {"observation": np.zeros(3, np.float32)} not in space
    assert "MultiBinary(4)" in repr(space) and space == Dict({"observation": Box(0.0, 65535.0, (3,)), "action_mask": MultiBinary(4)})


def check_obs(env, obs):
    assert isinstance(obs, dict) and list(obs) == ["observation", "action_mask"]
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert obs in env.observation_space


@pytest.mark.parametrize("name", GAMES)
def test_whole_games(name):
    """A whole game of each game to its end, the agent in seat 1 choosing by the action space's
    masked sample: every observation in the space, the documented types, reward only at the end."""
    env = CarcassonneEnv(name, players=3 if name == "safari" else 2, seat=1, opponents="random")
    env.action_space.seed(1)
    obs, info = env.reset(seed=11)
    check_obs(env, obs)
    assert isinstance(info, dict) and {"action_mask", "to_play", "scores", "legal_actions"} <= set(info)
    steps = 0
    while True:
        assert info["to_play"] == 1, "every decision handed to the agent is its seat's"
        np.testing.assert_array_equal(info["action_mask"], obs["action_mask"])
        assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == info["legal_actions"]
        action = env.action_space.sample(mask=obs["action_mask"])
        assert action in env.action_space and int(action) in info["legal_actions"]
        obs, reward, terminated, truncated, info = env.step(action)
        steps += 1
        check_obs(env, obs)
        assert type(reward) is float and type(terminated) is bool and type(truncated) is bool
        assert not truncated
        if terminated:
            break
        assert reward == 0.0
    assert env.state.is_terminal() and info["to_play"] == carcassonne.TERMINAL
    assert reward == env.state.returns()[1] and info["scores"] == env.state.scores()
    assert not obs["action_mask"].any() and steps > 10
    with pytest.raises(RuntimeError):
        env.step(0)


def test_seeded_episodes_repeat():
    env = CarcassonneEnv("hunters", opponents=["greedy"])

    def episode(seed):
        obs, _ = env.reset(seed=seed)
        env.action_space.seed(seed)
        out = [obs["observation"]]
        while True:
            a = int(env.action_space.sample(mask=obs["action_mask"]))
            obs, r, term, trunc, _ = env.step(a)
            out += [a, r, obs["observation"]]
            if term or trunc:
                return out

    def same(x, y):
        return len(x) == len(y) and all(np.array_equal(u, v) for u, v in zip(x, y))

    first = episode(5)
    assert same(first, episode(5)), "the same seed, the same episode"
    assert not np.array_equal(first[0], env.reset(seed=6)[0]["observation"]), "another seed deals another game"
    # reset() without a seed follows from the last seed, so it repeats too
    env.reset(seed=9)
    a = [env.reset()[0]["observation"] for _ in range(2)]
    env.reset(seed=9)
    b = [env.reset()[0]["observation"] for _ in range(2)]
    assert all(np.array_equal(u, v) for u, v in zip(a, b)) and not np.array_equal(a[0], a[1])


def test_bots_follow_selfplay():
    """Bots seeded from the reset seed and the decision number, as carcassonne.selfplay seeds them:
    an agent that plays the greedy bot's own moves replays selfplay's game of that seed."""
    env = CarcassonneEnv("base", opponents="greedy")
    obs, info = env.reset(seed=21)
    while True:
        # env._decisions: the decisions of both seats so far, which seed selfplay's bots
        a = carcassonne.bot_action(env.state, "greedy", (21 * 1000003 + env._decisions) % 2**64)
        obs, r, term, trunc, info = env.step(a)
        if term:
            break
    want = selfplay.play_game(carcassonne.Game("base"), 21, ["greedy"])
    assert env.state.to_record()["moves"] == want.to_record()["moves"]


def test_safari_off_turn_decisions_go_to_their_seat():
    """Safari's token hand-ins are decided by whoever scores, off turn too: the agent gets its own
    (here during the bot's turn) and only its own, the bot the others'."""
    env = CarcassonneEnv("safari", seat=0, opponents="random")
    hand_in = next(b for b in env.game.action_blocks() if b["name"] == "hand_in")
    piece = next(b for b in env.game.action_blocks() if b["name"] == "piece")
    off_turn = 0
    for seed in range(4):
        rng = random.Random(seed)
        obs, info = env.reset(seed=seed)
        while True:
            assert info["to_play"] == 0
            legal = info["legal_actions"]
            last = env.state.to_record()["moves"][-1:]  # the turn under way is recorded as partial
            if any(hand_in["offset"] <= a < hand_in["offset"] + hand_in["size"] for a in legal):
                off_turn += bool(last and last[0].get("partial") and last[0]["player"] != 0)
            # photographers often, so that ties for the most on a trail (both scorers decide) happen
            pieces = [a for a in legal if piece["offset"] <= a < piece["offset"] + piece["size"]]
            obs, r, term, trunc, info = env.step(rng.choice(pieces) if pieces and rng.random() < 0.8 else rng.choice(legal))
            if term:
                break
    assert off_turn > 0, "the agent met a hand-in during the bot's turn"


def test_truncation_and_bad_inputs():
    env = CarcassonneEnv("base", opponents="random", max_episode_steps=3)
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.state.to_record_json()
    with pytest.raises(ValueError, match="action"):
        env.step(illegal)
    with pytest.raises(ValueError, match="action"):
        env.step(10**9)
    with pytest.raises(TypeError, match="action"):
        env.step(float(info["legal_actions"][0]))
    with pytest.raises(TypeError, match="action"):
        env.step(True)
    assert env.state.to_record_json() == before, "a refused action changes nothing"
    for k in range(3):
        obs, r, term, trunc, info = env.step(np.int64(info["legal_actions"][0]))
        assert trunc == (k == 2) and not term and r == 0.0
    with pytest.raises(ValueError, match="seat"):
        CarcassonneEnv("base", seat=2)
    with pytest.raises(ValueError, match="opponents"):
        CarcassonneEnv("base", players=3, opponents=["greedy"])
    with pytest.raises(ValueError, match="game"):
        CarcassonneEnv("chess")
    with pytest.raises(ValueError, match="render_mode"):
        CarcassonneEnv("base", render_mode="human")
    with pytest.raises(ValueError, match="max_episode_steps"):
        CarcassonneEnv("base", max_episode_steps=0)
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(ValueError, match="opponents"):
        CarcassonneEnv("base", seat=1, opponents="bogus").reset(seed=1)


def test_render():
    env = CarcassonneEnv("amazonas", render_mode="ansi")
    env.reset(seed=2)
    assert "amazonas" in env.render()
    env = CarcassonneEnv("amazonas", render_mode="svg")
    env.reset(seed=2)
    assert "<svg" in env.render()
    assert CarcassonneEnv("base").render() is None


class Model:
    """The vector env's documented behaviour, built from carcassonne.State: slot i's k-th game is
    the engine's game of seed base + i + k * n; a game ends or is cut after max_steps decisions."""

    def __init__(self, game, n, base, mode, max_steps):
        self.game, self.n, self.base, self.mode, self.max_steps = game, n, base, mode, max_steps
        self.k = [0] * n
        self.states = [self.start(i) for i in range(n)]
        self.steps = [0] * n
        self.restart = [False] * n

    def start(self, i):
        s = self.game.new_initial_state(seed=self.base + i + self.k[i] * self.n)
        while s.is_chance_node():
            s.apply_action(s.sample_chance_outcome())
        return s

    def view(self, i, seat=None):
        s = self.states[i]
        if s.is_terminal() or seat is not None:
            return s.observation_tensor(seat), np.zeros(self.game.num_distinct_actions(), np.int8), carcassonne.TERMINAL
        return s.observation_tensor(s.current_player()), s.legal_actions_mask().view(np.int8), s.current_player()

    def new_game(self, i):
        self.k[i] += 1
        self.states[i], self.steps[i] = self.start(i), 0

    def step(self, i, action):
        """(obs, mask, to_play, reward, terminated, truncated) of slot i."""
        if self.restart[i]:
            self.restart[i] = False
            self.new_game(i)
            return (*self.view(i), 0.0, False, False)
        s = self.states[i]
        seat = s.current_player()
        s.apply_action(action)
        while s.is_chance_node():
            s.apply_action(s.sample_chance_outcome())
        self.steps[i] += 1
        term = s.is_terminal()
        trunc = not term and self.max_steps is not None and self.steps[i] >= self.max_steps
        reward = s.returns()[seat] if term else 0.0
        if not (term or trunc):
            return (*self.view(i), reward, term, trunc)
        if self.mode == "same_step":
            self.new_game(i)
            return (*self.view(i), reward, term, trunc)
        self.restart[i] = True
        return (*(self.view(i, seat) if term else self.view(i)), reward, term, trunc)


@pytest.mark.parametrize("mode,max_steps", [("next_step", None), ("next_step", 160), ("same_step", 160)])
def test_vector_env_follows_the_model(mode, max_steps):
    """Step by step against Model: the final observation and mask of zeros at the step a game ends
    (next_step), a new game's first observation with reward 0 at the next one whatever the action,
    truncation after max_steps decisions (then the slot goes on in Python), the rewards of the
    seat that moved, same_step's immediate restart."""
    game = carcassonne.Game("hunters")
    n, seed = 3, 40
    env = CarcassonneVectorEnv(game, num_envs=n, seed=seed, autoreset_mode=mode, max_episode_steps=max_steps)
    assert env.metadata["autoreset_mode"] == mode
    obs, info = env.reset()
    model = Model(game, n, seed, mode, max_steps)
    for i in range(n):
        o, m, tp = model.view(i)
        np.testing.assert_array_equal(obs["observation"][i], o)
        np.testing.assert_array_equal(obs["action_mask"][i], m)
        assert info["to_play"][i] == tp
    rng = random.Random(0)
    seen = {"term": 0, "trunc": 0, "restart": 0}
    for _ in range(700):
        actions = np.array([rng.choice(np.flatnonzero(obs["action_mask"][i]).tolist() or [game.num_distinct_actions() - 1])
                            for i in range(n)])  # an ignored action may be any in range
        want = [model.step(i, int(actions[i])) for i in range(n)]
        obs, rew, term, trunc, info = env.step(actions)
        assert obs in env.observation_space and rew.shape == (n,) and term.dtype == bool and trunc.dtype == bool
        for i, (o, m, tp, r, te, tr) in enumerate(want):
            np.testing.assert_array_equal(obs["observation"][i], o)
            np.testing.assert_array_equal(obs["action_mask"][i], m)
            assert (info["to_play"][i], rew[i], term[i], trunc[i]) == (tp, r, te, tr)
            if te:
                assert abs(info["returns"][i].sum()) < 1e-6 and info["returns"][i].max() == 1.0
            seen["term"] += te
            seen["trunc"] += tr
            seen["restart"] += mode == "next_step" and not (te or tr) and model.steps[i] == 0
    assert seen["term"] > 0 and (seen["restart"] > 0) == (mode == "next_step")
    assert (seen["trunc"] > 0) == (max_steps is not None)


def test_vector_env_seeds_spaces_and_bad_inputs():
    def run(env, seed):
        env.reset(seed=seed)
        out = []
        for _ in range(150):
            a = env.sample_actions()
            obs, r, te, tr, info = env.step(a)
            out.append((a, obs["action_mask"].sum(1), r, te, info["to_play"].copy()))
        return out

    a, b = CarcassonneVectorEnv("base", 2, observations=False), CarcassonneVectorEnv("base", 2, observations=False)
    x, y = run(a, 3), run(b, 3)
    assert all(all(np.array_equal(u, v) for u, v in zip(p, q)) for p, q in zip(x, y)), "same seed, same trajectory"
    assert any(not np.array_equal(p[0], q[0]) for p, q in zip(x, run(b, 4)))
    assert list(a.observation_space) == ["action_mask"] and a.single_action_space == Discrete(3854)
    assert a.action_space == MultiDiscrete([3854, 3854]) and a.num_envs == 2

    env = CarcassonneVectorEnv("base", 3)
    obs, info = env.reset(seed=1)
    assert obs["observation"].shape == (3, env.game.observation_tensor_size()) and obs["action_mask"].dtype == np.int8
    assert obs in env.observation_space and env.single_observation_space == CarcassonneEnv("base").observation_space
    before = obs["action_mask"].copy()
    acts = env.sample_actions()
    bad = acts.copy()
    bad[1] = int(np.flatnonzero(before[1] == 0)[0])
    with pytest.raises(ValueError, match="env 1"):
        env.step(bad)
    with pytest.raises(TypeError, match="actions"):
        env.step(acts.astype(np.float32))
    with pytest.raises(ValueError, match="actions"):
        env.step(acts[:2])
    with pytest.raises(ValueError, match="options"):
        env.reset(options={"reset_mask": np.ones(3, bool)})
    with pytest.raises(ValueError, match="autoreset_mode"):
        CarcassonneVectorEnv("base", 2, autoreset_mode="disabled")
    obs, *_ = env.step(acts)  # nothing moved before: the sampled actions are still legal
    assert obs in env.observation_space
