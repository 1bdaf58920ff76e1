"""Corrections over the API: a retract event voids the latest standing move, for every game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.api import append, assert_error, bodies, legal, new_record
from tests.support.corrections import GAMES, RETRACT, full_state, new_game, without_version
from tests.support.workers import drain


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_retraction_restores_the_state_before_the_voided_move(
    client: FlaskClient, name: str
) -> None:
    game = new_game(client, name)
    assert append(client, game, legal(client, game)[0]).status_code == 201
    before = full_state(client, game)
    moves_before = legal(client, game)
    assert append(client, game, moves_before[-1]).status_code == 201
    response = append(client, game, RETRACT)
    assert response.status_code == 201
    assert response.json["version"] == 3
    after = full_state(client, game)
    assert after == response.json["state"]
    # The game is where it was, though its record now holds three events.
    assert without_version(after) == without_version(before)
    assert (after["version"], before["version"]) == (3, 1)
    assert legal(client, game) == moves_before
    events = client.get(f"/games/{game['id']}/events").json["events"]
    assert [(e["type"], e["void"]) for e in events][1:] == [(moves_before[-1]["type"], True),
                                                           ("retract", False)]  # fmt: skip
    assert events[0]["void"] is False


def test_retractions_go_back_one_move_each_but_never_past_the_first(client: FlaskClient) -> None:
    game = new_game(client, "mada")
    for _ in range(2):
        append(client, game, legal(client, game)[0])
    assert append(client, game, RETRACT).status_code == 201
    assert append(client, game, RETRACT).status_code == 201
    assert_error(append(client, game, RETRACT), 422, "illegal_move")
    events = client.get(f"/games/{game['id']}/events").json["events"]
    assert [e["void"] for e in events] == [True, True, False, False]
    assert full_state(client, game)["version"] == 4


def test_a_retraction_has_no_other_field(client: FlaskClient) -> None:
    game = new_game(client, "mada")
    append(client, game, legal(client, game)[0])
    assert_error(append(client, game, {"type": "retract", "seq": 1}), 400, "invalid_request")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_with_retractions_ends_as_the_game_without_the_voided_moves(
    app: Flask, client: FlaskClient, name: str
) -> None:
    game = new_game(client, name, seed=9)
    chooser = random.Random(9)
    standing: list[dict[str, Any]] = []
    while moves := legal(client, game):
        if standing and chooser.random() < 0.1:
            assert append(client, game, RETRACT).status_code == 201
            standing.pop()
        else:
            standing.append(chooser.choice(moves))
            assert append(client, game, standing[-1]).status_code == 201
    # The same seed recorded with the standing moves only.
    clean = new_game(client, name, seed=9)
    for move in standing:
        assert append(client, clean, move).status_code == 201
    assert without_version(full_state(client, game)) == without_version(full_state(client, clean))
    assert client.get(f"/games/{game['id']}").json["result"] == client.get(
        f"/games/{clean['id']}").json["result"]  # fmt: skip
    # The audit verifies the retractions; the archive and the statistics ignore voided moves.
    assert client.get(f"/games/{game['id']}/audit").json["ok"] is True
    drain(app)
    assert client.get(f"/games/{game['id']}").json["status"] == "archived"
    stats = client.get(f"/stats/{name}").json
    assert stats["games"] == 2
    assert stats["length"]["mean_events"] == len(standing)
    # Export and import keep the retractions, and replay to the same end.
    exported = client.get(f"/games/{game['id']}/export").json
    assert RETRACT in bodies(exported)
    copy = client.post("/games/import", json=new_record(exported)).json
    assert copy["result"] == client.get(f"/games/{game['id']}").json["result"]


def test_a_stale_snapshot_is_caught_up_through_a_retraction(
    real_redis: Any, key_prefix: str
) -> None:
    from tests.conftest import make_app

    first = make_app(real_redis, key_prefix).test_client()
    second = make_app(real_redis, key_prefix).test_client()
    game = new_game(first, "mada")
    append(first, game, legal(first, game)[0])
    before = full_state(second, game)  # the second process now holds a snapshot at version 1
    append(first, game, legal(first, game)[0])
    append(first, game, RETRACT)
    assert without_version(full_state(second, game)) == without_version(before)
    assert legal(second, game) == legal(first, game)
