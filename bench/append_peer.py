"""Measurement 6: appends through HTTP, the API vs. a peer built on the ``eventsourcing`` library
with its PostgreSQL recorder (``bench.peer_app``).

Both sides validate the same scripted Mada moves with the same reducer, under the same gunicorn
settings and clients, timed as in measurement 1 (rounds alternating which side goes first, the same
seeds on both sides of a round). What differs is the store and the code around it: Redis with the
API's Lua script and hash chain, or PostgreSQL through the library's Application, aggregate cache
and recorder. The product's target: the API's throughput at least 1.5x the peer's.

Durability is made alike: the bench's Redis writes its append-only file with ``appendfsync
everysec`` (a crash may lose the last second), so the peer's sessions commit with
``synchronous_commit=off`` (a crash may lose the last few hundred milliseconds; never corrupts).

PostgreSQL is the one the library's own settings name (POSTGRES_HOST, POSTGRES_PORT,
POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DBNAME), else 127.0.0.1:5432, user and database
``postgres``. The peer's tables live in a schema of this run's own, dropped at the end.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import psutil
import redis

from bench.append_http import alternate_rounds, combine
from bench.redis_target import RedisTarget
from bench.servers import Server, running_server
from bench.settings import Settings
from bench.stats import ratio

TARGET_THROUGHPUT = 1.5

_CONNECTION_DEFAULTS = {
    "POSTGRES_HOST": "127.0.0.1",
    "POSTGRES_PORT": "5432",
    "POSTGRES_USER": "postgres",
    "POSTGRES_PASSWORD": "",
    "POSTGRES_DBNAME": "postgres",
}
# Commits acknowledged before the WAL is flushed: the durability of the bench's Redis (above).
COMMIT_SETTING = "-c synchronous_commit=off"


def measure(
    full: Server, target: RedisTarget, redis_client: redis.Redis, settings: Settings, log: Any
) -> dict[str, Any]:
    with ExitStack() as stack:
        try:
            env = stack.enter_context(_peer_database(target))
        except Exception as error:  # eventsourcing not installed, PostgreSQL not reached
            log(f"  skipped: {type(error).__name__}: {error}")
            return {"skipped": f"{type(error).__name__}: {error}"}
        peer = stack.enter_context(
            running_server("peer", target, settings.workers, settings.threads, env)
        )
        runs = alternate_rounds(
            (peer, full), redis_client, settings, log, store_cpu={"peer": _postgres_cpu}
        )

    sides = {kind: combine(results) for kind, results in runs.items()}
    full_side, peer_side = sides["full"], sides["peer"]
    throughput_ratio = ratio(full_side["throughput"], peer_side["throughput"])
    return {
        "peer": peer_side,
        "full": full_side,
        "postgres": {
            name: env[name] for name in ("POSTGRES_HOST", "POSTGRES_PORT", "POSTGRES_DBNAME")
        },
        "peer_commit": COMMIT_SETTING,
        "ratios": {
            "throughput_full_over_peer": throughput_ratio,
            "p50_full_over_peer": _latency_ratio(full_side, peer_side, "p50_ms"),
            "p90_full_over_peer": _latency_ratio(full_side, peer_side, "p90_ms"),
            "p99_full_over_peer": _latency_ratio(full_side, peer_side, "p99_ms"),
            "server_cpu_per_append_full_over_peer": ratio(
                full_side["server_cpu_us_per_append"], peer_side["server_cpu_us_per_append"]
            ),
            "store_cpu_per_append_full_over_peer": ratio(
                full_side["redis_cpu_us_per_append"], peer_side["redis_cpu_us_per_append"]
            ),
        },
        "targets": {
            "throughput_at_least_1.5x_peer": {
                "target": TARGET_THROUGHPUT,
                "measured": throughput_ratio,
                "met": throughput_ratio >= TARGET_THROUGHPUT,
            },
        },
    }


def _latency_ratio(full: dict[str, Any], peer: dict[str, Any], name: str) -> float:
    return ratio(full["latency"][name], peer["latency"][name])


@contextmanager
def _peer_database(target: RedisTarget) -> Iterator[dict[str, str]]:
    """The peer's environment, with a schema of this run's own and the library's tables in it
    (made here once: two workers making them at once could collide); dropped at the end."""
    import psycopg

    from bench.peer_app import LIBRARY_SETTINGS, MadaGames

    env = {name: os.environ.get(name) or default for name, default in _CONNECTION_DEFAULTS.items()}
    env["POSTGRES_SCHEMA"] = "bench_" + re.sub(r"[^a-z0-9_]", "_", target.prefix.lower())
    env["PGOPTIONS"] = COMMIT_SETTING
    conninfo = psycopg.conninfo.make_conninfo(
        host=env["POSTGRES_HOST"],
        port=env["POSTGRES_PORT"],
        user=env["POSTGRES_USER"],
        password=env["POSTGRES_PASSWORD"] or None,
        dbname=env["POSTGRES_DBNAME"],
        connect_timeout=5,
    )
    with psycopg.connect(conninfo, autocommit=True) as admin:
        admin.execute(f'CREATE SCHEMA "{env["POSTGRES_SCHEMA"]}"')
        try:
            MadaGames(env={**LIBRARY_SETTINGS, **env}).close()
            yield env
        finally:
            admin.execute(f'DROP SCHEMA "{env["POSTGRES_SCHEMA"]}" CASCADE')


def _postgres_cpu() -> float:
    """CPU seconds used so far by PostgreSQL's processes (others' sessions included: the machine
    is shared, so read it as an upper bound)."""
    total = 0.0
    for process in psutil.process_iter(["name", "cpu_times"]):
        times = process.info["cpu_times"]
        if process.info["name"] == "postgres" and times is not None:
            total += times.user + times.system
    return total
