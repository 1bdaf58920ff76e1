"""The listings in the order games were played (api.md, ``GET /games``): newest means played last,
by ``finished_at`` (an active game by ``created_at``), then ``id``; so a history of older plays
imported today never comes before tonight's games, in ``GET /games``, on the front page or on a
player's page. On the real Redis, then on a Redis Cluster."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.store.connection import StoreClient
from service.store.events import EventStore
from tests.support.api import append, assert_error, create, play_to_the_end
from tests.support.corrections import RETRACT
from tests.support.history import Backup
from tests.support.stats_pages import page_of, player_path
from tests.support.workers import drain
from workers.queues import reconcile


@pytest.fixture
def real_redis(store_redis: StoreClient) -> StoreClient:
    """This module's tests run on the plain Redis, then on the cluster (tests/conftest.py)."""
    return store_redis


def listed(client: FlaskClient, query: str = "") -> list[str]:
    """The ids ``GET /games?<query>`` lists on its first page (up to 100)."""
    response = client.get(f"/games?limit=100&{query}")
    assert response.status_code == 200, response.json
    return [game["id"] for game in response.json["games"]]


def tonights_azul(client: FlaskClient) -> dict[str, Any]:
    """A score sheet of Azul that Ann and Ben play to the end tonight (now)."""
    game = create(client, game="scoresheet", players=["Ann", "Ben"], options={"title": "Azul"})
    play_to_the_end(client, game)
    assert client.get(f"/games/{game['id']}").json["status"] == "finished"
    return game


def import_older_azul_plays(client: FlaskClient, *dates: str) -> list[str]:
    """Plays of Azul by Ann and Ben on ``dates`` (BG Stats' shape), imported now: their ids,
    the latest played first."""
    backup = Backup()
    ann, ben = backup.player("Ann"), backup.player("Ben")
    azul = backup.game("Azul", bgg_id=230802)
    for number, date in enumerate(dates):
        # Scores of their own: no two plays are one record.
        backup.play(azul, date, [(ann, str(40 + number), True), (ben, "31", False)])
    response = client.post("/imports/bgstats", json=backup.export())
    assert response.status_code == 200, response.json
    assert response.json["imported"] == len(dates)
    games = [client.get(f"/games/{game_id}").json for game_id in response.json["games"]]
    return [game["id"] for game in sorted(games, key=lambda g: g["finished_at"], reverse=True)]


def test_a_history_imported_after_tonights_game_is_listed_after_it(client: FlaskClient) -> None:
    tonight = tonights_azul(client)["id"]
    older = import_older_azul_plays(
        client, "2025-03-01 20:00:00", "2026-01-10 19:00:00", "2025-11-20 21:30:00"
    )
    expected = [tonight, *older]
    assert listed(client) == expected
    assert listed(client, "player=Ann") == expected
    assert listed(client, "game=azul") == expected
    assert listed(client, "game=scoresheet") == expected


def test_a_game_finished_after_another_was_created_is_listed_above_it(
    app: Flask, client: FlaskClient
) -> None:
    first = create(client, players=["Ann", "Ben"], seed=1)
    time.sleep(0.002)  # created a moment later, as the next table's game would be
    second = create(client, players=["Cyd", "Dee"], seed=2)
    assert listed(client) == [second["id"], first["id"]]
    time.sleep(0.002)
    play_to_the_end(client, first, seed=1)
    # The archive job, run within seconds of the finish, moves the game to its finish's place.
    drain(app)
    assert listed(client) == [first["id"], second["id"]]
    assert listed(client, "player=Ann") == [first["id"]]
    assert listed(client, "game=mada") == [first["id"], second["id"]]


def test_a_game_reopened_by_a_retraction_goes_back_to_where_it_was_created(
    app: Flask, client: FlaskClient
) -> None:
    first = create(client, players=["Ann", "Ben"], seed=1)
    time.sleep(0.002)
    second = create(client, players=["Cyd", "Dee"], seed=2)
    time.sleep(0.002)
    play_to_the_end(client, first, seed=1)
    drain(app)
    assert listed(client) == [first["id"], second["id"]]
    assert append(client, first, RETRACT).status_code == 201
    drain(app)
    assert listed(client) == [second["id"], first["id"]]


def test_paging_one_at_a_time_through_games_finished_at_one_moment_lists_each_once(
    client: FlaskClient,
) -> None:
    # Five plays that ended at 20:30 the same evening, between one before and one after.
    at_once = import_older_azul_plays(client, *["2025-05-01 20:00:00"] * 5)
    before = import_older_azul_plays(client, "2025-05-01 18:00:00")
    after = import_older_azul_plays(client, "2025-05-01 21:00:00")
    # Equal times in the order of their ids, the highest first.
    expected = [*after, *sorted(at_once, reverse=True), *before]
    paged: list[str] = []
    cursor = ""
    while True:
        page = client.get(f"/games?limit=1&cursor={cursor}").json
        paged += [game["id"] for game in page["games"]]
        if page["next_cursor"] is None:
            break
        cursor = page["next_cursor"]
        assert len(paged) <= len(expected), paged
    assert paged == expected
    # The cursor is opaque, but only one this endpoint gave is taken.
    for malformed in ("x", cursor + "x", "12", cursor.replace("_", "-"), "_" + cursor):
        response = client.get("/games", query_string={"cursor": malformed})
        assert "cursor" in assert_error(response, 400, "invalid_request"), malformed


def page_ids(html: str, heading: str = "") -> list[str]:
    """The ids of the games a page lists, in order (after ``heading``'s id, if given)."""
    section = html.split(f'id="{heading}"')[1].split("</section>")[0] if heading else html
    return re.findall(r'<tr data-game-id="([^"]+)"', section)


def test_the_front_page_and_a_players_page_list_tonights_game_first(client: FlaskClient) -> None:
    tonight = tonights_azul(client)["id"]
    older = import_older_azul_plays(client, "2025-03-01 20:00:00", "2025-12-24 18:00:00")
    _, front = page_of(client, "/")
    assert page_ids(front) == [tonight, *older]
    _, ann = page_of(client, player_path("Ann"))
    assert page_ids(ann, "played-heading") == [tonight, *older]


def test_games_indexed_by_their_creation_are_listed_and_reconcile_places_them_by_play(
    app: Flask, client: FlaskClient, real_redis: StoreClient, key_prefix: str
) -> None:
    tonight = tonights_azul(client)["id"]
    older = import_older_azul_plays(client, "2025-03-01 20:00:00", "2025-12-24 18:00:00")
    # As a store of an earlier version indexed them: by a serial, in the order created here.
    store = EventStore(real_redis, prefix=key_prefix)
    by_creation = [tonight, *sorted(older)]
    for key in (store.keys.index(), store.keys.index("player", "Ann")):
        real_redis.delete(key)
        real_redis.zadd(key, {game_id: serial for serial, game_id in enumerate(by_creation, 1)})
    # Still listed whole, one page at a time, before they are placed anew.
    paged: list[str] = []
    cursor = ""
    while cursor is not None:
        page = client.get(f"/games?limit=2&cursor={cursor}").json
        paged += [game["id"] for game in page["games"]]
        cursor = page["next_cursor"]
    assert sorted(paged) == sorted(by_creation)
    # The recovery (run as each worker starts, and by `tabletape reconcile`) places every game.
    reconcile(store, app.extensions["tabletape.queue"])
    assert listed(client) == [tonight, *older]
    assert listed(client, "player=Ann") == [tonight, *older]


def test_the_front_page_says_when_each_game_was_played_its_end_not_its_creation(
    client: FlaskClient,
) -> None:
    # A play of 20:00 that lasted 30 minutes was played, and is placed, at 20:30.
    (older,) = import_older_azul_plays(client, "2025-03-01 20:00:00")
    _, front = page_of(client, "/")
    row = front[front.index(f'data-game-id="{older}"') :].split("</tr>")[0]
    assert "Played (UTC)" in front
    assert '<time datetime="2025-03-01T20:30:00.000Z">2025-03-01 20:30</time>' in row
