"""The state of a game of Sifaka as JSON, whole or as the table sees it, and its result.

The public view (``full=False``) leaves out what is hidden at the table: the card each seat holds
(``hand_sizes`` stay), the order of the draw pile and of the counter piles, and, while the game is
on, the values of the counters taken (their colours show) and the scores they make. The full view
adds ``hands``, the piles (``draw_pile`` and ``counter_piles`` top first in a seeded game;
``unseen`` and ``unseen_counters`` in canonical order in an observed one) and, in a seeded game,
the value of each counter lying on the board (``counter_value``).
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


def view(state: SifakaState, *, full: bool) -> dict[str, Any]:
    revealed = full or state.finished
    lying = lying_map(state)
    boxes: list[dict[str, Any]] = []
    for square in state.board:
        box: dict[str, Any] = {"x": square.x, "y": square.y, **square.box.to_json()}
        counter = lying.get((square.x, square.y))
        if counter is not None:
            box["counter"] = True
            if full and counter.value is not None:
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
        "hand_sizes": [int(card is not None) for card in state.hands],
        "draw_pile_size": len(state.draw_pile),
        "counters_left": {colour: left_to_lay(state, colour) for colour in MANGO_COLOURS},
        "counters": [
            [
                {"colour": counter.colour, "value": counter.value}
                if revealed
                else {"colour": counter.colour}
                for counter in counters
            ]
            for counters in state.taken
        ],
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
    if revealed:
        shown["scores"] = scores(state)
    if full:
        shown["hands"] = list(state.hands)
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
