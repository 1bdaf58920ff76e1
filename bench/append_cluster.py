"""Measurement 5: appends through HTTP, the API on a 3-master Redis Cluster vs. on one Redis.

Both sides are the full API under the same gunicorn settings and the same clients as measurement 1,
timed the same way (rounds alternating which side goes first, the same seeds on both sides of a
round). Only the store differs:

- ``single``: one plain redis-server, started for this figure;
- ``cluster``: three masters, no replicas (so no WAIT), started with ``tests/redis_cluster.py``.

Every redis-server here is the same binary with the same flags (loopback TCP, nothing persisted),
bar the cluster ones; the bench's own Redis (embedded: a Unix socket with an append-only file)
would differ from the cluster in transport and persistence as well. RQ's queue is on the bench's
own Redis for both sides (QUEUE_REDIS_URL: RQ does not run on a cluster). No product target.
"""

from __future__ import annotations

import dataclasses
import subprocess
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import Any, cast

import redis

from bench.append_http import combine
from bench.load import LoadResult, run_load
from bench.redis_target import RedisTarget
from bench.servers import free_port, running_server
from bench.settings import Settings
from bench.stats import latency_summary, ratio
from service.store.embedded import die_with_parent
from tests.redis_cluster import LocalCluster, server_binaries

MASTERS = 3
# Redis's default: a node is marked failing only after 15 s unanswered. The tests' 1 s could mark
# a master failing (and the cluster down) while the machine is saturated by the load itself.
NODE_TIMEOUT_MS = 15_000
START_TIMEOUT = 30.0


def measure(target: RedisTarget, settings: Settings, log: Any) -> dict[str, Any]:
    folder = target.workdir / "cluster-figure"
    with ExitStack() as stack:
        single_url, single_nodes = stack.enter_context(_plain_redis(folder / "single"))
        cluster = LocalCluster(folder / "cluster", masters=MASTERS, node_timeout_ms=NODE_TIMEOUT_MS)
        # stop() first, then start(): a start that fails stops what it started itself, and the
        # callback is in place before any node exists.
        stack.callback(cluster.stop)
        cluster.start(timeout=START_TIMEOUT)
        cluster_nodes = [cluster.node(port) for port in cluster.ports]
        for node in cluster_nodes:
            stack.callback(node.close)

        # The same key prefix as the rest of the run; the queue's keys land on the bench's Redis,
        # whose prefixed keys are removed at the end.
        stores = {
            "single": dataclasses.replace(target, url=single_url, queue_url=target.url),
            "cluster": dataclasses.replace(target, url=cluster.url, queue_url=target.url),
        }
        cpu_of = {"single": _NodesCpu(single_nodes), "cluster": _NodesCpu(cluster_nodes)}
        servers = {
            side: stack.enter_context(
                running_server("full", store, settings.workers, settings.threads)
            )
            for side, store in stores.items()
        }
        runs: dict[str, list[LoadResult]] = {"single": [], "cluster": []}
        for round_number in range(settings.rounds):
            order = ("single", "cluster") if round_number % 2 == 0 else ("cluster", "single")
            for side in order:
                result = run_load(
                    servers[side],
                    cast(redis.Redis, cpu_of[side]),
                    clients=settings.clients,
                    first_seed=10_000 * (round_number + 1),
                    warmup=settings.warmup,
                    duration=settings.duration,
                )
                runs[side].append(result)
                log(
                    f"  round {round_number + 1} {side:7}: {result.throughput:7.0f} appends/s,"
                    f" p99 {latency_summary(result.latencies)['p99_ms']:.2f} ms,"
                    f" clients per worker {'+'.join(map(str, result.placement))}"
                )

    sides = {side: combine(results) for side, results in runs.items()}
    single, clustered = sides["single"], sides["cluster"]
    return {
        "masters": MASTERS,
        "replicas_per_master": 0,
        "queue_redis": "the bench's own Redis",
        "single": single,
        "cluster": clustered,
        "ratios": {
            "throughput_cluster_over_single": ratio(clustered["throughput"], single["throughput"]),
            "p50_cluster_over_single": ratio(
                clustered["latency"]["p50_ms"], single["latency"]["p50_ms"]
            ),
            "p99_cluster_over_single": ratio(
                clustered["latency"]["p99_ms"], single["latency"]["p99_ms"]
            ),
            "server_cpu_per_append_cluster_over_single": ratio(
                clustered["server_cpu_us_per_append"], single["server_cpu_us_per_append"]
            ),
            "redis_cpu_per_append_cluster_over_single": ratio(
                clustered["redis_cpu_us_per_append"], single["redis_cpu_us_per_append"]
            ),
        },
    }


class _NodesCpu:
    """What ``load.run_load`` asks of a Redis client for the store's CPU (``info("cpu")``),
    summed over the nodes of the store: all of a cluster's masters, or the one server."""

    def __init__(self, nodes: list[redis.Redis]) -> None:
        self.nodes = nodes

    def info(self, section: str) -> dict[str, float]:
        totals = {"used_cpu_user": 0.0, "used_cpu_sys": 0.0}
        for node in self.nodes:
            info = node.info(section)
            for name in totals:
                totals[name] += float(info[name])
        return totals


@contextmanager
def _plain_redis(folder: Path) -> Iterator[tuple[str, list[redis.Redis]]]:
    """One plain redis-server: the cluster nodes' binary and flags, without cluster mode."""
    server, _cli = server_binaries()
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    command = [
        server,
        "--port", str(port),
        "--bind", "127.0.0.1",
        "--appendonly", "no",
        "--save", "",
        "--dir", str(folder),
        "--daemonize", "no",
        "--logfile", str(folder / "redis.log"),
    ]  # fmt: skip
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=die_with_parent,
    )
    node = redis.Redis(port=port, decode_responses=True, socket_timeout=5)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"redis-server :{port} exited; see {folder / 'redis.log'}")
            with suppress(redis.ConnectionError):
                if node.ping():
                    break
            if time.monotonic() > deadline:
                raise TimeoutError(f"redis-server :{port} did not answer")
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}", [node]
    finally:
        node.close()
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
