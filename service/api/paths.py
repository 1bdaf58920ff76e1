"""A player's name as a part of a URL path: ``/players/<name:name>/stats``.

A name may hold any character but control characters, ``/`` included, even first. A client
sends ``/`` as ``%2F``; every WSGI server decodes it before routing, so a route sees
``/players//C/stats`` for the player ``/C``. Werkzeug's ``path`` converter takes slashes inside a
part, but not first: it answered 404 for ``/C``, or redirected ``/players//C/versus/B`` to the
head to head of ``C``, another player. This one takes any characters, at least one:
``/players//stats`` names no one (404); the name is taken in NFC, as names are stored.
"""

from __future__ import annotations

from typing import Any

from werkzeug.routing import BaseConverter, PathConverter

from service.names import taken


class PlayerNameConverter(PathConverter):
    regex = ".+?"
    # Matched across slashes (werkzeug would infer True from a regex without "/").
    part_isolating = False

    def to_python(self, value: str) -> str:
        # Names are stored in NFC: "Zoe" and a combining diaeresis asks for "Zoë".
        return taken(value)


def name_parameter_schema(converter: Any) -> dict[str, Any]:
    """The OpenAPI schema of a name in a path (flask-smorest's ``register_converter``)."""
    return {"type": "string", "minLength": 1}


class GameIdConverter(BaseConverter):
    """A game's id in a path, ``/games/<game:game_id>``: any one segment but ``import``, which is
    the import's own path (``POST /games/import``). Without it, ``GET /games/import`` would be the
    game ``import``, and ``Allow`` would say the import's path takes GET."""

    regex = "(?!import$)[^/]+"


def game_id_parameter_schema(converter: Any) -> dict[str, Any]:
    return {"type": "string", "minLength": 1}
