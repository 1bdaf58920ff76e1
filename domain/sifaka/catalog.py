"""The Terrain cards of Sifaka, the Mango counters, and the catalog a game is dealt from.

A box is written as a short string: ``"blank"``, ``"palms:N"`` (N palm trees, 1 to 3),
``"arrow:D"`` (an arrow pointing D, one of N, E, S, W, at rotation 0) or ``"mango:C"`` (a mango of
colour C: green, yellow or red). ``options.catalog`` gives a deck in this form::

    {
        "name": "my printed deck",                  (optional: a label shown in the state)
        "cards": [
            {"id": 1, "boxes": ["palms:1", "arrow:S", "blank", "mango:green"]},
            ...
        ],
    }

- ``cards``: 1 to 100 cards, each exactly ``id`` (an integer 1..9999, no id twice) and ``boxes``
  (4 boxes: top-left, top-right, bottom-left, bottom-right, at rotation 0);
- the order of ``cards`` is the canonical order of the deck, the order it is shuffled from.

The 30 Mango counters are the rulebook's and do not change with the deck. Their canonical order is
green, then yellow, then red, each colour by ascending value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final, NoReturn

from domain.errors import InvalidOptionsError
from domain.events import is_int
from domain.repeats import repeated
from domain.sifaka.geometry import DIRECTIONS, ROTATIONS, Quad, rotate_quad, turned

BLANK: Final = "blank"
PALMS: Final = "palms"
ARROW: Final = "arrow"
MANGO: Final = "mango"
# The four boxes of the Hut cards that show a hut (never in a deck).
HUT: Final = "hut"

GREEN: Final = "green"
YELLOW: Final = "yellow"
RED: Final = "red"
# Mango colours in the canonical order of the counters.
MANGO_COLOURS: Final = (GREEN, YELLOW, RED)
# Every counter, by colour, in canonical order (ascending value).
COUNTERS: Final[Mapping[str, tuple[int, ...]]] = {
    GREEN: (1,) * 10 + (2,) * 5,
    YELLOW: (2,) * 6 + (3,) * 3,
    RED: (3,) * 4 + (4,) * 2,
}
MAX_COUNTER_VALUE: Final = 4

MIN_PALMS: Final = 1
MAX_PALMS: Final = 3
MAX_CARDS: Final = 100
MAX_CARD_ID: Final = 9999
MAX_NAME: Final = 100

# The project's own ruling (spec/sifaka.md, "Components and the default deck"): the rulebook does
# not print the cards, so this deck is Tabletape's, not Azao Games'. It holds exactly 48 cards:
# 30 mango boxes (15 green, 9 yellow, 6 red, at most one per card), 40 boxes of 1 palm, 32 of 2
# palms, 16 of 3 palms, 48 arrows (12 per direction at rotation 0) and 26 blank boxes.
DEFAULT_CATALOG: Final[Mapping[str, Any]] = {
    "name": "Tabletape's own default deck (a ruling of the project, not the printed cards)",
    "cards": [
        {"id": 1, "boxes": ["palms:1", "arrow:S", "blank", "palms:1"]},
        {"id": 2, "boxes": ["palms:2", "mango:green", "arrow:W", "palms:2"]},
        {"id": 3, "boxes": ["blank", "palms:2", "palms:1", "palms:2"]},
        {"id": 4, "boxes": ["palms:3", "palms:1", "arrow:E", "mango:yellow"]},
        {"id": 5, "boxes": ["mango:red", "palms:1", "blank", "arrow:N"]},
        {"id": 6, "boxes": ["arrow:E", "palms:2", "arrow:S", "blank"]},
        {"id": 7, "boxes": ["arrow:N", "palms:1", "mango:green", "arrow:W"]},
        {"id": 8, "boxes": ["arrow:S", "palms:3", "blank", "mango:green"]},
        {"id": 9, "boxes": ["arrow:W", "palms:2", "palms:1", "palms:3"]},
        {"id": 10, "boxes": ["palms:2", "mango:yellow", "palms:1", "palms:2"]},
        {"id": 11, "boxes": ["blank", "blank", "palms:3", "palms:1"]},
        {"id": 12, "boxes": ["palms:1", "arrow:E", "palms:1", "mango:green"]},
        {"id": 13, "boxes": ["mango:red", "palms:2", "arrow:N", "palms:2"]},
        {"id": 14, "boxes": ["palms:1", "arrow:S", "blank", "palms:2"]},
        {"id": 15, "boxes": ["palms:3", "arrow:W", "mango:yellow", "palms:1"]},
        {"id": 16, "boxes": ["blank", "palms:1", "palms:2", "mango:green"]},
        {"id": 17, "boxes": ["palms:2", "palms:2", "arrow:E", "palms:1"]},
        {"id": 18, "boxes": ["palms:1", "mango:green", "blank", "arrow:N"]},
        {"id": 19, "boxes": ["arrow:E", "palms:3", "arrow:S", "blank"]},
        {"id": 20, "boxes": ["arrow:N", "palms:1", "arrow:W", "mango:yellow"]},
        {"id": 21, "boxes": ["mango:red", "arrow:S", "palms:2", "blank"]},
        {"id": 22, "boxes": ["arrow:W", "palms:1", "palms:1", "palms:2"]},
        {"id": 23, "boxes": ["blank", "blank", "mango:green", "palms:3"]},
        {"id": 24, "boxes": ["palms:1", "palms:2", "palms:2", "mango:green"]},
        {"id": 25, "boxes": ["palms:2", "arrow:E", "palms:1", "arrow:E"]},
        {"id": 26, "boxes": ["palms:3", "mango:yellow", "arrow:N", "blank"]},
        {"id": 27, "boxes": ["palms:1", "arrow:S", "palms:1", "arrow:N"]},
        {"id": 28, "boxes": ["palms:2", "arrow:W", "palms:2", "mango:green"]},
        {"id": 29, "boxes": ["mango:red", "blank", "palms:1", "palms:3"]},
        {"id": 30, "boxes": ["palms:1", "palms:3", "palms:1", "arrow:S"]},
        {"id": 31, "boxes": ["palms:2", "blank", "mango:yellow", "blank"]},
        {"id": 32, "boxes": ["arrow:E", "palms:2", "arrow:E", "mango:green"]},
        {"id": 33, "boxes": ["arrow:N", "palms:1", "arrow:N", "arrow:W"]},
        {"id": 34, "boxes": ["arrow:S", "mango:green", "palms:1", "arrow:S"]},
        {"id": 35, "boxes": ["arrow:W", "palms:2", "arrow:W", "palms:1"]},
        {"id": 36, "boxes": ["blank", "blank", "palms:2", "mango:yellow"]},
        {"id": 37, "boxes": ["mango:red", "palms:1", "palms:3", "palms:1"]},
        {"id": 38, "boxes": ["palms:3", "palms:1", "blank", "palms:3"]},
        {"id": 39, "boxes": ["palms:2", "arrow:E", "mango:green", "palms:2"]},
        {"id": 40, "boxes": ["palms:1", "arrow:N", "palms:1", "mango:green"]},
        {"id": 41, "boxes": ["blank", "arrow:S", "palms:3", "blank"]},
        {"id": 42, "boxes": ["palms:1", "mango:yellow", "arrow:W", "palms:2"]},
        {"id": 43, "boxes": ["palms:2", "palms:2", "palms:1", "palms:2"]},
        {"id": 44, "boxes": ["palms:3", "blank", "blank", "mango:green"]},
        {"id": 45, "boxes": ["mango:red", "palms:1", "palms:1", "arrow:E"]},
        {"id": 46, "boxes": ["blank", "palms:2", "arrow:N", "palms:1"]},
        {"id": 47, "boxes": ["arrow:E", "palms:1", "mango:yellow", "arrow:S"]},
        {"id": 48, "boxes": ["arrow:N", "palms:3", "arrow:W", "mango:green"]},
    ],
}


@dataclass(frozen=True, slots=True)
class Box:
    """One box: its ``kind`` and what it shows (palm trees, an arrow, a colour)."""

    kind: str
    palms: int = 0
    arrow: str | None = None
    # A mango's colour, or the colour of a hut.
    colour: str | None = None

    def rotated(self, rotation: int) -> Box:
        """The box on a card turned ``rotation`` degrees clockwise: only an arrow changes."""
        if self.arrow is None or rotation % 360 == 0:
            return self
        return Box(ARROW, arrow=turned(self.arrow, rotation))

    def to_json(self) -> dict[str, Any]:
        """``{"kind": ...}`` and, but for a blank box, the kind's own field (``palms``...)."""
        if self.kind == PALMS:
            return {"kind": PALMS, PALMS: self.palms}
        if self.kind == ARROW:
            return {"kind": ARROW, ARROW: self.arrow}
        if self.kind in (MANGO, HUT):
            return {"kind": self.kind, self.kind: self.colour}
        return {"kind": self.kind}

    @property
    def spec(self) -> str:
        """The box as a catalog writes it: ``"palms:2"``, ``"arrow:N"``, ``"blank"``..."""
        shown = self.to_json()
        return self.kind if len(shown) == 1 else f"{self.kind}:{shown[self.kind]}"


BLANK_BOX: Final = Box(BLANK)


def hut(colour: str) -> Box:
    return Box(HUT, colour=colour)


@dataclass(frozen=True, slots=True)
class Card:
    id: int
    # At rotation 0, in footprint order.
    boxes: Quad[Box]
    # The boxes as laid at each rotation (index rotation // 90), in footprint order.
    faces: tuple[Quad[Box], ...] = field(init=False, repr=False, compare=False)
    # The rotations that lay different boxes: of rotations laying the same, only the smallest.
    rotations: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        top_left, top_right, bottom_left, bottom_right = self.boxes
        faces = tuple(
            rotate_quad(
                (
                    top_left.rotated(r),
                    top_right.rotated(r),
                    bottom_left.rotated(r),
                    bottom_right.rotated(r),
                ),
                r,
            )
            for r in ROTATIONS
        )
        distinct: dict[Quad[Box], int] = {}
        for rotation, face in zip(ROTATIONS, faces, strict=True):
            distinct.setdefault(face, rotation)
        object.__setattr__(self, "faces", faces)
        object.__setattr__(self, "rotations", tuple(distinct.values()))

    def face(self, rotation: int) -> Quad[Box]:
        return self.faces[rotation // 90]


@dataclass(frozen=True, slots=True)
class CardOrder:
    """The canonical order of a deck as a sort key (a value: two equal decks sort alike and
    compare equal, which a bound method of each would not)."""

    ids: tuple[int, ...]

    def __call__(self, card_id: int) -> int:
        return self.ids.index(card_id)


@dataclass(frozen=True, slots=True)
class Catalog:
    name: str | None
    # Every card, in canonical order.
    cards: tuple[Card, ...]
    by_id: Mapping[int, Card] = field(init=False, repr=False, compare=False)
    order: CardOrder = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {card.id: card for card in self.cards})
        object.__setattr__(self, "order", CardOrder(tuple(card.id for card in self.cards)))

    @classmethod
    def from_json(cls, catalog: Mapping[str, Any]) -> Catalog:
        """Build from a catalog already checked by ``normalize_catalog`` (or the default)."""
        cards = tuple(Card(entry["id"], _boxes(entry["boxes"])) for entry in catalog["cards"])
        return cls(catalog.get("name"), cards)

    @property
    def ids(self) -> tuple[int, ...]:
        return self.order.ids

    def is_card(self, value: Any) -> bool:
        """A JSON value naming a card of this deck (``True`` is not 1, nor is ``1.0``)."""
        return is_int(value) and value in self.by_id


def _boxes(specs: list[str]) -> Quad[Box]:
    top_left, top_right, bottom_left, bottom_right = (parse_box(spec) for spec in specs)
    return top_left, top_right, bottom_left, bottom_right


def parse_box(spec: Any) -> Box:
    """A box from its catalog string; ValueError (with the reason) if it is none."""
    if not isinstance(spec, str):
        raise ValueError("a box is a string")
    kind, _, shown = spec.partition(":")
    if kind == BLANK and spec == BLANK:
        return BLANK_BOX
    if kind == PALMS and shown in {str(n) for n in range(MIN_PALMS, MAX_PALMS + 1)}:
        return Box(PALMS, palms=int(shown))
    if kind == ARROW and shown in DIRECTIONS:
        return Box(ARROW, arrow=shown)
    if kind == MANGO and shown in MANGO_COLOURS:
        return Box(MANGO, colour=shown)
    raise ValueError(
        f"{spec!r} is no box: 'blank', 'palms:1' to 'palms:{MAX_PALMS}',"
        " 'arrow:N' (or E, S, W) or 'mango:green' (or yellow, red)"
    )


def normalize_catalog(raw: Any) -> dict[str, Any]:
    """Check a custom catalog and return a clean copy (cards in the order given)."""
    if not isinstance(raw, Mapping):
        _reject("must be an object with cards (and optionally name)", "an object")
    unknown = [str(key) for key in raw if key not in ("name", "cards")]
    if unknown or "cards" not in raw:
        problems = [f"unknown {key!r}" for key in unknown]
        if "cards" not in raw:
            problems.insert(0, "missing 'cards'")
        _reject(
            f"needs the key cards and may have name, nothing else ({', '.join(problems)})",
            "; ".join(problems),
        )
    normalized: dict[str, Any] = {}
    if "name" in raw:
        name = raw["name"]
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME:
            _reject(f"name must be a string of 1 to {MAX_NAME} characters", "name: a string")
        normalized["name"] = name
    cards = raw["cards"]
    if not isinstance(cards, list) or not 1 <= len(cards) <= MAX_CARDS:
        _reject(f"cards must be a list of 1 to {MAX_CARDS} cards", f"cards: 1..{MAX_CARDS} cards")
    entries = [_card_entry(index, entry) for index, entry in enumerate(cards)]
    ids = [entry["id"] for entry in entries]
    twice = repeated(ids)
    if twice:
        _reject(f"gives the id(s) {twice} to more than one card", "cards: ids unique")
    normalized["cards"] = entries
    return normalized


def _card_entry(index: int, entry: Any) -> dict[str, Any]:
    where = f"cards[{index}]"
    if not isinstance(entry, Mapping) or set(entry) != {"id", "boxes"}:
        _reject(f"{where} must be an object with exactly id and boxes", f"{where}: id, boxes")
    card_id = entry["id"]
    if not is_int(card_id) or not 1 <= card_id <= MAX_CARD_ID:
        _reject(
            f"{where}.id must be an integer from 1 to {MAX_CARD_ID}, got {card_id!r}",
            f"{where}.id: an integer 1..{MAX_CARD_ID}",
        )
    boxes = entry["boxes"]
    if not isinstance(boxes, list) or len(boxes) != 4:
        _reject(
            f"{where}.boxes must be a list of 4 boxes (top-left, top-right, bottom-left,"
            " bottom-right)",
            f"{where}.boxes: 4 boxes",
        )
    for position, spec in enumerate(boxes):
        try:
            parse_box(spec)
        except ValueError as error:
            _reject(f"{where}.boxes[{position}]: {error}", f"{where}.boxes[{position}]: a box")
    return {"id": int(card_id), "boxes": list(boxes)}


def _reject(problem: str, detail: str) -> NoReturn:
    raise InvalidOptionsError(f"the catalog {problem}", {"catalog": detail})


DEFAULT: Final = Catalog.from_json(DEFAULT_CATALOG)


def deck(catalog: Mapping[str, Any]) -> Catalog:
    """The Catalog of a record's ``options.catalog`` (already normalized), built once per deck:
    a game's move list names its cards move after move."""
    return _deck_of(json.dumps(catalog, sort_keys=True))


@lru_cache(maxsize=32)
def _deck_of(catalog_json: str) -> Catalog:
    return Catalog.from_json(json.loads(catalog_json))
