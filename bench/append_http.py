"""Measurement 1: appends through HTTP, the real API vs. the bare endpoint.

Same gunicorn settings, same Redis, same clients, same request bytes; only the app differs. The
product's targets: the API's throughput at least 0.8x the bare endpoint's, its p99 at most 1.5x.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import redis

from bench.load import LoadResult, run_load
from bench.servers import Server
from bench.settings import Settings
from bench.stats import latency_summary, ratio

TARGET_THROUGHPUT = 0.8
TARGET_P99 = 1.5


def measure(
    bare: Server, full: Server, redis_client: redis.Redis, settings: Settings, log: Any
) -> tuple[dict[str, Any], list[str]]:
    """The figures, and the ids of the games the API recorded to their end (for the replay)."""
    runs = alternate_rounds((bare, full), redis_client, settings, log)
    sides = {kind: combine(results) for kind, results in runs.items()}
    throughput_ratio = ratio(sides["full"]["throughput"], sides["bare"]["throughput"])
    p50_ratio = ratio(sides["full"]["latency"]["p50_ms"], sides["bare"]["latency"]["p50_ms"])
    p99_ratio = ratio(sides["full"]["latency"]["p99_ms"], sides["bare"]["latency"]["p99_ms"])
    cpu_ratio = ratio(
        sides["full"]["server_cpu_us_per_append"], sides["bare"]["server_cpu_us_per_append"]
    )
    figures = {
        "bare": sides["bare"],
        "full": sides["full"],
        "ratios": {
            "throughput_full_over_bare": throughput_ratio,
            "p50_full_over_bare": p50_ratio,
            "p99_full_over_bare": p99_ratio,
            "server_cpu_per_append_full_over_bare": cpu_ratio,
        },
        "targets": {
            "throughput_at_least_0.8x_bare": {
                "target": TARGET_THROUGHPUT,
                "measured": throughput_ratio,
                "met": throughput_ratio >= TARGET_THROUGHPUT,
            },
            "p99_at_most_1.5x_bare": {
                "target": TARGET_P99,
                "measured": p99_ratio,
                "met": p99_ratio <= TARGET_P99,
            },
        },
    }
    finished = [game for result in runs["full"] for game in result.finished_games]
    return figures, finished


def alternate_rounds(
    servers: tuple[Server, Server],
    redis_client: redis.Redis,
    settings: Settings,
    log: Any,
    store_cpu: dict[str, Callable[[], float]] | None = None,
) -> dict[str, list[LoadResult]]:
    """``settings.rounds`` rounds of each server's appends, by kind; the rounds alternate which
    server goes first. ``store_cpu``: by kind, how to read its store's CPU (default: Redis's)."""
    runs: dict[str, list[LoadResult]] = {server.kind: [] for server in servers}
    for round_number in range(settings.rounds):
        sides = servers if round_number % 2 == 0 else servers[::-1]
        for server in sides:
            result = run_load(
                server,
                redis_client,
                clients=settings.clients,
                # The same seeds on both sides of a round: the same games, the same bodies.
                first_seed=10_000 * (round_number + 1),
                warmup=settings.warmup,
                duration=settings.duration,
                store_cpu=(store_cpu or {}).get(server.kind),
            )
            runs[server.kind].append(result)
            log(
                f"  round {round_number + 1} {server.kind:4}: {result.throughput:7.0f} appends/s,"
                f" p99 {latency_summary(result.latencies)['p99_ms']:.2f} ms,"
                f" clients per worker {'+'.join(map(str, result.placement))}"
            )
    return runs


def combine(results: list[LoadResult]) -> dict[str, Any]:
    """All rounds of one side as one run: appends over time, latencies pooled."""
    appends = sum(result.appends for result in results)
    seconds = sum(result.seconds for result in results)
    errors: dict[str, int] = {}
    for result in results:
        for name, number in result.errors.items():
            errors[name] = errors.get(name, 0) + number
    return {
        "appends": appends,
        "seconds": seconds,
        "throughput": ratio(appends, seconds),
        "throughput_per_round": [result.throughput for result in results],
        "latency": latency_summary([value for result in results for value in result.latencies]),
        # CPU per append: what the service costs, less blurred than throughput by the clients
        # sharing the machine's two cores.
        "server_cpu_us_per_append": ratio(sum(r.server_cpu for r in results), appends) * 1e6,
        "redis_cpu_us_per_append": ratio(sum(r.redis_cpu for r in results), appends) * 1e6,
        "client_cpu_us_per_append": ratio(sum(r.client_cpu for r in results), appends) * 1e6,
        # The share of the machine's cores used by other work during the timed windows.
        "other_cpu_share": ratio(
            sum(r.other_cpu for r in results), seconds * (os.cpu_count() or 1)
        ),
        "errors": errors,
        "reconnects": sum(result.reconnects for result in results),
        "games_started_while_timed": sum(result.refills for result in results),
        "clients_per_worker": [result.placement for result in results],
        "balanced": all(result.balanced for result in results),
    }
