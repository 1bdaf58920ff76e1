"""Sifaka over HTTP, on the real Redis server: whole games recorded move by move from ``/legal``,
replayed at every version, archived by the worker, audited, exported, and counted in
``/stats/sifaka``; the public view keeps the table's secrets.
"""

from __future__ import annotations

import random
from typing import Any

import fakeredis
import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import make_app
from tests.support.api import append, assert_error, auth, create, legal, new_record
from tests.support.workers import drain

PLAYERS = ["Ana", "Ben", "Caro", "Dan"]
# What the public view never gives while a game is on (hands and scores it gives as nulls).
HIDDEN = ("draw_pile", "unseen", "counter_piles", "unseen_counters")


def new_game(client: FlaskClient, players: int = 2, seed: int = 11, **options: Any) -> dict:
    return create(client, game="sifaka", players=PLAYERS[:players], seed=seed, options=options)


def play(client: FlaskClient, game: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """Random moves from ``/legal`` to the end, each checked against the public view; the 201
    bodies in order."""
    chooser = random.Random(seed)
    answers: list[dict[str, Any]] = []
    public_counters_seen = False
    while moves := legal(client, game):
        response = append(client, game, chooser.choice(moves))
        assert response.status_code == 201, response.json
        answers.append(response.json)
        assert len(answers) < 1000, "the game does not end"
        public = client.get(f"/games/{game['id']}/state").json
        if public["status"] == "active":
            assert not set(HIDDEN) & set(public)
            assert "counter_value" not in str(public["boxes"])
            assert all(hand is None for hand in public["hands"])
            assert all(score is None for score in public["scores"])
            for counters in public["counters"]:
                assert all(counter["value"] is None for counter in counters)
                public_counters_seen |= bool(counters)
    assert answers[-1]["state"]["status"] == "finished"
    game["public_counters_seen"] = public_counters_seen
    return answers


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_is_recorded_replayed_archived_audited_and_counted(
    app: Flask, client: FlaskClient, players: int
) -> None:
    game = new_game(client, players, seed=players)
    assert (game["rules_version"], game["options"]["facing"][0]) == ("sifaka/1", "N")
    answers = play(client, game, seed=players)
    # state?at=N is the state the Nth append answered, at every N.
    for n, answer in enumerate(answers, start=1):
        state = client.get(f"/games/{game['id']}/state?at={n}", headers=auth(game)).json
        assert state == answer["state"], n
    final = client.get(f"/games/{game['id']}").json
    assert final["status"] == "finished" and final["version"] == len(answers)
    last = answers[-1]["state"]
    assert final["result"] == {"winners": last["winners"], "scores": last["scores"]}
    assert last["scores"] == [sum(c["value"] for c in counters) for counters in last["counters"]]
    drain(app)
    assert client.get(f"/games/{game['id']}").json["status"] == "archived"
    audit = client.get(f"/games/{game['id']}/audit").json
    assert audit["ok"] is True, audit
    stats = client.get("/stats/sifaka").json
    assert stats["games"] == 1
    turns = sum(answer["event"]["type"] == "move" for answer in answers)
    colours = [c["colour"] for counters in last["counters"] for c in counters]
    assert stats["length"]["mean_turns"] == turns
    assert stats["extras"] == {
        "turns_per_game": turns,
        "boxes_moved_per_game": sum(last["boxes_moved"]),
        "boxes_moved_per_turn": pytest.approx(sum(last["boxes_moved"]) / turns),
        "counters_per_game": len(colours),
        "counters_green_per_game": colours.count("green"),
        "counters_yellow_per_game": colours.count("yellow"),
        "counters_red_per_game": colours.count("red"),
    }


def test_statistics_sum_over_games(app: Flask, client: FlaskClient) -> None:
    finals = []
    for seed in range(3):
        game = new_game(client, 2 + seed, seed=seed, first_player=seed % 2)
        finals.append(play(client, game, seed)[-1]["state"])
    drain(app)
    stats = client.get("/stats/sifaka").json
    assert stats["games"] == 3
    red = sum(c["colour"] == "red" for f in finals for counters in f["counters"] for c in counters)
    moved = sum(sum(f["boxes_moved"]) for f in finals)
    assert stats["extras"]["counters_red_per_game"] == pytest.approx(red / 3)
    assert stats["extras"]["boxes_moved_per_game"] == pytest.approx(moved / 3)
    assert stats["seat_advantage"]["games_by_seat"] == [3, 3, 2, 1]
    assert sum(stats["wins"].values()) == sum(len(f["winners"]) for f in finals)


def test_an_observed_game_is_recorded_from_the_table(app: Flask, client: FlaskClient) -> None:
    game = new_game(client, 3, chance="observed", first_player=2)
    deals = legal(client, game)
    assert {move["type"] for move in deals} == {"deal"} and len(deals) == 48
    answers = play(client, game, seed=5)
    events = [answer["event"] for answer in answers]
    assert [event["player"] for event in events[:3]] == [0, 1, 2]
    assert sum("draw" in event for event in events) == 48 - 3
    drain(app)
    assert client.get(f"/games/{game['id']}/audit").json["ok"] is True
    exported = client.get(f"/games/{game['id']}/export").json
    copy = client.post("/games/import", json=new_record(exported))
    assert copy.status_code == 201, copy.json
    assert copy.json["result"] == client.get(f"/games/{game['id']}").json["result"]


def test_the_public_view_hides_counter_values_the_hand_card_and_the_draw_pile(
    client: FlaskClient,
) -> None:
    game = new_game(client, 4, seed=3)
    public = client.get(f"/games/{game['id']}/state").json
    full = client.get(f"/games/{game['id']}/state", headers=auth(game)).json
    assert {"hands", "draw_pile", "counter_piles", "scores"} <= set(full)
    assert not set(HIDDEN) & set(public)
    assert public["hand_sizes"] == [1, 1, 1, 1] and public["draw_pile_size"] == 44
    wrong = client.get(f"/games/{game['id']}/state", headers={"Authorization": "Bearer no"})
    assert wrong.status_code == 401
    play(client, game, seed=3)
    assert game["public_counters_seen"], "no counter was taken while the game went on"
    # Once the game is over, everything shows.
    over = client.get(f"/games/{game['id']}/state").json
    assert over == client.get(f"/games/{game['id']}/state", headers=auth(game)).json


def test_every_legal_move_of_the_first_turn_is_accepted_as_is(client: FlaskClient) -> None:
    game = new_game(client, 2)
    moves = legal(client, game)
    assert len(moves) == 16  # four starting slots, four rotations of the first card
    for move in moves:
        fresh = new_game(client, 2)
        assert append(client, fresh, move).status_code == 201


def test_illegal_and_malformed_moves_are_refused_and_append_nothing(client: FlaskClient) -> None:
    game = new_game(client, 2)
    details = assert_error(
        append(client, game, {"type": "place", "player": 0, "x": 0, "y": -1}), 422, "illegal_move"
    )
    assert isinstance(details, dict)
    message = append(client, game, {"type": "place", "player": 0, "x": 0, "y": -1}).json
    assert "starting slot" in message["error"]["message"]
    details = assert_error(
        append(client, game, {"type": "place", "player": 0, "x": 1}), 400, "invalid_request"
    )
    assert "y" in details
    details = assert_error(
        append(client, game, {"type": "move", "player": 0, "turns": [2, 1]}), 400,
        "invalid_request",
    )  # fmt: skip
    assert "turns" in details
    assert_error(append(client, game, {"type": "deal", "player": 0, "card": 1}), 400,
                 "invalid_request")  # fmt: skip
    assert client.get(f"/games/{game['id']}").json["version"] == 0


@pytest.mark.parametrize(
    "options",
    [
        {"facing": ["N"]},
        {"first_player": 2},
        {"catalog": {"cards": []}},
        {"catalog": {"cards": [{"id": 1, "boxes": ["palms:9"] * 4}]}},
        {"colour": "red"},
    ],
)
def test_bad_sifaka_creations_are_400(client: FlaskClient, options: dict[str, Any]) -> None:
    response = client.post(
        "/games", json={"game": "sifaka", "players": ["Ana", "Ben"], "options": options}
    )
    assert_error(response, 400, "invalid_request")
    assert_error(
        client.post("/games", json={"game": "sifaka", "players": [*PLAYERS, "Eli"]}),
        400,
        "invalid_request",
    )


def test_a_game_on_a_custom_deck_is_recorded(client: FlaskClient) -> None:
    catalog = {
        "name": "three cards",
        "cards": [
            {"id": 10, "boxes": ["mango:red", "palms:1", "arrow:W", "mango:green"]},
            {"id": 20, "boxes": ["palms:3", "arrow:S", "blank", "mango:yellow"]},
            {"id": 30, "boxes": ["arrow:E", "palms:2", "palms:1", "arrow:N"]},
        ],
    }
    game = new_game(client, 4, catalog=catalog, first_player=3)
    assert game["options"]["catalog"] == catalog
    answers = play(client, game, seed=1)
    assert answers[0]["state"]["deck"] == "three cards"
    assert answers[-1]["state"]["status"] == "finished"


# --- no 500, whatever the body (fakeredis: fast) -----------------------------------------------

_fuzz = make_app(fakeredis.FakeRedis(decode_responses=True), "fuzz-sifaka:").test_client()
_seeded = _fuzz.post("/games", json={"game": "sifaka", "players": ["A", "B", "C"], "seed": 1}).json
_observed = _fuzz.post(
    "/games",
    json={"game": "sifaka", "players": ["A", "B"], "seed": 1, "options": {"chance": "observed"}},
).json
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
sifaka_event = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["deal", "place", "move", "x"]) | json_values,
        "player": st.integers(-1, 4) | json_values,
        "card": st.integers(0, 50) | json_values,
        "x": st.integers(-3, 5) | json_values,
        "y": st.integers(-3, 5) | json_values,
        "rotation": st.sampled_from([0, 90, 180, 270, 45]) | json_values,
        "turns": st.lists(st.integers(0, 4), max_size=4) | json_values,
        "draw": st.integers(0, 50) | json_values,
        "counter": st.integers(0, 5) | json_values,
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=sifaka_event | json_values, observed=st.booleans())
def test_no_sifaka_event_body_gets_a_500(body: Any, observed: bool) -> None:
    game = _observed if observed else _seeded
    before = _fuzz.get(f"/games/{game['id']}").json["version"]
    response = _fuzz.post(
        f"/games/{game['id']}/events",
        json=body,
        headers={"Authorization": f"Bearer {game['token']}"},
    )
    assert response.status_code in (201, 400, 409, 422), response.json
    after = _fuzz.get(f"/games/{game['id']}").json["version"]
    assert after == before + (response.status_code == 201)


@settings(max_examples=150, deadline=None)
@given(
    options=st.fixed_dictionaries(
        {},
        optional={
            "facing": st.lists(st.sampled_from(["N", "E", "S", "W", "X"]), max_size=4)
            | json_values,
            "catalog": st.fixed_dictionaries(
                {"cards": st.lists(
                    st.fixed_dictionaries({"id": st.integers(0, 3) | json_values,
                                           "boxes": st.lists(st.sampled_from(
                                               ["blank", "palms:2", "arrow:N", "mango:red", "x"]),
                                               max_size=5) | json_values}),
                    max_size=3) | json_values},
                optional={"name": json_values},
            ) | json_values,
            "first_player": st.integers(-1, 3) | json_values,
        },
    )
)  # fmt: skip
def test_no_sifaka_creation_gets_a_500(options: Any) -> None:
    response = _fuzz.post(
        "/games", json={"game": "sifaka", "players": ["A", "B"], "seed": 3, "options": options}
    )
    assert response.status_code in (201, 400), response.json
