"""The state of a duel of Madcala as JSON, as each viewer may see it, and its result.

Hidden at the table while the game is on (``domain.viewers``): the Commoners in each hand, which
only their holder sees, and the Commoner deck (its order when seeded; in observed mode the cards
still unseen, which, with the discard and one's own hand, would tell the other hand). Every viewer
gets the same shape: ``hands`` holds a list for each hand the viewer may see and ``null`` for the
others (both ``null`` for the public), ``hand_sizes`` gives every hand's count, and only the
recorder (everyone, once the game is over) gets ``commoner_deck`` or ``commoner_unseen``. Health,
the board, the reserves, the discard and the Plus-One cards, face up or down, are all on the table.
"""

from __future__ import annotations

from typing import Any

from domain.chance import OBSERVED, SEEDED
from domain.madcala.state import SPACES, MadcalaState, effect_at, is_draw, winners
from domain.viewers import Viewer


def view(state: MadcalaState, viewer: Viewer) -> dict[str, Any]:
    """``state`` as ``viewer`` may see it: see the module's docstring for what is hidden."""
    names = [entry.id for entry in state.catalog.commoners]
    shown: dict[str, Any] = {
        "version": state.version,
        "status": "finished" if state.finished else "active",
        "chance": OBSERVED if state.observed else SEEDED,
        "catalog": state.catalog.label,
        "guests": [{"id": guest.id, "name": guest.name} for guest in state.guests],
        "first_player": state.first_player,
        "current_player": None if state.finished else state.current,
        "turn": state.turn,
        "moved": state.moved,
        "extra_turns": state.extra_turns,
        "health": list(state.health),
        "max_health": list(state.max_health),
        "layout": [effect_at(state, space) or "home" for space in range(SPACES)],
        "spaces": [
            {"normal": list(cell.normal), "doubler": list(cell.doubler)} for cell in state.spaces
        ],
        "reserves": list(state.reserves),
        "plus_ones": [
            [
                {
                    "id": card.card.id,
                    "kind": card.card.kind,
                    "face_up": card.face_up,
                    "shards": card.shards,
                }
                for card in cards
            ]
            for cards in state.plus_ones
        ],
        "hand_sizes": [len(hand) for hand in state.hands],
        "commoner_deck_size": len(state.deck),
        "commoner_discard": [names[card] for card in state.discard],
        "damage_dealt": list(state.damage_dealt),
        "winners": winners(state),
        "draw": is_draw(state),
    }
    shown["hands"] = [
        [names[card] for card in hand] if viewer.sees_all or viewer.is_seat(holder) else None
        for holder, hand in enumerate(state.hands)
    ]
    if viewer.sees_all:
        # Observed mode knows which cards are face down, not their order: catalog order then.
        key = "commoner_unseen" if state.observed else "commoner_deck"
        shown[key] = [names[card] for card in state.deck.cards]
    return shown


def result(state: MadcalaState) -> dict[str, Any] | None:
    """Winners, the final health of each seat as its score, and whether both fell to 0 at once."""
    if not state.finished:
        return None
    return {"winners": winners(state), "scores": list(state.health), "draw": is_draw(state)}
