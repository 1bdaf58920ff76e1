"""HTTP resources of spec/api.md. Views parse, call the game service and answer; errors are raised.

Responses are serialised with orjson and returned as ready ``Response`` objects (flask-smorest then
leaves them as they are); the ``@blp.response`` schemas still document them in the OpenAPI file.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import current_app, request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import Schema
from webargs.flaskparser import FlaskParser

from service.errors import InvalidRequestError
from service.games import GameService
from service.jsonio import json_response
from service.schemas import (
    AppendedSchema,
    AuditSchema,
    CreatedGameSchema,
    CreateGameSchema,
    ErrorSchema,
    EventListSchema,
    EventSchema,
    EventsQuerySchema,
    GameListQuerySchema,
    GameListSchema,
    GameSchema,
    LegalMovesSchema,
    RecordSchema,
    StateQuerySchema,
    StateSchema,
)
from service.store import GameRecord


class _Parser(FlaskParser):
    # The contract answers malformed requests with 400 invalid_request, not webargs' 422.
    DEFAULT_VALIDATION_STATUS = 400


class ApiBlueprint(Blueprint):
    ARGUMENTS_PARSER = _Parser()


games = ApiBlueprint("games", __name__, description="Record, replay and audit games")

_ERRORS = {
    400: "invalid_request",
    429: "rate_limited",
    401: "unauthorized",
    404: "not_found",
    409: "version_conflict, game_finished or idempotency_conflict",
    413: "too_large",
    422: "illegal_move",
    503: "unavailable",
}


def _errors(*statuses: int, request_schema: type[Schema] | None = None) -> Any:
    """Document the contract's error body for the statuses a view can answer.

    One ``doc`` decorator, not one ``alt_response`` per status: each decorator wraps the view,
    and the wrappers run on every request. (Headers are documented on the route: a manual
    ``parameters`` list here would replace the query parameters ``@arguments`` documents.)
    """
    responses = {
        str(status): {
            "description": _ERRORS[status],
            "content": {"application/json": {"schema": ErrorSchema}},
        }
        for status in (*statuses, 429)
    }
    documented: dict[str, Any] = {"responses": responses}
    if request_schema is not None:
        # A body parsed by the view itself (not by @arguments) is documented here.
        documented["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": request_schema}},
        }
    return games.doc(**documented)


def _header(name: str, description: str, required: bool = False) -> dict[str, Any]:
    return {
        "in": "header",
        "name": name,
        "required": required,
        "schema": {"type": "string"},
        "description": description,
    }


_TOKEN_HEADER = _header("Authorization", "Bearer <token>: the token the creation returned")


def service() -> GameService:
    game_service: GameService = current_app.extensions["tabletape"]
    return game_service


def bearer_token() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def if_match_version() -> int | None:
    """``If-Match: 3`` or ``If-Match: "3"``; None when absent."""
    raw = request.headers.get("If-Match")
    if raw is None:
        return None
    value = raw.strip().removeprefix("W/").strip('"')
    if not value.isdigit():
        raise InvalidRequestError(
            f'If-Match must be a version number such as 3 or "3", got {raw!r}',
            {"If-Match": "a version number"},
        )
    return int(value)


def event_body() -> dict[str, Any]:
    """The posted event: a JSON object with a string ``type``; the game checks the rest.

    Parsed here rather than by webargs and marshmallow: this is the hot path of every append,
    and the game's own rules validate the fields (EventSchema still documents them).
    """
    if not request.is_json:
        raise InvalidRequestError(
            "send the event as JSON, with Content-Type: application/json",
            {"Content-Type": "application/json"},
        )
    try:
        event = orjson.loads(request.get_data(cache=False))
    except orjson.JSONDecodeError as error:
        raise InvalidRequestError(
            f"the body is not valid JSON: {error}", {"body": "JSON"}
        ) from None
    if not isinstance(event, dict):
        raise InvalidRequestError("an event is a JSON object", {"body": "a JSON object"})
    if not isinstance(event.get("type"), str):
        raise InvalidRequestError("an event needs a string type", {"type": "a string"})
    return event


def game_json(record: GameRecord) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": record.id,
        **record.header,
        "version": record.version,
        "status": record.status,
        "created_at": record.created_at,
    }
    if record.status != "active":
        body["finished_at"] = record.finished_at
        body["result"] = record.result
    return body


def etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


@games.route("/games")
class Games(MethodView):
    @games.arguments(GameListQuerySchema, location="query")
    @games.response(200, GameListSchema)
    @_errors(400, 503)
    def get(self, query: dict[str, Any]) -> Any:
        """Games, newest first, filtered by game, status or player; paginated by cursor."""
        cursor = query["cursor"]
        if cursor is not None and not cursor.isdigit():
            raise InvalidRequestError(
                "cursor must be a next_cursor this endpoint returned", {"cursor": "invalid"}
            )
        found, next_cursor = service().list(
            game=query["game"],
            status=query["status"],
            player=query["player"],
            limit=query["limit"],
            cursor=int(cursor) if cursor is not None else None,
        )
        return json_response(
            {
                "games": [game_json(record) for record in found],
                "next_cursor": str(next_cursor) if next_cursor is not None else None,
            }
        )

    @games.arguments(CreateGameSchema)
    @games.response(201, CreatedGameSchema)
    @_errors(400, 413, 503)
    def post(self, body: dict[str, Any]) -> Any:
        """Create a game; the answer carries the recorder's token, returned only here."""
        record, token = service().create(
            body["game"], body["players"], body["seed"], body["options"]
        )
        headers = {"Location": url_for("games.Game", game_id=record.id), **etag(0)}
        return json_response({**game_json(record), "token": token}, 201, headers)


@games.route("/games/<game_id>")
class Game(MethodView):
    @games.response(200, GameSchema)
    @_errors(404, 503)
    def get(self, game_id: str) -> Any:
        """One game: its header, version, status and, once over, its result."""
        record = service().get(game_id)
        return json_response(game_json(record), headers=etag(record.version))


@games.route("/games/<game_id>/events")
class Events(MethodView):
    @games.arguments(EventsQuerySchema, location="query")
    @games.response(200, EventListSchema)
    @_errors(400, 404, 503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The stored events in order, each with seq, type, its fields, at, hash, and void (true
        when a retraction voided it)."""
        record = service().get(game_id)
        events = service().events_json(record, query["first"], query["limit"])
        return json_response(
            {"events": events, "version": record.version},
            headers=etag(record.version),
        )

    @games.response(201, AppendedSchema)
    @_errors(400, 401, 404, 409, 413, 422, 503)
    @games.doc(
        requestBody={"required": True, "content": {"application/json": {"schema": EventSchema}}},
        parameters=[
            {**_TOKEN_HEADER, "required": True},
            _header("If-Match", 'append only at this version: 3 or "3"; else 409'),
            _header("Idempotency-Key", "a retry with the same key and body appends once"),
        ],
    )
    def post(self, game_id: str) -> Any:
        """Append one move, validated by the game's rules (Bearer token; If-Match and
        Idempotency-Key optional)."""
        outcome = service().append(
            game_id,
            bearer_token(),
            event_body(),
            if_match=if_match_version(),
            idempotency_key=request.headers.get("Idempotency-Key") or None,
        )
        return json_response(outcome.response, 201, etag(outcome.version))


@games.route("/games/<game_id>/state", parameters=[_TOKEN_HEADER])
class State(MethodView):
    @games.arguments(StateQuerySchema, location="query")
    @games.response(200, StateSchema, description="the game's state object (fields per game)")
    @_errors(400, 404, 503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The state after the first ``at`` events (default: all). Full with the token or once
        the game is over; without, hidden information is left out."""
        record = service().get(game_id)
        at = query["at"]
        if at is not None and at > record.version:
            raise InvalidRequestError(
                f"at={at} is past the game's {record.version} events",
                {"at": f"0 to {record.version}"},
            )
        full = record.status != "active" or service().authorize(record, bearer_token())
        view = service().view(record, at, full=full)
        return json_response(view, headers=etag(record.version))


@games.route("/games/<game_id>/legal")
class Legal(MethodView):
    @games.response(200, LegalMovesSchema)
    @_errors(404, 503)
    def get(self, game_id: str) -> Any:
        """The moves that may be appended now, as complete event bodies."""
        record = service().get(game_id)
        moves = service().legal_moves(record) if record.status == "active" else []
        return json_response({"moves": moves}, headers=etag(record.version))


@games.route("/games/<game_id>/audit")
class Audit(MethodView):
    @games.response(200, AuditSchema)
    @_errors(404, 503)
    def get(self, game_id: str) -> Any:
        """Replay the game from its header, verify its hash chain and, if archived, its archive."""
        record = service().get(game_id)
        return json_response(service().audit(record).as_json(), headers=etag(record.version))


@games.route("/games/<game_id>/export")
class Export(MethodView):
    @games.response(200, RecordSchema)
    @_errors(404, 503)
    def get(self, game_id: str) -> Any:
        """The whole record as one document: the header's fields and the event bodies."""
        record = service().get(game_id)
        return json_response(service().export(record), headers=etag(record.version))


@games.route("/games/import")
class Import(MethodView):
    @games.arguments(RecordSchema)
    @games.response(201, CreatedGameSchema)
    @_errors(400, 413, 422, 503)
    def post(self, document: dict[str, Any]) -> Any:
        """Replay an exported record and create a new game from it (with a new token), or reject
        it whole, naming the first illegal event (422)."""
        record, token = service().import_record(document)
        headers = {"Location": url_for("games.Game", game_id=record.id), **etag(record.version)}
        return json_response({**game_json(record), "token": token}, 201, headers)
