"""What a finished duel of Madcala adds to the statistics: its turns and the damage dealt.

Read from the last state: ``turn`` counts every turn begun (extra turns included, the turn the
game ended in too), and ``damage_dealt`` the health each seat's effects actually took from the
other (a damage on a seat already at 0 takes nothing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from domain.game import Event
from domain.madcala.state import SEATS, MadcalaState

TURNS: Final = "turns"
DAMAGE: Final = "damage_dealt"
FIRST_PLAYER_DAMAGE: Final = "damage_dealt_first_player"


def _seat_damage(seat: int) -> str:
    return f"damage_dealt_seat_{seat}"


def stats_counters(events: Sequence[Event], states: Sequence[MadcalaState]) -> dict[str, int]:
    """``turns`` played, ``damage_dealt`` by both seats, by each seat, and by the first player."""
    if not states:
        return {TURNS: 0, DAMAGE: 0, FIRST_PLAYER_DAMAGE: 0}
    final = states[-1]
    counters = {
        TURNS: final.turn,
        DAMAGE: sum(final.damage_dealt),
        FIRST_PLAYER_DAMAGE: final.damage_dealt[final.first_player],
    }
    for seat in range(SEATS):
        counters[_seat_damage(seat)] = final.damage_dealt[seat]
    return counters


def stats_summary(counters: Mapping[str, int], games: int) -> dict[str, float]:
    def per(name: str, whole: float) -> float:
        return counters.get(name, 0) / whole if whole else 0.0

    damage = counters.get(DAMAGE, 0)
    return {
        "turns_per_game": per(TURNS, games),
        "damage_dealt_per_game": per(DAMAGE, games),
        "damage_dealt_per_turn": per(DAMAGE, counters.get(TURNS, 0)),
        **{
            f"damage_dealt_per_game_seat_{seat}": per(_seat_damage(seat), games)
            for seat in range(SEATS)
        },
        "first_player_damage_share": per(FIRST_PLAYER_DAMAGE, damage),
    }
