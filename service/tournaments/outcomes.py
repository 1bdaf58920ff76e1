"""A table's outcome from its game's record, and points and standings as the API writes them.

Used by the service and by ``tabletape verify`` alike (no store here): a table counts once its
game is over, by the game's own ranks (a score sheet's), else its winners first and the others
by score; a game with no winner is ½ each; an abandoned game is played and lost by all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from domain.tournaments import Standing, TableOutcome, table_points
from service.stats.ratings.model import ranks_of

# A game's statuses that count: over with a result, or abandoned (lost by all).
OVER = ("finished", "archived")


def table_outcome(status: str, result: Mapping[str, Any] | None) -> TableOutcome | None:
    """The outcome of a table whose game has ``status`` and ``result``; None while it is played."""
    if status == "abandoned":
        return TableOutcome(ranks=None, abandoned=True)
    if status not in OVER or result is None:
        return None
    if "ranks" in result:
        ranks = result["ranks"]
        return TableOutcome(ranks=tuple(ranks) if ranks else None)
    winners = result.get("winners") or []
    if not winners:
        return TableOutcome(ranks=None)
    scores = result.get("scores") or [None] * (1 + max(winners))
    return TableOutcome(ranks=ranks_of(winners, scores))


def number(points: Fraction) -> float:
    """Points as a JSON number: 1.0, 0.5, 0.333..."""
    return float(points)


def result_json(outcome: TableOutcome | None, size: int) -> dict[str, Any] | None:
    """A table's ``result`` in the tournament's resource: its ranks (null: no winner), whether it
    was abandoned, and each seat's points; null while it is being played."""
    if outcome is None:
        return None
    return {
        "ranks": list(outcome.ranks) if outcome.ranks is not None else None,
        "abandoned": outcome.abandoned,
        "points": [number(points) for points in table_points(outcome, size)],
    }


def standings_json(standings: Sequence[Standing]) -> list[dict[str, Any]]:
    return [
        {
            "rank": standing.rank,
            "player": standing.player,
            "points": number(standing.points),
            "opponents_points": number(standing.opponents_points),
            "wins": standing.wins,
            "games": standing.games,
        }
        for standing in standings
    ]
