"""A game's state as plain JSON data and back, for the service's snapshots.

A state is a frozen value: dataclasses, tuples, dicts, enums, numbers and strings, and the sort
order of a draw pile (a module-level function, or a dataclass that is one). ``encode_state`` walks
it into JSON data where each value that JSON has no word for carries a tag:

- a tuple is a JSON array; a list ``{"$list": [...]}``; a dict ``{"$dict": [[key, value], ...]}``;
  a frozenset ``{"$frozenset": [...]}``; an integer past 64 bits ``{"$int": "digits"}``;
- a dataclass ``{"$class": "module:Name", "fields": {...}}`` (the fields its constructor takes:
  the others are derived by the constructor again), an enum ``{"$enum": "module:Name", "name"}``,
  a function ``{"$fn": "module:name"}``;
- a field of the state that is the very value of the start state's (the catalog, the layout: what
  the header made) ``{"$start": "field"}``: the decoder rebuilds the start from the header anyway.

Classes, enums and functions are named only from the game's own package and the value modules
every game shares (``domain.chance``, ``domain.rng``), and looked up among the modules already
imported: decoding never imports anything, and runs no code but those classes' constructors. Data
that does not decode, or names anything else, raises ``UndecodableState``; so does a field whose
value is not of the kind its class declares (a string or a NaN where an ``int`` is declared):
such a state would fail far from here, in the rules, as an error of an innocent move.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import math
import sys
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from domain.game import Game

# The modules of values any game's state may hold besides its own package's.
SHARED_MODULES = ("domain.chance", "domain.rng")
_SMALLEST = -(2**63)
_LARGEST = 2**64 - 1
_TAGS = ("$list", "$dict", "$frozenset", "$int", "$float", "$class", "$enum", "$fn", "$start")


class UnencodableState(ValueError):
    """A state holding a value the codec has no word for (a lambda, a class of another package)."""


class UndecodableState(ValueError):
    """Data that is not a state this codec wrote for this game."""


def game_package(game: Game[Any]) -> str:
    """The package a game is defined in (its module's, or the module itself when it is one)."""
    module = type(game).__module__
    loaded = sys.modules.get(module)
    if loaded is not None and hasattr(loaded, "__path__"):
        return module
    return module.rpartition(".")[0] or module


def encode_state(game: Game[Any], state: Any, start: Any = None) -> Any:
    """``state`` as JSON data; the fields it shares with ``start`` (by identity) as references."""
    encoder = _Encoder(game_package(game))
    if start is not None and type(start) is type(state) and dataclasses.is_dataclass(state):
        fields: dict[str, Any] = {}
        for field in _init_fields(type(state)):
            value = getattr(state, field.name)
            if not _is_plain(value) and value is getattr(start, field.name):
                fields[field.name] = {"$start": field.name}
            else:
                fields[field.name] = encoder.encode(value)
        return {"$class": encoder.class_name(type(state)), "fields": fields}
    return encoder.encode(state)


def decode_state(game: Game[Any], data: Any, start: Any = None) -> Any:
    """The state ``encode_state`` wrote as ``data``; UndecodableState if it is not one."""
    decoder = _Decoder(game_package(game), start)
    try:
        state = decoder.decode(data, top=True)
    except UndecodableState:
        raise
    except Exception as error:  # a constructor's own check, a wrong field: the data is bad
        raise UndecodableState(f"{type(error).__name__}: {error}") from None
    if start is not None and type(state) is not type(start):
        raise UndecodableState(f"a {type(state).__name__}, not a {type(start).__name__}")
    return state


def _is_plain(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _init_fields(cls: type) -> list[dataclasses.Field[Any]]:
    return [field for field in dataclasses.fields(cls) if field.init]


def _allowed(module: str, package: str) -> bool:
    return module in SHARED_MODULES or module == package or module.startswith(package + ".")


class _Encoder:
    def __init__(self, package: str) -> None:
        self.package = package

    def name(self, thing: Any) -> str:
        module, qualname = thing.__module__, thing.__qualname__
        if not _allowed(module, self.package) or "<" in qualname:
            raise UnencodableState(f"{module}.{qualname} is not of the game's package")
        if _resolve(f"{module}:{qualname}", self.package) is not thing:
            raise UnencodableState(f"{module}.{qualname} is not found under its own name")
        return f"{module}:{qualname}"

    def class_name(self, cls: type) -> str:
        return self.name(cls)

    def encode(self, value: Any) -> Any:
        if value is None or isinstance(value, (bool, str)):
            return value
        if isinstance(value, enum.Enum):
            return {"$enum": self.name(type(value)), "name": value.name}
        if isinstance(value, int):
            if type(value) is not int:
                raise UnencodableState(f"an integer of type {type(value).__name__}")
            return value if _SMALLEST <= value <= _LARGEST else {"$int": str(value)}
        if isinstance(value, float):
            return value if math.isfinite(value) else {"$float": repr(value)}
        if type(value) is tuple:
            return [self.encode(item) for item in value]
        if type(value) is list:
            return {"$list": [self.encode(item) for item in value]}
        if type(value) is dict:
            return {"$dict": [[self.encode(k), self.encode(v)] for k, v in value.items()]}
        if type(value) is frozenset:
            return {"$frozenset": [self.encode(item) for item in value]}
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            fields = {
                field.name: self.encode(getattr(value, field.name))
                for field in _init_fields(type(value))
            }
            return {"$class": self.name(type(value)), "fields": fields}
        if inspect.isfunction(value):
            return {"$fn": self.name(value)}
        raise UnencodableState(f"no JSON word for a {type(value).__name__}")


class _Decoder:
    def __init__(self, package: str, start: Any) -> None:
        self.package = package
        self.start = start

    def decode(self, data: Any, top: bool = False) -> Any:
        if data is None or isinstance(data, (bool, int, float, str)):
            return data
        if isinstance(data, list):
            return tuple(self.decode(item) for item in data)
        if not isinstance(data, dict) or len(data) not in (1, 2):
            raise UndecodableState(f"not a value the codec writes: {type(data).__name__}")
        tag = next((name for name in _TAGS if name in data), None)
        if tag is None:
            raise UndecodableState(f"an object without a tag: {sorted(data)[:3]}")
        body = data[tag]
        if tag == "$class":
            return self.instance(body, data.get("fields"), top)
        if len(data) != 1 and tag != "$enum":
            raise UndecodableState(f"{tag} with other keys")
        if tag == "$list":
            return [self.decode(item) for item in _array(body)]
        if tag == "$dict":
            pairs = [_array(pair) for pair in _array(body)]
            if any(len(pair) != 2 for pair in pairs):
                raise UndecodableState("a $dict entry is not a pair")
            return {self.decode(key): self.decode(value) for key, value in pairs}
        if tag == "$frozenset":
            return frozenset(self.decode(item) for item in _array(body))
        if tag == "$int":
            if not isinstance(body, str) or not body.lstrip("-").isdigit():
                raise UndecodableState("$int is not digits")
            return int(body)
        if tag == "$float":
            if body not in ("nan", "inf", "-inf"):
                raise UndecodableState("$float is not nan or an infinity")
            return float(body)
        if tag == "$enum":
            cls = self.resolve(body)
            if not (isinstance(cls, type) and issubclass(cls, enum.Enum)):
                raise UndecodableState(f"{body} is not an enum")
            return cls[str(data.get("name"))]
        if tag == "$fn":
            function = self.resolve(body)
            if not inspect.isfunction(function):
                raise UndecodableState(f"{body} is not a function")
            return function
        raise UndecodableState("$start below the state's own fields")

    def resolve(self, name: Any) -> Any:
        if not isinstance(name, str):
            raise UndecodableState("a name that is not text")
        found = _resolve(name, self.package)
        if found is None:
            raise UndecodableState(f"{name} is not of the game's package")
        return found

    def instance(self, name: Any, fields: Any, top: bool) -> Any:
        cls = self.resolve(name)
        if not (isinstance(cls, type) and dataclasses.is_dataclass(cls)):
            raise UndecodableState(f"{name} is not a dataclass")
        if not isinstance(fields, dict):
            raise UndecodableState(f"{name} without its fields")
        names = {field.name for field in _init_fields(cls)}
        values: dict[str, Any] = {}
        for field, data in fields.items():
            if field not in names:
                raise UndecodableState(f"{name} has no field {field!r}")
            if isinstance(data, dict) and set(data) == {"$start"}:
                if not top or data["$start"] != field or type(self.start) is not cls:
                    raise UndecodableState(f"a $start reference where none can be: {field!r}")
                values[field] = getattr(self.start, field)
            else:
                values[field] = self.decode(data)
        declared = _field_checks(cls)
        for field, value in values.items():
            if field in declared and not declared[field](value):
                raise UndecodableState(f"{name}.{field} is not of its declared type")
        return cls(**values)


@cache
def _field_checks(cls: type) -> dict[str, Callable[[Any], bool]]:
    """A check per field of ``cls``: is a value of the type the class declares for it? None if
    its annotations do not resolve."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:
        return {}
    return {name: _check(hint) for name, hint in hints.items()}


def _anything(value: Any) -> bool:
    return True


@cache
def _check(hint: Any) -> Callable[[Any], bool]:
    """Whether a value is of the kind ``hint`` declares, as far as it can be told: a form of type
    this does not know (a type variable, a string left unresolved) admits anything. Made once per
    type: a snapshot's decoding checks every field of every value of its state."""
    if hint is Any or isinstance(hint, typing.TypeVar):
        return _anything
    if hint is None or hint is type(None):
        return lambda value: value is None
    if hint is bool:
        return lambda value: isinstance(value, bool)
    if hint is int:
        return lambda value: isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return lambda value: (
            isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        )
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:
        members = [_check(arg) for arg in args]
        return lambda value: any(member(value) for member in members)
    if origin is typing.Literal:
        return lambda value: value in args
    if origin is tuple:
        return _tuple_check(args)
    if origin in (list, frozenset, set) and args:
        item = _check(args[0])
        return lambda value: isinstance(value, origin) and all(map(item, value))
    if origin in (dict, Mapping) and len(args) == 2:
        key, item = _check(args[0]), _check(args[1])
        return lambda value: (
            isinstance(value, dict) and all(key(k) and item(v) for k, v in value.items())
        )
    if origin is Callable or hint is Callable:
        return callable
    if isinstance(origin, type):
        return lambda value: isinstance(value, origin)
    if isinstance(hint, type):
        return lambda value: isinstance(value, hint)
    return _anything


def _tuple_check(args: tuple[Any, ...]) -> Callable[[Any], bool]:
    if len(args) == 2 and args[1] is Ellipsis:
        item = _check(args[0])
        return lambda value: isinstance(value, tuple) and all(map(item, value))
    if not args:
        return lambda value: isinstance(value, tuple)
    items = [_check(arg) for arg in args]
    return lambda value: (
        isinstance(value, tuple)
        and len(value) == len(items)
        and all(check(item) for check, item in zip(items, value, strict=True))
    )


def _array(data: Any) -> list[Any]:
    if not isinstance(data, list):
        raise UndecodableState("an array expected")
    return data


def _resolve(name: str, package: str) -> Any:
    """What ``module:qualname`` names, if the module is allowed and already imported."""
    module, _, qualname = name.partition(":")
    if not qualname or not _allowed(module, package) or "<" in qualname:
        return None
    found: Any = sys.modules.get(module)
    for part in qualname.split("."):
        if found is None or part.startswith("__"):
            return None
        found = getattr(found, part, None)
    if found is None or getattr(found, "__module__", None) != module:
        return None
    return found
