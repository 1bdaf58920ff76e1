"""Mada's events, read into typed moves. Only the shape is judged here (InvalidEventError, a 400):
fields, types, seats in range, cards that exist in this game's catalog. Whether the rules allow the
move now is ``rules.check``'s business.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from domain.errors import InvalidEventError
from domain.events import check_fields, event_type, list_field, seat_field, value_field
from domain.mada.catalog import DOUBLE_LEMUR, HAND_LIMIT, Card
from domain.mada.state import MadaState


@dataclass(frozen=True, slots=True)
class Deal:
    type: ClassVar[str] = "deal"
    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Play:
    type: ClassVar[str] = "play"
    player: int
    card: Card
    # Only with a Double Lemur; None with two players means the opponent.
    target: int | None


@dataclass(frozen=True, slots=True)
class Draw:
    type: ClassVar[str] = "draw"
    player: int
    # The card the recorder saw (observed mode); None in seeded mode.
    card: Card | None


@dataclass(frozen=True, slots=True)
class TryLuck:
    type: ClassVar[str] = "try_luck"
    player: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class ScorpionDiscard:
    type: ClassVar[str] = "scorpion_discard"
    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class ChooseTarget:
    type: ClassVar[str] = "choose_target"
    player: int
    target: int


@dataclass(frozen=True, slots=True)
class RoundDiscard:
    type: ClassVar[str] = "round_discard"
    player: int
    # In the order they go on the discard.
    cards: tuple[Card, ...]


Move = Deal | Play | Draw | TryLuck | ScorpionDiscard | ChooseTarget | RoundDiscard

EVENT_TYPES = (
    Deal.type,
    Play.type,
    Draw.type,
    TryLuck.type,
    ScorpionDiscard.type,
    ChooseTarget.type,
    RoundDiscard.type,
)

_A_CARD = "a card of this game's catalog: a Cactus value, 'lemur', 'double_lemur' or 'scorpion'"


def parse_event(state: MadaState, event: Any) -> Move:
    kind = event_type(event, "Mada", EVENT_TYPES)
    players = state.players
    if kind == Deal.type:
        if not state.observed:
            raise InvalidEventError(
                "a seeded game deals its own cards: deal events belong to observed games",
                {"type": "deal only in observed mode"},
            )
        check_fields(event, ("player", "cards"))
        player = seat_field(event, "player", players)
        cards = list_field(event, "cards", state.catalog.is_card, _A_CARD, length=HAND_LIMIT)
        return Deal(player, tuple(cards))
    if kind == Play.type:
        check_fields(event, ("player", "card"), ("target",))
        player = seat_field(event, "player", players)
        card = _card(state, event, "card")
        return Play(player, card, _target(event, card, players))
    if kind in (Draw.type, TryLuck.type):
        check_fields(event, ("player",), ("card",))
        player = seat_field(event, "player", players)
        seen = _seen_card(state, event)
        return Draw(player, seen) if kind == Draw.type else TryLuck(player, seen)
    if kind == ScorpionDiscard.type:
        check_fields(event, ("player", "card"))
        return ScorpionDiscard(seat_field(event, "player", players), _card(state, event, "card"))
    if kind == ChooseTarget.type:
        check_fields(event, ("player", "target"))
        return ChooseTarget(
            seat_field(event, "player", players), seat_field(event, "target", players)
        )
    check_fields(event, ("player", "cards"))
    player = seat_field(event, "player", players)
    return RoundDiscard(player, tuple(list_field(event, "cards", state.catalog.is_card, _A_CARD)))


def _card(state: MadaState, event: Mapping[str, Any], name: str) -> Card:
    card: Card = value_field(event, name, state.catalog.is_card, _A_CARD)
    return card


def _target(event: Mapping[str, Any], card: Card, players: int) -> int | None:
    if "target" in event:
        if card != DOUBLE_LEMUR:
            raise InvalidEventError(
                f"only a Double Lemur takes a target, not {card!r}",
                {"target": "only with a double_lemur"},
            )
        return seat_field(event, "target", players)
    if card == DOUBLE_LEMUR and players > 2:
        raise InvalidEventError(
            f"with {players} players a Double Lemur needs the seat whose pile it swaps with",
            {"target": "required with a double_lemur and 3 or more players"},
        )
    return None


def _seen_card(state: MadaState, event: Mapping[str, Any]) -> Card | None:
    # The same checks DrawPile.draw makes, here so that a malformed event is a 400 before any rule
    # (whose turn it is, an empty draw pile) is judged.
    if not state.observed:
        if "card" in event:
            raise InvalidEventError(
                "a seeded game draws its own cards: leave out the card",
                {"card": "not allowed in seeded mode"},
            )
        return None
    if "card" not in event:
        raise InvalidEventError(
            "an observed game needs the card that was drawn", {"card": "required"}
        )
    return _card(state, event, "card")
