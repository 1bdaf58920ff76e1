"""Round robin by the circle method: every pair meets once.

The seed draws the order of all the players once (the draw "round robin"): the places 0..n-1 of
a circle. With an odd number an empty place is put first, and whoever meets it sits out (a bye).
In round r place 0 stays put and the others turn r - 1 places; place i meets place n - 1 - i.
Who plays first: place i (the upper row), except at the table of place 0, where place 0 plays
first in odd rounds and second in even ones. Every other player visits each place once, so
plays first as often as second but for the game with place 0: with an odd number (place 0 the
empty one) everyone plays first exactly half the time, with an even number one game apart at
most. A withdrawn player's opponent of the round sits out with a bye.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.tournaments.draws import drawn
from domain.tournaments.model import Pairing, PlayedRound, Table, TournamentError


def round_robin_rounds(players: int) -> int:
    return players - 1 if players % 2 == 0 else players


def pair_round_robin(
    players: Sequence[str],
    active: Sequence[str],
    history: Sequence[PlayedRound],
    seed: int,
) -> Pairing:
    round_number = len(history) + 1
    if round_number > round_robin_rounds(len(players)):
        raise TournamentError(
            f"a round robin of {len(players)} players has "
            f"{round_robin_rounds(len(players))} rounds, all paired"
        )
    places: list[str | None] = list(drawn(seed, "round robin", players))
    if len(places) % 2 == 1:
        places.insert(0, None)
    turn = (round_number - 1) % (len(places) - 1)
    rest = places[1:]
    circle = [places[0], *rest[len(rest) - turn :], *rest[: len(rest) - turn]]
    still_in = set(active)
    tables: list[Table] = []
    byes: list[str] = []
    half = len(circle) // 2
    for i in range(half):
        a, b = circle[i], circle[len(circle) - 1 - i]
        a = a if a in still_in else None
        b = b if b in still_in else None
        if a is None or b is None:
            byes.extend(name for name in (a, b) if name is not None)
            continue
        tables.append(Table((b, a) if i == 0 and round_number % 2 == 0 else (a, b)))
    order = {name: place for place, name in enumerate(players)}
    return Pairing(tables=tuple(tables), byes=tuple(sorted(byes, key=order.__getitem__)))
