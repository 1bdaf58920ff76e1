"""How a record is turned into the text Redis stores, and back: a header, then an event, each
encoded beside its decoding.

A record's keys are read undecoded (``NEVER_DECODE``), whatever client the store is given, and
decoded here (``text``): bytes that are not UTF-8 are a damaged field or event, never an error that
stops a listing or a worker. What is read back is checked as it is decoded: a header field or an
event that does not decode raises or answers its damage (``service.store.damage``), for that game
alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

import orjson

from domain.errors import UnknownGameError
from domain.game import get_game
from service.store.chain import FORMAT, LEGACY_FORMAT, canonical_json
from service.store.damage import OTHER_TYPE, damaged_event
from service.store.records import STATUSES, DamagedHeader, GameRecord, StoredEvent

# The rules version a game of this name is played under here, None if no game of that name is.
RulesVersionOf = Callable[[str], str | None]


def pairs(fields: Mapping[str, str]) -> list[str]:
    """A hash as a script takes it, or the read script gives it: field, value, field, value..."""
    return [item for pair in fields.items() for item in pair]


def text(value: Any) -> Any:
    """A reply read undecoded (``NEVER_DECODE``), as text: bytes that are not UTF-8 keep their
    bytes as lone surrogates (``surrogateescape``), so that the field they are in is named as
    damaged (``not_utf8``) rather than the whole read failing."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    if isinstance(value, list | tuple):
        return [text(item) for item in value]
    if isinstance(value, dict):
        return {text(name): text(item) for name, item in value.items()}
    return value


def not_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


# The header ---------------------------------------------------------------------------------------


def encode_header(record: GameRecord) -> dict[str, str]:
    """A new game's header, every field at once (``decode_header`` reads them back)."""
    return {
        "game": record.game,
        "players": orjson.dumps(record.players).decode(),
        "seed": str(record.seed),
        "seed_salt": record.seed_salt or "",
        "seed_commitment": record.seed_commitment or "",
        "options": orjson.dumps(record.options).decode(),
        "rules_version": record.rules_version,
        "record_format": str(record.record_format),
        "created_at": record.created_at,
        "version": "0",
        "status": record.status,
        "head_hash": record.head_hash,
        "token_sha256": record.token_sha256,
        **encode_seat_tokens(record.seat_tokens_sha256, record.seat_token_generations or []),
    }


def encode_seat_tokens(digests: list[str], generations: list[int]) -> dict[str, str]:
    """The header's fields of the seats' tokens: their digests and generations."""
    return {
        "seat_tokens_sha256": orjson.dumps(digests).decode(),
        "seat_token_generations": orjson.dumps(generations).decode(),
    }


def encode_result(result: dict[str, Any] | None) -> str:
    """The header's ``result`` field, '' for none."""
    return orjson.dumps(result).decode() if result is not None else ""


def encode_ending(
    version: int,
    head: str,
    status: str,
    result: dict[str, Any] | None,
    finished_at: str | None,
    source_checkpoints: list[dict[str, Any]] | None = None,
) -> dict[str, str]:
    """The header's fields of where an imported record's replay ends, and the notes it came
    with (``source_checkpoints``, JSON)."""
    fields = {"version": str(version), "head_hash": head, "status": status}
    if result is not None and finished_at is not None:
        fields.update(finished_at=finished_at, result=encode_result(result))
    if source_checkpoints:
        fields["source_checkpoints"] = orjson.dumps(source_checkpoints).decode()
    return fields


def rules_played_here(game: str) -> str | None:
    """The rules version ``game`` is played under by this service (the game registry's), None if
    it is no game played here."""
    try:
        return get_game(game).rules_version
    except UnknownGameError:
        return None


def decode_header(
    game_id: str, reply: list[Any], rules_version_of: RulesVersionOf
) -> GameRecord | DamagedHeader | None:
    """A record from the read script's reply, checked against its stream's length."""
    outcome, second, flat = reply
    fields = dict(zip(flat[::2], flat[1::2], strict=True))
    if outcome == "wrongtype":
        return DamagedHeader(
            game_id, {second: OTHER_TYPE}, fields.get("status"), fields.get("archive_problem")
        )
    record = _record(game_id, fields, rules_version_of)
    length = int(second)
    # An archive that replaced the stream (trimmed) leaves none to count.
    if isinstance(record, GameRecord) and not record.trimmed and length != record.version:
        return DamagedHeader(
            game_id,
            {"version": f"is {record.version}, but the stream holds {length} events"},
            record.status,
            record.archive_problem,
        )
    return record


def _record(
    game_id: str, fields: Mapping[str, str], rules_version_of: RulesVersionOf
) -> GameRecord | DamagedHeader | None:
    # No header at all is no game (``create`` writes every field at once); a header without its
    # version is a damaged one.
    if not fields:
        return None
    header = _HeaderFields(fields)
    values = {
        "game": header.required("game"),
        "players": header.required("players", _text_list),
        "seed": header.required("seed", _seed),
        # Empty in a record of format 1, which has no commitment.
        "seed_salt": header.optional("seed_salt") or None,
        "seed_commitment": header.optional("seed_commitment") or None,
        "options": header.required("options", _json_object),
        "rules_version": header.required("rules_version"),
        "record_format": header.optional("record_format", _record_format) or LEGACY_FORMAT,
        "created_at": header.required("created_at", _instant),
        "version": header.required("version", _integer),
        "status": header.required("status", _status),
        "head_hash": header.required("head_hash"),
        "token_sha256": header.required("token_sha256"),
        "seat_tokens_sha256": header.optional("seat_tokens_sha256", _text_list) or [],
        "seat_token_generations": header.optional("seat_token_generations", _int_list) or None,
        "finished_at": header.optional("finished_at"),
        "result": header.optional("result", _json_object),
        "archive_problem": header.optional("archive_problem"),
        "trimmed": fields.get("trimmed") == "1",
        "reopened": fields.get("reopened") == "1",
        "source_checkpoints": header.optional("source_checkpoints", _object_list),
    }
    _check_rules(values["game"], values["rules_version"], header.problems, rules_version_of)
    if header.problems:
        return DamagedHeader(
            game_id, header.problems, fields.get("status"), fields.get("archive_problem")
        )
    return GameRecord(id=game_id, **values)


def _check_rules(
    game: str | None,
    rules_version: str | None,
    problems: dict[str, str],
    rules_version_of: RulesVersionOf,
) -> None:
    """A record is played by a game of this service, under the rules it plays: a header naming
    another game or another version of the rules is damaged (it was checked at creation)."""
    if game is None:
        return
    played = rules_version_of(game)
    if played is None:
        problems["game"] = f"is {game!r}, no game played here"
        return
    if rules_version is not None and rules_version != played:
        problems["rules_version"] = f"is {rules_version!r}, not {played!r}, the rules played here"


class _HeaderFields:
    """Decodes a stored header's fields one at a time, noting each that does not decode."""

    def __init__(self, fields: Mapping[str, str]) -> None:
        self.fields = fields
        # Field name -> what is wrong with it.
        self.problems: dict[str, str] = {
            name: "is not UTF-8 text" for name, raw in fields.items() if not_utf8(raw)
        }

    def required(self, name: str, decode: Callable[[str], Any] = str) -> Any:
        if name not in self.fields:
            self.problems[name] = "is missing"
        return self.optional(name, decode)

    def optional(self, name: str, decode: Callable[[str], Any] = str) -> Any:
        """The decoded field, or None when it is absent or does not decode."""
        raw = self.fields.get(name)
        if raw is None or name in self.problems:
            return None
        try:
            return decode(raw)
        except ValueError as error:
            self.problems[name] = str(error)
            return None


INTEGER = re.compile(r"-?[0-9]+")

# Each decoder raises ValueError saying what is wrong, in words that follow the field's name.


def _integer(raw: str) -> int:
    # Stricter than int(), which takes spaces, underscores and other digits than ASCII.
    if not INTEGER.fullmatch(raw):
        raise ValueError("is not an integer")
    return int(raw)


# The seed is an unsigned 64-bit integer (spec/determinism.md).
_SEEDS = range(2**64)


def _seed(raw: str) -> int:
    value = _integer(raw)
    if value not in _SEEDS:
        raise ValueError("is not an unsigned 64-bit integer")
    return value


# An RFC 3339 instant in UTC, as the service writes them (2025-02-03T10:00:00.123Z) or an import
# keeps them; the date and time must exist too.
_INSTANT = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-]00:00)"
)


def _instant(raw: str) -> str:
    if not _INSTANT.fullmatch(raw):
        raise ValueError("is not an RFC 3339 UTC instant")
    try:
        datetime.fromisoformat(raw.upper().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError("is not an instant that exists") from None
    return raw


def _json(raw: str) -> Any:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ValueError("is not JSON") from None


def _json_object(raw: str) -> dict[str, Any]:
    value = _json(raw)
    if not isinstance(value, dict):
        raise ValueError("is not a JSON object")
    return value


def _text_list(raw: str) -> list[str]:
    value = _json(raw)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("is not a JSON list of strings")
    return value


def _object_list(raw: str) -> list[dict[str, Any]]:
    value = _json(raw)
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise ValueError("is not a JSON list of objects")
    return value


def _int_list(raw: str) -> list[int]:
    value = _json(raw)
    if not isinstance(value, list) or not all(type(item) is int for item in value):
        raise ValueError("is not a JSON list of integers")
    return value


def _status(raw: str) -> str:
    if raw not in STATUSES:
        raise ValueError(f"is {raw!r}, not one of {', '.join(STATUSES)}")
    return raw


def _record_format(raw: str) -> int:
    value = _integer(raw)
    if value not in (LEGACY_FORMAT, FORMAT):
        raise ValueError(f"is {value}, not a record format this service reads")
    return value


# An event ----------------------------------------------------------------------------------------


def encode_event(body: Mapping[str, Any], at: str, hash: str) -> tuple[str, str, str]:
    """An event's fields as the scripts take them: body (its canonical JSON), at, hash."""
    return canonical_json(body), at, hash


def decode_event(game_id: str, entry_id: str, fields: Mapping[str, str]) -> StoredEvent:
    """The stream's entry ``entry_id`` (``0-<seq>``), read undecoded (``text``)."""
    seq = int(entry_id.partition("-")[2])
    try:
        body_json, at, hash = fields["body"], fields["at"], fields["hash"]
    except KeyError as missing:
        raise damaged_event(game_id, seq, f"it has no {missing.args[0]}") from None
    for name, value in (("body", body_json), ("at", at), ("hash", hash)):
        if not_utf8(value):
            raise damaged_event(game_id, seq, f"its {name} is not UTF-8 text")
    try:
        body = orjson.loads(body_json)
    except orjson.JSONDecodeError:
        raise damaged_event(game_id, seq, "its body is not JSON") from None
    if not isinstance(body, dict):
        raise damaged_event(game_id, seq, "its body is not a JSON object")
    if not isinstance(body.get("type"), str):
        raise damaged_event(game_id, seq, "its body has no type")
    return StoredEvent(seq=seq, body=body, at=at, hash=hash)
