"""What the readers of other apps' files share: a play skipped with its reason, a score as the
apps write it, a player's name as the service takes it. The play itself (``Play``, ``Seat``) and
the record it becomes are the domain's (``domain.history``): the game that records any title
registers how.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from domain.history import Number, Play, Seat, Unreadable

__all__ = ["Number", "Play", "Seat", "Skipped", "Unreadable", "check_name", "check_seats"]

MAX_NAME = 64
# A score as the apps write it: an optional sign, digits, and optionally a point and digits.
_SCORE = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")
# A number a record takes: at most 3 decimals, at most 10^9 (the score sheet's numbers).
_DECIMALS = Decimal("0.001")
_LIMIT = 10**9


@dataclass(frozen=True)
class Skipped:
    """A play that was not imported, and why."""

    play_id: str | None
    reason: str

    def as_json(self) -> dict[str, Any]:
        return {"uuid": self.play_id, "reason": self.reason}


def read_score(text: Any, player: str) -> Number | None:
    """A score as the apps write it, a string: ``""`` is none, ``"49"``, ``"12.5"``, ``"-3"`` are
    numbers (at most 3 decimals, at most 10^9); anything else is Unreadable. A JSON number is
    taken too (a hand-edited file)."""
    if text is None:
        return None
    if isinstance(text, bool) or not isinstance(text, int | float | str):
        raise Unreadable(f"{player}'s score {text!r} is not a number")
    written = text.strip() if isinstance(text, str) else repr(text)
    if not written:
        return None
    if not _SCORE.fullmatch(written):
        raise Unreadable(f"{player}'s score {text!r} is not a number")
    number = Decimal(written)
    if abs(number) > _LIMIT:
        raise Unreadable(f"{player}'s score {text!r} is past 10^9")
    if number != number.quantize(_DECIMALS):
        raise Unreadable(f"{player}'s score {text!r} has more than 3 decimals")
    if number == number.to_integral_value():
        return int(number)
    # The float whose shortest repr is that decimal ("12.50" is 12.5).
    return float(number)


def check_name(name: Any) -> str:
    """A player's name as the service takes it (1 to 64 characters, not blank, no control
    characters); Unreadable otherwise."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME or not name.strip():
        raise Unreadable(f"the player name {name!r} is not a name (1 to {MAX_NAME} characters)")
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
        raise Unreadable(f"the player name {name!r} holds control characters")
    return name


def check_seats(seats: list[Seat]) -> tuple[Seat, ...]:
    """A play's seats: at least one, each name once."""
    if not seats:
        raise Unreadable("the play has no players")
    names = [seat.name for seat in seats]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise Unreadable(f"the play names {', '.join(repeated)} more than once")
    return tuple(seats)
