"""The event store's contract, run against fakeredis, the real Redis server and a Redis Cluster."""

from __future__ import annotations

from typing import Any

import pytest
import redis

from service.store.chain import canonical_json, event_hash, header_hash
from service.store.connection import StoreClient
from service.store.events import EventStore
from service.store.records import Appended, Conflict, EventWrite, Finished, Missing, Replayed
from tests.support.records import BY_THE_RECORDER, record


@pytest.fixture(params=["fakeredis", "redis", "cluster"])
def any_redis(request: pytest.FixtureRequest) -> StoreClient:
    """The store's contract holds on fakeredis, on the real server and on a Redis Cluster."""
    name = {"fakeredis": "fake_redis", "redis": "plain_redis", "cluster": "cluster_redis"}
    client: StoreClient = request.getfixturevalue(name[request.param])
    return client


def append(store: EventStore, game_id: str, version: int, body: dict[str, object], **kw: object):
    current = store.get(game_id)
    assert current is not None
    at = "2026-11-26T00:00:01.000Z"
    return store.append(
        game_id,
        EventWrite(
            expected_version=version,
            expected_head=current.head_hash,
            canonical_body=canonical_json(body),
            at=at,
            hash=event_hash(current.head_hash, version + 1, at, body),
            **{**BY_THE_RECORDER, **kw},  # type: ignore[arg-type]
        ),
    )


def new_store(client: redis.Redis, key_prefix: str) -> EventStore:
    return EventStore(client, prefix=key_prefix)


def test_created_game_reads_back_with_its_header(any_redis: redis.Redis, key_prefix: str) -> None:
    store = new_store(any_redis, key_prefix)
    assert store.create(record("g1"))
    assert store.get("g1") == record("g1")


def test_a_taken_id_is_not_created_twice(any_redis: redis.Redis, key_prefix: str) -> None:
    store = new_store(any_redis, key_prefix)
    assert store.create(record("g1"))
    assert not store.create(record("g1", players=["Other", "Names"]))
    assert store.get("g1") == record("g1")


def test_unknown_game_reads_as_none(any_redis: redis.Redis, key_prefix: str) -> None:
    assert new_store(any_redis, key_prefix).get("nope") is None


def test_appends_number_events_from_one(any_redis: redis.Redis, key_prefix: str) -> None:
    store = new_store(any_redis, key_prefix)
    store.create(record("g1"))
    assert append(store, "g1", 0, {"type": "draw", "player": 0}, result=None) == Appended(1)
    assert append(store, "g1", 1, {"type": "draw", "player": 1}, result=None) == Appended(2)
    events = store.events("g1")
    assert [e.seq for e in events] == [1, 2]
    assert [e.body for e in events] == [
        {"type": "draw", "player": 0},
        {"type": "draw", "player": 1},
    ]
    assert store.get("g1").version == 2  # type: ignore[union-attr]


def test_append_at_a_stale_version_is_a_conflict(any_redis: redis.Redis, key_prefix: str) -> None:
    store = new_store(any_redis, key_prefix)
    store.create(record("g1"))
    append(store, "g1", 0, {"type": "draw", "player": 0}, result=None)
    assert append(store, "g1", 0, {"type": "draw", "player": 1}, result=None) == Conflict(1)
    assert len(store.events("g1")) == 1


def test_hash_chain_links_each_event_to_the_one_before(
    any_redis: redis.Redis, key_prefix: str
) -> None:
    store = new_store(any_redis, key_prefix)
    store.create(record("g1"))
    for version in range(3):
        append(store, "g1", version, {"type": "draw", "player": version % 2}, result=None)
    previous = header_hash(record("g1").header)
    for event in store.events("g1"):
        assert event.hash == event_hash(previous, event.seq, event.at, event.body)
        previous = event.hash
    assert store.get("g1").head_hash == previous  # type: ignore[union-attr]


def test_a_finishing_append_stores_the_result_and_closes_the_game(
    any_redis: redis.Redis, key_prefix: str
) -> None:
    store = new_store(any_redis, key_prefix)
    store.create(record("g1"))
    result = {"winners": [1], "scores": [3, 9]}
    assert append(store, "g1", 0, {"type": "play"}, result=result) == Appended(1)
    finished = store.get("g1")
    assert finished is not None
    assert (finished.status, finished.result) == ("finished", result)
    assert finished.finished_at == "2026-11-26T00:00:01.000Z"
    assert append(store, "g1", 1, {"type": "play"}, result=None) == Finished()


def test_append_to_a_missing_game_writes_nothing(any_redis: redis.Redis, key_prefix: str) -> None:
    store = new_store(any_redis, key_prefix)
    outcome = store.append(
        "ghost",
        EventWrite(
            expected_version=0,
            expected_head="h0",
            canonical_body="{}",
            at="t",
            hash="h",
            result=None,
            **BY_THE_RECORDER,
        ),
    )
    assert outcome == Missing()
    assert store.events("ghost") == []


def test_an_idempotency_key_appends_once(any_redis: redis.Redis, key_prefix: str) -> None:
    store = new_store(any_redis, key_prefix)
    store.create(record("g1"))
    first = append(
        store, "g1", 0, {"type": "draw"}, result=None,
        idempotency_key="k1", idempotency_owner="recorder", idempotency_record="first response",
    )  # fmt: skip
    again = append(
        store, "g1", 1, {"type": "draw"}, result=None,
        idempotency_key="k1", idempotency_owner="recorder", idempotency_record="second response",
    )  # fmt: skip
    assert (first, again) == (Appended(1), Replayed("first response"))
    assert len(store.events("g1")) == 1
    assert store.idempotency_record("g1", "k1", "recorder") == "first response"
    # A key is its owner's: another viewer's is another key.
    assert store.idempotency_record("g1", "k1", "seat0") is None


def test_event_ranges_are_inclusive_and_one_based(any_redis: redis.Redis, key_prefix: str) -> None:
    store = new_store(any_redis, key_prefix)
    store.create(record("g1"))
    for version in range(5):
        append(store, "g1", version, {"type": "draw", "n": version}, result=None)
    assert [e.seq for e in store.events("g1", 2, 4)] == [2, 3, 4]
    assert [e.seq for e in store.events("g1", 4)] == [4, 5]
    assert store.events("g1", 3, 2) == []


def test_games_list_newest_first_by_game_and_player(
    any_redis: redis.Redis, key_prefix: str
) -> None:
    store = new_store(any_redis, key_prefix)
    # Created here in the order a, b, c; c at a's time: equal times by id, the highest first.
    store.create(record("a", players=["Ana", "Ben"], created_at="2026-11-26T00:00:01.000Z"))
    store.create(
        record("b", game="other", players=["Caro", "Ben"], created_at="2026-11-26T00:00:02.000Z")
    )
    store.create(record("c", players=["Ana", "Dan"], created_at="2026-11-26T00:00:01.000Z"))

    def ids(**listing: Any) -> list[str]:
        return [place.id for place in store.indexes.newest(**listing)[0]]

    assert ids() == ["b", "c", "a"]
    assert ids(game="mada") == ["c", "a"]
    assert ids(player="Ben") == ["b", "a"]
    places, more = store.indexes.newest()
    assert not more
    assert ids(after=places[0]) == ["c", "a"] and ids(after=places[1]) == ["a"]
