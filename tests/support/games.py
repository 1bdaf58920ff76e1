"""Making a game of any registered game in a test: the options it needs, and random moves.

A test that walks every game (``game_names()``) makes each with ``options_of``: most games take
no option, and a score sheet needs its title. ``random_move`` picks among the moves a recorder
could make: the listed ones and, in a game with free moves (a score sheet's points), one of those
written with made-up numbers, so that a random score sheet runs for many moves before it ends.
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


def random_points(chooser: random.Random) -> int | float:
    """Points as people write them down: mostly whole, sometimes halves or thousandths."""
    whole = chooser.randint(-5, 40)
    kind = chooser.random()
    if kind < 0.7:
        return whole
    if kind < 0.9:
        return whole + 0.5
    return round(whole + chooser.randint(1, 999) / 1000, 3)


def free_move(kind: str, players: int, chooser: random.Random) -> dict[str, Any]:
    """A move of a free type (``Game.free_types``) with made-up numbers."""
    if kind == "score":
        return {
            "type": "score",
            "player": chooser.randrange(players),
            "points": random_points(chooser),
        }
    if kind == "round":
        return {
            "type": "round",
            "points": [
                None if chooser.random() < 0.1 else random_points(chooser) for _ in range(players)
            ],
        }
    raise AssertionError(f"no test knows how to write a {kind!r} move")


def random_move(
    game: Game[Any], state: Any, players: int, chooser: random.Random, *, free_share: float = 0.9
) -> dict[str, Any] | None:
    """A move the recorder may make now, at random (None when there is none): a free one
    ``free_share`` of the time where the game has free types."""
    free = game.free_types(state, RECORDER)
    if free and chooser.random() < free_share:
        return free_move(chooser.choice(free), players, chooser)
    moves = game.legal_moves(state)
    return chooser.choice(moves) if moves else None
