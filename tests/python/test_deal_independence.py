"""The deal never depends on the policy: the same seed and the same actions give the same game
whatever else was called in between. Every entry point that samples or searches (bot_action, mcts,
BatchedMCTS.search, VecEnv.sample_actions, the gym and AEC wrappers, selfplay) is called between
the steps of one copy of a game and not of the other; both must see the same chance outcomes."""
import random

import numpy as np
import pytest

import carcassonne
from carcassonne import aec, gym, selfplay

GAMES = ["base", "amazonas", "hunters", "safari"]


def uniform(game):
    def ev(obs):
        return (np.ones((obs.shape[0], game.num_distinct_actions()), np.float32),
                np.zeros(obs.shape[0], np.float32))
    return ev


def meddle(state, k):
    """Every sampler and search of the module, from this state (changes nothing it may change)."""
    game = state.get_game()
    carcassonne.bot_action(state, "random", k)
    carcassonne.bot_action(state, "greedy", k)
    carcassonne.mcts(state, "mcts:playouts=8,threads=1", k)
    carcassonne.BatchedMCTS(game, simulations=4, seed=k).search([state], uniform(game))
    state.clone().apply_action(state.legal_actions()[0])
    state.observation_tensor()


@pytest.mark.parametrize("name", GAMES)
def test_states_deal_the_same_whatever_is_called_between(name):
    game = carcassonne.Game(name, players=3)
    a, b = game.new_initial_state(seed=11), game.new_initial_state(seed=11)
    rng = random.Random(5)
    k = 0
    while not a.is_terminal() and k < 60:
        if a.is_chance_node():
            oa, ob = a.sample_chance_outcome(), b.sample_chance_outcome()
            assert oa == ob, f"{name}: the deal differs after {k} meddled decisions"
            a.apply_action(oa)
            b.apply_action(ob)
            continue
        if k % 6 == 0:
            meddle(b, k)
        act = rng.choice(a.legal_actions())
        a.apply_action(act)
        b.apply_action(act)
        k += 1
    assert a.history() == b.history()
    assert k > 20


@pytest.mark.parametrize("name", GAMES)
def test_vec_env_deals_the_same_whatever_is_sampled(name):
    game = carcassonne.Game(name)
    plain = carcassonne.VecEnv(game, 3, seed=9, observations=False, records=True)
    sampled = carcassonne.VecEnv(game, 3, seed=9, observations=False, records=True)
    _, mask, _ = plain.reset()
    sampled.reset()
    rng = np.random.default_rng(1)
    for step in range(80):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in mask], np.int32)
        if step % 3 == 0:
            sampled.sample_actions()
            sampled.sample_actions(seed=step)
        _, mask, _, _, tp = plain.step(acts)
        _, mask2, _, _, tp2 = sampled.step(acts)
        assert np.array_equal(mask, mask2) and np.array_equal(tp, tp2), f"{name}: step {step}"


def test_gym_env_deal_does_not_depend_on_sampling():
    obs = []
    for draws in (0, 7):
        env = gym.CarcassonneEnv("safari", seat=0, opponents="random")
        o, _ = env.reset(seed=4)
        env.action_space.seed(3)
        trail = [o["observation"].copy()]
        for t in range(25):
            for _ in range(draws):  # the action space's own sampling, then the same actions
                env.action_space.sample(mask=o["action_mask"])
            legal = np.flatnonzero(o["action_mask"])
            o, _, done, _, _ = env.step(int(legal[t % len(legal)]))
            trail.append(o["observation"].copy())
            if done:
                break
        obs.append(trail)
    assert len(obs[0]) == len(obs[1]) and all(np.array_equal(x, y) for x, y in zip(*obs))


def test_aec_env_deal_does_not_depend_on_sampling():
    runs = []
    for draws in (0, 5):
        env = aec.CarcassonneAEC("hunters", players=2)
        env.reset(seed=8)
        seen = []
        for t, agent in enumerate(env.agent_iter(max_iter=60)):
            o, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            for _ in range(draws):
                env.action_space(agent).sample(mask=o["action_mask"])
            legal = np.flatnonzero(o["action_mask"])
            env.step(int(legal[t % len(legal)]))
            seen.append(env.game_state.history()[-3:])
        runs.append(seen)
    assert runs[0] == runs[1]


def test_selfplay_deal_does_not_depend_on_the_bots():
    """Base draws uniformly from what is left of the pile: with the same seed the same tiles come
    in the same order whoever plays them (until a tile fits nowhere, which these seeds avoid)."""
    game = carcassonne.Game("base")
    draws = []
    for bots in (["random"], ["greedy", "random"], ["mcts:playouts=20,threads=1", "greedy"]):
        st = selfplay.play_game(game, 21, bots)
        draws.append([a for p, a in st.full_history() if p == carcassonne.CHANCE])
    assert len(draws[0]) > 60
    assert draws[0] == draws[1] == draws[2]


@pytest.mark.parametrize("name", GAMES)
def test_a_level_plays_the_games_own_spec(name):
    """bot_action and mcts with a level ("easy") play what the game's own spec for that level plays
    (GameDef::levels; each game sets its own), seed for seed."""
    specs = {"base": "mcts:playouts=10,threads=1,value=0,pdepth=1",
             "amazonas": "mcts:playouts=10,threads=1,slip=0.2,race=0",
             "hunters": "mcts:playouts=100,threads=1,slip=0.14",
             "safari": "mcts:playouts=10,threads=1,value=0,slip=0.03"}
    game = carcassonne.Game(name, players=2)
    state = game.new_initial_state(seed=3)
    rng = random.Random(2)
    checked = 0
    while not state.is_terminal() and checked < 8:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        for k in range(3):
            assert carcassonne.bot_action(state, "easy", k) == carcassonne.bot_action(state, specs[name], k)
        (va, aa), (vb, ab) = carcassonne.mcts(state, "easy", 1), carcassonne.mcts(state, specs[name], 1)
        assert aa == ab and np.array_equal(va, vb)
        checked += 1
        state.apply_action(carcassonne.bot_action(state, "greedy", checked))
    assert checked == 8
    carcassonne.check_bot("easy")
    with pytest.raises(ValueError, match="medium"):
        carcassonne.check_bot("medium")
