"""What the rounds played so far say about who met whom, and who played first how often."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from domain.tournaments.model import PlayedRound


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


def first_seats(history: Sequence[PlayedRound]) -> tuple[Counter[str], dict[str, bool]]:
    """At tables of two: how many more times each player sat first than second, and whether
    their last such game was played first."""
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
    return balance, last_first


def who_plays_first(
    higher: str,
    lower: str,
    table_number: int,
    seats_so_far: tuple[Counter[str], dict[str, bool]],
) -> tuple[str, str]:
    """The two players of a table in seat order: the one who played first less often goes
    first; if even, the one who played second last time; if still even (both new, or both the
    same), the higher placed at odd tables and the lower at even ones, so first seats spread."""
    balance, last_first = seats_so_far
    if balance[higher] != balance[lower]:
        return (higher, lower) if balance[higher] < balance[lower] else (lower, higher)
    higher_last, lower_last = last_first.get(higher), last_first.get(lower)
    if higher_last is not None and lower_last is not None and higher_last != lower_last:
        return (lower, higher) if lower_last is False else (higher, lower)
    return (higher, lower) if table_number % 2 == 1 else (lower, higher)
