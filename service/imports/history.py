"""The import of plays from other apps (api.md, Bringing history in): each play becomes a finished
score sheet through ``Records.import_record``, so that it is checked, chained, archived, counted
and rated as any imported record is.

A play is known by its id in its app: before its game is made, the play is claimed
(``GameIndexes.claim_play``: SET NX on ``<prefix>imports:<source>:<id>``, held for a while by
this import), and the claim then holds the game's id for good; a play that fails is released.
Two imports of one file at once make each play once: the second finds the claim and counts the
play as ``already`` once the first has settled it. The record's own claims (its digest) back
this up: a play whose game is here though its claim is lost is ``already`` too.

An id is no proof of the play, though: a play whose id holds a game is ``already`` only when that
game is the record this play makes (``Records.records``); else it ``differs`` (another play used
the id first, in this file or before, or the play was edited in its app since), and is listed with
the game that holds the id, never silently dropped.

Plays are imported in order of play (their start, then their id), whatever the file's order:
the archive jobs are enqueued in that order, so the ratings are extended at their end rather
than rated again from the middle (the ratings are those of the order of play either way). They
are enqueued as the import goes, GAMES_PER_JOB games to a job (``Records.ask_counts``): the
workers count one batch while the next is imported, each batch in a few round trips.

A play's import waits on Redis most of its time (five round trips: its claim, the games played
from its header, the record's lease and claims, its game stored whole, its listings with its claim
settled), so PLAYS_AT_ONCE plays of a batch are imported
side by side, each whole as alone (threads; greenlets under the API's gevent): only the waiting
overlaps. A batch never holds one play id twice (a later play of the same id starts the next
batch), so which of two plays of one id came first is the file's order of play, as one at a
time; and the answer and the jobs list each batch's plays in that order.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from itertools import islice
from operator import attrgetter
from typing import Any

from domain.errors import TabletapeError
from domain.history import Unreadable, each_play, record_of
from service.errors import AlreadyImportedError
from service.games.records import Records
from service.imports.plays import Play, Skipped
from service.store.chain import new_salt
from service.store.indexes import CLAIM_SECONDS, GameIndexes
from service.store.queue import GAMES_PER_JOB

# How long an import waits for a play another import is making before saying so.
WAIT_SECONDS = 10.0
# How many plays of a batch are imported at once (figure 14: about 3x one at a time).
PLAYS_AT_ONCE = 8


@dataclass(frozen=True, slots=True)
class Differs:
    """A play whose id holds a game here that is not the game this play makes."""

    play_id: str
    game: str

    def as_json(self) -> dict[str, Any]:
        return {"uuid": self.play_id, "game": self.game}


@dataclass
class ImportOutcome:
    """What an import did: plays imported (their games), already here, whose id holds another
    game, skipped with reasons."""

    imported: int = 0
    already: int = 0
    differs: list[Differs] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    games: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "imported": self.imported,
            "already": self.already,
            "differs": [one.as_json() for one in self.differs],
            "skipped": [one.as_json() for one in self.skipped],
            "games": self.games,
        }

    def add(self, other: ImportOutcome) -> None:
        """Count in what ``other`` (a play's own outcome) holds, after what this holds."""
        self.imported += other.imported
        self.already += other.already
        self.differs += other.differs
        self.skipped += other.skipped
        self.games += other.games


@dataclass
class Preview:
    """What a file holds, before it is imported: its plays that can be imported, how many of
    them are here already (their id holds a game: imported before), their titles and players
    with their plays, most first, and the plays that cannot be imported, with their reasons."""

    plays: int
    already: int
    titles: list[tuple[str, int]]
    players: list[tuple[str, int]]
    skipped: list[Skipped]

    def as_json(self) -> dict[str, Any]:
        return {
            "plays": self.plays,
            "already": self.already,
            "titles": [{"title": title, "plays": plays} for title, plays in self.titles],
            "players": [{"name": name, "plays": plays} for name, plays in self.players],
            "skipped": [one.as_json() for one in self.skipped],
        }


class History:
    """Imports plays read from other apps' files."""

    def __init__(self, records: Records, indexes: GameIndexes) -> None:
        self.records = records
        self.indexes = indexes

    def import_plays(
        self,
        found: list[Play | Skipped],
        progress: Callable[[int], None] | None = None,
    ) -> ImportOutcome:
        """Import each play of ``found`` (its skipped ones stay skipped), in order of play;
        ``progress`` is told of each play done. ``found`` is taken over, and emptied: each play
        is let go once imported, so that the games' ids the answer lists take the place of the
        plays already imported rather than adding to them (api.md: within 4x the file)."""
        outcome = ImportOutcome(skipped=[one for one in found if isinstance(one, Skipped)])
        plays = [one for one in found if isinstance(one, Play)]
        found.clear()
        # By start, then id: two stable sorts, by the second key then the first, give the order
        # of the pair without making a pair for each play (a key tuple for each of thousands of
        # plays at once would take half the file again).
        plays.sort(key=attrgetter("play_id"))
        plays.sort(key=attrgetter("started"))
        # The last play first: _batches takes the plays off its end, in order of play.
        plays.reverse()
        with ThreadPoolExecutor(PLAYS_AT_ONCE, thread_name_prefix="import") as plays_at_once:
            for batch in _batches(_each_in_order(plays)):
                counted = len(outcome.games)
                for one in plays_at_once.map(self._import_one, batch):
                    outcome.add(one)
                    if progress is not None:
                        progress(1)
                self.records.ask_counts(outcome.games[counted:])
        return outcome

    def preview(self, found: Sequence[Play | Skipped]) -> Preview:
        """What importing ``found`` would bring, read as the import reads it, writing nothing."""
        plays = [one for one in found if isinstance(one, Play)]
        titles: Counter[str] = Counter()
        players: Counter[str] = Counter()
        for play in plays:
            titles[play.title] += play.copies
            for seat in play.seats:
                players[seat.name] += play.copies
        return Preview(
            plays=sum(play.copies for play in plays),
            already=self._already_here(plays),
            titles=_most_first(titles),
            players=_most_first(players),
            skipped=[one for one in found if isinstance(one, Skipped)],
        )

    def _already_here(self, plays: list[Play]) -> int:
        """How many of the plays ``plays`` log have their id held by a game here, asked a
        thousand ids at a time (a record of many copies makes its ids only as they are asked)."""
        already = 0
        keys = (one.key for play in plays for one in each_play(play))
        while chunk := list(islice(keys, 1000)):
            held = self.indexes.plays_held(chunk)
            already += sum(1 for one in held if one is not None and not one.startswith("pending:"))
        return already

    def _import_one(self, play: Play) -> ImportOutcome:
        """The play imported, or counted already here, differing or skipped: its outcome."""
        outcome = ImportOutcome()
        owner = f"pending:{new_salt()}"
        held = self._claim(play, owner)
        if held is not None:
            if held.startswith("pending:"):
                outcome.skipped.append(
                    Skipped(
                        play.play_id,
                        "another import is making this play now: import again"
                        " in a moment to see it counted as already here",
                    )
                )
            else:
                self._count_held(play, held, outcome)
            return outcome
        try:
            document = {**record_of(play), "seed_salt": new_salt()}
            # Its claim settled with its game's id as the game is indexed (one round trip).
            record, _ = self.records.import_record(document, ask_count=False, play=play.key)
        except Unreadable as error:
            self.indexes.release_play(play.key, owner)
            outcome.skipped.append(Skipped(play.play_id, error.reason))
            return outcome
        except AlreadyImportedError as error:
            # Its game is here (the claim was lost, or another app's copy of the same record).
            self.indexes.settle_play(play.key, str(error.details["id"]))
            outcome.already += 1
            return outcome
        except TabletapeError as error:
            self.indexes.release_play(play.key, owner)
            outcome.skipped.append(Skipped(play.play_id, error.message))
            return outcome
        except BaseException:
            self.indexes.release_play(play.key, owner)
            raise
        outcome.imported += 1
        outcome.games.append(record.id)
        return outcome

    def _count_held(self, play: Play, game_id: str, outcome: ImportOutcome) -> None:
        """``already`` when game ``game_id``, which holds the play's id, is the game the play
        makes; else the play ``differs``."""
        try:
            same = self.records.records(game_id, record_of(play))
        except Unreadable:
            same = False
        if same:
            outcome.already += 1
        else:
            outcome.differs.append(Differs(play.play_id, game_id))

    def _claim(self, play: Play, owner: str) -> str | None:
        """None once ``owner`` holds the play's claim; else what holds it: a game's id, or the
        pending claim of another import that did not settle within WAIT_SECONDS."""
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            # A minute, as an import's claim of a record: should this import die before settling
            # the play, the next import takes the play over once that minute is out.
            held = self.indexes.claim_play(play.key, owner, CLAIM_SECONDS)
            if held is None or not held.startswith("pending:"):
                return held
            if time.monotonic() > deadline:
                return held
            time.sleep(0.05)


def _each_in_order(plays: list[Play]) -> Iterator[Play]:
    """Each play ``plays`` log, in the reverse of the list's order (each record taken off its end,
    so the list is emptied: a play imported is held no more), a record's copies in the order of
    their ids: the order of play, as all its copies share its start."""
    while plays:
        yield from each_play(plays.pop())


def _batches(plays: Iterator[Play]) -> Iterator[list[Play]]:
    """``plays`` in batches of at most GAMES_PER_JOB, none holding one play id twice: a play
    whose id is in the batch already starts the next one."""
    batch: list[Play] = []
    keys: set[str] = set()
    for play in plays:
        if len(batch) == GAMES_PER_JOB or play.key in keys:
            yield batch
            batch, keys = [], set()
        batch.append(play)
        keys.add(play.key)
    if batch:
        yield batch


def _most_first(counts: Counter[str]) -> list[tuple[str, int]]:
    """Each name with its count, most first, then by name (a stable answer)."""
    return sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))
