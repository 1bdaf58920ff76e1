"""``tabletape simulate``: random complete games, recorded through the service's own store."""

from __future__ import annotations

import os
import random
import sys
from typing import Any

import click

from cli.replay import result_line
from cli.services import load_services

PLAYER_NAMES = ("Ana", "Ben", "Caro", "Dan", "Eva", "Finn", "Gus", "Hana")


@click.command(short_help="Record N random complete games (demo data, load).")
@click.argument("game_name")
@click.option("-n", "count", type=click.IntRange(min=1), required=True, help="how many games")
@click.option(
    "--players",
    type=click.IntRange(min=1),
    help="players per game  [default: for each game, a number in the game's range]",
)
@click.option("--seed", type=int, help="seeds the whole run: the same seed records the same games")
@click.option(
    "--max-events",
    type=click.IntRange(min=1),
    default=5000,
    show_default=True,
    help="give up on a game that has not ended after this many moves",
)
@click.option(
    "--names",
    help="the players to draw each game's seats from, comma-separated (Kim,Lou,Max)"
    "  [default: Ana, Ben, Caro... the first of them in every game]",
)
def simulate(
    game_name: str,
    count: int,
    players: int | None,
    seed: int | None,
    max_events: int,
    names: str | None,
) -> None:
    """Record N random complete games of a game, through the service's own store.

    Each move is drawn among the game's legal moves and appended as the API appends it: checked by
    the rules, chained into the record, and a finished game is queued for archiving (run
    `tabletape worker`). For demo data, for load, and as a smoke test of the rules: a game that
    runs out of legal moves, or has not ended after --max-events moves, is reported and left
    unfinished, and the exit status is 1.

    Prints one line per game, its id first. The run's seed is printed on stderr: --seed with it
    records the same games again (with new ids).
    """
    from domain import get_game
    from domain.errors import UnknownGameError

    try:
        game = get_game(game_name)
    except UnknownGameError as error:
        raise click.BadParameter(error.message, param_hint="GAME_NAME") from None
    if players is not None and not game.min_players <= players <= game.max_players:
        raise click.BadParameter(
            game.played_by(),
            param_hint="--players",
        )
    pool = [name.strip() for name in (names or "").split(",") if name.strip()]
    if names is not None and len(pool) < (players or game.min_players):
        raise click.BadParameter(
            f"{len(pool)} name{'' if len(pool) == 1 else 's'} for games of"
            f" {players or game.min_players} or more players: give at least as many",
            param_hint="--names",
        )
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big")
    click.echo(f"seed {seed}", err=True)
    chooser = random.Random(seed)
    services = load_services()
    lines: list[str] = []
    unfinished = 0
    try:
        with click.progressbar(
            length=count,
            label=f"Recording {count} {game_name} game{'s' if count > 1 else ''}",
            file=sys.stderr,
        ) as bar:
            for _ in range(count):
                most = min(game.max_players, len(pool)) if pool else game.max_players
                seats = players or chooser.randint(game.min_players, most)
                seated = (
                    chooser.sample(pool, seats)
                    if pool
                    else [*PLAYER_NAMES, *(f"P{i + 1}" for i in range(8, seats))][:seats]
                )
                options = game.demo_options(seats, chooser.randrange)
                record, tokens = services.games.create(
                    game_name, seated, chooser.getrandbits(64), options
                )
                state: Any = game.new_game(seats, record.seed, record.options)
                moves_made = 0
                result = None
                while moves_made < max_events:
                    move = _random_move(game, state, chooser)
                    if move is None:
                        break
                    services.games.append(record.id, tokens.recorder, move)
                    state = game.apply(state, move)
                    moves_made += 1
                    result = game.result(state)
                    if result is not None:
                        break
                if result is not None:
                    outcome = result_line(result, seated)
                else:
                    unfinished += 1
                    outcome = (
                        f"NOT FINISHED: stopped after {moves_made} moves (--max-events)"
                        if moves_made >= max_events
                        else f"NOT FINISHED: no legal move after {moves_made} moves"
                    )
                lines.append(f"{record.id}  {seats} players, {moves_made} moves: {outcome}")
                bar.update(1)
    finally:
        for line in lines:
            click.echo(line)
    if unfinished:
        click.echo(f"{unfinished} of {count} games did not finish", err=True)
        sys.exit(1)


def _random_move(game: Any, state: Any, chooser: random.Random) -> dict[str, Any] | None:
    """A move the recorder could make now, at random: where the game takes free moves (points
    written down), mostly one of those, made up by the game; else a listed one."""
    from domain.viewers import RECORDER

    free = game.free_types(state, RECORDER)
    if free and chooser.random() < 0.9:
        made: dict[str, Any] = game.free_move(state, chooser.choice(free), chooser.randrange)
        return made
    moves = game.legal_moves(state)
    return chooser.choice(moves) if moves else None
