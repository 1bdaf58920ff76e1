"""How the pages show Sifaka: each seat in its pawn's colour, the Terrain cards' boxes from the
catalog, the new-game form's facing per seat, the fields of a move that name what was drawn, and a
move in the rulebook's words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from operator import attrgetter
from typing import Any, Final, TypeGuard

from domain.sifaka.catalog import ARROW, DEFAULT, MANGO, PALMS, Box, Card, Catalog
from domain.sifaka.geometry import DIRECTIONS, Quad
from domain.sifaka.state import DEFAULT_FACING, HUTS, SifakaState, seat_colours
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


# A move in words (Game.describe), the only words of a move (the API sends them to the pages), in
# what a person at the table sees, never a coordinate or a card's number:
# "Ana places the tile 2 squares north of the huts, facing east", "Ben moves the sifaka, turning
# at the 2nd step, takes a counter worth 3 and draws a Terrain card with a green mango, 4 palms
# over 2 boxes and an arrow west". What the viewer may not see (``hidden``) is said without its
# value.
#
# Where a tile lies is said from the huts: the four hut boxes at the board's centre make a 2x2
# block, a tile's size, so a tile is said by how many squares north or south, then east or west,
# it lies from that block ("2 squares north of the huts" is the huts' block slid 2 squares north:
# a starting slot; "1 square south and 3 east of the huts"; "on the huts" for no slide). North is
# up on the page, as the grid's y grows to the south. The drawing's labels (sifaka-draw.js) say a
# tile's place the same way, and a single box from its nearest hut (``square_from_huts``).
#
# A card is said by what its face shows, in the words of the recorder's card picker (its options
# and filter chips: the mango's colour, the palm trees counted together, the arrows' ways as the
# card is printed, its top north), and whether the palms stand in one box or over several. Cards
# the picker's words tell apart are told apart here, and more besides; cards whose boxes differ
# only in where they lie on the face may be said alike, and cards that are one tile turned are
# (each is said as the picker pictures that tile: ``pictured_faces``).
ORDINALS: Final = {1: "1st", 2: "2nd", 3: "3rd"}


def describe(event: Mapping[str, Any], players: Sequence[str], catalog: Catalog = DEFAULT) -> str:
    who = _seat(event.get("player"), players)
    kind = event.get("type")
    hidden = event.get("hidden") or []
    if kind == "deal":
        return f"{who} is dealt {_card(event.get('card'), catalog)}"
    if kind == "place":
        x, y = event.get("x"), event.get("y")
        if not (_is_int(x) and _is_int(y)):
            return f"{who} discards the tile (it fits nowhere)"
        rotation = event.get("rotation")
        turned = rotation // 90 % 4 if _is_int(rotation) else 0
        return f"{who} places the tile {from_huts(x, y)}, facing {WAY_NAMES[DIRECTIONS[turned]]}"
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
        if _is_int(draw) or "draw" in hidden:
            then.append(f"draws {_card(draw, catalog)}")
        if then:
            words += f", {_listed(then)}"
        return words
    return describe_fields(event, players)


# The huts' 2x2 block: its top-left box, where a tile laid on the huts would be anchored.
HUTS_ANCHOR: Final = (min(x for x, _ in HUTS.values()), min(y for _, y in HUTS.values()))


def from_huts(x: int, y: int) -> str:
    """Where the tile anchored at ``(x, y)`` lies, from the huts: "2 squares north of the huts",
    "1 square south and 3 east of the huts", "on the huts"."""
    slid = _slid(y - HUTS_ANCHOR[1], x - HUTS_ANCHOR[0])
    return f"{slid} of the huts" if slid else "on the huts"


def square_from_huts(x: int, y: int) -> str:
    """Where the box ``(x, y)`` lies (a box, a sifaka: what the drawing's labels say, as
    sifaka-draw.js's squareFromHuts does), from the nearest hut, the box brought into the huts'
    block: "2 squares north and 1 west of the red hut", "at the blue hut"."""
    left, top = HUTS_ANCHOR
    nearest = (min(max(x, left), left + 1), min(max(y, top), top + 1))
    colour = next(colour for colour, hut in HUTS.items() if hut == nearest)
    slid = _slid(y - nearest[1], x - nearest[0])
    return f"{slid} of the {colour} hut" if slid else f"at the {colour} hut"


def _slid(south: int, east: int) -> str:
    """A slide north or south, then east or west, in squares: "1 square south and 3 east"; ""
    for none."""
    slides = (
        (abs(south), "south" if south > 0 else "north"),
        (abs(east), "east" if east > 0 else "west"),
    )
    said: list[str] = []
    for squares, way in slides:
        if squares:
            # The first number carries the unit: "1 square south and 3 east".
            unit = "" if said else " square" if squares == 1 else " squares"
            said.append(f"{squares}{unit} {way}")
    return " and ".join(said)


def card_words(boxes: Sequence[Box]) -> str:
    """A Terrain card by what its face shows: "a Terrain card with a yellow mango, 3 palms over 2
    boxes and an arrow north", "a Terrain card with 1 palm, 2 arrows north and an arrow west"."""
    features = [f"a {box.colour} mango" for box in boxes if box.kind == MANGO]
    # The palm trees counted together (the picker's Palms), and, where more than one, whether
    # they stand in one box or spread over several: what tells most look-alike cards apart.
    palm_boxes = [box.palms for box in boxes if box.kind == PALMS]
    palms = sum(palm_boxes)
    if palms == 1:
        features.append("1 palm")
    elif len(palm_boxes) == 1:
        features.append(f"{palms} palms in one box")
    elif palm_boxes:
        features.append(f"{palms} palms over {len(palm_boxes)} boxes")
    arrows = [box.arrow for box in boxes if box.kind == ARROW]
    for way in DIRECTIONS:
        count = arrows.count(way)
        if count:
            features.append(f"{'an arrow' if count == 1 else f'{count} arrows'} {WAY_NAMES[way]}")
    return f"a Terrain card with {_listed(features)}" if features else "a blank Terrain card"


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _card(card: Any, catalog: Catalog) -> str:
    """The card ``card`` names, by its face; a card not shown (hidden, or no card of the deck)
    is just a Terrain card."""
    if not catalog.is_card(card):
        return "a Terrain card"
    return card_words(pictured_faces(catalog)[card])


@lru_cache(maxsize=32)
def pictured_faces(catalog: Catalog) -> Mapping[int, Quad[Box]]:
    """Each card's face as the recorder's picker pictures it: cards that are the same tile turned
    (2 and 39 of the default deck) are one picture there, drawn as the one of them with the
    smallest id, so each is said as that one, and the words of one tile never differ by how its
    card happens to be printed (sifaka-touch.js, cardOptions, does the same)."""
    first_of_tile: dict[tuple[str, ...], Card] = {}
    for card in sorted(catalog.cards, key=attrgetter("id")):
        first_of_tile.setdefault(_tile(card), card)
    return {card.id: first_of_tile[_tile(card)].boxes for card in catalog.cards}


def _tile(card: Card) -> tuple[str, ...]:
    """The same for cards that are one tile however turned: its boxes' smallest face."""
    return min(tuple(box.spec for box in face) for face in card.faces)


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
