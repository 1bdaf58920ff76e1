"""The shapes of Madcala's JSON (``domain.shapes``): its events, its state as ``views.view`` shows
it to any viewer, and its creation options. Ids name cards of the game's catalog, which the rules
check; so are the legality of a move and the choices its effects ask for."""

from __future__ import annotations

from typing import Final

from domain.chance import CHANCE_MODES
from domain.madcala.catalog import (
    CORRUPTED,
    CORRUPTED_SHARDS_PER_GUEST,
    DEFAULT_CATALOG,
    DESTINATIONS,
    EFFECTS,
    MAX_COMMONER_ENTRIES,
    MAX_COPIES,
    MAX_COST,
    MAX_DECK,
    MAX_EFFECTS,
    MAX_HEALTH,
    MAX_PLUS_ONES,
    MIN_HEALTH,
    REFRESHABLE,
    SPACE_EFFECTS,
)
from domain.madcala.moves import MAX_CHOICES, MAX_LIST
from domain.madcala.state import COMMONER_PRICE, SEATS, SPACES
from domain.shapes import (
    Schema,
    array,
    boolean,
    described,
    event,
    exactly,
    integer,
    nullable,
    obj,
    one_of_values,
    string,
)

SEAT: Final = integer(0, SEATS - 1)
SPACE: Final = integer(0, SPACES - 1)
# The ids of a catalog (``catalog._ID``).
ID: Final = string(pattern="^[A-Za-z0-9_-]{1,40}$")
IDS: Final = array(ID, 0, MAX_CHOICES)
EFFECT: Final = one_of_values(EFFECTS)
COUNT: Final = integer(0)


def pair(items: Schema) -> Schema:
    """One value per seat."""
    return exactly(items, SEATS)


def _event(
    kind: str, required: dict[str, Schema], optional: dict[str, Schema] | None = None
) -> Schema:
    """An event of ``kind`` by a seat (its ``player``)."""
    return event(kind, {"player": SEAT, **required}, optional)


_REFRESH = {"refresh": IDS}
_DRAWN = {"drawn": IDS}
_CARD_CHOICES = {
    **_REFRESH,
    "strike": array(obj({"space": SPACE, "seat": SEAT}), 0, MAX_CHOICES),
    "strike_card": IDS,
    **_DRAWN,
}
_EFFECTS = array(EFFECT, 0, MAX_CHOICES)

EVENT_SCHEMAS: Final[dict[str, Schema]] = {
    "move": _event(
        "move",
        {"space": nullable(SPACE)},
        {
            "order": array(SEAT, 0, MAX_LIST),
            "last_doubler": SEAT,
            "home_space": SPACE,
            **_REFRESH,
            **_DRAWN,
        },
    ),
    "plus_one": _event(
        "plus_one",
        {"card": ID},
        {"pay": array(SPACE, 0, MAX_CHOICES), "effects": _EFFECTS, "place": SPACE, **_CARD_CHOICES},
    ),
    "buy_commoner": _event("buy_commoner", {"pay": exactly(SPACE, COMMONER_PRICE)}, {**_DRAWN}),
    "commoner": _event("commoner", {"card": ID}, {"effects": _EFFECTS, **_CARD_CHOICES}),
    "end_turn": _event("end_turn", {}, {"discard": array(ID, 0, MAX_LIST)}),
}

_RECORDER_ONLY = "the recorder's only (and everyone's once the game is over)"

STATE_SCHEMA: Final = obj(
    {
        "version": integer(0, description="the events it follows"),
        "status": one_of_values(["active", "finished"]),
        "chance": one_of_values(CHANCE_MODES),
        "catalog": described(string(), "the catalog's label"),
        "guests": pair(obj({"id": ID, "name": string()})),
        "first_player": SEAT,
        "current_player": described(nullable(SEAT), "the seat whose turn it is; null once over"),
        "turn": integer(1),
        "moved": described(boolean(), "whether the seat to play made this turn's move"),
        "extra_turns": COUNT,
        "health": pair(integer(0, MAX_HEALTH)),
        "max_health": pair(integer(MIN_HEALTH, MAX_HEALTH)),
        "layout": described(
            exactly(one_of_values(["home", *SPACE_EFFECTS]), SPACES),
            "the effect of each space 0..11 (a Home has none)",
        ),
        "spaces": described(
            exactly(obj({"normal": pair(COUNT), "doubler": pair(boolean())}), SPACES),
            "each space's normal Shards and Doublers, per seat",
        ),
        "reserves": pair(COUNT),
        "plus_ones": pair(
            array(
                obj(
                    {
                        "id": ID,
                        "kind": one_of_values([REFRESHABLE, CORRUPTED]),
                        "face_up": boolean(),
                        "shards": integer(0, MAX_COST),
                    }
                ),
                0,
                MAX_PLUS_ONES,
            )
        ),
        "hand_sizes": pair(COUNT),
        "commoner_deck_size": COUNT,
        "commoner_discard": described(array(ID), "Commoner ids, bottom to top"),
        "damage_dealt": pair(COUNT),
        "winners": described(array(SEAT, 0, SEATS), "seats; empty until the game is over"),
        "draw": described(boolean(), "true once both seats fell to 0 health at once"),
        "hands": described(
            pair(nullable(array(ID))), "each seat's Commoner ids; null where the viewer may not see"
        ),
    },
    {
        "commoner_deck": described(array(ID), f"seeded mode, top first: {_RECORDER_ONLY}"),
        "commoner_unseen": described(
            array(ID), f"observed mode, the Commoners face down in catalog order: {_RECORDER_ONLY}"
        ),
    },
)

_NAME: Final = string(minLength=1, maxLength=60)
_CARD_EFFECTS: Final = array(EFFECT, 1, MAX_EFFECTS)
_PLUS_ONE: Final = {
    "oneOf": [
        obj(
            {
                "id": ID,
                "kind": one_of_values([REFRESHABLE]),
                "cost": integer(1, MAX_COST),
                "effects": _CARD_EFFECTS,
            },
            {"name": _NAME},
        ),
        obj(
            {
                "id": ID,
                "kind": one_of_values([CORRUPTED]),
                "shards": integer(1, MAX_COST),
                "to": one_of_values(DESTINATIONS),
                "effects": _CARD_EFFECTS,
            },
            {"name": _NAME},
        ),
    ]
}

CATALOG_SCHEMA: Final = obj(
    {
        "guests": array(
            obj(
                {
                    "id": ID,
                    "health": integer(MIN_HEALTH, MAX_HEALTH),
                    "plus_ones": described(
                        array(_PLUS_ONE, 0, MAX_PLUS_ONES),
                        f"Corrupted cards hold {CORRUPTED_SHARDS_PER_GUEST} Shards at most in all",
                    ),
                },
                {"name": _NAME},
            ),
            2,
            12,
        ),
        "commoners": described(
            array(
                obj(
                    {"id": ID, "effects": _CARD_EFFECTS},
                    {"name": _NAME, "count": integer(1, MAX_COPIES)},
                ),
                1,
                MAX_COMMONER_ENTRIES,
            ),
            f"{MAX_DECK} cards at most in all",
        ),
    },
    {"label": string(minLength=1, maxLength=200)},
    description="ids are unique across the whole catalog",
)

_DEFAULT_GUESTS: Final = [guest["id"] for guest in DEFAULT_CATALOG["guests"]]


def options_schema(players: int) -> Schema:
    """The creation options (every one optional). The Guests are the default catalog's, or the
    ids of the catalog given: one variant each."""
    common: dict[str, Schema] = {
        "first_player": described(SEAT, "the seat that moves first (default: drawn by the seed)"),
        "chance": one_of_values(CHANCE_MODES),
        "layout": described(
            exactly(one_of_values(SPACE_EFFECTS), len(SPACE_EFFECTS), uniqueItems=True),
            "the five space effects once each, clockwise after each Home",
        ),
        "health": described(integer(MIN_HEALTH, MAX_HEALTH), "both seats' starting health"),
    }

    def guests(ids: Schema) -> Schema:
        return described(
            exactly(ids, SEATS, uniqueItems=True), "two different Guest ids, seat 0's first"
        )

    return {
        "oneOf": [
            obj({}, {"guests": guests(one_of_values(_DEFAULT_GUESTS)), **common}),
            obj({"catalog": CATALOG_SCHEMA}, {"guests": guests(ID), **common}),
        ]
    }
