"""HTTP resources of api.md's "Bringing history in": the imports of other apps' plays.

``POST /imports/bgstats`` takes the BG Stats app's backup (JSON), ``POST /imports/bgg``
BoardGameGeek's plays (XML). Both need the WRITE_KEY when the service sets one (the app's
before_request, ``service.api.views.adding_games_needs_the_write_key``, guards every POST under
/imports/), and take up to HISTORY_MAX_BYTES (``service.api.requests``).
"""

from __future__ import annotations

from typing import Any

from flask.views import MethodView
from marshmallow import Schema, fields

from service.api.requests import body_bytes, within_depth
from service.api.views import (
    WRITE_KEY_SECURITY,
    ApiBlueprint,
    error_doc,
    service,
)
from service.errors import InvalidRequestError
from service.imports import History, bgg, bgstats
from service.jsonio import json_response

imports = ApiBlueprint(
    "imports", __name__, description="Bring a group's history in: plays logged in other apps"
)


class SkippedSchema(Schema):
    uuid = fields.String(
        allow_none=True,
        metadata={"description": "the play's id in its app (BG Stats' uuid, BoardGameGeek's id)"},
    )
    reason = fields.String(metadata={"description": "why the play was not imported"})


class ImportedSchema(Schema):
    imported = fields.Integer(metadata={"description": "plays imported, each a new game"})
    already = fields.Integer(metadata={"description": "plays imported before: not again"})
    skipped = fields.List(fields.Nested(SkippedSchema))
    games = fields.List(fields.String(), metadata={"description": "the ids of the games created"})


_REFUSED = {
    "400": error_doc(400, "invalid_request: not a backup (or not plays' XML), or XML with a DTD"
                     " or entities"),
    "401": error_doc(401, "unauthorized: the service sets WRITE_KEY and the request lacks it"),
    "413": error_doc(413, "too_large: over HISTORY_MAX_BYTES (64 MiB), named in the message"),
    "429": error_doc(429, "rate_limited"),
    "503": error_doc(503, "unavailable"),
}  # fmt: skip


def _import_doc(content: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI of an import whose body is ``content`` (by media type): the write key, and
    the refusals every import shares."""
    return {
        "responses": _REFUSED,
        "security": WRITE_KEY_SECURITY,
        "requestBody": {"required": True, "content": content},
    }


def _history() -> History:
    games = service()
    return History(games.records, games.store.indexes)


@imports.route("/imports/bgstats")
class BgStatsImport(MethodView):
    @imports.response(200, ImportedSchema)
    @imports.doc(
        **_import_doc({
            "application/json": {
                "schema": {
                    "type": "object",
                    "description": "the BG Stats export (players, games, plays...), or"
                    ' {"export": <the export>, "names": {"<name there>": "<name here>"}}',
                }
            }
        })
    )  # fmt: skip
    def post(self) -> Any:
        """Import the plays of a BG Stats backup, each a finished score sheet with the play's
        own dates, in order of play; a play imported before is not imported again, one that
        cannot be read is skipped with its reason, ignored plays are passed over."""
        try:
            # Read as the command line reads the file (bgstats.parse): a lone surrogate escaped
            # in a title skips that play, not the whole backup.
            body = within_depth(bgstats.parse(body_bytes()))
            export, names = bgstats.export_and_names(body)
        except bgstats.NotABackup as error:
            raise InvalidRequestError(str(error), {"body": "a BG Stats export"}) from None
        outcome = _history().import_plays(bgstats.read_plays(export, names))
        return json_response(outcome.as_json())


@imports.route("/imports/bgg")
class BggImport(MethodView):
    @imports.response(200, ImportedSchema)
    @imports.doc(
        **_import_doc({
            kind: {"schema": {"type": "string", "description": "<plays> as /xmlapi2/plays"}}
            for kind in ("application/xml", "text/xml")
        })
    )  # fmt: skip
    def post(self) -> Any:
        """Import BoardGameGeek's plays (the XML of /xmlapi2/plays, one page or several pages'
        <play> elements in one <plays>), a play known by its id. XML with a DTD or entities is
        refused, never expanded."""
        try:
            root = bgg.parse(body_bytes())
        except bgg.NotPlaysXml as error:
            raise InvalidRequestError(str(error), {"body": "BoardGameGeek's <plays> XML"}) from None
        outcome = _history().import_plays(bgg.read_plays(root))
        return json_response(outcome.as_json())
