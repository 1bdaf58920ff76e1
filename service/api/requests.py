"""Reading what a request sends: its body as JSON, its token, its If-Match, and the integers of
its headers and queries.

Every reader of a request goes through here, so that one set of limits holds whatever is sent:

- a body is at most MAX_CONTENT_LENGTH bytes, chunked or not (413 too_large), and a chunked body
  whose framing is broken is the client's fault (400), never a 500;
- JSON is parsed by orjson, which refuses what the contract refuses: invalid UTF-8, lone
  surrogates (no UTF-8 for them: nothing could store or echo them), NaN and Infinity, and numbers
  too large for a double (where Python's ``int()`` would raise past 4,300 digits). It nests at
  most MAX_DEPTH levels: deeper, the canonical JSON of the hash chain and the JSON of the answer
  would run out of stack;
- an integer is ASCII digits only, at most MAX_DIGITS of them. ``str.isdigit()`` says yes to
  ``²``, which ``int()`` refuses, and ``int()`` takes the digits of other scripts (``٣``) and
  mathematical bold ones; a long run of digits would cost a quadratic conversion, then a
  ValueError past 4,300.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import orjson
from flask import Request, current_app, request
from gunicorn.http.errors import ParseException
from marshmallow import fields, validate
from werkzeug.exceptions import ClientDisconnected, RequestEntityTooLarge

from service.api.body_deadline import BodyDeadlines
from service.errors import BodyTooSlowError, InvalidRequestError, UnauthorizedError

# Deeper than any body of the contract (a card catalog in a record's options is 8 levels).
MAX_DEPTH = 32
# Versions, seqs and cursors all fit: 18 digits stay below 2**63.
MAX_DIGITS = 18
# The largest integer a query or a header takes: MAX_DIGITS nines.
MAX_QUERY_INTEGER = 10**MAX_DIGITS - 1
# White space as str.strip() sees it among the characters a header holds (ISO-8859-1), for the
# patterns the OpenAPI document gives the headers read stripped (a class, not \s: JSON Schema's
# regular expressions are ECMAScript's, whose \s is another set).
HEADER_SPACE = r"[\t\n\x0b\x0c\r\x1c-\x20\x85\xa0]"
_DIGITS = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
_SIGNED_DIGITS = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")


def ascii_int(text: str | None) -> int | None:
    """``text`` as a non-negative integer of ASCII digits; None for anything else."""
    if text is None or not _DIGITS.fullmatch(text):
        return None
    return int(text)


class QueryInteger(fields.Integer):
    """An integer of a query string: ASCII digits, at most MAX_DIGITS of them (a leading ``-``
    passes, for the field's range to name what it takes)."""

    default_error_messages = {
        "invalid": f"Not a whole number written with the digits 0-9 (at most {MAX_DIGITS}).",
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        if not isinstance(value, str) or not _SIGNED_DIGITS.fullmatch(value):
            raise self.make_error("invalid")
        number: int = super()._deserialize(value, attr, data, **kwargs)
        return number


def page_cursor(pattern: str, written_as: str = "") -> fields.String:
    """A listing's ``cursor`` query parameter: a ``next_cursor`` the same endpoint returned
    (``pattern``; ``written_as`` says what one looks like, in the refusal), or empty for the first
    page."""
    return fields.String(
        validate=validate.Regexp(
            pattern, error=f"not a next_cursor this endpoint returned{written_as}, nor empty"
        ),
        metadata={"description": "a next_cursor this endpoint returned; empty for the first page"},
    )


def this_request() -> Request:
    """The request being served, itself rather than Flask's proxy of it (each read through the
    proxy looks it up again): for the functions every request goes through, which read it often."""
    served: Request = request._get_current_object()  # type: ignore[attr-defined]
    return served


def body_bytes(cache: bool = True) -> bytes:
    """The request's body, read once (then cached, unless ``cache`` is False: the caller keeps
    it no longer than it needs it): 413 over the size limit, chunked or not; 400 when its chunked
    framing is broken."""
    request = this_request()  # read many times below: the proxy once
    limit = request.max_content_length

    def over_the_limit(data: bytes) -> None:
        # A chunked body: werkzeug stops reading at the limit without a word, and the JSON cut
        # there would be a 400. One byte more means the body is over the limit.
        chunked_to_the_limit = (
            limit is not None and request.content_length is None and len(data) >= limit
        )
        if chunked_to_the_limit and request.environ["wsgi.input"].read(1):
            raise too_large(limit)

    return read_in_time(
        current_app.extensions.get("tabletape.body_deadlines"),
        request.environ,
        # Over the limit with a Content-Length, werkzeug raises 413 before reading.
        lambda: request.get_data(cache=cache),
        over_the_limit,
    )


def read_in_time(
    deadlines: BodyDeadlines | None,
    environ: dict[str, Any],
    read: Callable[[], bytes],
    check: Callable[[bytes], None] | None = None,
) -> bytes:
    """What ``read`` reads of a request's body (then passed to ``check``), within the body's
    deadline under gunicorn (``deadlines``): 400 for a body late or whose chunked framing is
    broken. (``service.api.append_route`` reads the append's body through here too.)"""
    connection = environ.get("gunicorn.socket")
    watched = deadlines.watch(connection) if deadlines and connection else None
    try:
        data = read()
        if watched is not None and deadlines and deadlines.expired(watched):
            # Cut short by the watchman: gthread's reader ends quietly at the cut.
            raise ClientDisconnected()
        if check is not None:
            check(data)
    except (ParseException, ClientDisconnected) as error:
        if watched is not None and deadlines and deadlines.expired(watched):
            raise BodyTooSlowError(
                f"the request body did not arrive in full within {deadlines.seconds:g} seconds;"
                " the connection is closed",
                {"body": f"all of it within {deadlines.seconds:g} seconds"},
            ) from None
        if isinstance(error, ClientDisconnected):
            raise
        # gunicorn decodes a chunked body as it is read: a bad chunk size is found here.
        raise InvalidRequestError(
            f"the request body could not be read: its chunked encoding is broken ({error})",
            {"body": "a well-formed chunked body, or a Content-Length"},
        ) from None
    finally:
        if watched is not None and deadlines:
            deadlines.done(watched)
    return data


# The view whose body limit is IMPORT_MAX_BYTES, not MAX_CONTENT_LENGTH.
IMPORT_ENDPOINT = "games.Import"
# The paths whose body limit is HISTORY_MAX_BYTES (the imports of other apps' plays), and the
# ones that take XML (BoardGameGeek's import and its preview).
HISTORY_PATHS = "/imports/"
XML_PATHS = ("/imports/bgg", "/imports/bgg/preview")
XML_TYPES = ("application/xml", "text/xml")


def too_large(limit: int | None) -> RequestEntityTooLarge:
    """413 too_large, naming the limit in bytes (and MiB, for a limit of whole MiB)."""
    error = RequestEntityTooLarge()
    if limit is not None:
        mib = f" ({limit // 2**20} MiB)" if limit >= 2**20 and limit % 2**20 == 0 else ""
        error.data = {"message": f"the request body is over the size limit of {limit} bytes{mib}"}
    return error


def refuse_bodies_over_the_limit() -> None:
    """Run before every view (and the rate limit): a body over the limit is a 413 whatever the
    route, and a chunked body is read now, so that a broken one is answered 400 here. Left
    unread, it would be found broken by gunicorn after the answer, as it drains the body. An
    import's limit is its own: a record of thousands of moves is more than a move's 64 KiB."""
    request = this_request()  # read many times below: the proxy once
    if request.endpoint == IMPORT_ENDPOINT:
        request.max_content_length = current_app.config["IMPORT_MAX_BYTES"]
    elif request.path.startswith(HISTORY_PATHS):
        # A group's years of plays (service.imports): a limit of its own, named when refused.
        request.max_content_length = current_app.config["HISTORY_MAX_BYTES"]
    limit = request.max_content_length
    if request.content_length is not None:
        if limit is not None and request.content_length > limit:
            raise too_large(limit)
    elif request.headers.get("Transfer-Encoding") and not request.path.startswith(HISTORY_PATHS):
        # (An import of plays reads its body itself, once it holds a slot: service.api.imports.)
        body_bytes()


def refuse_bodies_that_are_not_json() -> None:
    """Run before every view: a body sent under another content type (curl's -d sends a form) is
    answered for what it is, not as a JSON body with every field missing; and told the type its
    path takes (JSON everywhere, XML on BoardGameGeek's import)."""
    request = this_request()  # read many times below: the proxy once
    has_body = request.content_length or request.headers.get("Transfer-Encoding")
    if request.path in XML_PATHS and request.mimetype in XML_TYPES:
        return
    if not (has_body and request.method in ("POST", "PUT", "PATCH")):
        return
    sent = request.mimetype or "no Content-Type"
    if request.path in XML_PATHS:
        takes = " or ".join(XML_TYPES)
        raise InvalidRequestError(
            f"send BoardGameGeek's plays as XML, with the header Content-Type: {XML_TYPES[0]}"
            f" (or {XML_TYPES[1]}; it came as {sent})",
            {"Content-Type": takes},
        )
    if not request.is_json:
        raise InvalidRequestError(
            f"send the body as JSON, with the header Content-Type: application/json (it came as"
            f" {sent})",
            {"Content-Type": "application/json"},
        )


def parse_json(data: bytes) -> Any:
    """A JSON document, as the contract takes it (see the module's docstring); else 400. Its
    numbers are written out in digits, each one a double holds, and no key is given twice."""
    return read_json(data, check_number=_check_a_number)


def _as_written(literal: str) -> None:
    """A number of another app's file: read by the reader, not here."""


def read_json(data: bytes, check_number: Callable[[str], Any] = _as_written) -> Any:
    """Any JSON document, such as another app's file (``service.imports``): valid UTF-8 JSON
    (orjson's refusals), nested at most MAX_DEPTH levels, no key given twice in one object; else
    400. Its numbers are left as they are written (what is read of them is the reader's
    business), unless ``check_number`` refuses one."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise InvalidRequestError(
            f"the body is not valid JSON (UTF-8, without NaN, Infinity or lone surrogates):"
            f" {error}",
            {"body": "JSON"},
        ) from None
    members, fractions = _members_within_depth(value)
    # Outside its texts, a JSON document holds a colon for each member of its objects, and
    # orjson keeps one member of each key: as many colons in the whole document as members
    # parsed, and no key was given twice. Else (a colon in a text, or a key given twice), and
    # for a number with a fraction or an exponent to check, the standard parser reads it again.
    colons = data.count(b":" if isinstance(data, bytes | bytearray) else ":")
    if colons != members or (fractions and check_number is not _as_written):
        refuse_keys_given_twice(data, check_number)
    return value


def _members_within_depth(value: Any) -> tuple[int, bool]:
    """How many members the objects of a parsed body hold in all, and whether it holds a number
    with a fraction or an exponent (orjson reads those, and those alone, as floats); 400 when it
    nests more than MAX_DEPTH levels deep. Iterative: the value may be deeper than Python's
    stack."""
    members, fractions = 0, False
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            members += len(item)
            item = list(item.values())
        if isinstance(item, list):
            if depth > MAX_DEPTH:
                raise InvalidRequestError(
                    f"the body nests objects and lists more than {MAX_DEPTH} levels deep",
                    {"body": f"at most {MAX_DEPTH} levels of nesting"},
                )
            pending.extend((child, depth + 1) for child in item)
        elif isinstance(item, float):
            fractions = True
    return members, fractions


def refuse_keys_given_twice(data: bytes, check_number: Callable[[str], Any] = _as_written) -> None:
    """400 when a JSON document already parsed, and known to nest at most MAX_DEPTH levels (the
    standard parser recurses), gives a key twice in one object, or holds a number
    ``check_number`` refuses."""
    # orjson keeps the last of a key given twice, and so would say nothing of {"type": "play",
    # "type": "try_luck"}, or of a backup's second "plays": the standard parser, with a hook,
    # finds it (a few microseconds a move; 0.1 s for a backup of 10,000 plays, 8 MB).
    json.loads(data, object_pairs_hook=_refuse_a_key_given_twice, parse_float=check_number)


def _check_a_number(literal: str) -> None:
    # A number is written out (a score sheet's 12.5), never with an exponent: 1e3 could be read
    # as 1000 or as 1000.0, and the record writes each number in one form only.
    if "e" in literal or "E" in literal:
        raise InvalidRequestError(
            f"the number {literal} is written with an exponent: write it in digits (1000, 12.5)",
            {"body": f"{literal}: no exponent"},
        )
    # Nor with more digits than a double keeps: 0.1000000000000000001 would be read as 0.1, a
    # number other than the one sent (trailing zeros, as in 4.50, change nothing).
    if Decimal(literal) != Decimal(repr(float(literal))):
        raise InvalidRequestError(
            f"the number {literal} has more digits than a number here holds (about 15"
            " significant digits): send the number itself",
            {"body": f"{literal}: too many digits"},
        )


def _refuse_a_key_given_twice(pairs: list[tuple[str, Any]]) -> None:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise InvalidRequestError(
                f"the body gives the key {key!r} twice in one object: give each key once",
                {"body": f"{key!r} given twice"},
            )
        seen.add(key)


def json_body() -> Any:
    return parse_json(body_bytes())


def bearer_token_of(header: str) -> str | None:
    """The token of an Authorization ``header`` (see ``bearer_token``)."""
    if not header.strip():
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise UnauthorizedError(
            "the Authorization header must read `Bearer <token>`: the word Bearer, a space, and"
            " the recorder's or a seat's token"
        )
    return token.strip()


def if_match_of(raw: str | None) -> int | None:
    """The version an If-Match header names (``raw``, None when absent; see
    ``if_match_version``)."""
    if raw is None:
        return None
    version = ascii_int(raw.strip().removeprefix("W/").strip('"'))
    if version is None:
        raise InvalidRequestError(
            f'If-Match must be a version number such as 3 or "3" (the digits 0-9, at most'
            f" {MAX_DIGITS}), got {raw!r}",
            {"If-Match": "a version number"},
        )
    return version


def event_of(event: Any) -> dict[str, Any]:
    """A parsed body as an event (see ``event_body``); else 400."""
    if not isinstance(event, dict):
        raise InvalidRequestError("an event is a JSON object", {"body": "a JSON object"})
    if not isinstance(event.get("type"), str):
        raise InvalidRequestError("an event needs a string type", {"type": "a string"})
    return event
