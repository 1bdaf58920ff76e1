"""Reading a live stream (Server-Sent Events) in the tests: its messages, and a follower."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

from flask import Flask


def messages(chunks: Iterator[bytes]) -> Iterator[dict[str, Any]]:
    """The stream's messages: ``{"event", "id", "data" (decoded JSON), "comment", "retry"}``."""
    buffer = ""
    for chunk in chunks:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            message: dict[str, Any] = {}
            for line in block.split("\n"):
                name, _, value = line.partition(":")
                value = value.removeprefix(" ")
                if name == "":
                    message["comment"] = value
                elif name == "data":
                    message["data"] = json.loads(value)
                else:
                    message[name] = value
            yield message


def stream_url(game: dict[str, Any], query: str = "") -> str:
    return f"/games/{game['id']}/stream{query}"


class Follower(threading.Thread):
    """Follows a game in a thread of its own, as a browser would: every message it receives."""

    def __init__(self, app: Flask, url: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(daemon=True)
        self.client = app.test_client()
        self.url = url
        self.headers = headers or {}
        self.received: list[dict[str, Any]] = []
        self.started_streaming = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with self.client.get(self.url, headers=self.headers, buffered=False) as response:
                assert response.status_code == 200, response.data
                assert response.mimetype == "text/event-stream"
                for message in messages(response.response):
                    self.received.append(message)
                    self.started_streaming.set()
                    if message.get("event") == "end":
                        return
        except BaseException as error:  # reported by the test's thread
            self.error = error
            self.started_streaming.set()

    def moves(self) -> list[dict[str, Any]]:
        return [message for message in self.received if message.get("event") == "move"]

    def finish(self, timeout: float = 60) -> None:
        self.join(timeout)
        assert not self.is_alive(), "the stream did not end"
        if self.error is not None:
            raise self.error
