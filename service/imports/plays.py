"""A play logged in another app, as the readers of its files give it, and the record it becomes.

A play is read whole or not at all: a reader gives a ``Play`` (everything its score sheet needs,
checked) or a ``Skipped`` (why it cannot be read). ``record_document`` turns a play into what
``Records.import_record`` takes: the export of a finished score sheet (``scoresheet.md``), one
``score`` event per player with a score, then the ``end`` with its ranks (or a cooperative
play's outcome), every event at the play's start and the finish ``minutes`` later.

Pure: no Flask, no Redis, no clock. The seed of a play's game is derived from where the play
comes from and its id, so that two plays of the same players and scores are still two records,
and the same play read twice is the same record.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from domain.errors import InvalidOptionsError
from domain.scoresheet.numbers import to_decimal
from domain.scoresheet.titles import check_title

# A score sheet's seats (scoresheet.md, "Creating one"), and a player's name (api.md).
MAX_PLAYERS = 20
MAX_NAME = 64

Number = int | float

# A score as the apps write it: an optional sign, digits, and optionally a point and digits.
_SCORE = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


class Unreadable(Exception):
    """A play that cannot be read: its reason, in words, for the answer's ``skipped``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Seat:
    """One player of a play: their name here, their points (None: none written), whether the
    app marks them a winner, and their team (None: none)."""

    name: str
    score: Number | None
    winner: bool
    team: str | None = None


@dataclass(frozen=True)
class Play:
    """A play read whole: where it comes from (``bgstats``, ``bgg``) and its id there, the title
    and how it scores, its seats in seat order, when it started and how long it lasted."""

    source: str
    play_id: str
    title: str
    bgg_id: int | None
    scoring: str
    cooperative: bool
    uses_teams: bool
    seats: tuple[Seat, ...]
    started: datetime
    minutes: int

    @property
    def key(self) -> str:
        """The play as the claims know it: ``<source>:<id>``."""
        return f"{self.source}:{self.play_id}"


@dataclass(frozen=True)
class Skipped:
    """A play that was not imported, and why."""

    play_id: str | None
    reason: str

    def as_json(self) -> dict[str, Any]:
        return {"uuid": self.play_id, "reason": self.reason}


def play_seed(source: str, play_id: str) -> int:
    """The seed of a play's game: the first 8 bytes of SHA-256 of ``<source>:<id>``."""
    return int.from_bytes(hashlib.sha256(f"{source}:{play_id}".encode()).digest()[:8], "big")


def read_score(text: Any, player: str) -> Number | None:
    """A score as the apps write it, a string: ``""`` is none, ``"49"``, ``"12.5"``, ``"-3"`` are
    numbers (as a score sheet takes them: at most 3 decimals, at most 10^9); anything else is
    Unreadable. A JSON number is taken too (a hand-edited file)."""
    if text is None:
        return None
    if isinstance(text, bool):
        raise Unreadable(f"{player}'s score {text!r} is not a number")
    if isinstance(text, int | float):
        number = to_decimal(text)
        if number is None:
            raise Unreadable(f"{player}'s score {text!r} is not a number a score sheet takes")
        return _json_number(number)
    if not isinstance(text, str):
        raise Unreadable(f"{player}'s score {text!r} is not a number")
    written = text.strip()
    if not written:
        return None
    if not _SCORE.fullmatch(written):
        raise Unreadable(f"{player}'s score {text!r} is not a number")
    number = Decimal(written)
    if abs(number) > 10**9:
        raise Unreadable(f"{player}'s score {text!r} is past 10^9")
    if number != number.quantize(Decimal("0.001")):
        raise Unreadable(f"{player}'s score {text!r} has more than 3 decimals")
    return _json_number(number)


def _json_number(number: Decimal) -> Number:
    """A decimal as the score sheet's JSON number: an int when integral, else the float whose
    shortest repr is that decimal."""
    if number == number.to_integral_value():
        return int(number)
    return float(number)


def check_name(name: Any) -> str:
    """A player's name as the service takes it (1 to 64 characters, not blank, no control
    characters); Unreadable otherwise."""
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME or not name.strip():
        raise Unreadable(f"the player name {name!r} is not a name (1 to {MAX_NAME} characters)")
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
        raise Unreadable(f"the player name {name!r} holds control characters")
    return name


def checked_title(title: Any) -> str:
    try:
        return check_title(title)
    except InvalidOptionsError as error:
        raise Unreadable(f"the game's name {title!r} is refused: {error.message}") from None


def check_seats(seats: list[Seat]) -> tuple[Seat, ...]:
    if not seats:
        raise Unreadable("the play has no players")
    if len(seats) > MAX_PLAYERS:
        raise Unreadable(f"the play has {len(seats)} players: a score sheet takes 1 to 20")
    names = [seat.name for seat in seats]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise Unreadable(f"the play names {', '.join(repeated)} more than once")
    return tuple(seats)


def teams_of(play: Play) -> list[list[int]] | None:
    """The teams of a play that uses them: seats grouped by their team, in order of first seat
    (a seat without a team is a team alone); None with fewer than two teams or in a cooperative
    play, which the table wins or loses together."""
    if not play.uses_teams or play.cooperative:
        return None
    groups: dict[str, list[int]] = {}
    for seat, one in enumerate(play.seats):
        label = one.team if one.team else f"\0seat {seat}"
        groups.setdefault(label, []).append(seat)
    teams = list(groups.values())
    return teams if len(teams) >= 2 else None


def ranks_of(play: Play, teams: list[list[int]] | None) -> list[int]:
    """The end's ranks (api.md, Bringing history in): the units (teams, or seats alone) with a
    seat marked winner rank 1 and the others follow, by their totals where the game has points,
    else sharing the next rank; with no winner marked, the totals decide. Members of a team
    share its rank."""
    units = teams if teams is not None else [[seat] for seat in range(len(play.seats))]
    has_points = play.scoring != "none"
    won = [any(play.seats[seat].winner for seat in unit) for unit in units]
    totals = [
        sum((Decimal(str(play.seats[seat].score or 0)) for seat in unit), Decimal(0))
        for unit in units
    ]

    def better(a: int, b: int) -> bool:
        """Whether unit ``a`` scored better than unit ``b``."""
        if not has_points:
            return False
        return totals[a] > totals[b] if play.scoring == "highest" else totals[a] < totals[b]

    winners = sum(won)
    unit_ranks = []
    for unit in range(len(units)):
        if won[unit]:
            unit_ranks.append(1)
            continue
        rivals = [other for other in range(len(units)) if not won[other]]
        unit_ranks.append(winners + 1 + sum(better(other, unit) for other in rivals))
    ranks = [0] * len(play.seats)
    for members, rank in zip(units, unit_ranks, strict=True):
        for seat in members:
            ranks[seat] = rank
    return ranks


def moment(when: datetime) -> str:
    """An instant as a record writes it: ``2025-01-01T12:00:00.000Z``."""
    return when.strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


def record_document(play: Play, rules_version: Any) -> dict[str, Any]:
    """The export of the finished score sheet ``play`` is: what ``Records.import_record`` takes."""
    teams = teams_of(play)
    options: dict[str, Any] = {
        "title": play.title,
        "scoring": play.scoring,
        "cooperative": play.cooperative,
    }
    if play.bgg_id:
        options["bgg_id"] = play.bgg_id
    if teams is not None:
        options["teams"] = teams
    at = moment(play.started)
    events: list[dict[str, Any]] = []
    if play.scoring != "none":
        events += [
            {"type": "score", "player": seat, "points": one.score, "at": at}
            for seat, one in enumerate(play.seats)
            if one.score is not None
        ]
    if play.cooperative:
        outcome = "won" if any(one.winner for one in play.seats) else "lost"
        events.append({"type": "end", "outcome": outcome, "at": at})
    else:
        events.append({"type": "end", "ranks": ranks_of(play, teams), "at": at})
    return {
        "game": "scoresheet",
        "players": [one.name for one in play.seats],
        "seed": play_seed(play.source, play.play_id),
        "options": options,
        "rules_version": rules_version,
        "created_at": at,
        "finished_at": moment(play.started + timedelta(minutes=play.minutes)),
        "events": events,
    }
