"""The state of a game of Mada, and the questions about it that rules, legal moves and views share.

Every pile is a tuple, bottom-to-top (the top card is the last); the draw pile is the one exception,
a ``DrawPile`` whose index 0 is its top.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, TypeVar

from domain.chance import DrawPile
from domain.copies import changer
from domain.mada.catalog import DOUBLE_LEMUR, LEMUR, SCORPION, Card, Catalog
from domain.rng import SplitMix64

T = TypeVar("T")

# The decisions the reducer may wait for (``pending.kind``).
DEAL: Final = "deal"
SCORPION_DISCARD: Final = "scorpion_discard"
CHOOSE_TARGET: Final = "choose_target"
ROUND_DISCARD: Final = "round_discard"


@dataclass(frozen=True, slots=True)
class Pending:
    kind: str
    player: int


@dataclass(frozen=True, slots=True)
class MadaState:
    players: int
    first_player: int
    catalog: Catalog
    rng: SplitMix64
    draw_pile: DrawPile[Card]
    hands: tuple[tuple[Card, ...], ...]
    # Personal piles, bottom-to-top.
    piles: tuple[tuple[Card, ...], ...]
    # Face-down scoring cards per seat, in the order set aside.
    set_aside: tuple[tuple[int, ...], ...]
    # The general discard, bottom-to-top.
    discard: tuple[Card, ...]
    # The seat whose turn it is, or whose turn it was while ``pending`` waits on a decision.
    turn: int
    pending: Pending | None
    # True until the deal and the dealt Scorpions are done: a scorpion_discard then continues the
    # setup instead of passing the turn.
    in_setup: bool
    round: int = 1
    finished: bool = False
    version: int = 0

    @property
    def observed(self) -> bool:
        return self.draw_pile.observed


# ``dataclasses.replace`` for MadaState, fast (``domain.copies``).
with_changes = changer(MadaState)


def current_player(state: MadaState) -> int | None:
    if state.finished:
        return None
    if state.pending is not None:
        return state.pending.player
    return state.turn


def effective_top(pile: Sequence[Card]) -> int | None:
    """The value a Cactus card must reach on this pile; None when any value may go on it."""
    if not pile or not isinstance(pile[-1], int):
        # Piles only ever hold Cactus cards and Lemurs: an empty pile or a Lemur takes anything.
        return None
    return pile[-1]


def may_play(pile: Sequence[Card], card: Card) -> bool:
    if card in (LEMUR, DOUBLE_LEMUR):
        return True
    if not isinstance(card, int):
        return False
    top = effective_top(pile)
    return top is None or card >= top


def can_play_any(state: MadaState, seat: int) -> bool:
    pile = state.piles[seat]
    return any(may_play(pile, card) for card in state.hands[seat])


def can_draw_any(state: MadaState) -> bool:
    """A card can be drawn, from the draw pile or from a reshuffle of the discards."""
    return bool(state.draw_pile) or bool(state.discard) or any(len(p) > 1 for p in state.piles)


def cards_to_reshuffle(state: MadaState) -> tuple[Card, ...]:
    """What a reshuffle gathers, in order: the discard, then each pile but its top, seat by seat."""
    gathered = list(state.discard)
    for pile in state.piles:
        gathered.extend(pile[:-1])
    return tuple(gathered)


def scorpion_choices(hand: Sequence[Card]) -> tuple[Card, ...]:
    """The distinct hand cards that may go with a Scorpion (a Scorpion is never a hand card)."""
    return tuple(dict.fromkeys(card for card in hand if card != SCORPION))


def scores(state: MadaState) -> list[int]:
    return [sum(state.catalog.pears_of(card) for card in cards) for cards in state.set_aside]


def winners(state: MadaState) -> list[int]:
    if not state.finished:
        return []
    points = scores(state)
    best = max(points)
    return [seat for seat, score in enumerate(points) if score == best]


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """``cards`` less one copy of ``card`` (which must be there)."""
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]
