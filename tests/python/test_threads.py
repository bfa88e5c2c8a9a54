"""Python threads (docs/python.md, "Threads"): a VecEnv or a BatchedMCTS used from several threads
at once takes its calls one at a time (each object has a lock, waited for with the GIL released),
so nothing deadlocks and no search sees another's half-done tree. Each test runs in a child
process with a timeout, its threads joined with timeouts: a deadlock fails instead of hanging."""
import subprocess
import sys
import textwrap

CHILD_TIMEOUT = 600  # seconds for the whole child; its joins give up well before
JOIN_TIMEOUT = 240


def run_child(code):
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                       timeout=CHILD_TIMEOUT)
    assert r.returncode == 0, f"exit {r.returncode} (negative: killed by a signal)\n{r.stdout}\n{r.stderr[-3000:]}"
    return r.stdout


def test_vec_env_stepped_from_two_threads():
    out = run_child(f"""
        import json, threading, numpy as np, carcassonne as c
        env = c.VecEnv("base", 8, seed=3, threads=2, records=True)
        env.reset()
        errors, steps = [], [0, 0]
        def work(k):
            try:
                for _ in range(400):
                    a = env.sample_actions()
                    try:
                        env.step(a)
                        steps[k] += 1
                    except ValueError as e:
                        # the other thread stepped between this one's sample and step: refused whole
                        assert "not legal" in str(e), e
                    env.truncate([k])
                    env.final_scores()
                    env.episodes
            except BaseException as e:
                errors.append(repr(e))
        threads = [threading.Thread(target=work, args=(k,), daemon=True) for k in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join({JOIN_TIMEOUT})
        assert not any(t.is_alive() for t in threads), "deadlock: a thread is still inside the VecEnv"
        assert not errors, errors
        assert sum(steps) > 100, steps
        # the env is whole: it goes on in one thread, and every game it finished replays to its scores
        for _ in range(3000):
            obs, mask, rew, done, to_play = env.step(env.sample_actions())
            assert all(mask[i].sum() >= 1 for i in range(8))
        records = env.take_records()
        assert records
        for text in records:
            st = c.from_record(text)
            assert st.is_terminal() and st.scores() == [float(x) for x in json.loads(text)["final_scores"]]
        print("ok", steps, len(records))
    """)
    assert "ok" in out


def test_batched_mcts_shared_by_three_threads():
    out = run_child(f"""
        import threading, numpy as np, carcassonne as c
        game = c.Game("base")
        A = game.num_distinct_actions()
        def uniform(obs):
            return np.ones((obs.shape[0], A), np.float32), np.zeros(obs.shape[0], np.float32)
        def positions(seed, k):
            out = []
            for i in range(k):
                st = game.new_initial_state(seed * 100 + i)
                rng = np.random.default_rng(seed * 100 + i)
                for _ in range(int(rng.integers(0, 30))):
                    st.apply_action(st.sample_chance_outcome() if st.is_chance_node() else int(rng.choice(st.legal_actions())))
                    if st.is_terminal():
                        break
                while st.is_chance_node():
                    st.apply_action(st.sample_chance_outcome())
                out.append(st)
            return out
        states = [positions(k, 3) for k in range(3)]
        # each thread's visit totals, from a search of its own run alone
        expected = [c.BatchedMCTS(game, simulations=24, seed=1).search(states[k], uniform).sum(1) for k in range(3)]
        mcts = c.BatchedMCTS(game, simulations=24, seed=1)
        errors, done = [], [0, 0, 0]
        def work(k):
            try:
                for _ in range(20):
                    v = mcts.search(states[k], uniform)
                    assert v.shape == (3, A)
                    assert (v.sum(1) == expected[k]).all(), (v.sum(1), expected[k])
                    q = mcts.root_q()
                    assert q.shape[1] == A
                    done[k] += 1
            except BaseException as e:
                errors.append(repr(e))
        threads = [threading.Thread(target=work, args=(k,), daemon=True) for k in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join({JOIN_TIMEOUT})
        assert not any(t.is_alive() for t in threads), "deadlock: a thread is still inside the search"
        assert not errors, errors
        assert done == [20, 20, 20], done
        print("ok", mcts.leaves_evaluated)
    """)
    assert "ok" in out


def test_a_search_called_from_its_own_evaluator_is_refused():
    out = run_child("""
        import numpy as np, carcassonne as c
        game = c.Game("base")
        st = game.new_initial_state(1)
        while st.is_chance_node():
            st.apply_action(st.sample_chance_outcome())
        mcts = c.BatchedMCTS(game, simulations=4)
        def evil(obs):
            mcts.search([st], evil)  # the same search again, from inside its own call
            return np.ones((obs.shape[0], game.num_distinct_actions()), np.float32), np.zeros(obs.shape[0], np.float32)
        try:
            mcts.search([st], evil)
        except RuntimeError as e:
            assert "its own" in str(e), e
            print("refused:", e)
        # and the search still works afterwards
        v = mcts.search([st], lambda o: (np.ones((o.shape[0], game.num_distinct_actions()), np.float32), np.zeros(o.shape[0], np.float32)))
        assert v.shape == (1, game.num_distinct_actions()) and v.sum() > 0
        print("ok")
    """)
    assert "refused:" in out and "ok" in out
