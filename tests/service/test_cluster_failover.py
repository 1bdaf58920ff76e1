"""A master of a Redis Cluster killed under a load of appends, and what WAIT costs.

The cluster here is three masters with a replica each, failing a master over after 1 s of
silence (cluster-node-timeout 1000). Threads record games through the API's GameService, each
move with an Idempotency-Key that it retries on the store's 503 until the append is acknowledged,
as a client of the contract would. One master is killed (SIGKILL: a crash) mid-load; its replica
takes over. Then the record must hold every acknowledged append, at the seq it was acknowledged
with, and nothing else; and every error meanwhile must be one the contract answers with 503:
``service.connection.STORE_UNAVAILABLE`` (ConnectionError, TimeoutError, and a cluster's
ClusterDownError, which service/errors.py does not map to 503 yet: in practice the store's own
retries ride over the cluster's "fail" state, and only ConnectionErrors reach the recorders).

Redis replicates asynchronously: the store acknowledges an append only once a replica has it (WAIT
after the append script: service.connection.acknowledged_writes), without which a crash could
lose acknowledged appends. ``test_what_waiting_for_a_replica_costs`` prints what that wait costs.
"""

from __future__ import annotations

import random
import signal
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from domain import get_game
from service import connection
from service.app import Services, build_services
from service.chain import canonical_json
from service.config import load_config
from service.connection import STORE_UNAVAILABLE, ReplicaNotConfirmedError, close
from service.store import Appended, EventStore, Replayed
from tests.redis_cluster import LocalCluster
from tests.service.test_store import record

# The load: recorders at once, and how long they go on once the failed-over master serves again.
RECORDERS = 6
AFTER_FAILOVER_SECONDS = 1.5
# No part of the test waits longer than this for anything.
DEADLINE_SECONDS = 60
# The timing of WAIT: appends per run, and runs of each kind (the best counts).
TIMED_APPENDS = 600
TIMING_RUNS = 5
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


# --- what WAIT costs ------------------------------------------------------------------------------


def appends_per_second(store: EventStore, games: int, appends: int) -> float:
    """Appends per second with ``games`` threads appending ``appends`` events each, each to a
    game of its own, straight to the store (the rules' work left out: Redis's part alone)."""

    def append_all(game_id: str) -> None:
        for version in range(appends):
            store.append(game_id, expected_version=version, canonical_body=DRAW,
                         at="t", hash=f"h{version}", result=None)  # fmt: skip

    ids = [uuid.uuid4().hex[:16] for _ in range(games)]
    for game_id in ids:
        assert store.create(record(game_id))
    threads = [threading.Thread(target=append_all, args=(game_id,)) for game_id in ids]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(DEADLINE_SECONDS)
    elapsed = time.perf_counter() - began
    assert all(store.get(game_id).version == appends for game_id in ids)  # type: ignore[union-attr]
    return games * appends / elapsed


def test_what_waiting_for_a_replica_costs(
    replicated_cluster: LocalCluster, redis_url: str, tmp_path: Path
) -> None:
    """Printed, not asserted (`pytest -s` shows it): the best of a few runs of each, taken in
    turns, so that what else the machine does weighs on both alike."""
    prefix = f"test-{uuid.uuid4().hex[:12]}:"
    waiting = services_on(replicated_cluster, redis_url, prefix, tmp_path)
    not_waiting = services_on(replicated_cluster, redis_url, prefix, tmp_path, REPLICA_WAIT_MS=0)
    stores = {"with WAIT": waiting.store, "without": not_waiting.store}
    best: dict[tuple[str, int], float] = {}
    try:
        for _ in range(TIMING_RUNS):
            for threads in (1, 6):
                for name, store in stores.items():
                    rate = appends_per_second(store, threads, TIMED_APPENDS // threads)
                    best[name, threads] = max(rate, best.get((name, threads), 0.0))
    finally:
        for services in (waiting, not_waiting):
            close(services.client)
    print()
    for threads in (1, 6):
        with_wait, without = best["with WAIT", threads], best["without", threads]
        print(f"appends/s to the store, {threads} thread(s): {with_wait:.0f} with WAIT 1,"
              f" {without:.0f} without (WAIT costs {1 - with_wait / without:.0%})")  # fmt: skip


# --- a master killed under load -------------------------------------------------------------------


@dataclass(frozen=True)
class Ack:
    """An acknowledged append: what the record must hold from then on."""

    game_id: str
    seq: int
    body: str
    at: float


@dataclass(eq=False)
class Recorder(threading.Thread):
    """Records games one move at a time, as a client of the API would: each move with an
    Idempotency-Key, sent again on a 503 until it is acknowledged."""

    services: Services
    seed: int
    stop: threading.Event
    # Every acknowledged append, in order.
    acknowledged: list[Ack] = field(default_factory=list)
    # The store's 503s met, by the error's type.
    unavailable: Counter[str] = field(default_factory=Counter)
    # Anything else: the test fails on any.
    unexpected: list[BaseException] = field(default_factory=list)
    game_id: str = ""

    def __post_init__(self) -> None:
        super().__init__(daemon=True)

    def run(self) -> None:
        chooser = random.Random(self.seed)
        game = get_game("mada")
        deadline = time.monotonic() + DEADLINE_SECONDS
        games = self.services.games
        try:
            while not self.stop.is_set():
                seed = chooser.getrandbits(64)
                created, tokens = self._until_served(
                    deadline, games.create, "mada", ["Ana", "Ben"], seed, {}
                )
                self.game_id = created.id
                state = game.new_game(2, created.seed, created.options)
                while not self.stop.is_set() and game.result(state) is None:
                    move = chooser.choice(game.legal_moves(state))
                    answer = self._until_served(
                        deadline, games.append, created.id, tokens.recorder, move,
                        idempotency_key=uuid.uuid4().hex,
                    )  # fmt: skip
                    self.acknowledged.append(
                        Ack(created.id, answer.version, canonical_json(move), time.monotonic())
                    )
                    state = game.apply(state, move)
        except BaseException as error:
            self.unexpected.append(error)

    def _until_served(self, deadline: float, call: Any, *args: Any, **kwargs: Any) -> Any:
        """``call``'s answer, sent again (with the same Idempotency-Key) while the store is
        unavailable."""
        while True:
            try:
                return call(*args, **kwargs)
            except STORE_UNAVAILABLE as error:
                self.unavailable[type(error).__name__] += 1
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)


def test_a_master_killed_under_load_loses_and_duplicates_no_acknowledged_append(
    replicated_cluster: LocalCluster, redis_url: str, tmp_path: Path
) -> None:
    cluster = replicated_cluster
    prefix = f"test-{uuid.uuid4().hex[:12]}:"
    services = services_on(cluster, redis_url, prefix, tmp_path)
    stop = threading.Event()
    recorders = [Recorder(services, seed, stop) for seed in range(RECORDERS)]

    def acknowledged() -> list[Ack]:
        return [ack for recorder in recorders for ack in list(recorder.acknowledged)]

    for recorder in recorders:
        recorder.start()
    try:
        _wait_for(lambda: len(acknowledged()) >= 300, "a load")
        # The master of a game being recorded: that recorder meets the failover.
        victim = _master_of(services, prefix, recorders[0].game_id)
        killed_at = time.monotonic()
        cluster.kill(victim, signal.SIGKILL)
        _wait_for(lambda: victim not in cluster.masters_now(), "a replica to take over")
        cluster.wait_until_settled(DEADLINE_SECONDS)
        settled_at = time.monotonic()
        time.sleep(AFTER_FAILOVER_SECONDS)
    finally:
        stop.set()
        for recorder in recorders:
            recorder.join(DEADLINE_SECONDS)

    acks = acknowledged()
    promoted = _master_of(services, prefix, recorders[0].game_id)
    during = sum(1 for ack in acks if killed_at <= ack.at < settled_at)
    # Appends that went on after the failover on the games of the killed master's slots.
    on_promoted = sum(
        1 for ack in acks
        if ack.at >= settled_at and _master_of(services, prefix, ack.game_id) == promoted
    )  # fmt: skip
    unexpected = [error for recorder in recorders for error in recorder.unexpected]
    unavailable: Counter[str] = sum((recorder.unavailable for recorder in recorders), Counter())
    lost, duplicated = _compare_with_the_record(services.store, acks)
    print(
        f"\nmaster :{victim} killed, its replica :{promoted} serving after"
        f" {settled_at - killed_at:.1f} s; {len(acks)} appends acknowledged ({during} during the"
        f" failover, {on_promoted} on the promoted replica after it); 503s met:"
        f" {sum(unavailable.values())} {dict(unavailable)}; other errors: {len(unexpected)};"
        f" lost: {lost}; duplicated: {duplicated}"
    )
    close(services.client)
    assert not unexpected, unexpected
    assert (lost, duplicated) == (0, 0)
    assert promoted != victim and on_promoted > 0, "appends did not go on after the failover"
    assert sum(unavailable.values()) > 0, "the failover went unnoticed: was a master killed?"


def _master_of(services: Services, prefix: str, game_id: str) -> int:
    """The port of the master serving a game's slot, as the service's client knows it now."""
    client: Any = services.client
    port: int = client.get_node_from_key(f"{prefix}{{{game_id}}}:header").port
    return port


def _compare_with_the_record(store: EventStore, acknowledged: list[Ack]) -> tuple[int, int]:
    """(acknowledged appends missing from the record or changed there, events the record holds
    beyond the acknowledged ones)."""
    expected: dict[str, dict[int, str]] = {}
    for ack in acknowledged:
        expected.setdefault(ack.game_id, {})[ack.seq] = ack.body
    lost = duplicated = 0
    for game_id, appends in expected.items():
        stored = {event.seq: canonical_json(event.body) for event in store.events(game_id)}
        lost += sum(1 for seq, body in appends.items() if stored.get(seq) != body)
        duplicated += len(set(stored) - set(appends))
    return lost, duplicated


def _wait_for(done: Any, what: str) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not done():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def test_a_write_no_replica_confirms_is_unavailable_and_then_goes_on_without_waiting(
    replicated_cluster: LocalCluster,
    redis_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A replica dies: the master's next write is not acknowledged (the store's 503) though it
    ran; the master, asked again, has no replica left, and the writes after it do not wait."""
    cluster = replicated_cluster
    prefix = f"test-{uuid.uuid4().hex[:12]}:"
    services = services_on(cluster, redis_url, prefix, tmp_path, REPLICA_WAIT_MS=200)
    store = services.store
    # The store goes on believing that the master has its replica, as it may for a moment.
    monkeypatch.setattr(connection, "_REPLICAS_KNOWN_FOR", 60.0)
    try:
        # A game whose master has a replica (the failover above left one master without).
        while True:
            game_id = uuid.uuid4().hex[:16]
            with cluster.node(_master_of(services, prefix, game_id)) as node:
                replication = node.info("replication")
            if replication["connected_slaves"] > 0:
                break
        assert store.create(record(game_id))  # the master's replica is counted here
        cluster.kill(int(replication["slave0"]["port"]), signal.SIGKILL)

        def append(version: int) -> Any:
            return store.append(game_id, expected_version=version, canonical_body=DRAW, at="t",
                                hash=f"h{version}", result=None, idempotency_key=f"k{version}",
                                idempotency_record=f"answer {version}")  # fmt: skip

        with pytest.raises(ReplicaNotConfirmedError) as refused:
            append(0)
        assert isinstance(refused.value, STORE_UNAVAILABLE)
        assert [event.seq for event in store.events(game_id)] == [1]  # it ran, unacknowledged
        # Sent again with its key: the recorded answer, now acknowledged without waiting.
        assert append(0) == Replayed("answer 0")
        began = time.monotonic()
        assert append(1) == Appended(2)
        assert time.monotonic() - began < 0.2
    finally:
        close(services.client)
