"""The use cases of the API, in rooms named for what each decides; ``GameService`` is their face.

- ``who_may_act``: tokens, the viewer a request's token makes, who may write;
- ``repository``: how the state of a game at a version is found (the process's cache, a stored
  snapshot and the events after it, a replay from the seed; the events from the stream or the
  archive);
- ``appending``: how an append is stored (validated against the latest state, stored at that
  version) and its idempotent answers;
- ``records``: creating a record, exporting it, importing one;
- ``reads``: the listing, views per viewer, legal moves, events as a viewer reads them, the audit.

This is where the pure reducers of ``domain`` meet the event store: every move is validated by the
game's rules against the latest state before the store appends it, atomically, at that version.

A record damaged in the store (``service.store.events.DamagedRecordError``, or a stored event its
game's rules refuse) is refused by every read that needs it, for that game alone; the audit names
it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from domain.game import Event
from domain.viewers import Viewer
from service.games import who_may_act
from service.games.appending import Appending, AppendResult, utc_now
from service.games.reads import Reads, event_json
from service.games.records import Records
from service.games.repository import Repository, StateCache
from service.games.who_may_act import Tokens, key_owner, seat_token, token_digest
from service.store.archive import Archive
from service.store.audit import Audit
from service.store.events import EventStore, GameRecord, StoredEvent
from service.store.snapshots import SNAPSHOT_EVERY, SnapshotStore

__all__ = [
    "AppendResult",
    "GameService",
    "StateCache",
    "Tokens",
    "event_json",
    "key_owner",
    "seat_token",
    "token_digest",
    "utc_now",
]


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
        recheck_seconds: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.repository = Repository(
            store,
            archive,
            state_cache_size=state_cache_size,
            snapshots=snapshots,
            snapshot_every=snapshot_every,
            recheck_seconds=recheck_seconds,
            clock=clock,
        )
        self.appending = Appending(self.repository, recount)
        self.records = Records(self.repository, recount)
        self.reads = Reads(self.repository)

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
        return self.repository.snapshots

    @property
    def clock(self) -> Callable[[], float]:
        return self.repository.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.repository.clock = clock

    # Records ------------------------------------------------------------------------------------
    def create(
        self, game_name: str, players: list[str], seed: int | None, options: dict[str, Any]
    ) -> tuple[GameRecord, Tokens]:
        return self.records.create(game_name, players, seed, options)

    def get(self, game_id: str) -> GameRecord:
        return self.repository.record(game_id)

    def export(self, record: GameRecord) -> dict[str, Any]:
        return self.records.export(record)

    def import_record(self, document: dict[str, Any]) -> tuple[GameRecord, Tokens]:
        return self.records.import_record(document)

    # The seats' links ---------------------------------------------------------------------------
    def seat_links(self, record: GameRecord, token: str | None) -> list[str | None]:
        return who_may_act.seat_links(record, token)

    def replace_seat_link(self, record: GameRecord, token: str | None, seat: int) -> str:
        return who_may_act.replace_seat_link(self.repository.store, record, token, seat)

    # Appending ----------------------------------------------------------------------------------
    def append(
        self,
        game_id: str,
        token: str | None,
        event: Event,
        *,
        if_match: int | None = None,
        idempotency_key: str | None = None,
    ) -> AppendResult:
        return self.appending.append(
            game_id, token, event, if_match=if_match, idempotency_key=idempotency_key
        )

    # Reads --------------------------------------------------------------------------------------
    def state(self, record: GameRecord, at: int | None = None) -> Any:
        return self.repository.state_at(record, at)

    def list(
        self, *, game: str, status: str, player: str, limit: int, cursor: int | None
    ) -> tuple[list[GameRecord], int | None]:
        return self.reads.list(game=game, status=status, player=player, limit=limit, cursor=cursor)

    def view(self, record: GameRecord, at: int | None, viewer: Viewer) -> dict[str, Any]:
        return self.reads.view(record, at, viewer)

    def legal_moves(self, record: GameRecord, viewer: Viewer) -> list[dict[str, Any]]:
        return self.reads.legal_moves(record, viewer)

    def legal_moves_ending(
        self, record: GameRecord, viewer: Viewer
    ) -> tuple[list[dict[str, Any]], list[bool]]:
        return self.reads.legal_moves_ending(record, viewer)

    def events(self, record: GameRecord, first: int, limit: int) -> list[StoredEvent]:
        return self.reads.events(record, first, limit)

    def events_json(
        self, record: GameRecord, first: int, limit: int, viewer: Viewer
    ) -> list[dict[str, Any]]:
        return self.reads.events_json(record, first, limit, viewer)

    def audit(self, record: GameRecord) -> Audit:
        return self.reads.audit(record)

    def audit_by_id(self, game_id: str) -> Audit:
        return self.reads.audit_by_id(game_id)
