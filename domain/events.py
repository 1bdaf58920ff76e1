"""Checks of an event's shape, shared by every game.

These raise InvalidEventError (a 400: the body is malformed) and never judge the rules: a card
that exists but is not in hand is the game's business (IllegalMoveError, a 422).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from domain.errors import InvalidEventError


def event_type(event: Any, game: str, types: Sequence[str]) -> str:
    """The type of an event of ``game``, one of ``types``; InvalidEventError for anything else."""
    if not isinstance(event, Mapping):
        raise InvalidEventError("an event must be a JSON object", {"event": "an object"})
    kind = event.get("type")
    if kind not in types:
        raise InvalidEventError(
            f"unknown event type {kind!r}; {game}'s events are {', '.join(types)}",
            {"type": f"one of {', '.join(types)}"},
        )
    return str(kind)


def check_fields(
    event: Mapping[str, Any], required: Collection[str], optional: Collection[str] = ()
) -> None:
    """Every required field present, nothing beyond ``type``, required and optional."""
    missing = [name for name in required if name not in event]
    unknown = [
        name for name in event if name != "type" and name not in required and name not in optional
    ]
    if missing or unknown:
        details = {name: "required" for name in missing}
        details.update({name: "unknown field" for name in unknown})
        kind = event.get("type")
        raise InvalidEventError(f"a {kind!r} event has wrong fields: {details}", details)


def seat_field(event: Mapping[str, Any], name: str, players: int) -> int:
    value = event[name]
    if not _is_int(value) or not 0 <= value < players:
        raise InvalidEventError(
            f"{name} must be a seat from 0 to {players - 1}, got {value!r}",
            {name: f"a seat 0..{players - 1}"},
        )
    return int(value)


def value_field(
    event: Mapping[str, Any], name: str, is_valid: Callable[[Any], bool], what: str
) -> Any:
    value = event[name]
    if not is_valid(value):
        raise InvalidEventError(f"{name} must be {what}, got {value!r}", {name: what})
    return value


def list_field(
    event: Mapping[str, Any],
    name: str,
    is_valid: Callable[[Any], bool],
    what: str,
    length: int | None = None,
) -> list[Any]:
    value = event[name]
    expected = f"a list of {length} x {what}" if length is not None else f"a list of {what}"
    if (
        not isinstance(value, list)
        or (length is not None and len(value) != length)
        or not all(is_valid(item) for item in value)
    ):
        raise InvalidEventError(f"{name} must be {expected}, got {value!r}", {name: expected})
    return value


def _is_int(value: Any) -> bool:
    # JSON true/false arrive as bool, a subclass of int: they are not seats or values.
    return isinstance(value, int) and not isinstance(value, bool)


is_int = _is_int
