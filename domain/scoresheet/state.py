"""The state of a score sheet, and the rankings its end makes.

Nothing is hidden: the state is what the pad shows, the same to every viewer. Numbers are kept in
thousandths (``numbers.Milli``): exact integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from domain.scoresheet.numbers import Milli

HIGHEST: Final = "highest"
LOWEST: Final = "lowest"
NONE: Final = "none"
SCORINGS: Final = (HIGHEST, LOWEST, NONE)
WON: Final = "won"
LOST: Final = "lost"
OUTCOMES: Final = (WON, LOST)


@dataclass(frozen=True, slots=True)
class ScoresheetState:
    players: int
    title: str
    key: str
    bgg_id: int | None
    scoring: str
    cooperative: bool
    # Each team's seats, as the options gave them; None without teams.
    teams: tuple[tuple[int, ...], ...] | None
    # Each seat's own points, in thousandths.
    totals: tuple[Milli, ...]
    # The ``round`` events standing.
    rounds: int = 0
    # The moves standing (score, round, end).
    version: int = 0
    finished: bool = False
    # Set by ``end``: the seats ranked 1 (every seat or none in a cooperative game), a rank per
    # seat, and a cooperative game's outcome.
    winners: tuple[int, ...] = ()
    ranks: tuple[int, ...] = ()
    outcome: str | None = None

    @property
    def has_points(self) -> bool:
        return self.scoring != NONE

    def units(self) -> tuple[tuple[int, ...], ...]:
        """What is ranked as one: the teams, or each seat alone."""
        if self.teams is not None:
            return self.teams
        return tuple((seat,) for seat in range(self.players))

    def team_totals(self) -> tuple[Milli, ...] | None:
        if self.teams is None:
            return None
        return tuple(sum(self.totals[seat] for seat in team) for team in self.teams)


def standings(values: Sequence[Milli], highest: bool) -> list[int]:
    """Competition ranks of ``values``, best first: equal values share a rank and the next rank
    skips (1, 2, 2, 4)."""
    if highest:
        return [1 + sum(other > value for other in values) for value in values]
    return [1 + sum(other < value for other in values) for value in values]


def is_standing(ranks: Sequence[int]) -> bool:
    """Whether ``ranks`` are competition ranks: each is one more than the count of better ones."""
    return all(rank == 1 + sum(other < rank for other in ranks) for rank in ranks)


def seat_ranks(
    units: Sequence[Sequence[int]], unit_ranks: Sequence[int], players: int
) -> list[int]:
    """A rank per seat from a rank per unit (team, or seat alone): members carry their unit's."""
    ranks = [0] * players
    for unit, rank in zip(units, unit_ranks, strict=True):
        for seat in unit:
            ranks[seat] = rank
    return ranks
