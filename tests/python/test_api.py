"""The OpenSpiel-shaped API over every game: random games with every action legal, chance odds,
action strings, masks, clones, records replayed by the engine, bad input (docs/python.md)."""
import json
import random

import numpy as np
import pytest

import carcassonne

GAMES = carcassonne.games()


def play_random(state, rng, on_decision=None, max_steps=5000):
    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps < max_steps, "the game ends"
        if state.is_chance_node():
            assert state.current_player() == carcassonne.CHANCE
            outcomes = state.chance_outcomes()
            assert outcomes, "a chance node has outcomes"
            total = sum(p for _, p in outcomes)
            assert abs(total - 1) < 1e-9, total
            assert all(p > 0 for _, p in outcomes)
            actions, probs = zip(*outcomes)
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        player = state.current_player()
        assert 0 <= player < state.get_game().num_players()
        legal = state.legal_actions()
        assert legal, "a decision has legal actions"
        assert legal == sorted(legal)
        if on_decision:
            on_decision(state, legal)
        state.apply_action(rng.choice(legal))
    assert state.current_player() == carcassonne.TERMINAL
    return steps


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 3])
def test_random_games_every_action_legal_and_records_replay(name, players):
    game = carcassonne.Game(name, players=players)
    n = game.num_distinct_actions()
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        seen = {"decisions": 0}

        def check(st, legal):
            seen["decisions"] += 1
            mask = st.legal_actions_mask()
            assert mask.shape == (n,) and mask.dtype == np.uint8
            assert np.flatnonzero(mask).tolist() == legal, "the mask is legal_actions"
            if seen["decisions"] % 7 == 0:
                # every action's string names it back
                for a in legal[:40]:
                    assert st.string_to_action(st.action_to_string(a)) == a
        play_random(state, rng, check)
        returns = state.returns()
        assert len(returns) == players and abs(sum(returns)) < 1e-9
        assert state.rewards() == returns
        rec = state.to_record()
        assert rec["game"] == name and rec["status"] == "finished"
        assert rec["final_scores"] == [int(s) for s in state.scores()]
        again = carcassonne.from_record(rec)
        assert again.is_terminal() and again.scores() == state.scores()
        assert carcassonne.from_record(json.dumps(rec)).scores() == state.scores()


@pytest.mark.parametrize("name", GAMES)
def test_seeded_states_follow_the_seed(name):
    game = carcassonne.Game(name)

    def run(seed):
        st = game.new_initial_state(seed=seed)
        rng = random.Random(5)
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_action(st.sample_chance_outcome())
            else:
                st.apply_action(rng.choice(st.legal_actions()))
        return st.to_record()["draws"]

    assert run(11) == run(11)
    assert run(11) != run(12)


@pytest.mark.parametrize("name", GAMES)
def test_clone_is_independent(name):
    game = carcassonne.Game(name)
    state = game.new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(40):
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    before = state.to_record_json()
    legal = state.legal_actions() if not state.is_chance_node() else None
    copy = state.clone()
    play_random(copy, random.Random(9))
    assert copy.is_terminal() and not state.is_terminal()
    assert state.to_record_json() == before
    if legal is not None:
        assert state.legal_actions() == legal


def test_chance_outcomes_match_the_pile():
    game = carcassonne.Game("base")
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    view = state.view()
    left = {t["id"]: t["left"] for t in view["tiles_left"]} if "tiles_left" in view else None
    total = 71  # the base game's pile: 72 tiles, the start tile laid
    names = {a: state.action_to_string(a).split()[-1] for a in outcomes}
    counts = {names[a]: round(p * total) for a, p in outcomes.items()}
    for a, p in outcomes.items():
        assert abs(p * total - round(p * total)) < 1e-9, "each probability is copies / tiles left"
    assert sum(counts.values()) == total
    if left is not None:
        assert counts == {k: v for k, v in left.items() if v}
    # after a draw of a tile type, its odds drop by one copy
    a = max(outcomes, key=outcomes.get)
    state.apply_action(a)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[0])
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    after = dict(state.chance_outcomes())
    assert abs(after.get(a, 0) * (total - 1) - (counts[names[a]] - 1)) < 1e-9


@pytest.mark.parametrize("name", ["amazonas", "safari", "hunters"])
def test_chance_odds_sum_to_one_all_game_long(name):
    game = carcassonne.Game(name, players=2)
    state = game.new_initial_state(seed=21)
    kinds = set()
    rng = random.Random(21)
    while not state.is_terminal():
        if state.is_chance_node():
            out = state.chance_outcomes()
            assert abs(sum(p for _, p in out) - 1) < 1e-9
            kinds.add("token" if out[0][0] >= game.max_chance_outcomes() - 5 else "tile")
            s = state.sample_chance_outcome()
            assert s in dict(out)
            state.apply_action(s)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    if name == "safari":
        assert kinds == {"tile", "token"}


def test_bad_actions_raise_and_change_nothing():
    game = carcassonne.Game("base")
    state = game.new_initial_state(seed=1)
    state.apply_action(state.sample_chance_outcome())
    before = state.to_record_json()
    legal = set(state.legal_actions())
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    for bad in (-1, game.num_distinct_actions(), 10**9, illegal):
        with pytest.raises(ValueError):
            state.apply_action(bad)
    with pytest.raises(ValueError):
        state.string_to_action("not a move")
    with pytest.raises(ValueError):
        state.action_to_string(-5)
    with pytest.raises(TypeError):
        state.apply_action("U 1,0")
    assert state.to_record_json() == before
    # at a chance node, an outcome that is not possible
    while not state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(ValueError):
        state.apply_action(game.max_chance_outcomes() + 3)
    with pytest.raises(ValueError):
        carcassonne.Game("chess")
    with pytest.raises(ValueError):
        carcassonne.Game("base", players=9)
    with pytest.raises(ValueError):
        carcassonne.Game("base", options={"no_such_option": 1})
    with pytest.raises(ValueError):
        carcassonne.from_record({"game": "base"})
    with pytest.raises(ValueError):
        carcassonne.from_record("{ not json")


@pytest.mark.parametrize("name", GAMES)
def test_observation_shape_and_content(name):
    game = carcassonne.Game(name, players=2)
    (size,) = game.observation_tensor_shape()
    c, w, w2 = game.observation_planes_shape()
    assert w == w2 == 2 * game.radius() + 1
    assert size == c * w * w + game.observation_scalars_size()
    assert len(game.plane_names()) == c and len(game.scalar_names()) == game.observation_scalars_size()
    state = game.new_initial_state(seed=4)
    while state.is_chance_node():
        state.apply_action(state.sample_chance_outcome())
    obs = state.observation_tensor(0)
    assert obs.shape == (size,) and obs.dtype == np.float32 and np.isfinite(obs).all()
    planes, scalars = carcassonne.split_observation(game, obs)
    names = game.plane_names()
    assert planes[names.index("tile")].sum() >= 1, "the start board is seen"
    fits = sum(planes[names.index(f"fits_r{r}")].sum() for r in range(4))
    place = [a for a in state.legal_actions() if state.action_to_string(a)[0] != "p"]
    assert fits == len(place), "one placement plane entry per legal placement"
    assert scalars[game.scalar_names().index("to_move_seat+0")] == 1
    assert (state.observation_tensor(1) != obs).any(), "each player sees the position from their seat"


@pytest.mark.parametrize("name", ["base", "hunters", "safari"])
def test_turning_the_board(name):
    game = carcassonne.Game(name)
    assert game.turn_symmetric()
    state = game.new_initial_state(seed=8)
    rng = random.Random(8)
    for _ in range(30):
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome())
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(state.sample_chance_outcome())
    obs = state.observation_tensor()
    t = obs
    for _ in range(4):
        t = state.turn_observation(t, 1)
    np.testing.assert_array_equal(t, obs)
    t1 = state.turn_observation(obs, 1)
    assert (t1 != obs).any()
    np.testing.assert_array_equal(state.turn_observation(t1, 3), obs)
    mask = state.legal_actions_mask().astype(np.float32)
    pol = mask / mask.sum()
    for k in range(4):
        turned = state.turn_policy(pol, k)
        assert abs(turned.sum() - 1) < 1e-5, "no probability lost near the middle of the window"
        assert (turned > 0).sum() == (pol > 0).sum(), "distinct actions stay distinct"
    back = state.turn_policy(state.turn_policy(pol, 1), 3)
    np.testing.assert_allclose(back, pol, atol=1e-7)


def test_amazonas_is_not_turned():
    game = carcassonne.Game("amazonas")
    assert not game.turn_symmetric()
    state = game.new_initial_state(seed=1)
    state.apply_action(state.sample_chance_outcome())
    with pytest.raises(ValueError):
        state.turn_observation(state.observation_tensor(), 1)


@pytest.mark.parametrize("name", GAMES)
def test_view_and_svg(name):
    state = carcassonne.Game(name).new_initial_state(seed=2)
    state.apply_action(state.sample_chance_outcome())
    v = state.view()
    assert isinstance(v, dict) and v["game"] == name and v["lang"] == "en"
    ru = state.view(lang="ru")
    assert ru["lang"] == "ru" and [o.get("notations", o.get("notation")) for o in ru["decision"]["options"]] == [o.get("notations", o.get("notation")) for o in v["decision"]["options"]]
    with pytest.raises(ValueError):
        state.view(lang="de")
    xx = state.view(lang="xx")  # the pseudo-locale: every word altered (docs/i18n.md)
    assert xx["lang"] == "xx" and all(o["text"].startswith("[") for o in xx["decision"]["options"])
    svg = state.render_svg()
    assert svg.startswith("<svg") or svg.startswith("<?xml")


def test_every_decision_kind_is_an_action():
    """Off-turn hand-ins (Safari), the shaman (Hunters), the double tile (Amazonas): each game's
    own decisions are actions in its own blocks, and are met in random games."""
    want = {"amazonas": {"double"}, "hunters": {"shaman_none", "shaman_return"}, "safari": {"hand_in", "jeep", "found"}}
    for name, blocks in want.items():
        game = carcassonne.Game(name)
        spans = [(b["name"], b["offset"], b["offset"] + b["size"]) for b in game.action_blocks()]
        met = set()
        for seed in range(150):
            state = game.new_initial_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(state.sample_chance_outcome())
                    continue
                a = rng.choice(state.legal_actions())
                block = next(n for n, lo, hi in spans if lo <= a < hi)
                met.add(block)
                state.apply_action(a)
            if blocks <= met:
                break
        assert blocks <= met, (name, met)


@pytest.mark.parametrize("name", GAMES)
def test_mcts_from_python(name):
    game = carcassonne.Game(name)
    state = game.new_initial_state(seed=6)
    while state.is_chance_node():
        state.apply_action(state.sample_chance_outcome())
    visits, action = carcassonne.mcts(state, "mcts:playouts=300,threads=1", seed=1)
    assert visits.shape == (game.num_distinct_actions(),)
    legal = state.legal_actions()
    assert action in legal and visits[action] == visits.max() > 0
    assert set(np.flatnonzero(visits)) <= set(legal), "visits only on legal actions"
    assert 250 <= visits.sum() <= 310
    again, a2 = carcassonne.mcts(state, "mcts:playouts=300,threads=1", seed=1)
    assert a2 == action and (again == visits).all(), "seeded: the same search"
    with pytest.raises(ValueError):
        carcassonne.mcts(state, "greedy")
    with pytest.raises(ValueError):
        carcassonne.mcts(game.new_initial_state(), "mcts:playouts=10")


def test_batched_mcts_with_a_python_evaluator():
    game = carcassonne.Game("base")
    states = []
    for seed in range(4):
        st = game.new_initial_state(seed=seed)
        while st.is_chance_node():
            st.apply_action(st.sample_chance_outcome())
        states.append(st)
    calls = []

    def uniform(obs):
        calls.append(obs.shape[0])
        return np.ones((obs.shape[0], game.num_distinct_actions()), np.float32), np.zeros(obs.shape[0], np.float32)

    mcts = carcassonne.BatchedMCTS(game, simulations=32, seed=1)
    visits = mcts.search(states, uniform)
    assert visits.shape == (4, game.num_distinct_actions())
    for st, v in zip(states, visits):
        assert set(np.flatnonzero(v)) <= set(st.legal_actions())
        assert v.sum() == 32 - 1, "every simulation after the root's expansion visits a child"
    assert max(calls) == 4 and len(calls) == 32, "one batch of leaves per simulation round"
    assert mcts.leaves_evaluated == sum(calls)

    # a policy that points at one action makes the search favour it
    target = [st.legal_actions()[-1] for st in states]

    def pointed(obs):
        p = np.full((obs.shape[0], game.num_distinct_actions()), 1e-3, np.float32)
        p[:, target[0]] = 1.0
        return p, np.zeros((obs.shape[0], 2), np.float32)

    v = carcassonne.BatchedMCTS(game, simulations=40, noise=0.0).search(states[:1], pointed)
    assert v[0].argmax() == target[0]

    # root_q: each root action's mean value for the root's player; NaN where not visited. With +0.5
    # for whoever is to move, a placement's first visit reaches its placer's own piece decision
    # (+0.5), its second the opponent's turn (-0.5 for the placer): every backup is +-0.5.
    def half(obs):
        return np.ones((obs.shape[0], game.num_distinct_actions()), np.float32), np.full(obs.shape[0], 0.5, np.float32)

    for sims in (8, 64):
        m = carcassonne.BatchedMCTS(game, simulations=sims, seed=2)
        visits = m.search(states, half)
        q = m.root_q()
        assert q.shape == visits.shape
        assert (np.isnan(q) == (visits == 0)).all()
        seen = visits > 0
        ups = q[seen] * visits[seen] + 0.5 * visits[seen]  # the number of +0.5 backups
        assert np.allclose(ups, np.round(ups), atol=1e-3) and (ups >= 1).all() and (ups <= visits[seen]).all()
        if sims == 8:
            assert (visits == 1).any() and (q[visits == 1] == 0.5).all()
            assert (visits == 2).any() and (q[visits == 2] == 0.0).all()

    with pytest.raises(ValueError):
        carcassonne.BatchedMCTS(game, simulations=4).search(states, lambda obs: (np.ones((1, 3)), np.zeros(1)))
    with pytest.raises(ValueError):
        carcassonne.BatchedMCTS(game, simulations=0)
