"""The cards of Mada and the catalog a game is dealt from.

A card is a JSON value: a Cactus card is its value, an integer 1..13; the specials are the strings
``"lemur"``, ``"double_lemur"`` and ``"scorpion"``.

A catalog says how many of each card the deck holds and how many prickly pears each Cactus value
shows. ``options.catalog`` gives one in this form (every key required, nothing else allowed)::

    {
        "cactus": [{"value": 1, "count": 5, "pears": 1}, ...],
        "lemur": 4,
        "double_lemur": 3,
        "scorpion": 3,
    }

- ``cactus``: one entry per value, each exactly ``value`` (an integer 1..13, no value twice),
  ``count`` (0..20) and ``pears`` (0..20); a value left out has no cards;
- ``lemur``, ``double_lemur``, ``scorpion``: how many of each, 0..20;
- the deck must hold at least ``3 * players + 1`` cards: a full deal and one card left to draw.

The canonical order of a deck (before the first shuffle) is the Cactus cards by ascending value,
then the Lemurs, the Double Lemurs, the Scorpions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, NoReturn

from domain.errors import InvalidOptionsError
from domain.events import is_int
from domain.repeats import repeated

# A seat that has set aside this many Cactus cards ends the game.
CARDS_TO_END: Final = 5

Card = int | str

LEMUR: Final = "lemur"
DOUBLE_LEMUR: Final = "double_lemur"
SCORPION: Final = "scorpion"
SPECIALS: Final = (LEMUR, DOUBLE_LEMUR, SCORPION)

MIN_VALUE: Final = 1
MAX_VALUE: Final = 13
MAX_COUNT: Final = 20
MAX_PEARS: Final = 20
HAND_LIMIT: Final = 3

# The project's own ruling (spec/mada.md, "Default catalog"): the rulebook prints neither the count
# per value nor the pears per card. Values 1..8 five cards each, 9..13 four each (60 Cactus cards);
# pears ceil(v / 2) capped at 6; 4 Lemurs, 3 Double Lemurs, 3 Scorpions: 70 cards.
DEFAULT_CATALOG: Final[Mapping[str, Any]] = {
    "cactus": [
        {"value": 1, "count": 5, "pears": 1},
        {"value": 2, "count": 5, "pears": 1},
        {"value": 3, "count": 5, "pears": 2},
        {"value": 4, "count": 5, "pears": 2},
        {"value": 5, "count": 5, "pears": 3},
        {"value": 6, "count": 5, "pears": 3},
        {"value": 7, "count": 5, "pears": 4},
        {"value": 8, "count": 5, "pears": 4},
        {"value": 9, "count": 4, "pears": 5},
        {"value": 10, "count": 4, "pears": 5},
        {"value": 11, "count": 4, "pears": 6},
        {"value": 12, "count": 4, "pears": 6},
        {"value": 13, "count": 4, "pears": 6},
    ],
    "lemur": 4,
    "double_lemur": 3,
    "scorpion": 3,
}

_SPECIAL_RANK: Final = {LEMUR: MAX_VALUE + 1, DOUBLE_LEMUR: MAX_VALUE + 2, SCORPION: MAX_VALUE + 3}
_CACTUS_FIELDS: Final = ("value", "count", "pears")


def card_order(card: Card) -> int:
    """Rank in the canonical order: Cactus by value, then Lemur, Double Lemur, Scorpion."""
    if isinstance(card, int):
        return card
    return _SPECIAL_RANK[card]


def is_cactus(card: Card) -> bool:
    return isinstance(card, int)


@dataclass(frozen=True, slots=True)
class Catalog:
    # Every copy of every card, in canonical order.
    deck: tuple[Card, ...]
    # The distinct cards the deck holds at least once, in canonical order.
    kinds: tuple[Card, ...]
    # Prickly pears by Cactus value; index 0 is unused so that pears[value] reads plainly.
    pears: tuple[int, ...]

    @classmethod
    def from_json(cls, catalog: Mapping[str, Any]) -> Catalog:
        """Build from a catalog already checked by ``normalize_catalog`` (or the default)."""
        pears = [0] * (MAX_VALUE + 1)
        deck: list[Card] = []
        for entry in sorted(catalog["cactus"], key=lambda entry: int(entry["value"])):
            pears[entry["value"]] = entry["pears"]
            deck.extend([entry["value"]] * entry["count"])
        for special in SPECIALS:
            deck.extend([special] * catalog[special])
        return cls(tuple(deck), tuple(dict.fromkeys(deck)), tuple(pears))

    def is_card(self, value: Any) -> bool:
        """A JSON value naming a card this deck holds (``True`` is not 1, nor ``1.0``)."""
        return (is_int(value) or isinstance(value, str)) and value in self.kinds

    def pears_of(self, card: int) -> int:
        return self.pears[card]


def normalize_catalog(raw: Any, players: int) -> dict[str, Any]:
    """Check a custom catalog and return a clean copy, Cactus entries sorted by value."""
    if not isinstance(raw, Mapping):
        _reject("must be an object with cactus, lemur, double_lemur and scorpion", "an object")
    expected = ("cactus", *SPECIALS)
    missing = [key for key in expected if key not in raw]
    unknown = [str(key) for key in raw if key not in expected]
    if missing or unknown:
        problems = [f"missing {key!r}" for key in missing] + [f"unknown {key!r}" for key in unknown]
        _reject(
            f"needs exactly the keys cactus, lemur, double_lemur, scorpion ({', '.join(problems)})",
            "; ".join(problems),
        )
    cactus = raw["cactus"]
    if not isinstance(cactus, list):
        _reject("cactus must be a list of {value, count, pears} entries", "cactus: a list")
    entries = [_cactus_entry(index, entry) for index, entry in enumerate(cactus)]
    values = [entry["value"] for entry in entries]
    twice = repeated(values)
    if twice:
        _reject(f"cactus lists the value(s) {twice} more than once", "cactus: values unique")
    normalized: dict[str, Any] = {"cactus": sorted(entries, key=lambda entry: entry["value"])}
    for special in SPECIALS:
        normalized[special] = _bounded(raw[special], special, 0, MAX_COUNT)
    size = sum(entry["count"] for entry in entries) + sum(normalized[s] for s in SPECIALS)
    needed = HAND_LIMIT * players + 1
    if size < needed:
        _reject(
            f"holds {size} cards, but {players} players need at least {needed}"
            f" ({HAND_LIMIT} each and one to draw)",
            f"at least {needed} cards",
        )
    _check_a_game_can_end(entries)
    return normalized


def _check_a_game_can_end(entries: list[dict[str, int]]) -> None:
    """Refuse a deck with which no game can ever end.

    A game ends once a seat has set aside CARDS_TO_END Cactus cards. Cards are set aside only when
    a round ends, and a round ends only when try_luck reveals a Cactus card lower than the top of
    the pile: that needs Cactus cards of two values at least, and one more Cactus card than the
    five set aside (the one revealed). Without them, every move stays legal forever (a jam, the
    other end, needs nearly every card out of play, which a pile of cards that never leave it
    cannot reach).
    """
    present = [entry for entry in entries if entry["count"]]
    if len(present) < 2:
        values = ", ".join(str(entry["value"]) for entry in present) or "none"
        _reject(
            "can never end: a round ends only when try_luck reveals a Cactus card lower than the"
            f" top of the pile, which needs Cactus cards of at least two values (this one has:"
            f" {values})",
            "Cactus cards of at least two values",
        )
    cards = sum(entry["count"] for entry in present)
    if cards < CARDS_TO_END + 1:
        _reject(
            f"can never end: a seat must set aside {CARDS_TO_END} Cactus cards and one more must"
            f" be revealed to end the round, so at least {CARDS_TO_END + 1} Cactus cards are"
            f" needed (this one has {cards})",
            f"at least {CARDS_TO_END + 1} Cactus cards",
        )


def _cactus_entry(index: int, entry: Any) -> dict[str, int]:
    where = f"cactus[{index}]"
    if not isinstance(entry, Mapping) or set(entry) != set(_CACTUS_FIELDS):
        _reject(
            f"{where} must be an object with exactly value, count and pears, got {entry!r}",
            f"{where}: value, count, pears",
        )
    return {
        "value": _bounded(entry["value"], f"{where}.value", MIN_VALUE, MAX_VALUE),
        "count": _bounded(entry["count"], f"{where}.count", 0, MAX_COUNT),
        "pears": _bounded(entry["pears"], f"{where}.pears", 0, MAX_PEARS),
    }


def _bounded(value: Any, where: str, low: int, high: int) -> int:
    if not is_int(value) or not low <= value <= high:
        _reject(
            f"{where} must be an integer from {low} to {high}, got {value!r}",
            f"{where}: an integer {low}..{high}",
        )
    return int(value)


def _reject(problem: str, detail: str) -> NoReturn:
    raise InvalidOptionsError(f"the catalog {problem}", {"catalog": detail})


DEFAULT: Final = Catalog.from_json(DEFAULT_CATALOG)
