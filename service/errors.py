"""Errors of the service, and the one place that turns any error into the contract's error body.

Views raise; they never build error bodies. Every error, whatever its status, answers
``{"error": {"code": ..., "message": ..., "details": {...}}}`` (spec/api.md).
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response
from werkzeug.exceptions import HTTPException

from domain.errors import (
    GameFinishedError,
    IllegalMoveError,
    InvalidEventError,
    InvalidOptionsError,
    TabletapeError,
    UnknownGameError,
)
from service.signing.keys import NoSigningKeyError
from service.store.connection import STORE_UNAVAILABLE
from service.store.damage import DamagedRecordError

log = logging.getLogger(__name__)


class NotFoundError(TabletapeError):
    pass


class UnauthorizedError(TabletapeError):
    pass


class ForbiddenError(TabletapeError):
    """A seat's token used for a move that is not that seat's to make, or for a retraction."""


class InvalidRequestError(TabletapeError):
    pass


class BodyTooSlowError(InvalidRequestError):
    """The request's body did not arrive in full within BODY_SECONDS: answered, then closed."""


class ImportsBusyError(TabletapeError):
    """As many imports of other apps' plays as the server holds at once are running: 503, to
    retry after ``retry_after`` seconds."""

    def __init__(self, retry_after: int, message: str, details: dict[str, Any]) -> None:
        super().__init__(message, details)
        self.retry_after = retry_after


class InvalidImportError(TabletapeError):
    """An imported record does not replay: it is rejected whole, naming the first bad event."""


class VersionConflictError(TabletapeError):
    def __init__(self, current_version: int, expected: int | None) -> None:
        if expected is None:
            message = "too many writers at once: read the game again and retry"
        else:
            message = (
                f"If-Match names version {expected}, but the game is at version"
                f" {current_version}: read it again before appending"
            )
        super().__init__(message, {"current_version": current_version})


class IdempotencyConflictError(TabletapeError):
    def __init__(self, key: str) -> None:
        super().__init__(
            f"Idempotency-Key {key!r} was already used with another body; use a new key",
            {"idempotency_key": key},
        )


class AlreadyImportedError(TabletapeError):
    """An import of a record this service holds already (the same seed commitment)."""

    def __init__(self, game_id: str) -> None:
        super().__init__(
            f"this record is here already, as game {game_id}: importing it again makes no second"
            " game (ask that game's recorder for its token)",
            {"id": game_id},
        )


class RoundInPlayError(TabletapeError):
    """A tournament's next round asked for while a table of the round before is being played."""


class TournamentOverError(TabletapeError):
    """A round asked for once a tournament's last round is played."""


class ImpossiblePlanError(TabletapeError):
    """A tournament whose tables cannot be made (10 players at tables of 4 to 4)."""


class PlayedTogetherError(TabletapeError):
    """Two names joined as one person that sit in one finished game: two people of one game are
    not one person."""

    def __init__(self, a: str, b: str, game_id: str, game: str, finished_at: str) -> None:
        super().__init__(
            f"{a} and {b} both played game {game_id} ({game}, finished {finished_at[:10]}):"
            " two people of one game are not one person",
            {"game": game_id, "names": [a, b]},
        )


# (status, code) for each error the service or the domain raises on purpose.
_STATUS_OF: dict[type[TabletapeError], tuple[int, str]] = {
    InvalidRequestError: (400, "invalid_request"),
    InvalidOptionsError: (400, "invalid_request"),
    InvalidEventError: (400, "invalid_request"),
    UnknownGameError: (400, "invalid_request"),
    UnauthorizedError: (401, "unauthorized"),
    ForbiddenError: (403, "forbidden"),
    NotFoundError: (404, "not_found"),
    VersionConflictError: (409, "version_conflict"),
    IdempotencyConflictError: (409, "idempotency_conflict"),
    AlreadyImportedError: (409, "already_imported"),
    PlayedTogetherError: (409, "played_together"),
    GameFinishedError: (409, "game_finished"),
    RoundInPlayError: (409, "round_in_play"),
    TournamentOverError: (409, "tournament_finished"),
    ImpossiblePlanError: (422, "impossible_plan"),
    IllegalMoveError: (422, "illegal_move"),
    InvalidImportError: (422, "illegal_move"),
    DamagedRecordError: (500, "damaged_record"),
    # A service without a signing key answers what needs a signature alone with 503.
    NoSigningKeyError: (503, "unavailable"),
    ImportsBusyError: (503, "unavailable"),
}

# Codes for errors that Flask, werkzeug or webargs raise before a view runs.
_CODE_OF_STATUS = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    414: "too_large",
    415: "invalid_request",
    422: "illegal_move",
    429: "rate_limited",
    431: "too_large",
    500: "internal",
    503: "unavailable",
}


def code_of_status(status: int) -> str:
    """The contract's code for an HTTP status that no error of ours chose a code for."""
    return _CODE_OF_STATUS.get(status) or ("invalid_request" if status < 500 else "internal")


# A 503 for a store that cannot be reached: clients may retry after this many seconds.
STORE_RETRY_AFTER = 5


def error_response(
    status: int,
    code: str,
    message: str,
    details: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    from service.jsonio import json_response

    body = {"error": {"code": code, "message": message, "details": details or {}}}
    return json_response(echoable(body), status, headers)


# What an error body may echo of a request: longer texts are cut, deeper values summarised.
_ECHO_TEXT = 1000
_ECHO_DEPTH = 8
_JSON_INTEGERS = range(-(2**63), 2**64)


def echoable(value: Any, depth: int = 0) -> Any:
    """``value`` made safe to serialise in an error body, whatever a request put in it.

    The error path must not fail on what it echoes: orjson refuses lone surrogates (no UTF-8 for
    them: shown escaped, ``\\ud800``), integers past 64 bits, other objects and nesting past 255
    levels; and a message quoting a 60 KiB field would be no sentence to act on.
    """
    if isinstance(value, str):
        text = value.encode("utf-8", "backslashreplace").decode("utf-8")
        return text if len(text) <= _ECHO_TEXT else text[:_ECHO_TEXT] + "…"
    if value is None or isinstance(value, (bool, float)):
        return value
    if isinstance(value, int):
        return value if value in _JSON_INTEGERS else echoable(_int_text(value))
    if depth >= _ECHO_DEPTH:
        return "…"
    if isinstance(value, dict):
        return {echoable(str(key)): echoable(item, depth + 1) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [echoable(item, depth + 1) for item in value]
    return echoable(str(value))


def _int_text(value: int) -> str:
    # str() of an int past 4,300 digits raises: say how long it is instead.
    return str(value) if value.bit_length() < 10_000 else f"an integer of {value.bit_length()} bits"


def domain_error_response(error: TabletapeError) -> Response:
    """The contract's JSON error body and status for an error the service or the domain raised."""
    status, code = next(
        (_STATUS_OF[kind] for kind in type(error).__mro__ if kind in _STATUS_OF),
        (400, "invalid_request"),
    )
    # A body that never came in full leaves the connection in no state to read another request.
    headers = {"Connection": "close"} if isinstance(error, BodyTooSlowError) else None
    # An error that a wait may mend says how long (every 503 does: the contract's Retry-After).
    retry_after = getattr(error, "retry_after", None)
    if retry_after is not None:
        headers = {**(headers or {}), "Retry-After": str(retry_after)}
    return error_response(status, code, error.message, error.details, headers)


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    code = code_of_status(status)
    # werkzeug's own headers for the status: Allow on a 405, Retry-After on a 429 or 503.
    headers = {name: value for name, value in error.get_headers() if name.lower() != "content-type"}
    data = getattr(error, "data", None) or {}
    details: dict[str, Any] = {}
    # webargs puts marshmallow's messages, keyed by location ("json", "query"...), in data.
    messages = data.get("messages") or data.get("errors")
    if isinstance(messages, dict):
        for fields in messages.values():
            if isinstance(fields, dict):
                details.update(fields)
            else:
                details["body"] = fields
    message = data.get("message") or _MESSAGES.get(status) or error.description or error.name
    if status == 400 and details and "message" not in data:
        message = "the request is invalid: " + "; ".join(
            f"{field}: {_first(reason, field)}" for field, reason in details.items()
        )
    return error_response(status, code, message, details, headers)


_MESSAGES = {
    404: "no such resource: check the path",
    405: "this method is not allowed on this path",
    413: "the request body is over the size limit",
    429: "too many requests: slow down and retry in a moment",
}


def _first(reason: Any, field: str = "") -> str:
    """A field's first reason in words; a list's items by their number ("name 2: ...")."""
    if isinstance(reason, list) and reason:
        return str(reason[0])
    if isinstance(reason, dict):
        item = _ITEM_WORDS.get(field, "item")
        return "; ".join(
            f"{item} {int(key) + 1 if str(key).isdigit() else key}: {_first(why)}"
            for key, why in reason.items()
        )
    return str(reason)


# How the message names an item of a list field (by its number, from 1).
_ITEM_WORDS = {"players": "name"}


def _store_down(error: Exception) -> Response:
    log.warning("store unavailable: %s", error)
    return error_response(
        503,
        "unavailable",
        "the store cannot be reached: retry in a moment (an append retried with its"
        " Idempotency-Key is never recorded twice)",
        headers={"Retry-After": str(STORE_RETRY_AFTER)},
    )


def _unexpected(error: Exception) -> Response:
    # Never a stack trace in a body; the log keeps it for whoever runs the service.
    log.exception("unexpected error", exc_info=error)
    return error_response(500, "internal", "something went wrong on our side; the error is logged")


def register_error_handlers(app: Flask) -> None:
    app.register_error_handler(TabletapeError, domain_error_response)
    app.register_error_handler(HTTPException, _http_error)
    # A plain Redis or a cluster that cannot serve now (a master down, a slot moving): 503.
    for unavailable in STORE_UNAVAILABLE:
        app.register_error_handler(unavailable, _store_down)
    app.register_error_handler(Exception, _unexpected)
