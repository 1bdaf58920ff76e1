"""What the readers of other apps' files share: a play skipped with its reason, each play read or
skipped, a score as the apps write it, a player's name and a game's title as the service takes
them. The play itself (``Play``, ``Seat``) and the record it becomes are the domain's
(``domain.history``): the game that records any title registers how.
"""

from __future__ import annotations

import operator
import re
import sys
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal
from typing import Any, Concatenate, ParamSpec

from domain import most_players
from domain.history import Number, Play, Seat, Unreadable
from domain.repeats import repeated
from service.names import cleaned, problem

__all__ = [
    "Number",
    "Play",
    "Repeats",
    "Seat",
    "Skipped",
    "Unreadable",
    "check_name",
    "check_seats",
    "check_title",
    "mapped_name",
    "read_bgg_id",
    "read_or_skip",
]

# A number as the apps write it: digits, and optionally a point or a comma ("21,7") and digits.
_NUMBER = r"[0-9]+(?:[.,][0-9]+)?"
# A score: a number, or a sum or difference of numbers as the app keeps what was typed
# ("66-11-12", "10 + 5 + 3", "-32+8"). Each term is one operator and one number, with nothing to
# choose between two ways of reading a term, so matching (and failing) takes linear time.
_SCORE = re.compile(rf"\s*[+-]?\s*{_NUMBER}(?:\s*[+-]\s*{_NUMBER})*\s*")
_TERM = re.compile(rf"([+-]?)\s*({_NUMBER})")
# A number a record takes: at most 3 decimals, at most 10^9 (the score sheet's numbers).
_DECIMALS = Decimal("0.001")
_LIMIT = 10**9
# What a reader's play function takes besides the play's id.
_Details = ParamSpec("_Details")


# Slots: a file whose plays are refused (each in the future, say) holds one for each of them.
@dataclass(frozen=True, slots=True)
class Skipped:
    """A play that was not imported, and why."""

    play_id: str | None
    reason: str

    @classmethod
    def unknowable(cls, index: int, key: str) -> Skipped:
        """Play ``index`` (from 1) of a file, without the ``key`` that would know it again: a
        second import could not tell it from a new play, so it is never brought in."""
        return cls(None, f"play {index} has no {key}: it could not be known again")

    def as_json(self) -> dict[str, Any]:
        return {"uuid": self.play_id, "reason": self.reason}


class Repeats:
    """One object for each value a file repeats, while the file is read: an import holds every
    play of the file at once (to import them in order of play), and a file names a few dozen
    people, titles and days in thousands of plays. Without it, each play would hold its own
    copy of each (its title, a player's name as written, the seats of a table that meets every
    week), and a file of bare plays would take more than 4x its size (api.md; figure 14 of
    benchmark.md). Values a file never repeats (a play's id) are not kept here: a cache of
    them would only add to what the file takes."""

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}
        self._numbers: dict[int, int] = {}
        self._seats: dict[tuple[Seat, type], Seat] = {}
        self._tables: dict[tuple[Seat, ...], tuple[Seat, ...]] = {}
        self._days: dict[str, datetime] = {}

    def text(self, value: str | None) -> str | None:
        """``value``, the one string equal to it this file has given."""
        return value if value is None else self._texts.setdefault(value, value)

    def number(self, value: int | None) -> int | None:
        """An integer (a game's BoardGameGeek id), the one equal to it this file has given."""
        return value if value is None else self._numbers.setdefault(value, value)

    def seats(self, seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
        """A play's seats, each the one seat equal to it this file has given (a frozen value:
        sharing it is safe; its score's type is part of the key, as 1 and 1.0 are equal), in
        the one tuple of those seats this file has given."""
        shared = tuple(self._seats.setdefault((seat, type(seat.score)), seat) for seat in seats)
        kept = self._tables.setdefault(shared, shared)
        # Equal tuples of different seats (a score of 1 and one of 1.0) are not one.
        return kept if all(map(operator.is_, kept, shared)) else shared

    def day(self, text: str, read: Callable[[str], datetime]) -> datetime:
        """``read(text)``, once for each ``text`` this file gives (a day, which many plays
        share); what ``read`` raises (Unreadable) is not kept."""
        if text not in self._days:
            self._days[text] = read(text)
        return self._days[text]


def read_or_skip(
    read: Callable[Concatenate[str, _Details], Play],
    play_id: str,
    *details: _Details.args,
    **named: _Details.kwargs,
) -> Play | Skipped:
    """``read(play_id, *details)``, the play as a reader makes it, or the play skipped with the
    reason it is Unreadable: one play that cannot be read never stops the others of the file."""
    try:
        return read(play_id, *details, **named)
    except Unreadable as error:
        return Skipped(play_id, error.reason)


def read_bgg_id(value: Any) -> int | None:
    """A game's BoardGameGeek id as a file gives it (a JSON number, or the digits of an XML
    attribute): a positive integer of at most 12 digits, else None: the play is imported without
    it. A longer run is no id (and int() of thousands of digits refuses)."""
    if isinstance(value, str):
        text = value.strip()
        value = int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value if 0 < value < 10**12 else None


def read_score(text: Any, player: str) -> Number | None:
    """A score as the apps write it, a string: ``""`` is none; ``"49"``, ``"12.5"``, ``"21,7"``
    (a decimal comma), ``"-3"`` are numbers; a sum or difference of such numbers (``"66-11-12"``)
    is its result, computed exactly. Each term and the result are numbers a record takes (at
    most 3 decimals, at most 10^9); anything else is Unreadable. A JSON number is taken too (a
    hand-edited file)."""
    if text is None:
        return None
    if isinstance(text, bool) or not isinstance(text, int | float | str):
        raise Unreadable(f"{player}'s score {text!r} is not a number")
    written = text.strip() if isinstance(text, str) else repr(text)
    if not written:
        return None
    if not _SCORE.fullmatch(written):
        raise Unreadable(f"{player}'s score {text!r} is not a number")
    total = Decimal(0)
    for sign, digits in _TERM.findall(written):
        term = _score_number(Decimal(sign + digits.replace(",", ".")), text, player)
        # Exact: every term is at most 10^9 in thousandths, so even millions of them stay far
        # within Decimal's 28 digits.
        total += term
    total = _score_number(total, text, player)
    if total == total.to_integral_value():
        return int(total)
    # The float whose shortest repr is that decimal ("12.50" is 12.5).
    return float(total)


def _score_number(number: Decimal, text: Any, player: str) -> Decimal:
    """``number``, a term of the score ``text`` or its result, when a record takes it."""
    if abs(number) > _LIMIT:
        raise Unreadable(f"{player}'s score {text!r} is past 10^9")
    if number != number.quantize(_DECIMALS):
        raise Unreadable(f"{player}'s score {text!r} has more than 3 decimals")
    return number


def check_name(name: Any) -> str:
    """Another app's name as the service takes it (``service.names``): the characters no name
    holds are dropped (a byte order mark or zero-width space the app kept would make "Ann" two
    people), in NFC, trimmed; Unreadable when what is left is not a name (blank, too long)."""
    if not isinstance(name, str):
        raise Unreadable(f"the player name {name!r} is not a name")
    why = problem(cleaned(name))
    if why is not None:
        raise Unreadable(f"the player name {name!r} is not a name: {why}")
    # Interned: a file names a few dozen people in thousands of seats, and an import holds every
    # play at once (to import them in order of play): one string per name, not one per seat.
    return sys.intern(cleaned(name))


def mapped_name(name: Any, names: Mapping[str, str]) -> str:
    """The name here of a player another app names ``name``, through the request's ``names``
    (which may name them as the app wrote them, or as cleaned), checked by check_name."""
    if isinstance(name, str):
        name = names.get(name, names.get(cleaned(name), name))
    return check_name(name)


def check_title(name: Any) -> str:
    """A game's title as the file names it; Unreadable when it is not a string, or holds a lone
    surrogate (half of a character cut in two, as an app may write it escaped: no record can be
    written in UTF-8 with it)."""
    if not isinstance(name, str):
        raise Unreadable(f"the game's name {name!r} is not a name")
    if any(unicodedata.category(char) == "Cs" for char in name):
        raise Unreadable(f"the game's name {name!r} holds a lone surrogate (half a character)")
    return name


def check_seats(seats: list[Seat]) -> tuple[Seat, ...]:
    """A play's seats: at least one, no more than any game takes (counted before the names are
    compared), namesakes told apart, then each name once (two names the request maps to one
    are a problem)."""
    if not seats:
        raise Unreadable("the play has no players")
    if len(seats) > most_players():
        raise Unreadable(
            f"the play has {len(seats)} players; a game takes at most {most_players()} players"
        )
    seats = _namesakes_apart(seats)
    twice = repeated(seat.name for seat in seats)
    if twice:
        raise Unreadable(f"the play names {', '.join(twice)} more than once")
    return tuple(seats)


def _namesakes_apart(seats: list[Seat]) -> list[Seat]:
    """Players of one play written with the same name are different people (the app's
    "Anonymous player"): the second is ``<name> (2)``, the third ``<name> (3)``, in that play."""
    seen: dict[str, int] = {}
    apart = []
    for seat in seats:
        written = seat.name if seat.written is None else cleaned(seat.written)
        seen[written] = seen.get(written, 0) + 1
        if seen[written] > 1:
            seat = replace(seat, name=check_name(f"{seat.name} ({seen[written]})"))
        apart.append(seat)
    return apart
