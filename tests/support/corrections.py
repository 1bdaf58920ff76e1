"""Games of every kind for the tests of corrections, and states compared without their version."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.support.api import auth, create

RETRACT = {"type": "retract"}


GAMES = {
    "mada": {"players": ["Ana", "Ben", "Caro"], "options": {}},
    "madcala": {"players": ["Ana", "Ben"], "options": {"health": 5}},
    "sifaka": {"players": ["Ana", "Ben", "Caro"], "options": {}},
}


def new_game(client: FlaskClient, name: str, seed: int = 3) -> dict[str, Any]:
    return create(client, game=name, seed=seed, **GAMES[name])


def full_state(client: FlaskClient, game: dict[str, Any], at: int | None = None) -> dict[str, Any]:
    query = "" if at is None else f"?at={at}"
    state: dict[str, Any] = client.get(f"/games/{game['id']}/state{query}", headers=auth(game)).json
    return state


def without_version(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "version"}
