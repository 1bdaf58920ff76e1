"""How the pages show Sifaka: each seat in its pawn's colour, the Terrain cards' boxes from the
catalog, the new-game form's facing per seat, the fields of a move that name what was drawn, and a
move in the rulebook's words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, TypeGuard

from domain.sifaka.geometry import DIRECTIONS
from domain.sifaka.state import DEFAULT_FACING, SifakaState, seat_colours
from domain.words import describe_fields

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


# A move in words (Game.describe), the only words of a move (the API sends them to the pages):
# "Ana places the tile at (1, -1), facing east", "Ben moves the sifaka, turning at the 2nd step,
# takes a counter worth 3 and draws Terrain card 17". What the viewer may not see (``hidden``) is
# said without its value.
ORDINALS: Final = {1: "1st", 2: "2nd", 3: "3rd"}


def describe(event: Mapping[str, Any], players: Sequence[str]) -> str:
    who = _seat(event.get("player"), players)
    kind = event.get("type")
    hidden = event.get("hidden") or []
    if kind == "deal":
        card = event.get("card")
        return f"{who} is dealt {_card(card) if _is_int(card) else 'a Terrain card'}"
    if kind == "place":
        x, y = event.get("x"), event.get("y")
        if not (_is_int(x) and _is_int(y)):
            return f"{who} discards the tile (it fits nowhere)"
        rotation = event.get("rotation")
        turned = rotation // 90 % 4 if _is_int(rotation) else 0
        return f"{who} places the tile at ({x}, {y}), facing {WAY_NAMES[DIRECTIONS[turned]]}"
    if kind == "move":
        words = f"{who} moves the sifaka"
        turns = event.get("turns")
        if isinstance(turns, list) and turns and all(_is_int(step) for step in turns):
            steps = "step" if len(turns) == 1 else "steps"
            words += f", turning at the {_listed([_ordinal(step) for step in turns])} {steps}"
        then = []
        counter = event.get("counter")
        if _is_int(counter):
            then.append(f"takes a counter worth {counter}")
        elif "counter" in hidden:
            then.append("takes a counter")
        draw = event.get("draw")
        if _is_int(draw):
            then.append(f"draws {_card(draw)}")
        elif "draw" in hidden:
            then.append("draws a Terrain card")
        if then:
            words += f", {_listed(then)}"
        return words
    return describe_fields(event, players)


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _card(card: int) -> str:
    return f"Terrain card {card}"


def _ordinal(step: int) -> str:
    return ORDINALS.get(step, f"{step}th")


def _listed(items: list[str]) -> str:
    if len(items) <= 1:
        return items[0] if items else ""
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _seat(seat: Any, players: Sequence[str]) -> str:
    if _is_int(seat) and 0 <= seat < len(players):
        return players[seat]
    return "someone" if seat is None else f"seat {seat}"
