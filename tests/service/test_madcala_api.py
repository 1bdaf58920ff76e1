"""Madcala through the whole service, on the real Redis server: a duel recorded over HTTP with
random legal moves, archived by the worker, audited, exported and imported, and counted in
/stats/madcala.

Most duels here are short (the ``health`` option): random play is slow to kill at 25 health.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.api import (
    append,
    assert_error,
    auth,
    create,
    legal,
    new_record,
    play_to_the_end,
)
from tests.support.workers import drain


def duel(client: FlaskClient, seed: int = 5, **options: Any) -> dict[str, Any]:
    return create(client, game="madcala", players=["Ana", "Ben"], seed=seed,
                  options={"health": 4, **options})  # fmt: skip


def test_a_whole_duel_is_recorded_archived_audited_and_counted(
    app: Flask, client: FlaskClient
) -> None:
    game = duel(client, first_player=1)
    assert game["rules_version"] == "madcala/1"
    assert game["options"]["guests"] == ["alice", "hatter"]
    answers = play_to_the_end(client, game, seed=2)
    kinds = {answer["event"]["type"] for answer in answers}
    assert {"move", "end_turn"} <= kinds
    for n in range(1, len(answers) + 1):
        state = client.get(f"/games/{game['id']}/state?at={n}", headers=auth(game)).json
        assert state == answers[n - 1]["state"]
    last = answers[-1]["state"]
    record = client.get(f"/games/{game['id']}").json
    assert record["status"] == "finished" and record["version"] == len(answers)
    assert record["result"] == {"winners": last["winners"], "scores": last["health"],
                                "draw": False}  # fmt: skip
    assert min(last["health"]) == 0 and len(last["winners"]) == 1

    drain(app)
    assert client.get(f"/games/{game['id']}").json["status"] == "archived"
    audit = client.get(f"/games/{game['id']}/audit").json
    assert audit["ok"] is True, audit
    stats = client.get("/stats/madcala").json
    assert stats["games"] == 1
    assert stats["seat_advantage"]["first_player_wins"] == int(1 in last["winners"])
    assert stats["length"]["mean_turns"] == last["turn"]
    extras = stats["extras"]
    assert extras["turns_per_game"] == last["turn"]
    assert extras["damage_dealt_per_game"] == sum(last["damage_dealt"])
    assert extras["damage_dealt_per_game_seat_0"] == last["damage_dealt"][0]
    assert extras["damage_dealt_per_turn"] == pytest.approx(
        sum(last["damage_dealt"]) / last["turn"]
    )
    assert sum(last["damage_dealt"]) >= 4, "the loser's 4 health went somewhere"
    assert client.get("/players/Ana/stats").json["by_game"]["madcala"]["games"] == 1


def test_a_duel_at_full_health_can_be_recorded_too(client: FlaskClient) -> None:
    game = create(client, game="madcala", players=["Ana", "Ben"], seed=1,
                  options={"guests": ["jabberwock", "red_queen"]})  # fmt: skip
    answers = play_to_the_end(client, game, seed=1)
    assert answers[-1]["state"]["max_health"] == [25, 25]
    assert client.get(f"/games/{game['id']}").json["status"] == "finished"


def test_export_then_import_replays_a_duel_to_the_same_end(client: FlaskClient) -> None:
    game = duel(client, seed=9, chance="observed")
    play_to_the_end(client, game, seed=9)
    exported = client.get(f"/games/{game['id']}/export").json
    copy = client.post("/games/import", json=new_record(exported))
    assert copy.status_code == 201, copy.json
    assert copy.json["result"] == client.get(f"/games/{game['id']}").json["result"]
    assert client.get(f"/games/{copy.json['id']}/audit").json["ok"] is True


def test_every_legal_body_is_accepted_as_is(client: FlaskClient) -> None:
    game = duel(client, seed=3)
    chooser = random.Random(3)
    for _ in range(12):
        moves = legal(client, game)
        # Each body on a copy of the game as it stands: an import of its export.
        exported = client.get(f"/games/{game['id']}/export", headers=auth(game)).json
        for move in moves:
            copy = client.post("/games/import", json=new_record(exported)).json
            assert append(client, copy, move).status_code == 201, move
        assert append(client, game, chooser.choice(moves)).status_code == 201


def test_an_observed_duel_names_the_commoners_drawn(client: FlaskClient) -> None:
    game = duel(client, seed=4, chance="observed", first_player=0)
    # Seat 0 buys a Commoner with three of its Shards and names the card that came up.
    buy = {"type": "buy_commoner", "player": 0, "pay": [1, 1, 2]}
    details = assert_error(append(client, game, buy), 422, "illegal_move")
    assert details == {"drawn": "required here"}
    assert_error(append(client, game, {**buy, "drawn": ["nobody"]}), 400, "invalid_request")
    bought = append(client, game, {**buy, "drawn": ["cook"]})
    assert bought.status_code == 201, bought.json
    state = bought.json["state"]
    assert state["hands"][0] == ["cook"] and "cook" not in state["commoner_unseen"]
    assert state["commoner_deck_size"] == 34
    # A second Cook does not exist: the recorder is told so.
    again = assert_error(append(client, game, {**buy, "pay": [3, 3, 4], "drawn": ["cook"]}),
                         422, "illegal_move")  # fmt: skip
    assert again == {"drawn": "not one of the options"}
    # Every body legal lists that draws names what it draws.
    answers = play_to_the_end(client, game, seed=4)
    for answer in answers:
        event = answer["event"]
        if event["type"] == "buy_commoner":
            assert len(event["drawn"]) == 1
            assert event["drawn"][0] in answer["state"]["hands"][event["player"]] or (
                event["drawn"][0] in answer["state"]["commoner_discard"]
            )
    assert any("drawn" in answer["event"] for answer in answers)


def test_the_public_view_hides_hands_and_the_deck_order(client: FlaskClient) -> None:
    game = duel(client, seed=6, first_player=0)
    bought = append(client, game, {"type": "buy_commoner", "player": 0, "pay": [1, 1, 2]})
    assert bought.status_code == 201
    full = client.get(f"/games/{game['id']}/state", headers=auth(game)).json
    public = client.get(f"/games/{game['id']}/state").json
    assert len(full["hands"][0]) == 1 and len(full["commoner_deck"]) == 34
    assert public["hands"] == [None, None] and "commoner_deck" not in public
    assert public["hand_sizes"] == [1, 0] and public["commoner_deck_size"] == 34
    hidden = {**full, "hands": [None, None]}
    assert public == {k: v for k, v in hidden.items() if k != "commoner_deck"}


def test_an_illegal_move_is_422_naming_the_rule(client: FlaskClient) -> None:
    game = duel(client, first_player=0)
    response = append(client, game, {"type": "plus_one", "player": 0, "card": "alice_curiouser"})
    assert_error(response, 422, "illegal_move")
    assert "first turn" in response.json["error"]["message"]
    assert_error(append(client, game, {"type": "end_turn", "player": 0}), 422, "illegal_move")
    assert client.get(f"/games/{game['id']}").json["version"] == 0


@pytest.mark.parametrize(
    "options",
    [{"guests": ["alice"]}, {"health": 0}, {"layout": ["heal"]}, {"catalog": {"guests": []}},
     {"first_player": 2}, {"speed": 1}],
)  # fmt: skip
def test_bad_duel_creations_are_400(client: FlaskClient, options: dict[str, Any]) -> None:
    body = {"game": "madcala", "players": ["Ana", "Ben"], "options": options}
    assert_error(client.post("/games", json=body), 400, "invalid_request")
    three = {"game": "madcala", "players": ["Ana", "Ben", "Caro"]}
    assert_error(client.post("/games", json=three), 400, "invalid_request")


def test_the_openapi_document_describes_madcalas_events(client: FlaskClient) -> None:
    description = client.get("/openapi.json").json["info"]["description"]
    assert "### madcala" in description
    for field in ("home_space", "order", "last_doubler", "pay", "strike", "drawn", "discard"):
        assert f"| `{field}` |" in description
