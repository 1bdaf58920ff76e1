"""The next round of a tournament: checks what it is given, then asks the format's rules.

A round's tables are a function of the players (in the order given at creation), who withdrew,
the rounds played before, the seed and the table size, and of nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.tournaments.model import FORMATS, Pairing, PlayedRound, TournamentError
from domain.tournaments.pods import pair_pods
from domain.tournaments.points import check_history
from domain.tournaments.round_robin import pair_round_robin, round_robin_rounds
from domain.tournaments.swiss import pair_swiss

MOST_ROUNDS = 20


def rounds_planned(format: str, players: int, rounds: int | None) -> int:
    _check_format(format)
    if players < 2:
        raise TournamentError("a tournament needs at least 2 players")
    if format == "round_robin":
        return round_robin_rounds(players)
    if rounds is None or not 1 <= rounds <= MOST_ROUNDS:
        raise TournamentError(f"a {format} tournament plays 1 to {MOST_ROUNDS} rounds")
    return rounds


def pair_round(
    format: str,
    players: Sequence[str],
    withdrawn: Sequence[str],
    history: Sequence[PlayedRound],
    seed: int,
    table_size: tuple[int, int] = (2, 2),
) -> Pairing:
    _check_format(format)
    check_history(players, history)
    gone = set(withdrawn)
    if not gone <= set(players):
        unknown = sorted(gone - set(players))
        raise TournamentError(f"{unknown[0]!r} withdrew but is not a player")
    active = [name for name in players if name not in gone]
    if len(active) < 2:
        raise TournamentError("fewer than 2 players are still in")
    if format == "swiss":
        return pair_swiss(players, active, history, seed)
    if format == "round_robin":
        return pair_round_robin(players, active, history, seed)
    return pair_pods(players, active, history, seed, table_size)


def _check_format(format: str) -> None:
    if format not in FORMATS:
        raise TournamentError(f"{format!r} is not a format: one of {', '.join(FORMATS)}")
