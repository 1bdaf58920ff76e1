"""A game reopened after its end (the recorder's retraction of its last move) leaves every figure
that counted it: statistics, ratings, head to head, player pages; a rebuild from the archive gives
the same; its next finish counts once. On the real Redis server (and the cluster), with the real
archive job.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.stats import counting
from service.stats.rebuild import rebuild_stats
from service.store.archive import Archive
from service.store.connection import StoreClient
from service.store.events import EventStore
from tests.conftest import make_app
from tests.support.api import append, auth, create, play_to_the_end
from tests.support.stats import every_stats_key
from tests.support.workers import drain

RETRACT = {"type": "retract"}


@pytest.fixture
def real_redis(store_redis: StoreClient) -> StoreClient:
    return store_redis


def finished(client: FlaskClient, players: list[str], seed: int) -> dict[str, Any]:
    game = create(client, players=players, seed=seed)
    play_to_the_end(client, game, seed=seed)
    return game


def figures(client: FlaskClient) -> dict[str, Any]:
    """What a person reads of the statistics: the game's, each player's, their head to head and
    the leaderboard."""
    return {
        "game": client.get("/stats/mada").json,
        "players": {name: client.get(f"/players/{name}/stats").json for name in NAMES},
        "versus": client.get("/players/Ana/versus/Ben").json,
        "ratings": client.get("/ratings/mada").json,
    }


NAMES = ("Ana", "Ben", "Caro", "Dan")


def status(client: FlaskClient, game: dict[str, Any]) -> str:
    found: str = client.get(f"/games/{game['id']}").json["status"]
    return found


def test_a_reopened_game_leaves_the_figures_as_if_it_had_never_finished(
    app: Flask, client: FlaskClient, real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    # Two stores fed alike, but for one game: that game is reopened in the first.
    twin = make_app(real_redis, f"{key_prefix}twin:", ARCHIVE_DIR=str(tmp_path / "twin"))
    twin_client = twin.test_client()
    tables = [(["Ana", "Ben", "Caro"], 1), (["Ana", "Ben"], 2), (["Ben", "Dan", "Ana"], 3)]
    games = []
    for players, seed in tables:
        games.append(finished(client, players, seed))
        drain(app)
    # The second game, rated between the two others, is reopened: the third is rated again.
    reopened = games[1]
    for players, seed in (tables[0], tables[2]):
        finished(twin_client, players, seed)
        drain(twin)
    assert status(client, reopened) == "archived"

    assert append(client, reopened, RETRACT).status_code == 201
    drain(app)
    assert status(client, reopened) == "active"
    without = figures(client)
    assert without == figures(twin_client)
    assert without["game"]["games"] == 2
    assert Archive(app.config["ARCHIVE_DIR"]).read(reopened["id"]) is None


def test_a_reopened_game_counts_again_once_it_finishes_again(
    app: Flask, client: FlaskClient
) -> None:
    game = finished(client, ["Ana", "Ben", "Caro"], seed=4)
    drain(app)
    counted = figures(client)
    last = client.get(f"/games/{game['id']}/export", headers=auth(game)).json["events"][-1]
    assert append(client, game, RETRACT).status_code == 201
    drain(app)
    assert figures(client)["game"]["games"] == 0
    # The same last move again: the same finish, counted once, in the same ratings.
    assert append(client, game, {k: v for k, v in last.items() if k != "at"}).status_code == 201
    drain(app)
    assert status(client, game) == "archived"
    again = figures(client)
    assert again["game"] == counted["game"] and again["players"] == counted["players"]
    assert [row["player"] for row in again["ratings"]["ratings"]] == [
        row["player"] for row in counted["ratings"]["ratings"]
    ]


def test_after_reopening_the_live_figures_equal_a_rebuild_from_the_archive(
    app: Flask, client: FlaskClient, real_redis: redis.Redis, key_prefix: str, archive_dir: Path
) -> None:
    games = [
        finished(client, ["Ana", "Ben", "Caro", "Dan"][: 2 + seed % 3], seed) for seed in range(5)
    ]
    drain(app)
    for game in (games[0], games[3]):
        assert append(client, game, RETRACT).status_code == 201
    drain(app)
    live = every_stats_key(real_redis, key_prefix)
    # The superseded archive files are kept beside, and the rebuild never reads them.
    assert len(list(archive_dir.glob("*/*.superseded-*"))) == 2
    assert rebuild_stats(real_redis, key_prefix, archive_dir) == 3
    assert every_stats_key(real_redis, key_prefix) == live


def test_a_game_reopened_before_its_job_ran_is_never_counted(
    app: Flask, client: FlaskClient
) -> None:
    game = finished(client, ["Ana", "Ben"], seed=6)
    assert append(client, game, RETRACT).status_code == 201
    drain(app)
    assert figures(client)["game"]["games"] == 0
    assert client.get(f"/games/{game['id']}").json["status"] == "active"


def test_a_game_reopened_while_its_job_counts_it_is_withdrawn(
    app: Flask, client: FlaskClient
) -> None:
    game = finished(client, ["Ana", "Ben"], seed=7)
    count_many = counting.count_many

    def count_then_reopen(*args: Any, **kwargs: Any) -> int:
        counted = count_many(*args, **kwargs)
        # The recorder takes the last move back while the job is between its count and its mark.
        assert append(client, game, RETRACT).status_code == 201
        return counted

    with mock.patch.object(counting, "count_many", count_then_reopen):
        drain(app)
    assert status(client, game) == "active"
    assert figures(client)["game"]["games"] == 0
    assert client.get("/ratings/mada").json["ratings"] == []


def test_a_trimmed_archived_game_can_be_reopened(
    real_redis: redis.Redis, key_prefix: str, archive_dir: Path
) -> None:
    app = make_app(real_redis, key_prefix, ARCHIVE_DIR=str(archive_dir), ARCHIVE_TRIM=True)
    client = app.test_client()
    game = finished(client, ["Ana", "Ben", "Caro"], seed=8)
    drain(app)
    events = client.get(f"/games/{game['id']}/events?limit=1000").json["events"]
    assert append(client, game, RETRACT).status_code == 201
    drain(app)
    after = client.get(f"/games/{game['id']}/events?limit=1000", headers=auth(game)).json
    assert [e["seq"] for e in after["events"]] == [e["seq"] for e in events] + [len(events) + 1]
    assert client.get(f"/games/{game['id']}/audit").json["ok"] is True
    play_to_the_end(client, game, seed=8)
    drain(app)
    assert status(client, game) == "archived"
    assert figures(client)["game"]["games"] == 1


def test_a_retraction_between_the_archive_jobs_reads_leaves_the_game_sound(
    app: Flask, client: FlaskClient
) -> None:
    """The job reads the finished game's header, then the recorder retracts the last move, then
    the job reads the events: it archives what its header says, sees the reopening, and withdraws
    it; it never calls the game damaged for the event that came after its header."""
    game = finished(client, ["Ana", "Ben"], seed=6)
    raced: list[int] = []
    read_events = EventStore.events

    def retracted_first(store: EventStore, game_id: str, *args: Any, **kwargs: Any) -> Any:
        if not raced:
            raced.append(0)
            raced[0] = append(client, game, RETRACT).status_code
        return read_events(store, game_id, *args, **kwargs)

    with mock.patch.object(EventStore, "events", retracted_first):
        drain(app)
    assert raced == [201]
    drain(app)
    assert status(client, game) == "active"
    audit = client.get(f"/games/{game['id']}/audit").json
    assert audit["ok"], audit["problems"]
    assert figures(client)["game"]["games"] == 0
