"""The values the tournament rules take and give: tables, their outcomes, rounds, standings.

Frozen dataclasses of tuples, so a round played is a value and a pairing can be recomputed from
the rounds before it (the tournament's export is checked that way).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

FORMATS = ("swiss", "round_robin", "pods")

# The version of these rules a tournament is paired by. A change that would pair a round played
# before differently, or rank it differently, must bump it, so that a tournament already played
# still verifies under the rules it was paired with (tests/domain/tournaments/test_recomputed.py
# holds tables paired by version "1").
RULES_VERSION = "1"


class TournamentError(ValueError):
    """A plan that cannot be: 10 players at tables of 4 to 4, a round after the last, an unknown
    player. The message says it in words, for the organiser."""


@dataclass(frozen=True)
class Table:
    players: tuple[str, ...]  # in seat order (the first seat plays first)


@dataclass(frozen=True)
class TableOutcome:
    # Per seat, 1 = first; equal numbers share a rank. None: the game had no winner (½ each).
    ranks: tuple[int, ...] | None
    # An abandoned table is a game played and lost by everyone at it (0 points each).
    abandoned: bool = False


@dataclass(frozen=True)
class PlayedRound:
    tables: tuple[Table, ...]
    outcomes: tuple[TableOutcome, ...]  # one per table, in the same order
    byes: tuple[str, ...]


@dataclass(frozen=True)
class Pairing:
    tables: tuple[Table, ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    points: Fraction
    opponents_points: Fraction
    wins: int
    games: int
