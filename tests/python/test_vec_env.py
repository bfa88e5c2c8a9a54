"""carcassonne.VecEnv: whole arrays in and out, chance inside, automatic resets, records that the
engine replays to the same scores, determinism whatever the thread count, bad actions refused."""
import json

import numpy as np
import pytest

import carcassonne


def run(env, steps):
    out = []
    for _ in range(steps):
        a = env.sample_actions()
        obs, mask, rew, done, to_play = env.step(a)
        out.append((a.copy(), rew.copy(), done.copy(), to_play.copy(), mask.sum(1).copy()))
    return out


@pytest.mark.parametrize("name", carcassonne.games())
def test_games_finish_and_records_replay(name):
    game = carcassonne.Game(name, players=2)
    env = carcassonne.VecEnv(game, 6, seed=3, threads=2, records=True)
    obs, mask, to_play = env.reset()
    assert obs.shape == (6, game.observation_tensor_size()) and obs.dtype == np.float32
    assert mask.shape == (6, game.num_distinct_actions()) and mask.dtype == np.uint8
    assert (mask.sum(1) >= 1).all() and (to_play == 0).all()
    finished = []
    for _ in range(3000):
        a = env.sample_actions()
        assert all(mask[i, a[i]] == 1 for i in range(6)), "sampled actions are legal"
        obs, mask, rew, done, to_play = env.step(a)
        assert rew.shape == (6, 2)
        for i in np.flatnonzero(done):
            scores = env.final_scores()[i].copy()
            assert abs(rew[i].sum()) < 1e-6, "zero-sum"
            assert rew[i][np.argmax(scores)] == rew[i].max(), "the top scorer gets the most"
            finished.append(scores)
        assert (rew[~done] == 0).all()
        if len(finished) >= 8:
            break
    records = env.take_records()
    assert len(records) == len(finished) >= 8
    for text, scores in zip(records, finished):
        rec = json.loads(text)
        assert rec["game"] == name and rec["status"] == "finished"
        state = carcassonne.from_record(text)
        assert state.is_terminal()
        assert state.scores() == list(scores)
    assert env.take_records() == []


def test_deterministic_whatever_the_threads():
    a = carcassonne.VecEnv("hunters", 5, seed=11, threads=1, observations=False)
    b = carcassonne.VecEnv("hunters", 5, seed=11, threads=3, observations=False)
    a.reset()
    b.reset()
    for x, y in zip(run(a, 400), run(b, 400)):
        for u, v in zip(x, y):
            np.testing.assert_array_equal(u, v)
    c = carcassonne.VecEnv("hunters", 5, seed=12, threads=1, observations=False)
    c.reset()
    assert any((x[0] != y[0]).any() for x, y in zip(run(c, 50), run(a, 50)))


def test_observations_match_the_state_api():
    game = carcassonne.Game("base")
    env = carcassonne.VecEnv(game, 2, seed=5)
    obs, mask, to_play = env.reset()
    # a fresh game after its first draw: the same position as a State given that draw
    state = game.new_initial_state()
    planes, _ = carcassonne.split_observation(game, obs[0])
    names = game.plane_names()
    assert planes[names.index("tile")].sum() == 1
    fits = sum(planes[names.index(f"fits_r{r}")].sum() for r in range(4))
    assert fits == mask[0].sum() - 0, "one placement entry per legal placement at the first decision"
    assert state.is_chance_node()


def test_bad_actions_are_refused_and_nothing_moves():
    env = carcassonne.VecEnv("base", 3, seed=1, observations=False)
    _, mask, _ = env.reset()
    before = mask.copy()
    a = env.sample_actions()
    bad = a.copy()
    bad[1] = int(np.flatnonzero(mask[1] == 0)[0])
    with pytest.raises(ValueError, match="env 1"):
        env.step(bad)
    with pytest.raises(ValueError):
        env.step(a[:2])
    with pytest.raises(ValueError):
        env.step(np.array([-1, 0, 0], dtype=np.int32))
    np.testing.assert_array_equal(mask, before)
    env.step(a)
    with pytest.raises(ValueError):
        carcassonne.VecEnv("base", 0)
    with pytest.raises(ValueError):
        carcassonne.VecEnv("base", 2, threads=0)
    with pytest.raises(ValueError):
        carcassonne.VecEnv(carcassonne.Game("base", players=3), 2, players=2)


@pytest.mark.parametrize("name", ["base", "safari"])
def test_observations_are_the_states_all_game_long(name):
    """VecEnv writes observations into reused buffers (clearing only what it wrote): at the start
    of every turn they equal State.observation_tensor of the same position, rebuilt by the engine
    from the game's record cut after the turns before."""
    game = carcassonne.Game(name)
    env = carcassonne.VecEnv(game, 1, seed=4, records=True)
    obs, mask, to_play = env.reset()
    place = next(b for b in game.action_blocks() if b["name"] == "place")
    at_turn = []
    while True:
        if mask[0, place["offset"]:place["offset"] + place["size"]].any():
            at_turn.append((obs[0].copy(), int(to_play[0])))
        obs, mask, _, done, to_play = env.step(env.sample_actions())
        if done[0]:
            break
    rec = json.loads(env.take_records()[0])
    assert len(at_turn) == len(rec["moves"])
    for t in range(0, len(at_turn), 5):
        cut = dict(rec, moves=rec["moves"][:t])
        for k in ("final_scores", "events", "status"):
            cut.pop(k, None)
        state = carcassonne.from_record(cut)
        want, player = at_turn[t]
        np.testing.assert_array_equal(state.observation_tensor(player), want, err_msg=f"turn {t}")


@pytest.mark.parametrize("name", carcassonne.games())
def test_the_deal_does_not_depend_on_sampling(name):
    """Same seed, same actions: the same games, however often sample_actions was called in between
    (it draws from generators of its own), and sample_actions(seed=...) repeats its draws."""
    game = carcassonne.Game(name, players=2)
    plain = carcassonne.VecEnv(game, 4, seed=11)
    busy = carcassonne.VecEnv(game, 4, seed=11)
    _, mask_a, _ = plain.reset()
    _, mask_b, _ = busy.reset()
    rng = np.random.default_rng(5)
    for step in range(60):
        assert (mask_a == mask_b).all(), f"step {step}: the games differ"
        for _ in range(step % 3):
            busy.sample_actions()  # draws that must not touch the deal
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask_a], dtype=np.int32)
        _, mask_a, _, done_a, _ = plain.step(actions)
        _, mask_b, _, done_b, _ = busy.step(actions)
        assert (done_a == done_b).all()
    first = plain.sample_actions(seed=7).copy()
    plain.sample_actions()
    assert (plain.sample_actions(seed=7) == first).all(), "sample_actions(seed=...) repeats its draws"


def test_reset_with_a_seed_starts_as_a_new_env_of_that_seed():
    game = carcassonne.Game("safari", players=2)
    used = carcassonne.VecEnv(game, 3, seed=3, observations=False)
    used.reset()
    for _ in range(20):
        used.step(used.sample_actions())
    fresh = carcassonne.VecEnv(game, 3, seed=9, observations=False)
    _, m_used, _ = used.reset(seed=9)
    _, m_fresh, _ = fresh.reset()
    for step in range(40):
        assert (m_used == m_fresh).all(), f"step {step}"
        a_used, a_fresh = used.sample_actions(), fresh.sample_actions()
        assert (a_used == a_fresh).all(), f"step {step}: the sampling did not restart with the seed"
        _, m_used, _, _, _ = used.step(a_used)
        _, m_fresh, _, _, _ = fresh.step(a_fresh)
