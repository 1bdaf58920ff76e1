"""Score sheets in the statistics and ratings, on the real Redis server: a title's key is a game
for every read (``/stats/{key}``, ``/ratings/{key}``, a player's figures, head to head,
``GET /titles``, ``GET /games?game=``), teams are rated as teams, cooperative games are counted
and not rated, a key that names a game with rules counts with that game, and the rebuild from
the archive gives the same figures."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from openskill.models import PlackettLuce

from service.stats.keys import StatsKeys
from service.stats.rebuild import rebuild_stats, recount_when_counted_otherwise
from service.stats.titles import moment
from service.store.connection import StoreClient
from tests.support.api import append, assert_error, create
from tests.support.stats import every_stats_key
from tests.support.stats_pages import page_of, player_path
from tests.support.workers import drain


@pytest.fixture
def real_redis(store_redis: StoreClient) -> StoreClient:
    """This module's tests run on the plain Redis, then on the cluster (tests/conftest.py)."""
    return store_redis


def sheet(
    client: FlaskClient, title: str, players: list[str], rounds: list[list[Any]], **options: Any
) -> dict[str, Any]:
    """A score sheet of ``title`` recorded to its end: ``rounds`` of points, then ``end``."""
    game = create(client, game="scoresheet", players=players, options={"title": title, **options})
    for points in rounds:
        assert append(client, game, {"type": "round", "points": points}).status_code == 201
    return game


def end(client: FlaskClient, game: dict[str, Any], **fields: Any) -> None:
    answer = append(client, game, {"type": "end", **fields})
    assert answer.status_code == 201, answer.json


def played(client: FlaskClient, title: str, players: list[str], rounds: list[list[Any]],
           **options: Any) -> dict[str, Any]:  # fmt: skip
    game = sheet(client, title, players, rounds, **options)
    end(client, game)
    return game


def test_a_titles_games_are_counted_under_its_key_whatever_the_spelling(
    app: Flask, client: FlaskClient
) -> None:
    played(client, "Azul", ["Ana", "Ben"], [[10, 20], [5, 1]])
    played(client, "AZUL!", ["Ana", "Ben", "Caro"], [[30, 2, 3]], bgg_id=230802)
    played(client, "Codenames", ["Ana", "Ben"], [[1, 0]])
    drain(app)
    azul = client.get("/stats/azul").json
    assert azul["games"] == 2
    assert azul["players"]["Ana"]["wins"] == 1 and azul["players"]["Ben"]["wins"] == 1
    titles = client.get("/titles").json["titles"]
    assert [(t["key"], t["games"]) for t in titles] == [("azul", 2), ("codenames", 1)]
    # The spelling and BoardGameGeek id of the latest game.
    assert titles[0]["title"] == "AZUL!" and titles[0]["bgg_id"] == 230802
    assert len(titles[0]["last_played"]) == 10
    ana = client.get("/players/Ana/stats").json
    assert ana["by_game"]["azul"]["games"] == 2 and ana["by_game"]["codenames"]["wins"] == 1
    assert set(ana["ratings"]) == {"azul", "codenames"}
    versus = client.get("/players/Ana/versus/Ben?game=azul").json
    assert versus["games"] == 2 and versus["wins"] == {"Ana": 1, "Ben": 1}
    every = client.get("/players/Ana/versus/Ben").json
    assert every["by_game"]["codenames"]["wins"] == {"Ana": 1, "Ben": 0}
    listed = client.get("/games?game=azul").json["games"]
    assert len(listed) == 2 and {g["options"]["title"] for g in listed} == {"Azul", "AZUL!"}


def test_a_title_not_finished_yet_has_zeros_and_an_unknown_key_is_404_naming_the_closest(
    client: FlaskClient,
) -> None:
    sheet(client, "Carcassonne", ["Ana", "Ben"], [[3, 4]])
    unplayed = client.get("/stats/carcassonne")
    assert unplayed.status_code == 200 and unplayed.json["games"] == 0
    assert client.get("/ratings/carcassonne").json["ratings"] == []
    misspelt = client.get("/stats/carcasonne")
    assert_error(misspelt, 404, "not_found")
    assert "carcassonne" in misspelt.json["error"]["message"]
    assert client.get("/titles").json["titles"] == []


def test_lowest_scoring_ranks_the_lowest_first_in_the_ratings(
    app: Flask, client: FlaskClient
) -> None:
    played(client, "Golf", ["Ana", "Ben", "Caro"], [[30, 41, 35]], scoring="lowest")
    drain(app)
    board = [row["player"] for row in client.get("/ratings/golf").json["ratings"]]
    assert board == ["Ana", "Caro", "Ben"]
    assert client.get("/stats/golf").json["players"]["Ana"]["wins"] == 1


def test_teams_are_rated_as_openskill_teams(app: Flask, client: FlaskClient) -> None:
    players = ["Ana", "Ben", "Caro", "Dan"]
    game = sheet(client, "Codenames", players, [], scoring="none", teams=[[0, 2], [1, 3]])
    end(client, game, winners=[1, 3])
    drain(app)
    model = PlackettLuce()
    teams = [[model.rating(), model.rating()], [model.rating(), model.rating()]]
    (ana, _), (ben, dan) = model.rate(teams, ranks=[2, 1])
    rows = {row["player"]: row for row in client.get("/ratings/codenames").json["ratings"]}
    assert rows["Ben"]["mu"] == pytest.approx(ben.mu) and rows["Dan"]["mu"] == pytest.approx(dan.mu)
    assert rows["Ana"]["mu"] == pytest.approx(ana.mu)
    assert rows["Ben"]["sigma"] == pytest.approx(ben.sigma)
    stats = client.get("/stats/codenames").json
    assert stats["players"]["Ben"]["wins"] == 1 and stats["players"]["Dan"]["wins"] == 1


def test_cooperative_games_are_counted_and_not_rated(app: Flask, client: FlaskClient) -> None:
    for outcome in ("won", "lost"):
        game = sheet(client, "Pandemic", ["Ana", "Ben"], [], cooperative=True)
        end(client, game, outcome=outcome)
    drain(app)
    stats = client.get("/stats/pandemic").json
    assert stats["games"] == 2 and stats["players"]["Ana"]["wins"] == 1
    assert client.get("/ratings/pandemic").json["ratings"] == []
    assert "pandemic" not in client.get("/players/Ana/stats").json["ratings"]


def test_a_game_of_one_player_is_counted_and_not_rated(app: Flask, client: FlaskClient) -> None:
    played(client, "Onirim", ["Ana"], [[12]])
    drain(app)
    assert client.get("/stats/onirim").json["games"] == 1
    assert client.get("/ratings/onirim").json["ratings"] == []


def test_a_title_whose_key_names_a_game_with_rules_counts_with_that_game(
    app: Flask, client: FlaskClient
) -> None:
    played(client, "Mada", ["Ana", "Ben"], [[12, 30]])
    drain(app)
    mada = client.get("/stats/mada").json
    assert mada["games"] == 1 and mada["players"]["Ben"]["wins"] == 1
    assert [row["player"] for row in client.get("/ratings/mada").json["ratings"]] == ["Ben", "Ana"]
    assert [g["game"] for g in client.get("/games?game=mada").json["games"]] == ["scoresheet"]


def test_the_rebuild_from_the_archive_gives_the_same_figures(
    app: Flask, client: FlaskClient, real_redis: redis.Redis, key_prefix: str, archive_dir: Path
) -> None:
    played(client, "Azul", ["Ana", "Ben"], [[10.5, 20], [5, 1]])
    played(client, "Azul", ["Ana", "Ben", "Caro"], [[3, 3, 1]], scoring="lowest")
    game = sheet(client, "Codenames", ["Ana", "Ben", "Caro", "Dan"], [], teams=[[0, 1], [2, 3]])
    end(client, game, ranks=[2, 2, 1, 1])
    pandemic = sheet(client, "Pandemic", ["Ana", "Ben"], [], cooperative=True)
    end(client, pandemic, outcome="won")
    drain(app)
    live = every_stats_key(real_redis, key_prefix)
    titles = client.get("/titles").json
    assert rebuild_stats(real_redis, key_prefix, archive_dir) == 4
    assert every_stats_key(real_redis, key_prefix) == live
    assert client.get("/titles").json == titles


# --- what was played: numbers never written, games without points, games nobody won ------------


def day_of(client: FlaskClient, game: dict[str, Any]) -> str:
    """The UTC day ``game`` finished: a filter of that day reads the per-day figures."""
    day: str = client.get(f"/games/{game['id']}").json["finished_at"][:10]
    return day


def test_a_score_never_written_is_left_out_of_the_mean_not_counted_as_0(
    app: Flask, client: FlaskClient
) -> None:
    played(client, "Carcassonne", ["Farid", "Gus"], [[117, 90]])
    played(client, "Carcassonne", ["Farid", "Gus"], [[120, 130]])
    # No number is written for Farid in the third game: Gus, the only one scored, wins it.
    last = played(client, "Carcassonne", ["Farid", "Gus"], [[None, 80]])
    drain(app)
    day = day_of(client, last)
    for query in ("", f"?since={day}", "?player=Farid", "?players=2"):
        stats = client.get(f"/stats/carcassonne{query}").json
        assert stats["games"] == 3, query
        # Farid: (117 + 120) / 2 numbers written, over 3 games played.
        assert stats["players"]["Farid"] == {
            "games": 3, "wins": 1, "win_rate": 1 / 3, "mean_score": 118.5
        }, query  # fmt: skip
        assert stats["players"]["Gus"]["mean_score"] == 100  # (90 + 130 + 80) / 3
        # Five numbers written in three games of two seats.
        assert stats["scores"] == {
            "mean": (117 + 90 + 120 + 130 + 80) / 5,
            "distribution": {"80": 1, "90": 1, "117": 1, "120": 1, "130": 1},
        }, query
    for query in ("", f"?since={day}"):
        farid = client.get(f"/players/Farid/stats{query}").json
        assert farid["by_game"]["carcassonne"]["games"] == 3, query
        assert farid["by_game"]["carcassonne"]["mean_score"] == 118.5, query


def test_a_title_without_points_has_no_score_figures(app: Flask, client: FlaskClient) -> None:
    for winners in ([0], [1], [0]):
        game = sheet(client, "Hanabi Duel", ["Ana", "Ben"], [], scoring="none")
        end(client, game, winners=winners)
    drain(app)
    for query in ("", f"?since={day_of(client, game)}", "?player=Ana"):
        stats = client.get(f"/stats/hanabi-duel{query}").json
        assert stats["games"] == 3, query
        assert stats["scores"] == {"mean": None, "distribution": None}, query
        assert stats["players"]["Ana"] == {
            "games": 3, "wins": 2, "win_rate": 2 / 3, "mean_score": None
        }, query  # fmt: skip
    ana = client.get("/players/Ana/stats").json
    assert ana["by_game"]["hanabi-duel"]["mean_score"] is None


def test_a_game_nobody_won_counts_as_played_with_no_win_and_rates_nobody(
    app: Flask, client: FlaskClient
) -> None:
    # Nobody won the first game, and no number was written for Ben in it.
    nobody = sheet(client, "Dixit", ["Ana", "Ben"], [[12, None]])
    end(client, nobody, winners=[])
    played(client, "Dixit", ["Ana", "Ben"], [[30, 25]])
    drain(app)
    stats = client.get("/stats/dixit").json
    assert stats["games"] == 2
    assert stats["wins"] == {"Ana": 1, "Ben": 0}
    assert stats["seat_advantage"]["wins_by_seat"] == [1, 0]
    assert stats["players"]["Ben"]["mean_score"] == 25
    versus = client.get("/players/Ana/versus/Ben?game=dixit").json
    assert versus["games"] == 2 and versus["wins"] == {"Ana": 1, "Ben": 0}
    # Rated by the game Ana won only.
    board = client.get("/ratings/dixit").json["ratings"]
    assert [(row["player"], row["games"]) for row in board] == [("Ana", 1), ("Ben", 1)]
    history = client.get("/players/Ana/ratings/dixit/history").json["history"]
    assert len(history) == 1


def test_a_players_figures_across_all_games_have_no_mean_score(
    app: Flask, client: FlaskClient
) -> None:
    played(client, "Carcassonne", ["Farid", "Gus"], [[117, 90]])
    played(client, "Azul", ["Farid", "Gus"], [[40, 52]])
    drain(app)
    for query in ("", "?players=2"):
        farid = client.get(f"/players/Farid/stats{query}").json
        assert farid["games"] == 2 and farid["wins"] == 1, query
        # 117 Carcassonne points and 40 Azul points have no mean.
        assert "mean_score" not in farid, query
        assert farid["by_game"]["carcassonne"]["mean_score"] == 117
        assert farid["by_game"]["azul"]["mean_score"] == 40


def test_the_pages_show_a_dash_for_a_score_figure_there_is_none_of(
    app: Flask, client: FlaskClient
) -> None:
    game = sheet(client, "Hanabi Duel", ["Ana", "Ben"], [], scoring="none")
    end(client, game, winners=[0])
    played(client, "Azul", ["Ana", "Ben"], [[40, 52]])
    drain(app)
    # A title without points shows no score figure at all: no mean, no score column.
    page, html = page_of(client, "/stats/hanabi-duel/view")
    assert 'id="mean-score"' not in html and "Mean score" not in html
    assert [len(row) for row in page.rows("players-table")] == [4, 4]
    assert "None" not in html
    page, html = page_of(client, player_path("Ana"))
    rows = {row[0]: row for row in page.rows("per-game")}
    assert rows["Hanabi Duel"][4] == "—" and rows["Azul"][4] == "40.00"
    # The row of all games: Hanabi Duel and Azul have no mean score together.
    assert page.tables["per-game"][-1][0][0] == "All games"
    assert page.tables["per-game"][-1][4][0] == "—"
    assert "None" not in html


def test_the_rebuild_gives_the_same_figures_for_scores_never_written_and_games_nobody_won(
    app: Flask, client: FlaskClient, real_redis: redis.Redis, key_prefix: str, archive_dir: Path
) -> None:
    played(client, "Carcassonne", ["Farid", "Gus"], [[117, 90]])
    played(client, "Carcassonne", ["Farid", "Gus"], [[None, 80]])
    nobody = sheet(client, "Dixit", ["Ana", "Ben"], [[12, None]])
    end(client, nobody, winners=[])
    pointless = sheet(client, "Hanabi Duel", ["Ana", "Ben"], [], scoring="none")
    end(client, pointless, winners=[1])
    drain(app)
    live = every_stats_key(real_redis, key_prefix)
    answers = [client.get(path).json for path in ("/stats/carcassonne", "/players/Ana/stats")]
    assert rebuild_stats(real_redis, key_prefix, archive_dir) == 4
    assert every_stats_key(real_redis, key_prefix) == live
    assert [client.get(path).json for path in ("/stats/carcassonne", "/players/Ana/stats")] == (
        answers
    )
    assert client.get("/stats/carcassonne").json["players"]["Farid"]["mean_score"] == 117


def test_a_finish_time_is_a_moment_whatever_its_offset() -> None:
    assert moment("2026-01-02T10:00:00Z") == moment("2026-01-02T11:00:00+01:00")


def test_the_pages_list_titles_like_games(app: Flask, client: FlaskClient) -> None:
    game = played(client, "7 Wonders: Duel", ["Ana", "Ben"], [[50, 61]])
    drain(app)
    browser = {"Accept": "text/html"}
    index = client.get("/", headers=browser).get_data(as_text=True)
    # The menu names the title as it was spelt; the index names the game by its title.
    assert 'href="/stats/7-wonders-duel/view">7 Wonders: Duel statistics' in index
    assert 'href="/ratings/7-wonders-duel/view">7 Wonders: Duel leaderboard' in index
    assert f'href="/games/{game["id"]}/view">7 Wonders: Duel' in index
    stats = client.get("/stats/7-wonders-duel/view", headers=browser)
    assert stats.status_code == 200 and "<h1>7 Wonders: Duel</h1>" in stats.text
    board = client.get("/ratings/7-wonders-duel/view", headers=browser).get_data(as_text=True)
    assert "Ben" in board and "7 Wonders: Duel leaderboard" in board
    player = client.get("/players/Ana/view", headers=browser).get_data(as_text=True)
    assert "7 Wonders: Duel leaderboard" in player
    assert client.get("/stats/7-wonder-duel/view", headers=browser).status_code == 404


def test_a_title_in_greek_is_counted_listed_and_shown_under_its_percent_encoded_key(
    app: Flask, client: FlaskClient
) -> None:
    game = played(client, "Καρκασόν", ["Ana", "Ben"], [[50, 61]])
    drain(app)
    path = "/stats/" + quote("καρκασον")
    assert path == "/stats/%CE%BA%CE%B1%CF%81%CE%BA%CE%B1%CF%83%CE%BF%CE%BD"
    stats = client.get(path)
    assert stats.status_code == 200, stats.json
    assert stats.json["games"] == 1 and stats.json["players"]["Ben"]["wins"] == 1
    assert client.get(path.replace("/stats/", "/ratings/")).status_code == 200
    listed = client.get("/games?game=" + quote("καρκασον")).json["games"]
    assert [g["id"] for g in listed] == [game["id"]]
    titles = client.get("/titles").json["titles"]
    assert [(t["key"], t["title"], t["games"]) for t in titles] == [("καρκασον", "Καρκασόν", 1)]
    # The pages link to the key percent-encoded, and the statistics page names the title.
    index = client.get("/", headers={"Accept": "text/html"}).get_data(as_text=True)
    assert f'href="{path}/view">Καρκασόν statistics' in index
    page, html = page_of(client, path + "/view")
    assert "<h1>Καρκασόν</h1>" in html
    assert page.text("games-counted") == "1"


def test_a_worker_starting_counts_titles_again_under_their_key_as_now_computed(
    app: Flask, client: FlaskClient, real_redis: redis.Redis, key_prefix: str, archive_dir: Path
) -> None:
    played(client, "Straße", ["Ana", "Ben"], [[3, 4]])
    drain(app)
    live = every_stats_key(real_redis, key_prefix)
    # As the version before keys of every script left them: "Straße" counted under "stra-e",
    # not "strasse", and the figures marked as counted its way.
    for key in real_redis.scan_iter(match=f"{key_prefix}{{stats}}*", count=1000):
        real_redis.delete(key)
    real_redis.set(StatsKeys(key_prefix).counting, "2")
    assert client.get("/stats/strasse").json["games"] == 0
    assert recount_when_counted_otherwise(real_redis, key_prefix, archive_dir) == 1
    assert every_stats_key(real_redis, key_prefix) == live
    assert client.get("/stats/strasse").json["games"] == 1


def test_a_worker_starting_lists_titles_games_under_their_key_as_now_computed(
    app: Flask, client: FlaskClient, key_prefix: str
) -> None:
    from workers.queues import reconcile

    game = sheet(client, "Straße", ["Ana", "Ben"], [[3, 4]])
    # As the version before keys of every script left it: listed under "stra-e", not "strasse".
    store = app.extensions["tabletape"].store
    store.redis.delete(f"{key_prefix}games:game:strasse")
    store.redis.hdel(f"{key_prefix}games:titles", "strasse")
    assert client.get("/stats/strasse").status_code == 404
    reconcile(store, app.extensions["tabletape.queue"])
    assert [g["id"] for g in client.get("/games?game=strasse").json["games"]] == [game["id"]]
    assert client.get("/stats/strasse").json["games"] == 0


# --- a title's plays of every size, filtered ---------------------------------------------------

TWENTY = [f"P{seat}" for seat in range(20)]


@pytest.fixture
def madas_of_1_and_20(app: Flask, client: FlaskClient) -> str:
    """Two score sheets titled "Mada", of sizes Mada's rules do not seat: P0 alone, scoring 7 (and
    so winning), and twenty players P0 to P19 scoring their seat's number (P19 wins with 19).
    Counted by the archive job; the UTC day they finished."""
    played(client, "Mada", ["P0"], [[7]])
    game = played(client, "Mada", TWENTY, [list(range(20))])
    drain(app)
    day: str = client.get(f"/games/{game['id']}").json["finished_at"][:10]
    return day


def test_a_players_filter_finds_a_rule_games_score_sheets_of_1_and_20_players(
    client: FlaskClient, madas_of_1_and_20: str
) -> None:
    day = madas_of_1_and_20
    every = client.get("/stats/mada").json
    assert every["games"] == 2
    for path in ("/stats/mada?player=P0", f"/stats/mada?player=P0&since={day}&until={day}"):
        p0 = client.get(path).json
        assert p0["games"] == 2, path
        # P0 won alone with 7, lost with 0 among twenty: 1 win in 2, mean score 3.5.
        assert p0["players"]["P0"] == {"games": 2, "wins": 1, "win_rate": 0.5, "mean_score": 3.5}
        assert p0["players"]["P19"] == {"games": 1, "wins": 1, "win_rate": 1, "mean_score": 19}
        assert p0["seat_advantage"]["games_by_seat"] == [2] + [1] * 19
        assert p0["seat_advantage"]["wins_by_seat"] == [1] + [0] * 18 + [1]
    # 21 seats: 7, then 0 to 19 once each.
    assert client.get("/stats/mada?player=P0").json["scores"]["mean"] == (7 + 190) / 21
    assert client.get("/stats/mada?player=P5").json["games"] == 1
    assert client.get("/stats/mada?player=P5").json["players"]["P0"]["wins"] == 0


def test_a_players_count_filter_takes_any_size_a_score_sheet_of_a_rule_game_has(
    client: FlaskClient, madas_of_1_and_20: str
) -> None:
    alone = client.get("/stats/mada?players=1")
    assert alone.status_code == 200, alone.json
    assert alone.json["games"] == 1 and alone.json["wins"] == {"P0": 1}
    assert alone.json["filters"] == {"players": 1}
    twenty = client.get("/stats/mada?players=20")
    assert twenty.status_code == 200, twenty.json
    assert twenty.json["games"] == 1
    assert twenty.json["wins"] == {name: int(name == "P19") for name in TWENTY}
    assert twenty.json["players"]["P0"]["games"] == 1
    both = client.get("/stats/mada?players=20&player=P0").json
    assert both["games"] == 1 and both["players"]["P0"]["wins"] == 0
    assert client.get("/stats/mada?players=1&player=P5").json["games"] == 0
    # No Mada, of rules or on a score sheet, is played by 3: counted nowhere, still a count.
    assert client.get("/stats/mada?players=3").json["games"] == 0
    # More than a score sheet takes is no game's count.
    assert_error(client.get("/stats/mada?players=21"), 400, "invalid_request")
    ana = client.get("/players/P0/stats?players=20").json
    assert ana["games"] == 1 and ana["by_game"]["mada"]["wins"] == 0
    assert client.get("/players/P0/stats?players=1").json["by_game"]["mada"]["wins"] == 1


def test_head_to_head_in_a_rule_game_counts_its_score_sheets_of_any_size(
    client: FlaskClient, madas_of_1_and_20: str
) -> None:
    for path in ("/players/P0/versus/P19?game=mada", "/players/P0/versus/P19?game=mada&players=20"):
        versus = client.get(path)
        assert versus.status_code == 200, (path, versus.json)
        assert versus.json["games"] == 1 and versus.json["wins"] == {"P0": 0, "P19": 1}
    assert client.get("/players/P0/versus/P19?game=mada&players=1").json["games"] == 0
    # The twenty are rated; P0 alone is not (no one to rank P0 against).
    board = client.get("/ratings/mada?limit=100").json["ratings"]
    assert sorted(row["player"] for row in board) == sorted(TWENTY)
    assert {row["games"] for row in board} == {1}


def test_a_rule_games_statistics_page_offers_every_size_its_score_sheets_have(
    client: FlaskClient, madas_of_1_and_20: str
) -> None:
    page = client.get("/stats/mada/view?players=20&player=P0", headers={"Accept": "text/html"})
    assert page.status_code == 200
    assert '<option value="1">1</option>' in page.text
    assert '<option value="20" selected>20</option>' in page.text
