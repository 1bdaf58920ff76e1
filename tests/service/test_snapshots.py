"""Snapshots of a game's state beside its record (service.store.snapshots): the state after any
move comes from the nearest sound one, and is always the state the record folds to from its seed,
whatever the snapshots hold: damaged, stale, of another version, or reached back before by a
retraction. Run on the real Redis (and the hash tag on the cluster too)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import orjson
import pytest
import redis
from redis.crc import key_slot

import domain
from domain.corrections import fold
from service.games import GameService, Tokens
from service.store.archive import Archive
from service.store.connection import StoreClient
from service.store.events import EventStore
from service.store.records import GameRecord
from service.store.snapshots import SnapshotStore, document, snapshot_digest
from tests.conftest import make_app
from tests.support.games import options_of, random_move

EVERY = 4


def service_of(client: StoreClient, prefix: str, tmp_path: Path, every: int = EVERY) -> GameService:
    """A service as a fresh process has it: an empty state cache."""
    return GameService(
        EventStore(client, prefix=prefix),
        Archive(str(tmp_path)),
        snapshots=SnapshotStore(client, prefix),
        snapshot_every=every,
    )


def recorded(
    service: GameService, name: str, seed: int, moves: int, retract_rate: float = 0.0
) -> tuple[GameRecord, Tokens, list[dict[str, Any]]]:
    """A random game of ``name`` recorded through the service: up to ``moves`` events, some of
    them retractions; its record and the bodies appended."""
    game = domain.get_game(name)
    chooser = random.Random(seed)
    players = [f"P{seat}" for seat in range(max(game.min_players, 2))]
    record, tokens = service.create(name, players, seed, options_of(name))
    bodies: list[dict[str, Any]] = []
    standing = 0
    for _ in range(moves):
        state = service.state(service.get(record.id))
        if game.result(state) is not None:
            break
        if standing and chooser.random() < retract_rate:
            body: dict[str, Any] = {"type": "retract"}
            standing -= 1
        else:
            move = random_move(game, state, len(players), chooser)
            if move is None:
                break
            body = game.written(move)
            standing += 1
        service.append(record.id, tokens.recorder, body)
        bodies.append(body)
    return service.get(record.id), tokens, bodies


def from_seed(record: GameRecord, bodies: list[dict[str, Any]], n: int) -> Any:
    """The state after event ``n``, folded from the seed here, without the service."""
    game = domain.get_game(record.game)
    return fold(game, game.start(record.header), bodies[:n]).state


def snapshot_key(prefix: str, game_id: str) -> str:
    return f"{prefix}{{{game_id}}}:snapshots"


@pytest.mark.parametrize("name", domain.game_names())
def test_the_state_after_every_move_is_the_replay_from_the_seed(
    name: str, real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    service = service_of(real_redis, key_prefix, tmp_path)
    record, _, bodies = recorded(service, name, seed=11, moves=40, retract_rate=0.15)
    assert record.version >= EVERY
    # The first reader replays and writes the snapshots; a second process reads them; a third
    # reads the states in another order.
    for reader in (service_of(real_redis, key_prefix, tmp_path) for _ in range(2)):
        for n in range(record.version + 1):
            assert reader.state(record, n) == from_seed(record, bodies, n), n
    written = sorted(int(v) for v in real_redis.hkeys(snapshot_key(key_prefix, record.id)))
    assert written == list(range(EVERY, record.version + 1, EVERY))
    shuffled = list(range(record.version + 1))
    random.Random(3).shuffle(shuffled)
    reader = service_of(real_redis, key_prefix, tmp_path)
    for n in shuffled:
        assert reader.state(record, n) == from_seed(record, bodies, n), n


def test_state_at_n_through_the_api_is_the_replay_from_the_seed(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    app = make_app(real_redis, key_prefix, DATA_DIR=str(tmp_path), SNAPSHOT_EVERY=EVERY)
    service: GameService = app.extensions["tabletape"]
    record, tokens, bodies = recorded(service, "madcala", seed=5, moves=30)
    client = app.test_client()
    headers = {"Authorization": f"Bearer {tokens.recorder}"}
    game = domain.get_game("madcala")
    for _ in range(2):
        for n in range(record.version + 1):
            answer = client.get(f"/games/{record.id}/state?at={n}", headers=headers)
            expected = game.view(from_seed(record, bodies, n), domain.viewers.RECORDER)
            assert answer.status_code == 200
            assert {**expected, "version": n} == answer.json, n
    assert real_redis.hlen(snapshot_key(key_prefix, record.id)) == record.version // EVERY


def sealed(version: int, head_hash: str, rules_version: str, state: Any) -> str:
    """A snapshot document holding ``state`` as data, with the digest of its content."""
    content = {"format": 2, "version": version, "head_hash": head_hash,
               "rules_version": rules_version, "state": state}  # fmt: skip
    return orjson.dumps({**content, "digest": snapshot_digest(content)}).decode()


def bad_snapshots(
    service: GameService, record: GameRecord, bodies: list[dict[str, Any]]
) -> dict[str, dict[int, str]]:
    """Snapshots that would give a wrong state if they were trusted, each at version 8."""
    game = domain.get_game(record.game)
    start = game.start(record.header)
    events = service.store.events(record.id)
    wrong = from_seed(record, bodies, 3)
    return {
        # Not JSON at all.
        "damaged": {8: "\x00\xffnot json{"},
        # JSON, but naming a function of another module.
        "hostile": {8: sealed(8, events[7].hash, record.rules_version, {"$fn": "os:system"})},
        # The state of event 3, at another head (as after the store lost writes).
        "stale": {8: document(game, 8, "0" * 64, record.rules_version, wrong, start)},
        # The snapshot of version 4, sound in itself, stored as version 8's.
        "other version": {8: document(game, 4, events[3].hash, record.rules_version, wrong, start)},
        # Another version of the rules.
        "other rules": {8: document(game, 8, events[7].hash, "0-old", wrong, start)},
    }


@pytest.mark.parametrize("kind", ["damaged", "hostile", "stale", "other version", "other rules"])
def test_a_bad_snapshot_is_passed_over_and_written_again(
    kind: str, real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    service = service_of(real_redis, key_prefix, tmp_path)
    record, _, bodies = recorded(service, "mada", seed=2, moves=12)
    assert record.version >= 10
    service.state(record, 10)  # writes 4 and 8
    key = snapshot_key(key_prefix, record.id)
    real_redis.hset(
        key,
        mapping={str(v): doc for v, doc in bad_snapshots(service, record, bodies)[kind].items()},
    )
    reader = service_of(real_redis, key_prefix, tmp_path)
    for n in (8, 9, 10):
        assert reader.state(record, n) == from_seed(record, bodies, n)
    # The replay that passed version 8 wrote a sound snapshot over the bad one.
    game = domain.get_game(record.game)
    stored = orjson.loads(real_redis.hget(key, "8"))
    assert stored["version"] == 8 and stored["head_hash"] == service.store.events(record.id)[7].hash
    again = service_of(real_redis, key_prefix, tmp_path)
    assert again.state(record, 8) == from_seed(record, bodies, 8)
    assert game.result(again.state(record, 8)) is None


def test_a_stale_snapshot_after_the_store_lost_writes_is_not_served(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    """The store loses events 7 and 8 (a crash), another move is recorded in their place: the
    snapshot of version 8 was taken at the lost head and must not serve."""
    service = service_of(real_redis, key_prefix, tmp_path)
    record, tokens, bodies = recorded(service, "mada", seed=4, moves=9)
    assert record.version == 9
    assert service_of(real_redis, key_prefix, tmp_path).state(record, 9) is not None
    assert real_redis.hexists(snapshot_key(key_prefix, record.id), "8")
    header, events = f"{key_prefix}{{{record.id}}}:header", f"{key_prefix}{{{record.id}}}:events"
    kept = real_redis.xrange(events)[:6]
    pipe = real_redis.pipeline()
    pipe.delete(events)
    for entry_id, fields in kept:
        pipe.xadd(events, fields, id=entry_id)
    pipe.hset(header, mapping={"version": "6", "head_hash": kept[-1][1]["hash"]})
    pipe.execute()
    writer = service_of(real_redis, key_prefix, tmp_path)
    game = domain.get_game("mada")
    bodies = bodies[:6]
    # Other moves than the lost ones: the last of the legal moves each time.
    for _ in range(3):
        move = game.legal_moves(writer.state(writer.get(record.id)))[-1]
        writer.append(record.id, tokens.recorder, move)
        bodies.append(move)
    record = writer.get(record.id)
    assert from_seed(record, bodies, 8) != from_seed(record, [*bodies[:6], *[]], 6)
    reader = service_of(real_redis, key_prefix, tmp_path)
    for n in range(record.version + 1):
        assert reader.state(record, n) == from_seed(record, bodies, n), n


def test_a_retraction_reaching_back_before_a_snapshot_gives_the_right_state(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    service = service_of(real_redis, key_prefix, tmp_path)
    record, tokens, bodies = recorded(service, "mada", seed=6, moves=8)
    assert record.version == 8
    service_of(real_redis, key_prefix, tmp_path).state(record, 8)
    assert real_redis.hexists(snapshot_key(key_prefix, record.id), "8")
    # Three retractions void moves 8, 7 and 6 (all at or before the snapshot of 8), and 4
    # (before the snapshot of 4 too, after two new moves are voided as well).
    game = domain.get_game("mada")
    for body in [{"type": "retract"}] * 3:
        service.append(record.id, tokens.recorder, body)
        bodies.append(body)
    for _ in range(2):
        move = game.legal_moves(service.state(service.get(record.id)))[-1]
        service.append(record.id, tokens.recorder, move)
        bodies.append(move)
    for body in [{"type": "retract"}] * 4:
        service.append(record.id, tokens.recorder, body)
        bodies.append(body)
    record = service.get(record.id)
    assert record.version == 17
    reader = service_of(real_redis, key_prefix, tmp_path)
    for n in range(record.version, -1, -1):
        assert reader.state(record, n) == from_seed(record, bodies, n), n
    assert from_seed(record, bodies, 17) == from_seed(record, bodies, 3)


def test_snapshots_are_kept_under_the_games_hash_tag(
    store_redis: StoreClient, key_prefix: str, tmp_path: Path
) -> None:
    service = service_of(store_redis, key_prefix, tmp_path)
    record, _, bodies = recorded(service, "mada", seed=8, moves=9)
    reader = service_of(store_redis, key_prefix, tmp_path)
    assert reader.state(record, 9) == from_seed(record, bodies, 9)
    key = snapshot_key(key_prefix, record.id)
    assert sorted(store_redis.hkeys(key)) == ["4", "8"]
    assert key_slot(key.encode()) == key_slot(f"{key_prefix}{{{record.id}}}:events".encode())
    assert store_redis.ttl(key) > 0
    assert service_of(store_redis, key_prefix, tmp_path).state(record, 9) == reader.state(record, 9)


def test_a_snapshot_that_cannot_be_written_never_fails_the_read(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = service_of(real_redis, key_prefix, tmp_path)
    record, _, bodies = recorded(service, "madcala", seed=9, moves=10)

    def down(*args: Any, **kwargs: Any) -> None:
        raise redis.ConnectionError("the snapshots' node is gone")

    reader = service_of(real_redis, key_prefix, tmp_path)
    monkeypatch.setattr(reader.snapshots, "write", down)
    assert reader.state(record, 9) == from_seed(record, bodies, 9)
    monkeypatch.undo()
    # A key of another type where the snapshots go: listing, reading and writing all fail.
    real_redis.set(snapshot_key(key_prefix, record.id), "not a hash")
    reader = service_of(real_redis, key_prefix, tmp_path)
    for n in range(record.version + 1):
        assert reader.state(record, n) == from_seed(record, bodies, n)


def test_no_snapshot_is_written_when_they_are_off(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    service = service_of(real_redis, key_prefix, tmp_path, every=0)
    record, _, bodies = recorded(service, "mada", seed=10, moves=10)
    for n in range(record.version + 1):
        assert service_of(real_redis, key_prefix, tmp_path, every=0).state(record, n) == from_seed(
            record, bodies, n
        )
    assert not real_redis.exists(snapshot_key(key_prefix, record.id))


@pytest.mark.parametrize("name", ["mada", "tally"])
def test_a_reopened_and_an_abandoned_game_replay_right_from_snapshots(
    name: str, real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    """The end retracted (the game reopened and played on), then set aside: every state, read
    through the snapshots its first reading wrote, is the fold from the seed."""
    service = service_of(real_redis, key_prefix, tmp_path)
    record, tokens, bodies = recorded(service, name, seed=5, moves=2000)
    assert service.get(record.id).status == "finished"
    for n in range(record.version + 1):
        service_of(real_redis, key_prefix, tmp_path).state(record, n)
    game = domain.get_game(name)
    for body in ({"type": "retract"}, {"type": "retract"}):
        service.append(record.id, tokens.recorder, body)
        bodies.append(body)
    move = game.legal_moves(service.state(service.get(record.id)))[0]
    service.append(record.id, tokens.recorder, move)
    service.append(record.id, tokens.recorder, {"type": "abandon"})
    bodies += [move, {"type": "abandon"}]
    record = service.get(record.id)
    assert record.status == "abandoned"
    reader = service_of(real_redis, key_prefix, tmp_path)
    for n in range(record.version, -1, -1):
        assert reader.state(record, n) == from_seed(record, bodies, n), n


def stored_snapshot(client: StoreClient, prefix: str, game_id: str, version: int) -> Any:
    return orjson.loads(client.hget(snapshot_key(prefix, game_id), str(version)))


def store_snapshot(client: StoreClient, prefix: str, game_id: str, stored: Any) -> None:
    client.hset(snapshot_key(prefix, game_id), str(stored["version"]), orjson.dumps(stored))


def test_a_snapshot_whose_state_was_changed_is_passed_over(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    """One integer of a stored state changed, its version, rules, hash and digest kept: the
    digest no longer matches, the state is the replay's, later moves go on, the audit holds."""
    app = make_app(real_redis, key_prefix, DATA_DIR=str(tmp_path), SNAPSHOT_EVERY=EVERY)
    service: GameService = app.extensions["tabletape"]
    record, tokens, bodies = recorded(service, "mada", seed=2, moves=12)
    service.state(record, 10)  # writes 4 and 8 (the latest, 12, is in its cache)
    stored = stored_snapshot(real_redis, key_prefix, record.id, 8)
    fields = stored["state"]["fields"]
    fields["turn"] = (fields["turn"] + 1) % 2
    store_snapshot(real_redis, key_prefix, record.id, stored)

    fresh = make_app(real_redis, key_prefix, DATA_DIR=str(tmp_path), SNAPSHOT_EVERY=EVERY)
    client = fresh.test_client()
    headers = {"Authorization": f"Bearer {tokens.recorder}"}
    game = domain.get_game("mada")
    for n in (8, 9, 10, 12):
        answer = client.get(f"/games/{record.id}/state?at={n}", headers=headers)
        expected = game.view(from_seed(record, bodies, n), domain.viewers.RECORDER)
        assert answer.status_code == 200 and answer.json == {**expected, "version": n}, n
    move = game.legal_moves(from_seed(record, bodies, 12))[0]
    assert client.post(f"/games/{record.id}/events", json=move, headers=headers).status_code == 201
    assert client.get(f"/games/{record.id}/audit").json["ok"] is True


@pytest.mark.parametrize("wrong", ["a string", {"$float": "nan"}, 2.5, None, [1]])
def test_a_snapshot_with_a_field_of_the_wrong_kind_is_passed_over_even_with_its_digest(
    wrong: Any, real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    """A field turned into a string or a NaN (and the digest made again to match) does not
    decode into a valid state: passed over, never a 500."""
    app = make_app(real_redis, key_prefix, DATA_DIR=str(tmp_path), SNAPSHOT_EVERY=EVERY)
    service: GameService = app.extensions["tabletape"]
    record, tokens, bodies = recorded(service, "mada", seed=2, moves=12)
    service.state(record, 10)
    stored = stored_snapshot(real_redis, key_prefix, record.id, 8)
    stored["state"]["fields"]["turn"] = wrong
    stored["digest"] = snapshot_digest({k: v for k, v in stored.items() if k != "digest"})
    store_snapshot(real_redis, key_prefix, record.id, stored)

    client = make_app(real_redis, key_prefix, DATA_DIR=str(tmp_path), SNAPSHOT_EVERY=EVERY)
    http = client.test_client()
    headers = {"Authorization": f"Bearer {tokens.recorder}"}
    game = domain.get_game("mada")
    for n in (8, 9, 10, 12):
        answer = http.get(f"/games/{record.id}/state?at={n}", headers=headers)
        expected = game.view(from_seed(record, bodies, n), domain.viewers.RECORDER)
        assert answer.status_code == 200, answer.json
        assert answer.json == {**expected, "version": n}, n
    move = game.legal_moves(from_seed(record, bodies, 12))[0]
    assert http.post(f"/games/{record.id}/events", json=move, headers=headers).status_code == 201


def test_a_snapshot_without_a_digest_is_passed_over(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    service = service_of(real_redis, key_prefix, tmp_path)
    record, _, bodies = recorded(service, "mada", seed=2, moves=12)
    service.state(record, 10)
    stored = stored_snapshot(real_redis, key_prefix, record.id, 8)
    del stored["digest"]
    stored["state"]["fields"]["turn"] = (stored["state"]["fields"]["turn"] + 1) % 2
    store_snapshot(real_redis, key_prefix, record.id, stored)
    reader = service_of(real_redis, key_prefix, tmp_path)
    assert reader.state(record, 9) == from_seed(record, bodies, 9)
    # The replay wrote a sound one, with its digest, in its place.
    assert "digest" in stored_snapshot(real_redis, key_prefix, record.id, 8)


@pytest.mark.parametrize("recheck_seconds", [0.0, 5.0])
def test_a_header_read_before_another_writers_move_gives_the_state_at_its_own_version(
    recheck_seconds: float, real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    """A request reads the header at version 9; another writer appends event 10 before the
    request reads the events. The state it gets (and the one its process keeps for version 9)
    is the state after 9 events: the concurrent writers' race that made the process call a sound
    record damaged."""
    writer = service_of(real_redis, key_prefix, tmp_path)
    record, tokens, bodies = recorded(writer, "mada", seed=5, moves=9)
    assert record.version == 9
    move = domain.get_game("mada").legal_moves(writer.state(record))[0]
    writer.append(record.id, tokens.recorder, move)
    # The reader is a fresh process still holding the header it read at version 9.
    reader = service_of(real_redis, key_prefix, tmp_path)
    reader.repository.cache.recheck_seconds = recheck_seconds
    assert reader.state(record) == from_seed(record, bodies, 9)
    reader.repository.cache.recheck_seconds = 0.0  # checked against the stored record again
    assert reader.state(record) == from_seed(record, bodies, 9)
    latest = reader.get(record.id)
    assert reader.state(latest) == from_seed(latest, [*bodies, move], 10)
    reader.append(
        record.id,
        tokens.recorder,
        domain.get_game("mada").legal_moves(from_seed(latest, [*bodies, move], 10))[0],
    )
    assert reader.get(record.id).version == 11
