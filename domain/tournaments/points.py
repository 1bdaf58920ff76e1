"""Points from a table's result, and the standings they make.

At a table of n players a player's points are (players ranked below + half the others sharing
the rank) / (n - 1): a win 1 and a last place 0 whatever the table's size. Standings order by
points, then opponents' points, then wins, then one draw of the seed, so no two players share a
rank.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from domain.tournaments.draws import drawn
from domain.tournaments.model import PlayedRound, Standing, TableOutcome, TournamentError


def table_points(outcome: TableOutcome, size: int) -> tuple[Fraction, ...]:
    return tuple(Fraction(steps, 2 * (size - 1)) for steps in _half_steps(outcome, size))


def _half_steps(outcome: TableOutcome, size: int) -> tuple[int, ...]:
    """Each seat's points in steps of 1 / (2 (n - 1)): two steps per player ranked below, one
    per other player sharing the rank. Whole numbers, so that standings add them exactly and
    fast."""
    if size < 2:
        raise TournamentError(f"a table needs at least 2 players, not {size}")
    if outcome.abandoned:
        return (0,) * size
    if outcome.ranks is None:
        return (size - 1,) * size
    ranks = outcome.ranks
    if len(ranks) != size:
        raise TournamentError(f"a table of {size} players has {len(ranks)} ranks")
    if any(rank < 1 for rank in ranks):
        raise TournamentError(f"ranks start at 1: {list(ranks)}")
    return tuple(
        2 * sum(1 for other in ranks if other > rank) + ranks.count(rank) - 1 for rank in ranks
    )


def table_winners(outcome: TableOutcome) -> tuple[bool, ...] | None:
    """Per seat, whether it won: a first place, shared or not. None: no one won."""
    if outcome.abandoned or outcome.ranks is None:
        return None
    first = min(outcome.ranks)
    return tuple(rank == first for rank in outcome.ranks)


@dataclass
class _Tally:
    points: int = 0  # in steps of 1 / scale (see _common_scale)
    wins: int = 0
    games: int = 0
    byes: int = 0


def _common_scale(history: Sequence[PlayedRound]) -> int:
    """A whole number that every table's step 1 / (2 (n - 1)) divides: points are counted as
    whole multiples of 1 / scale, and turned into fractions once, at the end."""
    scale = 2
    for played in history:
        for table in played.tables:
            scale = math.lcm(scale, 2 * max(len(table.players) - 1, 1))
    return scale


def check_history(players: Sequence[str], history: Sequence[PlayedRound]) -> None:
    """Distinct players; every name in the rounds one of them, seated once a round (at a table
    or out with a bye); a result for every table."""
    known = set(players)
    if len(known) != len(players):
        raise TournamentError("a tournament's players are distinct")
    for number, played in enumerate(history, start=1):
        if len(played.outcomes) != len(played.tables):
            raise TournamentError(f"round {number} has a result for each table")
        seen: set[str] = set()
        for name in (*(p for table in played.tables for p in table.players), *played.byes):
            if name not in known:
                raise TournamentError(f"round {number} names {name!r}, not a player")
            if name in seen:
                raise TournamentError(f"round {number} seats {name!r} twice")
            seen.add(name)


def standings(players: Sequence[str], history: Sequence[PlayedRound], seed: int) -> list[Standing]:
    check_history(players, history)
    scale = _common_scale(history)
    tally = {name: _Tally() for name in players}
    for played in history:
        for name in played.byes:
            tally[name].points += scale  # a bye is 1 point
            tally[name].byes += 1
        for table, outcome in zip(played.tables, played.outcomes, strict=True):
            size = len(table.players)
            step = scale // (2 * (size - 1)) if size > 1 else 0
            won = table_winners(outcome)
            for seat, (name, steps) in enumerate(
                zip(table.players, _half_steps(outcome, size), strict=True)
            ):
                tally[name].points += steps * step
                tally[name].games += 1
                tally[name].wins += 1 if won is not None and won[seat] else 0
    # Opponents' points: everyone else's whole tournament points, once per table shared.
    opponents = dict.fromkeys(players, 0)
    for played in history:
        for table in played.tables:
            at_table = sum(tally[name].points for name in table.players)
            for name in table.players:
                opponents[name] += at_table - tally[name].points
    draw = {name: place for place, name in enumerate(drawn(seed, "standings", players))}
    ordered = sorted(
        players,
        key=lambda name: (-tally[name].points, -opponents[name], -tally[name].wins, draw[name]),
    )
    return [
        Standing(
            rank=rank,
            player=name,
            points=Fraction(tally[name].points, scale),
            opponents_points=Fraction(opponents[name], scale),
            wins=tally[name].wins,
            games=tally[name].games,
        )
        for rank, name in enumerate(ordered, start=1)
    ]


def byes_had(players: Sequence[str], history: Sequence[PlayedRound]) -> dict[str, int]:
    counts = dict.fromkeys(players, 0)
    for played in history:
        for name in played.byes:
            counts[name] += 1
    return counts
