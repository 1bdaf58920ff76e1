"""``tabletape import --bgstats``/``--bgg``: a group's history from another app's file."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from cli.services import load_services


def import_history(bgstats: str | None, bgg_pages: Sequence[str], given: tuple[str, ...]) -> None:
    """Import the plays of a BG Stats backup, or of pages of BoardGameGeek's XML as one import,
    with a progress bar; print what was imported, already here and skipped. Exit 1 if a file is
    not one."""
    from pathlib import Path

    from service.imports import History, Play, Skipped
    from service.imports import bgg as bgg_reader
    from service.imports.backup_file import read_backup

    names = {}
    for pair in given:
        there, equals, here = pair.partition("=")
        if not equals or not there or not here:
            raise click.UsageError(f"--name takes THERE=HERE, not {pair!r}")
        names[there] = here
    found: list[Play | Skipped] = []
    for path in map(Path, [bgstats] if bgstats else bgg_pages):
        try:
            if bgstats:
                # Read as a stream: the file and its plays held, never its whole tree.
                found += read_backup(path.read_bytes(), names)
            else:
                # Each page read apart: a play without players is its own page's owner's.
                found += bgg_reader.read_plays(path.read_bytes(), names)
        except (ValueError, OSError) as error:
            raise click.ClickException(f"{path}: {error}") from None
    services = load_services()
    history = History(services.games.records, services.store.indexes)
    plays = sum(one.copies for one in found if isinstance(one, Play))
    with click.progressbar(length=plays, label="importing plays", file=sys.stderr) as bar:
        outcome = history.import_plays(found, progress=bar.update)
    for skipped in outcome.skipped:
        click.echo(f"skipped {skipped.play_id or 'a play'}: {skipped.reason}", err=True)
    for differing in outcome.differs:
        click.echo(f"differs {differing.play_id}: game {differing.game} holds its id", err=True)
    click.echo(
        f"{outcome.imported} imported, {outcome.already} already here,"
        f" {len(outcome.differs)} differing, {len(outcome.skipped)} skipped"
    )
