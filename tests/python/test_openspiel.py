"""OpenSpiel's contract over all four games (bindings/python/carcassonne/openspiel.py and the
compiled Game/State), checked the way OpenSpiel checks its own games (api_test.py,
basic_tests.cc), but without pyspiel (not installed here):

1. random simulations with every state checked: node kinds, players, legal actions and masks,
   chance odds, action strings, tensors and strings, history, child/clone, rewards and returns,
   serialize/deserialize, pickle, deepcopy and undo_action (the costly ones every k-th step);
   get_type(), load_game, registered_names;
2. from_record(to_record_json()) mid-game restores history and the generator;
3. pickled mid-game states finished in a spawn process pool equal the parent's continuation;
4. a reference of OpenSpiel's UCT MCTS (openspiel_reference.py) plays whole games;
5. register() against a stand-in pyspiel written from OpenSpiel's Python-game API (NOT the real
   pyspiel), and register() == [] when pyspiel is not importable.
"""
import base64
import copy
import enum
import multiprocessing
import os
import pickle
import random
import sys
import time
import types

import numpy as np
import pytest

import carcassonne
from carcassonne import CHANCE, TERMINAL
from carcassonne import openspiel as cos

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import openspiel_reference as ref  # noqa: E402

# carcassonne.games() minus any test-only game: the four the OpenSpiel layer names
GAMES = [g for g in carcassonne.games() if g in cos.GAME_NAMES]
DEEP_EVERY = 9  # the costly checks (deserialize, pickle, deepcopy, undo) every k-th step


def test_the_four_games():
    assert sorted(GAMES) == ["amazonas", "base", "hunters", "safari"]


# ---------------------------------------------------------------- helpers

def same_continuation(a, b, rng, max_steps=14, chance_nodes=2):
    """Applies the same actions to a and b (chance: each state's own sample_chance_outcome, which
    must agree, so the generator was restored) until `chance_nodes` chance nodes were passed or the
    game ends; every step both states must be equal."""
    seen = 0
    for _ in range(max_steps):
        assert a.serialize() == b.serialize()
        assert a.history() == b.history()
        assert a.current_player() == b.current_player()
        assert a.legal_actions() == b.legal_actions()
        if a.is_terminal():
            assert b.is_terminal() and a.returns() == b.returns()
            return
        if a.is_chance_node():
            x, y = a.sample_chance_outcome(), b.sample_chance_outcome()
            assert x == y, "the restored state's generator draws what the original's does"
            a.apply_action(x)
            b.apply_action(y)
            seen += 1
            if seen >= chance_nodes:
                break
        else:
            act = rng.choice(a.legal_actions())
            a.apply_action(act)
            b.apply_action(act)
    assert a.serialize() == b.serialize() and a.history() == b.history()


def assert_same_state(a, b):
    assert a.serialize() == b.serialize()
    assert a.history() == b.history()
    assert a.full_history() == b.full_history()
    assert a.current_player() == b.current_player()
    assert a.is_terminal() == b.is_terminal() and a.is_chance_node() == b.is_chance_node()
    assert a.legal_actions() == b.legal_actions()


def check_terminal(game, state):
    n = game.num_players()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    for p in range(n):
        assert state.legal_actions(p) == []
    mask = np.asarray(state.legal_actions_mask())
    assert mask.shape == (game.num_distinct_actions(),) and not mask.any()
    r = state.returns()
    assert len(r) == n
    assert abs(sum(r) - game.utility_sum()) < 1e-9, r
    for v in r:
        assert game.min_utility() - 1e-9 <= v <= game.max_utility() + 1e-9, r
    assert list(state.rewards()) == list(r)
    for p in range(n):
        assert state.player_return(p) == r[p]
        assert state.player_reward(p) == r[p]
    assert len(state.history()) <= game.max_game_length()
    with pytest.raises(ValueError):
        state.apply_action(0)


def check_state(game, state, rng, deep, seen_info):
    """The cheap checks of OpenSpiel's api_test at one state (deep: also every seat's views)."""
    n = game.num_players()
    na, nc = game.num_distinct_actions(), game.max_chance_outcomes()
    kinds = [state.is_chance_node(), state.is_player_node(), state.is_terminal()]
    assert sum(kinds) == 1, kinds
    assert state.is_simultaneous_node() is False
    cp = state.current_player()
    legal = state.legal_actions()
    assert isinstance(legal, list) and all(isinstance(a, int) for a in legal)
    assert legal == sorted(set(legal)), "sorted and unique"
    mask = np.asarray(state.legal_actions_mask())
    if state.is_terminal():
        assert cp == TERMINAL and legal == []
    elif state.is_chance_node():
        assert cp == CHANCE
        assert legal and all(0 <= a < nc for a in legal)
        assert mask.shape == (nc,)
        outcomes = state.chance_outcomes()
        actions = [a for a, _ in outcomes]
        probs = [p for _, p in outcomes]
        assert sorted(actions) == legal and len(actions) == len(legal)
        assert all(p > 0 for p in probs)
        assert abs(sum(probs) - 1) < 1e-9, sum(probs)
        assert state.legal_actions(CHANCE) == legal
        for p in range(n):
            assert state.legal_actions(p) == []
    else:
        assert 0 <= cp < n
        assert legal and all(0 <= a < na for a in legal)
        assert mask.shape == (na,)
        for p in range(n):
            assert state.legal_actions(p) == (legal if p == cp else [])
        with pytest.raises(ValueError):
            state.chance_outcomes()
    assert np.flatnonzero(mask).tolist() == legal, "the mask is the legal actions"
    # every legal action named, and read back
    for a in legal:
        text = state.action_to_string(a)
        assert isinstance(text, str) and text
        assert state.action_to_string(cp, a) == text
        assert state.string_to_action(text) == a, (a, text)
    # any id in range, legal or not, has a name (state's and game's)
    top = nc if state.is_chance_node() else na
    who = cp if cp >= 0 else (CHANCE if state.is_chance_node() else 0)
    for a in [0, top - 1] + [rng.randrange(top) for _ in range(3)]:
        assert isinstance(state.action_to_string(a), str)
        assert isinstance(game.action_to_string(who, a), str)
    # tensors and strings
    seats = range(n) if deep else [max(cp, 0)]
    for p in seats:
        obs = state.observation_tensor(p)
        assert obs.dtype == np.float32 and list(obs.shape) == game.observation_tensor_shape()
        info = state.information_state_tensor(p)
        assert info.dtype == np.float32 and list(info.shape) == game.information_state_tensor_shape()
        assert isinstance(state.observation_string(p), str) and state.observation_string(p)
        assert isinstance(state.information_state_string(p), str)
    if deep:
        for bad in (-1, n):
            for view in (state.observation_tensor, state.information_state_tensor, state.observation_string,
                         state.information_state_string):
                with pytest.raises(ValueError):
                    view(bad)
    # perfect recall: a new history, a new information state
    info0 = state.information_state_string(0)
    assert info0 not in seen_info, "two histories share an information state"
    seen_info.add(info0)
    if not state.is_terminal():
        assert not any(state.rewards()), "rewards are 0 before the end"
        assert not any(state.returns()), "returns are 0 before the end"
    assert len(state.history()) <= game.max_game_length()
    assert state.get_game() == game and state.get_type() == game.get_type()
    assert state.num_players() == n and state.num_distinct_actions() == na


def deep_checks(game, state, rng):
    """Round trips that must give the same state and continue identically."""
    ser = state.serialize()
    # serialize -> deserialize_state
    back = game.deserialize_state(ser)
    assert_same_state(back, state)
    same_continuation(state.clone(), back, random.Random(rng.random()))
    # pickle (state and game), deepcopy, copy
    again = pickle.loads(pickle.dumps(state))
    assert_same_state(again, state)
    assert again.get_game() == game
    same_continuation(state.clone(), again, random.Random(rng.random()))
    g2 = pickle.loads(pickle.dumps(game))
    assert g2 == game and g2.num_players() == game.num_players() and str(g2) == str(game)
    assert g2.num_distinct_actions() == game.num_distinct_actions()
    dc = copy.deepcopy(state)
    assert_same_state(dc, state)
    same_continuation(state.clone(), dc, random.Random(rng.random()), chance_nodes=1)
    assert_same_state(copy.copy(state), state)
    assert state.serialize() == ser, "round trips leave the state unchanged"


def walk(game, seed, use_sampler):
    """One random game with every state checked; returns the number of steps."""
    rng = random.Random(seed * 7919 + game.num_players())
    state = game.new_initial_state(seed=seed)
    assert state.is_initial_state() and state.history() == [] and state.full_history() == []
    assert game.new_initial_states()[0].is_initial_state()
    seen_info = set()
    step = 0
    while True:
        deep = step % DEEP_EVERY == 0
        check_state(game, state, rng, deep, seen_info)
        if deep:
            deep_checks(game, state, rng)
        if state.is_terminal():
            break
        cp = state.current_player()
        if state.is_chance_node():
            if use_sampler:
                a = state.sample_chance_outcome()
                assert a in state.legal_actions()
            else:
                actions, probs = zip(*state.chance_outcomes())
                a = rng.choices(actions, probs)[0]
        else:
            a = rng.choice(state.legal_actions())
        hist, full, ser = state.history(), state.full_history(), state.serialize()
        child = state.child(a)
        assert state.serialize() == ser and state.history() == hist, "child() leaves the parent unchanged"
        twin = state.clone()
        twin.apply_action(a)
        assert child.serialize() == twin.serialize() and child.history() == twin.history()
        state.apply_action(a)
        assert not state.is_initial_state()
        assert state.history() == hist + [a]
        assert state.full_history() == full + [(cp, a)]
        assert [x for _, x in state.full_history()] == state.history()
        assert state.serialize() == child.serialize()
        if deep or state.is_terminal():
            undone = state.clone()
            with pytest.raises(ValueError):
                undone.undo_action(cp, a + 1)
            undone.undo_action(cp, a)
            assert undone.serialize() == ser and undone.history() == hist and undone.full_history() == full
        step += 1
        assert step <= game.max_game_length()
    check_terminal(game, state)
    deep_checks(game, state, rng)
    return step


SIMULATIONS = [(g, 2, 0) for g in GAMES] + [(g, 2, 1) for g in GAMES] + \
    [("base", 3, 2), ("amazonas", 4, 3), ("hunters", 5, 4), ("safari", 3, 5), ("base", 5, 6), ("safari", 4, 7),
     ("hunters", 3, 8), ("amazonas", 5, 9)]


@pytest.mark.parametrize("name,players,seed", SIMULATIONS)
def test_random_simulation_api(name, players, seed):
    game = carcassonne.Game(name, players=players)
    steps = walk(game, seed, use_sampler=seed % 2 == 0)
    assert steps > 50


# ---------------------------------------------------------------- game type, load_game, names

@pytest.mark.parametrize("name", GAMES)
def test_game_type(name):
    game = carcassonne.Game(name, players=3)
    t = game.get_type()
    T = carcassonne.GameType
    assert isinstance(t, T)
    assert t.short_name == cos.GAME_NAMES[name] and t.short_name in carcassonne.registered_names()
    assert isinstance(t.long_name, str) and t.long_name.startswith("Carcassonne")
    assert t.dynamics == T.Dynamics.SEQUENTIAL
    assert t.chance_mode == T.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == T.Information.PERFECT_INFORMATION
    assert t.utility == T.Utility.ZERO_SUM
    assert t.reward_model == T.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (2, 5)
    assert t.provides_information_state_string is True and t.provides_information_state_tensor is True
    assert t.provides_observation_string is True and t.provides_observation_tensor is True
    assert t.default_loadable is True
    assert isinstance(t.parameter_specification, dict) and "players" in t.parameter_specification
    assert game.get_type() == t and t != carcassonne.Game("base" if name != "base" else "safari").get_type()
    # the provided views work (the walk checks them at every state)
    state = game.new_initial_state(seed=1)
    state.apply_action(state.sample_chance_outcome())
    assert isinstance(state.information_state_string(1), str) and isinstance(state.observation_string(2), str)
    assert state.observation_tensor(2).shape == (game.observation_tensor_size(),)
    assert np.array_equal(state.information_state_tensor(1), state.observation_tensor(1))
    # OpenSpiel's PyObserver shape
    obs = game.make_py_observer()
    obs.set_from(state, 1)
    assert obs.tensor.dtype == np.float32 and np.array_equal(obs.tensor, state.observation_tensor(1))
    c, w, _ = game.observation_planes_shape()
    assert obs.dict["planes"].shape == (c, w, w)
    assert obs.string_from(state, 1) == state.observation_string(1)
    with pytest.raises(TypeError):
        T(no_such_field=1)
    # every game of 2..5 players loads, and the player range is the type's
    for p in range(t.min_num_players, t.max_num_players + 1):
        assert carcassonne.load_game(t.short_name, {"players": p}).num_players() == p
    for p in (t.min_num_players - 1, t.max_num_players + 1):
        with pytest.raises(ValueError):
            carcassonne.load_game(t.short_name, {"players": p})


def test_names_and_titles_come_from_the_games_definitions():
    # the names follow the game list (the first game is plain "carcassonne"), the long names and
    # player ranges are the games' own; a test-only game gets a name and a type but no registration
    ids = carcassonne.games()
    shipped = [g for g in ids if not carcassonne.game_definition(g)["test_only"]]
    assert list(cos.GAME_NAMES) == shipped
    assert cos.GAME_NAMES[shipped[0]] == "carcassonne"
    for gid in shipped[1:]:
        assert cos.GAME_NAMES[gid] == "carcassonne_" + gid
    for gid in ids:
        d = carcassonne.game_definition(gid)
        assert d["id"] == gid and isinstance(d["title"], str) and d["title"]
        t = carcassonne.Game(gid).get_type()
        assert t.long_name == d["title"]
        assert (t.min_num_players, t.max_num_players) == (d["min_players"], d["max_players"])
        if d["test_only"]:
            assert t.short_name == "carcassonne_" + gid and t.short_name not in carcassonne.registered_names()
            assert str(carcassonne.Game(gid)).startswith(t.short_name + "(")
    assert carcassonne.game_definition("base")["title"] == "Carcassonne"
    with pytest.raises(Exception, match="unknown game"):
        carcassonne.game_definition("chess")


def test_load_game_names_and_params():
    g = carcassonne.load_game("carcassonne")
    assert (g.name, g.num_players()) == ("base", 2)
    g = carcassonne.load_game("carcassonne_safari(players=3)")
    assert (g.name, g.num_players()) == ("safari", 3)
    g = carcassonne.load_game("hunters", {"players": 4})
    assert (g.name, g.num_players()) == ("hunters", 4)
    for gid, short in cos.GAME_NAMES.items():
        assert carcassonne.load_game(short).name == gid
        assert carcassonne.load_game(gid).name == gid
        g = carcassonne.load_game(f"{short}(players=5)")
        assert str(g).startswith(short + "(") and "players=5" in str(g)
        assert carcassonne.load_game(str(g)) == g, "Game's string loads the same game"
    assert carcassonne.registered_names() == sorted(cos.GAME_NAMES.values())
    shipped = [g for g in carcassonne.games() if not carcassonne.game_definition(g)["test_only"]]
    assert len(carcassonne.registered_names()) == len(shipped) >= 4
    assert carcassonne.load_game("carcassonne", {"radius": 12}).radius() == 12
    for bad in ("chess", "carcassonne_chess", "carcassonne(players)", "carcassonne(players=3", "", "a b"):
        with pytest.raises(ValueError):
            carcassonne.load_game(bad)
    for bad_name, params in [(5, None), (None, None), ("carcassonne", {"players": "3"}),
                             ("carcassonne", {"players": True}), ("carcassonne", [("players", 3)]),
                             ("carcassonne", {"radius": "x"}), ("carcassonne(radius=x)", None)]:
        with pytest.raises(TypeError):
            carcassonne.load_game(bad_name, params)


# ---------------------------------------------------------------- 2. records

def play(state, rng, steps):
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", GAMES)
def test_from_record_mid_game_restores_history_and_generator(name):
    for players, seed, steps in [(2, 11, 40), (3, 12, 91)]:
        game = carcassonne.Game(name, players=players)
        state = play(game.new_initial_state(seed=seed), random.Random(seed), steps)
        for mid in (state, play(state.clone(), random.Random(1), 1)):  # a decision or a chance node, both
            for rec in (mid.to_record_json(), mid.to_record()):
                back = carcassonne.from_record(rec)
                assert back.history_known()
                assert back.get_game() == game
                assert back.history() == mid.history() and back.full_history() == mid.full_history()
                assert back.current_player() == mid.current_player()
                assert back.serialize() == mid.serialize()
            a, b = mid.clone(), carcassonne.from_record(mid.to_record_json())
            ra, rb = random.Random(seed), random.Random(seed)
            while not a.is_terminal():
                assert not b.is_terminal() and a.current_player() == b.current_player()
                if a.is_chance_node():
                    x, y = a.sample_chance_outcome(), b.sample_chance_outcome()
                    assert x == y, "the record's seed restores the deal"
                    a.apply_action(x)
                    b.apply_action(y)
                else:
                    assert a.legal_actions() == b.legal_actions()
                    act = ra.choice(a.legal_actions())
                    assert act == rb.choice(b.legal_actions())
                    a.apply_action(act)
                    b.apply_action(act)
            assert b.is_terminal() and a.returns() == b.returns() and a.history() == b.history()


# ---------------------------------------------------------------- 3. process pool

def test_pickled_states_finish_in_a_spawn_pool(monkeypatch):
    here = os.path.dirname(os.path.abspath(__file__))
    pkg_parent = os.path.dirname(os.path.dirname(os.path.abspath(carcassonne.__file__)))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([pkg_parent, here, os.environ.get("PYTHONPATH", "")]))
    jobs, expected = [], []
    for i, name in enumerate(GAMES):
        for players, steps in [(2, 30 + 17 * i), (3 + i % 3, 101)]:
            game = carcassonne.Game(name, players=players)
            state = play(game.new_initial_state(seed=100 + i), random.Random(i), steps)
            k = 1000 + len(jobs)
            jobs.append((pickle.dumps(state), k))
            ret, length = ref.finish_game(state.clone(), k)
            expected.append((ret, length, state.serialize()))
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(2) as pool:
        got = pool.map_async(ref.finish_pickled, jobs).get(timeout=120)
    assert len(got) == len(expected)
    assert os.getpid() not in {pid for *_, pid in got}, "the jobs ran in other processes"
    for (ret, length, before, _), (eret, elength, ebefore) in zip(got, expected):
        assert before == ebefore, "the child unpickled the parent's state"
        assert (ret, length) == (eret, elength), "the child finished the game as the parent did"
        assert abs(sum(ret)) < 1e-9


# ---------------------------------------------------------------- 4. MCTS reference

MCTS_SIMS, MCTS_ROLLOUTS = 3, 1


def play_mcts_game(game, seed, sims=MCTS_SIMS):
    """MCTS seat (seed % 2) against a uniform random seat, to the end."""
    rng = random.Random(seed)
    bot = ref.MCTSBot(game, uct_c=2.0, max_simulations=sims,
                      evaluator=ref.RandomRolloutEvaluator(MCTS_ROLLOUTS, random.Random(seed + 1)),
                      rng=random.Random(seed + 2))
    mcts_seat = seed % 2
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        legal = state.legal_actions()
        if state.current_player() == mcts_seat:
            action = bot.step(state)
            root = bot.last_root
            assert root.explore_count == sims
            # the first simulation evaluates the root itself, every later one goes through a child
            assert sum(c.explore_count for c in root.children) == sims - 1
            assert sorted(c.action for c in root.children) == legal
            assert abs(sum(c.prior for c in root.children) - 1) < 1e-9
            assert all(c.player == mcts_seat for c in root.children)
            decisions += 1
        else:
            action = rng.choice(legal)
        assert action in legal
        state.apply_action(action)
    r = state.returns()
    assert len(r) == game.num_players() and abs(sum(r) - game.utility_sum()) < 1e-9
    assert all(game.min_utility() - 1e-9 <= v <= game.max_utility() + 1e-9 for v in r)
    assert decisions > 20
    return r


@pytest.mark.parametrize("name", GAMES)
def test_mcts_reference_plays_whole_games(name):
    game = carcassonne.load_game(name)
    t0 = time.time()
    play_mcts_game(game, seed=GAMES.index(name))
    elapsed = time.time() - t0
    print(f"MCTS ({MCTS_SIMS} sims x {MCTS_ROLLOUTS} rollout) vs random, {name}: {elapsed:.2f} s")


def test_mcts_reference_checks_the_game_type():
    ns = types.SimpleNamespace

    class Stub:
        def __init__(self, **kinds):
            base = dict(reward_model="TERMINAL", dynamics="SEQUENTIAL", chance_mode="EXPLICIT_STOCHASTIC")
            base.update(kinds)
            self.t = ns(**{k: ns(name=v) for k, v in base.items()})

        def get_type(self):
            return self.t

    ref.MCTSBot(Stub(), 1.0, 2, ref.RandomRolloutEvaluator())
    for kinds in ({"reward_model": "REWARDS"}, {"dynamics": "SIMULTANEOUS"}, {"chance_mode": "SAMPLED_STOCHASTIC"}):
        with pytest.raises(ValueError):
            ref.MCTSBot(Stub(**kinds), 1.0, 2, ref.RandomRolloutEvaluator())


def test_mcts_reference_finds_the_winning_move():
    """On a position where one action ends the game in a win, enough simulations choose it: the
    search's backup (each chooser's viewpoint) is right, not only legal."""

    class Toy:
        """Seat 0 picks 0..4, chance adds noise 0/1 that doesn't matter, action 3 wins."""

        def __init__(self, hist=()):
            self.hist = list(hist)

        def clone(self):
            return Toy(self.hist)

        def is_terminal(self):
            return len(self.hist) == 2

        def is_chance_node(self):
            return len(self.hist) == 1

        def current_player(self):
            return TERMINAL if self.is_terminal() else CHANCE if self.is_chance_node() else 0

        def legal_actions(self, player=None):
            return [0, 1] if self.is_chance_node() else [] if self.is_terminal() else [0, 1, 2, 3, 4]

        def chance_outcomes(self):
            return [(0, 0.5), (1, 0.5)]

        def apply_action(self, a):
            self.hist.append(a)

        def returns(self):
            if not self.is_terminal():
                return [0.0, 0.0]
            return [1.0, -1.0] if self.hist[0] == 3 else [-1.0, 1.0]

    game = carcassonne.load_game("carcassonne")  # only for get_type()
    bot = ref.MCTSBot(game, 1.0, 60, ref.RandomRolloutEvaluator(1, random.Random(3)), rng=random.Random(4))
    assert bot.step(Toy()) == 3


# ---------------------------------------------------------------- 5. registration (stand-in pyspiel)

class SpielError(RuntimeError):
    """What pyspiel raises for SpielFatalError."""


def make_fake_pyspiel():
    """A stand-in for pyspiel, written from OpenSpiel's Python-game API (spiel.h, python_games.cc):
    GameType/GameInfo with keyword fields, Game(game_type, game_info, params), State whose public
    methods call the subclass's _legal_actions/_apply_action/_action_to_string and keep the
    history, clone() = new_initial_state() + deepcopy of the Python attributes, serialize() of the
    history and pickled attributes, views through the game's make_py_observer, register_game and
    load_game with OpenSpiel's parameter validation. It is NOT pyspiel."""
    m = types.ModuleType("pyspiel")
    m.SpielError = SpielError

    class PlayerId(enum.IntEnum):
        CHANCE = -1
        SIMULTANEOUS = -2
        INVALID = -3
        TERMINAL = -4
        MEAN_FIELD = -5

    class GameType:
        class Dynamics(enum.Enum):
            SIMULTANEOUS = 0
            SEQUENTIAL = 1
            MEAN_FIELD = 2

        class ChanceMode(enum.Enum):
            DETERMINISTIC = 0
            EXPLICIT_STOCHASTIC = 1
            SAMPLED_STOCHASTIC = 2

        class Information(enum.Enum):
            ONE_SHOT = 0
            PERFECT_INFORMATION = 1
            IMPERFECT_INFORMATION = 2

        class Utility(enum.Enum):
            ZERO_SUM = 0
            CONSTANT_SUM = 1
            GENERAL_SUM = 2
            IDENTICAL = 3

        class RewardModel(enum.Enum):
            REWARDS = 0
            TERMINAL = 1

        def __init__(self, *, short_name, long_name, dynamics, chance_mode, information, utility, reward_model,
                     max_num_players, min_num_players, provides_information_state_string,
                     provides_information_state_tensor, provides_observation_string, provides_observation_tensor,
                     parameter_specification=None, default_loadable=True,
                     provides_factored_observation_string=False, is_concrete=True):
            for value, kind in [(dynamics, GameType.Dynamics), (chance_mode, GameType.ChanceMode),
                                (information, GameType.Information), (utility, GameType.Utility),
                                (reward_model, GameType.RewardModel)]:
                if not isinstance(value, kind):
                    raise TypeError(f"GameType: {value!r} is not a {kind.__name__}")
            for flag in (provides_information_state_string, provides_information_state_tensor,
                         provides_observation_string, provides_observation_tensor, default_loadable,
                         provides_factored_observation_string):
                if not isinstance(flag, bool):
                    raise TypeError(f"GameType: {flag!r} is not a bool")
            if not (isinstance(short_name, str) and isinstance(long_name, str)):
                raise TypeError("GameType: names are str")
            if not (isinstance(max_num_players, int) and isinstance(min_num_players, int)):
                raise TypeError("GameType: player counts are int")
            spec = dict(parameter_specification or {})
            for k, v in spec.items():
                if not isinstance(k, str) or not isinstance(v, (bool, int, float, str)):
                    raise TypeError(f"GameType: parameter {k!r}={v!r} is not a GameParameter")
            self.short_name, self.long_name = short_name, long_name
            self.dynamics, self.chance_mode, self.information = dynamics, chance_mode, information
            self.utility, self.reward_model = utility, reward_model
            self.max_num_players, self.min_num_players = max_num_players, min_num_players
            self.provides_information_state_string = provides_information_state_string
            self.provides_information_state_tensor = provides_information_state_tensor
            self.provides_observation_string = provides_observation_string
            self.provides_observation_tensor = provides_observation_tensor
            self.parameter_specification = spec
            self.default_loadable = default_loadable
            self.provides_factored_observation_string = provides_factored_observation_string

    class GameInfo:
        def __init__(self, *, num_distinct_actions, max_chance_outcomes, num_players, min_utility, max_utility,
                     utility_sum=None, max_game_length):
            for v in (num_distinct_actions, max_chance_outcomes, num_players, max_game_length):
                if not isinstance(v, int) or isinstance(v, bool):
                    raise TypeError(f"GameInfo: {v!r} is not an int")
            self.num_distinct_actions, self.max_chance_outcomes = num_distinct_actions, max_chance_outcomes
            self.num_players, self.min_utility, self.max_utility = num_players, float(min_utility), float(max_utility)
            self.utility_sum, self.max_game_length = utility_sum, max_game_length

    class IIGObservationType:
        def __init__(self, public_info=True, perfect_recall=False, private_info="SINGLE_PLAYER"):
            self.public_info, self.perfect_recall, self.private_info = public_info, perfect_recall, private_info

    def flat(observer):
        # the dict's tensors, in order, as one list of floats (PyObserver::WriteTensor)
        return np.concatenate([np.asarray(v, np.float32).ravel() for v in observer.dict.values()]).tolist()

    class Game:
        def __init__(self, game_type, game_info, params):
            if not isinstance(game_type, GameType) or not isinstance(game_info, GameInfo):
                raise TypeError("Game(game_type, game_info, params)")
            if not isinstance(params, dict):
                raise TypeError("Game: params is a dict")
            self._spiel_type, self._spiel_info, self._spiel_params = game_type, game_info, dict(params)
            self._spiel_observers = {}

        def get_type(self):
            return self._spiel_type

        def num_players(self):
            return self._spiel_info.num_players

        def num_distinct_actions(self):
            return self._spiel_info.num_distinct_actions

        def max_chance_outcomes(self):
            return self._spiel_info.max_chance_outcomes

        def min_utility(self):
            return self._spiel_info.min_utility

        def max_utility(self):
            return self._spiel_info.max_utility

        def utility_sum(self):
            return self._spiel_info.utility_sum

        def max_game_length(self):
            return self._spiel_info.max_game_length

        def get_parameters(self):
            return dict(self._spiel_params)

        def __str__(self):
            return self._spiel_type.short_name + "(" + ",".join(
                f"{k}={v}" for k, v in sorted(self._spiel_params.items())) + ")"

        def new_initial_state(self):
            raise NotImplementedError

        def _observer(self, perfect_recall):
            # PyGame::default_observer / info_state_observer: make_py_observer(iig_obs_type, params)
            if perfect_recall not in self._spiel_observers:
                self._spiel_observers[perfect_recall] = self.make_py_observer(
                    IIGObservationType(perfect_recall=perfect_recall), {})
            return self._spiel_observers[perfect_recall]

        def observation_tensor_shape(self):
            o = self._observer(False)
            o.set_from(self.new_initial_state(), 0)
            return [len(flat(o))]

        def information_state_tensor_shape(self):
            o = self._observer(True)
            o.set_from(self.new_initial_state(), 0)
            return [len(flat(o))]

        def deserialize_state(self, text):
            state = self.new_initial_state()
            hist, move, attrs = text.split("\n", 2)
            assert hist.startswith("history=") and move.startswith("move_number=") and attrs.startswith("__dict__=")
            state._spiel_history = [tuple(int(x) for x in h.split(":")) for h in hist[8:].split(",") if h]
            state._spiel_move_number = int(move[12:])
            for k, v in pickle.loads(base64.b64decode(attrs[9:])).items():
                setattr(state, k, v)
            return state

    class State:
        def __init__(self, game):
            if not isinstance(game, Game):
                raise TypeError("State(game)")
            self._spiel_game = game
            self._spiel_history = []
            self._spiel_move_number = 0

        def _py_attrs(self):
            return {k: v for k, v in self.__dict__.items() if not k.startswith("_spiel_")}

        # the subclass's part (pure virtual in OpenSpiel)
        def current_player(self):
            raise NotImplementedError

        def is_terminal(self):
            raise NotImplementedError

        def returns(self):
            raise NotImplementedError

        def chance_outcomes(self):
            raise NotImplementedError

        # the base class's part
        def get_game(self):
            return self._spiel_game

        def get_type(self):
            return self._spiel_game.get_type()

        def num_players(self):
            return self._spiel_game.num_players()

        def num_distinct_actions(self):
            return self._spiel_game.num_distinct_actions()

        def is_chance_node(self):
            return self.current_player() == PlayerId.CHANCE

        def is_player_node(self):
            return self.current_player() >= 0

        def is_simultaneous_node(self):
            return self.current_player() == PlayerId.SIMULTANEOUS

        def is_initial_state(self):
            return not self._spiel_history

        def legal_actions(self, player=None):
            cp = self.current_player()
            if player is None:
                player = cp
            if self.is_terminal():
                return []
            if self.is_chance_node():
                return [a for a, _ in self.chance_outcomes()]
            if player == cp:
                return list(self._legal_actions(player))
            if player < 0:
                raise SpielError(f"Called LegalActions for pseudo-player {player}")
            return []

        def legal_actions_mask(self, player=None):
            size = self._spiel_game.max_chance_outcomes() if self.is_chance_node() else self.num_distinct_actions()
            mask = [0] * size
            for a in self.legal_actions(player):
                mask[a] = 1
            return mask

        def apply_action(self, action):
            if action == -1:
                raise SpielError("kInvalidAction")
            player = self.current_player()
            self._apply_action(action)
            self._spiel_history.append((player, action))
            self._spiel_move_number += 1

        def action_to_string(self, *args):
            player, action = (self.current_player(), args[0]) if len(args) == 1 else args
            return self._action_to_string(player, action)

        def string_to_action(self, *args):
            player, text = (self.current_player(), args[0]) if len(args) == 1 else args
            for a in self.legal_actions(player):
                if self.action_to_string(player, a) == text:
                    return a
            raise SpielError(f"no action {text!r}")

        def history(self):
            return [a for _, a in self._spiel_history]

        def full_history(self):
            return list(self._spiel_history)

        def history_str(self):
            return ", ".join(str(a) for a in self.history())

        def move_number(self):
            return self._spiel_move_number

        def rewards(self):
            if self.is_terminal():
                return self.returns()
            return [0.0] * self.num_players()

        def player_return(self, player):
            return self.returns()[player]

        def clone(self):
            # PyState::Clone: a new initial state, the Python attributes deep-copied, the history copied
            c = self._spiel_game.new_initial_state()
            for k, v in self._py_attrs().items():
                setattr(c, k, copy.deepcopy(v))
            c._spiel_history = list(self._spiel_history)
            c._spiel_move_number = self._spiel_move_number
            return c

        def child(self, action):
            c = self.clone()
            c.apply_action(action)
            return c

        def serialize(self):
            return ("history=" + ",".join(f"{p}:{a}" for p, a in self._spiel_history) + "\n" +
                    f"move_number={self._spiel_move_number}\n" +
                    "__dict__=" + base64.b64encode(pickle.dumps(self._py_attrs())).decode())

        def _check_seat(self, player):
            if player is None:
                player = self.current_player()
            if not 0 <= player < self.num_players():
                raise SpielError(f"player {player} is not a seat")
            return player

        def observation_string(self, player=None):
            return self._spiel_game._observer(False).string_from(self, self._check_seat(player))

        def information_state_string(self, player=None):
            return self._spiel_game._observer(True).string_from(self, self._check_seat(player))

        def observation_tensor(self, player=None):
            o = self._spiel_game._observer(False)
            o.set_from(self, self._check_seat(player))
            return flat(o)

        def information_state_tensor(self, player=None):
            o = self._spiel_game._observer(True)
            o.set_from(self, self._check_seat(player))
            return flat(o)

    registry = {}

    def register_game(game_type, creator):
        if not isinstance(game_type, GameType):
            raise TypeError("register_game(game_type, creator)")
        if game_type.short_name in registry:
            raise SpielError(f"game {game_type.short_name} registered twice")
        registry[game_type.short_name] = (game_type, creator)

    def load_game(name, params=None):
        params = dict(params or {})
        if "(" in name:
            name, rest = name.split("(", 1)
            for part in filter(None, rest.rstrip(")").split(",")):
                k, v = part.split("=", 1)
                params[k] = int(v) if v.lstrip("-").isdigit() else v
        if name not in registry:
            raise SpielError(f"Unknown game '{name}'")
        game_type, creator = registry[name]
        # spiel.cc ValidateParams: unknown or mistyped parameters are errors
        for k, v in params.items():
            if k not in game_type.parameter_specification:
                raise SpielError(f"Unknown parameter '{k}'")
            if type(v) is not type(game_type.parameter_specification[k]):
                raise SpielError(f"Wrong type for parameter {k}")
        # python_games.cc RegisterPyGame: defaults from the specification fill what was not given
        full = dict(game_type.parameter_specification)
        full.update(params)
        game = creator(full)
        if not isinstance(game, Game):
            raise SpielError("the creator did not make a Game")
        return game

    m.PlayerId, m.GameType, m.GameInfo, m.IIGObservationType = PlayerId, GameType, GameInfo, IIGObservationType
    m.Game, m.State = Game, State
    m.register_game, m.load_game = register_game, load_game
    m.registered_names = lambda: sorted(registry)
    return m


def test_fake_pyspiel_refuses_what_pyspiel_refuses():
    """The stand-in's own checks can fail (else the registration test would prove little)."""
    fake = make_fake_pyspiel()
    T = fake.GameType
    ok = dict(short_name="x", long_name="x", dynamics=T.Dynamics.SEQUENTIAL, chance_mode=T.ChanceMode.DETERMINISTIC,
              information=T.Information.PERFECT_INFORMATION, utility=T.Utility.ZERO_SUM,
              reward_model=T.RewardModel.TERMINAL, max_num_players=2, min_num_players=2,
              provides_information_state_string=True, provides_information_state_tensor=True,
              provides_observation_string=True, provides_observation_tensor=True, parameter_specification={"n": 1})
    T(**ok)
    with pytest.raises(TypeError):
        T(**{**ok, "dynamics": carcassonne.GameType.Dynamics.SEQUENTIAL})  # another module's enum
    with pytest.raises(TypeError):
        T(**{**ok, "unknown_field": 1})
    fake.register_game(T(**ok), lambda params: None)
    with pytest.raises(SpielError):
        fake.load_game("x", {"m": 1})
    with pytest.raises(SpielError):
        fake.load_game("x", {"n": "1"})
    with pytest.raises(SpielError):
        fake.load_game("x")  # the creator made no Game


def play_spiel_game(game, rng):
    """A random game through the OpenSpiel base-class API only; returns the final state."""
    state = game.new_initial_state()
    n = game.num_players()
    steps = 0
    while not state.is_terminal():
        assert sum([state.is_chance_node(), state.is_player_node(), state.is_terminal()]) == 1
        cp = state.current_player()
        legal = state.legal_actions()
        assert legal == sorted(set(legal))
        mask = state.legal_actions_mask()
        assert [i for i, x in enumerate(mask) if x] == legal
        if state.is_chance_node():
            assert cp == CHANCE
            assert len(mask) == game.max_chance_outcomes()
            actions, probs = zip(*state.chance_outcomes())
            assert sorted(actions) == legal and abs(sum(probs) - 1) < 1e-9
            a = rng.choices(actions, probs)[0]
            assert isinstance(state.action_to_string(0, game.num_distinct_actions() - 1), str)
        else:
            assert 0 <= cp < n and len(mask) == game.num_distinct_actions()
            for p in range(n):
                if p != cp:
                    assert state.legal_actions(p) == []
            a = rng.choice(legal)
            assert state.string_to_action(state.action_to_string(a)) == a
        assert isinstance(state.action_to_string(cp, a), str)
        if steps % 25 == 0:
            inner = state._inner  # the engine state the adapter wraps: its views are the module's
            for p in range(n):
                assert state.observation_string(p) == inner.observation_string(p)
                assert state.information_state_string(p) == inner.information_state_string(p)
                obs = state.observation_tensor(p)
                assert len(obs) == game.observation_tensor_shape()[0]
                assert np.array_equal(np.asarray(obs, np.float32), inner.observation_tensor(p))
                assert len(state.information_state_tensor(p)) == game.information_state_tensor_shape()[0]
            # an information state is the history: different histories, different strings
            assert state.information_state_string(0) != state.child(a).information_state_string(0)
            c = state.clone()
            assert c.history() == state.history() and str(c) == str(state)
            c.apply_action(a)
            assert len(c.history()) == len(state.history()) + 1, "the clone is independent"
            back = game.deserialize_state(state.serialize())
            assert back.history() == state.history() and back.legal_actions() == legal and str(back) == str(state)
        hist = state.history()
        state.apply_action(a)
        assert state.history() == hist + [a]
        assert state.full_history()[-1] == (cp, a)
        steps += 1
        assert steps <= game.max_game_length()
        if not state.is_terminal():
            assert not any(state.rewards())
    r = state.returns()
    assert len(r) == n and abs(sum(r) - game.utility_sum()) < 1e-9
    assert all(game.min_utility() - 1e-9 <= v <= game.max_utility() + 1e-9 for v in r)
    assert list(state.rewards()) == list(r)
    assert state.legal_actions() == []
    # the history's actions named at the end as their player took them (chance outcomes as such)
    own = state._inner.get_game()
    for p, a in state.full_history():
        assert state.action_to_string(p, a) == own.action_to_string(p, a)
    return state


def test_register_with_a_stand_in_pyspiel():
    """Checks our adapter (carcassonne.openspiel.register) against a stand-in written from
    OpenSpiel's documented Python-game API, NOT against real pyspiel (not installable here)."""
    fake = make_fake_pyspiel()
    names = cos.register(pyspiel=fake)
    assert sorted(names) == carcassonne.registered_names() == fake.registered_names()
    for i, short in enumerate(sorted(names)):
        gid = cos._engine_id(short)
        game = fake.load_game(short)
        assert isinstance(game, fake.Game)
        t = game.get_type()
        assert t.short_name == short
        assert t.dynamics == fake.GameType.Dynamics.SEQUENTIAL
        assert t.chance_mode == fake.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert t.reward_model == fake.GameType.RewardModel.TERMINAL
        assert game.num_players() == 2
        own = carcassonne.Game(gid)
        assert game.num_distinct_actions() == own.num_distinct_actions()
        assert game.max_chance_outcomes() == own.max_chance_outcomes()
        assert game.max_game_length() == own.max_game_length()
        assert game.observation_tensor_shape() == own.observation_tensor_shape()
        end = play_spiel_game(game, random.Random(i))
        # serialize at the start and the end (the first state has no draw yet)
        for st in (game.new_initial_state(), end):
            back = game.deserialize_state(st.serialize())
            assert back.history() == st.history() and str(back) == str(st)
        g3 = fake.load_game(f"{short}(players=3)")
        assert g3.num_players() == 3 and g3.min_utility() == own.min_utility() / 2
        if i == 0:
            play_spiel_game(fake.load_game(short, {"players": 4}), random.Random(99))
    # OpenSpiel's MCTS reference runs unchanged on the registered game
    game = fake.load_game("carcassonne")
    bot = ref.MCTSBot(game, 2.0, 2, ref.RandomRolloutEvaluator(1, random.Random(5)), rng=random.Random(6))
    state = game.new_initial_state()
    rng = random.Random(7)
    for _ in range(12):
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            a = bot.step(state)
            assert a in state.legal_actions()
            state.apply_action(a)


def test_register_without_pyspiel(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel -> ImportError
    assert cos.register() == []


# ---------------------------------------------------------------- bugs found by this file, fixed in module.cpp

@pytest.mark.parametrize("name", GAMES)
def test_seedless_first_state_round_trips(name):
    game = carcassonne.Game(name)
    state = game.new_initial_state()  # no seed: OpenSpiel's new_initial_state()
    assert game.deserialize_state(state.serialize()).serialize() == state.serialize()
    assert pickle.loads(pickle.dumps(state)).serialize() == state.serialize()


def test_state_action_to_string_names_a_past_chance_outcome():
    game = carcassonne.Game("base")
    state = game.new_initial_state(seed=1)
    draw = state.sample_chance_outcome()
    name = state.action_to_string(CHANCE, draw)
    assert name == game.action_to_string(CHANCE, draw)
    state.apply_action(draw)
    assert state.action_to_string(CHANCE, draw) == name


def test_state_action_to_string_names_a_seat_action_at_a_chance_node():
    game = carcassonne.Game("base")
    state = game.new_initial_state(seed=1)
    a = game.num_distinct_actions() - 1
    assert state.action_to_string(0, a) == game.action_to_string(0, a)
