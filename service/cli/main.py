"""The ``tabletape`` command."""

from __future__ import annotations

import gc
import json
import os
import random
import sys
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import click

from service.cli.archiver import SupervisedWorker
from service.cli.stats import stats

# The configuration, the store and Redis are imported by the commands that use them, not here:
# `tabletape verify` checks records with no server and no store, and loads no Redis client.


@click.group(context_settings={"max_content_width": 100})
def main() -> None:
    """Tabletape: record, replay and audit tabletop games.

    Every command works on the service's Redis: the server REDIS_URL names (a plain Redis, or any
    node of a Redis Cluster; RQ's queue is then on the plain Redis QUEUE_REDIS_URL names) or, when
    it is unset, the embedded Redis that `tabletape serve` starts in TABLETAPE_DATA_DIR (default
    .data), and on the keys under TABLETAPE_KEY_PREFIX (default tt:). Archives are files in
    ARCHIVE_DIR (default DATA_DIR/archive). `tabletape COMMAND --help` tells more about each
    command.
    """


@main.command(short_help="Serve the HTTP API (gunicorn).")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--workers", default=2, show_default=True, type=int, help="gunicorn processes")
@click.option(
    "--worker-class",
    type=click.Choice(["gevent", "gthread"]),
    default="gevent",
    show_default=True,
    help="gevent: a greenlet per connection; gthread: a pool of --threads threads per process",
)
@click.option(
    "--connections",
    default=10_000,
    show_default=True,
    type=click.IntRange(min=2),
    help="gevent: connections per process at once",
)
@click.option(
    "--threads", default=16, show_default=True, type=int, help="gthread: threads per process"
)
@click.option(
    "--worker/--no-worker",
    "archive_worker",
    default=True,
    show_default=True,
    help="run the archive worker too (off where `tabletape worker` runs apart)",
)
def serve(
    host: str,
    port: int,
    workers: int,
    worker_class: str,
    connections: int,
    threads: int,
    archive_worker: bool,
) -> None:
    """Serve the API with gunicorn, on REDIS_URL or else on an embedded Redis.

    gunicorn runs WORKERS processes, answering gunicorn's own errors in the API's JSON error
    body (service/api/gunicorn_worker.py). A live stream (GET /games/{id}/stream) holds its
    connection for its whole life, and each process reads each followed game once from Redis for
    all its followers. The worker class decides what a connection costs:

    \b
    gevent (default): a greenlet each, up to --connections per process. Each process serves at
    most TABLETAPE_STREAM_LIMIT streams (default and cap: 9/10 of --connections, the rest left to
    appends and reads).
    gthread: a thread each, from a pool of --threads per process. So that streams never starve
    appends and reads, each process serves at most TABLETAPE_STREAM_LIMIT streams (default 8),
    capped at half of --threads.

    More streams are refused with 503; each ends after TABLETAPE_STREAM_SECONDS (default 300;
    the client resumes it with Last-Event-ID).

    With it, by default, the archive worker (`tabletape worker`, in a child process it supervises):
    a finished game is archived, counted and rated within seconds. --no-worker where workers run
    apart.
    """
    from gunicorn.app.base import BaseApplication

    from service.api.gunicorn_worker import worker_class as worker_class_name
    from service.config import load_config
    from service.store.embedded import EmbeddedRedis

    _check_address_free(host, port)
    config = load_config()
    streams = _stream_limit(config["STREAM_LIMIT"], worker_class, connections, threads)
    # The workers load their settings from the environment.
    os.environ["TABLETAPE_STREAM_LIMIT"] = str(streams)
    if worker_class == "gevent":
        _raise_open_files_limit(connections + 1000)
    embedded: EmbeddedRedis | None = None
    if not config["REDIS_URL"]:
        embedded = EmbeddedRedis(config["DATA_DIR"])
        os.environ["REDIS_URL"] = embedded.start()
        click.echo(f"embedded Redis at {embedded.url}, data in {embedded.data_dir}")
    try:
        _check_durability(config, own_server=embedded is not None)
        _ensure_signing_key(config)
    except click.ClickException:
        if embedded is not None:
            embedded.stop()
        raise

    control_socket = os.path.abspath(os.path.join(config["DATA_DIR"], "gunicorn.ctl"))

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            settings: dict[str, Any] = {
                "bind": f"{host}:{port}",
                "workers": workers,
                "threads": threads,
                "worker_connections": connections,
                "worker_class": worker_class_name(worker_class),
                "accesslog": "-",
                "graceful_timeout": 10,
            }
            # gunicorn's control socket (gunicorn 25.1 on) is by default one in the home folder,
            # which every server on the machine would share: each has its own, beside its data.
            if "control_socket" in self.cfg.settings:
                settings["control_socket"] = control_socket
            for name, value in settings.items():
                self.cfg.set(name, value)

        def load(self) -> Any:
            from service import create_app

            return create_app()

    supervised = SupervisedWorker() if archive_worker else None
    if supervised is not None:
        supervised.start()
    # Objects made before the fork stay out of the workers' collections: no page of them is copied
    # by a worker's first full collection (a one-time jump of its memory).
    gc.freeze()
    try:
        Server().run()
    finally:
        if supervised is not None:
            supervised.stop()
        if embedded is not None:
            embedded.stop()


def _check_address_free(host: str, port: int) -> None:
    """Say at once, and how to mend it, when the address is taken (gunicorn would retry for five
    seconds, then say "Can't connect")."""
    import socket

    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            raise click.ClickException(
                f"cannot serve on {host}:{port}: {error.strerror or error}. Another program (or"
                " another `tabletape serve`) uses that port: choose another with --port, or stop"
                " it"
            ) from None


def _check_durability(config: Mapping[str, Any], *, own_server: bool) -> None:
    """Check the store against DURABILITY here, before gunicorn takes the port: a store that
    cannot give it stops the command at once, with the reason. (Each worker checks it too, as
    it builds its app; found there, its master would hold the port while workers failed to
    start, and /health would never answer.) The embedded Redis, ``own_server``, is set as
    needed, and the workers then find it so. In the default mode nothing is asked of the store:
    the service starts whether it answers or not (/health says so)."""
    import redis

    from service.app import redis_client
    from service.store.durability import EVERYSEC, DurabilityError, check_durability

    if config["DURABILITY"] == EVERYSEC:
        return
    url = config["REDIS_URL"] or os.environ["REDIS_URL"]  # serve's embedded Redis: set above
    try:
        client = redis_client({**config, "REDIS_URL": url})
        try:
            check_durability(client, config["DURABILITY"], own_server=own_server)
        finally:
            client.close()
    except DurabilityError as error:
        raise click.ClickException(str(error)) from None
    except redis.RedisError as error:
        raise click.ClickException(
            f"DURABILITY={config['DURABILITY']}: the store cannot be asked how it writes to disk"
            f" ({error})"
        ) from None


def _ensure_signing_key(config: Mapping[str, Any]) -> None:
    """The key that signs games' heads: SIGNING_KEY's, else the one kept in DATA_DIR, made here
    at the first start (before gunicorn forks: its workers then all find the same one). Said
    where, with its verifier key, the one `tabletape verify --key` takes."""
    from service.signing.keys import KeyRing, SigningKeyError, key_path, make_key, signer_name
    from service.signing.note import NoteError

    path = key_path(config)
    try:
        name = signer_name(config["SIGNER_NAME"])
        if config["SIGNING_KEY"] and not path.exists():
            raise click.ClickException(
                f"SIGNING_KEY names {path}, which does not exist: `tabletape keygen` makes a key"
                " there"
            )
        made = not path.exists() and make_key(path, name)
        vkey = KeyRing(path, name).signer().verifier
    except (SigningKeyError, NoteError, OSError) as error:
        raise click.ClickException(f"the signing key: {error}") from None
    click.echo(f"signing key {'made ' if made else ''}in {path.resolve()}; verifier key {vkey}")


def _stream_limit(configured: int, worker_class: str, connections: int, threads: int) -> int:
    """The live streams each process serves at once: TABLETAPE_STREAM_LIMIT, else the worker
    class's default, within the worker class's cap (told on stderr when it cuts it)."""
    from service.config import environment_value

    if worker_class == "gevent":
        cap, what = connections * 9 // 10, f"9/10 of --connections {connections}"
        wanted = configured if environment_value("STREAM_LIMIT") else cap
    else:
        cap, what = threads // 2, f"half of --threads {threads}"
        wanted = configured
    if wanted > cap:
        click.echo(f"live streams limited to {cap} per process ({what})", err=True)
    return min(wanted, cap)


def _raise_open_files_limit(wanted: int) -> None:
    """Each connection is a file descriptor: lift the soft limit of open files towards
    ``wanted``, as far as the hard limit allows (the workers inherit it)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
        if raised < wanted:
            click.echo(
                f"open files limited to {raised} per process (ulimit -Hn): fewer connections"
                " than --connections may be served",
                err=True,
            )


def _services() -> Any:
    from service.app import build_services
    from service.config import load_config
    from service.store.durability import DurabilityError

    try:
        return build_services(load_config())
    except DurabilityError as error:
        # A setting the store cannot honour: said in a line, not a traceback.
        raise click.ClickException(str(error)) from None


@main.command(short_help="Run an RQ worker: archives finished games.")
@click.option("--burst", is_flag=True, help="stop once the queues are empty")
def worker(burst: bool) -> None:
    """Run an RQ worker for the service's queues (on QUEUE_REDIS_URL, else REDIS_URL, else the
    embedded Redis); its jobs read the games from REDIS_URL's store.

    At start it enqueues every finished game that is not archived yet (see ``reconcile``).
    """
    from workers.queues import reconcile, run_worker

    services = _services()
    reconcile(services.store, services.archive_queue)
    # The queue's Redis (QUEUE_REDIS_URL): the store may be a cluster, where RQ does not run.
    run_worker(services.archive_queue.queue.connection, services.store.prefix, burst=burst)


@main.command("reconcile", short_help="Enqueue the archiving of games not archived yet.")
def reconcile_command() -> None:
    """Enqueue the archiving of every finished game that is not archived yet."""
    from workers.queues import reconcile

    services = _services()
    click.echo(f"{reconcile(services.store, services.archive_queue)} games enqueued")


@main.command(short_help="Verify a game's replay, hash chain and archive.")
@click.argument("game_id")
def audit(game_id: str) -> None:
    """Replay a game, verify its hash chain and archive; exit 1 if anything is wrong (a record
    damaged in the store included: the problems name the event or the header field)."""
    from domain.errors import TabletapeError

    services = _services()
    try:
        report = services.games.audit_by_id(game_id)
    except TabletapeError as error:
        raise click.ClickException(error.message) from None
    click.echo(json.dumps(report.as_json(), indent=2))
    sys.exit(0 if report.ok else 1)


@main.command(short_help="Write games' whole records as JSON.")
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
    services = _services()
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


@main.command("import", short_help="Import exported records, or a group's history.")
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

    With --bgstats FILE or --bgg FILE, import a group's history instead (docs/bringing-history-
    in.md): each play a finished score sheet with its own dates, a play imported before not
    imported again, one that cannot be read skipped with its reason."""
    if bgstats or bgg:
        if paths or (bgstats and bgg):
            raise click.UsageError("give one of --bgstats FILE, --bgg FILE, or record PATHS")
        _import_history(bgstats, bgg, names)
        return
    if not paths:
        raise click.UsageError("name the records to import, or give --bgstats FILE or --bgg FILE")
    from marshmallow import ValidationError

    from domain.errors import TabletapeError
    from service.api.schemas import RecordSchema

    services = _services()
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


def _import_history(bgstats: str | None, bgg: str | None, given: tuple[str, ...]) -> None:
    """Import the plays of a BG Stats backup or of BoardGameGeek's XML, with a progress bar;
    print what was imported, already here and skipped. Exit 1 if the file is not one."""
    from pathlib import Path

    from service.imports import History, Play
    from service.imports import bgg as bgg_reader
    from service.imports import bgstats as bgstats_reader

    names = {}
    for pair in given:
        there, equals, here = pair.partition("=")
        if not equals or not there or not here:
            raise click.UsageError(f"--name takes THERE=HERE, not {pair!r}")
        names[there] = here
    path = Path(bgstats or bgg or "")
    try:
        if bgstats:
            export, mapped = bgstats_reader.export_and_names(json.loads(path.read_bytes()))
            found = bgstats_reader.read_plays(export, {**mapped, **names})
        else:
            found = bgg_reader.read_plays(path.read_bytes(), names)
    except (ValueError, OSError) as error:
        raise click.ClickException(f"{path}: {error}") from None
    services = _services()
    history = History(services.games.records, services.store.indexes)
    plays = sum(1 for one in found if isinstance(one, Play))
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
        whole = json.loads(text)
    except ValueError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return whole if isinstance(whole, list) else [whole]


@main.command(short_help="Print a game move by move.")
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

    services = _services()
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
        click.echo(f"result: {_result(record.result, names)}")
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


def _result(result: Mapping[str, Any], names: Sequence[str]) -> str:
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


PLAYER_NAMES = ("Ana", "Ben", "Caro", "Dan", "Eva", "Finn", "Gus", "Hana")


@main.command(short_help="Record N random complete games (demo data, load).")
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
    services = _services()
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
                    outcome = _result(result, seated)
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


@main.command(short_help="Make a new signing key; the earlier ones stay listed.")
def keygen() -> None:
    """Make a new Ed25519 key for signing games' heads, in the file SIGNING_KEY names (else
    DATA_DIR/signing/key), and make it the current one: the service signs with it from its next
    note on (no restart needed). The key it replaces stays listed at GET /keys (in the list kept
    beside the key file, <key>.keys), so the notes it signed still verify. Prints the new
    verifier key, what `tabletape verify --key` takes."""
    from service.config import load_config
    from service.signing.keys import SigningKeyError, key_path, keygen, signer_name
    from service.signing.note import NoteError

    config = load_config()
    path = key_path(config)
    try:
        vkey = keygen(path, signer_name(config["SIGNER_NAME"]))
    except (SigningKeyError, NoteError, OSError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"new signing key in {path.resolve()}; verifier key {vkey}")


@main.command(short_help="Check exported records, with no server and no store.")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--key",
    "vkey",
    metavar="VKEY",
    help="the verifier key the note must be signed with (one of the service's GET /keys)",
)
def verify(files: tuple[str, ...], vkey: str | None) -> None:
    """Check exported records (GET /games/{id}/export, `tabletape export`, or an archive file),
    from the files alone: no server, no store. For each: the seed against its commitment, a
    replay of every move by the rules, every event's hash and the chain to the head, and the
    signed note (its signature by VKEY, its head and version the record's). One sentence per
    file: what holds, or the first thing that does not. Without --key the note is checked
    against the key the file names, which says nothing of who signed it (said so). Exit 0 only
    when every file holds."""
    from service.plugins import load_games
    from service.signing.note import NoteError, VerifierKey
    from service.signing.verify import records_in
    from service.signing.verify import verify as verify_record

    # Games from other packages, as the service loads them (TABLETAPE_GAMES); no configuration
    # is read beyond it (service.config would load the store's client).
    load_games(os.environ.get("TABLETAPE_GAMES", os.environ.get("GAMES", "")))
    try:
        pinned = VerifierKey.parse(vkey) if vkey is not None else None
    except NoteError as error:
        raise click.BadParameter(str(error), param_hint="--key") from None
    failed = 0
    for path in files:
        for where, document in records_in(path):
            verdict = verify_record(document, pinned)
            failed += not verdict.ok
            click.echo(f"{where}: {'holds' if verdict.ok else 'REFUSED'}: {verdict.sentence}.")
    sys.exit(1 if failed else 0)


main.add_command(stats)


if __name__ == "__main__":
    main()
