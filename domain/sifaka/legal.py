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
"""

from __future__ import annotations

from collections.abc import Iterator
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


def legal_moves(state: SifakaState) -> list[dict[str, Any]]:
    if state.finished:
        return []
    seat = state.turn
    if state.phase == DEAL:
        return [
            {"type": "deal", "player": seat, "card": card} for card in state.draw_pile.distinct()
        ]
    if state.phase == PLACE:
        return _placements(state, seat)
    return _movements(state, seat)


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


def _movements(state: SifakaState, seat: int) -> list[dict[str, Any]]:
    lying = lying_map(state)
    draws: tuple[int | None, ...] = (None,)
    if state.observed and state.draw_pile:
        draws = state.draw_pile.distinct()
    moves: list[dict[str, Any]] = []
    for turns, walk in walk_choices(board_map(state), state.pawns[seat]):
        counter = lying.get((walk.x, walk.y))
        values: tuple[int | None, ...] = (None,)
        if counter is not None and state.observed:
            values = state.counter_piles[colour_index(counter.colour)].distinct()
        for value in values:
            for card in draws:
                body: dict[str, Any] = {"type": "move", "player": seat, "turns": list(turns)}
                if value is not None:
                    body["counter"] = value
                if card is not None:
                    body["draw"] = card
                moves.append(body)
    return moves
