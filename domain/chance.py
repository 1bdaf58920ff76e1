"""Draw piles: the one place where chance enters a game.

In ``seeded`` mode a pile is an ordered tuple (index 0 is the top) shuffled by the game's generator.
In ``observed`` mode the recorder at the table tells which card came up; the pile is then only the
multiset of cards that are still unseen, kept in a canonical order, and every observed card must be
one of them (a fifth Lemur is rejected). Game rules draw through this object and never ask which
mode they are in.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from domain.errors import IllegalMoveError, InvalidEventError
from domain.rng import SplitMix64

C = TypeVar("C", bound=Hashable)

SEEDED = "seeded"
OBSERVED = "observed"
CHANCE_MODES = (SEEDED, OBSERVED)


@dataclass(frozen=True, slots=True)
class DrawPile(Generic[C]):
    cards: tuple[C, ...]
    observed: bool
    # Sorts an observed pile into canonical order; unused in seeded mode.
    sort_key: Callable[[C], int]

    @classmethod
    def new(
        cls,
        cards: Iterable[C],
        *,
        observed: bool,
        rng: SplitMix64,
        sort_key: Callable[[C], int],
    ) -> tuple[DrawPile[C], SplitMix64]:
        """Shuffle ``cards`` (given in canonical order) into a new pile.

        In observed mode nothing is shuffled and the generator is not advanced: the table shuffles.
        """
        if observed:
            return cls(tuple(sorted(cards, key=sort_key)), True, sort_key), rng
        shuffled, rng = rng.shuffled(tuple(cards))
        return cls(shuffled, False, sort_key), rng

    def __len__(self) -> int:
        return len(self.cards)

    def draw(self, seen: C | None) -> tuple[C, DrawPile[C]]:
        """Take the top card (seeded) or the card the recorder ``seen`` (observed)."""
        if not self.cards:
            raise IllegalMoveError("the draw pile is empty")
        if not self.observed:
            if seen is not None:
                raise InvalidEventError(
                    "a seeded game draws its own cards: leave out the card",
                    {"card": "not allowed in seeded mode"},
                )
            return self.cards[0], DrawPile(self.cards[1:], False, self.sort_key)
        if seen is None:
            raise InvalidEventError(
                "an observed game needs the card that was drawn", {"card": "required"}
            )
        if seen not in self.cards:
            raise IllegalMoveError(f"{seen!r} cannot be drawn: no such card is still unseen")
        rest = list(self.cards)
        rest.remove(seen)
        return seen, DrawPile(tuple(rest), True, self.sort_key)

    def distinct(self) -> tuple[C, ...]:
        """The different cards that could come up next, for legal-move lists."""
        if not self.observed:
            return self.cards[:1]
        return tuple(dict.fromkeys(self.cards))
