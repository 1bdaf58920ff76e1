"""A master of a Redis Cluster killed under a load of appends, and what WAIT costs.

The cluster here is three masters with a replica each, failing a master over after 1 s of
silence (cluster-node-timeout 1000). The run under load and its count are in
tests/cluster_failover.py (the benchmark reports the same run): the record must hold every
acknowledged append at the seq it was acknowledged with, and nothing else, and every error meanwhile
must be one the contract answers with 503 (``service.store.connection.STORE_UNAVAILABLE``).

Redis replicates asynchronously: the store acknowledges an append only once a replica has it (WAIT
after the append script: service.store.connection.acknowledged_writes), without which a crash could
lose acknowledged appends. What that wait costs is measured by the benchmark's figure 6
(bench/failover.py), not here: a test asserts, a benchmark measures.
"""

from __future__ import annotations

import signal
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from service.app import build_services
from service.config import load_config
from service.store import connection
from service.store.connection import STORE_UNAVAILABLE, ReplicaNotConfirmedError, close
from service.store.events import EventStore
from service.store.records import Appended, EventWrite, Replayed
from tests.cluster_failover import kill_a_master_under_load, master_of
from tests.redis_cluster import LocalCluster
from tests.support.records import BY_THE_RECORDER, record

# The body of the events appended straight to the store.
DRAW = '{"type":"draw"}'


@pytest.fixture(scope="module")
def replicated_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    cluster = LocalCluster(
        tmp_path_factory.mktemp("replicated"), masters=3, replicas_per_master=1,
        node_timeout_ms=1000,
    ).start()  # fmt: skip
    try:
        yield cluster
    finally:
        cluster.stop()


def services_on(cluster: LocalCluster, queue_url: str, prefix: str, tmp: Path, **config: Any):
    settings = {"REDIS_URL": cluster.url, "QUEUE_REDIS_URL": queue_url, "KEY_PREFIX": prefix,
                "DATA_DIR": str(tmp), **config}  # fmt: skip
    return build_services(load_config(settings))


def head(game_id: str, version: int) -> str:
    """The head an append at ``version`` chains to here: the header's, then each append's hash."""
    return record(game_id).head_hash if version == 0 else f"h{version}"


# --- a master killed under load -------------------------------------------------------------------


def test_a_master_killed_under_load_loses_and_duplicates_no_acknowledged_append(
    replicated_cluster: LocalCluster, redis_url: str, tmp_path: Path
) -> None:
    prefix = f"test-{uuid.uuid4().hex[:12]}:"
    services = services_on(replicated_cluster, redis_url, prefix, tmp_path)
    try:
        count = kill_a_master_under_load(replicated_cluster, services, prefix)
    finally:
        close(services.client)
    print("\n" + count.line())
    assert not count.unexpected, "\n".join(count.unexpected)
    assert (count.lost, count.duplicated) == (0, 0)
    assert count.promoted_port != count.killed_port, "no replica took over"
    assert count.acknowledged_on_promoted > 0, "appends did not go on after the failover"
    assert sum(count.unavailable.values()) > 0, "the failover went unnoticed: was a master killed?"


@pytest.fixture
def game_on_a_replicated_master(
    replicated_cluster: LocalCluster,
    redis_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[EventStore, str, int]]:
    """(a store waiting 200 ms for a replica, a new game of it whose master has a replica, the
    port of that replica)."""
    with _on_a_replicated_master(replicated_cluster, redis_url, tmp_path, monkeypatch) as found:
        store, game_id, _, replica_port = found
        yield store, game_id, replica_port


@pytest.fixture
def id_on_a_replicated_master(
    replicated_cluster: LocalCluster,
    redis_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[tuple[EventStore, str, int]]:
    """(the same store, a game id not yet taken on the same master, that replica's port): for a
    game made whole in one write, as an import makes it."""
    with _on_a_replicated_master(replicated_cluster, redis_url, tmp_path, monkeypatch) as found:
        store, _, free_id, replica_port = found
        yield store, free_id, replica_port


@contextmanager
def _on_a_replicated_master(
    cluster: LocalCluster, redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[EventStore, str, str, int]]:
    """(the store, a game created on a master with a replica, another id on that master not
    taken, the replica's port)."""
    prefix = f"test-{uuid.uuid4().hex[:12]}:"
    services = services_on(cluster, redis_url, prefix, tmp_path, REPLICA_WAIT_MS=200)
    # The store goes on believing that the master has its replica, as it may for a moment.
    monkeypatch.setattr(connection, "_REPLICAS_KNOWN_FOR", 60.0)
    try:
        # (The failover above left one master without a replica.)
        game_id = game_with_a_replica(services, prefix, cluster)
        assert services.store.create(record(game_id))  # the master's replica is counted here
        master = master_of(services, prefix, game_id)
        free_id = uuid.uuid4().hex[:16]
        while master_of(services, prefix, free_id) != master:
            free_id = uuid.uuid4().hex[:16]
        with cluster.node(master) as node:
            replica_port = int(node.info("replication")["slave0"]["port"])
        yield services.store, game_id, free_id, replica_port
    finally:
        close(services.client)


def test_a_write_no_replica_confirms_is_unavailable_and_then_goes_on_without_waiting(
    replicated_cluster: LocalCluster, game_on_a_replicated_master: tuple[EventStore, str, int]
) -> None:
    """A replica dies: the master's next write is not acknowledged (the store's 503) though it
    ran; the master, asked again, has no replica left, and the writes after it do not wait."""
    store, game_id, replica_port = game_on_a_replicated_master
    replicated_cluster.kill(replica_port, signal.SIGKILL)

    def append(version: int) -> Any:
        return store.append(game_id, EventWrite(expected_version=version,
                            expected_head=head(game_id, version), canonical_body=DRAW, at="t",
                            hash=f"h{version + 1}", result=None, **BY_THE_RECORDER,
                            idempotency_key=f"k{version}",
                            idempotency_record=f"answer {version}"))  # fmt: skip

    with pytest.raises(ReplicaNotConfirmedError) as refused:
        append(0)
    assert isinstance(refused.value, STORE_UNAVAILABLE)
    assert [event.seq for event in store.events(game_id)] == [1]  # it ran, unacknowledged
    # Sent again with its key: the recorded answer, now acknowledged without waiting.
    assert append(0) == Replayed("answer 0")
    began = time.monotonic()
    assert append(1) == Appended(2)
    assert time.monotonic() - began < 0.2


def test_an_imported_record_is_acknowledged_only_once_a_replica_has_it(
    replicated_cluster: LocalCluster, id_on_a_replicated_master: tuple[EventStore, str, int]
) -> None:
    """An import is one write, acknowledged as an append is: a replica that cannot confirm it
    makes it the store's 503."""
    store, game_id, replica_port = id_on_a_replicated_master
    replica = replicated_cluster.processes[replica_port]
    # The replica stops answering (its master still counts it): WAIT 1 cannot be satisfied.
    replica.send_signal(signal.SIGSTOP)
    try:
        with pytest.raises(ReplicaNotConfirmedError):
            store.create_imported(record(game_id), [{"type": "draw"}], ats=["t"],  # type: ignore[arg-type]
                                  status="active", result=None, finished_at=None)  # fmt: skip
    finally:
        replica.send_signal(signal.SIGCONT)
    # It ran on the master, unacknowledged: the game whole, with its event.
    assert [event.seq for event in store.events(game_id)] == [1]


def game_with_a_replica(services: Any, prefix: str, cluster: LocalCluster) -> str:
    """A new game id whose slot's master has a replica connected."""
    while True:
        game_id = uuid.uuid4().hex[:16]
        with cluster.node(master_of(services, prefix, game_id)) as node:
            if node.info("replication")["connected_slaves"] > 0:
                return game_id
