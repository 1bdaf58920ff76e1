"""Measurement 6: a master of a Redis Cluster killed under a load of appends, counted.

A cluster of three masters with a replica each (cluster-node-timeout 1 s), the store's appends
acknowledged once a replica has them (WAIT 1, the service's default on such a cluster). Six
recorder threads record games of Mada through the API's GameService in this process (the rules,
the store and the 503s of the HTTP API, without HTTP: a client's retries are the same either way),
each move with an Idempotency-Key, sent again on the store's 503 until it is acknowledged. Once
300 appends are acknowledged, the master of a game being recorded is killed with SIGKILL; its
replica takes over; the recorders go on for 1.5 s more. Then every acknowledged append is looked
up in the record: lost (missing or changed) and duplicated (in the record, never acknowledged)
must both be 0, and every error met must be one the contract answers with 503.

Before the kill, on the same cluster, what the wait costs: appends per second through the
GameService (the rules' work included), with WAIT 1 and without it, on 1 and 6 threads, each the
best of a few runs taken in turns, so that what else the machine does weighs on both alike.

The same run is the failover test's (tests/service/test_cluster_failover.py, through
tests/cluster_failover.py), which asserts what this reports.
"""

from __future__ import annotations

import dataclasses
import random
import threading
import time
from typing import Any

from bench.redis_target import RedisTarget
from bench.settings import Settings
from domain import get_game
from service.app import Services, build_services
from service.config import load_config
from service.store.connection import close
from tests.cluster_failover import kill_a_master_under_load
from tests.redis_cluster import LocalCluster

MASTERS = 3
# The timing of WAIT: appends per run (shared by its threads), runs of each kind (the best counts).
TIMED_APPENDS = 600
TIMING_RUNS = 3


def measure(target: RedisTarget, settings: Settings, log: Any) -> dict[str, Any]:
    cluster = LocalCluster(target.workdir / "failover", masters=MASTERS, replicas_per_master=1)
    try:
        cluster.start()
        config = load_config(
            {
                "REDIS_URL": cluster.url,
                # RQ's queue (never used here: no game is archived) on the bench's own Redis.
                "QUEUE_REDIS_URL": target.url,
                "KEY_PREFIX": target.prefix,
                "DATA_DIR": str(target.workdir / "failover-data"),
            }
        )
        services = build_services(config)
        not_waiting = build_services({**config, "REPLICA_WAIT_MS": 0})
        try:
            wait_cost = _wait_cost(services, not_waiting)
            count = kill_a_master_under_load(cluster, services, target.prefix)
        finally:
            close(services.client)
            close(not_waiting.client)
    finally:
        cluster.stop()
    log(f"  {count.line()}")
    return {
        "masters": MASTERS,
        "replicas_per_master": 1,
        "replica_wait_ms": config["REPLICA_WAIT_MS"],
        "appends_per_second": wait_cost,
        **dataclasses.asdict(count),
    }


def _wait_cost(waiting: Services, not_waiting: Services) -> dict[str, dict[str, float]]:
    """Appends per second by thread count, with WAIT 1 and without: the best of TIMING_RUNS."""
    sides = {"with_wait": waiting, "without_wait": not_waiting}
    best: dict[str, dict[str, float]] = {name: {} for name in sides}
    for _ in range(TIMING_RUNS):
        for threads in (1, 6):
            for name, services in sides.items():
                rate = _appends_per_second(services, threads, TIMED_APPENDS // threads)
                best[name][str(threads)] = max(rate, best[name].get(str(threads), 0.0))
    return best


def _appends_per_second(services: Services, threads: int, appends: int) -> float:
    """Appends per second with ``threads`` threads recording ``appends`` moves each, each thread
    games of its own (a new one when one ends), through the GameService."""
    game = get_game("mada")

    def record(seed: int) -> None:
        chooser = random.Random(seed)
        made = 0
        while made < appends:
            created, tokens = services.games.create("mada", ["Ana", "Ben"], seed, {})
            state = game.new_game(2, created.seed, created.options)
            while made < appends and game.result(state) is None:
                move = chooser.choice(game.legal_moves(state))
                services.games.append(created.id, tokens.recorder, move)
                state = game.apply(state, move)
                made += 1

    workers = [threading.Thread(target=record, args=(seed,)) for seed in range(threads)]
    began = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return threads * appends / (time.perf_counter() - began)
