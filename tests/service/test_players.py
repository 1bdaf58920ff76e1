"""One person, one name: a club's Chloé was "Chloe" at the table, "Chloé" in BG Stats and
"chloe.b" elsewhere. Joined, the names answer as one person in every statistic, rating, head to
head and list, rated as if she had always had one name; parted, the figures return; the records
keep the names as written (the import, the roster, the recount job and the statistics, on the
real Redis and on a Redis Cluster)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from domain.roster import RosterChange
from service.players import store
from service.players.store import current, replayed
from service.signing.keys import make_key
from service.stats import counting
from service.stats.keys import StatsKeys
from service.stats.rebuild import rebuild_stats
from service.store.connection import StoreClient
from tests.conftest import make_app
from tests.support.api import assert_error
from tests.support.history import Backup
from tests.support.players import CHLOE, club_history
from tests.support.workers import drain


@pytest.fixture
def real_redis(store_redis: StoreClient) -> StoreClient:
    """On one Redis and on a Redis Cluster alike."""
    return store_redis


def imported(app: Flask, history: dict[str, Any]) -> FlaskClient:
    client = app.test_client()
    response = client.post("/imports/bgstats", json=history)
    assert response.status_code == 200, response.json
    assert response.json["imported"] == 6
    drain(app)
    return client


@pytest.fixture
def club(app: Flask) -> FlaskClient:
    return imported(app, club_history())


def join(client: FlaskClient, name: str, other: str, **headers: str) -> Any:
    return client.post(f"/players/{name}/same-as", json={"player": other}, headers=headers)


def joined(app: Flask, client: FlaskClient, name: str, other: str) -> dict[str, Any]:
    response = join(client, name, other)
    assert response.status_code == 200, response.json
    drain(app)  # the recount job
    body: dict[str, Any] = response.json
    return body


def figures(client: FlaskClient, *names: str) -> dict[str, Any]:
    """Every figure a club reads, keyed by what was asked."""
    seen: dict[str, Any] = {
        "players": client.get("/players").json,
        "azul": client.get("/stats/azul").json,
        "carcassonne": client.get("/stats/carcassonne").json,
        "ratings azul": client.get("/ratings/azul").json,
        "ratings carcassonne": client.get("/ratings/carcassonne").json,
    }
    for name in ("Ana", "Ben", "Dan", *names):
        seen[name] = client.get(f"/players/{name}/stats").json
        seen[f"{name} history"] = client.get(f"/players/{name}/ratings/azul/history").json
        seen[f"{name} versus Ben"] = client.get(f"/players/{name}/versus/Ben").json
        seen[f"azul with {name}"] = client.get(f"/stats/azul?player={name}").json
    return seen


def without_names(seen: dict[str, Any]) -> dict[str, Any]:
    """The figures but the names each person has (one history has three for Chloé, the other
    one, and the games are other records: their ids differ)."""
    kept = {key: value for key, value in seen.items() if key != "players"}
    for key, value in kept.items():
        if isinstance(value, dict) and "names" in value:
            kept[key] = {field: got for field, got in value.items() if field != "names"}
        if key.endswith(" history"):
            points = [{**point, "game_id": ""} for point in value["history"]]
            kept[key] = {**value, "history": points}
    return kept


def test_joined_names_answer_as_one_person_everywhere(app: Flask, club: FlaskClient) -> None:
    assert club.get("/stats/azul").json["wins"] == {
        "Ana": 3, "Ben": 0, "Chloe": 2, "Chloé": 1, "Dan": 0
    }  # fmt: skip

    assert joined(app, club, "Chloe", "Chloé") == {"player": "Chloé", "names": ["Chloé", "Chloe"]}
    assert joined(app, club, "chloe.b", "Chloe") == {
        "player": "Chloé", "names": ["Chloé", "Chloe", "chloe.b"]
    }  # fmt: skip

    azul = club.get("/stats/azul").json
    assert azul["wins"] == {"Ana": 3, "Ben": 0, "Chloé": 3, "Dan": 0}
    assert azul["players"]["Chloé"]["games"] == 4
    for name in CHLOE:
        stats = club.get(f"/players/{name}/stats").json
        assert stats["player"] == "Chloé"
        assert stats["names"] == ["Chloé", "Chloe", "chloe.b"]
        assert (stats["games"], stats["wins"]) == (5, 4)
        assert set(stats["ratings"]) == {"azul", "carcassonne"}
        # player= takes any of her names.
        assert club.get(f"/stats/azul?player={name}").json["games"] == 4
        versus = club.get(f"/players/{name}/versus/Ana").json
        assert versus["players"] == ["Chloé", "Ana"]
        assert (versus["games"], versus["wins"]) == (4, {"Chloé": 3, "Ana": 2})
        history = club.get(f"/players/{name}/ratings/azul/history").json
        assert history["player"] == "Chloé" and len(history["history"]) == 4
    board = [row["player"] for row in club.get("/ratings/azul?limit=50").json["ratings"]]
    assert sorted(board) == ["Ana", "Ben", "Chloé", "Dan"]
    assert club.get("/players").json["players"][:2] == [
        {"player": "Ana", "names": ["Ana"], "games": 5},
        {"player": "Chloé", "names": ["Chloé", "Chloe", "chloe.b"], "games": 5},
    ]
    # Two of her names are one person: no head to head between them.
    assert_error(club.get("/players/Chloe/versus/chloe.b"), 400, "invalid_request")


def test_ratings_are_those_of_one_name_from_the_start(
    app: Flask, club: FlaskClient, real_redis: StoreClient, key_prefix: str, tmp_path: Path
) -> None:
    joined(app, club, "Chloe", "Chloé")
    joined(app, club, "chloe.b", "Chloé")
    one_name = make_app(
        real_redis,
        f"{key_prefix}one-name:",
        DATA_DIR=str(tmp_path / "one"),
        ARCHIVE_DIR=str(tmp_path / "one" / "archive"),
    )
    reference = imported(one_name, club_history(("Chloé",) * 3))
    assert without_names(figures(club, "Chloé")) == without_names(figures(reference, "Chloé"))
    assert club.get("/ratings/azul").json["ratings"][0]["player"] == "Chloé"


def test_parted_again_the_figures_return(app: Flask, club: FlaskClient) -> None:
    before = figures(club, *CHLOE)
    joined(app, club, "Chloe", "Chloé")
    joined(app, club, "chloe.b", "Chloé")
    assert figures(club, *CHLOE) != before

    response = club.delete("/players/Chloe/same-as")
    assert response.status_code == 200, response.json
    assert response.json == {"player": "Chloe", "names": ["Chloe"]}
    assert club.delete("/players/chloe.b/same-as").json == {
        "player": "chloe.b", "names": ["chloe.b"]
    }  # fmt: skip
    drain(app)
    assert figures(club, *CHLOE) == before


def test_a_name_that_others_count_as_brings_them_along(app: Flask, club: FlaskClient) -> None:
    joined(app, club, "Chloe", "Chloé")
    # Chloé is the player of Chloe: joined to chloe.b, both come along, no chain.
    assert joined(app, club, "Chloé", "chloe.b") == {
        "player": "chloe.b", "names": ["chloe.b", "Chloe", "Chloé"]
    }  # fmt: skip
    assert club.get("/players/Chloe/stats").json["player"] == "chloe.b"
    assert club.get("/stats/azul").json["wins"]["chloe.b"] == 3
    changes = club.get("/players/changes").json["changes"]
    # The log keeps what was asked; the roster it folds to has no chain.
    assert [(one["name"], one["player"]) for one in changes] == [
        ("Chloe", "Chloé"), ("Chloé", "chloe.b")
    ]  # fmt: skip


def test_the_changes_are_listed_oldest_first_and_replay_to_the_roster(
    app: Flask, club: FlaskClient, real_redis: StoreClient, key_prefix: str
) -> None:
    assert club.get("/players/changes").json == {"changes": []}
    joined(app, club, "Chloe", "Chloé")
    joined(app, club, "chloe.b", "Chloé")
    club.delete("/players/Chloe/same-as")
    changes = club.get("/players/changes").json["changes"]
    assert [(change["name"], change["player"]) for change in changes] == [
        ("Chloe", "Chloé"), ("chloe.b", "Chloé"), ("Chloe", None)
    ]  # fmt: skip
    assert all(change["at"].endswith("Z") and change["at"][:2] == "20" for change in changes)
    assert current(real_redis, key_prefix) == replayed(real_redis, key_prefix)
    # A change that changes nothing is no change.
    assert club.delete("/players/Chloe/same-as").status_code == 200
    assert len(club.get("/players/changes").json["changes"]) == 3


def test_two_names_of_one_game_are_two_people(club: FlaskClient) -> None:
    details = assert_error(join(club, "Ben", "Ana"), 409, "played_together")
    assert details["names"] == ["Ben", "Ana"]
    game = club.get(f"/games/{details['game']}").json
    assert {"Ana", "Ben"} <= set(game["players"]) and game["status"] == "archived"
    # Through a name joined already: chloe.b played Ben, and Chloe joins chloe.b's player.
    assert join(club, "chloe.b", "Chloe").status_code == 200
    details = assert_error(join(club, "Ben", "Chloé"), 409, "played_together")
    assert details["names"][0] == "Ben"
    assert club.get("/stats/azul").json["wins"].get("Ben") == 0
    assert [one["name"] for one in club.get("/players/changes").json["changes"]] == ["chloe.b"]


def test_a_name_no_game_has_is_404(club: FlaskClient) -> None:
    details = assert_error(join(club, "Zoé", "Chloé"), 404, "not_found")
    assert details == {"name": "Zoé"}
    assert assert_error(join(club, "Chloé", "Zoé"), 404, "not_found") == {"name": "Zoé"}
    assert_error(club.delete("/players/Zoé/same-as"), 404, "not_found")
    assert_error(
        club.post("/players/Chloe/same-as", json={"name": "Chloé"}), 400, "invalid_request"
    )
    assert club.get("/players/changes").json == {"changes": []}


@pytest.mark.parametrize("app_config", [{"WRITE_KEY": "club-key"}])
def test_joining_and_parting_need_the_write_key(app: Flask) -> None:
    client = app.test_client()
    key = {"Authorization": "Bearer club-key"}
    assert client.post("/imports/bgstats", json=club_history(), headers=key).status_code == 200
    drain(app)
    assert_error(join(client, "Chloe", "Chloé"), 401, "unauthorized")
    assert_error(join(client, "Chloe", "Chloé", Authorization="Bearer nope"), 401, "unauthorized")
    assert join(client, "Chloe", "Chloé", **key).status_code == 200
    assert_error(client.delete("/players/Chloe/same-as"), 401, "unauthorized")
    assert client.get("/players/Chloe/stats").json["player"] == "Chloé"
    assert client.delete("/players/Chloe/same-as", headers=key).status_code == 200


def test_the_rebuild_from_the_archive_gives_the_same_figures(
    app: Flask, club: FlaskClient, real_redis: StoreClient, key_prefix: str, archive_dir: Path
) -> None:
    joined(app, club, "Chloe", "Chloé")
    joined(app, club, "chloe.b", "Chloé")
    live = figures(club, *CHLOE)
    assert rebuild_stats(real_redis, key_prefix, archive_dir) == 6
    assert figures(club, *CHLOE) == live


def test_the_records_keep_the_names_as_written(
    real_redis: StoreClient, key_prefix: str, tmp_path: Path
) -> None:
    key_file = tmp_path / "keys" / "signing.key"
    make_key(key_file, "tabletape.test")
    app = make_app(
        real_redis,
        key_prefix,
        DATA_DIR=str(tmp_path),
        ARCHIVE_DIR=str(tmp_path / "archive"),
        SIGNING_KEY=str(key_file),
        SIGNER_NAME="tabletape.test",
    )
    club = imported(app, club_history())

    def records() -> dict[str, Any]:
        listed = club.get("/games?limit=50").json["games"]
        return {
            game["id"]: {
                "game": club.get(f"/games/{game['id']}").json,
                "export": club.get(f"/games/{game['id']}/export").json,
                "note": club.get(f"/games/{game['id']}/checkpoint").text,
                "audit": club.get(f"/games/{game['id']}/audit").json["ok"],
            }
            for game in listed
        }

    before = records()
    assert len(before) == 6
    assert all(one["note"] and one["audit"] is True for one in before.values())
    joined(app, club, "Chloe", "Chloé")
    joined(app, club, "chloe.b", "Chloé")
    after = records()
    assert after == before
    assert sorted({name for one in after.values() for name in one["export"]["players"]}) == [
        "Ana", "Ben", "Chloe", "Chloé", "Dan", "chloe.b"
    ]  # fmt: skip


def test_a_game_counted_after_the_join_counts_under_the_person(
    app: Flask, club: FlaskClient
) -> None:
    joined(app, club, "Chloe", "Chloé")
    backup = Backup()
    chloe, ana = backup.player("Chloe"), backup.player("Ana")
    azul = backup.game("Azul", bgg_id=230802)
    backup.play(azul, "2025-04-01 20:00:00", [(chloe, "80", True), (ana, "70", False)])
    assert club.post("/imports/bgstats", json=backup.export()).status_code == 200
    drain(app)
    assert club.get("/stats/azul").json["wins"] == {"Ana": 3, "Ben": 0, "Chloé": 4, "Dan": 0}
    assert club.get("/players/Chloe/stats").json["games"] == 5


def test_a_game_counted_while_the_names_were_joined_is_counted_again(
    app: Flask,
    club: FlaskClient,
    real_redis: StoreClient,
    key_prefix: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The archive job reads the roster, the join lands and its recount runs, then the job
    writes what it counted under the roster before: the job asks for one more recount."""
    counted_then = counting.count_many

    def join_meanwhile(client: StoreClient, prefix: str, batch: Any) -> int:
        counted = counted_then(client, prefix, batch)
        store.record(client, prefix, RosterChange("2025-04-02T00:00:00.000Z", "Chloe", "Chloé"),
                     lambda before: None)  # fmt: skip
        # As if the join's own recount had run before this count was written.
        client.set(StatsKeys(prefix).roster, store.current(client, prefix).version)
        return counted

    monkeypatch.setattr(counting, "count_many", join_meanwhile)
    backup = Backup()
    chloe, ana = backup.player("Chloe"), backup.player("Ana")
    azul = backup.game("Azul", bgg_id=230802)
    backup.play(azul, "2025-04-01 20:00:00", [(chloe, "80", True), (ana, "70", False)])
    assert club.post("/imports/bgstats", json=backup.export()).status_code == 200
    assert app.extensions["tabletape.queue"].waiting() == 1
    drain(app)
    monkeypatch.undo()
    assert club.get("/stats/azul").json["wins"] == {"Ana": 3, "Ben": 0, "Chloé": 4, "Dan": 0}


def test_a_recount_waiting_is_no_game_waiting(app: Flask, club: FlaskClient) -> None:
    assert join(club, "Chloe", "Chloé").status_code == 200
    health = club.get("/health").json
    assert health["finished_games_to_count"] == 0, health
    drain(app)


def test_the_pages_show_the_person(app: Flask, club: FlaskClient) -> None:
    joined(app, club, "Chloe", "Chloé")
    joined(app, club, "chloe.b", "Chloé")
    for page in ("/stats/azul/view", "/ratings/azul/view", "/stats/carcassonne/view"):
        html = club.get(page).get_data(as_text=True)
        assert ">Chloé<" in html, page
        assert ">Chloe<" not in html and ">chloe.b<" not in html, page
    html = club.get("/players/chloe.b/view").get_data(as_text=True)
    assert "<h1>Chloé</h1>" in html
    assert 'id="games-played">5<' in html
    assert "Counted as one player" in html
    # The games as recorded, under every name: none is rewritten.
    assert html.count('<strong class="self">Chloe</strong>') == 2
    assert html.count('<strong class="self">chloe.b</strong>') == 1
    # The import page and /new suggest the names known.
    assert '<option value="chloe.b">' in club.get("/import").get_data(as_text=True)
    new = club.get("/new").get_data(as_text=True)
    assert '<option value="Chloé">' in new and '<option value="Chloe">' not in new


def test_the_roster_takes_no_unknown_parameter_nor_field(club: FlaskClient) -> None:
    assert_error(club.get("/players?sort=name"), 400, "invalid_request")
    assert_error(club.get("/players/changes?since=2025-01-01"), 400, "invalid_request")
    sent = {"player": "Chloé", "since": "2025-01-01"}
    assert_error(club.post("/players/Chloe/same-as", json=sent), 400, "invalid_request")
    assert_error(club.post("/players/Chloe/same-as", json={"player": 7}), 400, "invalid_request")
    assert club.get("/players/changes").json == {"changes": []}
