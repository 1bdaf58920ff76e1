"""The OpenAPI components of each game's JSON, built from the shapes the games declare.

Every registered game declares its events, its state and its options as plain JSON Schema
(``domain.shapes``); this module knows no game. For each game it writes, as OpenAPI 3.0:

- ``<Game><Type>Event`` for each event type, with the descriptions of ``event_fields``, and
  ``<Game>Event``, one of them, ``Retract`` or ``Abandon`` (discriminated by ``type``);
- ``<Game>Stored<Type>Event`` and ``<Game>StoredEvent``: an event as the API returns it, with its
  ``seq``, ``at``, ``hash``, ``void``, and the private fields another seat saw left out and named
  in ``hidden``;
- ``<Game>State``: the state, as any viewer gets it;
- ``New<Game>Game`` and ``<Game>Record``: a creation body and a whole record (export and import),
  one variant per player count, since the options depend on it;

and the unions the endpoints take and answer, over every game: ``Event``, ``StoredEvent``,
``State``, ``NewGame``, ``Record``, and the bodies that hold them (``Appended``, ``EventList``,
``LegalMoves``, the stream's ``StreamMessage``).

A union of events is an ``anyOf``: two games may have events of one type and shape (a retraction,
or a deal with its cards hidden).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from apispec import APISpec

from domain import game_names, get_game
from domain.corrections import ABANDON, RETRACT
from domain.game import Game
from service.api.schemas import (
    AT_PATTERN,
    MAX_SEED,
    NAME_CONTROL,
    NAME_RULE,
    NAME_SHOWS,
)
from service.names import MAX_NAME
from service.store.chain import FORMAT, LEGACY_FORMAT

Schema = dict[str, Any]

_NULL: Schema = {"type": "null"}


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def to_openapi(schema: Any) -> Any:
    """A JSON Schema as OpenAPI 3.0 writes it: a nullable type as ``nullable: true``, not as a
    ``"null"`` type of a list or of an ``anyOf``; ``const`` as a one-value ``enum``."""
    if isinstance(schema, list):
        return [to_openapi(item) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    converted: Schema = {}
    for key, value in schema.items():
        if key == "properties":
            converted[key] = {name: to_openapi(item) for name, item in value.items()}
        elif key == "const":
            converted["enum"] = [value]
        else:
            converted[key] = to_openapi(value)
    kind = converted.get("type")
    if isinstance(kind, list):
        others = [name for name in kind if name != "null"]
        if len(others) != 1:
            raise ValueError(f"OpenAPI 3.0 has no type {kind!r}: use anyOf")
        converted["type"] = others[0]
        if "null" in kind:
            converted["nullable"] = True
    for union in ("anyOf", "oneOf"):
        members = converted.get(union)
        if isinstance(members, list) and _NULL in members:
            rest = [member for member in members if member != _NULL]
            others = {key: value for key, value in converted.items() if key != union}
            if len(rest) == 1:
                converted = {**rest[0], **others, "nullable": True}
            else:
                converted = {**others, union: rest, "nullable": True}
    return converted


def _title(name: str) -> str:
    """``try_luck`` -> ``TryLuck``: a part of a component's name."""
    return "".join(part.capitalize() for part in name.split("_"))


def _variants(schema: Schema) -> list[Schema]:
    """The object schemas of an event type: itself, or each of its ``oneOf``."""
    members: list[Schema] = schema.get("oneOf", [schema])
    return members


def _with_descriptions(schema: Schema, fields: Mapping[str, str]) -> Schema:
    """An event type's schema, its fields described by the game's ``event_fields``."""
    for variant in _variants(schema):
        for name, field in variant["properties"].items():
            if name in fields and "description" not in field:
                field["description"] = fields[name]
    return schema


def _stored(schema: Schema, private: tuple[str, ...]) -> Schema:
    """An event type's schema as the API returns such an event: see the module's docstring."""
    stored = copy.deepcopy(schema)
    for variant in _variants(stored):
        properties = variant["properties"]
        variant["properties"] = {
            "seq": {"type": "integer", "minimum": 1, "description": "its place in the record"},
            **properties,
            "at": {"type": "string", "description": "when it was appended (server time, UTC)"},
            "hash": {
                "type": "string",
                "description": "the hash chain's link: the recorder's only while the game is on",
            },
            "void": {
                "type": "boolean",
                "description": "GET /events and the stream: a retraction voided this move",
            },
            "words": {
                "type": "string",
                "description": "the stream's messages only: the move in words (the game's"
                " Game.describe), from the event as this reader sees it",
            },
            "version": {
                "type": "integer",
                "minimum": 1,
                "description": "the stream's messages only: the game's version after this event",
            },
        }
        if private:
            variant["properties"]["hidden"] = {
                "type": "array",
                "items": {"type": "string", "enum": list(private)},
                "minItems": 1,
                "uniqueItems": True,
                "description": "the fields left out, which another seat saw alone",
            }
        # A private field may be hidden: only the others are always there.
        required = [name for name in variant.get("required", []) if name not in private]
        variant["required"] = ["seq", *required, "at"]
    return stored


def _recorded(schema: Schema) -> Schema:
    """An event type's schema as an export writes it (and an import reads it): with its ``at``,
    which an import keeps (the hash chain covers it), and gives the import's time when missing."""
    recorded = copy.deepcopy(schema)
    for variant in _variants(recorded):
        variant["properties"] = {
            **variant["properties"],
            "at": {
                "type": "string",
                "pattern": AT_PATTERN,
                "description": "when it was appended (ISO 8601, UTC); an import keeps it",
            },
        }
    return recorded


def _union(members: Mapping[str, str]) -> Schema:
    """One of the components named in ``members`` (type -> component), by ``type``."""
    return {
        "oneOf": [ref(name) for name in members.values()],
        "discriminator": {
            "propertyName": "type",
            "mapping": {kind: ref(name)["$ref"] for kind, name in members.items()},
        },
    }


def _players(count: int) -> Schema:
    return {
        "type": "array",
        "items": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_NAME,
            "pattern": NAME_SHOWS,
            "not": {"pattern": NAME_CONTROL},
        },
        "minItems": count,
        "maxItems": count,
        "uniqueItems": True,
        "description": f"names in seat order: each {NAME_RULE}; distinct within the game",
    }


def _seed(nullable: bool) -> Schema:
    seed: Schema = {"type": "integer", "minimum": 0, "maximum": MAX_SEED}
    return {**seed, "nullable": True} if nullable else seed


def _per_player_count(game: Game[Any], variant: Any) -> Schema:
    """One variant per player count the game takes (the options depend on it)."""
    counts = range(game.min_players, game.max_players + 1)
    variants = [variant(count) for count in counts]
    return variants[0] if len(variants) == 1 else {"oneOf": variants}


def _new_game(game: Game[Any]) -> Schema:
    def variant(count: int) -> Schema:
        return {
            "type": "object",
            "properties": {
                "game": {"type": "string", "enum": [game.name]},
                "players": _players(count),
                "seed": {
                    **_seed(nullable=True),
                    "description": "what the shuffles start from (default: drawn at random)",
                },
                "options": to_openapi(game.options_schema(count)),
            },
            "required": ["game", "players"],
            "additionalProperties": False,
        }

    return _per_player_count(game, variant)


# A signed note a record carries (service.signing), and the verifier key that checks it.
_CARRIED_NOTE: Schema = {
    "checkpoint": {
        "type": "string",
        "nullable": True,
        "maxLength": 4096,
        "description": "once the game is over: the signed note of its head (C2SP signed-note"
        " format); an import keeps it as it came",
    },
    "checkpoint_key": {
        "type": "string",
        "nullable": True,
        "pattern": "^[^\\s+]+[+][0-9a-f]{8}[+][A-Za-z0-9+/]{44}$",
        "description": "the verifier key that checks the note: <name>+<key hash>+<key>",
    },
}


def _record(game: Game[Any], events: str) -> Schema:
    def variant(count: int) -> Schema:
        return {
            "type": "object",
            "properties": {
                "game": {"type": "string", "enum": [game.name]},
                "players": _players(count),
                "seed": _seed(nullable=False),
                "seed_salt": {
                    "type": "string",
                    "nullable": True,
                    "pattern": "^[0-9a-f]{32}$",
                    "description": "an import keeps it; a record of format 2 must carry it"
                    " (422 without), one of format 1 has none",
                },
                "seed_commitment": {
                    "type": "string",
                    "nullable": True,
                    "pattern": "^[0-9a-f]{64}$",
                    "description": "an import keeps it, and refuses a record this service"
                    " holds already, by its commitment or by what it records (409"
                    " already_imported)",
                },
                "record_format": {
                    "type": "integer",
                    "enum": [LEGACY_FORMAT, FORMAT],
                    "description": "the hash chain's format (2; 1 for older records): an import"
                    " keeps it",
                },
                "created_at": {
                    "type": "string",
                    "pattern": AT_PATTERN,
                    "description": "an import keeps it (else: the import's time)",
                },
                "finished_at": {
                    "type": "string",
                    "nullable": True,
                    "pattern": AT_PATTERN,
                    "description": "once the game is over; an import keeps it (else: the last"
                    " event's at)",
                },
                "options": to_openapi(game.options_schema(count)),
                "rules_version": {"type": "string", "enum": [game.rules_version]},
                "events": {
                    "type": "array",
                    "items": ref(events),
                    "description": "the event bodies in order, retractions included, each"
                    " with its at",
                },
                **_CARRIED_NOTE,
                "source_checkpoints": {
                    "type": "array",
                    "maxItems": 16,
                    "items": {
                        "type": "object",
                        "properties": _CARRIED_NOTE,
                        "required": ["checkpoint"],
                        "additionalProperties": False,
                    },
                    "description": "the notes an imported record came with, as they came: its"
                    " source's own first",
                },
            },
            "required": ["game", "players", "seed", "options", "rules_version", "events"],
            "additionalProperties": False,
        }

    return _per_player_count(game, variant)


def game_components(game: Game[Any]) -> Iterator[tuple[str, Schema]]:
    """The components of one game: (name, schema)."""
    title = _title(game.name)
    events = {RETRACT: "Retract", ABANDON: "Abandon"}
    stored = {RETRACT: "StoredRetract", ABANDON: "StoredAbandon"}
    recorded = {RETRACT: "RecordedRetract", ABANDON: "RecordedAbandon"}
    for kind, schema in game.event_schemas.items():
        described = _with_descriptions(to_openapi(schema), game.event_fields.get(kind, {}))
        events[kind] = f"{title}{_title(kind)}Event"
        stored[kind] = f"{title}Stored{_title(kind)}Event"
        recorded[kind] = f"{title}Recorded{_title(kind)}Event"
        yield events[kind], described
        yield stored[kind], _stored(described, game.private_event_fields.get(kind, ()))
        yield recorded[kind], _recorded(described)
    yield f"{title}Event", {**_union(events), "description": f"a move of {game.name}"}
    yield f"{title}StoredEvent", _union(stored)
    yield f"{title}RecordedEvent", _union(recorded)
    yield f"{title}State", _state(game)
    yield f"New{title}Game", _new_game(game)
    yield f"{title}Record", _record(game, f"{title}RecordedEvent")


# The status of the last state of a game its recorder abandoned (any game: domain.corrections).
ABANDONED = "abandoned"


def _state(game: Game[Any]) -> Schema:
    """The game's state as the API answers it: its own schema, whose ``status`` takes
    ``abandoned`` too. The service sets it on an abandoned game's last state (GameService.view);
    the game's rules know nothing of abandonment."""
    state: Schema = to_openapi(game.state_schema)
    status = state.get("properties", {}).get("status", {})
    if "enum" in status and ABANDONED not in status["enum"]:
        status["enum"] = [*status["enum"], ABANDONED]
        status["description"] = (
            f"{status.get('description', '')}; {ABANDONED}: ended by the recorder, no result"
        ).lstrip("; ")
    return state


def _correction(kind: str, description: str) -> Schema:
    return {
        "type": "object",
        "properties": {"type": {"type": "string", "enum": [kind]}},
        "required": ["type"],
        "additionalProperties": False,
        "description": description,
    }


def _retract() -> Schema:
    return _correction(
        RETRACT,
        "voids the latest move still standing (any game; the recorder's only); after the last"
        " move, it reopens the game",
    )


def _abandon() -> Schema:
    return _correction(
        ABANDON,
        "ends an unfinished game without a result: status abandoned, counted nowhere (any game;"
        " the recorder's only)",
    )


def components() -> Iterator[tuple[str, Schema]]:
    """Every component of the games' JSON, and of the bodies that hold it."""
    titles = [_title(name) for name in game_names()]
    yield "Retract", _retract()
    yield "StoredRetract", _stored(_retract(), ())
    yield "Abandon", _abandon()
    yield "StoredAbandon", _stored(_abandon(), ())
    yield "RecordedRetract", _recorded(_retract())
    yield "RecordedAbandon", _recorded(_abandon())
    for name in game_names():
        yield from game_components(get_game(name))
    yield "Event", {"anyOf": [ref(f"{title}Event") for title in titles]}
    yield "StoredEvent", {"anyOf": [ref(f"{title}StoredEvent") for title in titles]}
    yield (
        "State",
        {
            "oneOf": [ref(f"{title}State") for title in titles],
            "description": "the game's state, as the request's token lets its holder see it",
        },
    )
    for union, part in (("NewGame", "New{}Game"), ("Record", "{}Record")):
        yield (
            union,
            {
                "oneOf": [ref(part.format(title)) for title in titles],
                "discriminator": {
                    "propertyName": "game",
                    "mapping": {
                        name: ref(part.format(title))["$ref"]
                        for name, title in zip(game_names(), titles, strict=True)
                    },
                },
            },
        )
    appended = _object(
        seq={"type": "integer", "minimum": 1},
        version={"type": "integer", "minimum": 1},
        event=ref("StoredEvent"),
        state=ref("State"),
        words={
            "type": "string",
            "description": "the move in words (the game's Game.describe), from the event as"
            " returned; absent from the replayed answer of an append made before it was sent",
        },
    )
    appended["required"].remove("words")
    yield "Appended", appended
    yield (
        "EventList",
        _object(
            events={"type": "array", "items": ref("StoredEvent")},
            version={"type": "integer", "minimum": 0},
            words={
                "type": "array",
                "items": {"type": "string"},
                "description": "beside each event, the move in words (the game's Game.describe),"
                " from the event as returned: a field hidden from the reader is never worded",
            },
        ),
    )
    yield (
        "LegalMoves",
        _object(
            moves={
                "type": "array",
                "items": ref("Event"),
                "description": "complete event bodies: each may be appended as it is",
            },
            ending={
                "type": "array",
                "items": {"type": "boolean"},
                "description": "beside each move, whether it would end the game (told to the"
                " recorder only: false throughout for a seat)",
            },
            words={
                "type": "array",
                "items": {"type": "string"},
                "description": "beside each move, its words (the game's Game.describe): what the"
                " pages show",
            },
            base_words={
                "type": "array",
                "items": {"type": "string"},
                "description": "beside each move, its words without the fields that name what"
                " chance brought (the game's chance_fields): the moves that differ only by those"
                " share them",
            },
            free={
                "type": "array",
                "items": {"type": "string"},
                "description": "the event types the token's holder may also append now whose"
                " fields a list cannot hold (a score sheet's score and round: numbers written"
                " down); empty for a game whose every move is listed",
            },
        ),
    )
    yield from _stream_components()


def _object(**properties: Schema) -> Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _stream_components() -> Iterator[tuple[str, Schema]]:
    """One message of GET /games/{id}/stream, as an SSE client reads it: its ``event`` name, its
    ``id`` and its ``data``, JSON whose schema ``contentSchema`` gives."""
    yield (
        "StreamEnd",
        {
            **_object(
                id={"type": "string"},
                status={"type": "string", "enum": ["finished", "archived", ABANDONED]},
                version={"type": "integer", "minimum": 0},
                finished_at={"type": "string", "nullable": True},
                # Null for an abandoned game, which ends without a result (nullable beside a $ref
                # as apispec writes it: OpenAPI 3.0 reads no other key beside a $ref).
                result={"allOf": [ref("Result")], "nullable": True},
            ),
            "description": "the game is over: the stream closes after this message",
        },
    )

    def message(event: str, data: str, description: str) -> Schema:
        return {
            "type": "object",
            "properties": {
                "event": {"type": "string", "enum": [event]},
                "id": {
                    "type": "string",
                    "pattern": "^[0-9]+$",
                    "description": "the seq of the last move sent: Last-Event-ID resumes after it",
                },
                "data": {
                    "type": "string",
                    "contentMediaType": "application/json",
                    "contentSchema": ref(data),
                    "description": description,
                },
            },
            "required": ["event", "data"],
            "additionalProperties": False,
        }

    yield (
        "StreamMessage",
        {
            "oneOf": [
                message("move", "StoredEvent", "the move, as GET /events returns it, and version"),
                message("end", "StreamEnd", "the game's status, version, finish time and result"),
            ]
        },
    )


def register_game_components(spec: APISpec) -> None:
    for name, schema in components():
        spec.components.schema(name, schema)
