"""A title's games listed under a key of an earlier scheme (the a-z keys: "Straße" under
``stra-e``) are regrouped by the rebuild (``tabletape stats rebuild``) under its key as now
computed, and the earlier key is gone; on one Redis and on a Redis Cluster."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.stats.rebuild import rebuild_stats
from service.store.connection import StoreClient
from tests.service.test_scoresheet_stats import played
from tests.support.workers import drain


@pytest.fixture
def real_redis(store_redis: StoreClient) -> StoreClient:
    """On the plain Redis, then on the cluster (tests/conftest.py)."""
    return store_redis


def listed_under_old_key(client: StoreClient, prefix: str, new: str, old: str) -> None:
    """As a store of the version before keys of every script left it: the games of key ``new``
    listed under ``old`` (one command per key: on a cluster each listing is a slot of its own)."""
    games = client.zrange(f"{prefix}games:game:{new}", 0, -1, withscores=True)
    client.zadd(f"{prefix}games:game:{old}", dict(games))
    client.delete(f"{prefix}games:game:{new}")
    game_name = client.hget(f"{prefix}games:titles", new)
    client.hdel(f"{prefix}games:titles", new)
    client.hset(f"{prefix}games:titles", old, game_name)


def listed(client: FlaskClient, key: str) -> list[str]:
    answer = client.get(f"/games?game={key}")
    assert answer.status_code == 200, answer.json
    return [game["id"] for game in answer.json["games"]]


def test_the_rebuild_lists_a_titles_games_under_its_key_and_drops_the_old_one(
    app: Flask, client: FlaskClient, real_redis: StoreClient, key_prefix: str, archive_dir: Path
) -> None:
    first = played(client, "Straße", ["Ana", "Ben"], [[3, 4]])
    second = played(client, "STRASSE", ["Ana", "Ben"], [[5, 1]])
    azul = played(client, "Azul", ["Ana", "Ben"], [[1, 2]])
    drain(app)
    listed_under_old_key(real_redis, key_prefix, "strasse", "stra-e")
    old = f"{key_prefix}games:game:stra-e"
    assert sorted(real_redis.zrange(old, 0, -1)) == sorted([first["id"], second["id"]])
    assert listed(client, "strasse") == []

    assert rebuild_stats(real_redis, key_prefix, archive_dir) == 3

    assert listed(client, "strasse") == [second["id"], first["id"]]
    assert not real_redis.exists(old)
    assert listed(client, "azul") == [azul["id"]]
    titles = real_redis.hgetall(f"{key_prefix}games:titles")
    assert sorted(titles) == ["azul", "strasse"]
    assert [(t["key"], t["games"]) for t in client.get("/titles").json["titles"]] == [
        ("strasse", 2), ("azul", 1)
    ]  # fmt: skip
    # Run again, it changes nothing.
    assert rebuild_stats(real_redis, key_prefix, archive_dir) == 3
    assert listed(client, "strasse") == [second["id"], first["id"]]
    assert sorted(real_redis.hgetall(f"{key_prefix}games:titles")) == ["azul", "strasse"]


def test_a_title_whose_key_names_a_game_with_rules_keeps_that_games_games(
    app: Flask, client: FlaskClient, real_redis: StoreClient, key_prefix: str, archive_dir: Path
) -> None:
    # A score sheet titled "Mada" is listed under "mada", beside the games played by Mada's rules.
    sheet = played(client, "Mada", ["Ana", "Ben"], [[3, 4]])
    drain(app)
    mada_games = real_redis.zrange(f"{key_prefix}games:game:mada", 0, -1)
    assert mada_games == [sheet["id"]]
    rebuild_stats(real_redis, key_prefix, archive_dir)
    assert listed(client, "mada") == [sheet["id"]]
    assert "mada" in real_redis.hgetall(f"{key_prefix}games:titles")
