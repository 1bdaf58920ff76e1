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

The same run is the failover test's (tests/service/test_cluster_failover.py, through
tests/cluster_failover.py), which asserts what this reports.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bench.redis_target import RedisTarget
from bench.settings import Settings
from service.app import build_services
from service.config import load_config
from service.store.connection import close
from tests.cluster_failover import kill_a_master_under_load
from tests.redis_cluster import LocalCluster

MASTERS = 3


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
        try:
            count = kill_a_master_under_load(cluster, services, target.prefix)
        finally:
            close(services.client)
    finally:
        cluster.stop()
    log(f"  {count.line()}")
    return {
        "masters": MASTERS,
        "replicas_per_master": 1,
        "replica_wait_ms": config["REPLICA_WAIT_MS"],
        **dataclasses.asdict(count),
    }
