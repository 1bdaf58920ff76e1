"""The ``tabletape`` command."""

from __future__ import annotations

import os
from typing import Any

import click

from service.config import load_config
from service.embedded import EmbeddedRedis, ensure_embedded_redis


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

    try:
        Server().run()
    finally:
        if embedded is not None:
            embedded.stop()


@main.command()
@click.option("--burst", is_flag=True, help="stop once the queues are empty")
def worker(burst: bool) -> None:
    """Run an RQ worker for the service's queues (REDIS_URL, else the embedded Redis)."""
    from workers.queues import run_worker

    config = load_config()
    url = config["REDIS_URL"] or ensure_embedded_redis(config["DATA_DIR"])
    run_worker(url, burst=burst)


if __name__ == "__main__":
    main()
