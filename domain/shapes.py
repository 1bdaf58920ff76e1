"""Builders of JSON Schemas: how a game declares the shapes of its state, events and options.

A game's shapes are plain data (JSON Schema, the subset every OpenAPI tool reads: ``type``,
``properties``, ``required``, ``additionalProperties``, ``items``, ``enum``, bounds, ``pattern``,
``anyOf``/``oneOf``, ``uniqueItems``; null as a ``"null"`` type), written next to the rules that
produce or read the values. The service turns them into the API's OpenAPI document; the domain's
tests check every state, move and event of random games against them.

They describe the shape only, as ``domain.events`` checks it (a 400 when it is not met): whether a
move is legal, or a card in this game's deck, stays the rules' business.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Schema = dict[str, Any]


def integer(minimum: int | None = None, maximum: int | None = None, **extra: Any) -> Schema:
    schema: Schema = {"type": "integer", **extra}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


def string(**extra: Any) -> Schema:
    """A string; ``extra`` takes ``pattern``, ``minLength``, ``maxLength``, ``description``."""
    return {"type": "string", **extra}


def boolean(**extra: Any) -> Schema:
    return {"type": "boolean", **extra}


def one_of_values(values: Sequence[Any], **extra: Any) -> Schema:
    """Exactly one of ``values`` (strings, numbers, or both)."""
    kinds = sorted({_json_type(value) for value in values})
    schema: Schema = {"enum": list(values), **extra}
    if len(kinds) == 1:
        schema = {"type": kinds[0], **schema}
    return schema


def array(
    items: Schema,
    min_items: int | None = None,
    max_items: int | None = None,
    *,
    unique: bool = False,
    **extra: Any,
) -> Schema:
    schema: Schema = {"type": "array", "items": items, **extra}
    if min_items is not None:
        schema["minItems"] = min_items
    if max_items is not None:
        schema["maxItems"] = max_items
    if unique:
        schema["uniqueItems"] = True
    return schema


def exactly(items: Schema, count: int, **extra: Any) -> Schema:
    """A list of ``count`` values."""
    return array(items, count, count, **extra)


def obj(
    required: Mapping[str, Schema], optional: Mapping[str, Schema] | None = None, **extra: Any
) -> Schema:
    """An object of the ``required`` and ``optional`` fields, and nothing else."""
    schema: Schema = {
        "type": "object",
        "properties": {**required, **(optional or {})},
        "additionalProperties": False,
        **extra,
    }
    if required:
        schema["required"] = list(required)
    return schema


def event(
    kind: str, required: Mapping[str, Schema], optional: Mapping[str, Schema] | None = None
) -> Schema:
    """An event of type ``kind``: its ``type``, the ``required`` fields and the ``optional``
    ones, nothing else."""
    return obj({"type": one_of_values([kind]), **required}, optional)


def keyed(keys: Sequence[str], values: Schema, **extra: Any) -> Schema:
    """An object with exactly ``keys``, each holding a ``values``."""
    return obj({key: values for key in keys}, **extra)


def nullable(schema: Schema) -> Schema:
    """``schema``, or null."""
    kind = schema.get("type")
    if isinstance(kind, str):
        nulled = {**schema, "type": [kind, "null"]}
        if "enum" in nulled:
            nulled["enum"] = [*nulled["enum"], None]
        return nulled
    return {"anyOf": [schema, {"type": "null"}]}


def described(schema: Schema, description: str) -> Schema:
    return {**schema, "description": description}


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, str):
        return "string"
    raise TypeError(f"no JSON type for {value!r} in an enum")
