"""What a finished game of Mada adds to the statistics: its rounds, and how often try_luck loses.

Everything is read from the states the events led to, never from the events' outcome fields: a
seeded try_luck does not say which card came up, only the state after it shows whether it lost.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from domain.game import Event
from domain.mada.moves import TryLuck
from domain.mada.state import MadaState

ROUNDS: Final = "rounds"
TRY_LUCK: Final = "try_luck"
TRY_LUCK_LOST: Final = "try_luck_lost"


def stats_counters(events: Sequence[Event], states: Sequence[MadaState]) -> dict[str, int]:
    """``rounds`` played (the last one too, ended by a lost try_luck or by nobody able to move),
    ``try_luck`` moves, and ``try_luck_lost``: those that lost the round."""
    tried = lost = 0
    for index, event in enumerate(events):
        if event.get("type") != TryLuck.type:
            continue
        tried += 1
        if _round_ended(states[index - 1] if index else None, states[index]):
            lost += 1
    rounds = states[-1].round if states else 1
    return {ROUNDS: rounds, TRY_LUCK: tried, TRY_LUCK_LOST: lost}


def stats_summary(counters: Mapping[str, int], games: int) -> dict[str, float]:
    tried = counters.get(TRY_LUCK, 0)
    return {
        "rounds_per_game": counters.get(ROUNDS, 0) / games if games else 0.0,
        "try_luck_loss_rate": counters.get(TRY_LUCK_LOST, 0) / tried if tried else 0.0,
    }


def _round_ended(before: MadaState | None, after: MadaState) -> bool:
    """Only a lost round moves ``round`` on or sets cards aside; a round that ends the game sets
    at least one aside (the fifth), since it does not move ``round`` on. ``before`` is None for
    the first event: round 1, nothing set aside yet."""
    round_before = before.round if before is not None else 1
    aside_before = _set_aside_count(before) if before is not None else 0
    return after.round > round_before or _set_aside_count(after) > aside_before


def _set_aside_count(state: MadaState) -> int:
    return sum(len(cards) for cards in state.set_aside)
