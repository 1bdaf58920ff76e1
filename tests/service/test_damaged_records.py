"""A record damaged in the store: the audit names the damage, the reads that need the record answer
500 ``damaged_record`` for that game alone, the workers mark it once and go on, and every other
game, the listing and the statistics go on.

The damage is written straight into Redis under the game's keys (``service.store.keys``), as a
disk fault or a hand edit would. The reads are made by a service started after the damage
(``fresh``): a process keeps the latest states of the games it served, and a damage made behind
its back is seen once it reads the record again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq.registry import FailedJobRegistry

from service.store.chain import LEGACY_FORMAT, header_hash
from tests.conftest import make_app
from tests.support.api import append, assert_error, auth, create, legal, play_to_the_end
from tests.support.workers import run_cli, worker_env

DAMAGED_SEQ = 2


@pytest.fixture
def fresh(real_redis: redis.Redis, key_prefix: str, archive_dir: Path) -> Callable[[], FlaskClient]:
    """A client of a service started now, with no state of any game cached yet."""

    def started() -> FlaskClient:
        return make_app(real_redis, key_prefix, ARCHIVE_DIR=str(archive_dir)).test_client()

    return started


@pytest.fixture
def env(redis_url: str, key_prefix: str, archive_dir: Path) -> dict[str, str]:
    return worker_env(redis_url, key_prefix, archive_dir)


def played(client: FlaskClient, moves: int = 4, seed: int = 5) -> dict[str, Any]:
    """A two-player Mada game with ``moves`` moves, still on."""
    game = create(client, players=["Ana", "Ben"], seed=seed)
    for _ in range(moves):
        assert append(client, game, legal(client, game)[0]).status_code == 201
    return game


def finished(client: FlaskClient, seed: int) -> dict[str, Any]:
    game = create(client, players=["Ana", "Ben"], seed=seed)
    play_to_the_end(client, game, seed=seed)
    return game


def header_key(key_prefix: str, game_id: str) -> str:
    return f"{key_prefix}{{{game_id}}}:header"


def events_key(key_prefix: str, game_id: str) -> str:
    return f"{key_prefix}{{{game_id}}}:events"


# The kinds of damage to an event: each makes the stored fields of event 2 from those of event 1.
Fields = dict[str, str]
EVENT_DAMAGE: dict[str, Callable[[Fields, Fields], Fields]] = {
    "body not JSON": lambda first, own: {**own, "body": '{"type": "play", "player": '},
    "body not an object": lambda first, own: {**own, "body": '["play", 1, 5]'},
    "body without a type": lambda first, own: {**own, "body": '{"player": 1}'},
    "no body": lambda first, own: {"at": own["at"], "hash": own["hash"]},
    # Move 1 again: it is the other seat's turn, so the rules refuse it.
    "illegal move": lambda first, own: {**own, "body": first["body"]},
}


def damage_event(client: redis.Redis, key_prefix: str, game_id: str, kind: str) -> None:
    """Replace event 2's stored fields, in place in the stream (its entry id is kept)."""
    key = events_key(key_prefix, game_id)
    entries = client.xrange(key)
    client.delete(key)
    for entry_id, fields in entries:
        if entry_id == f"0-{DAMAGED_SEQ}":
            fields = EVENT_DAMAGE[kind](entries[0][1], fields)
        client.xadd(key, fields, id=entry_id)


# The header fields that can fail to decode, and a stored value that does not (None: removed).
HEADER_DAMAGE: list[tuple[str, str | None]] = [
    ("players", "Ana, Ben"),
    ("players", '"Ana"'),
    ("players", None),
    ("options", "{chance: seeded}"),
    ("options", '["seeded"]'),
    ("seed", "forty-two"),
    ("seed", "4.2"),
    ("version", "three"),
    ("result", '{"winners": [0'),
    ("result", "[0]"),
    ("seat_tokens_sha256", "abc, def"),
    ("seat_tokens_sha256", '{"0": "abc"}'),
    ("record_format", "two"),
    ("status", "paused"),
    ("game", None),
    ("created_at", None),
    ("head_hash", None),
    ("token_sha256", None),
]


def damage_header(client: redis.Redis, key_prefix: str, game_id: str, name: str,
                  value: str | None) -> None:  # fmt: skip
    if value is None:
        client.hdel(header_key(key_prefix, game_id), name)
    else:
        client.hset(header_key(key_prefix, game_id), name, value)


def assert_damaged(response: Any, *named: str) -> dict[str, Any]:
    """A 500 damaged_record in the contract's shape, whose message names each of ``named``."""
    details = assert_error(response, 500, "damaged_record")
    message = response.json["error"]["message"]
    for name in named:
        assert name in message, message
    return details


def assert_still_served(client: FlaskClient, game: dict[str, Any]) -> None:
    """Another game reads and takes moves as ever."""
    assert client.get(f"/games/{game['id']}").status_code == 200
    assert client.get(f"/games/{game['id']}/state", headers=auth(game)).status_code == 200
    assert client.get(f"/games/{game['id']}/events").status_code == 200
    assert client.get(f"/games/{game['id']}/audit").json["ok"] is True
    assert append(client, game, legal(client, game)[0]).status_code == 201


# Damaged events ----------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", EVENT_DAMAGE)
def test_the_audit_names_a_damaged_event(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str, fresh: Any, kind: str
) -> None:
    game = played(client)
    damage_event(real_redis, key_prefix, game["id"], kind)
    response = fresh().get(f"/games/{game['id']}/audit", headers=auth(game))
    assert response.status_code == 200, response.json
    audit = response.json
    assert audit["ok"] is False
    assert any(f"event {DAMAGED_SEQ} " in problem for problem in audit["problems"]), audit


@pytest.mark.parametrize("kind", EVENT_DAMAGE)
def test_reads_of_a_damaged_event_answer_500_for_that_game_alone(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str, fresh: Any, kind: str
) -> None:
    game, other = played(client), played(client, seed=6)
    damage_event(real_redis, key_prefix, game["id"], kind)
    served = fresh()
    url = f"/games/{game['id']}"
    # The header is sound: the game itself is still shown.
    assert served.get(url, headers=auth(game)).status_code == 200
    for path in ("/state", "/state?at=3", "/events", "/events?from=3&limit=1", "/legal", "/export"):
        details = assert_damaged(served.get(url + path, headers=auth(game)), f"event {DAMAGED_SEQ}")
        assert details["seq"] == DAMAGED_SEQ, path
    assert_damaged(append(served, game, {"type": "draw", "player": 0}), f"event {DAMAGED_SEQ}")
    listed = served.get("/games")
    assert listed.status_code == 200
    assert {g["id"] for g in listed.json["games"]} == {game["id"], other["id"]}
    assert served.get("/").status_code == 200
    assert served.get("/stats/mada").status_code == 200
    assert_still_served(served, other)


@pytest.mark.parametrize("kind", ["body not JSON", "illegal move"])
def test_a_damaged_event_of_a_format_1_record_is_named_too(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str, fresh: Any, kind: str
) -> None:
    game = create(client, players=["Ana", "Ben"], seed=5)
    key = header_key(key_prefix, game["id"])
    real_redis.hdel(key, "record_format", "seed_salt", "seed_commitment")
    old_header = {name: game[name] for name in ("game", "players", "seed", "options")}
    old_header["rules_version"] = game["rules_version"]
    real_redis.hset(key, "head_hash", header_hash(old_header, LEGACY_FORMAT))
    for _ in range(4):
        assert append(client, game, legal(client, game)[0]).status_code == 201
    served = fresh()
    assert served.get(f"/games/{game['id']}/audit").json["ok"] is True
    damage_event(real_redis, key_prefix, game["id"], kind)
    served = fresh()
    audit = served.get(f"/games/{game['id']}/audit").json
    assert audit["ok"] is False
    assert any(f"event {DAMAGED_SEQ} " in problem for problem in audit["problems"]), audit
    assert_damaged(served.get(f"/games/{game['id']}/state", headers=auth(game)))


# Damaged headers ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("field", "value"), HEADER_DAMAGE, ids=lambda v: str(v))
def test_a_header_that_does_not_decode_is_a_500_for_that_game_alone(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str, fresh: Any, field: str,
    value: str | None,
) -> None:  # fmt: skip
    game, other = played(client), played(client, seed=6)
    damage_header(real_redis, key_prefix, game["id"], field, value)
    served = fresh()
    url = f"/games/{game['id']}"
    details = assert_damaged(served.get(url, headers=auth(game)), field)
    assert field in details["fields"]
    for path in ("/state", "/events", "/legal", "/export"):
        assert_damaged(served.get(url + path, headers=auth(game)), field)
    # The audit reports it, naming the field.
    audit = served.get(url + "/audit", headers=auth(game))
    assert audit.status_code == 200 and audit.json["ok"] is False
    assert any(field in problem for problem in audit.json["problems"])
    assert_damaged(append(served, game, {"type": "draw", "player": 0}), field)
    # The listing leaves the damaged game out, and goes on with the others.
    listed = served.get("/games")
    assert listed.status_code == 200, listed.json
    assert [g["id"] for g in listed.json["games"]] == [other["id"]]
    page = served.get("/")
    assert page.status_code == 200
    assert other["id"] in page.get_data(as_text=True)
    assert game["id"] not in page.get_data(as_text=True)
    assert served.get("/stats/mada").status_code == 200
    assert_still_served(served, other)


def test_a_listing_page_skips_damaged_games_and_still_fills_up(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str, fresh: Any
) -> None:
    made = [create(client, players=["Ana", "Ben"], seed=seed)["id"] for seed in range(5)]
    damage_header(real_redis, key_prefix, made[3], "players", "Ana, Ben")
    served = fresh()
    first = served.get("/games?limit=2").json
    assert [g["id"] for g in first["games"]] == [made[4], made[2]]
    rest = served.get(f"/games?limit=2&cursor={first['next_cursor']}").json
    assert [g["id"] for g in rest["games"]] == [made[1], made[0]]


# The pages ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("page", ["view", "record"])
def test_the_pages_of_a_damaged_record_say_so(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str, fresh: Any, page: str
) -> None:
    by_event, by_header = played(client), played(client, seed=6)
    damage_event(real_redis, key_prefix, by_event["id"], "body not JSON")
    damage_header(real_redis, key_prefix, by_header["id"], "players", "Ana, Ben")
    served = fresh()
    for game, named in ((by_event, f"event {DAMAGED_SEQ}"), (by_header, "players")):
        response = served.get(f"/games/{game['id']}/{page}", headers={"Accept": "text/html"})
        assert response.status_code == 500
        assert response.mimetype == "text/html"
        text = response.get_data(as_text=True)
        assert "damaged" in text and named in text
        assert "Traceback" not in text


# The workers -------------------------------------------------------------------------------------
def test_workers_mark_a_damaged_record_once_and_archive_the_others(
    app: Flask, client: FlaskClient, real_redis: redis.Redis, key_prefix: str,
    env: dict[str, str],
) -> None:  # fmt: skip
    sound = finished(client, seed=0)
    damaged = {
        "body not JSON": finished(client, seed=1),
        "illegal move": finished(client, seed=2),
        "players": finished(client, seed=3),
        "seat_tokens_sha256": finished(client, seed=4),
    }
    damage_event(real_redis, key_prefix, damaged["body not JSON"]["id"], "body not JSON")
    damage_event(real_redis, key_prefix, damaged["illegal move"]["id"], "illegal move")
    damage_header(real_redis, key_prefix, damaged["players"]["id"], "players", "Ana, Ben")
    damage_header(real_redis, key_prefix, damaged["seat_tokens_sha256"]["id"],
                  "seat_tokens_sha256", "abc")  # fmt: skip
    # As if the jobs enqueued when the games finished were lost: the worker's start finds them.
    app.extensions["tabletape.queue"].queue.empty()

    first = run_cli(env, "worker", "--burst")
    assert first.returncode == 0, first.stderr
    assert client.get(f"/games/{sound['id']}").json["status"] == "archived"
    assert client.get("/stats/mada").json["games"] == 1
    queue = app.extensions["tabletape.queue"].queue
    assert FailedJobRegistry(queue=queue).count == 0
    problems = {}
    for kind, game in damaged.items():
        header = real_redis.hgetall(header_key(key_prefix, game["id"]))
        assert header["status"] == "finished", kind
        problems[kind] = header.get("archive_problem")
        assert problems[kind], f"{kind}: the archive job did not mark the game"
    assert f"event {DAMAGED_SEQ}" in problems["body not JSON"]
    assert f"event {DAMAGED_SEQ}" in problems["illegal move"]
    assert "players" in problems["players"]
    assert "seat_tokens_sha256" in problems["seat_tokens_sha256"]

    # From now on the damaged games are left alone: not enqueued again, not logged again.
    reconciled = run_cli(env, "reconcile")
    assert reconciled.returncode == 0, reconciled.stderr
    assert "0 games enqueued" in reconciled.stdout
    again = run_cli(env, "worker", "--burst")
    assert again.returncode == 0, again.stderr
    for kind, game in damaged.items():
        assert game["id"] not in again.stderr + again.stdout, kind
        header = real_redis.hgetall(header_key(key_prefix, game["id"]))
        assert header.get("archive_problem") == problems[kind]
    assert FailedJobRegistry(queue=queue).count == 0
    assert client.get("/stats/mada").json["games"] == 1
    # The audit of a damaged event still says why the archive job refused the game.
    audit = client.get(f"/games/{damaged['body not JSON']['id']}/audit").json
    assert any("archive job refused" in problem for problem in audit["problems"])


# The command line --------------------------------------------------------------------------------
def assert_one_line_error(done: Any, *said: str) -> None:
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for words in said:
        assert words in lines[0], lines[0]


def test_the_audit_command_prints_a_damaged_record_and_exits_1(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str, env: dict[str, str]
) -> None:
    by_event, by_header = played(client), played(client, seed=6)
    damage_event(real_redis, key_prefix, by_event["id"], "body not JSON")
    damage_header(real_redis, key_prefix, by_header["id"], "seed", "forty-two")
    for game, named in ((by_event, f"event {DAMAGED_SEQ} "), (by_header, "seed")):
        done = run_cli(env, "audit", game["id"])
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr
        audit = json.loads(done.stdout)
        assert audit["ok"] is False
        assert any(named in problem for problem in audit["problems"]), audit


@pytest.mark.parametrize("command", ["audit", "export", "replay"])
def test_a_command_on_an_unknown_game_says_so_in_one_line(
    env: dict[str, str], command: str
) -> None:
    assert_one_line_error(run_cli(env, command, "nope"), "no game with id 'nope'")


@pytest.mark.parametrize("command", ["export", "replay"])
def test_a_command_that_reads_a_damaged_record_says_so_in_one_line(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str, env: dict[str, str],
    command: str,
) -> None:  # fmt: skip
    by_event, by_header = played(client), played(client, seed=6)
    damage_event(real_redis, key_prefix, by_event["id"], "body not an object")
    damage_header(real_redis, key_prefix, by_header["id"], "options", "{chance: seeded}")
    assert_one_line_error(run_cli(env, command, by_event["id"]), f"event {DAMAGED_SEQ}")
    assert_one_line_error(run_cli(env, command, by_header["id"]), "options")


def test_replay_names_nobody_for_a_retraction(client: FlaskClient, env: dict[str, str]) -> None:
    game = create(client, players=["Ana", "Ben"], seed=4)
    for body in (legal(client, game)[0], {"type": "retract"}, legal(client, game)[0]):
        assert append(client, game, body).status_code == 201
    shown = run_cli(env, "replay", game["id"])
    assert shown.returncode == 0, shown.stderr
    retraction = next(line for line in shown.stdout.splitlines() if "retract" in line)
    # The columns: seq, who made the move, the move. A retraction is the recorder's.
    assert re.match(r"\s*2  -\s+retract\b", retraction), retraction
