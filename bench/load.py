"""Drive N client processes against one server and gather what they measured.

Clients are processes, not threads, so that the client's own Python never serialises the requests
it is meant to send concurrently. Before the timed window the parent balances their connections
across gunicorn's workers: a kept-alive connection stays with the worker that accepted it, and
4 clients split 3+1 or 4+0 instead of 2+2 would measure the accept lottery, not the service.
"""

from __future__ import annotations

import functools
import math
import multiprocessing
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection as Pipe
from typing import Any

import psutil
import redis

from bench.client import ClientPlan, client_main
from bench.servers import Server

MESSAGE_TIMEOUT = 300.0
MAX_REBALANCE = 60


@dataclass
class LoadResult:
    kind: str
    clients: int
    appends: int
    # Accepted outside the timed window (warm-up, connection checks): the server did them too.
    untimed_appends: int
    seconds: float
    latencies: list[float]
    errors: dict[str, int]
    reconnects: int
    refills: int
    # Clients per worker process (most loaded first) and whether that split is even.
    placement: list[int]
    balanced: bool
    # CPU seconds spent over the timed window by the server's workers, and by its store (Redis, or
    # the peer's PostgreSQL).
    server_cpu: float
    redis_cpu: float
    # ... by the clients, and by everything else on the machine (others' work, the kernel's share
    # not charged to a process): a busy neighbour shows here, and makes the run less comparable.
    client_cpu: float
    other_cpu: float
    finished_games: list[str]

    @property
    def throughput(self) -> float:
        return self.appends / self.seconds if self.seconds > 0 else 0.0


def run_load(
    server: Server,
    redis_client: redis.Redis,
    *,
    clients: int,
    first_seed: int,
    warmup: int,
    duration: float | None = None,
    count: int | None = None,
    store_cpu: Callable[[], float] | None = None,
) -> LoadResult:
    """Time ``clients`` concurrent clients for ``duration`` seconds, or ``count`` appends each.
    ``store_cpu``: the CPU seconds the server's store has used so far (default: Redis's)."""
    if store_cpu is None:
        store_cpu = functools.partial(_redis_cpu, redis_client)
    context = multiprocessing.get_context("fork")
    pipes: list[Pipe] = []
    processes: list[multiprocessing.process.BaseProcess] = []
    completed = False
    try:
        for index in range(clients):
            parent_end, child_end = context.Pipe()
            plan = ClientPlan(
                index=index,
                port=server.port,
                kind=server.kind,
                # Far apart: no two clients ever script the same game.
                first_seed=first_seed + index * 1_000_000,
                warmup=warmup,
                duration=duration,
                count=count,
            )
            process = context.Process(target=client_main, args=(plan, child_end), daemon=True)
            process.start()
            child_end.close()
            pipes.append(parent_end)
            processes.append(process)
        for pipe in pipes:
            expect(pipe, "prepared")
        placement, balanced = _balance(server, pipes)

        cpu_before = _server_cpu(server), store_cpu(), _machine_busy()
        for pipe in pipes:
            pipe.send("go")
        timeout = (duration or 0.0) + MESSAGE_TIMEOUT
        results = [expect(pipe, "done", timeout) for pipe in pipes]
        cpu_after = _server_cpu(server), store_cpu(), _machine_busy()
        completed = True
    finally:
        # After a failure the other clients would run on to their end: stop them now.
        for process in processes:
            process.join(timeout=5 if completed else 0)
            if process.is_alive():
                process.kill()
                process.join()
        for pipe in pipes:
            pipe.close()

    start = min(result["start"] for result in results)
    end = max(result["end"] for result in results)
    errors: dict[str, int] = defaultdict(int)
    for result in results:
        for name, number in result["errors"].items():
            errors[name] += number
    return LoadResult(
        kind=server.kind,
        clients=clients,
        appends=sum(result["appends"] for result in results),
        untimed_appends=sum(result["untimed_appends"] for result in results),
        seconds=end - start,
        latencies=[value for result in results for value in result["latencies"]],
        errors=dict(errors),
        reconnects=sum(result["reconnects"] for result in results),
        refills=sum(result["refills"] for result in results),
        placement=placement,
        balanced=balanced,
        server_cpu=cpu_after[0] - cpu_before[0],
        redis_cpu=cpu_after[1] - cpu_before[1],
        client_cpu=sum(result["cpu"] for result in results),
        other_cpu=max(
            0.0,
            (cpu_after[2] - cpu_before[2])
            - (cpu_after[0] - cpu_before[0])
            - (cpu_after[1] - cpu_before[1])
            - sum(result["cpu"] for result in results),
        ),
        finished_games=[game for result in results for game in result["finished_games"]],
    )


def _balance(server: Server, pipes: list[Pipe]) -> tuple[list[int], bool]:
    """Reconnect clients until no worker holds more than its share of the connections."""
    ports: dict[int, int] = {}
    for pipe in pipes:
        pipe.send("connect")
    for index, pipe in enumerate(pipes):
        ports[index] = expect(pipe, "connected")
    share = math.ceil(len(pipes) / server.workers)
    for _attempt in range(MAX_REBALANCE):
        by_worker, crowded = _split(server, ports, share)
        if not crowded:
            break
        moved = crowded[0][-1]
        pipes[moved].send("connect")
        ports[moved] = expect(pipes[moved], "connected")
    else:
        by_worker, crowded = _split(server, ports, share)
    counts = {worker.pid: 0 for worker in server.worker_processes()}
    for worker, group in by_worker.items():
        if worker is not None:
            counts[worker] = len(group)
    return sorted(counts.values(), reverse=True), not crowded


def _split(
    server: Server, ports: dict[int, int], share: int
) -> tuple[dict[int | None, list[int]], list[list[int]]]:
    """Clients by the worker holding their connection (None: not seen), and the crowded groups."""
    owners = server.workers_by_client_port()
    by_worker: dict[int | None, list[int]] = defaultdict(list)
    for index, port in ports.items():
        by_worker[owners.get(port)].append(index)
    crowded = [group for worker, group in by_worker.items() if worker is None or len(group) > share]
    return by_worker, crowded


def expect(pipe: Pipe, kind: str, timeout: float = MESSAGE_TIMEOUT) -> Any:
    """The payload of the next message from a bench process (a load client, a follower
    process), which must be of ``kind``: ("failed", traceback) or silence raise."""
    if not pipe.poll(timeout):
        raise TimeoutError(f"a bench process sent no {kind!r} within {timeout:.0f} s")
    message = pipe.recv()
    if message[0] == "failed":
        raise RuntimeError(f"a bench process failed:\n{message[1]}")
    if message[0] != kind:
        raise RuntimeError(f"a bench process sent {message[0]!r}, expected {kind!r}")
    return message[1]


def _server_cpu(server: Server) -> float:
    total = 0.0
    for worker in server.worker_processes():
        times = worker.cpu_times()
        total += times.user + times.system
    return total


def _machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (all cores, every process and the kernel)."""
    times = psutil.cpu_times()
    # On Linux, guest time is counted in user already; steal is the host's, not ours.
    busy = ("user", "nice", "system", "irq", "softirq")
    return sum(getattr(times, name, 0.0) for name in busy)


def _redis_cpu(client: redis.Redis) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
