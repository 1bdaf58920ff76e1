"""HTTP resources of api.md's "Bringing history in": the imports of other apps' plays.

``POST /imports/bgstats`` takes the BG Stats app's backup (JSON), ``POST /imports/bgg``
BoardGameGeek's plays (XML); ``POST /imports/bgstats/preview`` and ``/imports/bgg/preview``
(this service's own, beyond the contract) read the same bodies the same way and say what an
import would bring, writing nothing. Both need the WRITE_KEY when the service sets one (the app's
before_request, ``service.api.views.adding_games_needs_the_write_key``, guards every POST under
/imports/), and take up to HISTORY_MAX_BYTES (``service.api.requests``).

An import holds its file, read, in memory: each takes a slot first (``ImportSlots``: at most
HISTORY_IMPORTS_AT_ONCE at once on the server, whatever its processes), before its body is read;
without one it is answered 503 unavailable with Retry-After. What it reads is let go as soon as it
is read: the body once parsed, the parsed file once its plays are read.
"""

from __future__ import annotations

from typing import Any

from flask import current_app
from flask.blueprints import BlueprintSetupState
from flask.views import MethodView
from marshmallow import Schema, fields

from service.api.requests import MAX_DEPTH, body_bytes
from service.api.views import (
    WRITE_KEY_SECURITY,
    ApiBlueprint,
    error_doc,
    service,
)
from service.errors import ImportsBusyError, InvalidRequestError
from service.imports import History, ImportOutcome, Play, Skipped, bgg, bgstats
from service.imports.backup_file import read_backup
from service.jsonio import json_response
from service.store.import_slots import ImportSlot, ImportSlots

imports = ApiBlueprint(
    "imports", __name__, description="Bring a group's history in: plays logged in other apps"
)


class SkippedSchema(Schema):
    uuid = fields.String(
        allow_none=True,
        metadata={"description": "the play's id in its app (BG Stats' uuid, BoardGameGeek's id)"},
    )
    reason = fields.String(metadata={"description": "why the play was not imported"})


class DiffersSchema(Schema):
    uuid = fields.String(metadata={"description": "the play's id in its app"})
    game = fields.String(metadata={"description": "the game here that holds that id"})


class ImportedSchema(Schema):
    imported = fields.Integer(metadata={"description": "plays imported, each a new game"})
    already = fields.Integer(
        metadata={"description": "plays imported before (the game holding their id is theirs)"}
    )
    differs = fields.List(
        fields.Nested(DiffersSchema),
        metadata={
            "description": "plays whose id holds a game that is not the game they make (an id"
            " used by two different plays, a play edited in its app since): not imported"
        },
    )
    skipped = fields.List(fields.Nested(SkippedSchema))
    games = fields.List(fields.String(), metadata={"description": "the ids of the games created"})


class TitlePlaysSchema(Schema):
    title = fields.String(metadata={"description": "a game's title as the file names it"})
    plays = fields.Integer(metadata={"description": "its plays in the file"})


class PlayerPlaysSchema(Schema):
    name = fields.String(metadata={"description": "a player, under the name given here"})
    plays = fields.Integer(metadata={"description": "their plays in the file"})


class PreviewSchema(Schema):
    plays = fields.Integer(metadata={"description": "plays the import would bring in or find"})
    already = fields.Integer(
        metadata={"description": "of them, plays whose id holds a game here (imported before)"}
    )
    titles = fields.List(fields.Nested(TitlePlaysSchema), metadata={"description": "most first"})
    players = fields.List(fields.Nested(PlayerPlaysSchema), metadata={"description": "most first"})
    skipped = fields.List(
        fields.Nested(SkippedSchema),
        metadata={"description": "plays that cannot be imported, with their reasons"},
    )


# An import refused for want of a slot may retry after this many seconds.
_SLOT_RETRY_AFTER = 10


@imports.record_once
def _count_imports(state: BlueprintSetupState) -> None:
    store = state.app.extensions["tabletape"].store
    state.app.extensions["tabletape.import_slots"] = ImportSlots(
        store.redis, store.keys, state.app.config["HISTORY_IMPORTS_AT_ONCE"]
    )


def _import_slot() -> ImportSlot:
    """A slot for this import, taken before its body is read; ImportsBusyError without one."""
    slots: ImportSlots = current_app.extensions["tabletape.import_slots"]
    slot = slots.take()
    if slot is None:
        raise ImportsBusyError(
            _SLOT_RETRY_AFTER,
            f"this server already runs {slots.limit} imports at once (each holds its file in"
            f" memory): send it again in {_SLOT_RETRY_AFTER} seconds",
            {"imports_at_once": slots.limit},
        )
    return slot


def _history() -> History:
    games = service()
    return History(games.records, games.store.indexes)


def _import(slot: ImportSlot, found: list[Play | Skipped]) -> ImportOutcome:
    # Each play done renews the slot's lease (at most every few seconds).
    return _history().import_plays(found, progress=slot.renew)


_REFUSED = {
    "400": error_doc(400, "invalid_request: not a backup (or not plays' XML), or XML with a DTD"
                     " or entities"),
    "401": error_doc(401, "unauthorized: the service sets WRITE_KEY and the request lacks it"),
    "413": error_doc(413, "too_large: over HISTORY_MAX_BYTES (64 MiB), named in the message"),
    "429": error_doc(429, "rate_limited"),
    "503": error_doc(
        503, "unavailable: the store cannot be reached, or HISTORY_IMPORTS_AT_ONCE imports are"
        " running (Retry-After)"
    ),
}  # fmt: skip


def _import_doc(content: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI of an import whose body is ``content`` (by media type): the write key, and
    the refusals every import shares."""
    return {
        "responses": _REFUSED,
        "security": WRITE_KEY_SECURITY,
        "requestBody": {"required": True, "content": content},
    }


# The bodies an import (and its preview) takes, by media type.
_BACKUP = {
    "application/json": {
        "schema": {
            "type": "object",
            "description": "the BG Stats export (players, games, plays...), or"
            ' {"export": <the export>, "names": {"<name there>": "<name here>"}}',
        }
    }
}
_PLAYS_XML = {
    kind: {"schema": {"type": "string", "description": "<plays> as /xmlapi2/plays"}}
    for kind in ("application/xml", "text/xml")
}


@imports.route("/imports/bgstats")
class BgStatsImport(MethodView):
    @imports.response(200, ImportedSchema)
    @imports.doc(**_import_doc(_BACKUP))
    def post(self) -> Any:
        """Import the plays of a BG Stats backup, each a finished score sheet with the play's
        own dates, in order of play; a play imported before is not imported again, one that
        cannot be read is skipped with its reason, ignored plays are passed over."""
        with _import_slot() as slot:
            outcome = _import(slot, _backup_plays())
        return json_response(outcome.as_json())


@imports.route("/imports/bgg")
class BggImport(MethodView):
    @imports.response(200, ImportedSchema)
    @imports.doc(**_import_doc(_PLAYS_XML))
    def post(self) -> Any:
        """Import BoardGameGeek's plays (the XML of /xmlapi2/plays, one page or several pages'
        <play> elements in one <plays>), a play known by its id. XML with a DTD or entities is
        refused, never expanded."""
        with _import_slot() as slot:
            outcome = _import(slot, _bgg_plays())
        return json_response(outcome.as_json())


@imports.route("/imports/bgstats/preview")
class BgStatsPreview(MethodView):
    @imports.response(200, PreviewSchema)
    @imports.doc(**_import_doc(_BACKUP))
    def post(self) -> Any:
        """What importing this BG Stats backup would bring, read as its import reads it, with
        nothing written: its plays, how many of them are here already, their titles and
        players, and the plays that cannot be imported, with their reasons."""
        with _import_slot():
            preview = _history().preview(_backup_plays())
        return json_response(preview.as_json())


@imports.route("/imports/bgg/preview")
class BggPreview(MethodView):
    @imports.response(200, PreviewSchema)
    @imports.doc(**_import_doc(_PLAYS_XML))
    def post(self) -> Any:
        """What importing these BoardGameGeek plays would bring, as for a BG Stats backup:
        nothing is written."""
        with _import_slot():
            preview = _history().preview(_bgg_plays())
        return json_response(preview.as_json())


def _backup_plays() -> list[Play | Skipped]:
    """The plays of the BG Stats backup this request sends, read as a stream as the command
    line reads the file (``backup_file``): the body goes when this returns, only the plays stay
    for the import. Nested at most MAX_DEPTH levels, no key given twice in one object."""
    try:
        plays = read_backup(body_bytes(cache=False), max_depth=MAX_DEPTH, keys_once=True)
    except bgstats.NotABackup as error:
        raise InvalidRequestError(str(error), error.details) from None
    return list(plays)


def _bgg_plays() -> list[Play | Skipped]:
    """The plays of BoardGameGeek's XML this request sends (the body goes when this returns)."""
    try:
        return bgg.read_plays(body_bytes(cache=False))
    except bgg.NotPlaysXml as error:
        raise InvalidRequestError(str(error), {"body": "BoardGameGeek's <plays> XML"}) from None
