"""Moves in words, from one place: the API sends them beside its events and legal moves, and the
pages show them, so that no page words a move a second way.

A correction's words are every game's (``domain.corrections``); any other move's are the game's
own (``Game.describe``, in the words of its rulebook).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.corrections import CORRECTION_WORDS
from domain.game import Game


def move_words(
    game: Game[Any],
    event: dict[str, Any],
    players: list[str],
    options: Mapping[str, Any] | None = None,
) -> str:
    """A move in words. Given an event as a reader sees it (``reads.event_json``), the words say
    nothing that reader may not see: a hidden field is left out of the event, and so of its words.
    They travel beside the event, never in it, whose fields are what its hash covers. ``options``
    are the record's: a game may name its pieces from them (a deck of its own)."""
    return CORRECTION_WORDS.get(event.get("type", "")) or game.describe(event, players, options)


def legal_words(
    game: Game[Any],
    moves: list[dict[str, Any]],
    players: list[str],
    options: Mapping[str, Any] | None = None,
) -> tuple[list[str], list[str]]:
    """Beside each legal move, its words, and its words without what chance brought (the fields
    ``Game.chance_fields`` names), which the recorder's page says on one button for the moves that
    differ only by those."""
    fields = game.chance_fields
    words, base = [], []
    for move in moves:
        words.append(move_words(game, move, players, options))
        chance = fields.get(move.get("type", ""), fields.get("*", ()))
        base.append(
            move_words(game, {k: v for k, v in move.items() if k not in chance}, players, options)
            if any(name in move for name in chance)
            else words[-1]
        )
    return words, base
