"""The use cases of the API, in rooms named for what each decides; ``GameService`` is their face.

- ``who_may_act``: tokens, the viewer a request's token makes, who may write;
- ``repository``: how the state of a game at a version is found (the process's cache, a stored
  snapshot and the events after it, a replay from the seed; the events from the stream or the
  archive);
- ``appending``: how an append is stored (validated against the latest state, stored at that
  version) and its idempotent answers;
- ``records``: creating a record, exporting it, importing one;
- ``checkpoints``: the signed note of a game's head (``service.signing``);
- ``reads``: the listing, views per viewer, legal moves, events as a viewer reads them, the audit;
- ``words``: moves in words, sent beside the events and legal moves.

This is where the pure reducers of ``domain`` meet the event store: every move is validated by the
game's rules against the latest state before the store appends it, atomically, at that version.

A record damaged in the store (``service.store.events.DamagedRecordError``, or a stored event its
game's rules refuse) is refused by every read that needs it, for that game alone; the audit names
it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, cast, overload

from service.games import who_may_act
from service.games.appending import Appending, AppendResult, utc_now
from service.games.checkpoints import Checkpoints
from service.games.reads import Reads, event_json
from service.games.records import Records
from service.games.repository import Repository, SnapshotShelf, StateCache
from service.games.who_may_act import Tokens, key_owner, seat_token, token_digest
from service.games.words import legal_words, move_words
from service.signing import KeyRing
from service.store.archive import Archive
from service.store.events import EventStore
from service.store.records import GameRecord
from service.store.snapshots import SNAPSHOT_EVERY, SnapshotStore

__all__ = [
    "AppendResult",
    "GameService",
    "StateCache",
    "Tokens",
    "event_json",
    "key_owner",
    "legal_words",
    "move_words",
    "seat_token",
    "token_digest",
    "utc_now",
]

P = ParamSpec("P")
R = TypeVar("R")


class _Room(Generic[P, R]):
    """A use case as the face shows it: ``face.<name>(...)`` calls ``face.<room>.<method>(...)``,
    with the method's own parameters (the face writes no signature twice)."""

    def __init__(self, room: str, method: Callable[Concatenate[Any, P], R]) -> None:
        self.room = room
        self.method = method.__name__

    @overload
    def __get__(self, face: None, owner: type) -> _Room[P, R]: ...
    @overload
    def __get__(self, face: object, owner: type | None = None) -> Callable[P, R]: ...
    def __get__(self, face: object, owner: type | None = None) -> _Room[P, R] | Callable[P, R]:
        if face is None:
            return self  # the class's own attribute, as for a method
        # The cast's type is a string: subscripted at run time, it costs each call a microsecond.
        return cast("Callable[P, R]", getattr(getattr(face, self.room), self.method))


class GameService:
    """The face the API, the pages and the command line call: each use case is one room's."""

    # Who asks, and what it may read: the header's own say, never a cache's (``who_may_act``).
    viewer = staticmethod(who_may_act.viewer)
    admits = staticmethod(who_may_act.admits)
    reading_as = staticmethod(who_may_act.reading_as)
    reader = staticmethod(who_may_act.reader)

    def __init__(
        self,
        store: EventStore,
        archive: Archive,
        *,
        state_cache_size: int = 4096,
        snapshots: SnapshotStore | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
        recount: Callable[[str], object] | None = None,
        recount_many: Callable[[list[str]], object] | None = None,
        recheck_seconds: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        signing: KeyRing | None = None,
    ) -> None:
        cache = StateCache(state_cache_size, recheck_seconds, clock)
        shelf = SnapshotShelf(snapshots, snapshot_every)
        self.repository = Repository(store, archive, cache, shelf)
        # ``recount`` is called with a game's id when its figures must be counted again (the
        # archive job): by an append that ends or reopens a game, by the import of a finished one;
        # ``recount_many`` with an import's many at once.
        self.appending = Appending(self.repository, recount)
        # The notes of heads, signed with the service's key (none without one).
        self.checkpoints = Checkpoints(signing)
        self.records = Records(self.repository, recount, self.checkpoints, recount_many)
        self.reads = Reads(self.repository)

    # The seats' links (``who_may_act``): the recorder's only --------------------------------------
    def seat_links(self, record: GameRecord, token: str | None) -> list[str | None]:
        return who_may_act.seat_links(record, token)

    def replace_seat_link(self, record: GameRecord, token: str | None, seat: int) -> str:
        return who_may_act.replace_seat_link(self.repository.store, record, token, seat)

    # The state of a game at a version (``repository``) -------------------------------------------
    get = _Room("repository", Repository.record)
    state = _Room("repository", Repository.state_at)

    # How an append is stored (``appending``) -----------------------------------------------------
    append = _Room("appending", Appending.append)

    # Records as wholes (``records``) -------------------------------------------------------------
    create = _Room("records", Records.create)
    export = _Room("records", Records.export)
    import_record = _Room("records", Records.import_record)

    # What a viewer reads (``reads``) -------------------------------------------------------------
    list = _Room("reads", Reads.list)
    finished_newest = _Room("reads", Reads.finished_newest)
    view = _Room("reads", Reads.view)
    legal_moves = _Room("reads", Reads.legal_moves)
    legal_moves_ending = _Room("reads", Reads.legal_moves_ending)
    free_types = _Room("reads", Reads.free_types)
    events = _Room("reads", Reads.events)
    events_json = _Room("reads", Reads.events_json)
    audit = _Room("reads", Reads.audit)
    audit_by_id = _Room("reads", Reads.audit_by_id)

    # What the rooms share, as the views and the tests name it -------------------------------------
    @property
    def store(self) -> EventStore:
        return self.repository.store

    @property
    def archive(self) -> Archive:
        return self.repository.archive

    @property
    def cache(self) -> StateCache:
        return self.repository.cache

    @property
    def snapshots(self) -> SnapshotStore | None:
        return self.repository.shelf.store

    @property
    def clock(self) -> Callable[[], float]:
        return self.repository.cache.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.repository.cache.clock = clock
