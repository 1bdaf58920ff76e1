"""The state of a game of Mada as JSON, whole or as the table sees it, and its result.

The public view (``full=False``) leaves out what is hidden at the table: the hands (their sizes
stay), the draw pile's order and, while the game is on, the face-down cards set aside and the
scores they make.
"""

from __future__ import annotations

from typing import Any

from domain.chance import OBSERVED, SEEDED
from domain.mada.state import MadaState, current_player, scores, winners


def view(state: MadaState, *, full: bool) -> dict[str, Any]:
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
        "hand_sizes": [len(hand) for hand in state.hands],
        "piles": [list(pile) for pile in state.piles],
        "set_aside_counts": [len(cards) for cards in state.set_aside],
        "discard": list(state.discard),
        "draw_pile_size": len(state.draw_pile),
        "winners": winners(state),
    }
    if full or state.finished:
        shown["set_aside"] = [list(cards) for cards in state.set_aside]
        shown["scores"] = scores(state)
    if full:
        shown["hands"] = [list(hand) for hand in state.hands]
        # Observed mode knows which cards are face down, not their order: canonical order then.
        shown["unseen" if state.observed else "draw_pile"] = list(state.draw_pile.cards)
    return shown


def result(state: MadaState) -> dict[str, Any] | None:
    if not state.finished:
        return None
    return {"winners": winners(state), "scores": scores(state)}
