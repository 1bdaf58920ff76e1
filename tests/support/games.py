"""Making a game of any registered game in a test: the options it needs, and random moves.

A test that walks every game (``game_names()``) makes each with ``options_of``: most games take
no option, and a score sheet needs its title. ``random_move`` picks among the moves a recorder
could make: the listed ones and, in a game with free moves (a score sheet's points), one the game
makes up (``Game.free_move``), so that a random score sheet runs for many moves before it ends.
"""

from __future__ import annotations

import random
from typing import Any

from domain.game import Game
from domain.viewers import RECORDER

# The options a game cannot be made without.
REQUIRED_OPTIONS: dict[str, dict[str, Any]] = {"scoresheet": {"title": "Carcassonne"}}


def options_of(name: str, **given: Any) -> dict[str, Any]:
    """The creation options of a game of ``name``: what it needs, and ``given``."""
    return {**REQUIRED_OPTIONS.get(name, {}), **given}


def completed_options(game: Game[Any], players: int, **given: Any) -> dict[str, Any]:
    """``options_of`` as the game completes them (the header's options)."""
    return game.options(options_of(game.name, **given), players)


def random_move(
    game: Game[Any], state: Any, players: int, chooser: random.Random, *, free_share: float = 0.9
) -> dict[str, Any] | None:
    """A move the recorder may make now, at random (None when there is none): a free one
    ``free_share`` of the time where the game has free types."""
    free = game.free_types(state, RECORDER)
    if free and chooser.random() < free_share:
        return game.free_move(state, chooser.choice(free), chooser.randrange)
    moves = game.legal_moves(state)
    return chooser.choice(moves) if moves else None
