"""Damage of any shape is a damaged_record of that game alone (the contract's list): a key of the
wrong type, a header naming a game or rules version not played here, a stream shorter or longer
than the header's version, an idempotency record that does not decode.

Each shape is made straight in Redis, as a disk fault or a hand edit would, and read by a service
started afterwards (``fresh``). Headers and events that do not decode: test_damaged_records.py.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq.registry import FailedJobRegistry

from tests.conftest import make_app
from tests.support.api import append, assert_error, auth, create, legal, play_to_the_end
from tests.support.workers import run_cli, worker_env


@pytest.fixture
def fresh(real_redis: redis.Redis, key_prefix: str, archive_dir: Path) -> Callable[[], FlaskClient]:
    def started() -> FlaskClient:
        return make_app(real_redis, key_prefix, ARCHIVE_DIR=str(archive_dir)).test_client()

    return started


def keys(prefix: str, game_id: str) -> tuple[str, str]:
    return f"{prefix}{{{game_id}}}:header", f"{prefix}{{{game_id}}}:events"


def header_of_another_type(client: redis.Redis, prefix: str, game_id: str) -> None:
    header, _ = keys(prefix, game_id)
    client.delete(header)
    client.set(header, "not a hash")


def events_of_another_type(client: redis.Redis, prefix: str, game_id: str) -> None:
    _, events = keys(prefix, game_id)
    client.delete(events)
    client.set(events, "not a stream")


def version_ahead_of_the_stream(client: redis.Redis, prefix: str, game_id: str) -> None:
    header, _ = keys(prefix, game_id)
    client.hincrby(header, "version", 2)


def stream_beyond_the_version(client: redis.Redis, prefix: str, game_id: str) -> None:
    header, events = keys(prefix, game_id)
    version = int(client.hget(header, "version") or 0)
    last = client.xrange(events, f"0-{version}", f"0-{version}")[0][1]
    client.xadd(events, last, id=f"0-{version + 1}")


def unknown_game(client: redis.Redis, prefix: str, game_id: str) -> None:
    client.hset(keys(prefix, game_id)[0], "game", "chess")


def unknown_rules_version(client: redis.Redis, prefix: str, game_id: str) -> None:
    client.hset(keys(prefix, game_id)[0], "rules_version", "mada/9")


# Shape -> how it is made, and a word the damage's message names.
SHAPES: dict[str, tuple[Callable[[redis.Redis, str, str], None], str]] = {
    "header of another type": (header_of_another_type, "header"),
    "events of another type": (events_of_another_type, "stream"),
    "version ahead of the stream": (version_ahead_of_the_stream, "version"),
    "stream beyond the version": (stream_beyond_the_version, "version"),
    "unknown game": (unknown_game, "game"),
    "unknown rules version": (unknown_rules_version, "rules_version"),
}


def played(client: FlaskClient, seed: int, moves: int = 4) -> dict[str, Any]:
    game = create(client, players=["Ana", "Ben"], seed=seed)
    for _ in range(moves):
        assert append(client, game, legal(client, game)[0]).status_code == 201
    return game


def assert_damaged(response: Any, named: str) -> None:
    assert_error(response, 500, "damaged_record")
    assert named in response.json["error"]["message"], response.json


@pytest.mark.parametrize("shape", SHAPES)
def test_a_damage_shape_is_a_damaged_record_of_that_game_alone(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str, fresh: Any, shape: str
) -> None:
    damage, named = SHAPES[shape]
    game, other = played(client, seed=5), played(client, seed=6)
    damage(real_redis, key_prefix, game["id"])
    served = fresh()
    url = f"/games/{game['id']}"
    for path in ("", "/state", "/events", "/legal", "/export", "/stream"):
        assert_damaged(served.get(url + path, headers=auth(game)), named)
    assert_damaged(append(served, game, {"type": "draw", "player": 0}), named)
    audit = served.get(url + "/audit", headers=auth(game))
    assert audit.status_code == 200 and audit.json["ok"] is False
    assert any(named in problem for problem in audit.json["problems"]), audit.json
    for page in ("view", "record"):
        shown = served.get(f"{url}/{page}")
        assert shown.status_code == 500 and "damaged" in shown.get_data(as_text=True)
    # Listings leave it out, and go on with the others.
    for listing in ("/games", "/games?player=Ana", "/games?game=mada"):
        listed = served.get(listing)
        assert listed.status_code == 200, (listing, listed.json)
        assert [g["id"] for g in listed.json["games"]] == [other["id"]], listing
    assert served.get("/").status_code == 200
    assert served.get("/players/Ana/view").status_code == 200
    assert served.get(f"{'/games/' + other['id']}/state", headers=auth(other)).status_code == 200
    assert append(served, other, legal(served, other)[0]).status_code == 201


def test_an_idempotency_record_that_does_not_decode_is_a_damaged_record(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str, fresh: Any
) -> None:
    game = played(client, seed=5, moves=0)
    move = legal(client, game)[0]
    assert append(client, game, move, **{"Idempotency-Key": "tap-1"}).status_code == 201
    (record_key,) = real_redis.keys(f"{key_prefix}{{{game['id']}}}:idem:*")
    real_redis.set(record_key, '{"body_sha256": ')
    retried = append(fresh(), game, move, **{"Idempotency-Key": "tap-1"})
    assert_damaged(retried, "idempotency")
    # The record itself is sound: the game reads, and takes moves without that key.
    served = fresh()
    assert served.get(f"/games/{game['id']}/state", headers=auth(game)).status_code == 200
    assert append(served, game, legal(served, game)[0]).status_code == 201


def test_the_workers_pass_over_every_shape_once_without_a_traceback(
    app: Flask, client: FlaskClient, real_redis: redis.Redis, key_prefix: str,
    archive_dir: Path, redis_url: str,
) -> None:  # fmt: skip
    env = worker_env(redis_url, key_prefix, archive_dir)
    sound = create(client, players=["Ana", "Ben"], seed=0)
    play_to_the_end(client, sound, seed=0)
    damaged = {}
    for number, (shape, (damage, _)) in enumerate(SHAPES.items(), start=1):
        game = create(client, players=["Ana", "Ben"], seed=number)
        play_to_the_end(client, game, seed=number)
        damage(real_redis, key_prefix, game["id"])
        damaged[shape] = game
    # As if the jobs enqueued when the games finished were lost: the worker's start finds them.
    queue = app.extensions["tabletape.queue"].queue
    queue.empty()
    for command in (("worker", "--burst"), ("reconcile",), ("worker", "--burst")):
        done = run_cli(env, *command)
        assert done.returncode == 0, (command, done.stderr)
        assert "Traceback" not in done.stderr, done.stderr
    assert client.get(f"/games/{sound['id']}").json["status"] == "archived"
    assert client.get("/stats/mada").json["games"] == 1
    assert FailedJobRegistry(queue=queue).count == 0
    again = run_cli(env, "reconcile")
    assert "0 games enqueued" in again.stdout, again.stdout
