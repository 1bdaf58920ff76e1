"""Every move that may come next, as complete event bodies in a fixed order, without duplicates.

Cards are listed in canonical order. A Double Lemur is listed once per target, with the target
written out even with two players (where the event may leave it out). A round_discard is listed once
per sub-multiset of the hand and a deal once per multiset of three unseen cards, in canonical order
(any order of the same cards is accepted too).
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
    if state.finished:
        return []
    pending = state.pending
    if pending is None:
        return _turn_moves(state, state.turn)
    seat = pending.player
    hand = state.hands[seat]
    if pending.kind == DEAL:
        deals = _possible_deals(state)
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


def _turn_moves(state: MadaState, seat: int) -> list[dict[str, Any]]:
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
    drawable = _drawable(state)
    if len(state.hands[seat]) < HAND_LIMIT:
        moves.extend(_with_card({"type": "draw", "player": seat}, card) for card in drawable)
    moves.extend(_with_card({"type": "try_luck", "player": seat}, card) for card in drawable)
    return moves


def _drawable(state: MadaState) -> tuple[Card | None, ...]:
    """The cards a draw may reveal (observed), or one None (seeded) if any card can be drawn."""
    if not can_draw_any(state):
        return ()
    if not state.observed:
        return (None,)
    if state.draw_pile:
        return state.draw_pile.distinct()
    return _canonical(cards_to_reshuffle(state))


def _with_card(body: dict[str, Any], card: Card | None) -> dict[str, Any]:
    return body if card is None else {**body, "card": card}


def _possible_deals(state: MadaState) -> list[tuple[Card, ...]]:
    unseen = Counter(state.draw_pile.cards)
    kinds = _canonical(state.draw_pile.cards)
    return [
        cards
        for cards in combinations_with_replacement(kinds, HAND_LIMIT)
        if not Counter(cards) - unseen
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
