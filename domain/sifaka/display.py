"""How the pages show Sifaka: each seat in its pawn's colour, the Terrain cards' boxes from the
catalog, the new-game form's facing per seat, and the fields of a move that name what was drawn."""

from __future__ import annotations

from typing import Any, Final

from domain.sifaka.geometry import DIRECTIONS
from domain.sifaka.state import DEFAULT_FACING, SifakaState, seat_colours

CHANCE_FIELDS: Final = {"deal": ("card",), "move": ("draw", "counter")}
PAWN_CSS: Final = {"red": "#c62828", "blue": "#1565c0", "yellow": "#b8860b", "green": "#2e7d32"}
WAY_NAMES: Final = {"N": "north", "E": "east", "S": "south", "W": "west"}


def colours(players: int) -> list[str]:
    return [PAWN_CSS[colour] for colour in seat_colours(players)]


def catalog_view(state: SifakaState) -> dict[str, Any]:
    return {
        "cards": {
            str(card.id): [box.to_json() for box in card.boxes] for card in state.catalog.cards
        }
    }


def option_fields() -> list[dict[str, Any]]:
    return [
        {
            "name": "facing",
            "kind": "per_seat",
            "label": "Facing",
            "note": "where each seat's sifaka starts facing",
            "input": "facing",
            "choices": [[way, WAY_NAMES[way]] for way in DIRECTIONS],
            # A seat left at "default" faces its colour's way (two players sit red and yellow).
            "defaults": {
                str(players): [DEFAULT_FACING[colour] for colour in seat_colours(players)]
                for players in (2, 3, 4)
            },
        }
    ]
