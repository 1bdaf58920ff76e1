"""How the pages show Madcala: its cards from the catalog, the new-game form's fields for the
Guests, the layout and the health, and the fields of a move that name the Commoners drawn."""

from __future__ import annotations

from typing import Any, Final

from domain.madcala.catalog import DEFAULT_CATALOG, SPACE_EFFECTS
from domain.madcala.state import MadcalaState

CHANCE_FIELDS: Final = {"*": ("drawn",)}


def catalog_view(state: MadcalaState) -> dict[str, Any]:
    catalog = state.catalog
    return {
        "plus_ones": {
            card.id: {
                "name": card.name,
                "kind": card.kind,
                "cost": card.cost,
                "to": card.to,
                "effects": list(card.effects),
            }
            for card in catalog.plus_one_cards.values()
        },
        "commoners": {
            entry.id: {"name": entry.name, "effects": list(entry.effects)}
            for entry in catalog.commoners
        },
        "guests": {guest.id: guest.name for guest in catalog.guests},
    }


def option_fields() -> list[dict[str, Any]]:
    guests = [[guest["id"], guest["name"]] for guest in DEFAULT_CATALOG["guests"]]
    effects = [[effect, effect.replace("_", " ")] for effect in SPACE_EFFECTS]
    return [
        {
            "kind": "hint",
            "field": "first_player",
            "text": "Madcala's default is a coin flip, the game's first random draw.",
        },
        {
            "name": "guests",
            "kind": "per_seat",
            "label": "Guests",
            "input": "guest",
            "choices": guests,
            "defaults": {"2": [guests[0][0], guests[1][0]]},
        },
        {
            "name": "layout",
            "kind": "sequence",
            "label": "Layout",
            "note": "the five space effects clockwise after each Home",
            "input": "layout",
            "item": "Space {n}",
            "choices": effects,
            "default": list(SPACE_EFFECTS),
        },
        {
            "name": "health",
            "kind": "integer",
            "label": "Health",
            "note": "optional, 1 to 99: both seats' starting and maximum health",
            "input": "health",
            "min": 1,
            "max": 99,
        },
    ]
