"""carcassonne.aec.CarcassonneAEC against PettingZoo's AEC contract, as pettingzoo.test.api_test
checks it (without pettingzoo): agent_iter/last/step, cumulative rewards, step(None) removing
terminated agents, dict keys following the agents, spaces holding every observation, zero-sum
returns, whole games of the four games, seeded determinism, bad inputs refused."""
import random

import numpy as np
import pytest

from carcassonne.aec import CarcassonneAEC

GAMES = ["base", "amazonas", "hunters", "safari"]


def play(env, seed, check=True):
    """One whole game by random legal actions (api_test's play_test): the agents and actions seen."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    accumulated = {a: 0.0 for a in env.agents}
    live, finished, trace = list(env.agents), set(), []
    for agent in env.agent_iter():
        assert agent == env.agent_selection and agent not in finished, "an agent is never done twice"
        obs, reward, termination, truncation, info = env.last()
        if check:
            assert isinstance(info, dict) and info is env.infos[agent]
            assert termination == env.terminations[agent] and type(termination) is bool and truncation is False
            assert obs in env.observation_space(agent) and obs["observation"].dtype == np.float32
            np.testing.assert_array_equal(info["action_mask"], obs["action_mask"])
            assert reward == accumulated[agent], "last() gives the rewards since the agent's last step"
            if not termination:  # only the agent to decide has legal actions
                assert env.agent_selection == env.possible_agents[env.game_state.current_player()]
                for other in env.agents:
                    if other != agent:
                        assert not env.observe(other)["action_mask"].any()
        action = None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action))
        assert env.step(action) is None
        accumulated[agent] = 0.0
        for a, r in env.rewards.items():
            accumulated[a] += r
        if termination:
            live.remove(agent)
            finished.add(agent)
        assert env.agents == live, "agents leave only by their step(None)"
        for d in (env.rewards, env.terminations, env.truncations, env.infos, env._cumulative_rewards):
            assert set(d) == set(env.agents)
        assert env.num_agents == len(env.agents)
    assert finished == set(env.possible_agents) and env.agents == []
    return trace


@pytest.mark.parametrize("name", GAMES)
def test_whole_games(name):
    players = 3 if name in ("hunters", "safari") else 2
    env = CarcassonneAEC(name, players=players)
    assert env.possible_agents == [f"player_{p}" for p in range(players)]
    assert env.metadata["is_parallelizable"] is False and env.metadata["name"].startswith("carcassonne")
    env.reset(seed=3)
    assert not any(env.terminations.values()) and env.num_agents == env.max_num_agents == players
    assert env.last(observe=False)[0] is None
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent), "the same space object"
        assert env.observe(agent) in env.observation_space(agent)
    # the end as the game ended: every agent's cumulative reward is its return, summing to 0
    returns = {}
    real_step = env.step

    def spy(action):
        real_step(action)
        if env.game_state.is_terminal() and not returns:
            returns.update(env._cumulative_rewards)

    env.step = spy
    play(env, 3)
    assert list(returns.values()) == env.game_state.returns()
    assert abs(sum(returns.values())) < 1e-6 and max(returns.values()) > 0
    # api_test's test_action_flexibility: numpy integers are actions too
    env.reset(seed=4)
    obs = env.observe(env.agent_selection)
    env.step(np.int32(np.flatnonzero(obs["action_mask"])[0]))


def test_safari_off_turn_selection():
    """A hand-in during another player's turn: agent_selection is the scorer who decides."""
    env = CarcassonneAEC("safari", players=2)
    hand_in = next(b for b in env.game.action_blocks() if b["name"] == "hand_in")
    piece = next(b for b in env.game.action_blocks() if b["name"] == "piece")
    off_turn = 0
    for seed in range(3):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for agent in env.agent_iter():
            obs, _, termination, _, _ = env.last()
            if termination:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            last = env.game_state.to_record()["moves"][-1:]
            if any(hand_in["offset"] <= a < hand_in["offset"] + hand_in["size"] for a in legal) and last and last[0].get("partial"):
                off_turn += last[0]["player"] != env.possible_agents.index(agent)
            pieces = [a for a in legal if piece["offset"] <= a < piece["offset"] + piece["size"]]
            env.step(rng.choice(pieces) if pieces and rng.random() < 0.8 else rng.choice(legal))
    assert off_turn > 0


def test_seeded_games_repeat():
    env = CarcassonneAEC("hunters")
    a = play(env, 8, check=False)
    obs8 = env.observe("player_0")["observation"]
    assert play(env, 8, check=False) == a
    np.testing.assert_array_equal(env.observe("player_0")["observation"], obs8)
    env.reset(seed=9)
    other = env.observe("player_0")["observation"]
    env.reset(seed=8)
    assert not np.array_equal(env.observe("player_0")["observation"], other), "another seed deals another game"


def test_bad_inputs():
    env = CarcassonneAEC("base", render_mode="ansi")
    env.reset(seed=1)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    before = env.game_state.to_record_json()
    with pytest.raises(ValueError, match="action"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(ValueError, match="action"):
        env.step(None)
    with pytest.raises(TypeError, match="action"):
        env.step("U 1,0 r90")
    with pytest.raises(ValueError, match="agent"):
        env.observe("player_7")
    with pytest.raises(TypeError, match="agent"):
        env.action_space(0)
    assert env.game_state.to_record_json() == before and env.agent_selection == agent
    assert "base" in env.render() and env.state().shape == (env.game.observation_tensor_size(),)
    with pytest.raises(ValueError, match="render_mode"):
        CarcassonneAEC("base", render_mode="human")
    env.close()
