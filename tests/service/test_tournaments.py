"""Tournaments through the API, against the real Redis (once a plain server, once a cluster):
whole tournaments whose tables are finished by their own moves, their standings, the guards of
their rounds, and the organiser's token and the write key."""

from __future__ import annotations

import threading
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.store.connection import StoreClient
from tests.conftest import make_app
from tests.support.api import append, assert_error
from tests.support.tournaments import (
    by_strength,
    create_tournament,
    end_score_sheet,
    organiser,
    pair,
    play_round,
    play_rule_game_round,
    read,
    run_whole,
    table_game,
)
from tests.support.workers import drain

NAMES = ["Ana", "Ben", "Caro", "Dan", "Eve", "Finn", "Gus", "Hana", "Ida", "Jon"]


@pytest.fixture
def real_redis(store_redis: StoreClient) -> StoreClient:
    """This module's tests run on the plain Redis, then on the cluster (tests/conftest.py)."""
    return store_redis


def meetings(rounds: list[dict[str, Any]]) -> Counter[frozenset[str]]:
    return Counter(
        frozenset(pair)
        for paired in rounds
        for table in paired["tables"]
        for pair in combinations(table["players"], 2)
    )


def seated(paired: dict[str, Any]) -> list[str]:
    return [name for table in paired["tables"] for name in table["players"]] + paired["byes"]


# Whole tournaments ------------------------------------------------------------------------------
def test_a_round_robin_of_5_stands_as_counted_by_hand(client: FlaskClient) -> None:
    tournament = create_tournament(client, format="round_robin", rounds=None, players=NAMES[:5])
    assert tournament["rounds_planned"] == 5
    # Ana beats everyone, Ben and Caro draw, and otherwise the earlier name wins.
    decide = by_strength(NAMES[:5], draws=frozenset({frozenset({"Ben", "Caro"})}))
    rounds = run_whole(client, tournament, decide)
    # Every pair met once; everyone sat out once (a bye).
    assert set(meetings(rounds).values()) == {1} and len(meetings(rounds)) == 10
    assert sorted(bye for paired in rounds for bye in paired["byes"]) == sorted(NAMES[:5])
    found = read(client, tournament)
    assert found["status"] == "finished"
    standings = {row["player"]: row for row in found["standings"]}
    # By hand: a win 1, the draw ½ each (a shared first place: a win for both), the bye 1;
    # opponents' points summed over the tables.
    expected = {
        "Ana": (5.0, 10.0, 4), "Ben": (3.5, 11.5, 3), "Caro": (3.5, 11.5, 3),
        "Dan": (2.0, 13.0, 1), "Eve": (1.0, 14.0, 0),
    }  # fmt: skip
    for name, (points, opponents, wins) in expected.items():
        row = standings[name]
        assert (row["points"], row["opponents_points"], row["wins"], row["games"]) == (
            points,
            opponents,
            wins,
            4,
        )
    assert found["standings"][0]["player"] == "Ana"
    assert {row["player"] for row in found["standings"][1:3]} == {"Ben", "Caro"}
    assert [row["player"] for row in found["standings"][3:]] == ["Dan", "Eve"]
    assert [row["rank"] for row in found["standings"]] == [1, 2, 3, 4, 5]


def test_a_swiss_of_8_pairs_everyone_each_round_and_never_twice(client: FlaskClient) -> None:
    tournament = create_tournament(client, players=NAMES[:8], rounds=3)
    rounds = run_whole(client, tournament, by_strength(NAMES[:8]))
    for paired in rounds:
        assert sorted(seated(paired)) == sorted(NAMES[:8]) and paired["byes"] == []
    assert set(meetings(rounds).values()) == {1}
    found = read(client, tournament)
    assert found["status"] == "finished"
    # The strongest won all three; the points given out are the games played.
    assert found["standings"][0]["player"] == "Ana" and found["standings"][0]["points"] == 3.0
    assert sum(row["points"] for row in found["standings"]) == 12.0
    assert isinstance(found["seed"], int) and len(found["seed_salt"]) == 32


def test_a_swiss_of_7_gives_one_bye_a_round_never_twice(client: FlaskClient) -> None:
    tournament = create_tournament(client, players=NAMES[:7], rounds=4)
    rounds = run_whole(client, tournament, by_strength(NAMES[:7]))
    byes = [bye for paired in rounds for bye in paired["byes"]]
    assert len(byes) == 4 and len(set(byes)) == 4
    for paired in rounds:
        assert sorted(seated(paired)) == sorted(NAMES[:7])
    standings = {row["player"]: row for row in read(client, tournament)["standings"]}
    for bye in byes:
        # A bye is a point, and neither a game nor a win.
        assert standings[bye]["games"] == 3


def test_pods_of_10_at_3_to_5_sit_at_two_tables_of_5(client: FlaskClient) -> None:
    tournament = create_tournament(
        client, format="pods", table_size=[3, 5], rounds=2, players=NAMES
    )
    assert tournament["table_size"] == [3, 5]
    rounds = run_whole(client, tournament, by_strength(NAMES))
    for paired in rounds:
        assert [len(table["players"]) for table in paired["tables"]] == [5, 5]
        assert sorted(seated(paired)) == sorted(NAMES)
    found = read(client, tournament)
    assert found["status"] == "finished"
    # At a table of five: 1, ¾, ½, ¼, 0; two tables a round, two rounds.
    assert sum(row["points"] for row in found["standings"]) == pytest.approx(10.0)
    first = found["rounds"][0]["tables"][0]
    assert sorted(first["result"]["points"]) == [0.0, 0.25, 0.5, 0.75, 1.0]


def test_a_swiss_of_madcala_is_played_move_by_move(client: FlaskClient) -> None:
    tournament = create_tournament(client, game="madcala", options={}, players=NAMES[:4], rounds=2)
    for number in range(2):
        paired = pair(client, tournament)
        play_rule_game_round(client, paired, seed=number)
    found = read(client, tournament)
    assert found["status"] == "finished"
    for paired in found["rounds"]:
        for table in paired["tables"]:
            game = client.get(f"/games/{table['game']}").json
            assert game["status"] == "finished" and game["players"] == table["players"]
            assert sum(table["result"]["points"]) == 1.0
    assert sum(row["points"] for row in found["standings"]) == 4.0


def test_the_same_seed_and_results_give_the_same_tables(client: FlaskClient) -> None:
    decide = by_strength(list(reversed(NAMES[:7])))
    first = create_tournament(client, players=NAMES[:7], rounds=3, seed=2026)
    second = create_tournament(client, players=NAMES[:7], rounds=3, seed=2026)
    for _ in range(3):
        one, other = pair(client, first), pair(client, second)
        assert [t["players"] for t in one["tables"]] == [t["players"] for t in other["tables"]]
        assert one["byes"] == other["byes"]
        play_round(client, one, decide)
        play_round(client, other, decide)
    assert read(client, first)["standings"] == read(client, second)["standings"]


def test_tournament_games_count_in_the_statistics(client: FlaskClient, app: Flask) -> None:
    tournament = create_tournament(client, format="round_robin", rounds=None, players=NAMES[:4])
    run_whole(client, tournament, by_strength(NAMES[:4]))
    before = read(client, tournament)
    drain(app)
    figures = client.get("/stats/chess").json
    assert figures["games"] == 6
    assert figures["wins"]["Ana"] == 3
    # Archived, its tables still count, and its export still carries every table's record.
    after = read(client, tournament)
    assert after["standings"] == before["standings"] and after["status"] == "finished"
    exported = client.get(f"/tournaments/{tournament['id']}/export").json
    assert all(table["record"]["events"] for paired in exported["rounds"]
               for table in paired["tables"])  # fmt: skip


def test_a_table_reopened_by_a_retraction_is_played_again(client: FlaskClient) -> None:
    tournament = create_tournament(client, players=NAMES[:4], rounds=2)
    paired = pair(client, tournament)
    play_round(client, paired, by_strength(NAMES[:4]))
    table = paired["tables"][0]
    # The scorekeeper takes back the end: the table is being played again, and counts no more.
    assert append(client, table_game(table), {"type": "retract"}).status_code == 201
    found = read(client, tournament)
    assert found["rounds"][0]["tables"][0]["result"] is None
    assert sum(row["games"] for row in found["standings"]) == 2
    response = client.post(f"/tournaments/{tournament['id']}/rounds", headers=organiser(tournament))
    assert_error(response, 409, "round_in_play")
    end_score_sheet(client, table, [2, 1])
    assert read(client, tournament)["rounds"][0]["tables"][0]["result"]["ranks"] == [2, 1]
    pair(client, tournament)


# Rounds and their guards --------------------------------------------------------------------------
def test_the_next_round_waits_for_every_table(client: FlaskClient) -> None:
    tournament = create_tournament(client, players=NAMES[:4], rounds=2)
    paired = pair(client, tournament)
    end_score_sheet(client, paired["tables"][0], [1, 2])
    response = client.post(f"/tournaments/{tournament['id']}/rounds", headers=organiser(tournament))
    details = assert_error(response, 409, "round_in_play")
    assert details["tables"] == [2]
    assert "table 2" in response.json["error"]["message"]
    # No round was paired by the refusal.
    assert len(read(client, tournament)["rounds"]) == 1
    end_score_sheet(client, paired["tables"][1], [2, 1])
    pair(client, tournament)


def test_a_table_abandoned_is_lost_by_everyone_at_it(client: FlaskClient) -> None:
    tournament = create_tournament(client, players=NAMES[:4], rounds=1)
    paired = pair(client, tournament)
    response = append(client, table_game(paired["tables"][0]), {"type": "abandon"})
    assert response.status_code == 201, response.json
    end_score_sheet(client, paired["tables"][1], [1, 2])
    found = read(client, tournament)
    assert found["status"] == "finished"
    abandoned = found["rounds"][0]["tables"][0]
    assert abandoned["result"] == {"ranks": None, "abandoned": True, "points": [0.0, 0.0]}
    standings = {row["player"]: row for row in found["standings"]}
    for name in abandoned["players"]:
        assert standings[name]["points"] == 0.0 and standings[name]["games"] == 1


def test_a_table_with_no_winner_gives_half_each(client: FlaskClient) -> None:
    tournament = create_tournament(client, players=NAMES[:2], rounds=1)
    paired = pair(client, tournament)
    end_score_sheet(client, paired["tables"][0], None)
    found = read(client, tournament)
    assert [row["points"] for row in found["standings"]] == [0.5, 0.5]


def test_no_round_is_paired_once_it_is_over(client: FlaskClient) -> None:
    tournament = create_tournament(client, players=NAMES[:2], rounds=1)
    run_whole(client, tournament, by_strength(NAMES[:2]))
    response = client.post(f"/tournaments/{tournament['id']}/rounds", headers=organiser(tournament))
    assert_error(response, 409, "tournament_finished")


def test_two_organisers_at_once_pair_one_round(client: FlaskClient, app: Flask) -> None:
    tournament = create_tournament(client, players=NAMES[:8], rounds=2)
    start = threading.Barrier(4)
    statuses: list[int] = []

    def press() -> None:
        own = app.test_client()
        start.wait()
        response = own.post(
            f"/tournaments/{tournament['id']}/rounds", headers=organiser(tournament)
        )
        statuses.append(response.status_code)

    pressing = [threading.Thread(target=press) for _ in range(4)]
    for thread in pressing:
        thread.start()
    for thread in pressing:
        thread.join()
    assert sorted(statuses) == [201, 409, 409, 409]
    assert len(read(client, tournament)["rounds"]) == 1


def test_a_withdrawn_player_is_not_paired_again_and_keeps_their_points(
    client: FlaskClient,
) -> None:
    tournament = create_tournament(client, players=NAMES[:5], rounds=2)
    paired = pair(client, tournament)
    play_round(client, paired, by_strength(NAMES[:5]))
    before = {row["player"]: row["points"] for row in read(client, tournament)["standings"]}
    response = client.post(f"/tournaments/{tournament['id']}/withdraw", json={"player": "Ana"},
                           headers=organiser(tournament))  # fmt: skip
    assert response.status_code == 200, response.json
    assert response.json["withdrawn"] == ["Ana"]
    second = pair(client, tournament)
    assert "Ana" not in seated(second)
    after = {row["player"]: row["points"] for row in read(client, tournament)["standings"]}
    assert after["Ana"] == before["Ana"]
    stranger = client.post(f"/tournaments/{tournament['id']}/withdraw", json={"player": "Zed"},
                           headers=organiser(tournament))  # fmt: skip
    assert_error(stranger, 400, "invalid_request")


def test_a_round_with_too_few_players_left_is_a_422(client: FlaskClient) -> None:
    tournament = create_tournament(client, players=NAMES[:2], rounds=2)
    response = client.post(f"/tournaments/{tournament['id']}/withdraw", json={"player": "Ana"},
                           headers=organiser(tournament))  # fmt: skip
    assert response.status_code == 200
    response = client.post(f"/tournaments/{tournament['id']}/rounds", headers=organiser(tournament))
    assert_error(response, 422, "impossible_plan")
    assert read(client, tournament)["rounds"] == []


# Who may do what ----------------------------------------------------------------------------------
def test_only_the_organiser_pairs_withdraws_and_exports_while_on(client: FlaskClient) -> None:
    tournament = create_tournament(client, players=NAMES[:4], rounds=1)
    path = f"/tournaments/{tournament['id']}"
    assert_error(client.post(f"{path}/rounds"), 401, "unauthorized")
    wrong = {"Authorization": "Bearer not-the-token"}
    assert_error(client.post(f"{path}/rounds", headers=wrong), 401, "unauthorized")
    paired = pair(client, tournament)
    # A table's token is its game's, not the tournament's.
    table = {"Authorization": f"Bearer {paired['tables'][0]['token']}"}
    assert_error(client.post(f"{path}/rounds", headers=table), 401, "unauthorized")
    assert_error(client.post(f"{path}/withdraw", json={"player": "Ana"}, headers=wrong),
                 401, "unauthorized")  # fmt: skip
    assert_error(client.get(f"{path}/export"), 401, "unauthorized")
    assert client.get(f"{path}/export", headers=organiser(tournament)).status_code == 200
    # Nobody else sees a token or the seed while it is on.
    public = client.get(path).json
    assert "token" not in str(public) and "seed" not in public
    play_round(client, paired, by_strength(NAMES[:4]))
    assert client.get(f"{path}/export").status_code == 200


def test_creating_a_tournament_needs_the_write_key(real_redis: StoreClient, key_prefix: str,
                                                    tmp_path: Any) -> None:  # fmt: skip
    app = make_app(real_redis, key_prefix, DATA_DIR=str(tmp_path), WRITE_KEY="club-key")
    client = app.test_client()
    body = {"name": "Cup", "game": "madcala", "format": "swiss", "rounds": 1,
            "players": ["Ana", "Ben"]}  # fmt: skip
    assert_error(client.post("/tournaments", json=body), 401, "unauthorized")
    wrong = {"Authorization": "Bearer nope"}
    assert_error(client.post("/tournaments", json=body, headers=wrong), 401, "unauthorized")
    key = {"Authorization": "Bearer club-key"}
    created = client.post("/tournaments", json=body, headers=key)
    assert created.status_code == 201, created.json
    # The organiser's token pairs its rounds without the write key.
    tournament = created.json
    assert pair(client, tournament)["tables"][0]["players"]


# Bad bodies ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"players": ["Ana"]}, "players"),
        ({"players": [f"P{n}" for n in range(257)]}, "players"),
        ({"players": ["Ana", "Ana", "Ben"]}, "players"),
        ({"rounds": 0}, "rounds"),
        ({"rounds": 21}, "rounds"),
        ({"rounds": None, "format": "round_robin", "rounds_": 3}, "rounds_"),
        ({"format": "knockout"}, "format"),
        ({"name": "  "}, "name"),
        ({"options": {"title": "Chess", "colour": "red"}}, "options"),
        ({"seed": -1}, "seed"),
    ],
)
def test_a_bad_body_is_a_400_and_makes_nothing(
    client: FlaskClient, change: dict[str, Any], field: str
) -> None:
    body = {"name": "Cup", "game": "scoresheet", "options": {"title": "Chess"}, "format": "swiss",
            "rounds": 3, "players": NAMES[:4], **change}  # fmt: skip
    body = {key: value for key, value in body.items() if value is not None}
    response = client.post("/tournaments", json=body)
    details = assert_error(response, 400, "invalid_request")
    assert details


@pytest.mark.parametrize(
    "body",
    [
        {"format": "round_robin", "rounds": 3},
        {"format": "swiss"},
        {"game": "mada", "options": {}, "format": "pods", "table_size": [2, 6]},
        {"game": "mada", "options": {}, "format": "pods", "table_size": [4, 3]},
        {"game": "madcala", "options": {}, "format": "swiss", "table_size": [3, 3]},
    ],
)
def test_a_plan_against_the_game_is_a_400(client: FlaskClient, body: dict[str, Any]) -> None:
    base = {"name": "Cup", **{"game": "scoresheet", "options": {"title": "Go"}},
            "players": NAMES[:6], **body}  # fmt: skip
    assert_error(client.post("/tournaments", json=base), 400, "invalid_request")


def test_pods_that_cannot_seat_everyone_are_a_422(client: FlaskClient) -> None:
    body = {"name": "Cup", "game": "mada", "format": "pods", "table_size": [4, 4], "rounds": 2,
            "players": NAMES}  # fmt: skip
    response = client.post("/tournaments", json=body)
    assert_error(response, 422, "impossible_plan")


def test_no_such_tournament_is_a_404(client: FlaskClient) -> None:
    assert_error(client.get("/tournaments/nothing-here"), 404, "not_found")
