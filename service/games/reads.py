"""What a viewer reads of games: the listing, a state's view, legal moves, events, the audit.

Every read asks the game what its viewer may see (``domain.viewers``): nothing is redacted by
hand here. The states come from the repository (``repository.Repository.state_at``); a record
damaged in the store is refused by every read that needs it, for that game alone, and the audit
names it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from domain.corrections import voided
from domain.game import Game
from domain.viewers import Viewer
from service.games.repository import Repository, rules_of
from service.store.audit import Audit, audit_game
from service.store.damage import DamagedRecordError
from service.store.indexes import Place
from service.store.records import DamagedHeader, GameRecord, StoredEvent

log = logging.getLogger(__name__)


def event_json(game: Game[Any], stored: StoredEvent, viewer: Viewer) -> dict[str, Any]:
    """A stored event as ``viewer`` may read it: the game hides what only another seat saw, and
    the hash, which would let anyone test guesses at hidden values, goes to the recorder only."""
    shown = {"seq": stored.seq, **game.event_view(stored.body, viewer), "at": stored.at}
    if viewer.sees_all:
        shown["hash"] = stored.hash
    return shown


def view_of(
    game: Game[Any], state: Any, version: int, viewer: Viewer, status: str | None = None
) -> dict[str, Any]:
    """``state`` as ``viewer`` may see it, after ``version`` events of the record."""
    # A game counts the moves it folded; the record's version counts every event, retractions
    # and voided moves included, and that is the version a client sends back in If-Match.
    view = {**game.view(state, viewer), "version": version}
    if status == "abandoned":
        # The game's rules know nothing of it: its state is the one it was left in.
        view["status"] = status
    return view


def state_view(
    repository: Repository, record: GameRecord, at: int | None, viewer: Viewer
) -> dict[str, Any]:
    """The state after the first ``at`` events of ``record`` (default: all), as ``viewer`` may
    see it."""
    game = rules_of(record)
    version = record.version if at is None else at
    # An abandonment is the record's last event: the states before it are the game's own.
    abandoned = record.status == "abandoned" and version == record.version
    status = "abandoned" if abandoned else None
    return view_of(game, repository.state_at(record, at), version, viewer, status)


class Reads:
    """The reads of the API and the pages, each answered for its viewer."""

    def __init__(self, repository: Repository) -> None:
        self.repository = repository

    def view(self, record: GameRecord, at: int | None, viewer: Viewer) -> dict[str, Any]:
        return state_view(self.repository, record, at, viewer)

    def legal_moves(self, record: GameRecord, viewer: Viewer) -> list[dict[str, Any]]:
        return self.legal_moves_ending(record, viewer)[0]

    def legal_moves_ending(
        self, record: GameRecord, viewer: Viewer
    ) -> tuple[list[dict[str, Any]], list[bool]]:
        """The moves ``viewer`` may append now, and beside each whether it would end the game,
        so that a page can ask before recording it. Only the recorder is told which moves end
        it: for a seat, a move's outcome may hang on what it cannot see (is the card it names
        really unseen?), so its list says False throughout."""
        if record.status != "active":
            return [], []
        game = rules_of(record)
        state = self.repository.state_at(record)
        moves = game.legal_for(state, viewer)
        if not viewer.sees_all:
            return moves, [False] * len(moves)
        return moves, [game.result(game.apply(state, move)) is not None for move in moves]

    def free_types(self, record: GameRecord, viewer: Viewer) -> list[str]:
        """The event types ``viewer`` may append now beside the listed moves, their fields
        numbers a list cannot hold (``Game.free_types``): none once the game is over."""
        if record.status != "active":
            return []
        return rules_of(record).free_types(self.repository.state_at(record), viewer)

    def events(self, record: GameRecord, first: int, limit: int) -> list[StoredEvent]:
        return self.repository.stored_events(record, first, first + limit - 1)

    def events_json(
        self, record: GameRecord, first: int, limit: int, viewer: Viewer
    ) -> list[dict[str, Any]]:
        """Stored events as ``viewer`` may read them, each marked ``void`` when a retraction
        voided it (a later retraction may void an earlier page's event, so the whole record is
        read). A record that does not replay is not listed: DamagedRecordError names the event."""
        game = rules_of(record)
        every = self.repository.stored_events(record)
        self.repository.check_replays(game, record, every)
        void = voided([stored.body for stored in every])
        page = range(first - 1, min(first - 1 + limit, len(every)))
        return [{**event_json(game, every[i], viewer), "void": void[i]} for i in page]

    def list(
        self, *, game: str, status: str, player: str, limit: int, cursor: Place | None
    ) -> tuple[list[GameRecord], Place | None]:
        """Newest games first, by when they were played (``indexes.played_at``), then by id;
        the cursor is the place of the last game of the page before (``Place.from_cursor``),
        and the place of this page's last game is the next page's."""
        store = self.repository.store
        found: list[GameRecord] = []
        after = cursor
        while True:
            places, more = store.indexes.newest(game=game, player=player, after=after)
            records = store.get_many([place.id for place in places])
            for record, place in zip(records, places, strict=True):
                if isinstance(record, DamagedHeader):
                    # A list shows headers: one that does not decode is left out, not the others.
                    log.warning("game %s left out of a listing: %s", record.id, record.error())
                    continue
                if record is None or (game and record.game != game and _stats_key(record) != game):
                    continue
                if status and record.status != status:
                    continue
                found.append(record)
                if len(found) == limit:
                    return found, place
            if not more:
                return found, None
            after = places[-1]

    def finished_newest(
        self, before: int | None = None, since: int | None = None
    ) -> Iterator[tuple[int, GameRecord]]:
        """The finished games, newest first, each with its time in the listing (the millisecond
        of its finish, ``indexes.played_at``), placed before the millisecond ``before`` and at
        ``since`` or after (either end open, for None). The index is read a page at a time as
        the caller goes on, so that a caller that stops early reads no further, and a bounded
        range reads nothing past its bounds: pages of 10, then twice as many each time, up to
        the index's page (an evening's games are often fewer than a page)."""
        store = self.repository.store
        after = Place(before, "") if before is not None else None
        size = 10
        while True:
            places, more = store.indexes.newest(after=after, since=since, page=size)
            size = min(2 * size, store.indexes.PAGE)
            records = store.get_many([place.id for place in places])
            for record, place in zip(records, places, strict=True):
                # A header that does not decode is left out, as a listing leaves it.
                if isinstance(record, GameRecord) and record.over:
                    yield place.played, record
            if not more or not places:
                return
            after = places[-1]

    # Audit ---------------------------------------------------------------------------------------
    def audit(self, record: GameRecord) -> Audit:
        try:
            audit = self._audit(record)
        except DamagedRecordError as error:
            # An event that does not decode stops the audit: the problem names it.
            problems = list(error.problems)
            audit = Audit(version=record.version, head_hash=record.head_hash, problems=problems)
        if record.archive_problem:
            audit.problems.append(f"the archive job refused this game: {record.archive_problem}")
        return audit

    def _audit(self, record: GameRecord) -> Audit:
        repository = self.repository
        archive = repository.archive.read(record.id) if record.status == "archived" else None
        if record.status == "archived" and archive is None:
            audit = audit_game(record, repository.store.events(record.id))
            audit.problems.append("the game is marked archived, but its archive file is missing")
            return audit
        return audit_game(record, repository.stored_events(record), archive)

    def audit_by_id(self, game_id: str) -> Audit:
        """The audit of a game by its id, a header that does not decode included: its problems
        name each field (NotFoundError if there is no such game)."""
        try:
            record = self.repository.record(game_id)
        except DamagedRecordError as error:
            return Audit(version=0, head_hash=None, problems=list(error.problems))
        return self.audit(record)


def _stats_key(record: GameRecord) -> str:
    """The game ``record`` counts as: a score sheet of Azul is listed under ``azul``."""
    return rules_of(record).stats_key(record.options)
