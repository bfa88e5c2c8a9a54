"""Bad inputs raise ValueError/TypeError naming what is wrong; none kills the interpreter. Each case
runs in a child process, so a crash (a signal) fails the case instead of the test run."""
import subprocess
import sys
import textwrap

import pytest

PRELUDE = textwrap.dedent("""
    import numpy as np, carcassonne as c
    def uniform(obs):
        return np.ones((obs.shape[0], game.num_distinct_actions()), np.float32), np.zeros(obs.shape[0], np.float32)
    game = c.Game("base")
    st = game.new_initial_state(1)
    while st.is_chance_node():
        st.apply_action(st.chance_outcomes()[0][0])
""")

CASES = {
    # BatchedMCTS: states of another game or configuration, evaluator outputs out of range
    "mcts_other_radius": 'c.BatchedMCTS(game, simulations=8).search([c.Game("base", radius=5).new_initial_state(1)], uniform)',
    "mcts_other_players": 'c.BatchedMCTS(game, simulations=8).search([c.Game("base", players=3).new_initial_state(1)], uniform)',
    "mcts_other_game": 'c.BatchedMCTS(game, simulations=8).search([c.Game("hunters").new_initial_state(1)], uniform)',
    "mcts_none_state": 'c.BatchedMCTS(game, simulations=8).search([None], uniform)',
    "mcts_nan_prior": 'c.BatchedMCTS(game, simulations=8).search([st], lambda o: (np.full((o.shape[0], game.num_distinct_actions()), np.nan, np.float32), np.zeros(o.shape[0], np.float32)))',
    "mcts_negative_prior": 'c.BatchedMCTS(game, simulations=8).search([st], lambda o: (-np.ones((o.shape[0], game.num_distinct_actions()), np.float32), np.zeros(o.shape[0], np.float32)))',
    "mcts_huge_value": 'c.BatchedMCTS(game, simulations=8).search([st], lambda o: (np.ones((o.shape[0], game.num_distinct_actions()), np.float32), np.full(o.shape[0], 1e30, np.float32)))',
    "mcts_inf_value": 'c.BatchedMCTS(game, simulations=8).search([st], lambda o: (np.ones((o.shape[0], game.num_distinct_actions()), np.float32), np.full(o.shape[0], np.inf, np.float32)))',
    # VecEnv.step: ids are integers as they are, never cast
    "vec_float_actions": 'env = c.VecEnv(game, 2, seed=1); _, m, _ = env.reset(); env.step(env.sample_actions().astype(np.float64) + 0.7)',
    "vec_int64_wraps": 'env = c.VecEnv(game, 2, seed=1); env.reset(); env.step(env.sample_actions().astype(np.int64) + 2**32)',
    "vec_bool_actions": 'env = c.VecEnv(game, 2, seed=1); env.reset(); env.step(np.array([True, False]))',
    "vec_wrong_shape": 'env = c.VecEnv(game, 2, seed=1); env.reset(); env.step(np.zeros((2, 1), np.int32))',
    # a seat that the game does not have
    "observation_seat_minus_one": 'st.observation_tensor(-1)',
    "observation_seat_two": 'st.observation_tensor(2)',
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_input_raises_and_never_crashes(name):
    code = PRELUDE + textwrap.dedent(f"""
        try:
            {CASES[name]}
        except (ValueError, TypeError) as e:
            print("raised:", type(e).__name__, e)
            raise SystemExit(0)
        raise SystemExit("accepted")
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"{name}: exit {r.returncode} (negative: killed by a signal)\n{r.stdout}\n{r.stderr[-2000:]}"
    assert "raised:" in r.stdout
