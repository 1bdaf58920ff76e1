"""Round robin by the circle method: every pair meets once.

The seed draws the order of all the players once (the draw "round robin"); with an odd number an
empty place joins them and whoever meets it sits out (a bye). In round r the first player stays
put and the others turn r - 1 places; place i meets place n - 1 - i. Who plays first: the one
who has played first less often so far, then the one who played second last time (as in Swiss).
A withdrawn player's opponent of the round sits out with a bye.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.tournaments.draws import drawn
from domain.tournaments.meetings import first_seats, who_plays_first
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
        places.append(None)
    turn = (round_number - 1) % (len(places) - 1)
    rest = places[1:]
    circle = [places[0], *rest[len(rest) - turn :], *rest[: len(rest) - turn]]
    still_in = set(active)
    seats_so_far = first_seats(history)
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
        tables.append(Table(who_plays_first(a, b, len(tables) + 1, seats_so_far)))
    order = {name: place for place, name in enumerate(players)}
    return Pairing(tables=tuple(tables), byes=tuple(sorted(byes, key=order.__getitem__)))
