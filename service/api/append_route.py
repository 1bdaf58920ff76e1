"""The append's own route: ``POST /games/<id>/events`` answered without Flask's machinery.

An append is most of what the service serves, and Flask spent more on one than the move's rules
and the store together: a request object and two contexts, the URL matched against every rule,
the five before_request functions, flask-smorest's wrapper, the answer finalised. This WSGI
middleware, in front of the Flask app, answers the plain append itself: a POST to
``/games/<id>/events`` (an id of letters, digits, ``-`` and ``_``), no query string, its body
``application/json`` with a Content-Length within MAX_CONTENT_LENGTH. For such a request the
before_request functions have one thing to do, the rate limit (the others pass it: no body over
the limit, JSON, no write key to ask for, no query to check), and the view its reads; here they
are, in the same order:

1. the rate limit (``service.api.limits.count``): 429;
2. the token (``Authorization: Bearer``): 401 for a header of another form;
3. the body, within BODY_SECONDS, as an event (``service.api.requests``): 400;
4. If-Match (400) and Idempotency-Key;
5. the use case, ``GameService.append``, and its answer as the view writes it: 201, the JSON
   body, ``ETag``.

Every other request goes to Flask as before, and so does every error raised here: it is answered
by the app's own error handlers (``service.errors``) in a request context made for it, so the
status, the body and the headers are the ones the view's path gives. ``tests/service/
test_append_route.py`` holds both paths to the same answers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from flask import Flask, Response
from werkzeug.wsgi import get_input_stream

from service.api.limits import count
from service.api.requests import bearer_token_of, event_of, if_match_of, parse_json, read_in_time
from service.api.views import etag
from service.jsonio import json_bytes

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

# The ids this route takes (the service makes hex ones); another goes through Flask, which routes
# any but "import" to the same view.
_APPEND_PATH = re.compile(r"/games/([0-9A-Za-z_-]{1,100})/events")
_LENGTH = re.compile(r"[0-9]{1,18}")


class AppendRoute:
    """The app's WSGI callable (``app.wsgi_app``): plain appends here, the rest to Flask's."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.flask: WSGIApplication = app.wsgi_app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        game_id = self._plain_append(environ)
        if game_id is None:
            return self.flask(environ, start_response)
        try:
            version, answer = self._append(environ, game_id)
        except Exception as error:
            response = self._error(environ, error)
            return response(environ, start_response)
        # What ``json_response(answer, 201, etag(version))`` sends, in the order werkzeug sends
        # it, without a Response object and its Headers, built to be read back once.
        start_response(
            "201 CREATED",
            [
                ("ETag", etag(version)["ETag"]),
                ("Content-Type", "application/json"),
                ("Content-Length", str(len(answer))),
            ],
        )
        return [answer]

    def _plain_append(self, environ: WSGIEnvironment) -> str | None:
        """The game's id, if this request is a plain append (see the module's docstring)."""
        if (
            environ.get("REQUEST_METHOD") != "POST"
            or environ.get("QUERY_STRING")
            or environ.get("CONTENT_TYPE") != "application/json"
            or "HTTP_TRANSFER_ENCODING" in environ
        ):
            return None
        path = _APPEND_PATH.fullmatch(environ.get("PATH_INFO", ""))
        length = environ.get("CONTENT_LENGTH")
        if path is None or path[1] == "import" or not length or not _LENGTH.fullmatch(length):
            return None
        limit = self.app.config["MAX_CONTENT_LENGTH"]
        if limit is not None and int(length) > limit:
            return None
        return path[1]

    def _append(self, environ: WSGIEnvironment, game_id: str) -> tuple[int, bytes]:
        """What the before_request functions and the view do for a plain append: the game's
        version after it, and the answer's JSON."""
        extensions = self.app.extensions
        windows = extensions.get("tabletape.rate_limit")
        if windows is not None:
            count(windows, environ.get("REMOTE_ADDR"))
        token = bearer_token_of(environ.get("HTTP_AUTHORIZATION", ""))
        limit = self.app.config["MAX_CONTENT_LENGTH"]
        body = read_in_time(
            extensions.get("tabletape.body_deadlines"),
            environ,
            lambda: get_input_stream(environ, max_content_length=limit).read(),
        )
        event = event_of(parse_json(body))
        outcome = extensions["tabletape"].append(
            game_id,
            token,
            event,
            if_match=if_match_of(environ.get("HTTP_IF_MATCH")),
            idempotency_key=environ.get("HTTP_IDEMPOTENCY_KEY") or None,
        )
        return outcome.version, json_bytes(outcome.response)

    def _error(self, environ: WSGIEnvironment, error: Exception) -> Response:
        """The answer Flask gives ``error`` raised by the view of this path."""
        with self.app.request_context(environ):
            return self.app.finalize_request(self.app.handle_user_exception(error))
