"""The pure rules of a tournament: pairing a round (Swiss, round robin, pods), points from a
table's result, and standings. No I/O, clock, environment or unseeded chance: every draw comes
from the tournament's seed (domain/tournaments/draws.py), so anyone can recompute a round.
"""

from domain.tournaments.model import (
    FORMATS,
    RULES_VERSION,
    Pairing,
    PlayedRound,
    Standing,
    Table,
    TableOutcome,
    TournamentError,
)
from domain.tournaments.pairing import pair_round, rounds_planned
from domain.tournaments.pods import pod_sizes
from domain.tournaments.points import standings, table_points

__all__ = [
    "FORMATS",
    "RULES_VERSION",
    "Pairing",
    "PlayedRound",
    "Standing",
    "Table",
    "TableOutcome",
    "TournamentError",
    "pair_round",
    "pod_sizes",
    "rounds_planned",
    "standings",
    "table_points",
]
