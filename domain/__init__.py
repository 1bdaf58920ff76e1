"""Pure rules and reducers of every game: no I/O, no clock, no randomness but the seed's.

Importing the package registers every game it ships.
"""

from domain import mada as _mada  # noqa: F401  (registers the game)
from domain import madcala as _madcala  # noqa: F401
from domain import scoresheet as _scoresheet  # noqa: F401
from domain import sifaka as _sifaka  # noqa: F401
from domain.game import Game, game_names, get_game, most_players, register

__all__ = ["Game", "game_names", "get_game", "most_players", "register"]
