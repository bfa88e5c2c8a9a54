"""Gymnasium-style environments over the engine (docs/python.md, "Gymnasium and PettingZoo").

- CarcassonneEnv: one seat played by the agent, the others by engine bots (gymnasium.Env's API).
- CarcassonneVectorEnv: many self-play games over carcassonne.VecEnv (gymnasium.vector.VectorEnv's
  API), one action per game for whichever seat is to play.

Neither imports gymnasium: the spaces are carcassonne.spaces', with Gymnasium's shapes and
semantics. Observations are dicts {"observation": float32 [size], "action_mask": int8 [A]} (int8:
the dtype Gymnasium's Discrete.sample(mask=...) requires).

    env = CarcassonneEnv("base", opponents="greedy")
    obs, info = env.reset(seed=1)
    done = False
    while not done:
        action = env.action_space.sample(mask=obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
"""
import numpy as np

import carcassonne

from .spaces import Box, Dict, Discrete, MultiBinary, MultiDiscrete

# Observations are flags and counts (docs/python.md, "The observation"): never negative, and held
# by the engine in integers of 16 bits at most (the turn: u16; scores: i16; the rest u8 counts).
OBSERVATION_HIGH = 65535.0

_VEC_AUTORESET = "autoreset" in (carcassonne.VecEnv.__init__.__doc__ or "")  # a module built with it


def _seed_arg(seed, name="seed"):
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"{name}: expected a non-negative int or None, got {type(seed).__name__}")
    if seed < 0 or seed >= 2**64:
        raise ValueError(f"{name}: {seed} is not in 0..2**64-1")
    return int(seed)


def _options_arg(options):
    # No reset option is defined: a key given is a mistake worth hearing about (reset_mask included:
    # the engine's VecEnv restarts all its games or none).
    if options is not None and (not isinstance(options, dict) or options):
        raise ValueError(f"options: no reset option is supported, got {options!r}")


def _steps_arg(max_episode_steps):
    if max_episode_steps is None:
        return None
    if isinstance(max_episode_steps, bool) or not isinstance(max_episode_steps, (int, np.integer)):
        raise TypeError(f"max_episode_steps: expected a positive int or None, got {type(max_episode_steps).__name__}")
    if max_episode_steps < 1:
        raise ValueError(f"max_episode_steps: {max_episode_steps} is not positive")
    return int(max_episode_steps)


def make_game(game="base", players=2, options=None, radius=None):
    """A carcassonne.Game from a name (or the Game itself, whose own players/options then hold)."""
    if isinstance(game, carcassonne.Game):
        return game
    if not isinstance(game, str):
        raise TypeError(f"game: expected a name of carcassonne.games() or a Game, got {type(game).__name__}")
    if game not in carcassonne.games():
        raise ValueError(f"game: {game!r} is not one of {carcassonne.games()}")
    extra = {} if radius is None else {"radius": radius}
    return carcassonne.Game(game, players=players, options=options or {}, **extra)


def observation_space(game, mask_only=False):
    """Dict(observation: Box(0, 65535, [size], float32), action_mask: MultiBinary(A)) of a game."""
    mask = MultiBinary(game.num_distinct_actions())
    if mask_only:
        return Dict({"action_mask": mask})
    return Dict({"observation": Box(0.0, OBSERVATION_HIGH, (game.observation_tensor_size(),), np.float32),
                 "action_mask": mask})


def action_arg(action, n, name="action"):
    """An action as a Python int: an int or a numpy integer (0-d arrays too); bools are refused."""
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        action = action.item()
    elif isinstance(action, np.integer):
        action = int(action)
    if isinstance(action, bool) or not isinstance(action, int):
        raise TypeError(f"{name}: expected an integer action, got {type(action).__name__}")
    if not 0 <= action < n:
        raise ValueError(f"{name}: {action} is outside the action space 0..{n - 1}")
    return action


def advance_chance(state):
    """Applies the state's own seeded chance outcomes until a decision or the end."""
    while state.is_chance_node():
        state.apply_action(state.sample_chance_outcome())


def bot_seed(game_seed, k):
    """A bot's seed at the game's k-th decision: as carcassonne.selfplay seeds its bots."""
    return (game_seed * 1000003 + k) % 2**64


class CarcassonneEnv:
    """One seat against engine bots, with gymnasium.Env's API (reset, step, spaces, render).

    `seat` is the agent's; every other seat is played by `opponents` (one bot spec for all, or a
    list with one per other seat, in seat order: random, greedy, mcts:..., easy/normal/hard).
    Every decision of the agent's seat goes to the agent, whoever's turn it is (Safari's token
    hand-ins are decided off turn by any seat that scores); chance comes from the state's own
    generator. `reset(seed=s)` plays the engine's game of seed s (as game.new_initial_state(seed=s)),
    the bots seeded from s and the decision number, so a seeded episode is fully reproducible.

    The reward is 0 until the end, then the agent's return (state.returns()[seat]: +1/-1 for two
    players, 0 for a tie). An illegal action raises ValueError and changes nothing.
    `max_episode_steps`: the agent's decisions after which the episode is truncated.
    render_mode: None, "ansi" (a line of text) or "svg" (the board as SVG text).
    """

    metadata = {"render_modes": ["ansi", "svg"], "render_fps": 1}

    def __init__(self, game="base", players=2, seat=0, opponents="greedy", options=None, radius=None,
                 render_mode=None, max_episode_steps=None):
        self.game = make_game(game, players, options, radius)
        n = self.game.num_players()
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)):
            raise TypeError(f"seat: expected an int, got {type(seat).__name__}")
        if not 0 <= seat < n:
            raise ValueError(f"seat: {seat} is not a seat of a {n}-player game")
        self.seat = int(seat)
        others = [p for p in range(n) if p != self.seat]
        if isinstance(opponents, str):
            opponents = [opponents] * len(others)
        if not isinstance(opponents, (list, tuple)) or not all(isinstance(o, str) for o in opponents):
            raise TypeError("opponents: expected a bot spec or a list of them")
        if len(opponents) != len(others):
            raise ValueError(f"opponents: expected {len(others)} bot specs (one per other seat), got {len(opponents)}")
        self.opponents = dict(zip(others, opponents))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: {render_mode!r} is not one of {self.metadata['render_modes']} or None")
        self.render_mode = render_mode
        self.max_episode_steps = _steps_arg(max_episode_steps)
        self.observation_space = observation_space(self.game)
        self.action_space = Discrete(self.game.num_distinct_actions())
        self.spec = None
        self.state = None
        self._np_random = None
        self._game_seed = None
        self._decisions = 0  # decisions of all seats so far: the bots' seeds
        self._steps = 0      # the agent's decisions this episode
        self._over = True

    @property
    def np_random(self):
        if self._np_random is None:
            self._np_random = np.random.default_rng()
        return self._np_random

    @property
    def unwrapped(self):
        return self

    def reset(self, *, seed=None, options=None):
        """Starts a game: (obs, info). With seed, the engine's game of that seed; without, the
        next game drawn from the generator the last seed started (OS entropy at first)."""
        seed = _seed_arg(seed)
        _options_arg(options)
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
            self._game_seed = seed
        else:
            self._game_seed = int(self.np_random.integers(2**63))
        self.state = self.game.new_initial_state(seed=self._game_seed)
        self._decisions = self._steps = 0
        self._over = False
        self._play_others()
        return self._observation(), self._info()

    def step(self, action):
        """The agent's decision: (obs, reward, terminated, truncated, info)."""
        if self.state is None or self._over:
            raise RuntimeError("step: the episode is over or not started: call reset()")
        a = action_arg(action, self.action_space.n)
        if a not in self.state.legal_actions():
            raise ValueError(f"action: {a} is not legal here (info['action_mask'] has the legal ones)")
        self.state.apply_action(a)
        self._decisions += 1
        self._steps += 1
        self._play_others()
        terminated = self.state.is_terminal()
        truncated = not terminated and self.max_episode_steps is not None and self._steps >= self.max_episode_steps
        self._over = terminated or truncated
        reward = float(self.state.returns()[self.seat]) if terminated else 0.0
        return self._observation(), reward, terminated, truncated, self._info()

    def _play_others(self):
        """Chance and the bots' decisions, until the agent's seat decides or the game ends."""
        s = self.state
        while True:
            advance_chance(s)
            if s.is_terminal() or s.current_player() == self.seat:
                return
            spec = self.opponents[s.current_player()]
            try:
                a = carcassonne.bot_action(s, spec, bot_seed(self._game_seed, self._decisions))
            except carcassonne.CarcassonneError as e:
                raise ValueError(f"opponents: bot {spec!r}: {e}") from e
            s.apply_action(a)
            self._decisions += 1

    def _mask(self):
        if self.state.is_terminal():
            return np.zeros(self.action_space.n, dtype=np.int8)
        return self.state.legal_actions_mask().view(np.int8)

    def _observation(self):
        return {"observation": self.state.observation_tensor(self.seat), "action_mask": self._mask()}

    def _info(self):
        s = self.state
        return {"action_mask": self._mask(), "legal_actions": [] if s.is_terminal() else s.legal_actions(),
                "to_play": s.current_player(), "scores": s.scores(), "game_seed": self._game_seed}

    def render(self):
        """"ansi": a line of text (the game, turn, phase and scores); "svg": the board; None: None."""
        if self.state is None or self.render_mode is None:
            return None
        return str(self.state) if self.render_mode == "ansi" else self.state.render_svg()

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()


class CarcassonneVectorEnv:
    """num_envs self-play games over carcassonne.VecEnv, with gymnasium.vector.VectorEnv's API.

    Each step takes one action per game, for whichever seat is to play there (infos["to_play"]);
    observations are from that seat's view. rewards[i] is the return of the seat that made game i's
    move at this step (0 until a game ends); infos["returns"] has every seat's [num_envs, players].

    autoreset_mode "next_step" (Gymnasium's default): the step that ends a game returns its final
    observation (from the seat that moved last), a mask of zeros, terminated True and to_play
    carcassonne.TERMINAL; the next step ignores that game's action (any integer in range, e.g. 0)
    and returns a new game's first observation with reward 0. "same_step": the new game's first
    observation comes at once, with the ended game's reward and terminated flag (no final
    observation). Gymnasium's AutoresetMode members are accepted too.

    max_episode_steps: a game's decisions after which it is truncated (truncated True) and then
    restarted like a terminated game (VecEnv.truncate).

    Game i's k-th episode is the engine's game of seed `seed + i + k * num_envs`.
    """

    def __init__(self, game="base", num_envs=8, players=2, seed=0, threads=1, observations=True,
                 autoreset_mode="next_step", options=None, radius=None, max_episode_steps=None, copy=True):
        self.game = make_game(game, players, options, radius)
        mode = getattr(autoreset_mode, "value", autoreset_mode)  # gymnasium.vector.AutoresetMode's values
        mode = {"next_step": "next_step", "NextStep": "next_step", "same_step": "same_step", "SameStep": "same_step"}.get(mode)
        if mode is None:
            raise ValueError(f"autoreset_mode: {autoreset_mode!r} is not next_step or same_step")
        if mode == "next_step" and not _VEC_AUTORESET:
            raise RuntimeError("autoreset_mode: next_step needs a carcassonne module whose VecEnv takes autoreset= "
                               "(rebuild it), or use same_step")
        self.autoreset_mode = mode
        self.metadata = {"autoreset_mode": autoreset_mode, "render_modes": []}
        self.render_mode = None
        self.spec = None
        self._seed = _seed_arg(seed)
        self.max_episode_steps = _steps_arg(max_episode_steps)
        self.copy = bool(copy)
        kw = {"autoreset": mode} if _VEC_AUTORESET else {}
        self._env = carcassonne.VecEnv(self.game, num_envs, seed=self._seed, threads=threads,
                                       observations=observations, **kw)
        self.num_envs = n = self._env.num_envs
        self.observations = bool(observations)
        A = self.game.num_distinct_actions()
        self.single_observation_space = observation_space(self.game, mask_only=not observations)
        batched = {"action_mask": Box(0, 1, (n, A), np.int8)}  # Gymnasium's batch of a MultiBinary
        if observations:
            batched = {"observation": Box(0.0, OBSERVATION_HIGH, (n, self.game.observation_tensor_size()), np.float32),
                       **batched}
        self.observation_space = Dict(batched)
        self.single_action_space = Discrete(A)
        self.action_space = MultiDiscrete(np.full(n, A))
        self._rng = np.random.default_rng(self._seed)
        self._reset_once = False
        self.closed = False

    def reset(self, *, seed=None, options=None):
        """Starts every game: (obs, infos). With seed, game i is the engine's game of seed + i; the
        first reset without one uses the constructor's seed, later ones a seed drawn from it."""
        seed = _seed_arg(seed)
        _options_arg(options)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        elif self._reset_once:
            seed = int(self._rng.integers(2**32))
        else:
            seed = self._seed
        self._reset_once = True
        self._base = seed
        obs, mask, to_play = self._env.reset(seed=seed)
        n = self.num_envs
        self._episode = np.zeros(n, dtype=np.int64)  # games started in each slot, minus one
        self._steps = np.zeros(n, dtype=np.int64)
        self._restart = np.zeros(n, dtype=bool)  # the slot's game ended or was cut at the last step
        self._to_play = to_play.copy()
        return self._out(obs, mask), {"to_play": to_play.copy()}

    def step(self, actions):
        """One action per game: (obs, rewards [n], terminations [n], truncations [n], infos)."""
        if not hasattr(self, "_base"):
            raise RuntimeError("step: call reset() first")
        n, A = self.num_envs, self.single_action_space.n
        a = np.asarray(actions)
        if not np.issubdtype(a.dtype, np.integer):
            raise TypeError(f"actions: expected integers, got dtype {a.dtype}")
        if a.shape != (n,):
            raise ValueError(f"actions: expected shape ({n},), got {a.shape}")
        a = a.astype(np.int64)
        ignored = self._restart.copy()  # a game shown over (or cut) restarts: its action is unused
        bad = np.flatnonzero(~ignored & ((a < 0) | (a >= A)))
        if bad.size:
            raise ValueError(f"actions[{bad[0]}]: {a[bad[0]]} is outside the action space 0..{A - 1}")
        obs, mask, rew, done, to_play = self._env.step(np.where(ignored, 0, a).astype(np.int32))
        mover = self._to_play
        terminated = done.astype(bool)
        returns = rew.copy()
        rewards = np.where(terminated, returns[np.arange(n), np.maximum(mover, 0)], 0.0)
        self._steps = np.where(ignored, 0, self._steps + 1)
        truncated = ~ignored & ~terminated
        if self.max_episode_steps is None:
            truncated[:] = False
        else:
            truncated &= self._steps >= self.max_episode_steps
        same = self.autoreset_mode == "same_step"
        if truncated.any():  # the engine cuts them: at once (same_step) or at the next step
            self._env.truncate([int(i) for i in np.flatnonzero(truncated)])
        to_play = to_play.copy()  # after truncate: a same_step cut shows its new game's seat
        new_game = ignored | (same & (terminated | truncated))
        self._episode += new_game
        self._steps[new_game] = 0
        self._restart = (terminated | truncated) & (not same)
        self._to_play = to_play
        return (self._out(obs, mask), rewards, terminated, truncated,
                {"to_play": to_play, "returns": returns})

    def _out(self, obs, mask):
        # The engine's arrays are its own buffers, overwritten (sparsely) by its next step: copied
        # unless copy=False.
        out = {"action_mask": mask.view(np.int8).copy() if self.copy else mask.view(np.int8)}
        if self.observations:
            out = {"observation": obs.copy() if self.copy else obs, **out}
        return out

    def sample_actions(self):
        """One uniformly random legal action per game (0 where the action is ignored)."""
        return self._env.sample_actions().astype(np.int64)

    def close(self):
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()
