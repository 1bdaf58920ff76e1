"""A score sheet over HTTP, on the real Redis server: any title recorded as its scores, with the
contract's words for what does not fit, a seat's own points, exact numbers in their shortest form,
and the record moved to another store with its head hash."""

from __future__ import annotations

import random
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import make_app
from tests.support.api import append, assert_error, auth, create
from tests.support.openapi import openapi_errors
from tests.support.workers import drain

PLAYERS = ["Ana", "Ben", "Caro", "Dan"]


def new_sheet(client: FlaskClient, players: int = 3, **options: Any) -> dict[str, Any]:
    options = {"title": "Azul", **options}
    return create(client, game="scoresheet", players=PLAYERS[:players], options=options)


def raw_append(client: FlaskClient, game: dict[str, Any], text: str, token: str | None = None):
    return client.post(
        f"/games/{game['id']}/events",
        data=text,
        content_type="application/json",
        headers={"Authorization": f"Bearer {token or game['token']}"},
    )


def state(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = client.get(f"/games/{game['id']}/state").json
    return body


def test_a_score_sheet_is_created_with_its_title_and_key(client: FlaskClient) -> None:
    game = new_sheet(client, title="7 Wonders: Duel", bgg_id=173346, players=2)
    assert game["game"] == "scoresheet"
    assert game["options"]["title"] == "7 Wonders: Duel"
    shown = state(client, game)
    assert shown["key"] == "7-wonders-duel"
    assert shown["totals"] == [0, 0] and shown["rounds"] == 0
    assert shown["bgg_id"] == 173346 and shown["scoring"] == "highest"
    assert shown["finished"] is False


def test_a_score_sheet_takes_1_to_20_players(client: FlaskClient) -> None:
    names = [f"Player {number}" for number in range(1, 22)]
    for count in (1, 20):
        game = create(client, game="scoresheet", players=names[:count], options={"title": "Uno"})
        assert len(game["players"]) == count
    too_many = client.post(
        "/games", json={"game": "scoresheet", "players": names, "options": {"title": "Uno"}}
    )
    assert_error(too_many, 400, "invalid_request")
    assert "20" in too_many.json["error"]["message"]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({}, "title"),
        ({"title": "   "}, "title"),
        ({"title": "🎲 ???"}, "title"),  # no letter or digit of any script: an empty key
        ({"title": "Azul", "chance": "observed"}, "chance"),
        ({"title": "Azul", "colour": "red"}, "colour"),
        ({"title": "Azul", "teams": [[0, 1]]}, "teams"),
        ({"title": "Azul", "scoring": "most"}, "scoring"),
        ({"title": "Azul", "bgg_id": 0}, "bgg_id"),
    ],
)
def test_options_that_do_not_fit_are_400_naming_the_option(
    client: FlaskClient, options: dict[str, Any], field: str
) -> None:
    response = client.post(
        "/games", json={"game": "scoresheet", "players": PLAYERS[:3], "options": options}
    )
    assert_error(response, 400, "invalid_request")
    assert field in str(response.json["error"]["details"])


def test_exact_totals_decimals_add_exactly_and_are_written_shortest(client: FlaskClient) -> None:
    game = new_sheet(client, players=2)
    assert append(client, game, {"type": "score", "player": 0, "points": 0.1}).status_code == 201
    answer = raw_append(client, game, '{"type": "score", "player": 0, "points": 0.2}')
    assert answer.status_code == 201
    assert answer.json["state"]["totals"] == [0.3, 0]
    # 2.0 and 4.50 are written 2 and 4.5: in the answer, the events and the record.
    answer = raw_append(client, game, '{"type": "round", "points": [2.0, 4.50]}')
    assert answer.status_code == 201, answer.json
    assert b'"points":[2,4.5]' in answer.data
    assert answer.json["state"]["totals"] == [2.3, 4.5]
    events = client.get(f"/games/{game['id']}/events").data
    # (A timestamp such as 12:02.070Z may hold the bytes "2.0": only the points are looked at.)
    assert b'"points":[2,4.5]' in events and b'"points":[2.0' not in events
    exported = client.get(f"/games/{game['id']}/export", headers=auth(game)).data
    assert b'"points":[2,4.5]' in exported


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "score", "player": 0, "points": 1e3}',
        '{"type": "score", "player": 0, "points": 1E3}',
        '{"type": "score", "player": 0, "points": "12"}',
        '{"type": "score", "player": 0, "points": 0.0001}',
        '{"type": "score", "player": 0, "points": 1000000001}',
        # More digits than a number holds: never rounded into one that fits.
        '{"type": "score", "player": 0, "points": 0.1000000000000000001}',
        '{"type": "score", "player": 0, "points": 1000000000.00000001}',
        '{"type": "score", "player": 0, "points": true}',
        '{"type": "round", "points": [1]}',
        '{"type": "round", "points": [1, "2"]}',
    ],
)
def test_numbers_that_are_not_numbers_of_the_sheet_are_400_and_change_nothing(
    client: FlaskClient, text: str
) -> None:
    game = new_sheet(client, players=2)
    assert_error(raw_append(client, game, text), 400, "invalid_request")
    assert state(client, game)["totals"] == [0, 0]
    assert client.get(f"/games/{game['id']}").json["version"] == 0


@pytest.mark.parametrize(
    ("options", "end", "words"),
    [
        ({}, {"type": "end", "ranks": [1, 2], "winners": [0]}, "not both"),
        ({}, {"type": "end", "winners": [5]}, "out of range"),
        ({}, {"type": "end", "ranks": [1]}, "one per seat"),
        ({"cooperative": True}, {"type": "end"}, "outcome"),
        ({"cooperative": True}, {"type": "end", "winners": [0]}, "cooperative"),
        ({"scoring": "none"}, {"type": "end"}, "ranks or its winners"),
        ({"teams": [[0, 2], [1]]}, {"type": "end", "ranks": [1, 2, 2]}, "team"),
        ({"teams": [[0, 2], [1]]}, {"type": "end", "winners": [0]}, "team"),
    ],
)
def test_an_end_that_does_not_fit_is_422_with_its_words(
    client: FlaskClient, options: dict[str, Any], end: dict[str, Any], words: str
) -> None:
    game = new_sheet(client, players=3 if "teams" in options else 2, **options)
    response = append(client, game, end)
    assert_error(response, 422, "illegal_move")
    assert words in response.json["error"]["message"]
    assert client.get(f"/games/{game['id']}").json["status"] == "active"


def test_points_in_a_game_without_points_are_422(client: FlaskClient) -> None:
    game = new_sheet(client, players=2, scoring="none")
    response = append(client, game, {"type": "score", "player": 0, "points": 3})
    assert_error(response, 422, "illegal_move")
    assert "scoring 'none'" in response.json["error"]["message"]


def test_legal_lists_the_ends_and_the_free_types(client: FlaskClient) -> None:
    def legal_of(game: dict[str, Any], token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token or game['token']}"}
        body: dict[str, Any] = client.get(f"/games/{game['id']}/legal", headers=headers).json
        return body

    points = legal_of(new_sheet(client))
    assert points["moves"] == [{"type": "end"}] and points["free"] == ["score", "round"]
    assert points["ending"] == [True]
    none = legal_of(new_sheet(client, players=2, scoring="none"))
    assert none["moves"] == [{"type": "end", "winners": [0]}, {"type": "end", "winners": [1]}]
    assert none["free"] == []
    cooperative = new_sheet(client, cooperative=True)
    assert legal_of(cooperative)["moves"] == [
        {"type": "end", "outcome": "won"},
        {"type": "end", "outcome": "lost"},
    ]
    # A seat is given its own points only, and no end.
    seat = legal_of(cooperative, cooperative["seat_tokens"][1])
    assert seat["moves"] == [] and seat["free"] == ["score"]
    # Other games list every move: nothing is free.
    mada = create(client)
    assert legal_of(mada)["free"] == []


def test_a_seat_adds_its_own_points_and_nothing_else(client: FlaskClient) -> None:
    game = new_sheet(client)
    ben = game["seat_tokens"][1]
    own = raw_append(client, game, '{"type": "score", "player": 1, "points": 7}', token=ben)
    assert own.status_code == 201, own.json
    assert own.json["state"]["totals"] == [0, 7, 0]
    for text in (
        '{"type": "score", "player": 0, "points": 7}',
        '{"type": "round", "points": [1, 2, 3]}',
        '{"type": "end"}',
        '{"type": "retract"}',
        '{"type": "abandon"}',
    ):
        refused = raw_append(client, game, text, token=ben)
        assert_error(refused, 403, "forbidden")
        # In words: no seat's decision is awaited (never "seat None's").
        assert "None" not in refused.json["error"]["message"], refused.json
    assert state(client, game)["totals"] == [0, 7, 0]


def test_end_by_the_totals_ranks_ties_and_is_the_games_result(client: FlaskClient) -> None:
    game = new_sheet(client, players=4)
    append(client, game, {"type": "round", "points": [10, 12, 12, None]})
    answer = append(client, game, {"type": "end"})
    assert answer.status_code == 201
    result = client.get(f"/games/{game['id']}").json["result"]
    assert result == {
        "winners": [1, 2],
        "ranks": [3, 1, 1, 4],
        "scores": [10, 12, 12, None],
        "outcome": None,
    }
    assert answer.json["state"]["result"] == result


def test_a_retraction_takes_back_the_last_entry(client: FlaskClient) -> None:
    game = new_sheet(client, players=2)
    append(client, game, {"type": "score", "player": 0, "points": 5})
    append(client, game, {"type": "score", "player": 1, "points": 9})
    assert append(client, game, {"type": "retract"}).status_code == 201
    assert state(client, game)["totals"] == [5, 0]


def random_points(chooser: random.Random) -> int | float:
    """Points as people write them down, thousandths included: the sums must stay exact."""
    whole, kind = chooser.randint(-5, 40), chooser.random()
    if kind < 0.7:
        return whole
    return whole + 0.5 if kind < 0.9 else round(whole + chooser.randint(1, 999) / 1000, 3)


def free_move(kind: str, players: int, chooser: random.Random) -> dict[str, Any]:
    if kind == "score":
        return {
            "type": "score",
            "player": chooser.randrange(players),
            "points": random_points(chooser),
        }
    row = [None if chooser.random() < 0.1 else random_points(chooser) for _ in range(players)]
    return {"type": "round", "points": row}


def random_sheet(client: FlaskClient, seed: int) -> dict[str, Any]:
    """A random score sheet of random options, recorded to its end by random points."""
    chooser = random.Random(seed)
    players = chooser.randint(1, 4)
    options: dict[str, Any] = {"title": chooser.choice(["Azul", "Carcassonne", "Codenames"])}
    options["scoring"] = chooser.choice(["highest", "lowest", "none"])
    if players >= 2 and chooser.random() < 0.3:
        options["teams"] = [list(range(0, players, 2)), list(range(1, players, 2))]
    elif chooser.random() < 0.2:
        options["cooperative"] = True
    game = new_sheet(client, players=players, **options)
    while True:
        legal = client.get(f"/games/{game['id']}/legal", headers=auth(game)).json
        if legal["free"] and chooser.random() < 0.85:
            move = free_move(chooser.choice(legal["free"]), players, chooser)
        elif chooser.random() < 0.1 and client.get(f"/games/{game['id']}").json["version"]:
            move = {"type": "retract"}
        else:
            move = chooser.choice(legal["moves"])
        answer = append(client, game, move)
        assert answer.status_code == 201, (move, answer.json)
        if answer.json["state"]["finished"]:
            return game


def test_random_sheets_replay_at_every_move_and_move_to_another_store_with_their_head(
    app: Flask, client: FlaskClient, real_redis: redis.Redis, key_prefix: str
) -> None:
    elsewhere = make_app(real_redis, f"{key_prefix}elsewhere:").test_client()
    recorded = []
    for seed in range(6):
        game = random_sheet(client, seed)
        path = f"/games/{game['id']}"
        version = client.get(path).json["version"]
        # The state after every move is the replay's (the service's replay from the seed).
        audit = client.get(f"{path}/audit", headers=auth(game)).json
        assert audit["ok"] is True, audit
        for at in range(version + 1):
            assert client.get(f"{path}/state?at={at}").status_code == 200
        exported = client.get(f"{path}/export", headers=auth(game)).json
        imported = elsewhere.post("/games/import", json=exported)
        assert imported.status_code == 201, imported.json
        copy = f"/games/{imported.json['id']}"
        moved = elsewhere.get(f"{copy}/audit", headers=auth(imported.json)).json
        assert moved["ok"] is True and moved["head_hash"] == audit["head_hash"]
        assert elsewhere.get(copy).json["result"] == client.get(path).json["result"]
        recorded.append(client.get(path).json)
    # Archived, counted under their titles, and rated unless cooperative or played alone.
    drain(app)
    for game in recorded:
        assert client.get(f"/games/{game['id']}").json["status"] == "archived"
    titles = {title["key"]: title["games"] for title in client.get("/titles").json["titles"]}
    by_key: dict[str, int] = {}
    for game in recorded:
        key = game["options"]["title"].lower()
        by_key[key] = by_key.get(key, 0) + 1
    assert titles == by_key
    for key, games in by_key.items():
        assert client.get(f"/stats/{key}").json["games"] == games
        rated = [g for g in recorded if g["options"]["title"].lower() == key
                 and not g["options"].get("cooperative") and len(g["players"]) > 1]  # fmt: skip
        assert bool(client.get(f"/ratings/{key}").json["ratings"]) == bool(rated)


@pytest.mark.parametrize(
    ("options", "rounds", "ending", "result"),
    [
        # Ranked by the totals: ranks and a null outcome beside winners and scores.
        ({}, [[3, 9, None]], {}, {"winners": [1], "ranks": [2, 1, 3]}),
        # Ranks given, shared: a decimal score.
        ({}, [[2.5, 1, 0]], {"ranks": [1, 1, 3]}, {"winners": [0, 1], "ranks": [1, 1, 3]}),
        # A cooperative game: the table's outcome, every seat ranked 1.
        ({"cooperative": True}, [], {"outcome": "lost"}, {"winners": [], "outcome": "lost"}),
    ],
)
def test_a_finished_score_sheets_resource_keeps_to_the_openapi_document(
    client: FlaskClient,
    options: dict[str, Any],
    rounds: list[list[Any]],
    ending: dict[str, Any],
    result: dict[str, Any],
) -> None:
    game = new_sheet(client, **options)
    for points in rounds:
        assert append(client, game, {"type": "round", "points": points}).status_code == 201
    assert append(client, game, {"type": "end", **ending}).status_code == 201
    resource = client.get(f"/games/{game['id']}").json
    # The fields the contract names are all there, as the end fixed them.
    assert set(resource["result"]) >= {"winners", "ranks", "scores", "outcome"}
    assert resource["result"].items() >= result.items()
    document = client.get("/openapi.json").json
    assert openapi_errors(document, resource, "OneGame") == []
    assert openapi_errors(document, resource["result"], "Result") == []
