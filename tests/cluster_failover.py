"""A master of a Redis Cluster killed under a load of appends: the run, and its count.

Used by the failover test (tests/service/test_cluster_failover.py), which asserts on the count, and
by the benchmark's figure 6 (bench/failover.py), which reports it.

The cluster is masters with a replica each. Threads record games through the API's GameService,
each move with an Idempotency-Key that they send again on the store's 503 until the append is
acknowledged, as a client of the contract would. One master is killed (SIGKILL: a crash)
mid-load; its replica takes over. Then the record must hold every acknowledged append, at the seq
it was acknowledged with, and nothing else; and every error meanwhile must be one the contract
answers with 503 (``service.store.connection.STORE_UNAVAILABLE``).
"""

from __future__ import annotations

import random
import signal
import threading
import time
import traceback
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from domain import get_game
from service.app import Services
from service.store.chain import canonical_json
from service.store.connection import STORE_UNAVAILABLE
from service.store.events import EventStore
from tests.redis_cluster import LocalCluster

# No part of a run waits longer than this for anything.
DEADLINE_SECONDS = 60


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
    # Anything else: a failed run.
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


@dataclass(frozen=True)
class FailoverCount:
    """What a failover under load did to the appends."""

    killed_port: int
    promoted_port: int
    # From the kill to every live node's cluster_state:ok.
    takeover_seconds: float
    acknowledged: int
    acknowledged_during_takeover: int
    # Acknowledged after the takeover on games of the killed master's slots.
    acknowledged_on_promoted: int
    # The store's 503s met, by the error's type.
    unavailable: dict[str, int]
    # Any other error, with its traceback: there must be none.
    unexpected: list[str]
    # Acknowledged appends missing from the record, or changed there.
    lost: int
    # Events the record holds beyond the acknowledged ones.
    duplicated: int

    def line(self) -> str:
        return (
            f"master :{self.killed_port} killed, its replica :{self.promoted_port} serving after"
            f" {self.takeover_seconds:.1f} s; {self.acknowledged} appends acknowledged"
            f" ({self.acknowledged_during_takeover} during the failover,"
            f" {self.acknowledged_on_promoted} on the promoted replica after it); 503s met:"
            f" {sum(self.unavailable.values())} {self.unavailable}; other errors:"
            f" {len(self.unexpected)}; lost: {self.lost}; duplicated: {self.duplicated}"
        )


def kill_a_master_under_load(
    cluster: LocalCluster,
    services: Services,
    prefix: str,
    *,
    recorders: int = 6,
    before: int = 300,
    after_seconds: float = 1.5,
) -> FailoverCount:
    """Record games with ``recorders`` threads; once ``before`` appends are acknowledged, kill
    the master of a game being recorded, wait for its replica to take over, go on recording for
    ``after_seconds``, then stop and count against the record."""
    stop = threading.Event()
    threads = [Recorder(services, seed, stop) for seed in range(recorders)]

    def acknowledged() -> list[Ack]:
        return [ack for thread in threads for ack in list(thread.acknowledged)]

    for thread in threads:
        thread.start()
    try:
        wait_for(lambda: len(acknowledged()) >= before, "a load")
        # The master of a game being recorded: that recorder meets the failover.
        victim = master_of(services, prefix, threads[0].game_id)
        killed_at = time.monotonic()
        cluster.kill(victim, signal.SIGKILL)
        wait_for(lambda: victim not in cluster.masters_now(), "a replica to take over")
        cluster.wait_until_settled(DEADLINE_SECONDS)
        settled_at = time.monotonic()
        time.sleep(after_seconds)
    finally:
        stop.set()
        for thread in threads:
            thread.join(DEADLINE_SECONDS)

    acks = acknowledged()
    promoted = master_of(services, prefix, threads[0].game_id)
    on_promoted = [
        ack for ack in acks
        if ack.at >= settled_at and master_of(services, prefix, ack.game_id) == promoted
    ]  # fmt: skip
    lost, duplicated = compare_with_the_record(services.store, acks)
    unavailable: Counter[str] = sum((thread.unavailable for thread in threads), Counter())
    return FailoverCount(
        killed_port=victim,
        promoted_port=promoted,
        takeover_seconds=settled_at - killed_at,
        acknowledged=len(acks),
        acknowledged_during_takeover=sum(1 for a in acks if killed_at <= a.at < settled_at),
        acknowledged_on_promoted=len(on_promoted),
        unavailable=dict(unavailable),
        unexpected=[
            "".join(traceback.format_exception(error))
            for thread in threads
            for error in thread.unexpected
        ],
        lost=lost,
        duplicated=duplicated,
    )


def master_of(services: Services, prefix: str, game_id: str) -> int:
    """The port of the master serving a game's slot, as the service's client knows it now."""
    client: Any = services.client
    port: int = client.get_node_from_key(f"{prefix}{{{game_id}}}:header").port
    return port


def compare_with_the_record(store: EventStore, acknowledged: list[Ack]) -> tuple[int, int]:
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


def wait_for(done: Any, what: str) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.02)
