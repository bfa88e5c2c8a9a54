"""A PettingZoo AEC environment over the engine (docs/python.md, "Gymnasium and PettingZoo").

PettingZoo's AECEnv API without importing pettingzoo: agents "player_0", ... act one at a time;
agent_selection is whoever decides now (off turn too: Safari's token hand-ins belong to whichever
player scores); chance is resolved inside from the state's seeded generator.

    env = CarcassonneAEC("hunters", players=3)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
"""
import numpy as np

from .gym import action_arg, advance_chance, make_game, observation_space, _options_arg, _seed_arg
from .spaces import Discrete


class CarcassonneAEC:
    """Agent Environment Cycle game of carcassonne (pettingzoo.AECEnv's API).

    Rewards are 0 until the end; the step that ends the game gives every agent its return
    (zero-sum), all agents are then terminated and each is removed by its step(None). Truncation
    never happens (a game always ends). reset(seed=s) plays the engine's game of seed s.
    """

    metadata = {"name": "carcassonne_v0", "is_parallelizable": False, "render_modes": ["ansi", "svg"], "render_fps": 1}

    def __init__(self, game="base", players=2, options=None, radius=None, render_mode=None):
        self.game = make_game(game, players, options, radius)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: {render_mode!r} is not one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.metadata = dict(self.metadata, name=f"carcassonne_{self.game.name}_v0")
        self.possible_agents = [f"player_{p}" for p in range(self.game.num_players())]
        # one space object per agent, the same at every call (PettingZoo's api_test checks `is`)
        self.observation_spaces = {a: observation_space(self.game) for a in self.possible_agents}
        self.action_spaces = {a: Discrete(self.game.num_distinct_actions()) for a in self.possible_agents}
        self.agents = []
        self.game_state = None
        self._np_random = None
        self._skip_agent_selection = None

    @property
    def num_agents(self):
        return len(self.agents)

    @property
    def max_num_agents(self):
        return len(self.possible_agents)

    @property
    def unwrapped(self):
        return self

    def _seat(self, agent, name="agent"):
        if not isinstance(agent, str):
            raise TypeError(f"{name}: expected an agent name such as 'player_0', got {type(agent).__name__}")
        if agent not in self.possible_agents:
            raise ValueError(f"{name}: {agent!r} is not one of {self.possible_agents}")
        return self.possible_agents.index(agent)

    def observation_space(self, agent):
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent):
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def reset(self, seed=None, options=None):
        """A new game: the engine's game of `seed`; without one, drawn from the last seed's generator."""
        seed = _seed_arg(seed)
        _options_arg(options)
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        elif self._np_random is None:
            self._np_random = np.random.default_rng()
        self.game_seed = seed if seed is not None else int(self._np_random.integers(2**63))
        self.game_state = self.game.new_initial_state(seed=self.game_seed)
        advance_chance(self.game_state)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game_state.current_player()]
        self._update_infos()

    def _mask(self, seat):
        # only the agent deciding now has legal actions (PettingZoo's classic games likewise)
        s = self.game_state
        if s.is_terminal() or s.current_player() != seat:
            return np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        return s.legal_actions_mask().view(np.int8)

    def _update_infos(self):
        self.infos = {a: {"action_mask": self._mask(self.possible_agents.index(a))} for a in self.agents}

    def observe(self, agent):
        """{"observation": float32 from the agent's seat, "action_mask": int8, zeros off its turn}."""
        seat = self._seat(agent)
        if self.game_state is None:
            raise RuntimeError("observe: call reset() first")
        return {"observation": self.game_state.observation_tensor(seat), "action_mask": self._mask(seat)}

    def last(self, observe=True):
        """(observation, cumulative reward, termination, truncation, info) of agent_selection."""
        agent = self.agent_selection
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def agent_iter(self, max_iter=2**63):
        """agent_selection, again and again, until no agent is left or max_iter were given."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action):
        """agent_selection's action; None for a terminated agent, which is then removed."""
        if self.game_state is None or not self.agents:
            raise RuntimeError("step: no agent left: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        if action is None:
            raise ValueError(f"action: None is only for a terminated agent; {agent} is to decide")
        a = action_arg(action, self.game.num_distinct_actions())
        if a not in self.game_state.legal_actions():
            raise ValueError(f"action: {a} is not legal for {agent} here (infos[agent]['action_mask'] has the legal ones)")
        self._cumulative_rewards[agent] = 0.0  # last() reports what came since the agent's last step
        self.game_state.apply_action(a)
        advance_chance(self.game_state)
        if self.game_state.is_terminal():
            for a_, r in zip(self.possible_agents, self.game_state.returns()):
                self.rewards[a_] = float(r)
                self.terminations[a_] = True
            # the first agent to take its last() is the one that would have moved next
            self.agent_selection = self.possible_agents[(self.possible_agents.index(agent) + 1) % len(self.agents)]
        else:
            self.rewards = {a_: 0.0 for a_ in self.agents}
            self.agent_selection = self.possible_agents[self.game_state.current_player()]
        for a_ in self.agents:
            self._cumulative_rewards[a_] += self.rewards[a_]
        self._update_infos()

    def _was_dead_step(self, action):
        """As PettingZoo's AECEnv._was_dead_step: removes the terminated agent_selection."""
        if action is not None:
            raise ValueError("action: a terminated agent's only action is None")
        agent = self.agent_selection
        for d in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            del d[agent]
        self.agents.remove(agent)
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        if dead:
            if self._skip_agent_selection is None:
                self._skip_agent_selection = agent
            self.agent_selection = dead[0]
        else:
            if self._skip_agent_selection is not None:
                self.agent_selection = self._skip_agent_selection
            self._skip_agent_selection = None
        self.rewards = {a: 0.0 for a in self.agents}

    def state(self):
        """PettingZoo's global state: the observation from seat 0 (nothing is hidden but the draws to come)."""
        if self.game_state is None:
            raise RuntimeError("state: call reset() first")
        return self.game_state.observation_tensor(0)

    def render(self):
        """"ansi": a line of text (the game, turn, phase and scores); "svg": the board; None: None."""
        if self.game_state is None or self.render_mode is None:
            return None
        return str(self.game_state) if self.render_mode == "ansi" else self.game_state.render_svg()

    def close(self):
        pass

    def __str__(self):
        return self.metadata["name"]
