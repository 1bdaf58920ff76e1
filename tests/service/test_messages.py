"""Messages a person can act on: what was wrong with the value given and what is accepted, in
words, never a Python repr or a validator's stock phrase."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.support.api import assert_error, create


def message_of(response: object, status: int = 400, code: str = "invalid_request") -> str:
    assert_error(response, status, code)
    text: str = response.json["error"]["message"]  # type: ignore[attr-defined]
    assert "{" not in text and "[" not in text, text
    return text


def test_no_names_says_how_many_players_the_game_takes(client: FlaskClient) -> None:
    text = message_of(client.post("/games", json={"game": "mada", "players": []}))
    assert "Mada is played by 2 to 5 players" in text and "0 names" in text


def test_a_duel_says_it_is_played_by_two(client: FlaskClient) -> None:
    text = message_of(client.post("/games", json={"game": "madcala", "players": ["A", "B", "C"]}))
    assert "Madcala is played by 2 players" in text and "3 names" in text
    assert "2 to 2" not in text


def test_a_blank_name_is_named_by_its_seat(client: FlaskClient) -> None:
    text = message_of(client.post("/games", json={"game": "mada", "players": ["Ana", " "]}))
    assert "name 2" in text and "blank" in text


def test_a_body_sent_as_a_form_says_to_send_json(client: FlaskClient) -> None:
    response = client.post(
        "/games",
        data='{"game": "mada", "players": ["Ana", "Ben"]}',
        content_type="application/x-www-form-urlencoded",
    )
    text = message_of(response)
    assert "Content-Type: application/json" in text
    assert "Missing data" not in text


def test_a_token_without_the_word_bearer_says_the_form_it_takes(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"])
    response = client.post(
        f"/games/{game['id']}/events",
        json={"type": "draw", "player": 0},
        headers={"Authorization": game["token"]},
    )
    text = message_of(response, 401, "unauthorized")
    assert "Bearer <token>" in text


def test_a_seed_out_of_range_says_the_range(client: FlaskClient) -> None:
    for seed in (2**64, -1, 1.5, "42"):
        body = {"game": "mada", "players": ["Ana", "Ben"], "seed": seed}
        text = message_of(client.post("/games", json=body))
        assert "0 to 2**64 - 1" in text, (seed, text)
        assert "Not a valid integer" not in text
