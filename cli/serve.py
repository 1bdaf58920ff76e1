"""``tabletape serve``: the API under gunicorn, with the archive worker beside it."""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any

import click

from cli.archiver import SupervisedWorker
from service.network import is_loopback, network_origin

# Seconds gunicorn gives the requests in flight once asked to stop.
GRACEFUL_SECONDS = 3
# How long the server may take to answer its first request before its addresses are said anyway.
READY_SECONDS = 30


@click.command(short_help="Serve the HTTP API (gunicorn).")
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
    # The workers load their settings from the environment: where the server listens, for the
    # pages to hand out links the other phones reach (service.pages.addresses).
    os.environ["TABLETAPE_LISTEN"] = f"{host}:{port}"
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
    supervised = SupervisedWorker() if archive_worker else None

    def when_ready(arbiter: Any) -> None:
        stop_gracefully_on_any_signal(arbiter, supervised)
        threading.Thread(
            target=say_where_to_open, args=(host, port), name="addresses", daemon=True
        ).start()

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            settings: dict[str, Any] = {
                "bind": f"{host}:{port}",
                "workers": workers,
                "threads": threads,
                "worker_connections": connections,
                "worker_class": worker_class_name(worker_class),
                "accesslog": "-",
                # The requests in flight are answered within it; past it their workers are
                # stopped. With the rest of the stop, the server is gone within 5 s.
                "graceful_timeout": GRACEFUL_SECONDS,
                "when_ready": when_ready,
                "post_worker_init": leave_interrupts_to_the_master,
                "worker_exit": exit_at_once,
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


def stop_gracefully_on_any_signal(arbiter: Any, supervised: SupervisedWorker | None) -> None:
    """In gunicorn's master, once it serves: SIGINT (Ctrl-C) stops it as SIGTERM does, answering
    the requests in flight (gunicorn's own SIGINT drops them), and either asks the archive worker
    to stop at once, so that it is not started again while the server stops."""

    def stop(signum: int, frame: Any) -> None:
        if supervised is not None:
            supervised.stop_soon()
        arbiter.signal(signal.SIGTERM, frame)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)


def leave_interrupts_to_the_master(worker: Any) -> None:
    """In each gunicorn worker: a terminal's Ctrl-C reaches every process of the server; the
    master alone acts on it, stopping the workers gracefully (SIGTERM), so that their requests
    in flight are answered."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def exit_at_once(arbiter: Any, worker: Any) -> None:
    """In each gunicorn worker, once it has answered its requests and closed: exit now. Beside
    the archive worker's supervisor, a worker otherwise lingers at Python's exit (on what the
    fork copied of the master's threads) until gunicorn kills it at the graceful timeout."""
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def say_where_to_open(host: str, port: int) -> None:
    """Once the server answers, its last lines: where to open it on this machine and, when it
    listens beyond loopback, on the local network, where the other phones at the table open it;
    when it listens on loopback only, that they cannot, and how to start it so that they can."""
    here = "127.0.0.1" if host in ("0.0.0.0", "") or is_loopback(host) else host
    here = "[::1]" if host == "::" else (f"[{here}]" if ":" in here else here)
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://{here}:{port}/health", timeout=1):
                break
        except urllib.error.HTTPError:  # an answer all the same (503: the store is down)
            break
        except OSError:  # not answering yet
            time.sleep(0.2)
    # The workers' own start lines first.
    time.sleep(0.3)
    lines = [f"Tabletape is ready. Open it on this machine: http://{here}:{port}/new"]
    network = network_origin(host, port)
    if network is not None:
        lines.append(f"On the local network, for the other phones at the table: {network}/new")
    elif is_loopback(host):
        lines.append(
            "Other phones cannot reach it: it listens on this machine only. For them to, start"
            " it with: tabletape serve --host 0.0.0.0"
        )
    click.echo("\n".join(lines))


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
