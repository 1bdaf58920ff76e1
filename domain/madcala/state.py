"""The state of a duel of Madcala, and the questions about it that rules, legal moves, views share.

The board is 12 spaces indexed 0..11 clockwise; seat 0 owns 0..5, seat 1 owns 6..11, and each
seat's Home is the first space of its side (spec/madcala.md, "The board"). A Commoner card is the
index of its catalog entry; the Commoner deck is a ``DrawPile`` (index 0 is its top), the discard a
tuple bottom-to-top.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeVar

from domain.chance import DrawPile
from domain.copies import changer
from domain.madcala.catalog import Catalog, Guest, PlusOneCard
from domain.rng import SplitMix64

T = TypeVar("T")

SEATS: Final = 2
SPACES: Final = 12
SIDE: Final = 6
NORMAL_SHARDS: Final = 16
SHARDS_PER_SPACE: Final = 2
HAND_LIMIT: Final = 2
COMMONER_PRICE: Final = 3


@dataclass(frozen=True, slots=True)
class Space:
    # Normal Shards of seat 0 and seat 1, and whether each seat's Doubler is here.
    normal: tuple[int, int]
    doubler: tuple[bool, bool]

    @property
    def empty(self) -> bool:
        return not (self.normal[0] or self.normal[1] or self.doubler[0] or self.doubler[1])


@dataclass(frozen=True, slots=True)
class PlusOne:
    card: PlusOneCard
    face_up: bool
    # Shards still on a Corrupted card (always 0 on a Refreshable one).
    shards: int


@dataclass(frozen=True, slots=True)
class MadcalaState:
    catalog: Catalog
    # The effects of the five spaces after each Home, clockwise (the same on both sides).
    layout: tuple[str, ...]
    guests: tuple[Guest, Guest]
    first_player: int
    rng: SplitMix64
    deck: DrawPile[int]
    discard: tuple[int, ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    spaces: tuple[Space, ...]
    reserves: tuple[int, int]
    plus_ones: tuple[tuple[PlusOne, ...], tuple[PlusOne, ...]]
    health: tuple[int, int]
    max_health: tuple[int, int]
    # The seat whose turn it is.
    current: int
    turn: int = 1
    # Whether ``current`` has made this turn's move.
    moved: bool = False
    # More turns owed to ``current`` once this one ends.
    extra_turns: int = 0
    # Health each seat's effects took from the other (for the statistics).
    damage_dealt: tuple[int, int] = (0, 0)
    finished: bool = False
    version: int = 0

    @property
    def observed(self) -> bool:
        return self.deck.observed


# ``dataclasses.replace`` for MadcalaState, fast (``domain.copies``).
with_changes = changer(MadcalaState)


def home(seat: int) -> int:
    return seat * SIDE


def side(seat: int) -> range:
    return range(seat * SIDE, seat * SIDE + SIDE)


def owner(space: int) -> int:
    return space // SIDE


def effect_at(state: MadcalaState, space: int) -> str | None:
    """The effect of a space; None for a Home."""
    offset = space % SIDE
    return None if offset == 0 else state.layout[offset - 1]


def next_space(space: int, mover: int) -> int:
    """The next space clockwise where ``mover`` places a Shard: the opponent's Home is skipped."""
    following = (space + 1) % SPACES
    if following == home(1 - mover):
        following = (following + 1) % SPACES
    return following


def own_on_board(state: MadcalaState, seat: int) -> int:
    """``seat``'s normal Shards on the board."""
    return sum(space.normal[seat] for space in state.spaces)


def side_is_empty(state: MadcalaState, seat: int) -> bool:
    return all(state.spaces[space].empty for space in side(seat))


def can_draw(state: MadcalaState) -> bool:
    return bool(state.deck) or bool(state.discard)


def winners(state: MadcalaState) -> list[int]:
    """Once over: the seats left with health; both when both are at 0 (a draw)."""
    if not state.finished:
        return []
    alive = [seat for seat in range(SEATS) if state.health[seat] > 0]
    return alive or list(range(SEATS))


def is_draw(state: MadcalaState) -> bool:
    return state.finished and all(health == 0 for health in state.health)


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def pair(items: tuple[T, ...]) -> tuple[T, T]:
    assert len(items) == SEATS
    return items[0], items[1]


def without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``cards`` less one copy of ``card`` (which must be there)."""
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]
