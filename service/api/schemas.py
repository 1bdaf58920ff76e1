"""Marshmallow schemas: they validate requests and, through flask-smorest, write the OpenAPI doc.

What differs per game (events, states, options, so the creation and record bodies) is documented
by ``service.api.game_shapes`` from each game's own declared shapes, and checked by the game's
rules.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates

from domain import game_names, most_players
from domain.repeats import repeated
from service.api.requests import MAX_DIGITS, MAX_QUERY_INTEGER, QueryInteger, page_cursor
from service.names import problem, taken, unseen_ranges
from service.signing.note import Note, NoteError, VerifierKey
from service.store.chain import FORMAT, LEGACY_FORMAT
from service.store.indexes import CURSOR
from service.store.records import STATUSES

# The example of a game's name in the OpenAPI document: the first game registered.
EXAMPLE_GAME = game_names()[0]
# The most players any game takes (a score sheet's 20).
MOST_PLAYERS = most_players()

MAX_SEED = 2**64 - 1
# A next_cursor of digits (a leaderboard's), or nothing: an empty cursor is the first page.
CURSOR_PATTERN = f"^[0-9]{{0,{MAX_DIGITS}}}$"
# The games' listing's next_cursor (where its page ended: ``indexes.Place``), or nothing.
GAMES_CURSOR_PATTERN = f"^(?:{CURSOR.pattern})?$"


class ErrorDetailSchema(Schema):
    code = fields.String(required=True, metadata={"example": "illegal_move"})
    message = fields.String(required=True)
    details = fields.Dict(required=True)


class ErrorSchema(Schema):
    error = fields.Nested(ErrorDetailSchema, required=True)


# check_name as JSON Schema, for the OpenAPI document: a character at least that is neither
# unseen (service.names.UNSEEN) nor white space (str.isspace, as strip() sees it), and no unseen
# character anywhere. Two unanchored searches: an anchored "^...$" would read differently in
# Python (whose $ also matches before a final newline) and in JSON Schema (ECMAScript's). The
# unseen characters are listed as \uXXXX ranges, which both read alike: those of the Basic
# Multilingual Plane (a handful of rare format characters past it are refused all the same).
_UNSEEN = unseen_ranges()
_SPACE = r"\x20\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
NAME_SHOWS = f"[^{_UNSEEN}{_SPACE}]"
NAME_CONTROL = f"[{_UNSEEN}]"
NAME_RULE = (
    "1 to 64 characters, not blank, without control or format characters (zero-width spaces,"
    " byte order marks, direction overrides, soft hyphens) or line and paragraph separators;"
    " taken in NFC"
)


def check_name(name: str) -> None:
    """A player's name as the service takes it (``service.names``), in NFC; else refused."""
    why = problem(taken(name))
    if why is not None:
        raise ValidationError(why)


class Name(fields.String):
    """A player's name: taken in NFC ("Zoe" and a combining diaeresis is "Zoë"), refused with
    the reason it is not a name."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        name = taken(super()._deserialize(value, attr, data, **kwargs))
        check_name(name)
        return name


class LookedUpName(fields.String):
    """A name a query looks up (``player=``): in NFC, as names are stored, so that either
    spelling of "Zoë" finds her games."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        return taken(super()._deserialize(value, attr, data, **kwargs))


def check_distinct(names: list[str]) -> None:
    twice = repeated(names)
    if twice:
        raise ValidationError(f"the players of a game have distinct names: {twice} repeat")


class Players(fields.List):
    """A game's names in seat order. How many is checked first: past the most any game takes,
    the list is refused before any name is read (so a list of 200,000 names costs nothing); then
    each name, then that they are distinct. How many a game takes within that is the game's to
    say, in its words (Game.played_by)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(Name(), **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, list) and len(value) > MOST_PLAYERS:
            raise ValidationError(f"at most {MOST_PLAYERS} names")
        return super()._deserialize(value, attr, data, **kwargs)


def players_field() -> fields.List:
    """Player names; how many a game takes is the game's to check."""
    return Players(
        required=True,
        validate=check_distinct,
        metadata={
            "example": ["Ana", "Ben", "Caro"],
            "description": f"names in seat order: each {NAME_RULE}; distinct within the game",
        },
    )


SEED_RANGE = "the seed must be a whole number from 0 to 2**64 - 1 (or left out: a random one)"


def seed_field(**kwargs: object) -> fields.Integer:
    return fields.Integer(
        strict=True,
        validate=validate.Range(min=0, max=MAX_SEED, error=SEED_RANGE),
        error_messages={"invalid": SEED_RANGE},
        **kwargs,
    )


class CreateGameSchema(Schema):
    game = fields.String(required=True, metadata={"example": EXAMPLE_GAME})
    players = players_field()
    seed = seed_field(load_default=None)
    options = fields.Dict(keys=fields.String(), load_default=dict)


class ResultSchema(Schema):
    """How a finished game ended: every field any game's result may hold (a score sheet's
    ``ranks`` and ``outcome`` included), so that every finished game keeps to the document."""

    winners = fields.List(
        fields.Integer(validate=validate.Range(min=0)),
        metadata={"description": "the winning seats; empty when no one won (or the table lost)"},
    )
    ranks = fields.List(
        fields.Integer(validate=validate.Range(min=1)),
        allow_none=True,
        metadata={
            "description": "a score sheet's: one per seat, 1 best, ties shared (1, 2, 2, 4); null"
            " for a game with no winner"
        },
    )
    scores = fields.List(
        fields.Float(allow_none=True),
        metadata={
            "description": "one per seat; a score sheet's seat with no number ever written is"
            " null (no score, not 0)"
        },
    )
    outcome = fields.String(
        allow_none=True,
        validate=validate.OneOf(["won", "lost"]),
        metadata={"description": "a score sheet's: a cooperative game's won or lost, else null"},
    )
    draw = fields.Boolean(metadata={"description": "a game may say so when every seat ties"})


class GameSchema(Schema):
    id = fields.String()
    game = fields.String()
    players = fields.List(fields.String())
    seed = fields.Integer(
        metadata={"description": "the recorder's only until the game is over, then everyone's"}
    )
    seed_salt = fields.String(
        allow_none=True,
        metadata={"description": "32 hex digits; shown with the seed (null in a format 1 record)"},
    )
    seed_commitment = fields.String(
        allow_none=True,
        metadata={
            "description": 'SHA-256 (hex) of the canonical JSON of {"salt": seed_salt,'
            ' "seed": seed}, shown to everyone from the start (null in a format 1 record)'
        },
    )
    options = fields.Dict()
    rules_version = fields.String()
    record_format = fields.Integer(
        metadata={"description": "2 (the hash chain of this version); 1 for older records"}
    )
    version = fields.Integer()
    status = fields.String(metadata={"enum": list(STATUSES)})
    created_at = fields.String()
    finished_at = fields.String()
    result = fields.Nested(ResultSchema)


class ViewerSchema(Schema):
    role = fields.String(metadata={"enum": ["recorder", "seat", "public"]})
    seat = fields.Integer(allow_none=True, metadata={"description": "the seat, for a seat's token"})


class OneGameSchema(GameSchema):
    viewer = fields.Nested(
        ViewerSchema, metadata={"description": "who the request's token makes the asker"}
    )


class CreatedGameSchema(GameSchema):
    token = fields.String(metadata={"description": "the recorder's secret, returned only here"})
    seat_tokens = fields.List(
        fields.String(),
        metadata={
            "description": "one secret per seat, in seat order, returned only here: a seat sees"
            " its own hidden information and appends its own moves"
        },
    )


class SeatLinksSchema(Schema):
    seat_tokens = fields.List(
        fields.String(allow_none=True),
        metadata={
            "description": "the seats' tokens again, for the recorder's page of links (each is"
            " derived from the recorder's token); null for a seat whose token cannot be derived"
            " (a game recorded before links could be shown again: replace that seat's link)"
        },
    )


class SeatTokenSchema(Schema):
    seat = fields.Integer()
    token = fields.String(metadata={"description": "the seat's new token: the old one gets 401"})


class GameListQuerySchema(Schema):
    # A filter left out (or an empty game or player) filters nothing.
    game = fields.String(metadata={"description": "only the games of this game"})
    status = fields.String(validate=validate.OneOf(STATUSES))
    player = LookedUpName(metadata={"description": "only the games this name plays in"})
    limit = QueryInteger(validate=validate.Range(min=1, max=100), load_default=20)
    cursor = page_cursor(GAMES_CURSOR_PATTERN)


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSchema))
    next_cursor = fields.String(allow_none=True)


class EventsQuerySchema(Schema):
    # "from" is a Python keyword: the field is named by data_key.
    first = QueryInteger(
        data_key="from", validate=validate.Range(min=1, max=MAX_QUERY_INTEGER), load_default=1
    )
    limit = QueryInteger(validate=validate.Range(min=1, max=1000), load_default=1000)


class StateQuerySchema(Schema):
    # Left out: the latest state.
    at = QueryInteger(
        validate=validate.Range(min=0, max=MAX_QUERY_INTEGER),
        metadata={"description": "how many events the state follows (at most the version)"},
    )


class HealthSchema(Schema):
    status = fields.String(
        metadata={
            "enum": ["ok", "degraded", "unavailable"],
            "description": "degraded: a finished game waits with no worker alive to count it, or"
            " its archive job failed or refused it (queue.archive.note says which); unavailable:"
            " the store cannot be reached (503)",
        }
    )
    store = fields.Dict()
    finished_games_to_count = fields.Integer(
        metadata={
            "description": "finished games not counted in the statistics: their archive jobs"
            " waiting, running or failed, and the games the job refused"
        }
    )
    queue = fields.Dict(
        metadata={
            "description": "archive: the games whose jobs wait, the workers alive (a heartbeat"
            " within the last 15 s), the games whose jobs failed, the games refused, and a note"
            " when any of them needs a person"
        }
    )
    error = fields.Nested(ErrorDetailSchema, metadata={"description": "with the 503 only"})


class AuditSchema(Schema):
    ok = fields.Boolean()
    version = fields.Integer()
    head_hash = fields.String(
        allow_none=True, metadata={"description": "null for all but the recorder while active"}
    )
    problems = fields.List(fields.String())


# A moment as the service writes it (``at``, ``created_at``, ``finished_at``): ISO 8601, in UTC.
AT_PATTERN = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?(Z|\+00:00)$"
_AT_ERROR = "an ISO 8601 moment in UTC, as 2025-01-01T12:00:00.000Z"


class KeySchema(Schema):
    origin = fields.String(metadata={"description": "the key's name: a note's first line"})
    vkey = fields.String(
        metadata={"description": "the verifier key: <origin>+<8 hex digits>+<base64>"}
    )
    since = fields.String(metadata={"description": "when it became current (RFC 3339 UTC)"})
    current = fields.Boolean(metadata={"description": "the key the service signs with now"})


class KeyListSchema(Schema):
    keys = fields.List(fields.Nested(KeySchema))


def check_note(text: str) -> None:
    """A note as the C2SP signed-note format writes it (not its signature: the import keeps a
    source's note as it came)."""
    try:
        Note.parse(text)
    except NoteError as error:
        raise ValidationError(f"not a signed note: {error}") from None


def check_vkey(text: str) -> None:
    try:
        VerifierKey.parse(text)
    except NoteError as error:
        raise ValidationError(str(error)) from None


class CarriedNoteSchema(Schema):
    """A note a record carries, and the verifier key that checks it."""

    checkpoint = fields.String(required=True, validate=check_note)
    checkpoint_key = fields.String(allow_none=True, load_default=None, validate=check_vkey)


class RecordSchema(Schema):
    """A whole record: the header's fields and the event bodies in order, each with its ``at``
    (export and import). An import keeps what it is given, so that the copy's hash chain is the
    source's; a missing time it fills in with the import's."""

    game = fields.String(required=True)
    players = players_field()
    seed = seed_field(required=True)
    seed_salt = fields.String(
        allow_none=True,
        load_default=None,
        validate=validate.Regexp("^[0-9a-f]{32}$", error="32 lowercase hex digits"),
    )
    seed_commitment = fields.String(
        allow_none=True,
        load_default=None,
        validate=validate.Regexp("^[0-9a-f]{64}$", error="64 lowercase hex digits"),
    )
    record_format = fields.Integer(
        load_default=None, validate=validate.OneOf([LEGACY_FORMAT, FORMAT])
    )
    options = fields.Dict(keys=fields.String(), required=True)
    rules_version = fields.String(required=True)
    # Times are text here; whether each is an instant that exists, in order and not to come, the
    # import checks (``service.store.moments``): a 422 naming the field.
    created_at = fields.String(load_default=None)
    finished_at = fields.String(allow_none=True, load_default=None)
    events = fields.List(fields.Dict(keys=fields.String()), required=True)
    # The signed note of its head (service.signing), the key that checks it, and the notes it
    # was imported with: an import keeps them as they came.
    checkpoint = fields.String(allow_none=True, load_default=None, validate=check_note)
    checkpoint_key = fields.String(allow_none=True, load_default=None, validate=check_vkey)
    source_checkpoints = fields.List(
        fields.Nested(CarriedNoteSchema),
        load_default=list,
        validate=validate.Length(max=16, error="at most 16 notes"),
    )

    @validates("events")
    def _each_at(self, events: list[dict[str, Any]], **_: Any) -> None:
        wrong = {
            f"{seq}.at": "a string: " + _AT_ERROR
            for seq, event in enumerate(events, start=1)
            if "at" in event and not isinstance(event["at"], str)
        }
        if wrong:
            raise ValidationError(wrong)
