"""The cards of Madcala (Guests, their Plus-One cards, the Commoners) and the catalog a game uses.

The rulebook prints none of the cards' texts, so the project ships a catalog of its own
(``DEFAULT_CATALOG``, spec/madcala.md "Components and the default catalog", a **ruling**). Every
effect is one of the rulebook's primitives (``EFFECTS``). ``options.catalog`` gives another catalog
in the same form, so that owners of the printed cards can record with them::

    {
        "label": "what this catalog is",                        # optional
        "guests": [                                             # at least 2
            {
                "id": "alice", "name": "Alice", "health": 25,   # name optional; health 1..99
                "plus_ones": [                                  # 0 to 5 cards
                    {"id": "alice_drink_me", "name": "Drink Me", "kind": "refreshable",
                     "cost": 2, "effects": ["heal", "add_shard"]},
                    {"id": "alice_curiouser", "kind": "corrupted",
                     "shards": 2, "to": "home", "effects": ["draw_commoner"]},
                ],
            },
            ...
        ],
        "commoners": [                                          # 1 to 100 entries
            {"id": "dormouse", "name": "The Dormouse", "effects": ["heal"], "count": 1},
            ...
        ],
    }

- ids: 1 to 40 letters, digits, ``_`` or ``-``, unique across the whole catalog; names: 1 to 60
  characters (default: the id);
- ``effects``: 1 to 4 of ``EFFECTS`` (a name may repeat: the effect is then performed again);
- a Refreshable card has ``cost`` 1..4 (normal Shards paid from the board); a Corrupted card holds
  ``shards`` 1..4 and says where a removed Shard goes, ``to``: ``home``, ``any_own_space`` or
  ``reserve``; a Guest's Corrupted cards hold at most 6 Shards in all (the Shards not on the board
  at setup);
- a Commoner entry has ``count`` copies in the deck (1..10, default 1), at most 200 cards in all.

The canonical order of the Commoner deck (before the first shuffle) is the catalog's order, each
entry's copies together. Inside a game a Commoner card is the index of its entry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NoReturn

from domain.errors import InvalidOptionsError
from domain.events import is_int
from domain.repeats import repeated

# The rulebook's primitives: the five space effects, then the other icons of its glossary.
ADD_SHARD: Final = "add_shard"
HEAL: Final = "heal"
DRAW_COMMONER: Final = "draw_commoner"
DAMAGE: Final = "damage"
REFRESH_PLUS_ONE: Final = "refresh_plus_one"
GATHER_SHARDS: Final = "gather_shards"
EXTRA_TURN: Final = "extra_turn"
STRIKE_SHARD: Final = "strike_shard"
STRIKE_PLUS_ONE: Final = "strike_plus_one"
SPACE_EFFECTS: Final = (ADD_SHARD, HEAL, DRAW_COMMONER, DAMAGE, REFRESH_PLUS_ONE)
EFFECTS: Final = (*SPACE_EFFECTS, GATHER_SHARDS, EXTRA_TURN, STRIKE_SHARD, STRIKE_PLUS_ONE)

REFRESHABLE: Final = "refreshable"
CORRUPTED: Final = "corrupted"
KINDS: Final = (REFRESHABLE, CORRUPTED)
# Where a Shard removed from a Corrupted card goes.
TO_HOME: Final = "home"
TO_ANY_OWN_SPACE: Final = "any_own_space"
TO_RESERVE: Final = "reserve"
DESTINATIONS: Final = (TO_HOME, TO_ANY_OWN_SPACE, TO_RESERVE)

MIN_HEALTH: Final = 1
MAX_HEALTH: Final = 99
MAX_PLUS_ONES: Final = 5
MAX_EFFECTS: Final = 4
MAX_COST: Final = 4
CORRUPTED_SHARDS_PER_GUEST: Final = 6
MAX_COMMONER_ENTRIES: Final = 100
MAX_COPIES: Final = 10
MAX_DECK: Final = 200
_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,40}")
_NAME_LENGTH: Final = 60

# The project's own ruling (spec/madcala.md): NOT the printed cards, which the rulebook does not
# reproduce. Six Guests named as the public previews name them, maximum health 25, three Plus-One
# cards each (one Corrupted per Guest: 6 of 18), and 35 Commoners of one or two effects, all built
# from the rulebook's primitives. Damage outnumbers healing (a war game), so that duels end.
DEFAULT_CATALOG: Final[Mapping[str, Any]] = {
    "label": (
        "Tabletape's own catalog, a ruling of spec/madcala.md: not the printed cards of Madcala,"
        " whose texts the rulebook does not give"
    ),
    "guests": [
        {
            "id": "alice",
            "name": "Alice",
            "health": 25,
            "plus_ones": [
                {"id": "alice_drink_me", "name": "Drink Me", "kind": "refreshable", "cost": 2,
                 "effects": ["heal", "add_shard"]},
                {"id": "alice_eat_me", "name": "Eat Me", "kind": "refreshable", "cost": 3,
                 "effects": ["damage", "damage"]},
                {"id": "alice_curiouser", "name": "Curiouser and Curiouser", "kind": "corrupted",
                 "shards": 2, "to": "home", "effects": ["draw_commoner"]},
            ],
        },
        {
            "id": "hatter",
            "name": "The Hatter",
            "health": 25,
            "plus_ones": [
                {"id": "hatter_tea_time", "name": "Tea Time", "kind": "refreshable", "cost": 4,
                 "effects": ["extra_turn"]},
                {"id": "hatter_unbirthday", "name": "Unbirthday Party", "kind": "refreshable",
                 "cost": 2, "effects": ["damage", "heal"]},
                {"id": "hatter_move_down", "name": "Clean Cup, Move Down", "kind": "corrupted",
                 "shards": 3, "to": "any_own_space", "effects": ["strike_shard"]},
            ],
        },
        {
            "id": "red_queen",
            "name": "The Red Queen",
            "health": 25,
            "plus_ones": [
                {"id": "red_queen_off_with_their_head", "name": "Off With Their Head",
                 "kind": "refreshable", "cost": 3, "effects": ["damage", "damage"]},
                {"id": "red_queen_croquet", "name": "Flamingo Croquet", "kind": "refreshable",
                 "cost": 1, "effects": ["strike_shard"]},
                {"id": "red_queen_card_guards", "name": "Card Guards", "kind": "corrupted",
                 "shards": 3, "to": "reserve", "effects": ["damage"]},
            ],
        },
        {
            "id": "cheshire_cat",
            "name": "The Cheshire Cat",
            "health": 25,
            "plus_ones": [
                {"id": "cheshire_cat_grin", "name": "A Grin Without a Cat", "kind": "refreshable",
                 "cost": 2, "effects": ["strike_plus_one", "damage"]},
                {"id": "cheshire_cat_vanish", "name": "Vanishing Slowly", "kind": "refreshable",
                 "cost": 3, "effects": ["gather_shards"]},
                {"id": "cheshire_cat_all_mad", "name": "We're All Mad Here", "kind": "corrupted",
                 "shards": 2, "to": "any_own_space", "effects": ["refresh_plus_one", "damage"]},
            ],
        },
        {
            "id": "white_rabbit",
            "name": "The White Rabbit",
            "health": 25,
            "plus_ones": [
                {"id": "white_rabbit_late", "name": "I'm Late!", "kind": "refreshable", "cost": 4,
                 "effects": ["extra_turn"]},
                {"id": "white_rabbit_pocket_watch", "name": "Pocket Watch", "kind": "refreshable",
                 "cost": 2, "effects": ["refresh_plus_one"]},
                {"id": "white_rabbit_gloves", "name": "Kid Gloves and Fan", "kind": "corrupted",
                 "shards": 3, "to": "home", "effects": ["draw_commoner", "heal"]},
            ],
        },
        {
            "id": "jabberwock",
            "name": "The Jabberwock",
            "health": 25,
            "plus_ones": [
                {"id": "jabberwock_jaws", "name": "Jaws That Bite", "kind": "refreshable",
                 "cost": 3, "effects": ["damage", "damage"]},
                {"id": "jabberwock_claws", "name": "Claws That Catch", "kind": "refreshable",
                 "cost": 2, "effects": ["strike_shard", "damage"]},
                {"id": "jabberwock_eyes_of_flame", "name": "Eyes of Flame", "kind": "corrupted",
                 "shards": 4, "to": "reserve", "effects": ["damage", "strike_plus_one"]},
            ],
        },
    ],
    "commoners": [
        {"id": "dormouse", "name": "The Dormouse", "effects": ["heal"]},
        {"id": "march_hare", "name": "The March Hare", "effects": ["extra_turn"]},
        {"id": "caterpillar", "name": "The Caterpillar", "effects": ["refresh_plus_one", "heal"]},
        {"id": "duchess", "name": "The Duchess", "effects": ["damage", "strike_plus_one"]},
        {"id": "cook", "name": "The Cook", "effects": ["damage", "damage"]},
        {"id": "bill", "name": "Bill the Lizard", "effects": ["strike_shard"]},
        {"id": "mock_turtle", "name": "The Mock Turtle", "effects": ["heal", "draw_commoner"]},
        {"id": "gryphon", "name": "The Gryphon", "effects": ["damage", "gather_shards"]},
        {"id": "white_king", "name": "The White King", "effects": ["refresh_plus_one"]},
        {"id": "red_king", "name": "The Red King", "effects": ["add_shard", "heal"]},
        {"id": "tweedledum", "name": "Tweedledum", "effects": ["damage"]},
        {"id": "tweedledee", "name": "Tweedledee", "effects": ["damage"]},
        {"id": "humpty_dumpty", "name": "Humpty Dumpty", "effects": ["strike_shard", "damage"]},
        {"id": "dodo", "name": "The Dodo", "effects": ["gather_shards"]},
        {"id": "knave_of_hearts", "name": "The Knave of Hearts",
         "effects": ["strike_plus_one", "damage"]},
        {"id": "two_of_spades", "name": "The Two of Spades", "effects": ["damage"]},
        {"id": "five_of_spades", "name": "The Five of Spades", "effects": ["damage", "add_shard"]},
        {"id": "seven_of_spades", "name": "The Seven of Spades",
         "effects": ["damage", "strike_shard"]},
        {"id": "frog_footman", "name": "The Frog-Footman", "effects": ["draw_commoner"]},
        {"id": "fish_footman", "name": "The Fish-Footman",
         "effects": ["add_shard", "refresh_plus_one"]},
        {"id": "pat", "name": "Pat", "effects": ["add_shard"]},
        {"id": "lory", "name": "The Lory", "effects": ["heal", "strike_shard"]},
        {"id": "eaglet", "name": "The Eaglet", "effects": ["damage"]},
        {"id": "duck", "name": "The Duck", "effects": ["add_shard", "add_shard"]},
        {"id": "mouse", "name": "The Mouse", "effects": ["strike_plus_one"]},
        {"id": "pig_baby", "name": "The Pig-Baby", "effects": ["heal"]},
        {"id": "white_knight", "name": "The White Knight",
         "effects": ["damage", "refresh_plus_one"]},
        {"id": "red_knight", "name": "The Red Knight", "effects": ["damage", "strike_plus_one"]},
        {"id": "white_queen", "name": "The White Queen", "effects": ["heal", "extra_turn"]},
        {"id": "carpenter", "name": "The Carpenter", "effects": ["gather_shards", "add_shard"]},
        {"id": "walrus", "name": "The Walrus", "effects": ["damage", "heal"]},
        {"id": "oysters", "name": "The Young Oysters", "effects": ["draw_commoner", "add_shard"]},
        {"id": "bandersnatch", "name": "The Bandersnatch", "effects": ["damage", "damage"]},
        {"id": "jubjub_bird", "name": "The Jubjub Bird", "effects": ["damage", "strike_shard"]},
        {"id": "slithy_tove", "name": "The Slithy Tove", "effects": ["strike_shard", "add_shard"]},
    ],
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class PlusOneCard:
    id: str
    name: str
    kind: str
    # Refreshable: Shards paid per use (0 for a Corrupted card).
    cost: int
    # Corrupted: Shards on the card at setup, and where a removed one goes (None if Refreshable).
    shards: int
    to: str | None
    effects: tuple[str, ...]

    @property
    def corrupted(self) -> bool:
        return self.kind == CORRUPTED


@dataclass(frozen=True, slots=True)
class Guest:
    id: str
    name: str
    health: int
    plus_ones: tuple[PlusOneCard, ...]


@dataclass(frozen=True, slots=True)
class Commoner:
    id: str
    name: str
    effects: tuple[str, ...]
    count: int


@dataclass(frozen=True, slots=True)
class Catalog:
    label: str
    guests: tuple[Guest, ...]
    commoners: tuple[Commoner, ...]
    # Every copy of every Commoner (as the index of its entry), in canonical order.
    deck: tuple[int, ...]
    # Lookups by id; derived from the fields above, so left out of comparisons.
    guest_index: Mapping[str, int] = field(compare=False, repr=False)
    commoner_index: Mapping[str, int] = field(compare=False, repr=False)
    plus_one_cards: Mapping[str, PlusOneCard] = field(compare=False, repr=False)

    @classmethod
    def from_json(cls, catalog: Mapping[str, Any]) -> Catalog:
        """Build from a catalog already checked by ``normalize_catalog``."""
        guests = tuple(
            Guest(
                guest["id"],
                guest["name"],
                guest["health"],
                tuple(
                    PlusOneCard(
                        card["id"],
                        card["name"],
                        card["kind"],
                        card.get("cost", 0),
                        card.get("shards", 0),
                        card.get("to"),
                        tuple(card["effects"]),
                    )
                    for card in guest["plus_ones"]
                ),
            )
            for guest in catalog["guests"]
        )
        commoners = tuple(
            Commoner(entry["id"], entry["name"], tuple(entry["effects"]), entry["count"])
            for entry in catalog["commoners"]
        )
        deck = tuple(index for index, entry in enumerate(commoners) for _ in range(entry.count))
        return cls(
            label=catalog["label"],
            guests=guests,
            commoners=commoners,
            deck=deck,
            guest_index={guest.id: index for index, guest in enumerate(guests)},
            commoner_index={entry.id: index for index, entry in enumerate(commoners)},
            plus_one_cards={card.id: card for guest in guests for card in guest.plus_ones},
        )

    def is_commoner(self, value: Any) -> bool:
        return isinstance(value, str) and value in self.commoner_index

    def is_plus_one(self, value: Any) -> bool:
        return isinstance(value, str) and value in self.plus_one_cards


def commoner_order(card: int) -> int:
    """Rank of a Commoner card in the canonical order: its entry's index."""
    return card


# --- checking a custom catalog -------------------------------------------------------------------


def normalize_catalog(raw: Any) -> dict[str, Any]:
    """Check a catalog and return a clean copy with every default written out."""
    _object(raw, "catalog", required=("guests", "commoners"), optional=("label",))
    label = raw.get("label", "a custom catalog")
    if not isinstance(label, str) or not 1 <= len(label) <= 200:
        _reject("label must be a text of 1 to 200 characters", "label: a text")
    guests = _list(raw["guests"], "guests", 2, 12)
    commoners = _list(raw["commoners"], "commoners", 1, MAX_COMMONER_ENTRIES)
    normalized: dict[str, Any] = {
        "label": label,
        "guests": [_guest(index, guest) for index, guest in enumerate(guests)],
        "commoners": [_commoner(index, entry) for index, entry in enumerate(commoners)],
    }
    ids = [guest["id"] for guest in normalized["guests"]]
    ids += [card["id"] for guest in normalized["guests"] for card in guest["plus_ones"]]
    ids += [entry["id"] for entry in normalized["commoners"]]
    twice = repeated(ids)
    if twice:
        _reject(f"it uses the id(s) {twice} more than once", "ids unique across the catalog")
    size = sum(entry["count"] for entry in normalized["commoners"])
    if size > MAX_DECK:
        _reject(f"it has {size} Commoner cards; at most {MAX_DECK}", f"at most {MAX_DECK} cards")
    return normalized


def _guest(index: int, raw: Any) -> dict[str, Any]:
    where = f"guests[{index}]"
    _object(raw, where, required=("id", "health", "plus_ones"), optional=("name",))
    guest_id = _id(raw["id"], f"{where}.id")
    cards = _list(raw["plus_ones"], f"{where}.plus_ones", 0, MAX_PLUS_ONES)
    plus_ones = [_plus_one(f"{where}.plus_ones[{i}]", card) for i, card in enumerate(cards)]
    on_cards = sum(card.get("shards", 0) for card in plus_ones)
    if on_cards > CORRUPTED_SHARDS_PER_GUEST:
        _reject(
            f"{where}'s Corrupted cards hold {on_cards} Shards; at most"
            f" {CORRUPTED_SHARDS_PER_GUEST} (the Shards left off the board at setup)",
            f"{where}.plus_ones: at most {CORRUPTED_SHARDS_PER_GUEST} Shards on Corrupted cards",
        )
    return {
        "id": guest_id,
        "name": _name(raw.get("name", guest_id), f"{where}.name"),
        "health": _bounded(raw["health"], f"{where}.health", MIN_HEALTH, MAX_HEALTH),
        "plus_ones": plus_ones,
    }


def _plus_one(where: str, raw: Any) -> dict[str, Any]:
    if not isinstance(raw, Mapping) or raw.get("kind") not in KINDS:
        _reject(f"{where}.kind must be 'refreshable' or 'corrupted'", f"{where}.kind")
    if raw["kind"] == REFRESHABLE:
        _object(raw, where, required=("id", "kind", "cost", "effects"), optional=("name",))
    else:
        _object(raw, where, required=("id", "kind", "shards", "to", "effects"), optional=("name",))
    card_id = _id(raw["id"], f"{where}.id")
    card: dict[str, Any] = {
        "id": card_id,
        "name": _name(raw.get("name", card_id), f"{where}.name"),
        "kind": raw["kind"],
    }
    if raw["kind"] == REFRESHABLE:
        card["cost"] = _bounded(raw["cost"], f"{where}.cost", 1, MAX_COST)
    else:
        card["shards"] = _bounded(raw["shards"], f"{where}.shards", 1, MAX_COST)
        if raw["to"] not in DESTINATIONS:
            _reject(
                f"{where}.to must be one of {', '.join(DESTINATIONS)}, got {raw['to']!r}",
                f"{where}.to: one of {', '.join(DESTINATIONS)}",
            )
        card["to"] = raw["to"]
    card["effects"] = _effects(raw["effects"], f"{where}.effects")
    return card


def _commoner(index: int, raw: Any) -> dict[str, Any]:
    where = f"commoners[{index}]"
    _object(raw, where, required=("id", "effects"), optional=("name", "count"))
    card_id = _id(raw["id"], f"{where}.id")
    return {
        "id": card_id,
        "name": _name(raw.get("name", card_id), f"{where}.name"),
        "effects": _effects(raw["effects"], f"{where}.effects"),
        "count": _bounded(raw.get("count", 1), f"{where}.count", 1, MAX_COPIES),
    }


def _effects(raw: Any, where: str) -> list[str]:
    effects = _list(raw, where, 1, MAX_EFFECTS)
    for effect in effects:
        if effect not in EFFECTS:
            _reject(
                f"{where} names {effect!r}, which is not one of the rulebook's effects"
                f" ({', '.join(EFFECTS)})",
                f"{where}: effects among {', '.join(EFFECTS)}",
            )
    return list(effects)


def _object(raw: Any, where: str, *, required: tuple[str, ...], optional: tuple[str, ...]) -> None:
    if not isinstance(raw, Mapping):
        _reject(f"{where} must be an object, got {raw!r}"[:300], f"{where}: an object")
    missing = [key for key in required if key not in raw]
    unknown = [str(key) for key in raw if key not in required and key not in optional]
    if missing or unknown:
        problems = [f"missing {key!r}" for key in missing] + [f"unknown {key!r}" for key in unknown]
        _reject(
            f"{where} needs the keys {', '.join(required)}"
            + (f" (and may have {', '.join(optional)})" if optional else "")
            + f": {', '.join(problems)}",
            f"{where}: {'; '.join(problems)}",
        )


def _list(raw: Any, where: str, low: int, high: int) -> list[Any]:
    if not isinstance(raw, list) or not low <= len(raw) <= high:
        _reject(f"{where} must be a list of {low} to {high} entries", f"{where}: {low}..{high}")
    return raw


def _id(raw: Any, where: str) -> str:
    if not isinstance(raw, str) or not _ID.fullmatch(raw):
        _reject(
            f"{where} must be 1 to 40 letters, digits, '_' or '-', got {raw!r}"[:300],
            f"{where}: an id",
        )
    return raw


def _name(raw: Any, where: str) -> str:
    if not isinstance(raw, str) or not 1 <= len(raw) <= _NAME_LENGTH:
        _reject(f"{where} must be a text of 1 to {_NAME_LENGTH} characters", f"{where}: a text")
    return raw


def _bounded(value: Any, where: str, low: int, high: int) -> int:
    if not is_int(value) or not low <= value <= high:
        _reject(
            f"{where} must be an integer from {low} to {high}, got {value!r}"[:300],
            f"{where}: an integer {low}..{high}",
        )
    return int(value)


def _reject(problem: str, detail: str) -> NoReturn:
    raise InvalidOptionsError(f"the catalog is invalid: {problem}", {"catalog": detail})


DEFAULT: Final = Catalog.from_json(normalize_catalog(DEFAULT_CATALOG))
