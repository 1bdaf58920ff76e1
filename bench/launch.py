"""Entry point of a server under test: ``python -m bench.launch full|bare --port P ...``.

Every server goes through the product's own ``tabletape serve`` command, so they run under exactly
the gunicorn settings the product ships (worker class, threads, access log, timeouts). For the
baseline and the peer, the app factory that command loads is swapped for theirs; the bench then
checks, through ``/health``, that it got the app it asked for.
"""

from __future__ import annotations

import argparse
import os

import service

# The worker class of `tabletape serve` for every server of the run (`python -m bench
# --worker-class`); unset: serve's default.
WORKER_CLASS_VARIABLE = "TABLETAPE_BENCH_WORKER_CLASS"


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.launch")
    parser.add_argument("kind", choices=["full", "bare", "peer"])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, required=True)
    parser.add_argument("--threads", type=int, required=True)
    args = parser.parse_args()
    if args.kind == "bare":
        from bench.bare_app import create_bare_app

        # `tabletape serve` loads the app with `from service import create_app` in each worker.
        service.create_app = create_bare_app  # type: ignore[assignment]
    elif args.kind == "peer":
        from bench.peer_app import create_peer_app

        service.create_app = create_peer_app  # type: ignore[assignment]

    from cli import main as tabletape

    tabletape(
        [
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(args.port),
            "--workers",
            str(args.workers),
            "--threads",
            str(args.threads),
            # The archive worker `serve` runs by default is a child too: its jobs would take the
            # timed windows' CPU, and its forked work-horses come and go among the processes
            # the figures read (memory, which worker holds a connection).
            "--no-worker",
            *(
                ["--worker-class", worker_class]
                if (worker_class := os.environ.get(WORKER_CLASS_VARIABLE))
                else []
            ),
        ]
    )


if __name__ == "__main__":
    main()
