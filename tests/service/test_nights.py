"""Game nights (api.md, "Game nights"), on the real Redis and on a Redis Cluster: an evening runs
from 06:00 to 06:00 the next day on the server's clock (TZ, Europe/Paris here), so games finished
past midnight stay that evening's; its games come in the order they finished, with who played and
won and the titles played; the evenings are listed newest first, page by page; a date or cursor
not written YYYY-MM-DD is the contract's 400."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.config import load_config
from service.nights.evenings import evening_of
from service.store.connection import StoreClient
from tests.support.api import append, assert_error, create
from tests.support.history import Backup
from tests.support.workers import drain

PARIS = ZoneInfo("Europe/Paris")


@pytest.fixture
def real_redis(store_redis: StoreClient) -> StoreClient:
    """This module's tests run on the plain Redis, then on the cluster (tests/conftest.py)."""
    return store_redis


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"TZ": "Europe/Paris"}


def import_plays(client: FlaskClient, backup: Backup) -> None:
    answer = client.post("/imports/bgstats", json=backup.export())
    assert answer.status_code == 200, answer.json
    assert not answer.json["skipped"], answer.json


def a_weekend(client: FlaskClient) -> None:
    """Plays dated in UTC (BG Stats' playDate; each finishes ``minutes`` later). Paris is UTC+1
    in November: the evening of Friday 27 runs to 05:00 UTC on the 28th."""
    backup = Backup()
    ann, ben, cyd = (backup.player(name) for name in ("Ann", "Ben", "Cyd"))
    azul = backup.game("Azul", bgg_id=230802)
    hearts = backup.game("Hearts", highest_wins=False)
    # Friday: Azul starts first but finishes after Hearts (21:00 and 20:30 UTC).
    backup.play(azul, "2026-11-27 19:00:00", [(ann, "61", True), (ben, "48", False)], minutes=120)
    backup.play(
        hearts,
        "2026-11-27 20:00:00",
        [(ann, "40", False), (ben, "12", True), (cyd, "12", True)],
        minutes=30,
    )
    # 01:30 and 05:59 in Paris: still Friday's evening.
    backup.play(azul, "2026-11-28 00:00:00", [(cyd, "70", True), (ben, "50", False)])
    backup.play(azul, "2026-11-28 04:29:00", [(ann, "30", False), (cyd, "35", True)])
    # 06:00 in Paris: Saturday's.
    backup.play(hearts, "2026-11-28 04:30:00", [(ann, "5", True), (ben, "9", False)])
    # A week before.
    backup.play(azul, "2026-11-20 19:00:00", [(ann, "50", True), (ben, "40", False)])
    import_plays(client, backup)


def night(client: FlaskClient, date: str) -> dict[str, Any]:
    answer = client.get(f"/nights/{date}")
    assert answer.status_code == 200, answer.json
    body: dict[str, Any] = answer.json
    return body


def test_an_evening_holds_its_games_past_midnight_in_the_order_they_finished(
    client: FlaskClient,
) -> None:
    a_weekend(client)
    friday = night(client, "2026-11-27")
    assert friday["date"] == "2026-11-27"
    assert [game["finished_at"] for game in friday["games"]] == [
        "2026-11-27T20:30:00.000Z",
        "2026-11-27T21:00:00.000Z",
        "2026-11-28T00:30:00.000Z",
        "2026-11-28T04:59:00.000Z",
    ]
    assert [game["options"]["title"] for game in friday["games"]] == [
        "Hearts",
        "Azul",
        "Azul",
        "Azul",
    ]
    # Each game is the game resource, as GET /games/{id} gives it to anyone.
    first = friday["games"][0]
    alone = client.get(f"/games/{first['id']}").json
    assert first == {key: value for key, value in alone.items() if key != "viewer"}
    assert first["status"] == "finished" and first["players"] == ["Ann", "Ben", "Cyd"]
    assert "token" not in first and "viewer" not in first
    # Cyd won three (a shared win in Hearts counts), Ann one, Ben one.
    assert friday["players"] == [
        {"player": "Cyd", "games": 3, "wins": 3},
        {"player": "Ann", "games": 3, "wins": 1},
        {"player": "Ben", "games": 3, "wins": 1},
    ]
    assert friday["titles"] == [
        {"key": "azul", "title": "Azul", "games": 3},
        {"key": "hearts", "title": "Hearts", "games": 1},
    ]
    saturday = night(client, "2026-11-28")
    assert [game["finished_at"] for game in saturday["games"]] == ["2026-11-28T05:00:00.000Z"]
    assert saturday["players"] == [
        {"player": "Ann", "games": 1, "wins": 1},
        {"player": "Ben", "games": 1, "wins": 0},
    ]


def test_the_evening_follows_the_server_time_zone(app: Flask, client: FlaskClient) -> None:
    a_weekend(client)
    # In UTC the evening of the 27th ends at 06:00 UTC: the game finished at 05:00 UTC is in it.
    app.config["TZ"] = "UTC"
    assert len(night(client, "2026-11-27")["games"]) == 5
    assert night(client, "2026-11-28")["games"] == []


def test_an_evening_without_a_game_is_empty(client: FlaskClient) -> None:
    a_weekend(client)
    assert night(client, "2026-11-25") == {
        "date": "2026-11-25",
        "games": [],
        "players": [],
        "titles": [],
    }


def test_the_evenings_are_listed_newest_first_page_by_page(client: FlaskClient) -> None:
    a_weekend(client)
    first = client.get("/nights?limit=2").json
    assert first["nights"] == [
        {"date": "2026-11-28", "games": 1, "players": 2},
        {"date": "2026-11-27", "games": 4, "players": 3},
    ]
    second = client.get(f"/nights?limit=2&cursor={first['next_cursor']}").json
    assert second == {
        "nights": [{"date": "2026-11-20", "games": 1, "players": 2}],
        "next_cursor": None,
    }
    everything = client.get("/nights?cursor=").json
    assert [row["date"] for row in everything["nights"]] == [
        "2026-11-28",
        "2026-11-27",
        "2026-11-20",
    ]
    assert everything["next_cursor"] is None


def test_a_game_recorded_here_joins_tonight_once_finished_and_not_before(
    app: Flask, client: FlaskClient
) -> None:
    game = create(client, game="scoresheet", players=["Dev", "Eli"], options={"title": "Uno"})
    assert append(client, game, {"type": "round", "points": [3, 7]}).status_code == 201
    drain(app)
    tonight = evening_of(datetime.now(UTC).isoformat().replace("+00:00", "Z"), PARIS)
    assert tonight is not None
    assert night(client, tonight.isoformat())["games"] == []
    # A game left unfinished is no evening's.
    create(client, game="scoresheet", players=["Dev", "Eli"], options={"title": "Uno"})
    assert append(client, game, {"type": "end"}).status_code == 201
    drain(app)
    games = night(client, tonight.isoformat())["games"]
    assert [played["id"] for played in games] == [game["id"]]
    assert games[0]["result"]["winners"] == [1]
    listed = client.get("/nights").json["nights"]
    assert listed == [{"date": tonight.isoformat(), "games": 1, "players": 2}]


@pytest.mark.parametrize(
    "date", ["2026-13-01", "2026-02-30", "yesterday", "2026-11-5", "20261127", "2026-W48-1",
             "9999-12-31", "\uff12\uff10\uff12\uff16-11-27"]
)  # fmt: skip
def test_a_date_not_written_yyyy_mm_dd_is_400(client: FlaskClient, date: str) -> None:
    details = assert_error(client.get(f"/nights/{date}"), 400, "invalid_request")
    assert details == {"date": "a date written YYYY-MM-DD"}


@pytest.mark.parametrize(
    "query", ["cursor=2026-13-01", "cursor=tomorrow", "limit=0", "limit=101", "limit=x", "bogus=1"]
)
def test_a_listing_query_that_is_not_one_is_400(client: FlaskClient, query: str) -> None:
    assert_error(client.get(f"/nights?{query}"), 400, "invalid_request")


def test_the_nights_are_in_the_openapi_document(client: FlaskClient) -> None:
    paths = client.get("/openapi.json").json["paths"]
    assert "get" in paths["/nights/{date}"] and "get" in paths["/nights"]
    listed = paths["/nights"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert listed


def test_tz_takes_a_zones_name_or_the_c_librarys_forms_and_refuses_others_at_start() -> None:
    assert load_config({"TZ": "Europe/Paris"})["TZ"] == "Europe/Paris"
    assert load_config({"TZ": ":Europe/Paris"})["TZ"] == "Europe/Paris"
    linked = load_config({"TZ": ":/etc/localtime"})["TZ"]
    assert ZoneInfo(linked).key == linked
    for wrong in ("Mars/Olympus", "CET-1CEST", "../etc/passwd"):
        with pytest.raises(ValueError, match="TZ must name a time zone"):
            load_config({"TZ": wrong})
