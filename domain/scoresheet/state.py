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
    # Each team's name ("Red", "Blue"), as the options gave them; None: "Team 1", "Team 2"...
    team_names: tuple[str, ...] | None
    # Each seat's own points, in thousandths (0 before any).
    totals: tuple[Milli, ...]
    # Each seat's count of numbers written for it (a score, or a number in a round): a total of
    # 0 with none written is no score at all, "—" on the pad and null in the result.
    entered: tuple[int, ...]
    # The ``round`` events standing.
    rounds: int = 0
    # The moves standing (score, round, end).
    version: int = 0
    finished: bool = False
    # Set by ``end``: the seats ranked 1 (every seat or none in a cooperative game), a rank per
    # seat (None in a game that ended with no winner: no one is ranked), and a cooperative
    # game's outcome.
    winners: tuple[int, ...] = ()
    ranks: tuple[int, ...] | None = None
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

    def scores(self) -> tuple[Milli | None, ...]:
        """Each seat's total, or None for a seat no number was ever written for."""
        return tuple(
            total if count else None for total, count in zip(self.totals, self.entered, strict=True)
        )

    def unit_scores(self) -> tuple[Milli | None, ...]:
        """What is ranked by the totals: each unit's (team's, or seat's) total, or None when no
        number was written for any of its seats."""
        return tuple(
            sum(self.totals[seat] for seat in unit) if any(self.entered[seat] for seat in unit)
            else None
            for unit in self.units()
        )  # fmt: skip


def standings(values: Sequence[Milli | None], highest: bool) -> list[int]:
    """Competition ranks of ``values``, best first: equal values share a rank and the next rank
    skips (1, 2, 2, 4). A None (no number written) ranks after every number, and the Nones
    share that rank: a score never written is not a 0 that could beat a negative total, or win
    where the lowest wins."""
    return [1 + sum(_better(other, value, highest) for other in values) for value in values]


def _better(value: Milli | None, than: Milli | None, highest: bool) -> bool:
    if value is None:
        return False
    if than is None:
        return True
    return value > than if highest else value < than


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
