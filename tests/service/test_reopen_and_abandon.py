"""A record you can fix: the recorder's retraction of a finished game's last move reopens it, and
an abandonment sets an unfinished game aside for good (over the API)."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
import redis
from flask.testing import FlaskClient

from service.store.chain import canonical_json
from tests.support.api import append, assert_error, auth, legal
from tests.support.corrections import GAMES, RETRACT, full_state, new_game, without_version

ABANDON = {"type": "abandon"}


def play_on(client: FlaskClient, game: dict[str, Any], seed: int) -> list[dict[str, Any]]:
    """Random legal moves until the game is over; the moves made."""
    chooser = random.Random(seed)
    made = []
    while moves := legal(client, game):
        made.append(chooser.choice(moves))
        assert append(client, game, made[-1]).status_code == 201
    return made


def resource(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = client.get(f"/games/{game['id']}", headers=auth(game)).json
    return found


def seat_headers(game: dict[str, Any], seat: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_recorders_retraction_after_the_last_move_reopens_the_game(
    client: FlaskClient, name: str
) -> None:
    game = new_game(client, name, seed=5)
    play_on(client, game, seed=5)
    finished = resource(client, game)
    assert finished["status"] == "finished"
    before_last = full_state(client, game, at=finished["version"] - 1)

    reopened = append(client, game, RETRACT)
    assert reopened.status_code == 201
    assert reopened.json["state"]["status"] == "active"
    now = resource(client, game)
    assert now["status"] == "active" and now["version"] == finished["version"] + 1
    assert "result" not in now or now["result"] is None
    assert now.get("finished_at") is None
    # The game is where it was before its last move, and goes on to an end again.
    assert without_version(full_state(client, game)) == without_version(before_last)
    assert legal(client, game)
    play_on(client, game, seed=6)
    assert resource(client, game)["status"] == "finished"
    assert client.get(f"/games/{game['id']}/audit").json["ok"] is True


def test_a_seats_retraction_of_a_finished_game_is_403(client: FlaskClient) -> None:
    game = new_game(client, "madcala", seed=2)
    play_on(client, game, seed=2)
    response = client.post(
        f"/games/{game['id']}/events", json=RETRACT, headers=seat_headers(game, 0)
    )
    assert_error(response, 403, "forbidden")
    assert resource(client, game)["status"] == "finished"


def test_a_move_after_the_end_is_still_409_game_finished(client: FlaskClient) -> None:
    game = new_game(client, "madcala", seed=2)
    moves = play_on(client, game, seed=2)
    assert_error(append(client, game, moves[-1]), 409, "game_finished")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_abandoned_game_takes_no_more_events(client: FlaskClient, name: str) -> None:
    game = new_game(client, name)
    move = legal(client, game)[0]
    append(client, game, move)
    abandoned = append(client, game, ABANDON)
    assert abandoned.status_code == 201
    assert abandoned.json["state"]["status"] == "abandoned"
    assert resource(client, game)["status"] == "abandoned"
    assert full_state(client, game)["status"] == "abandoned"
    # The state before the abandonment is the game's own.
    assert full_state(client, game, at=1)["status"] == "active"
    assert legal(client, game) == []
    for later in (move, RETRACT, ABANDON):
        assert_error(append(client, game, later), 409, "game_finished")
    assert client.get(f"/games/{game['id']}/audit").json["ok"] is True
    assert client.get(f"/games/{game['id']}/events").json["events"][-1]["type"] == "abandon"


def test_a_game_may_be_abandoned_before_any_move(client: FlaskClient) -> None:
    game = new_game(client, "mada")
    assert append(client, game, ABANDON).status_code == 201
    assert resource(client, game)["status"] == "abandoned"


def test_abandoned_games_are_listed_with_status_abandoned(client: FlaskClient) -> None:
    kept, set_aside = new_game(client, "sifaka"), new_game(client, "sifaka")
    append(client, set_aside, ABANDON)
    listed = client.get("/games?status=abandoned").json["games"]
    ids = [game["id"] for game in listed]
    assert set_aside["id"] in ids and kept["id"] not in ids


def test_a_seats_abandonment_is_403(client: FlaskClient) -> None:
    game = new_game(client, "mada")
    response = client.post(
        f"/games/{game['id']}/events", json=ABANDON, headers=seat_headers(game, 0)
    )
    assert_error(response, 403, "forbidden")
    assert resource(client, game)["status"] == "active"


def test_a_finished_game_cannot_be_abandoned(client: FlaskClient) -> None:
    game = new_game(client, "madcala", seed=3)
    play_on(client, game, seed=3)
    assert_error(append(client, game, ABANDON), 409, "game_finished")
    assert resource(client, game)["status"] == "finished"


def test_an_abandonment_has_no_other_field(client: FlaskClient) -> None:
    game = new_game(client, "mada")
    assert_error(append(client, game, {"type": "abandon", "why": "rain"}), 400, "invalid_request")
    assert resource(client, game)["status"] == "active"


def test_an_abandoned_game_keeps_its_secrets(client: FlaskClient) -> None:
    """Only a game that is over (finished, archived) shows everything: one abandoned ended
    without a result, and its hands and seed stay the recorder's."""
    game = new_game(client, "mada")
    append(client, game, legal(client, game)[0])
    append(client, game, ABANDON)
    public = client.get(f"/games/{game['id']}").json
    assert "seed" not in public and "seed_salt" not in public
    assert full_state(client, game) != client.get(f"/games/{game['id']}/state").json
    events = client.get(f"/games/{game['id']}/events").json["events"]
    assert all("hash" not in event for event in events)
    page = client.get(f"/games/{game['id']}/view").get_data(as_text=True)
    assert f"seed {game['seed']}" not in page and "abandoned" in page


def test_a_seats_replayed_append_after_a_reopening_shows_only_what_the_seat_sees_now(
    client: FlaskClient,
) -> None:
    game = new_game(client, "mada", seed=5)
    url = f"/games/{game['id']}"
    chooser = random.Random(5)
    # Recorded until the awaited seat may end the game with a move of its own.
    while True:
        known = client.get(f"{url}/legal", headers=auth(game)).json
        ends = dict(zip(map(str, known["moves"]), known["ending"], strict=True))
        seat, moves = next(
            (seat, moves)
            for seat in range(len(game["seat_tokens"]))
            if (moves := client.get(f"{url}/legal", headers=seat_headers(game, seat)).json["moves"])
        )
        ending = [move for move in moves if ends[str(move)]]
        if ending:
            break
        going_on = [move for move in known["moves"] if not ends[str(move)]]
        assert append(client, game, chooser.choice(going_on)).status_code == 201
    # The seat's own last move, keyed: the game is over, and its answer shows every hand.
    as_the_seat = seat_headers(game, seat)
    keyed = {"Idempotency-Key": "last-move", **as_the_seat}
    last = client.post(f"{url}/events", json=ending[0], headers=keyed)
    assert last.status_code == 201 and last.json["state"]["status"] == "finished"
    assert append(client, game, RETRACT).status_code == 201  # the recorder reopens it

    # The seat's retry: the same move, not appended again, as the seat may see it now.
    again = client.post(f"{url}/events", json=ending[0], headers=keyed)
    assert again.status_code == 201
    version = last.json["version"]
    assert again.json["version"] == version
    assert again.json["state"] == client.get(f"{url}/state?at={version}", headers=as_the_seat).json
    assert again.json["state"] != last.json["state"]
    events = client.get(f"{url}/events?from={version}&limit=1", headers=as_the_seat).json
    assert again.json["event"] == {k: v for k, v in events["events"][0].items() if k != "void"}
    assert resource(client, game)["version"] == version + 1


def test_a_replayed_answer_naming_an_event_the_record_lacks_is_a_damaged_record(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str
) -> None:
    game = new_game(client, "mada", seed=5)
    move = legal(client, game)[0]
    # A seat's key whose stored answer, given as the recorder's, names event 99 of 0.
    answer = {"seq": 99, "version": 99, "event": {}, "state": {"status": "active"}}
    digest = hashlib.sha256(canonical_json(move).encode()).hexdigest()
    stored = {"body_sha256": digest, "viewer": "recorder", "response": answer}
    seat = move.get("player", 0)
    real_redis.set(f"{key_prefix}{{{game['id']}}}:idem:seat{seat}:tap", json.dumps(stored))
    headers = {"Idempotency-Key": "tap", **seat_headers(game, seat)}
    response = client.post(f"/games/{game['id']}/events", json=move, headers=headers)
    assert assert_error(response, 500, "damaged_record") == {"seq": 99}
