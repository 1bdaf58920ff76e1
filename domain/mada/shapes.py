"""The shapes of Mada's JSON (``domain.shapes``): its events, its state as ``views.view`` shows it
to any viewer, and its creation options. What the rules check beyond a shape (the card in hand,
the turn, a deck that can end) is said in the descriptions."""

from __future__ import annotations

from typing import Any, Final

from domain.chance import CHANCE_MODES
from domain.mada.catalog import (
    HAND_LIMIT,
    MAX_COUNT,
    MAX_PEARS,
    MAX_VALUE,
    MIN_VALUE,
    SPECIALS,
)
from domain.mada.state import CHOOSE_TARGET, DEAL, ROUND_DISCARD, SCORPION_DISCARD
from domain.shapes import (
    Schema,
    array,
    described,
    event,
    exactly,
    integer,
    nullable,
    obj,
    one_of_values,
)

MAX_PLAYERS: Final = 5

SEAT: Final = integer(0, MAX_PLAYERS - 1)
CACTUS: Final = integer(MIN_VALUE, MAX_VALUE)
CARD: Final = described(
    {"anyOf": [CACTUS, one_of_values(SPECIALS)]},
    f"a Cactus value {MIN_VALUE}..{MAX_VALUE}, or 'lemur', 'double_lemur' or 'scorpion'",
)
CARDS: Final = array(CARD)
COUNT: Final = integer(0)
PER_SEAT_MIN: Final = 2


def per_seat(items: Schema) -> Schema:
    return array(items, PER_SEAT_MIN, MAX_PLAYERS)


EVENT_SCHEMAS: Final[dict[str, Schema]] = {
    "deal": event("deal", {"player": SEAT, "cards": exactly(CARD, HAND_LIMIT)}),
    "play": event("play", {"player": SEAT, "card": CARD}, {"target": SEAT}),
    "draw": event("draw", {"player": SEAT}, {"card": CARD}),
    "try_luck": event("try_luck", {"player": SEAT}, {"card": CARD}),
    "scorpion_discard": event("scorpion_discard", {"player": SEAT, "card": CARD}),
    "choose_target": event("choose_target", {"player": SEAT, "target": SEAT}),
    "round_discard": event("round_discard", {"player": SEAT, "cards": array(CARD, 0, HAND_LIMIT)}),
}

_RECORDER_ONLY = "the recorder's only (and everyone's once the game is over)"

STATE_SCHEMA: Final = obj(
    {
        "version": integer(0, description="the events it follows"),
        "status": one_of_values(["active", "finished"]),
        "players": integer(PER_SEAT_MIN, MAX_PLAYERS),
        "chance": one_of_values(CHANCE_MODES),
        "first_player": SEAT,
        "round": integer(1),
        "current_player": described(nullable(SEAT), "the seat to decide; null once over"),
        "pending": described(
            nullable(
                obj(
                    {
                        "kind": one_of_values(
                            [DEAL, SCORPION_DISCARD, CHOOSE_TARGET, ROUND_DISCARD]
                        ),
                        "player": SEAT,
                    }
                )
            ),
            "the decision awaited besides a turn's play, draw or try_luck; null for none",
        ),
        "hands": described(
            per_seat(nullable(CARDS)), "each seat's hand; null where the viewer may not see it"
        ),
        "hand_sizes": per_seat(COUNT),
        "piles": described(per_seat(CARDS), "each seat's pile, bottom to top"),
        "set_aside": described(
            per_seat(array(CACTUS)), "the Cactus cards each seat set aside, in order"
        ),
        "set_aside_counts": per_seat(COUNT),
        "scores": described(per_seat(COUNT), "the prickly pears each seat set aside"),
        "discard": described(CARDS, "the discard, bottom to top"),
        "draw_pile_size": COUNT,
        "winners": described(array(SEAT), "seats; empty until the game is over"),
    },
    {
        "draw_pile": described(CARDS, f"seeded mode, top first: {_RECORDER_ONLY}"),
        "unseen": described(
            CARDS, f"observed mode, the cards face down in canonical order: {_RECORDER_ONLY}"
        ),
    },
)

CATALOG_SCHEMA: Final = obj(
    {
        "cactus": array(
            obj({"value": CACTUS, "count": integer(0, MAX_COUNT), "pears": integer(0, MAX_PEARS)}),
            2,
            MAX_VALUE - MIN_VALUE + 1,
            description="one entry per Cactus value, no value twice; a value left out has no"
            " cards. Cactus cards of two values at least, six cards at least: else no game"
            " could end",
        ),
        **{special: integer(0, MAX_COUNT) for special in SPECIALS},
    },
    description=f"the deck: {HAND_LIMIT} cards per player and one to draw, at least",
)


def options_schema(players: int) -> Schema:
    """The creation options of a game of ``players`` (every one optional)."""
    options: dict[str, Any] = {
        "first_player": described(integer(0, players - 1), "the seat that moves first"),
        "chance": described(
            one_of_values(CHANCE_MODES),
            "seeded (the service shuffles) or observed (the recorder names each card dealt and"
            " drawn)",
        ),
        "catalog": CATALOG_SCHEMA,
    }
    return obj({}, options)
