"""Every move that may come next, as complete event bodies in a fixed order, without duplicates.

Cards are listed in canonical order. A Double Lemur is listed once per target, with the target
written out even with two players (where the event may leave it out). A round_discard is listed once
per sub-multiset of the hand and a deal once per multiset of three unseen cards, in canonical order
(any order of the same cards is accepted too).

In observed mode the moves name chance outcomes (the cards dealt, the card drawn or revealed). The
recorder is offered exactly the cards still unseen; a seat is offered what it cannot rule out
(``seat_legal_moves``), since the unseen cards alone would tell it the other hands.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement
from typing import Any

from domain.mada.catalog import DOUBLE_LEMUR, HAND_LIMIT, Card, card_order
from domain.mada.state import (
    CHOOSE_TARGET,
    DEAL,
    ROUND_DISCARD,
    SCORPION_DISCARD,
    MadaState,
    can_draw_any,
    cards_to_reshuffle,
    may_play,
    scorpion_choices,
)


def legal_moves(state: MadaState) -> list[dict[str, Any]]:
    return _legal_moves(state, state.draw_pile.cards)


def seat_legal_moves(state: MadaState, seat: int) -> list[dict[str, Any]]:
    """The moves of ``seat``, whose decision is awaited, naming only outcomes it cannot rule out.

    In observed mode a face-down card may be any card the seat does not see: one still unseen or one
    in another seat's hand. Deals and draws from the draw pile are offered from that pool, so the
    list is the same whatever the other hands hold. The reducer still checks the real unseen cards:
    a listed move naming a card that is in fact in another hand is refused (IllegalMoveError, 422).
    A draw from an empty pile comes from a reshuffle of the discards and piles, which everyone sees,
    so those cards are offered as they are to the recorder. In seeded mode no move names a chance
    outcome and the only cards named are the seat's own: the moves are the recorder's.
    """
    if not state.observed:
        return legal_moves(state)
    others = (card for other, hand in enumerate(state.hands) if other != seat for card in hand)
    return _legal_moves(state, (*state.draw_pile.cards, *others))


def _legal_moves(state: MadaState, face_down: tuple[Card, ...]) -> list[dict[str, Any]]:
    """The moves, with deals and observed draws from the draw pile taken from ``face_down``."""
    if state.finished:
        return []
    pending = state.pending
    if pending is None:
        return _turn_moves(state, state.turn, face_down)
    seat = pending.player
    hand = state.hands[seat]
    if pending.kind == DEAL:
        deals = _possible_deals(face_down)
        return [{"type": "deal", "player": seat, "cards": list(cards)} for cards in deals]
    if pending.kind == SCORPION_DISCARD:
        return [
            {"type": "scorpion_discard", "player": seat, "card": card}
            for card in _canonical(scorpion_choices(hand))
        ]
    if pending.kind == CHOOSE_TARGET:
        return [
            {"type": "choose_target", "player": seat, "target": target}
            for target in _others(state, seat)
        ]
    assert pending.kind == ROUND_DISCARD, pending
    return [
        {"type": "round_discard", "player": seat, "cards": list(cards)}
        for cards in _sub_multisets(hand)
    ]


def _turn_moves(state: MadaState, seat: int, face_down: tuple[Card, ...]) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = []
    pile = state.piles[seat]
    for card in _canonical(state.hands[seat]):
        if card == DOUBLE_LEMUR:
            moves.extend(
                {"type": "play", "player": seat, "card": card, "target": target}
                for target in _others(state, seat)
            )
        elif may_play(pile, card):
            moves.append({"type": "play", "player": seat, "card": card})
    drawable = _drawable(state, face_down)
    if len(state.hands[seat]) < HAND_LIMIT:
        moves.extend(_with_card({"type": "draw", "player": seat}, card) for card in drawable)
    moves.extend(_with_card({"type": "try_luck", "player": seat}, card) for card in drawable)
    return moves


def _drawable(state: MadaState, face_down: tuple[Card, ...]) -> tuple[Card | None, ...]:
    """The cards a draw may reveal (observed), or one None (seeded) if any card can be drawn."""
    if not can_draw_any(state):
        return ()
    if not state.observed:
        return (None,)
    if state.draw_pile:
        return _canonical(face_down)
    return _canonical(cards_to_reshuffle(state))


def _with_card(body: dict[str, Any], card: Card | None) -> dict[str, Any]:
    return body if card is None else {**body, "card": card}


def _possible_deals(face_down: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """Every multiset of three of ``face_down``: at most C(16 + 2, 3) = 816 (16 kinds of card)."""
    available = Counter(face_down)
    kinds = _canonical(face_down)
    return [
        cards
        for cards in combinations_with_replacement(kinds, HAND_LIMIT)
        if not Counter(cards) - available
    ]


def _sub_multisets(hand: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    ordered = sorted(hand, key=card_order)
    # combinations of a sorted hand come out sorted; equal cards repeat them, hence dict.fromkeys.
    return [
        cards
        for size in range(len(ordered) + 1)
        for cards in dict.fromkeys(combinations(ordered, size))
    ]


def _canonical(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(dict.fromkeys(cards), key=card_order))


def _others(state: MadaState, seat: int) -> list[int]:
    return [other for other in range(state.players) if other != seat]
