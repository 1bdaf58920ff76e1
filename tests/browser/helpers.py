"""What the browser tests and the README's screenshots share: the app under a real WSGI server in a
thread, Debian's Chromium driven by Playwright, and games recorded through the API."""

from __future__ import annotations

import os
import random
import shutil
import threading
from pathlib import Path
from types import TracebackType
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from tests.service.test_api import append, auth, create, legal

# The flags Chromium needs here: no sandbox as root, no GPU, and none of its own traffic (this
# machine reaches nothing outside, and the pages must need nothing outside either).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

INSTALL_HINT = (
    "the browser tests need Debian's Chromium: apt-get install chromium "
    "(or set TABLETAPE_CHROMIUM to a Chromium executable); .ci/run installs it"
)

GAMES: dict[str, dict[str, Any]] = {
    "mada": {"players": ["Ana", "Ben", "Caro"], "options": {}},
    # Small health: a duel of random moves ends in a few dozen events.
    "madcala": {"players": ["Ana", "Ben"], "options": {"health": 3}},
    "sifaka": {"players": ["Ana", "Ben", "Caro"], "options": {}},
}


def chromium_path() -> str | None:
    """The Chromium to drive: TABLETAPE_CHROMIUM, else Debian's, else any on the PATH."""
    named = os.environ.get("TABLETAPE_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    candidates = ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser"))
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            return candidate
    return None


class LiveServer:
    """The app under werkzeug's threaded WSGI server on a free port of 127.0.0.1."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client: FlaskClient = app.test_client()
        self._server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> LiveServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)


def new_game(client: FlaskClient, game: str, seed: int = 7) -> dict[str, Any]:
    settings = GAMES[game]
    return create(client, game=game, players=settings["players"], seed=seed,
                  options=settings["options"])  # fmt: skip


def play(client: FlaskClient, game: dict[str, Any], moves: int | None = None, seed: int = 0) -> int:
    """Append random legal moves: ``moves`` of them, or until the game is over. The version."""
    chooser = random.Random(seed)
    made = 0
    while (moves is None or made < moves) and (choices := legal(client, game)):
        response = append(client, game, chooser.choice(choices))
        assert response.status_code == 201, response.json
        made += 1
        assert made < 5000, "the game does not end"
    version: int = client.get(f"/games/{game['id']}").json["version"]
    return version


def state(client: FlaskClient, game: dict[str, Any], at: int, token: bool = True) -> Any:
    headers = auth(game) if token else {}
    response = client.get(f"/games/{game['id']}/state?at={at}", headers=headers)
    assert response.status_code == 200, response.json
    return response.json


def events(client: FlaskClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = client.get(f"/games/{game['id']}/events").json["events"]
    return found
