"""Measurement 2: replaying games from their streams vs. merely reading and decoding them.

In process, through the service's own EventStore (XRANGE and the JSON decode of every event) and the
domain's reducer, as the API does when its state cache misses. The product's target: replaying
runs at least 1/2 as fast as reading and decoding alone, i.e. the rules cost at most the I/O.
Beside them, the audit (``service.store.audit.audit_game``: the replay, the seed commitment and the
hash chain, every event's hash computed again), on the same events.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from bench.redis_target import RedisTarget
from bench.stats import median, ratio
from domain import get_game
from service.store.audit import audit_game
from service.store.events import EventStore
from service.store.records import GameRecord

TARGET = 1 / 2


def measure(
    target: RedisTarget, sets: dict[str, list[str]], settings_seconds: float, log: Any
) -> dict[str, Any]:
    """One entry per named set of stored games (e.g. typical and long games)."""
    client = target.client()
    try:
        store = EventStore(client, prefix=target.prefix)
        figures: dict[str, Any] = {}
        for name, game_ids in sets.items():
            if not game_ids:
                continue
            figures[name] = _measure_set(store, game_ids, settings_seconds)
            log(
                f"  {name}: read+decode {figures[name]['read_decode_events_per_s']:,.0f} events/s,"
                f" replay {figures[name]['replay_events_per_s']:,.0f} events/s,"
                f" audit {figures[name]['audit_events_per_s']:,.0f} events/s"
            )
        return figures
    finally:
        client.close()


def _measure_set(store: EventStore, game_ids: list[str], min_seconds: float) -> dict[str, Any]:
    records = [record for record in map(store.get, game_ids) if record is not None]
    events = sum(record.version for record in records)
    game = get_game("mada")

    def read_decode() -> None:
        for record in records:
            store.events(record.id)

    def replay() -> None:
        for record in records:
            state = game.new_game(len(record.players), record.seed, record.options)
            for stored in store.events(record.id):
                state = game.apply(state, stored.body)

    # The reducer alone, on events decoded beforehand: where the replay's time goes.
    decoded = [(record, [stored.body for stored in store.events(record.id)]) for record in records]

    def reduce_only() -> None:
        for record, bodies in decoded:
            state = game.new_game(len(record.players), record.seed, record.options)
            for body in bodies:
                state = game.apply(state, body)

    def audit() -> None:
        for record in records:
            if not audit_game(record, store.events(record.id)).ok:
                raise RuntimeError(f"the audit of {record.id} finds problems")

    _check_replay(store, records)
    # Passes alternate between the variants so that any drift of the machine hits all of them.
    variants: dict[str, Callable[[], None]] = {
        "read_decode": read_decode,
        "replay": replay,
        "reduce_only": reduce_only,
        "audit": audit,
    }
    timings: dict[str, list[float]] = {name: [] for name in variants}
    while (
        min(sum(times) for times in timings.values()) < min_seconds
        or min(len(times) for times in timings.values()) < 3
    ):
        for name, variant in variants.items():
            started = time.perf_counter()
            variant()
            timings[name].append(time.perf_counter() - started)

    rates = {name: events / median(times) for name, times in timings.items()}
    replay_ratio = ratio(rates["replay"], rates["read_decode"])
    return {
        "games": len(records),
        "events": events,
        "events_per_game": ratio(events, len(records)),
        "passes": len(timings["replay"]),
        "read_decode_events_per_s": rates["read_decode"],
        "replay_events_per_s": rates["replay"],
        "reduce_only_events_per_s": rates["reduce_only"],
        "audit_events_per_s": rates["audit"],
        "replay_over_read_decode": replay_ratio,
        "audit_over_read_decode": ratio(rates["audit"], rates["read_decode"]),
        "targets": {
            "replay_at_least_1/2_of_read_decode": {
                "target": TARGET,
                "measured": replay_ratio,
                "met": replay_ratio >= TARGET,
            }
        },
    }


def _check_replay(store: EventStore, records: list[GameRecord]) -> None:
    """A replay that did not rebuild the recorded games would be timing the wrong thing."""
    game = get_game("mada")
    for record in records:
        state = game.new_game(len(record.players), record.seed, record.options)
        for stored in store.events(record.id):
            state = game.apply(state, stored.body)
        if game.result(state) != record.result:
            raise RuntimeError(f"replaying {record.id} does not give its recorded result")
