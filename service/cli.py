"""The ``tabletape`` command."""

from __future__ import annotations

import gc
import json
import os
import sys
from typing import Any

import click

from service.config import load_config
from service.embedded import EmbeddedRedis
from service.stats_cli import stats


@click.group()
def main() -> None:
    """Tabletape: record, replay and audit tabletop games."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--workers", default=2, show_default=True, type=int, help="gunicorn processes")
@click.option("--threads", default=4, show_default=True, type=int, help="threads per process")
def serve(host: str, port: int, workers: int, threads: int) -> None:
    """Serve the API with gunicorn, on REDIS_URL or else on an embedded Redis."""
    from gunicorn.app.base import BaseApplication

    config = load_config()
    embedded: EmbeddedRedis | None = None
    if not config["REDIS_URL"]:
        embedded = EmbeddedRedis(config["DATA_DIR"])
        os.environ["REDIS_URL"] = embedded.start()
        click.echo(f"embedded Redis at {embedded.url}, data in {embedded.data_dir}")

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            settings: dict[str, Any] = {
                "bind": f"{host}:{port}",
                "workers": workers,
                "threads": threads,
                "worker_class": "gthread",
                "accesslog": "-",
                "graceful_timeout": 10,
            }
            for name, value in settings.items():
                self.cfg.set(name, value)

        def load(self) -> Any:
            from service import create_app

            return create_app()

    # Objects made before the fork stay out of the workers' collections: no page of them is copied
    # by a worker's first full collection (a one-time jump of its memory).
    gc.freeze()
    try:
        Server().run()
    finally:
        if embedded is not None:
            embedded.stop()


def _services() -> Any:
    from service.app import build_services

    return build_services(load_config())


@main.command()
@click.option("--burst", is_flag=True, help="stop once the queues are empty")
def worker(burst: bool) -> None:
    """Run an RQ worker for the service's queues (REDIS_URL, else the embedded Redis).

    At start it enqueues every finished game that is not archived yet (see ``reconcile``).
    """
    from workers.queues import raw_connection, reconcile, run_worker

    services = _services()
    reconcile(services.store, services.archive_queue)
    run_worker(raw_connection(services.client), services.store.prefix, burst=burst)


@main.command("reconcile")
def reconcile_command() -> None:
    """Enqueue the archiving of every finished game that is not archived yet."""
    from workers.queues import reconcile

    services = _services()
    click.echo(f"{reconcile(services.store, services.archive_queue)} games enqueued")


@main.command()
@click.argument("game_id")
def audit(game_id: str) -> None:
    """Replay a game, verify its hash chain and archive; exit 1 if anything is wrong."""
    services = _services()
    report = services.games.audit(services.games.get(game_id))
    click.echo(json.dumps(report.as_json(), indent=2))
    sys.exit(0 if report.ok else 1)


@main.command()
@click.argument("game_id")
@click.option("-o", "--output", type=click.File("w"), default="-", help="file (default: stdout)")
def export(game_id: str, output: Any) -> None:
    """Write a game's whole record as one JSON document."""
    services = _services()
    document = services.games.export(services.games.get(game_id))
    output.write(json.dumps(document, indent=1) + "\n")


@main.command("import")
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
def import_command(files: tuple[str, ...]) -> None:
    """Import exported records, each as a new game; a bad record is rejected whole."""
    from marshmallow import ValidationError

    from domain.errors import TabletapeError
    from service.schemas import RecordSchema

    services = _services()
    failures = []
    with click.progressbar(files, label="importing", file=sys.stderr) as bar:
        for path in bar:
            try:
                with open(path, encoding="utf-8") as file:
                    document = RecordSchema().load(json.load(file))
                record, token = services.games.import_record(document)
            except (ValueError, ValidationError, TabletapeError) as error:
                failures.append(f"{path}: {getattr(error, 'message', None) or error}")
                continue
            click.echo(f"{path}: game {record.id} (token {token})")
    for failure in failures:
        click.echo(f"rejected {failure}", err=True)
    sys.exit(1 if failures else 0)


main.add_command(stats)


if __name__ == "__main__":
    main()
