"""What a new tournament asks for, checked before anything is stored: its format against the
game's player counts, its tables' size, its rounds, and every table's game options."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain import get_game
from domain.tournaments import FORMATS, TournamentError, pod_sizes, rounds_planned
from service.errors import ImpossiblePlanError, InvalidRequestError

MOST_ROUNDS = 20


@dataclass(frozen=True)
class Plan:
    """A tournament's plan, checked: what its ``created`` event records of it."""

    game: str
    options: dict[str, Any]
    format: str
    table_size: tuple[int, int]
    rounds: int | None
    rounds_planned: int


def checked_plan(
    game_name: str,
    options: dict[str, Any],
    format: str,
    table_size: list[int] | None,
    rounds: int | None,
    players: int,
) -> Plan:
    """The plan, or InvalidRequestError (400) naming the field that cannot be; an
    ImpossiblePlanError (422) for pods that cannot seat these players."""
    game = get_game(game_name)
    if format not in FORMATS:
        raise InvalidRequestError(
            f"format is one of {', '.join(FORMATS)}", {"format": f"one of {', '.join(FORMATS)}"}
        )
    if format == "pods":
        least, most = table_size or (max(2, game.min_players), game.max_players)
        if not (max(2, game.min_players) <= least <= most <= game.max_players):
            raise InvalidRequestError(
                f"table_size is [least, most] within the game's range: {game.played_by()}",
                {"table_size": f"two numbers from {max(2, game.min_players)} to"
                 f" {game.max_players}, the first no larger"},
            )  # fmt: skip
        try:
            sizes = set(pod_sizes(players, least, most))
        except TournamentError as error:
            raise ImpossiblePlanError(str(error), {"table_size": [least, most]}) from None
    else:
        if table_size is not None and list(table_size) != [2, 2]:
            raise InvalidRequestError(
                f"a {format.replace('_', ' ')} is played at tables of 2: table_size is for pods",
                {"table_size": "only for pods"},
            )
        if not game.min_players <= 2 <= game.max_players:
            raise InvalidRequestError(
                f"a {format.replace('_', ' ')} pairs two players, and {game.played_by()}:"
                " play it in pods",
                {"format": "pods"},
            )
        least, most = 2, 2
        sizes = {2}
    if format == "round_robin" and rounds is not None:
        raise InvalidRequestError(
            "a round robin has as many rounds as it needs: leave rounds out",
            {"rounds": "not for a round robin"},
        )
    if format != "round_robin" and rounds is None:
        raise InvalidRequestError(
            f"say how many rounds to play, 1 to {MOST_ROUNDS}", {"rounds": "required"}
        )
    for size in sorted(sizes):
        # Every table's game is checked now, so that no round fails on its options later
        # (each table's game completes them with its defaults for its number of players).
        game.new_game(size, 0, game.options(options, size))
    return Plan(
        game=game_name,
        options=options,
        format=format,
        table_size=(least, most),
        rounds=rounds,
        rounds_planned=rounds_planned(format, players, rounds),
    )
