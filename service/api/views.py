"""HTTP resources of spec/api.md. Views parse, call the game service and answer; errors are raised.

Responses are serialised with orjson and returned as ready ``Response`` objects (flask-smorest then
leaves them as they are); the ``@blp.response`` schemas still document them in the OpenAPI file.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from typing import Any

from flask import Request, Response, current_app, request, url_for
from flask.views import MethodView
from flask_smorest import Blueprint
from marshmallow import missing
from webargs.core import is_json
from webargs.flaskparser import FlaskParser

from domain import get_game
from domain.viewers import PUBLIC, RECORDER, Viewer
from service.api.game_shapes import ref
from service.api.requests import (
    HEADER_SPACE,
    MAX_DIGITS,
    bearer_token_of,
    body_bytes,
    event_of,
    if_match_of,
    json_body,
    parse_json,
)
from service.api.schemas import (
    AuditSchema,
    CreatedGameSchema,
    CreateGameSchema,
    ErrorSchema,
    EventsQuerySchema,
    GameListQuerySchema,
    GameListSchema,
    KeyListSchema,
    OneGameSchema,
    RecordSchema,
    SeatLinksSchema,
    SeatTokenSchema,
    StateQuerySchema,
)
from service.errors import InvalidRequestError, UnauthorizedError
from service.games import GameService, Tokens, legal_words, move_words
from service.jsonio import json_response
from service.store.damage import DamagedRecordError
from service.store.indexes import Place
from service.store.records import GameRecord


class _Parser(FlaskParser):
    # The contract answers malformed requests with 400 invalid_request, not webargs' 422.
    DEFAULT_VALIDATION_STATUS = 400

    def _raw_load_json(self, req: Request) -> Any:
        # Bodies are read and parsed by service.api.requests, with its limits (webargs' own parser
        # is the standard library's: a RecursionError, a ValueError past 4,300 digits, and lone
        # surrogates and NaN let through). No body: the schema names the fields it requires.
        if not is_json(req.mimetype):
            return missing
        data = body_bytes()
        return parse_json(data) if data else missing


class ApiBlueprint(Blueprint):
    ARGUMENTS_PARSER = _Parser()


games = ApiBlueprint("games", __name__, description="Record, replay and audit games")

_ERRORS = {
    400: "invalid_request",
    429: "rate_limited",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    409: "version_conflict, game_finished or idempotency_conflict",
    413: "too_large",
    422: "illegal_move",
    503: "unavailable",
}


def _errors(
    *statuses: int,
    body: str | None = None,
    parameters: list[dict[str, Any]] | None = None,
    codes: dict[int, str] | None = None,
    security: list[dict[str, list[str]]] | None = None,
) -> Any:
    """Document the contract's error body for the statuses a view can answer (``codes``: a
    status whose codes differ on this path from ``_ERRORS``'s), the request's
    ``body`` (a component of ``service.api.game_shapes``) when it has one, and its ``parameters``.

    One ``doc`` decorator, not one ``alt_response`` per status: each decorator wraps the view,
    and the wrappers run on every request. (Headers are documented on the route, but for a view
    without ``@arguments``: a manual ``parameters`` list would replace the query parameters
    ``@arguments`` documents.) The body documented replaces the marshmallow schema of
    ``@arguments``, which still loads it.
    """
    codes = {**_ERRORS, **(codes or {})}
    responses = {str(status): error_doc(status, codes[status]) for status in (*statuses, 429)}
    documented: dict[str, Any] = {"responses": responses}
    if parameters is not None:
        documented["parameters"] = parameters
    if security is not None:
        documented["security"] = security
    if body is not None:
        documented["requestBody"] = {
            "required": True,
            "content": {"application/json": {"schema": ref(body)}},
        }
    return games.doc(**documented)


# Sent with every 429 and 503 (service.api.limits, service.errors, the stream's slots, the health).
RETRY_AFTER = {
    "Retry-After": {
        "description": "the seconds to wait before retrying",
        "required": True,
        "schema": {"type": "integer", "minimum": 0},
    }
}
# Sent with the answers about one game (not every audit: one of a header that does not decode).
ETAG = {
    "ETag": {
        "description": 'the game\'s version, quoted ("3"): send it back as If-Match',
        "schema": {"type": "string", "pattern": '^"[0-9]+"$'},
    }
}
CREATED = {
    **ETAG,
    "Location": {
        "description": "the new game's path",
        "required": True,
        "schema": {"type": "string"},
    },
}


def error_doc(status: int, description: str) -> dict[str, Any]:
    """An error answer of ``status``, as the OpenAPI document gives it."""
    documented: dict[str, Any] = {
        "description": description,
        "content": {"application/json": {"schema": ErrorSchema}},
    }
    if status in (429, 503):
        documented["headers"] = RETRY_AFTER
    return documented


def error_responses(descriptions: Mapping[int, str], *statuses: int) -> dict[str, Any]:
    """The ``responses`` of a view's ``doc``: the contract's error body for each of ``statuses``,
    and for 429 and 503, which any request may meet; ``descriptions`` says when each comes."""
    every = {429: "rate_limited", 503: "unavailable", **descriptions}
    return {str(status): error_doc(status, every[status]) for status in (*statuses, 429, 503)}


def _header(
    name: str, description: str, required: bool = False, pattern: str | None = None
) -> dict[str, Any]:
    schema = {"type": "string"} if pattern is None else {"type": "string", "pattern": pattern}
    return {
        "in": "header",
        "name": name,
        "required": required,
        "schema": schema,
        "description": description,
    }


# What if_match_version takes: a version, quoted or not, after an optional weak W/.
IF_MATCH_PATTERN = rf'^{HEADER_SPACE}*(W/)?"*[0-9]{{1,{MAX_DIGITS}}}"*{HEADER_SPACE}*$'


TOKEN_HEADER = _header(
    "Authorization",
    "Bearer <token>: the recorder's token or a seat's (from the creation); none for the public"
    " view. A token that is not one of the game's is a 401",
)


def service() -> GameService:
    game_service: GameService = current_app.extensions["tabletape"]
    return game_service


def bearer_token() -> str | None:
    """The request's token; None without an Authorization header, 401 for one of another form."""
    return bearer_token_of(request.headers.get("Authorization", ""))


# The routes that add games: with WRITE_KEY set, each needs it as the Bearer token, and so does
# every route under /imports/ (the imports of other apps' plays), whatever its blueprint.
ADDS_GAMES = ("games.Games", "games.Import", "tournaments.TournamentList")
# The route that says who counts as whom (``service.players.api``): its POST and DELETE change
# every statistic, and need the key as adding games does.
CHANGES_PLAYERS = "players.SameAs"

# The OpenAPI security scheme of those routes.
WRITE_KEY_SCHEME = {
    "type": "http",
    "scheme": "bearer",
    "description": "the service's WRITE_KEY, when it sets one: creating a game and importing"
    " need it (401 otherwise); a game's own tokens are sent the same way for its moves",
}
# Either the key or nothing: a service without WRITE_KEY lets anyone add games.
WRITE_KEY_SECURITY: list[dict[str, list[str]]] = [{"writeKey": []}, {}]
_WRITE_KEY_REFUSED = {401: "unauthorized: the service sets WRITE_KEY and the request lacks it"}


def require_write_key() -> None:
    """401 unless the request carries the service's WRITE_KEY as its Bearer token (when one is
    set), compared in constant time."""
    key: str | None = current_app.config.get("WRITE_KEY")
    if not key:
        return
    given = bearer_token() or ""
    if not hmac.compare_digest(given.encode(), key.encode()):
        raise UnauthorizedError(
            "adding games to this service needs its write key: send `Authorization: Bearer"
            " <WRITE_KEY>` (ask whoever runs the service)"
        )


def adding_games_needs_the_write_key() -> None:
    """(A before_request function of the app.) Before the body is read: a request without the
    key learns nothing from it. An unknown path is answered as any is (no endpoint)."""
    if request.endpoint == CHANGES_PLAYERS and request.method in ("POST", "DELETE"):
        require_write_key()
    if request.method != "POST" or request.endpoint is None:
        return
    if request.endpoint in ADDS_GAMES or request.path.startswith("/imports/"):
        require_write_key()


def if_match_version() -> int | None:
    """``If-Match: 3`` or ``If-Match: "3"``; None when absent."""
    return if_match_of(request.headers.get("If-Match"))


def event_body() -> dict[str, Any]:
    """The posted event: a JSON object with a string ``type``; the game checks the rest.

    Parsed here rather than by webargs and marshmallow: this is the hot path of every append,
    and the game's own rules validate the fields (service.api.game_shapes documents them).
    """
    if not request.is_json:
        raise InvalidRequestError(
            "send the event as JSON, with Content-Type: application/json",
            {"Content-Type": "application/json"},
        )
    return event_of(json_body())


def reader(record: GameRecord) -> Viewer:
    """The viewer this request's reads of ``record`` are answered for (api.md, Who sees what)."""
    return service().reader(record, bearer_token())


def game_json(record: GameRecord, viewer: Viewer) -> dict[str, Any]:
    """The game resource: the seed and its salt only for a viewer who sees everything (the
    recorder, or anyone once the game is over); the commitment to them for everyone."""
    body: dict[str, Any] = {
        "id": record.id,
        "game": record.game,
        "players": record.players,
        "seed_commitment": record.seed_commitment,
        "options": record.options,
        "rules_version": record.rules_version,
        "record_format": record.record_format,
        "version": record.version,
        "status": record.status,
        "created_at": record.created_at,
    }
    if viewer.sees_all:
        body["seed"] = record.seed
        body["seed_salt"] = record.seed_salt
    if record.over:
        body["finished_at"] = record.finished_at
        body["result"] = record.result
    return body


def created_json(record: GameRecord, tokens: Tokens) -> dict[str, Any]:
    """A new game as its recorder sees it, with the tokens: returned only here."""
    return {**game_json(record, RECORDER), "token": tokens.recorder, "seat_tokens": tokens.seats}


def etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


@games.route("/games")
class Games(MethodView):
    @games.arguments(GameListQuerySchema, location="query")
    @games.response(200, GameListSchema)
    @_errors(400, 503)
    def get(self, query: dict[str, Any]) -> Any:
        """Games, newest first, filtered by game, status or player; paginated by cursor."""
        # An empty cursor (a form's empty field, say) is no cursor: the first page.
        given = query.get("cursor") or None
        cursor = Place.from_cursor(given)
        if given is not None and cursor is None:
            raise InvalidRequestError(
                "cursor must be a next_cursor this endpoint returned", {"cursor": "invalid"}
            )
        found, next_cursor = service().list(
            game=query.get("game", ""),
            status=query.get("status", ""),
            player=query.get("player", ""),
            limit=query["limit"],
            cursor=cursor,
        )
        return json_response(
            {
                # Listing is public: a token names one game, and a list shows many.
                "games": [
                    game_json(record, GameService.reading_as(record, PUBLIC)) for record in found
                ],
                "next_cursor": next_cursor.cursor() if next_cursor is not None else None,
            }
        )

    @games.arguments(CreateGameSchema)
    @games.response(201, CreatedGameSchema, headers=CREATED)
    @_errors(400, 401, 413, 503, body="NewGame", codes=_WRITE_KEY_REFUSED,
             security=WRITE_KEY_SECURITY)  # fmt: skip
    def post(self, body: dict[str, Any]) -> Any:
        """Create a game; the answer carries the recorder's token and one token per seat,
        returned only here."""
        record, tokens = service().create(
            body["game"], body["players"], body["seed"], body["options"]
        )
        headers = {"Location": url_for("games.Game", game_id=record.id), **etag(0)}
        return json_response(created_json(record, tokens), 201, headers)


@games.route("/games/<game:game_id>", parameters=[TOKEN_HEADER])
class Game(MethodView):
    @games.response(200, OneGameSchema, headers=ETAG)
    @_errors(401, 404, 503)
    def get(self, game_id: str) -> Any:
        """One game: its header, version, status and, once over, its result. The seed and its
        salt go to the recorder only until the game is over."""
        record = service().get(game_id)
        asker = service().viewer(record, bearer_token())
        body = game_json(record, GameService.reading_as(record, asker))
        # Who the token makes the asker (the game's end makes everyone a reader of everything,
        # not a recorder): a page opened from a seat's link learns its seat here.
        body["viewer"] = {"role": asker.kind, "seat": asker.seat}
        return json_response(body, headers=etag(record.version))


# The token is documented on the route (the POST's own, required, overrides it): parameters given
# to a view's doc would replace the query parameters that @arguments documents.
@games.route("/games/<game:game_id>/events", parameters=[TOKEN_HEADER])
class Events(MethodView):
    @games.arguments(EventsQuerySchema, location="query")
    @games.response(200, ref("EventList"), headers=ETAG)
    @_errors(400, 401, 404, 503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The stored events in order, each with seq, type, its fields, at, void (true when a
        retraction voided it) and, for the recorder or once the game is over, hash. A field
        another seat saw alone is left out and named in ``hidden``. Beside them, ``words``: each
        move as the game's rulebook says it, from what the reader may see."""
        record = service().get(game_id)
        events = service().events_json(record, query["first"], query["limit"], reader(record))
        game = get_game(record.game)
        words = [move_words(game, event, record.players, record.options) for event in events]
        return json_response(
            {"events": events, "version": record.version, "words": words},
            headers=etag(record.version),
        )

    @games.response(201, ref("Appended"), headers=ETAG)
    @_errors(
        400, 401, 403, 404, 409, 413, 422, 503,
        body="Event",
        parameters=[
            {**TOKEN_HEADER, "required": True},
            _header(
                "If-Match",
                'append only at this version: 3 or "3"; else 409',
                pattern=IF_MATCH_PATTERN,
            ),
            _header("Idempotency-Key", "a retry with the same key and body appends once"),
        ],
    )  # fmt: skip
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


@games.route("/games/<game:game_id>/state", parameters=[TOKEN_HEADER])
class State(MethodView):
    @games.arguments(StateQuerySchema, location="query")
    @games.response(
        200, ref("State"), description="the game's state: its fields per game", headers=ETAG
    )
    @_errors(400, 401, 404, 503)
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """The state after the first ``at`` events (default: all), as the token's holder may see
        it: whole for the recorder (and for everyone once the game is over), a seat's view for a
        seat's token, the public view without a token."""
        record = service().get(game_id)
        at = query.get("at")
        if at is not None and at > record.version:
            raise InvalidRequestError(
                f"at={at} is past the game's {record.version} events",
                {"at": f"0 to {record.version}"},
            )
        view = service().view(record, at, reader(record))
        return json_response(view, headers=etag(record.version))


@games.route("/games/<game:game_id>/legal", parameters=[TOKEN_HEADER])
class Legal(MethodView):
    @games.response(200, ref("LegalMoves"), headers=ETAG)
    @_errors(401, 404, 503)
    def get(self, game_id: str) -> Any:
        """The moves the token's holder may append now, as complete event bodies: every move
        for the recorder, a seat's own (none unless its decision is awaited) for a seat; beside
        each, whether it ends the game and its words. Needs a token: the moves of the player to
        act would tell their hand."""
        record = service().get(game_id)
        asker = service().viewer(record, bearer_token())
        if GameService.reading_as(record, asker) == PUBLIC:
            raise UnauthorizedError(
                "the legal moves need a token of the game: they would tell the player's hand"
            )
        moves, ending = service().legal_moves_ending(record, asker)
        words, base_words = legal_words(
            get_game(record.game), moves, record.players, record.options
        )
        free = service().free_types(record, asker)
        return json_response(
            {
                "moves": moves,
                "ending": ending,
                "words": words,
                "base_words": base_words,
                "free": free,
            },
            headers=etag(record.version),
        )


@games.route("/games/<game:game_id>/audit", parameters=[TOKEN_HEADER])
class Audit(MethodView):
    @games.response(200, AuditSchema, headers=ETAG)
    @_errors(401, 404, 503)
    def get(self, game_id: str) -> Any:
        """Replay the game from its header, check its seed commitment, verify its hash chain
        and, if archived, its archive. ``head_hash`` is null for all but the recorder while
        the game is on."""
        try:
            record = service().get(game_id)
        except DamagedRecordError:
            # A header that does not decode: the audit names its fields (no viewer can be told
            # from tokens it cannot read, and the problems hold no secret).
            return json_response(service().audit_by_id(game_id).as_json())
        audit = service().audit(record).as_json()
        if not reader(record).sees_all:
            audit["head_hash"] = None
        return json_response(audit, headers=etag(record.version))


@games.route("/games/<game:game_id>/export", parameters=[TOKEN_HEADER])
class Export(MethodView):
    @games.response(200, ref("Record"), headers=ETAG)
    @_errors(401, 404, 503)
    def get(self, game_id: str) -> Any:
        """The whole record as one document: the header's fields and the event bodies. The
        recorder's only while the game is on (it holds the seed)."""
        record = service().get(game_id)
        if not reader(record).sees_all:
            raise UnauthorizedError(
                "the export of a game being played needs the recorder's token: it holds the seed"
            )
        return json_response(service().export(record), headers=etag(record.version))


# A signed note is text, as the signed-note tools read it.
NOTE_TYPE = "text/plain; charset=utf-8"


@games.route("/games/<game:game_id>/checkpoint", parameters=[TOKEN_HEADER])
class Checkpoint(MethodView):
    @games.response(
        200,
        {"type": "string"},
        content_type=NOTE_TYPE,
        description="the signed note of the record's head (C2SP signed-note format)",
        headers=ETAG,
    )
    @_errors(401, 404, 503)
    def get(self, game_id: str) -> Any:
        """The signed note of the record's current head (its game, version, head hash and
        status), signed with the service's Ed25519 key: any C2SP signed-note tool checks it
        with a verifier key of ``GET /keys``. Anyone's once the game is over; the recorder's
        only while it is on (a note names the head hash, hidden until the end)."""
        record = service().get(game_id)
        if not reader(record).sees_all:
            raise UnauthorizedError(
                "the note of a game being played needs the recorder's token: it names the head"
                " hash, which the others see once the game is over"
            )
        note = service().checkpoints.sign(record).note
        return Response(note, headers=etag(record.version), content_type=NOTE_TYPE)


@games.route("/keys")
class Keys(MethodView):
    @games.response(200, KeyListSchema)
    @_errors(503)
    def get(self) -> Any:
        """The verifier key of every key this service has signed notes with, the current one
        first, with when each became current: a note signed before a key changed still
        verifies with the key listed for it."""
        return json_response({"keys": service().checkpoints.listed()})


# Tokens are secrets: no cache between the service and the recorder's page may keep them.
NO_STORE = {"Cache-Control": "no-store"}


@games.route("/games/<game:game_id>/links", parameters=[TOKEN_HEADER])
class Links(MethodView):
    @games.response(200, SeatLinksSchema)
    @_errors(401, 403, 404, 503)
    def get(self, game_id: str) -> Any:
        """The seats' tokens again, for the recorder's page of links (the recorder's token
        only: a seat's is a 403)."""
        record = service().get(game_id)
        tokens = service().seat_links(record, bearer_token())
        return json_response({"seat_tokens": tokens}, headers=NO_STORE)


@games.route("/games/<game:game_id>/seats/<int:seat>/token", parameters=[TOKEN_HEADER])
class SeatToken(MethodView):
    @games.response(201, SeatTokenSchema)
    @_errors(401, 403, 404, 503)
    def post(self, game_id: str, seat: int) -> Any:
        """Replace a seat's link (its phone was lost): a new token for the seat, and the old one
        is refused (401) from now on. The recorder's only."""
        record = service().get(game_id)
        token = service().replace_seat_link(record, bearer_token(), seat)
        return json_response({"seat": seat, "token": token}, status=201, headers=NO_STORE)


@games.route("/games/import")
class Import(MethodView):
    @games.arguments(RecordSchema)
    @games.response(201, CreatedGameSchema, headers=CREATED)
    @_errors(400, 401, 409, 413, 422, 503, body="Record",
             codes={409: "already_imported", **_WRITE_KEY_REFUSED},
             security=WRITE_KEY_SECURITY)  # fmt: skip
    def post(self, document: dict[str, Any]) -> Any:
        """Replay an exported record and create a new game from it (with new tokens), or reject
        it whole, naming the first illegal event (422). The copy keeps the record's salt,
        commitment and times, so its hash chain is the source's; a record whose commitment is
        here already is a 409 ``already_imported`` naming that game. Up to IMPORT_MAX_BYTES
        (16 MiB) of JSON."""
        record, tokens = service().import_record(document)
        headers = {"Location": url_for("games.Game", game_id=record.id), **etag(record.version)}
        return json_response(created_json(record, tokens), 201, headers)
