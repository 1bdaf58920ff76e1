"""Plays logged in other apps (a group's history), and the game that records them.

A reader of another app's file (``service.imports``) gives each play as a ``Play``: where it
comes from and its id there, the title, how it scores, its seats in seat order, when it started
and how long it lasted. The game that records any title registers, at the bottom of its
package, the function that turns a play into the export of its finished record
(``register_play_recorder``); ``record_of`` calls it, so that no reader names a game.

Pure: ids and times are passed in. The seed of a play's game is derived from where it comes from
and its id (``play_seed``): two plays of the same players and scores are still two records, and
the same play read twice is the same record.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

Number = int | float


class Unreadable(Exception):
    """A play that cannot be read or recorded: its reason, in words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# Slots: an import holds every play of a file at once (to import them in order of play), and a
# play without its __dict__ takes about half the memory (api.md: within 4x the file's size).
@dataclass(frozen=True, slots=True)
class Seat:
    """One player of a play: their name here, their points (None: none written), whether the
    app marks them a winner, and their team (None: none); the name as the file wrote it (None:
    the same), which tells namesakes (two of the app's "Anonymous player") from two players the
    request's names map to one name."""

    name: str
    score: Number | None
    winner: bool
    team: str | None = None
    written: str | None = None


@dataclass(frozen=True, slots=True)
class Play:
    """A play read whole: where it comes from (``bgstats``, ``bgg``) and its id there, the title
    and how it scores (``highest``, ``lowest``, ``none``), whether the table plays together and
    whether it plays in teams, its seats in seat order, when it started (UTC, naive) and how
    many minutes it lasted; when it started as the file wrote it, for the reasons that quote
    it; and whether the file says that nobody won it, whatever its marks and scores
    (BoardGameGeek's ``nowinstats``)."""

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
    started_as_written: str | None = None
    no_winner: bool = False
    # Where it was played and the note written on it, as the other app kept them.
    location: str | None = None
    comment: str | None = None
    # How many plays this one record logs (BoardGameGeek's ``quantity``): each its own game,
    # the second and later known by ``<id>/<k>``. Kept as a number until each is imported
    # (``each_play``), so that a record of 999 plays holds one play, not 999.
    copies: int = 1

    @property
    def key(self) -> str:
        """The play as it is known again: ``<source>:<id>``."""
        return f"{self.source}:{self.play_id}"


def each_play(play: Play) -> Iterator[Play]:
    """The plays one record logs (its ``copies``), each of one copy, in the order of their ids
    (``<id>``, ``<id>/10``, ``<id>/11``, ..., ``<id>/2``, ...: plays of one start are imported
    in the order of their ids)."""
    if play.copies == 1:
        yield play
        return
    later = (f"{play.play_id}/{k}" for k in range(2, play.copies + 1))
    for play_id in sorted([play.play_id, *later]):
        yield replace(play, play_id=play_id, copies=1)


def play_seed(play: Play) -> int:
    """The seed of a play's game: the first 8 bytes of SHA-256 of ``<source>:<id>``."""
    return int.from_bytes(hashlib.sha256(play.key.encode()).digest()[:8], "big")


PlayRecorder = Callable[[Play], dict[str, Any]]
_recorders: list[PlayRecorder] = []


def register_play_recorder(recorder: PlayRecorder) -> PlayRecorder:
    """Register the function that turns a play into the export of its finished record (the
    game that records any title does, once)."""
    _recorders[:] = [recorder]
    return recorder


def record_of(play: Play) -> dict[str, Any]:
    """The export of the finished record ``play`` becomes (header and events with their ``at``,
    ``created_at``, ``finished_at``; no salt); Unreadable for a play the game cannot record."""
    if not _recorders:
        raise Unreadable("no game here records plays of other apps")
    return _recorders[0](play)
