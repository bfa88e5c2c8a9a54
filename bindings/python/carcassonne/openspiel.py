"""OpenSpiel's shape, complete (docs/python.md): the game type, games by OpenSpiel-style names, the
string and information-state views, and registration with `pyspiel` when it is importable.

Everything here is a thin layer over the compiled Game and State: the methods below are added to
those classes when the package is imported, so `carcassonne.Game` answers `get_type()` and
`carcassonne.State` answers `observation_string()` without any wrapper object.
"""
import enum
import json
import re

from . import _core


def _short_name(gid, first):
    """OpenSpiel's name of a game: "carcassonne" for the engine's first game (its default, the base
    game), "carcassonne_<id>" for the others."""
    return "carcassonne" if gid == first else "carcassonne_" + gid


def _shipped_names():
    """OpenSpiel's registered names of the engine's games (the test-only games of tests/games/GAMES
    are not registered), from the game list in its order."""
    ids = [g for g in _core.games() if not _core.game_definition(g)["test_only"]]
    return {g: _short_name(g, ids[0]) for g in ids}


# OpenSpiel's registered names of the games, by engine id; the engine's ids are accepted too.
GAME_NAMES = _shipped_names()


def _name_of(gid):
    """A game's OpenSpiel name (a test-only game's too, though it is not registered)."""
    return GAME_NAMES.get(gid) or _short_name(gid, next(iter(GAME_NAMES), None))


class GameType:
    """OpenSpiel's GameType: the same fields and meanings (pyspiel.GameType's enums as Python ones)."""

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

    FIELDS = ("short_name", "long_name", "dynamics", "chance_mode", "information", "utility", "reward_model",
              "max_num_players", "min_num_players", "provides_information_state_string",
              "provides_information_state_tensor", "provides_observation_string", "provides_observation_tensor",
              "parameter_specification", "default_loadable", "provides_factored_observation_string")

    def __init__(self, **fields):
        unknown = set(fields) - set(self.FIELDS)
        if unknown:
            raise TypeError(f"GameType: no field {sorted(unknown)[0]}")
        for f in self.FIELDS:
            setattr(self, f, fields.get(f))

    def _asdict(self):
        return {f: getattr(self, f) for f in self.FIELDS}

    def __eq__(self, other):
        return isinstance(other, GameType) and self._asdict() == other._asdict()

    def __repr__(self):
        return "GameType(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in self.FIELDS) + ")"


def _engine_id(name):
    for gid, short in GAME_NAMES.items():
        if name in (gid, short):
            return gid
    known = ", ".join(sorted(GAME_NAMES.values()) + sorted(GAME_NAMES))
    raise ValueError(f"game: {name!r} is not a game of this module ({known})")


def _game_type(game):
    gid = game.name
    definition = _core.game_definition(gid)  # its title and player range, as the game defines them
    return GameType(
        short_name=_name_of(gid),
        long_name=definition["title"],
        dynamics=GameType.Dynamics.SEQUENTIAL,
        # every tile draw and token draw is a chance node with its outcomes and probabilities
        chance_mode=GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        # nothing is hidden from any seat: hands, supplies and the pile's contents are public, and
        # its order is chance that nobody knows yet
        information=GameType.Information.PERFECT_INFORMATION,
        # the returns of every finished game sum to 0 (utility_sum)
        utility=GameType.Utility.ZERO_SUM,
        # rewards() are 0 until the move that ends the game, then the returns
        reward_model=GameType.RewardModel.TERMINAL,
        max_num_players=definition["max_players"],
        min_num_players=definition["min_players"],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 2, "radius": game.radius(), **dict(game.options)},
        default_loadable=True,
        provides_factored_observation_string=False,
    )


def _parse_value(text):
    text = text.strip()
    if re.fullmatch(r"[+-]?\d+", text):
        return int(text)
    if text in ("true", "True"):
        return True
    if text in ("false", "False"):
        return False
    return text


def parse_game_string(text):
    """'carcassonne_safari(players=3,farmers=off)' -> ('safari', {'players': 3, 'farmers': 'off'})."""
    if not isinstance(text, str):
        raise TypeError(f"game: a name is a str, not {type(text).__name__}")
    m = re.fullmatch(r"\s*([A-Za-z0-9_]+)\s*(?:\((.*)\))?\s*", text)
    if not m:
        raise ValueError(f"game: {text!r} is not NAME or NAME(key=value,...)")
    params = {}
    if m.group(2) and m.group(2).strip():
        for part in m.group(2).split(","):
            if "=" not in part:
                raise ValueError(f"game: parameter {part.strip()!r} of {text!r} is not key=value")
            k, v = part.split("=", 1)
            params[k.strip()] = _parse_value(v)
    return _engine_id(m.group(1)), params


def load_game(name, params=None):
    """A game by OpenSpiel-style name: load_game("carcassonne_safari(players=3)"), load_game("safari",
    {"players": 3}); parameters: players, radius, and the game's rule options (strings)."""
    gid, p = parse_game_string(name)
    if params:
        if not isinstance(params, dict):
            raise TypeError(f"params: a dict, not {type(params).__name__}")
        p.update(params)
    players = p.pop("players", 2)
    radius = p.pop("radius", None)
    if not isinstance(players, int) or isinstance(players, bool):
        raise TypeError(f"players: an int, not {players!r}")
    if radius is not None and (not isinstance(radius, int) or isinstance(radius, bool)):
        raise TypeError(f"radius: an int, not {radius!r}")
    kwargs = {} if radius is None else {"radius": radius}
    return _core.Game(gid, players=players, options={k: str(v) for k, v in p.items()}, **kwargs)


def registered_names():
    """The OpenSpiel names this module loads."""
    return sorted(GAME_NAMES.values())


# ---- the State's views ----

def _seat(state, player):
    if player is None:
        player = state.current_player()
        return player if player >= 0 else 0
    if isinstance(player, bool) or not isinstance(player, int):
        try:
            player = int(player.__index__())
        except AttributeError:
            raise TypeError(f"player: an int, not {type(player).__name__}") from None
    if not 0 <= player < state.get_game().num_players():
        raise ValueError(f"player: {player} is not a seat of this game (0..{state.get_game().num_players() - 1})")
    return player


def observation_string(state, player=None):
    """The position as text, the same for every seat (perfect information): turn, the seat to move
    and what it decides, scores, supplies and hands, the pile, every tile, piece and marker, and the
    game's own panels (the view of docs/view.md, in English)."""
    _seat(state, player)
    v = state.view()
    d = v["decision"]
    if v["over"]:
        now = " over"
    elif state.is_chance_node():
        now = ", a chance node: " + ", ".join(state.action_to_string(a) for a, _ in state.chance_outcomes()[:3]) + \
            (", ..." if len(state.chance_outcomes()) > 3 else "")
    else:
        now = f", seat {d['player']} to decide ({d['phase']}{', tile ' + str(d['tile']) if d.get('tile') else ''})"
    lines = [f"{v['game']} turn {v['turn']}{now}"]
    for p in v["players"]:
        supply = " ".join(f"{s['name']} {s['count']}" for s in p["supply"])
        hand = " ".join(f"{h.get('name')} {h.get('count')}" for h in p.get("hand", []))
        lines.append(f"seat {p['seat']}: score {p['score']}, {supply}" + (f", hand {hand}" if hand else ""))
    pile = v["pile"]
    lines.append(f"pile {pile['left']}" + (f" + bonus {pile['bonus_left']}" if pile.get("bonus_left") else "") + ": " +
                 " ".join(f"{t['name']}x{t['count']}" for t in pile["tiles"] if t["count"]))
    lines.append("tiles: " + " ".join(f"{t['id']}@{t['x']},{t['y']}r{t['rot']}" for t in v["board"]["tiles"]))
    compact = {"pieces": v["board"]["pieces"], "overlays": v["board"]["overlays"], "panels": v["panels"]}
    lines.append(json.dumps(compact, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    return "\n".join(lines)


def information_state_string(state, player=None):
    """Perfect information with public chance: the information state is the whole history (every
    action, chance outcomes included), as OpenSpiel's perfect-information games write it."""
    _seat(state, player)
    if not state.history_known():
        return "record:" + state.serialize()
    return state.history_str()


def information_state_tensor(state, player=None):
    """Equal to observation_tensor(player): the observation holds the whole position (board, pieces,
    scores, supplies, hands, the pile's contents, the decision), and nothing hidden or past changes
    what can happen next."""
    return state.observation_tensor(_seat(state, player))


def _install():
    g, s = _core.Game, _core.State
    g.get_type = _game_type
    g.__str__ = lambda game: _name_of(game.name) + "(" + ",".join(
        f"{k}={v}" for k, v in sorted(game.get_parameters().items())) + ")"
    g.new_initial_states = lambda game: [game.new_initial_state()]
    g.make_py_observer = lambda game, iig_obs_type=None, params=None: Observer(game, params, iig_obs_type)
    s.get_type = lambda state: state.get_game().get_type()
    s.num_players = lambda state: state.get_game().num_players()
    s.num_distinct_actions = lambda state: state.get_game().num_distinct_actions()
    s.observation_string = observation_string
    s.information_state_string = information_state_string
    s.information_state_tensor = information_state_tensor
    s.__repr__ = lambda state: f"<carcassonne.State {state}>"


class Observer:
    """OpenSpiel's PyObserver shape: tensor (flat float32), dict (planes and scalars), set_from,
    string_from. Perfect information: every seat's observation and information state. An
    iig_obs_type with perfect_recall (OpenSpiel's information-state observer) reads strings as
    information_state_string; the tensor is the observation either way. set_from and string_from
    take this module's states and the pyspiel states of register() (which wrap one)."""

    def __init__(self, game, params=None, iig_obs_type=None):
        if params:
            raise ValueError(f"params: this observer takes none, not {params!r}")
        import numpy as np
        self._game = game
        self._perfect_recall = bool(getattr(iig_obs_type, "perfect_recall", False))
        self.tensor = np.zeros(game.observation_tensor_size(), np.float32)
        c, w, _ = game.observation_planes_shape()
        n = c * w * w
        self.dict = {"planes": self.tensor[:n].reshape(c, w, w), "scalars": self.tensor[n:]}

    def set_from(self, state, player):
        state = _engine_state(state)
        self.tensor[:] = state.observation_tensor(_seat(state, player))

    def string_from(self, state, player):
        state = _engine_state(state)
        if self._perfect_recall:
            return information_state_string(state, player)
        return observation_string(state, player)


def _engine_state(state):
    """This module's State: itself, or the one a registered pyspiel state wraps (whose own views
    call back into the observer: using it here would recurse)."""
    return state if isinstance(state, _core.State) else state._inner


def register(pyspiel=None):
    """Registers the engine's games (not the test-only ones) with OpenSpiel as Python games, so `pyspiel.load_game("carcassonne")`
    and OpenSpiel's own algorithms (C++ ones included) reach them. Returns the names registered, or
    [] when pyspiel is not importable. The states are OpenSpiel's Python-game states wrapping this
    module's (each OpenSpiel call goes to the engine)."""
    if pyspiel is None:
        try:
            import pyspiel  # noqa: F811
        except ImportError:
            return []
    names = []
    for gid, short in GAME_NAMES.items():
        _register_one(pyspiel, gid)
        names.append(short)
    return names


def _register_one(pyspiel, gid):
    default = _core.Game(gid)
    t = _game_type(default)

    def enum_of(pyenum, value):
        return getattr(pyenum, value.name)

    game_type = pyspiel.GameType(
        short_name=t.short_name, long_name=t.long_name,
        dynamics=enum_of(pyspiel.GameType.Dynamics, t.dynamics),
        chance_mode=enum_of(pyspiel.GameType.ChanceMode, t.chance_mode),
        information=enum_of(pyspiel.GameType.Information, t.information),
        utility=enum_of(pyspiel.GameType.Utility, t.utility),
        reward_model=enum_of(pyspiel.GameType.RewardModel, t.reward_model),
        max_num_players=t.max_num_players, min_num_players=t.min_num_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        # OpenSpiel refuses parameters a game does not declare: every one load_game reads
        parameter_specification=dict(t.parameter_specification))

    def info_of(game):
        return pyspiel.GameInfo(
            num_distinct_actions=game.num_distinct_actions(), max_chance_outcomes=game.max_chance_outcomes(),
            num_players=game.num_players(), min_utility=game.min_utility(), max_utility=game.max_utility(),
            utility_sum=game.utility_sum(), max_game_length=game.max_game_length())

    class SpielState(pyspiel.State):
        def __init__(self, game, inner=None):
            super().__init__(game)
            self._inner = inner if inner is not None else game._inner.new_initial_state()

        def current_player(self):
            return self._inner.current_player()

        def _legal_actions(self, player):
            return self._inner.legal_actions(player)

        def chance_outcomes(self):
            return self._inner.chance_outcomes()

        def _apply_action(self, action):
            self._inner.apply_action(action)

        def _action_to_string(self, player, action):
            return self._inner.action_to_string(player, action)  # as `player` takes it, here or in the history

        def is_terminal(self):
            return self._inner.is_terminal()

        def returns(self):
            return self._inner.returns()

        def rewards(self):
            return self._inner.rewards()

        def __str__(self):
            return observation_string(self._inner)

    class SpielGame(pyspiel.Game):
        def __init__(self, params=None):
            params = dict(params or {})
            self._inner = load_game(gid, params)
            super().__init__(game_type, info_of(self._inner), params)

        def new_initial_state(self):
            return SpielState(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return Observer(self._inner, params, iig_obs_type)

    SpielGame.__name__ = f"Carcassonne_{gid}"
    pyspiel.register_game(game_type, SpielGame)
