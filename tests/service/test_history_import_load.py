"""Imports of a group's history past what the server holds at once (api.md, "Bringing history
in": they "wait or are answered 503 `unavailable` with `Retry-After`, never a dropped
connection"): HISTORY_IMPORTS_AT_ONCE imports run at once, counted in the store for every process
of the server; one more is answered 503 before its body is read, and writes nothing. On the real
Redis."""

from __future__ import annotations

import threading
from typing import Any
from unittest import mock

import pytest
import redis
from flask import Flask

from service.games.records import Records
from service.store.connection import StoreClient
from service.store.import_slots import ImportSlots
from service.store.keys import Keys
from tests.conftest import make_app
from tests.service.test_history_imports import group
from tests.support.api import assert_error
from tests.support.history import bgg_xml


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"HISTORY_IMPORTS_AT_ONCE": 1}


def a_backup() -> dict[str, Any]:
    backup, p = group()
    azul = backup.game("Azul")
    backup.play(azul, "2021-01-01 20:00:00", [(p["Ann"], "5", True), (p["Ben"], "3", False)])
    return backup.export()


XML = bgg_xml([{"id": 1, "date": "2020-01-01", "name": "Azul",
                "players": [{"name": "Ann", "score": "5", "win": True}]}])  # fmt: skip


def assert_busy(response: Any) -> None:
    assert_error(response, 503, "unavailable")
    assert int(response.headers["Retry-After"]) > 0
    assert "at once" in response.json["error"]["message"]


def test_an_import_past_the_imports_at_once_is_answered_503_and_writes_nothing(
    app: Flask, real_redis: redis.Redis, key_prefix: str
) -> None:
    # Another process of the same server: it shares the count through the store.
    other = make_app(real_redis, key_prefix, HISTORY_IMPORTS_AT_ONCE=1)
    storing, go_on = threading.Event(), threading.Event()
    store_the_game = Records.import_record
    answers: list[Any] = []

    def slow_store(records: Records, document: dict[str, Any], **named: Any) -> Any:
        # The first import's play, stored by one of its threads (the test's own requests are
        # refused before they store anything).
        if threading.current_thread() is not threading.main_thread():
            storing.set()
            go_on.wait(10)
        return store_the_game(records, document, **named)

    first = threading.Thread(
        target=lambda: answers.append(
            app.test_client().post("/imports/bgg", data=XML, content_type="application/xml")
        )
    )
    with mock.patch.object(Records, "import_record", slow_store):
        first.start()
        try:
            assert storing.wait(10)
            assert_busy(other.test_client().post("/imports/bgstats", json=a_backup()))
            assert_busy(app.test_client().post("/imports/bgstats", json=a_backup()))
            # Refused before its body is read: a body that is no JSON is not even looked at.
            assert_busy(
                other.test_client().post(
                    "/imports/bgstats", data=b"{", content_type="application/json"
                )
            )
        finally:
            go_on.set()
            first.join()
    assert answers[0].status_code == 200 and answers[0].json["imported"] == 1
    assert len(app.test_client().get("/games").json["games"]) == 1
    # The first import over, the one refused goes through.
    retried = other.test_client().post("/imports/bgstats", json=a_backup())
    assert retried.status_code == 200 and retried.json["imported"] == 1, retried.json
    assert len(app.test_client().get("/games").json["games"]) == 2


def test_the_slot_of_an_import_killed_midway_is_free_once_its_lease_is_out(
    app: Flask, real_redis: StoreClient, key_prefix: str
) -> None:
    # An import whose process was killed: it took its slot and never gave it back.
    killed = ImportSlots(real_redis, Keys(key_prefix), limit=1).take()
    assert killed is not None
    client = app.test_client()
    assert_busy(client.post("/imports/bgg", data=XML, content_type="application/xml"))
    assert 0 < real_redis.pttl(f"{key_prefix}imports-in-flight") <= 60_000
    # Its lease out (the minute passed), the next import takes the slot.
    real_redis.zadd(f"{key_prefix}imports-in-flight", {killed.lease: 1})
    answer = client.post("/imports/bgg", data=XML, content_type="application/xml")
    assert answer.status_code == 200 and answer.json["imported"] == 1, answer.json
    # And gives it back when it ends.
    assert real_redis.zcard(f"{key_prefix}imports-in-flight") == 0
