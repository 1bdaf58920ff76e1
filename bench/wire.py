"""The bench's HTTP client: one persistent keep-alive connection (http.client), requests prepared
in advance so that a timed append is nothing but a send and a read."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass
from typing import Any

from bench.scripts import GameScript

# The bare endpoint checks no token; it gets one of the API's length so requests weigh the same.
DUMMY_TOKEN = "x" * 32


@dataclass(frozen=True, slots=True)
class Append:
    game_id: str
    seq: int  # the version the game reaches with this move
    path: str
    body: bytes
    headers: dict[str, str]
    last: bool  # the script's last move


def prepare_appends(game_id: str, token: str, script: GameScript) -> list[Append]:
    path = f"/games/{game_id}/events"
    count = len(script.moves)
    return [
        Append(
            game_id,
            version + 1,
            path,
            json.dumps(move).encode(),
            {
                "Content-Type": "application/json",
                "Authorization": f"Bearer {token}",
                # The version the move was computed against: the API checks it (409 otherwise).
                "If-Match": str(version),
            },
            version + 1 == count,
        )
        for version, move in enumerate(script.moves)
    ]


class HttpError(Exception):
    def __init__(self, status: int, body: bytes) -> None:
        super().__init__(f"HTTP {status}: {body[:300]!r}")
        self.status = status


class Connection:
    def __init__(self, port: int, timeout: float = 30.0) -> None:
        self.port = port
        self.timeout = timeout
        self._conn: http.client.HTTPConnection | None = None

    def connect(self) -> int:
        """(Re)open the connection; the local port it got (which tells the server's worker)."""
        self.close()
        self._conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        self._conn.connect()
        assert self._conn.sock is not None
        return int(self._conn.sock.getsockname()[1])

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def send(
        self, method: str, path: str, body: bytes | None, headers: dict[str, str]
    ) -> tuple[int, bytes]:
        """One request, its response read whole. Connection errors are the caller's to handle."""
        if self._conn is None:
            self.connect()
        assert self._conn is not None
        self._conn.request(method, path, body=body, headers=headers)
        response = self._conn.getresponse()
        return response.status, response.read()

    def append(self, append: Append) -> tuple[int, bytes]:
        return self.send("POST", append.path, append.body, append.headers)

    def json(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Any:
        """A request whose success is 2xx with a JSON body; HttpError otherwise."""
        data = json.dumps(body).encode() if body is not None else None
        sent = {"Content-Type": "application/json", **(headers or {})}
        status, answer = self.send(method, path, data, sent)
        if not 200 <= status < 300:
            raise HttpError(status, answer)
        return json.loads(answer)

    def create_game(self, script: GameScript) -> tuple[str, str]:
        """Start the script's game on the API: its id and token."""
        game = self.json("POST", "/games", script.create_body())
        return game["id"], game["token"]
