"""What the rounds played so far say about who met whom, and who played first how often."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from domain.tournaments.model import PlayedRound


class FirstSeats(NamedTuple):
    """At tables of two so far: each player's firsts minus seconds, and whether their last such
    game was played first (absent: none yet)."""

    balance: Counter[str]
    last_was_first: dict[str, bool]


def pair_key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def meetings(history: Sequence[PlayedRound]) -> Counter[tuple[str, str]]:
    """How many tables each two players have shared (a pair met twice counts 2)."""
    met: Counter[tuple[str, str]] = Counter()
    for played in history:
        for table in played.tables:
            seated = table.players
            for i, a in enumerate(seated):
                for b in seated[i + 1 :]:
                    met[pair_key(a, b)] += 1
    return met


def first_seats(history: Sequence[PlayedRound]) -> FirstSeats:
    balance: Counter[str] = Counter()
    last_first: dict[str, bool] = {}
    for played in history:
        for table in played.tables:
            if len(table.players) != 2:
                continue
            first, second = table.players
            balance[first] += 1
            balance[second] -= 1
            last_first[first] = True
            last_first[second] = False
    return FirstSeats(balance, last_first)


def who_plays_first(
    higher: str,
    lower: str,
    table_number: int,
    seats_so_far: FirstSeats,
) -> tuple[str, str]:
    """The two players of a table in seat order: the one more due to play first (seat_due)
    goes first; if both are due the same, the higher placed at odd tables and the lower at even
    ones, so that first seats spread."""
    due_higher, due_lower = seat_due(higher, seats_so_far), seat_due(lower, seats_so_far)
    if due_higher != due_lower:
        return (higher, lower) if due_higher > due_lower else (lower, higher)
    return (higher, lower) if table_number % 2 == 1 else (lower, higher)


def seat_due(name: str, seats_so_far: FirstSeats) -> int:
    """1 if the player is due to play first (played first less often, or as often and second
    last time), -1 if due second, 0 if not yet played at a table of two."""
    balance = seats_so_far.balance[name]
    if balance != 0:
        return 1 if balance < 0 else -1
    if name not in seats_so_far.last_was_first:
        return 0
    return -1 if seats_so_far.last_was_first[name] else 1
