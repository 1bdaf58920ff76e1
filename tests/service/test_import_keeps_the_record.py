"""Export and import that keep the record: a game moved to another store keeps its salt, its
commitment, its times and so its hash chain; a record is imported once; a long game goes through.
On the real Redis server (and the cluster).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.store.connection import StoreClient
from tests.conftest import make_app
from tests.support.api import append, assert_error, auth, bodies, create, play_to_the_end
from tests.support.workers import drain


@pytest.fixture
def real_redis(store_redis: StoreClient) -> StoreClient:
    return store_redis


@pytest.fixture
def archive_dir(tmp_path: Path) -> Path:
    return tmp_path / "here"


@pytest.fixture
def elsewhere(real_redis: redis.Redis, key_prefix: str, tmp_path: Path) -> Flask:
    """Another server: another store (key prefix) and archive."""
    return make_app(real_redis, f"{key_prefix}elsewhere:", ARCHIVE_DIR=str(tmp_path / "there"))


def finished(client: FlaskClient, seed: int) -> dict[str, Any]:
    game = create(client, players=["Ana", "Ben", "Caro"], seed=seed)
    play_to_the_end(client, game, seed=seed)
    return game


def test_a_game_moved_to_another_store_is_the_same_record(app: Flask, elsewhere: Flask) -> None:
    here, there = app.test_client(), elsewhere.test_client()
    game = finished(here, seed=4)
    drain(app)
    exported = here.get(f"/games/{game['id']}/export").json
    assert {"created_at", "finished_at", "seed_salt", "seed_commitment"} <= set(exported)
    assert all("at" in event for event in exported["events"])

    copy = there.post("/games/import", json=exported)
    assert copy.status_code == 201, copy.json
    original = here.get(f"/games/{game['id']}").json
    moved = there.get(f"/games/{copy.json['id']}").json
    for kept in ("seed", "seed_salt", "seed_commitment", "created_at", "finished_at", "result"):
        assert moved[kept] == original[kept], kept
    # The chain is the source's: the audits agree on the head hash, each event on its hash.
    audits = [
        side.get(f"/games/{g}/audit").json for side, g in ((here, game["id"]), (there, moved["id"]))
    ]
    assert audits[0]["ok"] and audits[1]["ok"]
    assert audits[0]["head_hash"] == audits[1]["head_hash"]
    events = [side.get(f"/games/{g}/events?limit=1000").json["events"]
              for side, g in ((here, game["id"]), (there, moved["id"]))]  # fmt: skip
    assert events[0] == events[1]
    # Its export is the source's export.
    assert there.get(f"/games/{moved['id']}/export").json == exported
    # Its figures land on the day it finished, not the import's.
    drain(elsewhere)
    day = original["finished_at"][:10]
    assert there.get(f"/stats/mada?since={day}&until={day}").json["games"] == 1


def test_a_record_is_imported_once(app: Flask, elsewhere: Flask) -> None:
    here, there = app.test_client(), elsewhere.test_client()
    game = finished(here, seed=5)
    exported = here.get(f"/games/{game['id']}/export").json
    # Into the store it came from: that game is named, and no token is given.
    refused = here.post("/games/import", json=exported)
    details = assert_error(refused, 409, "already_imported")
    assert details == {"id": game["id"]} and set(refused.json) == {"error"}
    copy = there.post("/games/import", json=exported).json
    again = assert_error(there.post("/games/import", json=exported), 409, "already_imported")
    assert again["id"] == copy["id"]
    assert len(there.get("/games").json["games"]) == 1


def test_a_record_of_a_game_made_before_the_index_is_recognised_after_reconcile(
    app: Flask,
) -> None:
    from workers.queues import reconcile

    client = app.test_client()
    game = finished(client, seed=6)
    services = app.extensions["tabletape"]
    services.store.redis.delete(f"{app.config['KEY_PREFIX']}games:commitments")
    reconcile(services.store, app.extensions["tabletape.queue"])
    exported = client.get(f"/games/{game['id']}/export").json
    assert assert_error(client.post("/games/import", json=exported), 409, "already_imported") == {
        "id": game["id"]
    }


def test_a_record_without_times_gets_the_import_time_and_a_chain_of_its_own(
    app: Flask, elsewhere: Flask
) -> None:
    here, there = app.test_client(), elsewhere.test_client()
    game = finished(here, seed=7)
    exported = here.get(f"/games/{game['id']}/export").json
    untimed = {k: v for k, v in exported.items() if k not in ("created_at", "finished_at")}
    untimed["events"] = bodies(exported)
    copy = there.post("/games/import", json=untimed).json
    moved = there.get(f"/games/{copy['id']}").json
    assert moved["seed_commitment"] == exported["seed_commitment"]
    assert moved["created_at"] != exported["created_at"]
    audit = there.get(f"/games/{copy['id']}/audit").json
    assert audit["ok"] is True
    assert audit["head_hash"] != here.get(f"/games/{game['id']}/audit").json["head_hash"]


def test_a_commitment_that_is_not_the_seeds_is_refused(app: Flask, elsewhere: Flask) -> None:
    game = finished(app.test_client(), seed=8)
    exported = app.test_client().get(f"/games/{game['id']}/export").json
    forged = {**exported, "seed": exported["seed"] + 1}
    assert_error(elsewhere.test_client().post("/games/import", json=forged), 422, "illegal_move")
    assert elsewhere.test_client().get("/games").json["games"] == []


def test_bad_times_in_a_record_are_422_naming_the_event(app: Flask, elsewhere: Flask) -> None:
    game = finished(app.test_client(), seed=9)
    exported = app.test_client().get(f"/games/{game['id']}/export").json
    exported["events"][2]["at"] = "yesterday"
    details = assert_error(
        elsewhere.test_client().post("/games/import", json=exported), 422, "illegal_move"
    )
    assert "events.3.at" in details


@pytest.mark.parametrize(
    ("field", "moment"),
    [
        ("finished_at", "2025-13-45T99:99:99Z"),
        ("finished_at", "2025-02-30T10:00:00Z"),
        ("created_at", "{created_at}\n"),
        ("events.3.at", "2025-02-30T25:61:61Z"),
        ("events.3.at", "2025-02-28T24:00:00Z"),
        ("created_at", "\uff12\uff10\uff12\uff15-01-01T00:00:00Z"),  # full-width digits
    ],
)
def test_a_record_with_a_moment_that_does_not_exist_is_refused_naming_the_field(
    app: Flask, elsewhere: Flask, field: str, moment: str
) -> None:
    game = finished(app.test_client(), seed=9)
    exported = app.test_client().get(f"/games/{game['id']}/export").json
    moment = moment.format(created_at=exported["created_at"])
    if field.startswith("events."):
        exported["events"][2]["at"] = moment
    else:
        exported[field] = moment
    there = elsewhere.test_client()
    details = assert_error(there.post("/games/import", json=exported), 422, "illegal_move")
    assert field in details
    assert there.get("/games").json["games"] == []


def test_a_record_whose_times_are_out_of_order_or_to_come_is_refused(
    app: Flask, elsewhere: Flask
) -> None:
    game = finished(app.test_client(), seed=9)
    exported = app.test_client().get(f"/games/{game['id']}/export").json
    there = elsewhere.test_client()
    ahead = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 30))

    def refused(document: dict[str, Any], field: str) -> None:
        details = assert_error(there.post("/games/import", json=document), 422, "illegal_move")
        assert field in details, details

    early = [{**event, "at": "2000-01-01T00:00:00.000Z"} for event in exported["events"]]
    refused({**exported, "events": early}, "events.1.at")
    refused({**exported, "finished_at": exported["created_at"]}, "finished_at")
    swapped = [dict(event) for event in exported["events"]]
    swapped[1]["at"] = "2000-01-01T00:00:00.000Z"
    refused({**exported, "events": swapped}, "events.2.at")
    refused({**exported, "finished_at": "2999-01-01T00:00:00Z"}, "finished_at")
    assert there.get("/games").json["games"] == []
    # Not even seconds ahead: an active game imported so would take its next moves stamped
    # before its own times, a record that no service (this one included) would take back.
    refused({**exported, "finished_at": ahead}, "finished_at")
    assert there.get("/games").json["games"] == []


def test_an_abandoned_game_moves_as_abandoned(app: Flask, elsewhere: Flask) -> None:
    here = app.test_client()
    game = create(here, players=["Ana", "Ben"], seed=3)
    append(here, game, {"type": "abandon"})
    exported = here.get(f"/games/{game['id']}/export", headers=auth(game)).json
    copy = elsewhere.test_client().post("/games/import", json=exported).json
    assert copy["status"] == "abandoned"


def test_a_game_of_thousands_of_moves_imports_whole(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    here = make_app(real_redis, key_prefix, ARCHIVE_DIR=str(tmp_path / "a"))
    there = make_app(real_redis, f"{key_prefix}b:", ARCHIVE_DIR=str(tmp_path / "b"))
    client = here.test_client()
    # Madcala with much health: a long duel, whose export is far over a move's 64 KiB.
    game = create(client, game="madcala", players=["Ana", "Ben"], seed=7,
                  options={"health": 60})  # fmt: skip
    play_to_the_end(client, game, seed=7)
    exported = client.get(f"/games/{game['id']}/export").json
    size = len(json.dumps(exported))
    assert size > 64 * 1024, size
    copy = there.test_client().post("/games/import", json=exported)
    assert copy.status_code == 201, copy.json
    # The import's limit is its own: past it, 413.
    small = make_app(real_redis, f"{key_prefix}c:", IMPORT_MAX_BYTES=size // 2).test_client()
    assert_error(small.post("/games/import", json=exported), 413, "too_large")


def stripped(exported: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """``exported`` less its salt and commitment, with ``changes``."""
    return {**exported, "seed_salt": None, "seed_commitment": None, **changes}


def test_a_record_stripped_of_its_salt_commitment_or_format_is_still_the_same_record(
    app: Flask, elsewhere: Flask
) -> None:
    here, there = app.test_client(), elsewhere.test_client()
    game = finished(here, seed=10)
    exported = here.get(f"/games/{game['id']}/export").json
    saltless = [
        stripped(exported),
        {k: v for k, v in stripped(exported).items() if k != "record_format"},
        {k: v for k, v in exported.items() if k != "seed_salt"},
    ]
    # Called format 1 (which has no salt): the same game, players, seed, options and moves.
    relabelled = stripped(exported, record_format=1)
    without_commitment = {**exported, "seed_commitment": None}
    # Into the store it was made in: that game, whichever way it comes.
    for document in (*saltless, relabelled, without_commitment):
        refused = here.post("/games/import", json=document)
        assert assert_error(refused, 409, "already_imported") == {"id": game["id"]}
    assert len(here.get("/games").json["games"]) == 1
    # Elsewhere, where it is not: a record of format 2 without its salt cannot be checked.
    for document in saltless:
        details = assert_error(there.post("/games/import", json=document), 422, "illegal_move")
        assert "seed_salt" in details
    assert there.get("/games").json["games"] == []
    # Imported there once, whichever way it comes the second time.
    copy = there.post("/games/import", json=exported)
    assert copy.status_code == 201, copy.json
    for again in (exported, *saltless, relabelled, without_commitment):
        refused = there.post("/games/import", json=again)
        assert assert_error(refused, 409, "already_imported") == {"id": copy.json["id"]}
    assert len(there.get("/games").json["games"]) == 1


def test_a_record_of_format_1_is_imported_once(app: Flask, elsewhere: Flask) -> None:
    game = finished(app.test_client(), seed=11)
    exported = app.test_client().get(f"/games/{game['id']}/export").json
    there = elsewhere.test_client()
    # A format-1 record has no salt: one that says it has is not what it says.
    salted = {**exported, "record_format": 1, "seed_commitment": None}
    refused = assert_error(there.post("/games/import", json=salted), 422, "illegal_move")
    assert "seed_salt" in refused
    first = there.post("/games/import", json=stripped(exported, record_format=1))
    assert first.status_code == 201, first.json
    assert first.json["seed_commitment"] is None
    again = there.post("/games/import", json=stripped(exported, record_format=1))
    assert assert_error(again, 409, "already_imported") == {"id": first.json["id"]}


def test_the_same_moves_under_other_players_are_another_record(app: Flask) -> None:
    client = app.test_client()
    game = finished(client, seed=12)
    exported = client.get(f"/games/{game['id']}/export").json
    other = stripped(exported, record_format=1, players=["Dan", "Eve", "Fay"])
    assert client.post("/games/import", json=other).status_code == 201


def test_a_game_made_before_the_index_is_recognised_without_its_salt_after_reconcile(
    app: Flask,
) -> None:
    from workers.queues import reconcile

    client = app.test_client()
    game = finished(client, seed=13)
    services = app.extensions["tabletape"]
    prefix = app.config["KEY_PREFIX"]
    for key in services.store.redis.scan_iter(match=f"{prefix}games:played:*"):
        services.store.redis.delete(key)
    reconcile(services.store, app.extensions["tabletape.queue"])
    exported = client.get(f"/games/{game['id']}/export").json
    refused = client.post("/games/import", json=stripped(exported, record_format=1))
    assert assert_error(refused, 409, "already_imported") == {"id": game["id"]}


def test_two_imports_of_one_record_at_once_make_one_game(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    import threading

    source = make_app(real_redis, f"{key_prefix}src:", ARCHIVE_DIR=str(tmp_path / "src"))
    game = finished(source.test_client(), seed=14)
    document = stripped(
        source.test_client().get(f"/games/{game['id']}/export").json, record_format=1
    )
    servers = [make_app(real_redis, key_prefix, ARCHIVE_DIR=str(tmp_path / "dst")) for _ in "ab"]
    statuses: list[int] = []
    barrier = threading.Barrier(len(servers))

    def post(server: Flask) -> None:
        barrier.wait()
        statuses.append(server.test_client().post("/games/import", json=document).status_code)

    threads = [threading.Thread(target=post, args=(server,)) for server in servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201, 409]


def test_an_import_never_takes_over_the_claim_of_an_import_still_making_its_game(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    """The first import has claimed the record and not yet stored its game (a slow machine):
    the second is refused, naming that game, and makes none."""
    import threading
    from unittest import mock

    from service.store.events import EventStore

    source = make_app(real_redis, f"{key_prefix}src:", ARCHIVE_DIR=str(tmp_path / "src"))
    game = finished(source.test_client(), seed=15)
    document = stripped(
        source.test_client().get(f"/games/{game['id']}/export").json, record_format=1
    )
    first, second = (
        make_app(real_redis, key_prefix, ARCHIVE_DIR=str(tmp_path / "dst")) for _ in "ab"
    )
    claimed, second_done = threading.Event(), threading.Event()
    # An import stores its game, with its events, in one step (``create_imported``).
    store_the_game = EventStore.create_imported
    answers: list[Any] = []

    def slow_create(store: EventStore, record: Any, *rest: Any, **named: Any) -> Any:
        if threading.current_thread() is slow:
            claimed.set()
            second_done.wait(10)
        return store_the_game(store, record, *rest, **named)

    slow = threading.Thread(
        target=lambda: answers.append(first.test_client().post("/games/import", json=document))
    )
    with mock.patch.object(EventStore, "create_imported", slow_create):
        slow.start()
        assert claimed.wait(10)
        refused = second.test_client().post("/games/import", json=document)
        second_done.set()
        slow.join()
    assert answers[0].status_code == 201
    assert_error(refused, 409, "already_imported")
    assert refused.json["error"]["details"]["id"] == answers[0].json["id"]
    assert [g["id"] for g in second.test_client().get("/games").json["games"]] == [
        answers[0].json["id"]
    ]


def test_the_claim_of_an_import_that_died_is_taken_over_once_its_minute_is_out(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    from unittest import mock

    from service.store.events import EventStore

    source = make_app(real_redis, f"{key_prefix}src:", ARCHIVE_DIR=str(tmp_path / "src"))
    game = finished(source.test_client(), seed=16)
    document = source.test_client().get(f"/games/{game['id']}/export").json
    here = make_app(real_redis, key_prefix, ARCHIVE_DIR=str(tmp_path / "dst")).test_client()
    dead: list[str] = []

    def crash(store: EventStore, record: Any, *rest: Any, **named: Any) -> Any:
        dead.append(record.id)
        raise redis.exceptions.ConnectionError("the import died between its claim and its game")

    # An import stores its game, with its events, in one step (``create_imported``).
    with mock.patch.object(EventStore, "create_imported", crash):
        assert here.post("/games/import", json=document).status_code == 503
    # Within its minute, the claim stands: the game may still be on its way.
    assert_error(here.post("/games/import", json=document), 409, "already_imported")
    # Its minute out, the next import makes the game.
    real_redis.delete(f"{key_prefix}{{{dead[0]}}}:importing")
    made = here.post("/games/import", json=document)
    assert made.status_code == 201, made.json
    assert [g["id"] for g in here.get("/games").json["games"]] == [made.json["id"]]
