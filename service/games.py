"""The use cases of the API: create a game, append a move, read its events and states.

This is where the pure reducers of ``domain`` meet the event store: every move is validated by the
game's rules against the latest state before the store appends it, atomically, at that version.

A record damaged in the store (``service.store.events.DamagedRecordError``, or a stored event its
game's rules refuse) is refused by every read that needs it, for that game alone; the audit names
it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import orjson

from domain import get_game
from domain.corrections import (
    CORRECTION_WORDS,
    Fold,
    check_abandon,
    is_abandon,
    is_correction,
    is_retract,
    voided,
)
from domain.errors import GameFinishedError, InvalidOptionsError, TabletapeError, UnknownGameError
from domain.game import Event, Game
from domain.viewers import PUBLIC, RECORDER, Viewer, seat
from service.errors import (
    AlreadyImportedError,
    ForbiddenError,
    IdempotencyConflictError,
    InvalidImportError,
    NotFoundError,
    UnauthorizedError,
    VersionConflictError,
)
from service.store.archive import Archive, events_of
from service.store.audit import Audit, audit_game, replay_record
from service.store.chain import (
    FORMAT,
    canonical_json,
    event_hash,
    header_hash,
    new_salt,
    seed_commitment,
)
from service.store.events import (
    Appended,
    Conflict,
    DamagedHeader,
    DamagedRecordError,
    EventStore,
    Finished,
    GameRecord,
    OtherHead,
    Replayed,
    StoredEvent,
    Trimmed,
    damaged_header,
)
from service.store.snapshots import SNAPSHOT_EVERY, SnapshotStore, document, read_document

log = logging.getLogger(__name__)

# Appends without If-Match retry this often when another writer got in between; each retry
# re-validates the move against the newer state.
_MAX_APPEND_ATTEMPTS = 50


def utc_now() -> str:
    """Server time, ISO 8601 UTC to the millisecond (formatted by hand: it is on every append)."""
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z"


def key_owner(viewer: Viewer) -> str:
    """Whose an idempotency key is, as the store names it: "recorder", "seat0", "seat1"..."""
    return "recorder" if viewer.sees_all else f"seat{viewer.seat}"


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_token(recorder_token: str, seat: int, generation: int) -> str:
    """A seat's token, derived from the recorder's: whoever holds the recorder's token can show
    the seats' links again (the store keeps digests only), and a new generation replaces a
    lost one. As long and as random as the recorder's own token, which is its key."""
    message = f"tabletape seat {seat} generation {generation}".encode()
    digest = hmac.new(recorder_token.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


@dataclass(frozen=True)
class Tokens:
    """A new game's secrets, returned once: the recorder's and one per seat, in seat order."""

    recorder: str
    seats: list[str]


@dataclass(frozen=True)
class AppendResult:
    response: dict[str, Any]
    version: int
    game_finished: bool


@dataclass(frozen=True)
class Snapshot:
    """A game's record as of one version, with its state after that many events."""

    record: GameRecord
    state: Any


class StateCache:
    """The latest state of recently played games, per process, with the record it matches.

    A snapshot is a pure value: a stale one is caught up with the events after its version, a
    missing one is rebuilt from the stream. It saves an append from replaying the whole game and,
    when it is current, from reading the header at all: the store's version check catches a stale
    one.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._snapshots: OrderedDict[str, Snapshot] = OrderedDict()
        self._lock = threading.Lock()

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


class GameService:
    def __init__(
        self,
        store: EventStore,
        archive: Archive,
        *,
        state_cache_size: int = 4096,
        snapshots: SnapshotStore | None = None,
        snapshot_every: int = SNAPSHOT_EVERY,
        recount: Callable[[str], object] | None = None,
    ) -> None:
        self.store = store
        self.archive = archive
        self.cache = StateCache(state_cache_size)
        # The state after every ``snapshot_every`` events, kept beside the record (None or 0:
        # none; every state not in the cache is then replayed from the seed).
        self.snapshots = snapshots
        self.snapshot_every = snapshot_every
        # Called with a game's id when its figures must be counted again: once its last move is
        # stored, or once a retraction undid its finish (the service enqueues the archive job,
        # which archives and counts a finished game and withdraws a reopened one's figures).
        self.recount = recount

    # Creating and finding games ------------------------------------------------------------------
    def create(
        self,
        game_name: str,
        players: list[str],
        seed: int | None,
        options: dict[str, Any],
    ) -> tuple[GameRecord, Tokens]:
        game = get_game(game_name)
        if not game.min_players <= len(players) <= game.max_players:
            given = f"{len(players)} name{'' if len(players) == 1 else 's'}"
            raise InvalidOptionsError(
                f"{game.played_by()}: {given} given; name each player, in seat order",
                {"players": f"{game.min_players} to {game.max_players} names"},
            )
        normalized = game.options(options, len(players))
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
        # Built once here so that a bad combination fails the creation, not the first move.
        game.new_game(len(players), seed, normalized)
        header = {
            "game": game_name,
            "players": players,
            "seed": seed,
            "options": normalized,
            "rules_version": game.rules_version,
        }
        return self._create_record(header)

    def _create_record(
        self, played: dict[str, Any], kept: RecordKept | None = None
    ) -> tuple[GameRecord, Tokens]:
        """A new record of what ``played`` says (game, players, seed, options, rules_version),
        in the current record format: a fresh salt commits to the seed, fresh tokens guard it.
        An import's record ``kept`` its salt, commitment, format and creation time instead."""
        kept = kept or RecordKept(salt=new_salt())
        header = {
            **{name: played[name] for name in ("game", "players", "seed", "options")},
            "rules_version": played["rules_version"],
            "seed_salt": kept.salt,
            "seed_commitment": (
                seed_commitment(played["seed"], kept.salt) if kept.salt is not None else None
            ),
        }
        recorder = secrets.token_urlsafe(24)
        generations = [0 for _ in header["players"]]
        tokens = Tokens(
            recorder=recorder,
            seats=[seat_token(recorder, seat, 0) for seat in range(len(generations))],
        )
        while True:
            game_id = secrets.token_hex(8)
            commitment = header["seed_commitment"]
            if kept.imported and commitment is not None:
                held = self.store.claim_commitment(commitment, game_id)
                if held is not None:
                    raise AlreadyImportedError(held)
            record = GameRecord(
                id=game_id,
                created_at=kept.created_at or utc_now(),
                version=0,
                status="active",
                record_format=kept.record_format,
                head_hash=header_hash(header, kept.record_format),
                token_sha256=token_digest(tokens.recorder),
                seat_tokens_sha256=[token_digest(token) for token in tokens.seats],
                seat_token_generations=generations,
                **header,
            )
            if self.store.create(record):
                return record, tokens

    def get(self, game_id: str) -> GameRecord:
        """The game's record: NotFoundError if there is none, DamagedRecordError if its header
        does not decode."""
        record = self.store.get(game_id)
        if record is None:
            raise NotFoundError(f"no game with id {game_id!r}")
        return record

    def seat_links(self, record: GameRecord, token: str | None) -> list[str | None]:
        """The seats' tokens again, for the recorder's page of links: None for a seat whose
        token was drawn at random (a record made before they were derived)."""
        self._recorder_only(record, token, "showing the seats' links again")
        assert token is not None
        generations = record.seat_token_generations or [-1] * len(record.players)
        return [
            seat_token(token, seat, generation) if generation >= 0 else None
            for seat, generation in enumerate(generations)
        ]

    def replace_seat_link(self, record: GameRecord, token: str | None, seat: int) -> str:
        """A new token for ``seat`` (its phone was lost): the old one gets 401 from now on."""
        self._recorder_only(record, token, "replacing a seat's link")
        assert token is not None
        if not 0 <= seat < len(record.players):
            raise NotFoundError(f"no seat {seat} in this game of {len(record.players)} players")
        generations = list(record.seat_token_generations or [-1] * len(record.players))
        generations[seat] = max(generations[seat], 0) + 1
        new = seat_token(token, seat, generations[seat])
        digests = list(record.seat_tokens_sha256)
        digests[seat] = token_digest(new)
        self.store.replace_seat_token(record.id, digests, generations)
        return new

    def _recorder_only(self, record: GameRecord, token: str | None, what: str) -> None:
        viewer = self.viewer(record, token)
        if token is None:
            raise UnauthorizedError(f"{what} needs the recorder's token")
        if not viewer.sees_all:
            raise ForbiddenError(f"{what} is the recorder's only, not a seat's")

    @staticmethod
    def viewer(record: GameRecord, token: str | None) -> Viewer:
        """Who asks, from the request's Bearer token: the recorder, a seat, or (no token) the
        public. A token that is not one of this game's is refused, whatever the request."""
        if token is None:
            return PUBLIC
        digest = token_digest(token)
        if hmac.compare_digest(digest, record.token_sha256):
            return RECORDER
        for index, seat_digest in enumerate(record.seat_tokens_sha256):
            if hmac.compare_digest(digest, seat_digest):
                return seat(index)
        raise UnauthorizedError(
            "this token is not one of the game's: send the recorder's or a seat's token, or none"
        )

    @staticmethod
    def reading_as(record: GameRecord, viewer: Viewer) -> Viewer:
        """The viewer a read by ``viewer`` is answered for: once a game is over, everyone sees
        everything."""
        return RECORDER if record.over else viewer

    @classmethod
    def reader(cls, record: GameRecord, token: str | None) -> Viewer:
        return cls.reading_as(record, cls.viewer(record, token))

    def list(
        self, *, game: str, status: str, player: str, limit: int, cursor: int | None
    ) -> tuple[list[GameRecord], int | None]:
        """Newest games first; the cursor is the creation serial the next page starts below."""
        found: list[GameRecord] = []
        below = cursor
        while True:
            rows = self.store.newest(game=game, player=player, below=below)
            records = self.store.get_many([game_id for game_id, _ in rows])
            for record, (_, serial) in zip(records, rows, strict=True):
                if isinstance(record, DamagedHeader):
                    # A list shows headers: one that does not decode is left out, not the others.
                    log.warning("game %s left out of a listing: %s", record.id, record.error())
                    continue
                if record is None or (game and record.game != game):
                    continue
                if status and record.status != status:
                    continue
                found.append(record)
                if len(found) == limit:
                    return found, serial
            if len(rows) < self.store.PAGE:
                return found, None
            below = rows[-1][1]

    # Appending ------------------------------------------------------------------------------------
    def append(
        self,
        game_id: str,
        token: str | None,
        event: Event,
        *,
        if_match: int | None = None,
        idempotency_key: str | None = None,
    ) -> AppendResult:
        """Validate a move against the latest state and append it at that state's version.

        The first attempt trusts this process's snapshot of the game, so a move costs one round
        trip to Redis: the append script refuses it if the snapshot was stale. Any doubt (a stale
        snapshot, a move the snapshot calls illegal, which may be a retried idempotent append, an
        If-Match it does not match) is settled on the record read from Redis.
        """
        body = canonical_json(event)
        # Only a keyed append needs to recognise its body again.
        body_digest = hashlib.sha256(body.encode()).hexdigest() if idempotency_key else ""
        snapshot = self.cache.get(game_id)
        trusted = snapshot is not None and if_match in (None, snapshot.record.version)
        for _ in range(_MAX_APPEND_ATTEMPTS):
            if not trusted:
                snapshot = self._current(
                    game_id, token, event, if_match, idempotency_key, body_digest
                )
                if isinstance(snapshot, AppendResult):
                    return snapshot
            assert snapshot is not None
            record = snapshot.record
            viewer = self._writer(record, token)
            game = self._rules(record)
            try:
                change = _status_change(game, snapshot.state, record, viewer, event)
                if is_retract(event):
                    state = self._retracted(game, record, event)
                elif is_abandon(event):
                    state = snapshot.state
                else:
                    state = game.apply(snapshot.state, event)
            except TabletapeError:
                if trusted:
                    trusted = False
                    continue
                raise
            trusted = False
            seq = record.version + 1
            at = utc_now()
            hashed = event_hash(record.head_hash, seq, at, event, record.record_format)
            result = game.result(state)
            stored = StoredEvent(seq=seq, body=dict(event), at=at, hash=hashed)
            # The move that ends the game shows everything: the game is over.
            reader = viewer if result is None else RECORDER
            status = (
                "finished"
                if result is not None
                else "abandoned"
                if change == "abandon"
                else "active"
            )
            shown = event_json(game, stored, reader)
            response = {
                "seq": seq,
                "version": seq,
                "event": shown,
                "state": self._view(game, state, seq, reader, status),
                "words": move_words(game, shown, record.players),
            }
            outcome = self.store.append(
                game_id,
                expected_version=record.version,
                expected_head=record.head_hash,
                canonical_body=body,
                at=at,
                hash=hashed,
                result=result,
                change=change,
                idempotency_key=idempotency_key,
                idempotency_owner=key_owner(viewer),
                idempotency_record=(
                    orjson.dumps(
                        {"body_sha256": body_digest, "viewer": str(reader), "response": response}
                    ).decode()
                    if idempotency_key
                    else ""
                ),
            )
            match outcome:
                case Appended():
                    after = replace(record, version=seq, head_hash=hashed, status=status,
                                    result=result, reopened=record.reopened or change == "reopen",
                                    finished_at=at if result is not None else None)  # fmt: skip
                    self.cache.put(Snapshot(after, state))
                    if result is not None or change == "reopen":
                        self._recount(game_id)
                    return AppendResult(response, seq, result is not None)
                case Replayed(prior):
                    return self._replay_idempotent(
                        game_id, prior, body_digest, idempotency_key or ""
                    )
                case Finished():
                    raise GameFinishedError(f"game {game_id} is over: no move can be added")
                case Trimmed():
                    # The archive replaced the stream: put it back, then retract as ever.
                    self.store.restore_stream(game_id, self._events(self.get(game_id)))
                    self.cache.discard(game_id)
                    continue
                case Conflict(current) if if_match is not None:
                    raise VersionConflictError(current, if_match)
                case Conflict():
                    continue  # another writer appended first: validate against the new state
                case OtherHead():
                    # This process remembers a write the store has lost: forget it, and validate
                    # the move again on the store's own head.
                    self.cache.discard(game_id)
                    continue
                case _:
                    raise NotFoundError(f"no game with id {game_id!r}")
        raise VersionConflictError(self.get(game_id).version, None)

    def _current(
        self,
        game_id: str,
        token: str | None,
        event: Event,
        if_match: int | None,
        idempotency_key: str | None,
        body_digest: str,
    ) -> Snapshot | AppendResult:
        """The game as Redis has it now, checked for everything an append must not get past;
        or the recorded answer when the idempotency key was used before."""
        record = self.get(game_id)
        viewer = self._writer(record, token)
        if idempotency_key:
            prior = self.store.idempotency_record(game_id, idempotency_key, key_owner(viewer))
            if prior is not None:
                return self._replay_idempotent(game_id, prior, body_digest, idempotency_key)
        # A finished game takes one event still: the recorder's retraction of its last move
        # (``_status_change`` says whose it may be).
        if record.status == "abandoned" or (record.status != "active" and not is_retract(event)):
            raise GameFinishedError(_over(record))
        if if_match is not None and if_match != record.version:
            raise VersionConflictError(record.version, if_match)
        return Snapshot(record, self.state(record))

    def _writer(self, record: GameRecord, token: str | None) -> Viewer:
        viewer = self.viewer(record, token)
        if viewer == PUBLIC:
            raise UnauthorizedError(
                "appending needs a token of the game (the recorder's or a seat's) as a Bearer token"
            )
        return viewer

    @staticmethod
    def _replay_idempotent(game_id: str, prior: str, body_digest: str, key: str) -> AppendResult:
        """The answer recorded for a keyed append of this same viewer (keys are per viewer)."""
        try:
            stored = orjson.loads(prior)
            recorded_body, response = stored["body_sha256"], stored["response"]
            finished = response["state"].get("status") != "active"
            version = response["version"]
        except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError):
            raise DamagedRecordError(
                game_id,
                [f"the record of idempotency key {key!r} does not decode"],
                {"idempotency_key": key},
            ) from None
        if recorded_body != body_digest:
            raise IdempotencyConflictError(key)
        return AppendResult(response, version, finished)

    # Reading --------------------------------------------------------------------------------------
    def state(self, record: GameRecord, at: int | None = None) -> Any:
        """The state after the first ``at`` events (default: all), from the cache when it serves,
        else from the nearest stored snapshot below it (``_rebuilt``). DamagedRecordError if the
        record cannot be replayed that far."""
        target = record.version if at is None else at
        cached = self.cache.get(record.id)
        if cached is not None and cached.record.version > record.version:
            # The store is behind this process: it lost a write the process remembers.
            self.cache.discard(record.id)
            cached = None
        # A snapshot serves only on the store's own head: the same version at another head is a
        # lost write followed by another process's.
        if cached is not None and cached.record.version == target == record.version:
            if cached.record.head_hash == record.head_hash:
                return cached.state
            cached = None
        game = self._rules(record)
        state = None
        if cached is not None and 0 < cached.record.version < target:
            since = self._events(record, cached.record.version, target)
            # The snapshot's own event must be the store's, and a retraction may reach back
            # before the snapshot: else the record is replayed whole.
            same_head = bool(since) and since[0].hash == cached.record.head_hash
            later = since[1:]
            if same_head and not any(is_correction(stored.body) for stored in later):
                state = _applied(game, record.id, cached.state, later)
        if state is None:
            state = self._rebuilt(game, record, target)
        if target == record.version:
            self.cache.put(Snapshot(record, state))
        return state

    def _rebuilt(self, game: Game[Any], record: GameRecord, target: int) -> Any:
        """The state after event ``target``, replayed from the latest stored snapshot at or below
        it that is sound (its version's, at the stored hash of its event, decoding) and that no
        retraction up to ``target`` reaches back before; else from the seed. The snapshots the
        replay passes and the store lacks are written, best effort."""
        every = self.snapshot_every
        if self.snapshots is None or every <= 0 or target < every:
            return self._replayed(game, record, self._events(record, 1, target))
        start = self._start(game, record)
        # First the snapshot right below: one read of it, and of the events after it.
        first = target // every * every
        events = self._events(record, first, target)
        if len(events) != target - first + 1:
            # The store holds fewer events than the header says: replayed as it ever was.
            return self._replayed(game, record, self._events(record, 1, target))
        if not _reaches_back(events[1:]):
            found = self._stored_snapshot(game, record, events[0], start)
            if found is not None:
                return self._replay_from(game, record, start, found, events[1:], {first})
        # Else any sound one further down, or the seed.
        stored = self._snapshot_versions(record)
        usable = [version for version in reversed(stored) if 0 < version < target // every * every]
        base, state = 0, start
        unsound: set[int] = {target // every * every}
        for version in usable:
            if version < first:
                events = self._events(record, version, first - 1) + events
                first = version
            if _reaches_back(events[version - first + 1 :]):
                continue
            found = self._stored_snapshot(game, record, events[version - first], start)
            if found is None:
                unsound.add(version)
                continue
            base, state = version, found
            break
        else:
            if first > 1:
                events = self._events(record, 1, first - 1) + events
                first = 1
        if len(events) != target - first + 1:
            return self._replayed(game, record, self._events(record, 1, target))
        have = set(stored) - unsound
        return self._replay_from(game, record, start, state, events[base - first + 1 :], have)

    def _replayed(self, game: Game[Any], record: GameRecord, events: list[StoredEvent]) -> Any:
        """The state after the record's first ``len(events)`` events, replayed from its start;
        the snapshots it passes and the store lacks are written."""
        start = self._start(game, record)
        if self.snapshots is not None and 0 < self.snapshot_every <= len(events):
            have = set(self._snapshot_versions(record))
            return self._replay_from(game, record, start, start, events, have)
        if any(is_correction(stored.body) for stored in events):
            return _folded(game, record.id, start, events).state
        return _applied(game, record.id, start, events)

    def _replay_from(
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
        every = self.snapshot_every
        for stored in events:
            try:
                folded.add(stored.body)
            except TabletapeError as error:
                raise _refused(record.id, stored, error) from None
            if every > 0 and stored.seq % every == 0 and stored.seq not in have:
                passed.append((stored, folded.state))
        if passed:
            self._write_snapshots(game, record, start, passed)
        return folded.state

    def _snapshot_versions(self, record: GameRecord) -> list[int]:
        assert self.snapshots is not None
        try:
            return self.snapshots.versions(record.id)
        except Exception as error:
            # A snapshot is a cache: without them, the state is replayed from the seed.
            log.warning("the snapshots of game %s cannot be listed: %s", record.id, error)
            return []

    def _stored_snapshot(
        self, game: Game[Any], record: GameRecord, at: StoredEvent, start: Any
    ) -> Any:
        """The state of the snapshot stored at event ``at`` if it is sound, else None."""
        assert self.snapshots is not None
        try:
            raw = self.snapshots.raw(record.id, at.seq)
        except Exception as error:
            log.warning("snapshot %s of game %s cannot be read: %s", at.seq, record.id, error)
            return None
        if raw is None:
            return None
        found = read_document(game, raw, at.seq, at.hash, record.rules_version, start)
        return None if found is None else found.state

    def _write_snapshots(
        self,
        game: Game[Any],
        record: GameRecord,
        start: Any,
        passed: list[tuple[StoredEvent, Any]],
    ) -> None:
        """Best effort: a snapshot not written costs a later read a longer replay, nothing more."""
        assert self.snapshots is not None
        try:
            rules = record.rules_version
            documents = {
                stored.seq: document(game, stored.seq, stored.hash, rules, state, start)
                for stored, state in passed
            }
            self.snapshots.write(record.id, documents)
        except Exception as error:
            log.warning("the snapshots of game %s were not written: %s", record.id, error)

    def _check_replays(
        self, game: Game[Any], record: GameRecord, events: list[StoredEvent]
    ) -> None:
        """DamagedRecordError unless ``events``, all of the record's, replay under its rules. A
        snapshot of the current version and head says they did; a replay made here is kept."""
        cached = self.cache.get(record.id)
        if cached is not None and (cached.record.version, cached.record.head_hash) == (
            record.version,
            record.head_hash,
        ):
            return
        state = self._replayed(game, record, events)
        if len(events) == record.version:
            self.cache.put(Snapshot(record, state))

    @staticmethod
    def _rules(record: GameRecord) -> Game[Any]:
        """The game ``record`` is played by; a header naming no game known here is damaged."""
        try:
            return get_game(record.game)
        except UnknownGameError:
            raise damaged_header(record.id, {"game": "names no game played here"}) from None

    @staticmethod
    def _start(game: Game[Any], record: GameRecord) -> Any:
        """The state before the record's first event; a header the rules cannot start from
        (players or options they refuse) is damaged: it was checked when the game was created."""
        try:
            return game.start(record.header)
        except TabletapeError as error:
            raise DamagedRecordError(
                record.id, [f"the header cannot start a game: {error.message}"], error.details
            ) from None

    def view(self, record: GameRecord, at: int | None, viewer: Viewer) -> dict[str, Any]:
        game = self._rules(record)
        version = record.version if at is None else at
        # An abandonment is the record's last event: the states before it are the game's own.
        abandoned = record.status == "abandoned" and version == record.version
        status = "abandoned" if abandoned else None
        return self._view(game, self.state(record, at), version, viewer, status)

    @staticmethod
    def _view(
        game: Game[Any], state: Any, version: int, viewer: Viewer, status: str | None = None
    ) -> dict[str, Any]:
        # A game counts the moves it folded; the record's version counts every event, retractions
        # and voided moves included, and that is the version a client sends back in If-Match.
        view = {**game.view(state, viewer), "version": version}
        if status == "abandoned":
            # The game's rules know nothing of it: its state is the one it was left in.
            view["status"] = status
        return view

    def _retracted(self, game: Game[Any], record: GameRecord, retract: Event) -> Any:
        """The state once ``retract`` voids the latest standing move of ``record``."""
        stored = self._events(record, 1, record.version)
        folded = _folded(game, record.id, self._start(game, record), stored)
        # The stored events replay: what the rules refuse now is the retraction.
        folded.add(retract)
        return folded.state

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
        game = self._rules(record)
        state = self.state(record)
        moves = game.legal_for(state, viewer)
        if not viewer.sees_all:
            return moves, [False] * len(moves)
        return moves, [game.result(game.apply(state, move)) is not None for move in moves]

    def events(self, record: GameRecord, first: int, limit: int) -> list[StoredEvent]:
        return self._events(record, first, first + limit - 1)

    def events_json(
        self, record: GameRecord, first: int, limit: int, viewer: Viewer
    ) -> list[dict[str, Any]]:
        """Stored events as ``viewer`` may read them, each marked ``void`` when a retraction
        voided it (a later retraction may void an earlier page's event, so the whole record is
        read). A record that does not replay is not listed: DamagedRecordError names the event."""
        game = self._rules(record)
        every = self._events(record)
        self._check_replays(game, record, every)
        void = voided([stored.body for stored in every])
        page = range(first - 1, min(first - 1 + limit, len(every)))
        return [{**event_json(game, every[i], viewer), "void": void[i]} for i in page]

    def _events(
        self, record: GameRecord, first: int = 1, last: int | None = None
    ) -> list[StoredEvent]:
        if not record.trimmed:
            return self.store.events(record.id, first, last)
        document = self.archive.read(record.id)
        if document is None:
            raise NotFoundError(f"game {record.id} was archived, but its archive file is missing")
        return events_of(document)[first - 1 : last]

    def _recount(self, game_id: str) -> None:
        if self.recount is None:
            return
        try:
            self.recount(game_id)
        except Exception:
            # The move is stored: never fail it for this. Reconcile enqueues what was missed.
            log.exception("could not enqueue the archive job of game %s", game_id)

    # Audit, export, import ------------------------------------------------------------------------
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
        archive = self.archive.read(record.id) if record.status == "archived" else None
        if record.status == "archived" and archive is None:
            audit = audit_game(record, self.store.events(record.id))
            audit.problems.append("the game is marked archived, but its archive file is missing")
            return audit
        return audit_game(record, self._events(record), archive)

    def audit_by_id(self, game_id: str) -> Audit:
        """The audit of a game by its id, a header that does not decode included: its problems
        name each field (NotFoundError if there is no such game)."""
        try:
            record = self.get(game_id)
        except DamagedRecordError as error:
            return Audit(version=0, head_hash=None, problems=list(error.problems))
        return self.audit(record)

    def export(self, record: GameRecord) -> dict[str, Any]:
        """The whole record, each event with its ``at`` (the API gives it to the recorder only
        while the game is on); a record that does not replay is not exported
        (DamagedRecordError). What an import needs to make a copy with the same hash chain."""
        events = self._events(record)
        self._check_replays(self._rules(record), record, events)
        document = {
            **record.header,
            "record_format": record.record_format,
            "created_at": record.created_at,
            "events": [{**event.body, "at": event.at} for event in events],
        }
        if record.finished_at is not None:
            document["finished_at"] = record.finished_at
        return document

    def import_record(self, document: dict[str, Any]) -> tuple[GameRecord, Tokens]:
        """Replay an exported record and store it as a new game with tokens of its own, or
        reject it whole. What the document gives is kept (salt, commitment, format, created_at,
        each event's at, finished_at), so the copy's hash chain is the source's; what it lacks
        is filled in (a new salt, the import's time). A commitment held here already is an
        AlreadyImportedError naming its game."""
        header = {
            name: document[name] for name in ("game", "players", "seed", "options", "rules_version")
        }
        game = get_game(header["game"])
        players = header["players"]
        if not game.min_players <= len(players) <= game.max_players:
            raise InvalidImportError(
                f"{game.played_by()}, not {len(players)}",
                {"players": len(players)},
            )
        # Completed with their defaults, as at creation: the header (and its hash) is then the
        # one a game created with these options would have. Options the game refuses are the
        # record's first problem: its first event could never be played under them.
        try:
            header["options"] = game.options(header["options"], len(players))
        except InvalidOptionsError as error:
            problem = f"event 1: the game's options are refused: {error.message}"
            raise InvalidImportError(
                f"the record is rejected whole: {problem}",
                {"event": 1, "problems": [problem], "options": error.details},
            ) from None
        bodies = [{k: v for k, v in event.items() if k != "at"} for event in document["events"]]
        audit = replay_record(header, bodies)
        if not audit.ok:
            raise InvalidImportError(
                f"the record is rejected whole: {audit.problems[0]}",
                {"event": audit.version + 1, "problems": audit.problems},
            )
        now = utc_now()
        ats = [event.get("at") or now for event in document["events"]]
        record, tokens = self._create_record(header, _kept(document, header["seed"], now))
        if audit.result is not None:
            status = "finished"
            finished_at = document.get("finished_at") or (ats[-1] if ats else now)
        else:
            status, finished_at = ("abandoned" if audit.abandoned else "active"), None
        record = self.store.import_events(record, bodies, ats=ats, status=status,
                                          result=audit.result, finished_at=finished_at)  # fmt: skip
        if audit.result is not None:
            self._recount(record.id)
        return record, tokens


@dataclass(frozen=True)
class RecordKept:
    """What a new record keeps of the one it copies (an import), or draws anew (a creation)."""

    salt: str | None
    record_format: int = FORMAT
    created_at: str | None = None
    # An import claims its commitment: a record is imported once.
    imported: bool = False


def _kept(document: dict[str, Any], seed: int, now: str) -> RecordKept:
    """What an imported ``document`` keeps: its salt and commitment (checked against its seed),
    its hash chain's format and its creation time; InvalidImportError for a commitment that is
    not its seed's."""
    record_format = document.get("record_format") or FORMAT
    salt, commitment = document.get("seed_salt"), document.get("seed_commitment")
    if record_format == FORMAT and salt is None:
        if commitment is not None:
            raise InvalidImportError(
                "the record has a seed commitment but no seed_salt: the commitment cannot be"
                " checked",
                {"seed_salt": "the salt the commitment was made with"},
            )
        salt = new_salt()
    if salt is not None and commitment is not None and seed_commitment(seed, salt) != commitment:
        raise InvalidImportError(
            "the record's seed and seed_salt do not match its seed_commitment: it is not the"
            " record it says it is",
            {"seed_commitment": "the SHA-256 of the canonical JSON of {salt, seed}"},
        )
    return RecordKept(
        salt=salt,
        record_format=record_format,
        created_at=document.get("created_at") or now,
        imported=True,
    )


def event_json(game: Game[Any], stored: StoredEvent, viewer: Viewer) -> dict[str, Any]:
    """A stored event as ``viewer`` may read it: the game hides what only another seat saw, and
    the hash, which would let anyone test guesses at hidden values, goes to the recorder only."""
    shown = {"seq": stored.seq, **game.event_view(stored.body, viewer), "at": stored.at}
    if viewer.sees_all:
        shown["hash"] = stored.hash
    return shown


def move_words(game: Game[Any], event: dict[str, Any], players: list[str]) -> str:
    """A move in words, for the API's answers and the pages: a correction's words are every
    game's, the rest the game's own (``Game.describe``). Given an event as a reader sees it
    (``event_json``), the words say nothing that reader may not see: a hidden field is left out
    of the event, and so of its words. They travel beside the event, never in it, whose fields
    are what its hash covers."""
    return CORRECTION_WORDS.get(event.get("type", "")) or game.describe(event, players)


def legal_words(
    game: Game[Any], moves: list[dict[str, Any]], players: list[str]
) -> tuple[list[str], list[str]]:
    """Beside each legal move, its words, and its words without what chance brought (the fields
    ``Game.chance_fields`` names), which the recorder's page says on one button for the moves that
    differ only by those."""
    fields = game.chance_fields
    words, base = [], []
    for move in moves:
        words.append(move_words(game, move, players))
        chance = fields.get(move.get("type", ""), fields.get("*", ()))
        base.append(
            move_words(game, {k: v for k, v in move.items() if k not in chance}, players)
            if any(name in move for name in chance)
            else words[-1]
        )
    return words, base


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


def _applied(game: Game[Any], game_id: str, state: Any, events: list[StoredEvent]) -> Any:
    """``state`` after stored ``events``, none of them a retraction. An abandonment changes no
    state."""
    for stored in events:
        if is_abandon(stored.body):
            continue
        try:
            state = game.apply(state, stored.body)
        except TabletapeError as error:
            raise _refused(game_id, stored, error) from None
    return state


def _folded(game: Game[Any], game_id: str, start: Any, events: list[StoredEvent]) -> Fold[Any]:
    """The fold of stored ``events`` from the record's start, retractions included."""
    folded = Fold(game, start)
    for stored in events:
        try:
            folded.add(stored.body)
        except TabletapeError as error:
            raise _refused(game_id, stored, error) from None
    return folded


def _refused(game_id: str, stored: StoredEvent, error: TabletapeError) -> DamagedRecordError:
    """A stored event the rules refuse: the store holds what no append could have written."""
    problem = f"event {stored.seq} ({stored.body.get('type')!r}) is illegal: {error.message}"
    return DamagedRecordError(game_id, [problem], {"seq": stored.seq})


def _over(record: GameRecord) -> str:
    if record.status == "abandoned":
        return f"game {record.id} was abandoned: nothing more may be recorded"
    return (
        f"game {record.id} is over: no move can be added (only the recorder may retract its last)"
    )


def _status_change(
    game: Game[Any], state: Any, record: GameRecord, viewer: Viewer, event: Event
) -> str:
    """What appending ``event`` does to the game's status: "" nothing, "abandon", or "reopen" (a
    retraction of a finished game's last move); the error of an event the game cannot take now
    from ``viewer``."""
    if is_correction(event) and not viewer.sees_all:
        what = "retract a move" if is_retract(event) else "abandon the game"
        raise ForbiddenError(f"only the recorder's token may {what}, not a seat's")
    if record.status == "abandoned":
        raise GameFinishedError(_over(record))
    if game.result(state) is not None:
        if is_retract(event):
            return "reopen"
        raise GameFinishedError(_over(record))
    if is_abandon(event):
        check_abandon(event)
        return "abandon"
    _check_seat_may_append(game, state, viewer, event)
    return ""


def _check_seat_may_append(game: Game[Any], state: Any, viewer: Viewer, event: Event) -> None:
    """A seat appends only its own moves, when its decision is awaited."""
    if viewer.sees_all:
        return
    awaited = game.to_act(state)
    if awaited != viewer.seat:
        raise ForbiddenError(
            f"the decision awaited is seat {awaited}'s, not seat {viewer.seat}'s",
            {"player": awaited},
        )
    if "player" in event and event["player"] != viewer.seat:
        raise ForbiddenError(
            f"seat {viewer.seat}'s token appends seat {viewer.seat}'s moves only",
            {"player": viewer.seat},
        )
