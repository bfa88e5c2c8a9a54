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
    "observation_seat_str": 'st.observation_tensor("0")',
    "information_state_seat": 'st.information_state_tensor(5)',
    "observation_string_seat": 'st.observation_string(-2)',
    "player_return_seat": 'st.player_return(7)',
    # Game: names, player counts, radii and options it does not have
    "game_unknown": 'c.Game("chess")',
    "game_one_player": 'c.Game("base", players=1)',
    "game_nine_players": 'c.Game("safari", players=9)',
    "game_float_players": 'c.Game("base", players=2.5)',
    "game_radius_small": 'c.Game("base", radius=1)',
    "game_radius_huge": 'c.Game("base", radius=10**6)',
    "game_option_unknown": 'c.Game("base", options={"dragons": "on"})',
    "game_option_value": 'c.Game("base", options={"farmers": "sometimes"})',
    "game_seed_negative": 'game.new_initial_state(seed=-1)',
    "game_seed_huge": 'game.new_initial_state(seed=2**64)',
    "load_game_unknown": 'c.load_game("carcassonne_chess")',
    "load_game_bad_param": 'c.load_game("carcassonne(players=two)")',
    "load_game_syntax": 'c.load_game("carcassonne(players=2")',
    "game_action_to_string": 'game.action_to_string(0, 10**6)',
    # State: actions that are not ids of this node, as Python and numpy values
    "apply_minus_one": 'st.apply_action(-1)',
    "apply_past_space": 'st.apply_action(game.num_distinct_actions())',
    "apply_int64_wraps": 'st.apply_action(np.int64(st.legal_actions()[0] + 2**32))',
    "apply_float": 'st.apply_action(float(st.legal_actions()[0]))',
    "apply_numpy_float": 'st.apply_action(np.float64(st.legal_actions()[0]))',
    "apply_str": 'st.apply_action(str(st.legal_actions()[0]))',
    "apply_chance_at_decision": 'st.apply_action(st.legal_actions()[0]); st.apply_action(10**9)',
    "child_illegal": 'st.child(game.num_distinct_actions() - 1)',
    "action_to_string_out": 'st.action_to_string(-5)',
    "string_to_action_garbage": 'st.string_to_action("fly to the moon")',
    "string_to_action_not_str": 'st.string_to_action(12)',
    "undo_nothing": 'game.new_initial_state(1).undo_action(-1, 0)',
    "undo_wrong_action": 'p, a = st.full_history()[-1]; st.undo_action(p, a + 1)',
    "turn_observation_size": 'st.turn_observation(np.zeros(3, np.float32), 1)',
    "turn_policy_size": 'st.turn_policy(np.zeros(3, np.float32), 1)',
    "turn_action_out": 'st.turn_action(10**7, 1)',
    "turn_action_negative": 'st.turn_action(-1, -3)',
    "view_language": 'st.view("klingon")',
    # records and serialized states of another game, or not records at all
    "from_record_garbage": 'c.from_record("{not json")',
    "from_record_number": 'c.from_record(12)',
    "deserialize_other_game": 'c.Game("hunters").deserialize_state(st.serialize())',
    "deserialize_other_players": 'c.Game("base", players=3).deserialize_state(st.serialize())',
    "unpickle_bad_tuple": 'st.__class__.__new__(st.__class__).__setstate__((1, 2, 3))',
    # bots and searches
    "bot_unknown": 'c.bot_action(st, "genius")',
    "bot_at_chance": 'c.bot_action(game.new_initial_state(1), "greedy")',
    "bot_seed_negative": 'c.bot_action(st, "greedy", -1)',
    "mcts_bad_spec": 'c.mcts(st, "mcts:playouts=-5")',
    "mcts_threads": 'c.mcts(st, "mcts:playouts=10,threads=100000")',
    "mcts_at_chance": 'c.mcts(game.new_initial_state(1))',
    "batched_zero_sims": 'c.BatchedMCTS(game, simulations=0)',
    "batched_nan_cpuct": 'c.BatchedMCTS(game, c_puct=float("nan"))',
    "batched_noise": 'c.BatchedMCTS(game, noise=2.0)',
    "batched_alpha": 'c.BatchedMCTS(game, dirichlet_alpha=-1.0)',
    "batched_no_states": 'c.BatchedMCTS(game, simulations=8).search([], uniform)',
    "batched_not_states": 'c.BatchedMCTS(game, simulations=8).search([1, 2], uniform)',
    "batched_policy_shape": 'c.BatchedMCTS(game, simulations=8).search([st], lambda o: (np.ones((o.shape[0], 3), np.float32), np.zeros(o.shape[0], np.float32)))',
    "batched_value_shape": 'c.BatchedMCTS(game, simulations=8).search([st], lambda o: (np.ones((o.shape[0], game.num_distinct_actions()), np.float32), np.zeros((o.shape[0], 7), np.float32)))',
    "batched_evaluator_not_tuple": 'c.BatchedMCTS(game, simulations=8).search([st], lambda o: None)',
    "batched_policy_strings": 'c.BatchedMCTS(game, simulations=8).search([st], lambda o: (np.full((o.shape[0], game.num_distinct_actions()), "x"), np.zeros(o.shape[0], np.float32)))',
    # VecEnv: sizes, seats and modes it does not have
    "vec_zero_envs": 'c.VecEnv(game, 0)',
    "vec_players_mismatch": 'c.VecEnv(game, 2, players=3)',
    "vec_autoreset": 'c.VecEnv(game, 2, autoreset="sometimes")',
    "vec_threads": 'c.VecEnv(game, 2, threads=0)',
    "vec_truncate_out": 'env = c.VecEnv(game, 2, seed=1); env.reset(); env.truncate([5])',
    "vec_wrong_length": 'env = c.VecEnv(game, 2, seed=1); env.reset(); env.step(np.zeros(3, np.int32))',
    "vec_illegal": 'env = c.VecEnv(game, 2, seed=1); env.reset(); env.step(np.full(2, game.num_distinct_actions() - 1, np.int32))',
    "vec_sample_seed": 'env = c.VecEnv(game, 2, seed=1); env.reset(); env.sample_actions(seed=-1)',
    # self-play: bots and seeds checked before any game
    "selfplay_no_bots": 'from carcassonne import selfplay; selfplay.play_game(game, 1, [])',
    "selfplay_bad_bot": 'from carcassonne import selfplay; selfplay.play_game(game, 1, ["greedy", "genius"])',
    "selfplay_bot_not_str": 'from carcassonne import selfplay; selfplay.play_game(game, 1, [3])',
    "selfplay_seed": 'from carcassonne import selfplay; selfplay.play_game(game, -4, ["greedy"])',
    "selfplay_shard": 'from carcassonne import selfplay; selfplay.shards(range(10), 0)',
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
