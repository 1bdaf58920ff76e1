"""The state of a game of Mada as JSON, as one viewer may see it at the table, and its result.

Every view has the same fields but one: ``hands`` holds a hand as a list where the viewer sees it
and None where it does not (a seat sees its own; the recorder, all), ``hand_sizes`` tells every
hand's size, and only the recorder gets the draw pile (``draw_pile`` top first in seeded mode;
``unseen`` in observed mode, which would tell a seat the other hands by their complement).

Everything else was seen by the whole table and is shown to all: the piles, the discard, the cards
set aside (in the order set aside) and the scores they make. Once the game is over the service reads
as the recorder, so nothing here depends on whether the game is finished.
"""

from __future__ import annotations

from typing import Any

from domain.chance import OBSERVED, SEEDED
from domain.mada.state import MadaState, current_player, scores, winners
from domain.viewers import Viewer


def view(state: MadaState, viewer: Viewer) -> dict[str, Any]:
    shown: dict[str, Any] = {
        "version": state.version,
        "status": "finished" if state.finished else "active",
        "players": state.players,
        "chance": OBSERVED if state.observed else SEEDED,
        "first_player": state.first_player,
        "round": state.round,
        "current_player": current_player(state),
        "pending": (
            None
            if state.pending is None
            else {"kind": state.pending.kind, "player": state.pending.player}
        ),
        "hands": [
            list(hand) if viewer.sees_all or viewer.is_seat(seat) else None
            for seat, hand in enumerate(state.hands)
        ],
        "hand_sizes": [len(hand) for hand in state.hands],
        "piles": [list(pile) for pile in state.piles],
        "set_aside": [list(cards) for cards in state.set_aside],
        "set_aside_counts": [len(cards) for cards in state.set_aside],
        "scores": scores(state),
        "discard": list(state.discard),
        "draw_pile_size": len(state.draw_pile),
        "winners": winners(state),
    }
    if viewer.sees_all:
        # Observed mode knows which cards are face down, not their order: canonical order then.
        shown["unseen" if state.observed else "draw_pile"] = list(state.draw_pile.cards)
    return shown


def result(state: MadaState) -> dict[str, Any] | None:
    if not state.finished:
        return None
    return {"winners": winners(state), "scores": scores(state)}
