"""The repository: how the state of a game at a version is found, and where its events are read.

One way each, named for it, tried in this order by ``Repository.state_at``:

- ``StateCache``: this process's latest state of recently played games, trusted for
  ``recheck_seconds`` after its last check against the whole stored record, then checked again
  (``checked_against_record``); a stale one is caught up with the events after it (``caught_up``);
- ``from_stored_snapshot``: the latest sound snapshot stored at or below the version, and the
  events after it (``SnapshotShelf``: written beside the record every K events,
  ``service.store.snapshots``);
- ``replayed_from_seed``: the record's events folded from its start.

The events come from the stream while the game has one, else from its archive
(``stored_events``). Every replay writes the snapshots it passes that the store lacks
(``folded_writing_snapshots``). A stored event the game's rules refuse is a damaged record, for
that game alone.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain import get_game
from domain.corrections import Fold, is_abandon, is_correction, is_retract
from domain.errors import TabletapeError, UnknownGameError
from domain.game import Game
from service.errors import NotFoundError
from service.store.archive import Archive, events_of
from service.store.audit import illegal_event
from service.store.damage import DamagedRecordError, damaged_event, damaged_header
from service.store.events import EventStore
from service.store.records import GameRecord, StoredEvent
from service.store.snapshots import SNAPSHOT_EVERY, SnapshotStore, document, read_document

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Snapshot:
    """A game's record as of one version, with its state after that many events."""

    record: GameRecord
    state: Any
    # When (StateCache.clock) the state was last replayed from the seed over the whole stored
    # record: a state derived from a checked one (an append, a catch-up) keeps its time; one
    # never checked so (rebuilt from stored snapshots) has none, -inf.
    checked_at: float = float("-inf")


class StateCache:
    """The latest state of recently played games, per process, with the record it matches.

    A snapshot is a pure value: a stale one is caught up with the events after its version, a
    missing one is rebuilt from the stream. It saves an append from replaying the whole game and,
    when it is current, from reading the header at all: the store's version check catches a stale
    one. What it holds is trusted for CACHE_RECHECK_SECONDS after its last check against the
    whole stored record (``recheck_seconds``): a record damaged behind the process's back is then
    seen.
    """

    def __init__(
        self,
        size: int,
        recheck_seconds: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._size = size
        self._snapshots: OrderedDict[str, Snapshot] = OrderedDict()
        self._lock = threading.Lock()
        # A cached state older than this (seconds since its last check, by ``clock``) is
        # checked against the whole stored record, replayed from the seed, before it serves a
        # read or an append: a record changed behind this process's back is seen within it.
        # 0: on every use.
        self.recheck_seconds = recheck_seconds
        self.clock = clock

    def trusted(self, snapshot: Snapshot) -> bool:
        """Whether a cached snapshot may serve without a check against the stored record."""
        return self.clock() - snapshot.checked_at < self.recheck_seconds

    def get(self, game_id: str) -> Snapshot | None:
        with self._lock:
            snapshot = self._snapshots.get(game_id)
            if snapshot is not None:
                self._snapshots.move_to_end(game_id)
            return snapshot

    def discard(self, game_id: str) -> None:
        with self._lock:
            self._snapshots.pop(game_id, None)

    def put(self, snapshot: Snapshot) -> None:
        game_id = snapshot.record.id
        with self._lock:
            current = self._snapshots.get(game_id)
            if current is not None and current.record.version > snapshot.record.version:
                return
            self._snapshots[game_id] = snapshot
            self._snapshots.move_to_end(game_id)
            while len(self._snapshots) > self._size:
                self._snapshots.popitem(last=False)


def rules_of(record: GameRecord) -> Game[Any]:
    """The game ``record`` is played by; a header naming no game known here is damaged."""
    try:
        return get_game(record.game)
    except UnknownGameError:
        raise damaged_header(record.id, {"game": "names no game played here"}) from None


def start_of(game: Game[Any], record: GameRecord) -> Any:
    """The state before the record's first event; a header the rules cannot start from
    (players or options they refuse) is damaged: it was checked when the game was created."""
    try:
        return game.start(record.header)
    except TabletapeError as error:
        raise DamagedRecordError(
            record.id, [f"the header cannot start a game: {error.message}"], error.details
        ) from None


class SnapshotShelf:
    """The states stored beside a game's record every ``every`` events (``store``; None or 0:
    none, and every state not in the cache is replayed from the seed). A snapshot is a cache:
    one that cannot be listed, read or written costs a longer replay, never a failed one."""

    def __init__(self, store: SnapshotStore | None, every: int = SNAPSHOT_EVERY) -> None:
        self.store = store
        self.every = every

    def serves(self, target: int) -> bool:
        """Whether the state after event ``target`` may be replayed from a stored snapshot."""
        return self.store is not None and 0 < self.every <= target

    def versions(self, record: GameRecord) -> list[int]:
        assert self.store is not None
        try:
            return self.store.versions(record.id)
        except Exception as error:
            # A snapshot is a cache: without them, the state is replayed from the seed.
            log.warning("the snapshots of game %s cannot be listed: %s", record.id, error)
            return []

    def stored(self, game: Game[Any], record: GameRecord, at: StoredEvent, start: Any) -> Any:
        """The state of the snapshot stored at event ``at`` if it is sound, else None."""
        assert self.store is not None
        try:
            raw = self.store.raw(record.id, at.seq)
        except Exception as error:
            log.warning("snapshot %s of game %s cannot be read: %s", at.seq, record.id, error)
            return None
        if raw is None:
            return None
        found = read_document(game, raw, at.seq, at.hash, record.rules_version, start)
        return None if found is None else found.state

    def write(
        self,
        game: Game[Any],
        record: GameRecord,
        start: Any,
        passed: list[tuple[StoredEvent, Any]],
    ) -> None:
        """Best effort: a snapshot not written costs a later read a longer replay, nothing more."""
        assert self.store is not None
        try:
            rules = record.rules_version
            documents = {
                stored.seq: document(game, stored.seq, stored.hash, rules, state, start)
                for stored, state in passed
            }
            self.store.write(record.id, documents)
        except Exception as error:
            log.warning("the snapshots of game %s were not written: %s", record.id, error)


class Repository:
    """A game's record and events as stored, and its state at any version."""

    def __init__(
        self, store: EventStore, archive: Archive, cache: StateCache, shelf: SnapshotShelf
    ) -> None:
        self.store = store
        self.archive = archive
        self.cache = cache
        self.shelf = shelf

    # The record and its events -------------------------------------------------------------------
    def record(self, game_id: str) -> GameRecord:
        """The game's record: NotFoundError if there is none, DamagedRecordError if its header
        does not decode."""
        record = self.store.get(game_id)
        if record is None:
            raise NotFoundError(f"no game with id {game_id!r}")
        return record

    def stored_events(
        self, record: GameRecord, first: int = 1, last: int | None = None
    ) -> list[StoredEvent]:
        """Events ``first`` to ``last`` (default: its last) of ``record``, from its stream, or
        from its archive once the archive job replaced the stream. Never one past the record's
        version: another writer may have appended since its header was read, and a state folded
        from that event too would be cached as this version's."""
        last = record.version if last is None else min(last, record.version)
        if not record.trimmed:
            events = self.store.events(record.id, first, last)
            # The header counts the events the stream holds (they are read together): one that
            # is not at its entry id is missing where it should be, unless the archive job
            # dropped the stream since the header was read.
            wanted = last - first + 1
            if len(events) >= wanted:
                return events
            if not self._trimmed_since(record):
                seq = first + len(events)
                raise damaged_event(record.id, seq, f"the stream has no entry 0-{seq}")
        document = self.archive.read(record.id)
        if document is None:
            raise NotFoundError(f"game {record.id} was archived, but its archive file is missing")
        return events_of(document)[first - 1 : last]

    def _trimmed_since(self, record: GameRecord) -> bool:
        """Whether the stream of ``record`` was dropped (its archive replaces it) since it was
        read."""
        now = self.store.find(record.id)
        return isinstance(now, GameRecord) and now.trimmed and now.version == record.version

    # The state at a version ----------------------------------------------------------------------
    def state_at(self, record: GameRecord, at: int | None = None) -> Any:
        """The state after the first ``at`` events (default: all), from the cache when it serves,
        else from the nearest stored snapshot below it (``from_stored_snapshot``).
        DamagedRecordError if the record cannot be replayed that far."""
        target = record.version if at is None else at
        cached = self.cache.get(record.id)
        if cached is not None and cached.record.version > record.version:
            # The store is behind this process: it lost a write the process remembers.
            self.cache.discard(record.id)
            cached = None
        # A cached state serves the states from its own version on: past the interval, it is
        # checked first (a state before it, ``state?at=``, is replayed without it).
        if (
            cached is not None
            and cached.record.version <= target
            and not self.cache.trusted(cached)
        ):
            cached = self.checked_against_record(record)
        # A snapshot serves only on the store's own head: the same version at another head is a
        # lost write followed by another process's.
        if cached is not None and cached.record.version == target == record.version:
            if cached.record.head_hash == record.head_hash:
                return cached.state
            cached = None
        game = rules_of(record)
        state = None
        if cached is not None and 0 < cached.record.version < target:
            since = self.stored_events(record, cached.record.version, target)
            # The snapshot's own event must be the store's, and a retraction may reach back
            # before the snapshot: else the record is replayed whole.
            same_head = bool(since) and since[0].hash == cached.record.head_hash
            later = since[1:]
            if same_head and not any(is_correction(stored.body) for stored in later):
                state = caught_up(game, record.id, cached.state, later)
        checked_at = cached.checked_at if cached is not None else float("-inf")
        if state is None:
            state = self.from_stored_snapshot(game, record, target)
            if not self.shelf.serves(target):
                # Replayed from the seed: as good as a check.
                checked_at = self.cache.clock()
        if target == record.version:
            self.cache.put(Snapshot(record, state, checked_at))
        return state

    def checked_against_record(self, record: GameRecord) -> Snapshot:
        """The state of ``record`` replayed from the seed over its whole stored record, cached
        in place of what the process held (DamagedRecordError if it does not replay)."""
        self.cache.discard(record.id)
        game = rules_of(record)
        events = self.stored_events(record)
        state = folded_from_start(game, record.id, start_of(game, record), events).state
        checked = Snapshot(record, state, self.cache.clock())
        self.cache.put(checked)
        return checked

    def check_replays(self, game: Game[Any], record: GameRecord, events: list[StoredEvent]) -> None:
        """DamagedRecordError unless ``events``, all of the record's, replay under its rules. A
        snapshot of the current version and head says they did; a replay made here is kept."""
        cached = self.cache.get(record.id)
        current = (record.version, record.head_hash)
        if (
            cached is not None
            and self.cache.trusted(cached)
            and (cached.record.version, cached.record.head_hash) == current
        ):
            return
        # Replayed from the seed: a check of the whole record.
        state = self.replayed_from_seed(game, record, events)
        if len(events) == record.version:
            self.cache.put(Snapshot(record, state, self.cache.clock()))

    def from_stored_snapshot(self, game: Game[Any], record: GameRecord, target: int) -> Any:
        """The state after event ``target``, replayed from the latest stored snapshot at or below
        it that is sound (its version's, at the stored hash of its event, decoding) and that no
        retraction up to ``target`` reaches back before; else from the seed. The snapshots the
        replay passes and the store lacks are written, best effort."""
        every = self.shelf.every
        if not self.shelf.serves(target):
            return self.replayed_from_seed(game, record, self.stored_events(record, 1, target))
        start = start_of(game, record)
        # First the snapshot right below: one read of it, and of the events after it.
        first = target // every * every
        events = self.stored_events(record, first, target)
        if len(events) != target - first + 1:
            # The store holds fewer events than the header says: replayed as it ever was.
            return self.replayed_from_seed(game, record, self.stored_events(record, 1, target))
        if not _reaches_back(events[1:]):
            found = self.shelf.stored(game, record, events[0], start)
            if found is not None:
                return self.folded_writing_snapshots(
                    game, record, start, found, events[1:], {first}
                )
        # Else any sound one further down, or the seed.
        stored = self.shelf.versions(record)
        usable = [version for version in reversed(stored) if 0 < version < target // every * every]
        base, state = 0, start
        unsound: set[int] = {target // every * every}
        for version in usable:
            if version < first:
                events = self.stored_events(record, version, first - 1) + events
                first = version
            if _reaches_back(events[version - first + 1 :]):
                continue
            found = self.shelf.stored(game, record, events[version - first], start)
            if found is None:
                unsound.add(version)
                continue
            base, state = version, found
            break
        else:
            if first > 1:
                events = self.stored_events(record, 1, first - 1) + events
                first = 1
        if len(events) != target - first + 1:
            return self.replayed_from_seed(game, record, self.stored_events(record, 1, target))
        have = set(stored) - unsound
        return self.folded_writing_snapshots(
            game, record, start, state, events[base - first + 1 :], have
        )

    def replayed_from_seed(
        self, game: Game[Any], record: GameRecord, events: list[StoredEvent]
    ) -> Any:
        """The state after the record's first ``len(events)`` events, replayed from its start;
        the snapshots it passes and the store lacks are written."""
        start = start_of(game, record)
        if self.shelf.serves(len(events)):
            have = set(self.shelf.versions(record))
            return self.folded_writing_snapshots(game, record, start, start, events, have)
        if any(is_correction(stored.body) for stored in events):
            return folded_from_start(game, record.id, start, events).state
        return caught_up(game, record.id, start, events)

    def folded_writing_snapshots(
        self,
        game: Game[Any],
        record: GameRecord,
        start: Any,
        state: Any,
        events: list[StoredEvent],
        have: set[int],
    ) -> Any:
        """``state`` (the start's, or a snapshot's) folded with ``events``, which follow it; the
        state after each event whose seq is a multiple of SNAPSHOT_EVERY is written as a snapshot
        unless ``have`` holds it."""
        folded = Fold(game, state)
        passed: list[tuple[StoredEvent, Any]] = []
        every = self.shelf.every
        for stored in events:
            try:
                folded.add(stored.body)
            except TabletapeError:
                raise refused(record.id, stored) from None
            if every > 0 and stored.seq % every == 0 and stored.seq not in have:
                passed.append((stored, folded.state))
        if passed:
            self.shelf.write(game, record, start, passed)
        return folded.state


def _reaches_back(events: list[StoredEvent]) -> bool:
    """Whether a retraction among ``events`` voids a move made before them: a snapshot taken
    before ``events`` then holds a move their fold must take back, and cannot serve."""
    standing = 0
    for stored in events:
        if is_retract(stored.body):
            if standing == 0:
                return True
            standing -= 1
        elif not is_correction(stored.body):
            standing += 1
    return False


def caught_up(game: Game[Any], game_id: str, state: Any, events: list[StoredEvent]) -> Any:
    """``state`` after stored ``events``, none of them a retraction. An abandonment changes no
    state."""
    for stored in events:
        if is_abandon(stored.body):
            continue
        try:
            state = game.apply(state, stored.body)
        except TabletapeError:
            raise refused(game_id, stored) from None
    return state


def folded_from_start(
    game: Game[Any], game_id: str, start: Any, events: list[StoredEvent]
) -> Fold[Any]:
    """The fold of stored ``events`` from the record's start, retractions included."""
    folded = Fold(game, start)
    for stored in events:
        try:
            folded.add(stored.body)
        except TabletapeError:
            raise refused(game_id, stored) from None
    return folded


def refused(game_id: str, stored: StoredEvent) -> DamagedRecordError:
    """A stored event the rules refuse: the store holds what no append could have written. The
    rules' words may quote a value its reader may not see (the cards of another seat's deal):
    the answer names the event's seq, type and fields alone (``illegal_event``)."""
    problem = illegal_event(stored.seq, stored.body)
    return DamagedRecordError(game_id, [problem], {"seq": stored.seq})
