"""Who may add games: with WRITE_KEY set, creating a game and importing a record need it as the
Bearer token; a game's own tokens work as before for its moves, reading stays open, and the
`tabletape` commands (the operator's, on the store itself) need no key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.config import load_config
from tests.conftest import make_app
from tests.support.api import (
    append,
    assert_error,
    create,
    legal,
    new_record,
    play_to_the_end,
)
from tests.support.workers import run_cli, worker_env

KEY = "the-club-s-write-key"
NEW_GAME = {"game": "mada", "players": ["Ana", "Ben"], "seed": 4}


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"WRITE_KEY": KEY}


def with_key(key: str = KEY) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def a_finished_record(real_redis: redis.Redis, key_prefix: str, tmp_path: Path) -> dict[str, Any]:
    """The export of a game played to its end on a service without a key."""
    open_client = make_app(real_redis, key_prefix, DATA_DIR=str(tmp_path)).test_client()
    game = create(open_client, players=["Ana", "Ben"], seed=4)
    play_to_the_end(open_client, game, seed=4)
    exported = open_client.get(
        f"/games/{game['id']}/export", headers={"Authorization": f"Bearer {game['token']}"}
    ).json
    return new_record(exported)


@pytest.mark.parametrize(
    "headers",
    [{}, with_key("not-the-key"), with_key(KEY + "x"), {"Authorization": KEY}],
    ids=["no key", "another key", "a longer key", "no Bearer"],
)
def test_creating_a_game_without_the_write_key_is_401_and_creates_nothing(
    app: Flask, headers: dict[str, str]
) -> None:
    client = app.test_client()
    assert_error(client.post("/games", json=NEW_GAME, headers=headers), 401, "unauthorized")
    # Refused before the body is read: a bad body tells nothing either.
    assert_error(client.post("/games", json={"game": 1}, headers=headers), 401, "unauthorized")
    not_json = client.post("/games", data="{", content_type="application/json", headers=headers)
    assert_error(not_json, 401, "unauthorized")
    assert client.get("/games").json["games"] == []


def test_with_the_write_key_a_game_is_created_and_played_with_its_own_tokens(app: Flask) -> None:
    client = app.test_client()
    created = client.post("/games", json=NEW_GAME, headers=with_key())
    assert created.status_code == 201
    game = created.json
    # Its moves take its own tokens, not the key; reading needs none.
    assert append(client, game, legal(client, game)[0]).status_code == 201
    assert client.get(f"/games/{game['id']}").json["version"] == 1
    assert client.get(f"/games/{game['id']}/events").status_code == 200
    assert client.get("/games").json["games"][0]["id"] == game["id"]
    # The key is no token of the game: it neither appends nor reads as the recorder.
    moves = legal(client, game)
    assert_error(client.post(f"/games/{game['id']}/events", json=moves[0], headers=with_key()),
                 401, "unauthorized")  # fmt: skip


def test_importing_a_record_needs_the_write_key(
    app: Flask, real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    record = a_finished_record(real_redis, key_prefix, tmp_path)
    client = app.test_client()
    assert_error(client.post("/games/import", json=record), 401, "unauthorized")
    assert_error(client.post("/games/import", json=record, headers=with_key("no")), 401,
                 "unauthorized")  # fmt: skip
    imported = client.post("/games/import", json=record, headers=with_key())
    assert imported.status_code == 201, imported.json


def test_without_a_write_key_anyone_creates_games(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    client = make_app(real_redis, key_prefix, DATA_DIR=str(tmp_path)).test_client()
    assert client.post("/games", json=NEW_GAME).status_code == 201


def test_the_write_key_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_config()["WRITE_KEY"] is None
    monkeypatch.setenv("TABLETAPE_WRITE_KEY", KEY)
    assert load_config()["WRITE_KEY"] == KEY


def test_the_openapi_document_says_who_may_add_games(client: FlaskClient) -> None:
    document = client.get("/openapi.json").json
    scheme = document["components"]["securitySchemes"]["writeKey"]
    assert scheme["type"] == "http" and scheme["scheme"] == "bearer"
    for path in ("/games", "/games/import"):
        operation = document["paths"][path]["post"]
        assert "401" in operation["responses"]
        assert {"writeKey": []} in operation["security"]


def test_the_commands_create_games_without_the_key(
    redis_url: str, key_prefix: str, tmp_path: Path, app: Flask
) -> None:
    env = {**worker_env(redis_url, key_prefix, tmp_path / "archive"), "TABLETAPE_WRITE_KEY": KEY}
    done = run_cli(env, "simulate", "mada", "-n", "1", "--seed", "3")
    assert done.returncode == 0, done.stderr
    game_id = done.stdout.split()[0]
    assert app.test_client().get(f"/games/{game_id}").json["status"] == "finished"


def test_every_import_route_needs_the_write_key(app: Flask) -> None:
    # The imports of other apps' plays (/imports/*) are covered by the check as they are added.
    app.add_url_rule(
        "/imports/elsewhere", "imports_elsewhere", lambda: ("imported", 200), methods=["POST"]
    )
    client = app.test_client()
    assert_error(client.post("/imports/elsewhere", json={}), 401, "unauthorized")
    assert client.post("/imports/elsewhere", json={}, headers=with_key()).status_code == 200
    # An unknown path is answered as any is.
    assert_error(client.post("/imports/nothing-here", json={}), 404, "not_found")
