"""How the pages show a score sheet: its moves in words, and the new-game form's fields.

A move in words (``Game.describe``, the only words of a move):
- ``score``: "Ana scores 12", "Ben scores -3", "Caro scores 4.5";
- ``round``: "Round: Ana 5, Ben —" (``—`` for a seat with no points this round); the words of an
  event alone cannot know which round it is: ``describe_round`` says "Round 3: ..." for a caller
  that counts them;
- ``end``: "The game ends: Ana wins" (winners given), "The game ends: Ana and Ben win", "The game
  ends: no winner" (``winners: []``), "The game ends: Ana 1st, Ben 2nd, Caro 2nd" (ranks
  given), "The game ends: the table wins" / "the table loses" (cooperative), "The game ends: the
  totals decide" (the result comes from the totals, which the event does not hold).

The form's fields (``option_fields``) are of the kinds ``domain.words`` lists: ``text`` (the
title, suggesting those played before), ``choice`` (the scoring), ``boolean`` (cooperative),
``teams`` and ``integer`` (the BoardGameGeek id), and a ``hint`` naming the game on the form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from domain.events import is_int
from domain.scoresheet import numbers
from domain.scoresheet.titles import TITLE_MAX
from domain.words import describe_fields

NO_POINTS: Final = "—"


def describe(event: Mapping[str, Any], players: Sequence[str]) -> str:
    kind = event.get("type")
    if kind == "score":
        return f"{_seat(event.get('player'), players)} scores {_number(event.get('points'))}"
    if kind == "round":
        return describe_round(event, players, None)
    if kind == "end":
        return f"The game ends: {_ending(event, players)}"
    return describe_fields(event, players)


def describe_round(event: Mapping[str, Any], players: Sequence[str], number: int | None) -> str:
    """A round's points, seat by seat: "Round 3: Ana 5, Ben —" (no number: "Round: ...")."""
    head = "Round" if number is None else f"Round {number}"
    row = event.get("points")
    if not isinstance(row, list):
        return head
    said = [
        f"{_seat(seat, players)} {NO_POINTS if points is None else _number(points)}"
        for seat, points in enumerate(row)
    ]
    return f"{head}: {', '.join(said)}"


def _ending(event: Mapping[str, Any], players: Sequence[str]) -> str:
    outcome = event.get("outcome")
    if outcome == "won":
        return "the table wins"
    if outcome == "lost":
        return "the table loses"
    winners = event.get("winners")
    if winners == []:
        return "no winner"
    if isinstance(winners, list) and winners:
        names = [_seat(seat, players) for seat in winners]
        return f"{_listed(names)} {'wins' if len(names) == 1 else 'win'}"
    ranks = event.get("ranks")
    if isinstance(ranks, list) and ranks:
        return ", ".join(
            f"{_seat(seat, players)} {_ordinal(rank)}" for seat, rank in enumerate(ranks)
        )
    return "the totals decide"


def _number(value: Any) -> str:
    number = numbers.to_decimal(value)
    if number is None:
        return str(value)
    return numbers.text(int(number.scaleb(numbers.DECIMALS)))


def _seat(seat: Any, players: Sequence[str]) -> str:
    if is_int(seat) and 0 <= seat < len(players):
        return str(players[seat])
    return "someone" if seat is None else f"seat {seat}"


def _listed(items: list[str]) -> str:
    if len(items) == 1:
        return items[0]
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _ordinal(rank: Any) -> str:
    if not is_int(rank):
        return str(rank)
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def option_fields() -> list[dict[str, Any]]:
    """The new-game form's fields of a score sheet's options (kinds in the module docstring)."""
    return [
        # How the form names the game among the others: it is every other game.
        {"kind": "hint", "field": "game", "text": "Another game: any game, recorded as its scores"},
        {
            "name": "title",
            "kind": "text",
            "label": "Title",
            "note": "the game played, as people call it",
            "input": "title",
            "max_length": TITLE_MAX,
            "required": True,
            # The form suggests the titles played before (GET /titles).
            "suggest": "titles",
        },
        {
            "name": "scoring",
            "kind": "choice",
            "label": "Scoring",
            "input": "scoring",
            "choices": [
                ["highest", "the highest total wins"],
                ["lowest", "the lowest total wins"],
                ["none", "no points: the end says who won"],
            ],
            "default": "highest",
        },
        {
            "name": "cooperative",
            "kind": "boolean",
            "label": "Cooperative",
            "note": "the table wins or loses together",
            "input": "cooperative",
            "default": False,
        },
        {
            "name": "teams",
            "kind": "teams",
            "label": "Teams",
            "note": "optional: every seat in exactly one team, at least two teams",
            "input": "teams",
        },
        {
            "name": "bgg_id",
            "kind": "integer",
            "label": "BoardGameGeek id",
            "note": "optional",
            "input": "bgg_id",
            "min": 1,
            "max": 2**31 - 1,
        },
    ]
