"""Every move that may come next, as complete event bodies in a fixed order, without duplicates.

- ``deal`` (observed setup): one per unseen card, in canonical order.
- ``place``: one per distinct placement, anchors in reading order (by ``y``, then ``x``), then
  rotations ascending; of rotations that lay the same boxes, only the smallest is listed (the
  others are accepted too, as the same placement). While a starting slot must be filled, only the
  open slots are listed. A card that fits nowhere: one ``place`` without a position (discard).
- ``move``: one per distinct way the move can go, with ``turns`` always written: the step numbers
  where the sifaka really turns (to an arrow pointing elsewhere), fewest turns first. In observed
  mode each is listed once per value the counter it ends on may show, and once per card the draw
  may reveal (values ascending, cards in canonical order).

``seat_legal_moves`` lists the moves as the seat to act may be told them. In observed mode the
chance outcomes offered to a seat (the card dealt or drawn, the counter's value) are those it
cannot rule out from what it sees, not only the truly unseen ones: told only those, a seat would
learn the rest (the other seats' cards, the values of the counters they took) as the complement.
Such a list is a superset of the recorder's; a move in it naming a card another seat holds, or a
value another seat took, is still refused by ``apply`` (IllegalMoveError, a 422), which checks the
real unseen cards and values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from domain.sifaka.geometry import Pos, anchors_over, footprint, reading_order
from domain.sifaka.state import (
    DEAL,
    PLACE,
    SifakaState,
    blocked,
    board_map,
    colour_index,
    lying_map,
    open_slots,
    walk_choices,
)

# The values a face-down counter of a colour may show, ascending, for a move that takes it.
Values = Callable[[str], tuple[int, ...]]


def legal_moves(state: SifakaState) -> list[dict[str, Any]]:
    def unseen_values(colour: str) -> tuple[int, ...]:
        return state.counter_piles[colour_index(colour)].distinct()

    return _listing(state, state.draw_pile.distinct(), unseen_values)


def seat_legal_moves(state: SifakaState, seat: int) -> list[dict[str, Any]]:
    """The moves of ``seat``, whose decision is awaited, naming only chance outcomes that the seat
    cannot rule out: cards among the unseen ones and the other seats' hands, values of a colour
    among its unseen counters and those the other seats took (each once, in canonical order).
    Each of these lists depends only on what the seat sees; the recorder's do not."""
    if state.finished or seat != state.turn:
        return []
    if not state.observed:
        # A seeded game's moves name no outcome of chance.
        return legal_moves(state)
    others = [other for other in range(state.players) if other != seat]
    held = [card for other in others if (card := state.hands[other]) is not None]
    cards = tuple(sorted({*state.draw_pile.cards, *held}, key=state.catalog.order))

    def possible_values(colour: str) -> tuple[int, ...]:
        taken = [
            counter.value
            for other in others
            for counter in state.taken[other]
            if counter.colour == colour and counter.value is not None
        ]
        return tuple(sorted({*state.counter_piles[colour_index(colour)].cards, *taken}))

    return _listing(state, cards, possible_values)


def _listing(state: SifakaState, cards: tuple[int, ...], values: Values) -> list[dict[str, Any]]:
    """The moves of the seat to act, offering ``cards`` for a deal or a draw and ``values`` for a
    counter taken (both used in observed mode only)."""
    if state.finished:
        return []
    seat = state.turn
    if state.phase == DEAL:
        return [{"type": "deal", "player": seat, "card": card} for card in cards]
    if state.phase == PLACE:
        return _placements(state, seat)
    return _movements(state, seat, cards, values)


def fitting_anchors(state: SifakaState) -> Iterator[Pos]:
    """Every anchor where the card in hand may go now, in reading order."""
    taken = blocked(state)
    slots = open_slots(state, taken)
    if slots:
        yield from sorted(slots, key=reading_order)
        return
    # Each anchor of a card covering at least one visible box, once.
    anchors = dict.fromkeys(
        anchor for square in state.board for anchor in anchors_over((square.x, square.y))
    )
    for anchor in sorted(anchors, key=reading_order):
        if not any(square in taken for square in footprint(*anchor)):
            yield anchor


def _placements(state: SifakaState, seat: int) -> list[dict[str, Any]]:
    held = state.hands[seat]
    assert held is not None, "a seat without a card has no place phase"
    rotations = state.catalog.by_id[held].rotations
    moves = [
        {"type": "place", "player": seat, "x": x, "y": y, "rotation": rotation}
        for x, y in fitting_anchors(state)
        for rotation in rotations
    ]
    return moves or [{"type": "place", "player": seat}]


def _movements(
    state: SifakaState, seat: int, cards: tuple[int, ...], values: Values
) -> list[dict[str, Any]]:
    lying = lying_map(state)
    draws: tuple[int | None, ...] = (None,)
    if state.observed and state.draw_pile:
        draws = cards
    moves: list[dict[str, Any]] = []
    for turns, walk in walk_choices(board_map(state), state.pawns[seat]):
        counter = lying.get((walk.x, walk.y))
        shown: tuple[int | None, ...] = (None,)
        if counter is not None and state.observed:
            shown = values(counter.colour)
        for value in shown:
            for card in draws:
                body: dict[str, Any] = {"type": "move", "player": seat, "turns": list(turns)}
                if value is not None:
                    body["counter"] = value
                if card is not None:
                    body["draw"] = card
                moves.append(body)
    return moves
