"""What the API's tests do again and again: create a game, append, list the legal moves, play to the
end, check an error body."""

from __future__ import annotations

import random
import secrets
import time
from typing import Any

from flask.testing import FlaskClient

from service.store.chain import new_salt, seed_commitment


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    body = {"game": "mada", "players": ["Ana", "Ben", "Caro"], "seed": 42, **body}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json
    return created


def create_apart(client: FlaskClient, seeds: range, **body: Any) -> list[str]:
    """Games created one per seed, each in a millisecond of its own (the listings order games
    created within one millisecond by their ids), so that the last made is the newest listed;
    their ids, oldest first."""
    made = []
    for seed in seeds:
        made.append(create(client, seed=seed, **body)["id"])
        created = time.time_ns() // 1_000_000
        while time.time_ns() // 1_000_000 == created:
            time.sleep(0.0002)
    return made


def auth(game: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['token']}"}


def legal(client: FlaskClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    """The moves the recorder may append now (GET /legal needs a token)."""
    response = client.get(f"/games/{game['id']}/legal", headers=auth(game))
    assert response.status_code == 200, (response.status_code, response.json)
    moves: list[dict[str, Any]] = response.json["moves"]
    return moves


def append(client: FlaskClient, game: dict[str, Any], move: dict[str, Any], **headers: str):
    return client.post(f"/games/{game['id']}/events", json=move, headers={**auth(game), **headers})


# Random play is long in Madcala: of 150 games of random moves, 2 took more than 5,000 (6,448 the
# longest), so a tournament's tables, dealt from seeds of their own, once failed a limit of 5,000.
# The domain's playouts allow 40,000; so does this.
MOVE_LIMIT = 40_000


def play_to_the_end(client: FlaskClient, game: dict[str, Any], seed: int = 0) -> list[dict]:
    """Append random legal moves until the game is over; the 201 bodies, in order."""
    chooser = random.Random(seed)
    answers = []
    while moves := legal(client, game):
        response = append(client, game, chooser.choice(moves))
        assert response.status_code == 201, response.json
        answers.append(response.json)
        assert len(answers) < MOVE_LIMIT, "the game does not end"
    return answers


def new_record(exported: dict[str, Any]) -> dict[str, Any]:
    """An exported record as the record of another game: the same moves by players of other
    names, with a salt and commitment of its own (the same game, players, seed, options and
    moves are one record, whatever the salt: imported again, it is a 409)."""
    salt = new_salt()
    mark = secrets.token_hex(3)
    return {
        **exported,
        "players": [f"{name} {mark}" for name in exported["players"]],
        "seed_salt": salt,
        "seed_commitment": seed_commitment(exported["seed"], salt),
    }


def bodies(exported: dict[str, Any]) -> list[dict[str, Any]]:
    """An export's events as bodies to append: without the ``at`` each was stored with."""
    return [{k: v for k, v in event.items() if k != "at"} for event in exported["events"]]


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.json
    body = response.json
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code
    assert body["error"]["message"]
    details: dict[str, Any] = body["error"]["details"]
    return details
