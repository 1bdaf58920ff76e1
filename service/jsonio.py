"""JSON responses, serialised with orjson: the state of a game is on every append's hot path."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response


def json_response(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(json_bytes(body), status=status, headers=headers, mimetype="application/json")


def json_bytes(body: Any) -> bytes:
    """``body`` as the JSON of an answer."""
    # Marshmallow keys list errors by index (an int): allow non-string keys.
    return orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS)
