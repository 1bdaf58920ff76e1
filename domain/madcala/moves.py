"""Madcala's events, read into typed moves. Only the shape is judged here (InvalidEventError, 400):
fields, types, seats and spaces in range, ids that exist in this game's catalog, ``drawn`` only in
observed mode. Whether the rules allow the move now, and whether each choice is one the effects
ask for, is the rules' business (IllegalMoveError, a 422).

The choices an effect asks for travel in the event (see ``CHOICE_FIELDS``). List-valued choices are
consumed in the order the effects ask for them; a choice left out is taken by default when the
effect has exactly one option.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from domain.errors import InvalidEventError
from domain.events import check_fields, event_type, is_int, list_field, seat_field, value_field
from domain.madcala.catalog import EFFECTS
from domain.madcala.state import COMMONER_PRICE, SEATS, SPACES, MadcalaState

# The choice fields, in the order a body lists them.
HOME_SPACE: Final = "home_space"
PLACE: Final = "place"
REFRESH: Final = "refresh"
STRIKE: Final = "strike"
STRIKE_CARD: Final = "strike_card"
DRAWN: Final = "drawn"
# Single-valued choices; the others are lists.
SINGLE_CHOICES: Final = (HOME_SPACE, PLACE)
CHOICE_FIELDS: Final = (HOME_SPACE, PLACE, REFRESH, STRIKE, STRIKE_CARD, DRAWN)
# The longest lists an event may hold: of choices (and pay, effects), and of seats or cards.
MAX_CHOICES: Final = 16
MAX_LIST: Final = 64


@dataclass(frozen=True, slots=True)
class Choices:
    """The choices an event makes for its effects, by field; a field left out is absent."""

    given: tuple[tuple[str, tuple[Any, ...]], ...] = ()

    def as_dict(self) -> dict[str, tuple[Any, ...]]:
        return dict(self.given)


@dataclass(frozen=True, slots=True)
class MoveShards:
    type: ClassVar[str] = "move"
    player: int
    # None: the no-Shard fallback.
    space: int | None
    # The seats of the normal Shards in the order placed (None: own first, the default).
    order: tuple[int, ...] | None
    # Which Doubler lands last when both are taken (None: the mover's own, the default).
    last_doubler: int | None
    choices: Choices


@dataclass(frozen=True, slots=True)
class UsePlusOne:
    type: ClassVar[str] = "plus_one"
    player: int
    card: str
    pay: tuple[int, ...]
    # The card's effects in the order performed (None: as printed).
    effects: tuple[str, ...] | None
    choices: Choices


@dataclass(frozen=True, slots=True)
class BuyCommoner:
    type: ClassVar[str] = "buy_commoner"
    player: int
    pay: tuple[int, ...]
    choices: Choices


@dataclass(frozen=True, slots=True)
class PlayCommoner:
    type: ClassVar[str] = "commoner"
    player: int
    card: int
    # The effects performed, in order (None: all of them, as printed).
    effects: tuple[str, ...] | None
    choices: Choices


@dataclass(frozen=True, slots=True)
class EndTurn:
    type: ClassVar[str] = "end_turn"
    player: int
    discard: tuple[int, ...]


Move = MoveShards | UsePlusOne | BuyCommoner | PlayCommoner | EndTurn

EVENT_TYPES: Final = (
    MoveShards.type,
    UsePlusOne.type,
    BuyCommoner.type,
    PlayCommoner.type,
    EndTurn.type,
)

_MOVE_CHOICES: Final = (HOME_SPACE, REFRESH, DRAWN)
_CARD_CHOICES: Final = (REFRESH, STRIKE, STRIKE_CARD, DRAWN)


def parse_event(state: MadcalaState, event: Any) -> Move:
    kind = event_type(event, "Madcala", EVENT_TYPES)
    if kind == MoveShards.type:
        check_fields(event, ("player", "space"), ("order", "last_doubler", *_MOVE_CHOICES))
        player = seat_field(event, "player", SEATS)
        space = event["space"]
        if space is not None:
            space = _space(event, "space")
        order = None
        if "order" in event:
            order = tuple(list_field(event, "order", _is_seat, "a seat (0 or 1)"))
            if len(order) > MAX_LIST:
                raise InvalidEventError("order is too long", {"order": "too long"})
        last = seat_field(event, "last_doubler", SEATS) if "last_doubler" in event else None
        return MoveShards(player, space, order, last, _choices(state, event, _MOVE_CHOICES))
    if kind == UsePlusOne.type:
        check_fields(event, ("player", "card"), ("pay", "effects", PLACE, *_CARD_CHOICES))
        player = seat_field(event, "player", SEATS)
        card = value_field(event, "card", state.catalog.is_plus_one, "a Plus-One card's id")
        pay = _pay(event) if "pay" in event else ()
        effects = _effects(event)
        return UsePlusOne(
            player, card, pay, effects, _choices(state, event, (PLACE, *_CARD_CHOICES))
        )
    if kind == BuyCommoner.type:
        check_fields(event, ("player", "pay"), (DRAWN,))
        player = seat_field(event, "player", SEATS)
        pay = tuple(list_field(event, "pay", _is_space, "a space 0..11", length=COMMONER_PRICE))
        return BuyCommoner(player, pay, _choices(state, event, (DRAWN,)))
    if kind == PlayCommoner.type:
        check_fields(event, ("player", "card"), ("effects", *_CARD_CHOICES))
        player = seat_field(event, "player", SEATS)
        name = value_field(event, "card", state.catalog.is_commoner, "a Commoner card's id")
        card = state.catalog.commoner_index[name]
        return PlayCommoner(player, card, _effects(event), _choices(state, event, _CARD_CHOICES))
    check_fields(event, ("player",), ("discard",))
    player = seat_field(event, "player", SEATS)
    discard: tuple[int, ...] = ()
    if "discard" in event:
        names = list_field(event, "discard", state.catalog.is_commoner, "a Commoner card's id")
        if len(names) > MAX_LIST:
            raise InvalidEventError("discard is too long", {"discard": "too long"})
        discard = tuple(state.catalog.commoner_index[name] for name in names)
    return EndTurn(player, discard)


def _choices(state: MadcalaState, event: Mapping[str, Any], allowed: tuple[str, ...]) -> Choices:
    given: list[tuple[str, tuple[Any, ...]]] = []
    for name in allowed:
        if name not in event:
            continue
        if name in SINGLE_CHOICES:
            given.append((name, (_space(event, name),)))
            continue
        values = event[name]
        if not isinstance(values, list) or len(values) > MAX_CHOICES:
            raise InvalidEventError(
                f"{name} must be a list of at most {MAX_CHOICES} choices, got {values!r}"[:300],
                {name: "a list"},
            )
        if name in (REFRESH, STRIKE_CARD):
            cards = list_field(event, name, state.catalog.is_plus_one, "a Plus-One card's id")
            given.append((name, tuple(cards)))
        elif name == STRIKE:
            given.append((name, tuple(_strike(item) for item in values)))
        else:
            if not state.observed:
                raise InvalidEventError(
                    "a seeded game draws its own Commoners: leave out drawn",
                    {DRAWN: "not allowed in seeded mode"},
                )
            names = list_field(event, name, state.catalog.is_commoner, "a Commoner card's id")
            given.append((name, tuple(state.catalog.commoner_index[n] for n in names)))
    return Choices(tuple(given))


def _strike(item: Any) -> tuple[int, int]:
    what = "an object {space: 0..11, seat: 0 or 1}"
    if (
        not isinstance(item, Mapping)
        or set(item) != {"space", "seat"}
        or not _is_space(item["space"])
        or not _is_seat(item["seat"])
    ):
        raise InvalidEventError(f"each strike must be {what}, got {item!r}"[:300], {STRIKE: what})
    return int(item["space"]), int(item["seat"])


def _pay(event: Mapping[str, Any]) -> tuple[int, ...]:
    pay = list_field(event, "pay", _is_space, "a space 0..11")
    if len(pay) > MAX_CHOICES:
        raise InvalidEventError("pay names too many Shards", {"pay": "too long"})
    return tuple(pay)


def _effects(event: Mapping[str, Any]) -> tuple[str, ...] | None:
    if "effects" not in event:
        return None
    effects = list_field(event, "effects", lambda name: name in EFFECTS, "an effect's name")
    if len(effects) > MAX_CHOICES:
        raise InvalidEventError("effects is too long", {"effects": "too long"})
    return tuple(effects)


def _space(event: Mapping[str, Any], name: str) -> int:
    return int(value_field(event, name, _is_space, "a space 0..11"))


def _is_space(value: Any) -> bool:
    return is_int(value) and 0 <= value < SPACES


def _is_seat(value: Any) -> bool:
    return is_int(value) and 0 <= value < SEATS
