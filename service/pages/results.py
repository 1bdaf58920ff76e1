"""A game's outcome in words, for a list of games seen from one player's side: who won, and the
score that player made (a name seated twice has each seat's score)."""

from __future__ import annotations

from typing import Any

from service.pages.plots import shown_number
from service.store.records import GameRecord


def result_words(record: GameRecord, player: str) -> str:
    """``won by Ben; Ana's score: 12``; ``a draw; ...``; for a game with no result, where it
    stands (``under way: 14 moves``, or ``no result`` for one that ended without, abandoned say)."""
    result: dict[str, Any] | None = record.result
    if not result:
        if record.status == "active":
            return f"under way: {record.version} move{'' if record.version == 1 else 's'}"
        return "abandoned: no result" if record.status == "abandoned" else "no result"
    winners = [record.players[seat] for seat in result.get("winners", [])]
    if result.get("draw"):
        outcome = "a draw"
    elif winners:
        outcome = "won by " + _listed(winners)
    else:
        outcome = "no winner"
    scores = result.get("scores") or []
    own = [
        shown_number(score) if isinstance(score, int | float) else str(score)
        for seat, score in enumerate(scores)
        if seat < len(record.players) and record.players[seat] == player
    ]
    if own:
        outcome += f"; {player}'s score: {', '.join(own)}"
    return outcome


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
