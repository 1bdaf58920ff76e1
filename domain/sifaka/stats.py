"""What a finished game of Sifaka adds to the statistics: its turns, the boxes the sifakas went,
and the counters taken by colour.

Everything is read from the final state (every turn adds to ``moved`` and ``taken``), except the
turns, which are the ``move`` events: each turn ends with exactly one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from domain.game import Event
from domain.sifaka.catalog import MANGO_COLOURS
from domain.sifaka.moves import Move
from domain.sifaka.state import SifakaState

TURNS: Final = "turns"
BOXES_MOVED: Final = "boxes_moved"
COUNTERS: Final = tuple(f"counters_{colour}" for colour in MANGO_COLOURS)


def stats_counters(events: Sequence[Event], states: Sequence[SifakaState]) -> dict[str, int]:
    """``turns`` played, ``boxes_moved`` by every sifaka, and ``counters_green``,
    ``counters_yellow``, ``counters_red``: the counters taken of each colour."""
    counters = dict.fromkeys(COUNTERS, 0)
    moved = 0
    if states:
        final = states[-1]
        moved = sum(final.moved)
        for taken in final.taken:
            for counter in taken:
                counters[f"counters_{counter.colour}"] += 1
    turns = sum(1 for event in events if event.get("type") == Move.type)
    return {TURNS: turns, BOXES_MOVED: moved, **counters}


def stats_summary(counters: Mapping[str, int], games: int) -> dict[str, float]:
    def per_game(value: int) -> float:
        return value / games if games else 0.0

    turns = counters.get(TURNS, 0)
    moved = counters.get(BOXES_MOVED, 0)
    return {
        "turns_per_game": per_game(turns),
        "boxes_moved_per_game": per_game(moved),
        "boxes_moved_per_turn": moved / turns if turns else 0.0,
        "counters_per_game": per_game(sum(counters.get(name, 0) for name in COUNTERS)),
        **{f"{name}_per_game": per_game(counters.get(name, 0)) for name in COUNTERS},
    }
