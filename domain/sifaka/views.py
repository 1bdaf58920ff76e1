"""The state of a game of Sifaka as JSON, as a viewer may see it at the table, and its result.

While the game is on, the table hides the card in each seat's hand (its holder sees it), the order
of the draw pile and of the counter piles, and the value of every counter: a counter taken shows
its value to its taker only, a counter lying face down on the board to nobody.

- The recorder sees everything: ``hands``, every counter's ``value``, every score, the piles
  (``draw_pile`` and ``counter_piles`` top first in a seeded game; ``unseen`` and
  ``unseen_counters`` in canonical order in an observed one) and, in a seeded game, the value of
  each counter lying on the board (``counter_value`` on its box).
- A seat sees the same fields but for the piles and ``counter_value``, with ``null`` where the
  value is not its own: another seat's card in ``hands``, the ``value`` of another seat's
  counters (their ``colour`` shows), another seat's score in ``scores``.
- The public sees what a seat sees of the other seats, for every seat.

Once the game is over the service reads as the recorder, so nothing here depends on whether the
game is finished.
"""

from __future__ import annotations

from typing import Any

from domain.chance import OBSERVED, SEEDED
from domain.sifaka.catalog import MANGO_COLOURS
from domain.sifaka.state import (
    STARTING_SLOTS,
    SifakaState,
    current_player,
    left_to_lay,
    lying_map,
    scores,
    winners,
)
from domain.viewers import Viewer


def view(state: SifakaState, viewer: Viewer) -> dict[str, Any]:
    def sees(seat: int) -> bool:
        """Whether ``viewer`` sees what ``seat`` holds: its card, its counters' values, its
        score."""
        return viewer.sees_all or viewer.is_seat(seat)

    lying = lying_map(state)
    boxes: list[dict[str, Any]] = []
    for square in state.board:
        box: dict[str, Any] = {"x": square.x, "y": square.y, **square.box.to_json()}
        counter = lying.get((square.x, square.y))
        if counter is not None:
            box["counter"] = True
            # A counter lies face down: no seat has seen its value (an observed game does not
            # know it either, until it is taken).
            if viewer.sees_all and counter.value is not None:
                box["counter_value"] = counter.value
        boxes.append(box)
    shown: dict[str, Any] = {
        "version": state.version,
        "status": "finished" if state.finished else "active",
        "players": state.players,
        "chance": OBSERVED if state.observed else SEEDED,
        "deck": state.catalog.name,
        "first_player": state.first_player,
        "colours": list(state.colours),
        "current_player": current_player(state),
        "phase": None if state.finished else state.phase,
        "turns_played": state.turns_played,
        "boxes": boxes,
        "pawns": [{"x": pawn.x, "y": pawn.y, "facing": pawn.facing} for pawn in state.pawns],
        "hands": [card if sees(seat) else None for seat, card in enumerate(state.hands)],
        # Whether each seat holds a card shows at the table, whoever looks.
        "hand_sizes": [int(card is not None) for card in state.hands],
        "draw_pile_size": len(state.draw_pile),
        "counters_left": {colour: left_to_lay(state, colour) for colour in MANGO_COLOURS},
        "counters": [
            [
                {"colour": counter.colour, "value": counter.value if sees(seat) else None}
                for counter in counters
            ]
            for seat, counters in enumerate(state.taken)
        ],
        "scores": [score if sees(seat) else None for seat, score in enumerate(scores(state))],
        "boxes_moved": list(state.moved),
        "placements": [
            {
                "player": placed.player,
                "card": placed.card,
                "x": placed.x,
                "y": placed.y,
                "rotation": placed.rotation,
            }
            for placed in state.placements
        ],
        "discarded": list(state.discarded),
        "starting_slots": [
            {"x": x, "y": y, "filled": filled}
            for (x, y), filled in zip(STARTING_SLOTS, state.slots_filled, strict=True)
        ],
        "winners": winners(state),
    }
    if viewer.sees_all:
        piles = {
            colour: list(pile.cards)
            for colour, pile in zip(MANGO_COLOURS, state.counter_piles, strict=True)
        }
        if state.observed:
            # Observed mode knows which cards and values are unseen, not their order.
            shown["unseen"] = list(state.draw_pile.cards)
            shown["unseen_counters"] = piles
        else:
            shown["draw_pile"] = list(state.draw_pile.cards)
            shown["counter_piles"] = piles
    return shown


def result(state: SifakaState) -> dict[str, Any] | None:
    if not state.finished:
        return None
    return {"winners": winners(state), "scores": scores(state)}
