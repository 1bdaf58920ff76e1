"""A long game for the viewer's tests."""

from __future__ import annotations

from typing import Any

from flask import Flask

from bench.scripts import ENDLESS_CATALOG, endless_game
from service.games import GameService
from tests.support.api import create


def long_game(app: Flask, moves: int, seed: int = 5) -> dict[str, Any]:
    """A game of Mada of ``moves`` moves (a deck with which the round goes on: bench/scripts.py),
    created through the API and appended in process through the service, as the API appends."""
    script = endless_game(seed, moves)
    client = app.test_client()
    game = create(client, players=list(script.players), seed=seed,
                  options={"catalog": ENDLESS_CATALOG})  # fmt: skip
    service: GameService = app.extensions["tabletape"]
    for move in script.moves:
        service.append(game["id"], game["token"], dict(move))
    return game
