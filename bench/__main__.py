"""``python -m bench [--quick] [--profile] [--cluster | --no-cluster] [--no-peer] [--stats]``:
run the measurements, print the report, write JSON."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import platform
import signal
import sys
import time
from pathlib import Path
from typing import Any

from bench import append_http, append_length, memory, replay
from bench.launch import WORKER_CLASS_VARIABLE
from bench.redis_target import RATE_LIMIT, redis_target
from bench.report import print_report
from bench.servers import LOGGED_ERRORS, REPO, running_server
from bench.settings import DEFAULT, QUICK

RESULTS = REPO / "bench" / "results" / "latest.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="small counts: a smoke run (~30 s)")
    parser.add_argument("--profile", action="store_true", help="also profile the append path")
    cluster = parser.add_mutually_exclusive_group()
    cluster.add_argument(
        "--cluster",
        action="store_true",
        help="also: the API on a 3-master Redis Cluster vs. one Redis, and a master killed under"
        " load (~120 s; on with --quick)",
    )
    cluster.add_argument(
        "--no-cluster", action="store_true", help="skip that figure, even with --quick"
    )
    parser.add_argument(
        "--followers",
        type=int,
        help="7. live followers (default 5,000; 500 with --quick; 0 skips the figure)",
    )
    parser.add_argument(
        "--no-peer",
        action="store_true",
        help="skip the eventsourcing + PostgreSQL peer (figure 8; skipped anyway without them)",
    )
    parser.add_argument(
        "--stats",
        action="store_true",
        help="9. also: statistics queries on 100,000 games' projections, and the rebuild (minutes)",
    )
    parser.add_argument(
        "--worker-class",
        choices=["gevent", "gthread"],
        default="gevent",
        help="tabletape serve's worker class for every server (default gevent, serve's own)",
    )
    parser.add_argument("--json", type=Path, default=RESULTS, help=f"default: {RESULTS}")
    parser.add_argument("--clients", type=int, help="concurrent clients (default 4)")
    parser.add_argument("--workers", type=int, help="gunicorn processes (default 2)")
    parser.add_argument("--threads", type=int, help="threads per gunicorn process (default 4)")
    parser.add_argument("--duration", type=float, help="seconds timed per side and round")
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else DEFAULT
    overrides = {
        name: getattr(args, name)
        for name in ("clients", "workers", "threads", "duration")
        if getattr(args, name) is not None
    }
    settings = dataclasses.replace(settings, **overrides)
    # The cluster figure costs two rounds' worth of measurement 1: cheap in a quick run only.
    with_cluster = not args.no_cluster and (args.cluster or args.quick)

    # A SIGTERM unwinds like Ctrl-C, through the finally blocks that stop servers and Redis.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    # Every server of the run goes through bench.launch, which reads it.
    os.environ[WORKER_CLASS_VARIABLE] = args.worker_class
    began = time.monotonic()
    results: dict[str, Any] = {}
    with redis_target() as target:
        results["meta"] = {
            "mode": settings.name,
            "started_at": time.strftime("%Y-%m-%d %H:%M:%S %z"),
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "redis": "embedded (unix socket)" if target.embedded else _redacted(target.url),
            "workers": settings.workers,
            "worker_class": args.worker_class,
            "threads": settings.threads,
            "clients": settings.clients,
            # Others' work on a shared machine shows here (the bench is not running yet).
            "load_average_at_start": os.getloadavg(),
            "api_rate_limit": RATE_LIMIT,
            "settings": dataclasses.asdict(settings),
        }
        redis_client = target.client()
        try:
            with (
                running_server("bare", target, settings.workers, settings.threads) as bare,
                running_server("full", target, settings.workers, settings.threads) as full,
            ):
                _log("1. appends through HTTP, API vs. bare endpoint")
                results["append_http"], typical_games = append_http.measure(
                    bare, full, redis_client, settings, _log
                )
                # On the API server measurement 1 has warmed up.
                _log("3. append cost vs. game length")
                results["append_vs_length"], long_games = append_length.measure(
                    full, settings, _log
                )
                if not args.no_peer:
                    from bench import append_peer

                    _log("8. appends through HTTP, the API vs. an eventsourcing + PostgreSQL peer")
                    results["append_peer"] = append_peer.measure(
                        full, target, redis_client, settings, _log
                    )
            _log("2. replay from the stream")
            results["replay"] = replay.measure(
                target,
                {
                    "typical games": typical_games[: settings.replay_games],
                    "long games": long_games,
                },
                settings.replay_seconds,
                _log,
            )
            _log("4. memory of the API's workers")
            results["memory"] = memory.measure(target, redis_client, settings, _log)
            if with_cluster:
                from bench import append_cluster

                _log("5. appends through HTTP, the API on a Redis Cluster vs. on one Redis")
                results["append_cluster"] = append_cluster.measure(target, settings, _log)
                from bench import failover

                _log("6. a master of a Redis Cluster killed under a load of appends")
                results["failover"] = failover.measure(target, settings, _log)
            if args.followers != 0:
                from bench import followers

                _log("7. live followers: fan-out, delivery delay, appends with and without them")
                results["followers"] = followers.measure(
                    target, redis_client, settings.name, _log, args.followers
                )
            if args.stats:
                from bench import stats_query

                _log("9. statistics you can query, on a year of a busy server")
                games, archived = (10_000, 300) if args.quick else (100_000, 2_000)
                results["stats_query"] = stats_query.measure(
                    target.url, target.prefix, games, archived, _log
                )
            if args.profile:
                from bench import profile_append

                _log("profile of the append path")
                results["profile"] = profile_append.measure(
                    target, 8000 if not args.quick else 1000, _log
                )
        finally:
            redis_client.close()

    results["meta"]["seconds"] = time.monotonic() - began
    results["meta"]["server_log_errors"] = LOGGED_ERRORS
    results["meta"]["json"] = str(args.json)
    # Keep the sections in the order the report numbers them.
    order = (
        "meta",
        "append_http",
        "replay",
        "append_vs_length",
        "memory",
        "append_cluster",
        "failover",
        "followers",
        "append_peer",
        "stats_query",
        "profile",
    )
    results = {key: results[key] for key in order if key in results}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(_finite(results), indent=2) + "\n")
    print_report(results)
    return 0


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _redacted(url: str) -> str:
    """A Redis URL without its password, if it has one."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest:
        rest = "***@" + rest.rsplit("@", 1)[1]
    return scheme + sep + rest


def _finite(value: Any) -> Any:
    """JSON has no NaN: a figure that could not be computed is null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(item) for item in value]
    return value


if __name__ == "__main__":
    sys.exit(main())
