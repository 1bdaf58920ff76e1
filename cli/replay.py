"""``tabletape replay``: a game move by move, with what each move changed."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import click

from cli.services import load_services


@click.command(short_help="Print a game move by move.")
@click.argument("game_id")
def replay(game_id: str) -> None:
    """Print a game move by move: one line per move with its seq, the player, the move, and what
    it changed when the game's state shows it (scores, health, the round or turn, a decision
    awaited, who moves next), then the result. The changes come from replaying the game's rules
    from its seed, move by move.

    \b
    Example:
      $ tabletape replay 402c2be3bd377587
      game 402c2be3bd377587: <game> (<game>/1), seed 9073252845659207084, Ana, Ben, Caro; 77...
       2  Ana   play card=13      next Ben
       8  Ana   try_luck          round 2 | scores Ana=0 Ben=1 Caro=0 | Ana to round_discard
      ...
      result: Ana wins; scores Ana 21, Ben 18, Caro 16
    """
    from domain import get_game
    from domain.corrections import Fold, is_retract, voided
    from domain.errors import TabletapeError
    from domain.viewers import RECORDER

    services = load_services()
    try:
        record = services.games.get(game_id)
        events = services.games.events(record, 1, record.version)
        game = get_game(record.game)
        start = game.start(record.header)
    except TabletapeError as error:
        raise click.ClickException(error.message) from None
    names = record.players
    click.echo(
        f"game {record.id}: {record.game} ({record.rules_version}), seed {record.seed},"
        f" {', '.join(names)}; {record.version} moves, {record.status}"
    )
    if record.options:
        click.echo(f"options {_compact(record.options)}")
    width = max(len(name) for name in names)
    seq_width = len(str(record.version))
    # Retractions are folded as the service folds them; voided moves are marked.
    folded = Fold(game, start)
    void = voided([event.body for event in events])
    before: dict[str, Any] | None = game.view(folded.state, RECORDER)
    for event, is_void in zip(events, void, strict=True):
        body = event.body
        if is_retract(body):
            seat = None  # the recorder's: no player made it
        else:
            seat = body.get("player", before.get("current_player") if before else None)
        line = f"{event.seq:>{seq_width}}  {_name(names, seat):<{width}}  {_move(body)}"
        if is_void:
            line += " (voided)"
        if before is not None:
            try:
                folded.add(body)
            except TabletapeError as error:
                click.echo(line)
                click.echo(f"the rules refuse move {event.seq}: {error.message}", err=True)
                before = None
                continue
            after = game.view(folded.state, RECORDER)
            changes = _changes(before, after, names)
            if changes:
                line = f"{line:<{seq_width + width + 40}}  {' | '.join(changes)}"
            before = after
        click.echo(line.rstrip())
    if record.result is not None:
        click.echo(f"result: {result_line(record.result, names)}")
    elif record.version == 0:
        click.echo("no moves yet")


# What a move changed, said when a game's state shows it (each game shows some of these).
_WATCHED_COUNTS = ("round", "turn")
_WATCHED_PER_SEAT = ("scores", "health")


def _changes(
    before: Mapping[str, Any], after: Mapping[str, Any], names: Sequence[str]
) -> list[str]:
    said = []
    for key in _WATCHED_COUNTS:
        if after.get(key) is not None and after.get(key) != before.get(key):
            said.append(f"{key} {after[key]}")
    for key in _WATCHED_PER_SEAT:
        values = after.get(key)
        if isinstance(values, list) and values != before.get(key):
            said.append(
                f"{key} "
                + " ".join(f"{n}={_compact(v)}" for n, v in zip(names, values, strict=False))
            )
    pending = after.get("pending")
    if isinstance(pending, dict) and pending != before.get("pending"):
        said.append(f"{_name(names, pending.get('player'))} to {pending.get('kind')}")
    current = after.get("current_player")
    if current is not None and current != before.get("current_player"):
        said.append(f"next {_name(names, current)}")
    return said


def _name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "-"


def _move(body: Mapping[str, Any]) -> str:
    """``play card=7 target=1``: the type, then the fields that say something (not the player,
    who has a column of their own, nor the empty ones)."""
    fields = [
        f"{name}={_compact(value)}"
        for name, value in body.items()
        if name not in ("type", "player") and value not in (None, [], {})
    ]
    return " ".join([str(body.get("type")), *fields])


def _compact(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def result_line(result: Mapping[str, Any], names: Sequence[str]) -> str:
    winners = [_name(names, seat) for seat in result.get("winners", [])]
    if result.get("draw") or not winners:
        outcome = "a draw"
    elif len(winners) == 1:
        outcome = f"{winners[0]} wins"
    else:
        outcome = f"{', '.join(winners)} tie for the win"
    scores = result.get("scores")
    if isinstance(scores, list) and len(scores) == len(names):
        outcome += "; scores " + ", ".join(
            f"{n} {_compact(v)}" for n, v in zip(names, scores, strict=True)
        )
    return outcome
