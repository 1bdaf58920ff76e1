"""The shapes of Sifaka's JSON (``domain.shapes``): its events, its state as ``views.view`` shows it
to any viewer, and its creation options. Card ids name cards of the game's deck, which the rules
check; so is where a card fits and where a sifaka may go."""

from __future__ import annotations

from typing import Final

from domain.chance import CHANCE_MODES
from domain.shapes import (
    Schema,
    array,
    boolean,
    described,
    event,
    exactly,
    integer,
    keyed,
    nullable,
    obj,
    one_of_values,
    string,
)
from domain.sifaka.catalog import (
    ARROW,
    BLANK,
    HUT,
    MANGO,
    MANGO_COLOURS,
    MAX_CARD_ID,
    MAX_CARDS,
    MAX_COUNTER_VALUE,
    MAX_NAME,
    MAX_PALMS,
    MIN_PALMS,
    PALMS,
)
from domain.sifaka.geometry import DIRECTIONS, ROTATIONS
from domain.sifaka.moves import MAX_COORDINATE
from domain.sifaka.state import DEAL, MOVE, PAWN_COLOURS, PLACE, STARTING_SLOTS

MAX_PLAYERS: Final = len(PAWN_COLOURS)
MIN_PLAYERS: Final = 2

SEAT: Final = integer(0, MAX_PLAYERS - 1)
CARD: Final = described(integer(1, MAX_CARD_ID), "the id of a card of the game's deck")
COUNTER_VALUE: Final = integer(1, MAX_COUNTER_VALUE)
COORDINATE: Final = integer(-MAX_COORDINATE, MAX_COORDINATE)
DIRECTION: Final = one_of_values(DIRECTIONS)
COUNT: Final = integer(0)


def per_seat(items: Schema) -> Schema:
    return array(items, MIN_PLAYERS, MAX_PLAYERS)


def _event(
    kind: str, required: dict[str, Schema], optional: dict[str, Schema] | None = None
) -> Schema:
    """An event of ``kind`` by a seat (its ``player``)."""
    return event(kind, {"player": SEAT, **required}, optional)


EVENT_SCHEMAS: Final[dict[str, Schema]] = {
    "deal": _event("deal", {"card": CARD}),
    # x and y go together, and a rotation needs them: without any, the card is discarded.
    "place": {
        "oneOf": [
            _event(
                "place", {"x": COORDINATE, "y": COORDINATE}, {"rotation": one_of_values(ROTATIONS)}
            ),
            _event("place", {}),
        ]
    },
    "move": _event(
        "move",
        {},
        {
            "turns": array(integer(1, MAX_PALMS), 0, MAX_PALMS, unique=True),
            "draw": CARD,
            "counter": COUNTER_VALUE,
        },
    ),
}

_XY: Final = {"x": integer(), "y": integer()}
# A visible box, by kind: only a mango box may hold a counter.
BOX: Final = {
    "oneOf": [
        obj({**_XY, "kind": one_of_values([BLANK])}),
        obj({**_XY, "kind": one_of_values([PALMS]), PALMS: integer(MIN_PALMS, MAX_PALMS)}),
        obj({**_XY, "kind": one_of_values([ARROW]), ARROW: DIRECTION}),
        obj({**_XY, "kind": one_of_values([HUT]), HUT: one_of_values(PAWN_COLOURS)}),
        obj(
            {**_XY, "kind": one_of_values([MANGO]), MANGO: one_of_values(MANGO_COLOURS)},
            {
                "counter": described(one_of_values([True]), "a counter lies here, face down"),
                "counter_value": described(
                    COUNTER_VALUE, "its value: the recorder's only, in a seeded game"
                ),
            },
        ),
    ]
}

_RECORDER_ONLY = "the recorder's only (and everyone's once the game is over)"
_PILES: Final = keyed(MANGO_COLOURS, array(COUNTER_VALUE))

STATE_SCHEMA: Final = obj(
    {
        "version": integer(0, description="the events it follows"),
        "status": one_of_values(["active", "finished"]),
        "players": integer(MIN_PLAYERS, MAX_PLAYERS),
        "chance": one_of_values(CHANCE_MODES),
        "deck": described(nullable(string()), "the deck's name (null for an unnamed catalog)"),
        "first_player": SEAT,
        "colours": described(per_seat(one_of_values(PAWN_COLOURS)), "each seat's colour"),
        "current_player": described(nullable(SEAT), "the seat to act; null once over"),
        "phase": described(
            nullable(one_of_values([DEAL, PLACE, MOVE])), "what it is to do; null once over"
        ),
        "turns_played": COUNT,
        "boxes": described(array(BOX), "the visible boxes, in reading order"),
        "pawns": per_seat(obj({**_XY, "facing": DIRECTION})),
        "hands": described(
            per_seat(nullable(CARD)),
            "each seat's card; null for none or one the viewer may not see",
        ),
        "hand_sizes": per_seat(integer(0, 1)),
        "draw_pile_size": COUNT,
        "counters_left": keyed(MANGO_COLOURS, COUNT),
        "counters": described(
            per_seat(
                array(
                    obj({"colour": one_of_values(MANGO_COLOURS), "value": nullable(COUNTER_VALUE)})
                )
            ),
            "the counters each seat took; a value is null but for its taker",
        ),
        "scores": described(per_seat(nullable(COUNT)), "null but for the seat's own"),
        "boxes_moved": per_seat(COUNT),
        "placements": array(
            obj(
                {
                    "player": SEAT,
                    "card": CARD,
                    "x": COORDINATE,
                    "y": COORDINATE,
                    "rotation": one_of_values(ROTATIONS),
                }
            )
        ),
        "discarded": array(CARD),
        "starting_slots": exactly(obj({**_XY, "filled": boolean()}), len(STARTING_SLOTS)),
        "winners": described(array(SEAT), "seats; empty until the game is over"),
    },
    {
        "draw_pile": described(array(CARD), f"seeded mode, top first: {_RECORDER_ONLY}"),
        "counter_piles": described(_PILES, f"seeded mode, top first: {_RECORDER_ONLY}"),
        "unseen": described(array(CARD), f"observed mode: {_RECORDER_ONLY}"),
        "unseen_counters": described(_PILES, f"observed mode: {_RECORDER_ONLY}"),
    },
)

# Every box a catalog may write (``catalog.parse_box``).
BOX_SPECS: Final = [
    BLANK,
    *(f"{PALMS}:{n}" for n in range(MIN_PALMS, MAX_PALMS + 1)),
    *(f"{ARROW}:{direction}" for direction in DIRECTIONS),
    *(f"{MANGO}:{colour}" for colour in MANGO_COLOURS),
]

CATALOG_SCHEMA: Final = obj(
    {
        "cards": described(
            array(obj({"id": CARD, "boxes": exactly(one_of_values(BOX_SPECS), 4)}), 1, MAX_CARDS),
            "no id twice; boxes top-left, top-right, bottom-left, bottom-right at rotation 0",
        )
    },
    {"name": string(minLength=1, maxLength=MAX_NAME)},
)


def options_schema(players: int) -> Schema:
    """The creation options of a game of ``players`` (every one optional)."""
    return obj(
        {},
        {
            "first_player": described(integer(0, players - 1), "the seat that moves first"),
            "chance": one_of_values(CHANCE_MODES),
            "facing": described(
                exactly(DIRECTION, players), "the way each seat's sifaka starts facing"
            ),
            "catalog": CATALOG_SCHEMA,
        },
    )
