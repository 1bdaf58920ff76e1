"""``tabletape audit``, ``export`` and ``import``: games' whole records, checked, written out and
read back in (a group's history, ``import --bgstats``/``--bgg``, is cli/history.py's)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import click

from cli.history import import_history
from cli.services import load_services


@click.command(short_help="Verify a game's replay, hash chain and archive.")
@click.argument("game_id")
def audit(game_id: str) -> None:
    """Replay a game, verify its hash chain and archive; exit 1 if anything is wrong (a record
    damaged in the store included: the problems name the event or the header field)."""
    from domain.errors import TabletapeError

    services = load_services()
    try:
        report = services.games.audit_by_id(game_id)
    except TabletapeError as error:
        raise click.ClickException(error.message) from None
    click.echo(json.dumps(report.as_json(), indent=2))
    sys.exit(0 if report.ok else 1)


@click.command(short_help="Write games' whole records as JSON.")
@click.argument("game_id", required=False)
@click.option("--all", "every", is_flag=True, help="every game, one record per line (JSON Lines)")
@click.option("-o", "--output", type=click.File("w"), default="-", help="file (default: stdout)")
def export(game_id: str | None, every: bool, output: Any) -> None:
    """Write a game's whole record as one JSON document, or with --all every game's, one per
    line: what `tabletape import` reads on another server, which keeps each record's salt, times
    and hash chain. Exit 1 if there is no such game or a record is damaged (with --all, the
    damaged records are named on stderr and the others written)."""
    from domain.errors import TabletapeError

    if every == (game_id is not None):
        raise click.UsageError("name one GAME_ID, or give --all")
    services = load_services()
    if game_id is not None:
        try:
            document = services.games.export(services.games.get(game_id))
        except TabletapeError as error:
            raise click.ClickException(error.message) from None
        output.write(json.dumps(document, indent=1) + "\n")
        return
    from service.store.records import DamagedHeader
    from workers.queues import every_game

    damaged = 0
    for page in every_game(services.store):
        for record in page:
            if record is None:
                continue
            try:
                # The page read each header already: one that does not decode is named here.
                if isinstance(record, DamagedHeader):
                    raise record.error()
                document = services.games.export(record)
            except TabletapeError as error:
                damaged += 1
                click.echo(f"not exported: {error.message}", err=True)
                continue
            output.write(json.dumps(document, separators=(",", ":")) + "\n")
    sys.exit(1 if damaged else 0)


@click.command("import", short_help="Import exported records, or a group's history.")
@click.argument("paths", nargs=-1, type=click.Path(exists=True))
@click.option(
    "--bgstats",
    type=click.Path(exists=True, dir_okay=False),
    help="a BG Stats backup (its JSON export): each play a finished score sheet",
)
@click.option(
    "--bgg",
    type=click.Path(exists=True, dir_okay=False),
    help="BoardGameGeek's plays (the XML of /xmlapi2/plays)",
)
@click.option(
    "--name",
    "names",
    multiple=True,
    metavar="THERE=HERE",
    help="record a player of the file under the name this service knows (repeatable)",
)
def import_command(
    paths: tuple[str, ...], bgstats: str | None, bgg: str | None, names: tuple[str, ...]
) -> None:
    """Import exported records, each as a new game with tokens of its own, keeping its salt,
    times and hash chain. A path is a file of one record, of a JSON list of records, or of JSON
    Lines (one record per line, as `tabletape export --all` writes), or a folder, whose .json and
    .jsonl files are read (sub-folders included). A bad record is rejected whole; one this
    service holds already is named. Exit 1 if any was rejected.

    With --bgstats FILE or --bgg FILE..., import a group's history instead (docs/bringing-history-
    in.md): each play a finished score sheet with its own dates, a play imported before not
    imported again, one that cannot be read skipped with its reason. Several pages of
    BoardGameGeek's plays (`--bgg page1.xml page2.xml ...`) are one import."""
    if bgstats or bgg:
        if (bgstats and (paths or bgg)) or any(not path.endswith(".xml") for path in paths):
            raise click.UsageError(
                "give one of --bgstats FILE, --bgg FILE [MORE PAGES.xml...], or record PATHS"
            )
        import_history(bgstats, (bgg, *paths) if bgg else (), names)
        return
    if not paths:
        raise click.UsageError("name the records to import, or give --bgstats FILE or --bgg FILE")
    from marshmallow import ValidationError

    from domain.errors import TabletapeError
    from service.api.schemas import RecordSchema

    services = load_services()
    failures = []
    records = list(_records_in(paths))
    with click.progressbar(records, label="importing", file=sys.stderr) as bar:
        for where, document in bar:
            try:
                if isinstance(document, ValueError):
                    raise document
                loaded = RecordSchema().load(document)
                record, tokens = services.games.import_record(loaded)
            except (ValueError, ValidationError, TabletapeError) as error:
                failures.append(f"{where}: {getattr(error, 'message', None) or error}")
                continue
            seats = ", ".join(tokens.seats)
            click.echo(
                f"{where}: game {record.id}, head {record.head_hash}"
                f" (token {tokens.recorder}; seat tokens {seats})"
            )
    for failure in failures:
        click.echo(f"rejected {failure}", err=True)
    sys.exit(1 if failures else 0)


def _records_in(paths: Sequence[str]) -> Iterator[tuple[str, Any]]:
    """Each record the paths hold, named by where it is (``file``, ``file#3`` for the third of
    many); a file that is not JSON gives its ValueError in place of a record."""
    from pathlib import Path

    for given in paths:
        path = Path(given)
        files = (
            sorted(p for p in path.rglob("*") if p.suffix in (".json", ".jsonl") and p.is_file())
            if path.is_dir()
            else [path]
        )
        for file in files:
            try:
                text = file.read_text(encoding="utf-8")
                found = _documents(text)
            except (OSError, ValueError) as error:
                yield str(file), ValueError(f"not a file of JSON records: {error}")
                continue
            if len(found) == 1:
                yield str(file), found[0]
            else:
                yield from ((f"{file}#{n}", doc) for n, doc in enumerate(found, start=1))


def _documents(text: str) -> list[Any]:
    """The records of a file: one JSON document, a JSON list of them, or JSON Lines."""
    try:
        whole = _loads(text)
    except ValueError:
        return [_loads(line) for line in text.splitlines() if line.strip()]
    return whole if isinstance(whole, list) else [whole]


def _loads(text: str) -> Any:
    """A JSON document; ValueError when it is not one, or nests deeper than the parser's stack
    reaches (the file is then named with why, not a traceback)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise ValueError("lists and objects nested too deep") from None
