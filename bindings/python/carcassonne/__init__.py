"""Carcassonne, Amazonas, Hunters & Gatherers and Safari for researchers (docs/python.md).

OpenSpiel-shaped games and states over the C++ engine::

    import carcassonne
    game = carcassonne.Game("base", players=2)
    state = game.new_initial_state(seed=1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance_outcome())
        else:
            state.apply_action(state.legal_actions()[0])
    print(state.returns())
"""
import os as _os

# The tile files: beside the package when installed (cmake --install), else the source tree's
# data folder compiled into the module. $CARCASSONNE_DATA wins over both.
_here = _os.path.dirname(_os.path.abspath(__file__))
if "CARCASSONNE_DATA" not in _os.environ and _os.path.isdir(_os.path.join(_here, "data", "tiles")):
    _os.environ["CARCASSONNE_DATA"] = _os.path.join(_here, "data")

from ._core import *  # noqa: E402,F401,F403
from ._core import CHANCE, TERMINAL, CarcassonneError, Game, State, from_record, game_definition, games  # noqa: E402,F401
from . import openspiel as _openspiel  # noqa: E402
from .openspiel import GameType, load_game, registered_names  # noqa: E402,F401

_openspiel._install()


def split_observation(game, observation):
    """The planes (C x W x W) and the scalars of a flat observation, as views of it."""
    c, w, _ = game.observation_planes_shape()
    n = c * w * w
    return observation[..., :n].reshape(observation.shape[:-1] + (c, w, w)), observation[..., n:]
