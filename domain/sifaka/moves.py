"""Sifaka's events, read into typed moves. Only the shape is judged here (InvalidEventError, a
400): fields, types, seats and values in range, cards of this game's catalog, and the fields that
only an observed game (or only a seeded one) takes. Whether the rules allow the move now is
``rules.check``'s business.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, ClassVar, Final

from domain.errors import InvalidEventError
from domain.events import check_fields, event_type, is_int, list_field, seat_field, value_field
from domain.sifaka.catalog import MAX_COUNTER_VALUE, MAX_PALMS
from domain.sifaka.geometry import ROTATIONS
from domain.sifaka.state import SifakaState

# Anchors are checked for range only to keep numbers sane; the rules decide where a card fits.
MAX_COORDINATE: Final = 1000


@dataclass(frozen=True, slots=True)
class Deal:
    type: ClassVar[str] = "deal"
    player: int
    card: int


@dataclass(frozen=True, slots=True)
class Place:
    type: ClassVar[str] = "place"
    player: int
    # None: the card fits nowhere and is discarded.
    x: int | None
    y: int | None
    rotation: int


@dataclass(frozen=True, slots=True)
class Move:
    type: ClassVar[str] = "move"
    player: int
    # The step numbers (ascending, from 1) at which the sifaka turns to face an arrow it entered.
    turns: tuple[int, ...]
    # Observed mode: the card drawn after the move, if the pile held one.
    draw: int | None
    # Observed mode: the value of the counter taken where the move ends, if one lies there.
    counter: int | None


Action = Deal | Place | Move

EVENT_TYPES: Final = (Deal.type, Place.type, Move.type)

_A_CARD: Final = "the id of a card of this game's catalog"


def parse_event(state: SifakaState, event: Any) -> Action:
    kind = event_type(event, "Sifaka", EVENT_TYPES)
    players = state.players
    if kind == Deal.type:
        if not state.observed:
            raise InvalidEventError(
                "a seeded game deals its own cards: deal events belong to observed games",
                {"type": "deal only in observed mode"},
            )
        check_fields(event, ("player", "card"))
        player = seat_field(event, "player", players)
        return Deal(player, value_field(event, "card", state.catalog.is_card, _A_CARD))
    if kind == Place.type:
        check_fields(event, ("player",), ("x", "y", "rotation"))
        return _place(event, seat_field(event, "player", players))
    check_fields(event, ("player",), ("turns", "draw", "counter"))
    player = seat_field(event, "player", players)
    turns = _turns(event)
    return Move(player, turns, _drawn(state, event), _counter(state, event))


def _place(event: Mapping[str, Any], player: int) -> Place:
    given = [name for name in ("x", "y") if name in event]
    if not given:
        if "rotation" in event:
            raise InvalidEventError(
                "a rotation needs a position: give x and y, or none of x, y and rotation to"
                " discard a card that fits nowhere",
                {"x": "required with rotation", "y": "required with rotation"},
            )
        return Place(player, None, None, 0)
    if len(given) == 1:
        missing = "y" if given == ["x"] else "x"
        raise InvalidEventError(
            f"a place event gives both x and y (or neither, to discard): {missing} is missing",
            {missing: "required with " + given[0]},
        )
    x = value_field(event, "x", _is_coordinate, _A_COORDINATE)
    y = value_field(event, "y", _is_coordinate, _A_COORDINATE)
    rotation = 0
    if "rotation" in event:
        rotation = value_field(event, "rotation", _is_rotation, "0, 90, 180 or 270")
    return Place(player, int(x), int(y), int(rotation))


_A_COORDINATE: Final = f"an integer from {-MAX_COORDINATE} to {MAX_COORDINATE}"


def _is_coordinate(value: Any) -> bool:
    return is_int(value) and abs(value) <= MAX_COORDINATE


def _is_rotation(value: Any) -> bool:
    return is_int(value) and value in ROTATIONS


def _turns(event: Mapping[str, Any]) -> tuple[int, ...]:
    if "turns" not in event:
        return ()
    if isinstance(event["turns"], list) and not event["turns"]:
        # Most moves turn nowhere: no step to check (what the checks below find, read sooner).
        return ()
    what = f"step numbers 1..{MAX_PALMS}, ascending, none twice"
    turns = list_field(event, "turns", lambda v: is_int(v) and 1 <= v <= MAX_PALMS, what)
    if any(later <= earlier for earlier, later in pairwise(turns)):
        raise InvalidEventError(f"turns must be {what}, got {turns!r}", {"turns": what})
    return tuple(map(int, turns))


def _drawn(state: SifakaState, event: Mapping[str, Any]) -> int | None:
    if not state.observed:
        if "draw" in event:
            raise InvalidEventError(
                "a seeded game draws its own cards: leave out draw",
                {"draw": "not allowed in seeded mode"},
            )
        return None
    if "draw" not in event:
        if state.draw_pile:
            raise InvalidEventError(
                "an observed game needs the card drawn after the move: the draw pile still holds"
                f" {len(state.draw_pile)} card(s)",
                {"draw": "required while the draw pile holds cards"},
            )
        return None
    card: int = value_field(event, "draw", state.catalog.is_card, _A_CARD)
    return card


def _counter(state: SifakaState, event: Mapping[str, Any]) -> int | None:
    if "counter" not in event:
        return None
    if not state.observed:
        raise InvalidEventError(
            "a seeded game knows its counters: leave out counter",
            {"counter": "not allowed in seeded mode"},
        )
    what = f"the value of the counter taken, 1 to {MAX_COUNTER_VALUE}"
    value: int = value_field(
        event, "counter", lambda v: is_int(v) and 1 <= v <= MAX_COUNTER_VALUE, what
    )
    return value
