"""What docs/python.md promises of arguments and results, one test each: VecEnv.step takes a list,
numpy's bools are refused where Python's are, seats a game does not have are refused by
legal_actions(p), view's language, text that is not Unicode, full_history's PlayerAction, and how
OpenSpiel's own algorithms reach the games."""
import os
import pickle

import numpy as np
import pytest

import carcassonne

DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")


def decision(name="base", seed=1, players=2):
    st = carcassonne.Game(name, players=players).new_initial_state(seed)
    while st.is_chance_node():
        st.apply_action(st.sample_chance_outcome())
    return st


def test_vec_env_step_takes_a_list_or_tuple_as_an_array():
    a = carcassonne.VecEnv("base", 4, seed=2)
    b = carcassonne.VecEnv("base", 4, seed=2)
    a.reset()
    b.reset()
    for k in range(60):
        acts = a.sample_actions()
        b.sample_actions()
        given = [int(x) for x in acts] if k % 2 else tuple(acts)  # Python ints, or numpy int32 items
        ra = a.step(acts)
        rb = b.step(given)
        for x, y in zip(ra[1:], rb[1:]):
            np.testing.assert_array_equal(x, y)
    acts = [int(x) for x in b.sample_actions()]
    for bad, err in [(acts[:3], ValueError), (acts + [0], ValueError), ([True] * 4, TypeError),
                     ([float(x) for x in acts], TypeError), (acts[:3] + ["1"], TypeError),
                     (acts[:3] + [10**6], ValueError), (acts[:3] + [-1], ValueError), ({0: 1}, TypeError),
                     (acts[:3] + [np.bool_(True)], TypeError)]:
        with pytest.raises(err):
            b.step(bad)
    b.step(acts)  # nothing moved: the same actions are still legal


def test_numpy_bools_are_refused_where_bools_are():
    st = decision()
    before = st.serialize()
    for arg in (True, np.bool_(True), np.True_):
        with pytest.raises(TypeError):
            st.apply_action(arg)
        with pytest.raises(TypeError):
            st.legal_actions(arg)
        with pytest.raises(TypeError):
            st.observation_tensor(arg)
        with pytest.raises(TypeError):
            st.render_svg(arg)
        with pytest.raises(TypeError):
            carcassonne.Game("base").new_initial_state(arg)
    assert st.serialize() == before
    env = carcassonne.VecEnv("base", 3, seed=1)
    env.reset()
    for bad in ([True], [np.bool_(True)], np.array([True]), [1, False]):
        with pytest.raises(TypeError):
            env.truncate(bad)
    with pytest.raises(TypeError):
        env.sample_actions(seed=np.bool_(True))
    with pytest.raises(TypeError):
        carcassonne.VecEnv("base", np.bool_(True))
    with pytest.raises(TypeError):
        carcassonne.BatchedMCTS(carcassonne.Game("base"), simulations=True)
    env.truncate([np.int64(1), 2])  # integers, numpy's included, are taken
    env.truncate(np.array([0], np.int32))


def test_out_of_range_seats_are_refused_by_legal_actions():
    st = decision(players=3)
    cp = st.current_player()
    for p in range(3):
        assert st.legal_actions(p) == (st.legal_actions() if p == cp else [])
        assert st.legal_actions_mask(p).sum() == (len(st.legal_actions()) if p == cp else 0)
    assert st.legal_actions(carcassonne.CHANCE) == [] and st.legal_actions(carcassonne.TERMINAL) == []
    for bad in (3, 7, -2, -3, -5, 2**31 - 1):
        with pytest.raises(ValueError, match="player"):
            st.legal_actions(bad)
        with pytest.raises(ValueError, match="player"):
            st.legal_actions_mask(bad)
    chance = carcassonne.Game("base").new_initial_state(1)
    assert chance.legal_actions(carcassonne.CHANCE) == chance.legal_actions()
    with pytest.raises(ValueError):
        chance.legal_actions(2)


def test_view_takes_a_language_code_in_any_case_and_refuses_bytes():
    st = decision()
    en = st.view("en")
    assert st.view() == en and st.view("EN") == en and st.view("En") == en and st.view("en_GB.UTF-8") == en
    assert st.view("RU") == st.view("ru") != en
    for bad in ("de", "", "english", "\ud800"):
        with pytest.raises(ValueError, match="lang"):
            st.view(bad)
    for bad in (b"en", None, 1, ["en"]):
        with pytest.raises(TypeError, match="lang"):
            st.view(bad)
    text = open(DOCS).read()
    assert "`view(lang=\"en\")`" in text and "in any case" in text and "bytes" in text


def test_text_that_is_not_unicode_raises_value_error():
    game = carcassonne.Game("base")
    st = decision()
    for call in (lambda: carcassonne.from_record("\ud800"), lambda: carcassonne.from_record('{"game": "\ud800"}'),
                 lambda: game.deserialize_state("\ud800"), lambda: st.string_to_action("U 0,1 \udfff")):
        with pytest.raises(ValueError) as e:
            call()
        assert not isinstance(e.value, RuntimeError)
        assert "Unicode" in str(e.value)
    with pytest.raises(ValueError):
        carcassonne.from_record({"game": "\ud800"})  # a dict: JSON escapes it; not a record either
    # serialize() as bytes still loads, as before
    assert game.deserialize_state(st.serialize().encode()).serialize() == st.serialize()


def test_full_history_items_are_player_actions():
    st = decision()
    st.apply_action(st.legal_actions()[0])
    hist = st.full_history()
    assert len(hist) == len(st.history()) >= 2
    for item, action in zip(hist, st.history()):
        assert isinstance(item, carcassonne.PlayerAction)
        assert item.action == action
        assert item.player in (carcassonne.CHANCE, 0, 1)
        p, a = item  # still a (player, action) pair
        assert (p, a) == (item.player, item.action) and item == (p, a)
    assert hist[0].player == carcassonne.CHANCE and hist[1].player == 0
    assert pickle.loads(pickle.dumps(hist)) == hist


def test_docs_say_register_is_the_way_for_openspiel_algorithms():
    text = " ".join(open(DOCS).read().split())
    assert "OpenSpiel's own algorithms" in text
    assert "`carcassonne.openspiel.register()` is the way" in text
    # why: the module's game type answers with its own enums, which OpenSpiel's algorithms compare
    # with pyspiel's; a carcassonne.Game is not a pyspiel.Game
    t = carcassonne.Game("base").get_type()
    assert type(t) is carcassonne.GameType and type(t.reward_model) is carcassonne.GameType.RewardModel
