"""The peer: the same validated Mada appends, stored the way a Python team would with the
``eventsourcing`` library on PostgreSQL.

An ``Application`` holds one ``Aggregate`` per game, whose events are the game's start and its
moves; the library's PostgreSQL recorder stores them, one row per event, and its optimistic
concurrency (the unique originator id and version) refuses a second writer at one version. The
aggregate validates a move with the same pure reducer as the API (``domain``'s Mada) before the
event exists. Chosen over the recorder used directly because it is the library's documented way
to build an application, and the one that gets its aggregate cache: with AGGREGATE_CACHE_MAXSIZE
set, an append reads only the events after the cached version (the library's "fast-forward"),
not the whole game.

The routes are the API's, with its headers (Bearer token, If-Match), so the clients send the same
requests to it; the answer is the API's too (the event and the recorder's view of the state),
less the hash chain, which the library does not have. It runs under the same ``tabletape serve``
gunicorn settings as the API (``bench.launch``).
"""

from __future__ import annotations

import atexit
import hashlib
import hmac
import os
import secrets
from copy import copy
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Aggregate, event
from eventsourcing.persistence import IntegrityError
from flask import Flask, request

from domain import get_game
from domain.errors import (
    GameFinishedError,
    IllegalMoveError,
    InvalidEventError,
    TabletapeError,
)
from domain.mada.state import MadaState
from domain.viewers import RECORDER

MADA = get_game("mada")

# The library's settings (read from the environment by eventsourcing): PostgreSQL, an aggregate
# cache per process as large as the API's STATE_CACHE_SIZE. The connection (POSTGRES_DBNAME,
# POSTGRES_HOST, ...) and POSTGRES_SCHEMA come from the bench (bench.append_peer).
LIBRARY_SETTINGS = {
    "PERSISTENCE_MODULE": "eventsourcing.postgres",
    "AGGREGATE_CACHE_MAXSIZE": "4096",
    # A pool per gunicorn process as large as its threads (4 by default), with a margin.
    "POSTGRES_POOL_SIZE": "8",
}


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class MadaGame(Aggregate):
    """One game: its state is the reducer's, rebuilt from the aggregate's events."""

    @event("Started")
    def __init__(self, players: int, seed: int, options: dict[str, Any], token_sha256: str) -> None:
        self.token_sha256 = token_sha256
        self.state: MadaState = MADA.new_game(players, seed, options)

    @event("Moved")
    def move(self, move: dict[str, Any]) -> None:
        # The reducer raises on an illegal move, and then no event is made.
        self.state = MADA.apply(self.state, move)

    def __deepcopy__(self, memo: dict[int, Any]) -> MadaGame:
        # The library copies a cached aggregate before each command; the state is an immutable
        # value, so a shallow copy with a list of pending events of its own is a true copy (a
        # deep one would walk every card).
        clone = copy(self)
        clone._pending_events = list(self._pending_events)
        return clone


class MadaGames(Application[UUID]):
    name = "TabletapePeer"

    def __del__(self) -> None:
        # Closed by whoever made it (a worker closes its own as it exits: create_peer_app). The
        # library's __del__ would close it again as the interpreter finalizes, which under gevent
        # logs "RuntimeError: greenlet is being finalized".
        pass

    def start(self, players: int, seed: int, options: dict[str, Any]) -> tuple[UUID, str]:
        token = secrets.token_urlsafe(24)
        game = MadaGame(players, seed, options, token_digest(token))
        self.save(game)
        return game.id, token


def create_peer_app(config: Any = None) -> Flask:
    app = Flask("tabletape-peer")
    games = MadaGames(env=LIBRARY_SETTINGS)
    # Closed as the worker exits, before the interpreter finalizes (see MadaGames.__del__).
    atexit.register(games.close)

    @app.post("/games")
    def create() -> Any:
        body = request.get_json()
        players = len(body["players"])
        options = MADA.options(body.get("options", {}), players)
        seed = body.get("seed")
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
        game_id, token = games.start(players, seed, options)
        return {"id": str(game_id), "token": token, "version": 0}, 201

    @app.post("/games/<game_id>/events")
    def append(game_id: str) -> Any:
        move = request.get_json()
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            return _error(400, "invalid_request", "an event is a JSON object with a string type")
        try:
            game: MadaGame = games.repository.get(UUID(game_id))
        except (ValueError, AggregateNotFoundError):
            return _error(404, "not_found", f"no game with id {game_id!r}")
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(
            token_digest(token.strip()), game.token_sha256
        ):
            return _error(401, "unauthorized", "append with the game's token")
        # The aggregate's version counts the Started event: the game's version is one less.
        version = game.version - 1
        if_match = request.headers.get("If-Match")
        if if_match is not None and if_match.strip('"') != str(version):
            return _error(409, "version_conflict", f"the game is at version {version}")
        try:
            game.move(move)
        except TabletapeError as error:
            return _refused(error)
        try:
            games.save(game)
        except IntegrityError:
            # Another writer stored this version first.
            return _error(409, "version_conflict", "another move was appended first")
        seq = version + 1
        # The time the library stamped on the event.
        at = game.modified_on.isoformat(timespec="milliseconds").replace("+00:00", "Z")
        return (
            {
                "seq": seq,
                "version": seq,
                "event": {"seq": seq, **move, "at": at},
                "state": {**MADA.view(game.state, RECORDER), "version": seq},
            },
            201,
            {"ETag": f'"{seq}"'},
        )

    @app.get("/health")
    def health() -> Any:
        # "app" lets the bench check that it started the server it meant to.
        return {"status": "ok", "app": "peer"}

    return app


def _error(status: int, code: str, message: str) -> Any:
    return {"error": {"code": code, "message": message, "details": {}}}, status


def _refused(error: TabletapeError) -> Any:
    """The API's answer to a move the rules refuse."""
    if isinstance(error, IllegalMoveError):
        return _error(422, "illegal_move", error.message)
    if isinstance(error, GameFinishedError):
        return _error(409, "game_finished", error.message)
    if isinstance(error, InvalidEventError):
        return _error(400, "invalid_request", error.message)
    raise error
