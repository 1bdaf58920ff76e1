"""How an append is stored: a move validated against the latest state, stored at that version.

The game's rules validate every move against the latest state before the store appends it,
atomically, at that version (the append script refuses it if another writer got in first, if the
token is no longer the header's, if the game is over). The first attempt trusts this process's
cached state (``repository.StateCache``); any doubt is settled on the record read from Redis
(``Appending._current``). An append with an idempotency key stores its answer beside the event;
the same key and body get that answer again, as the viewer may see the game now
(``Appending._replay_idempotent``).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import orjson

from domain.corrections import check_abandon, is_abandon, is_correction, is_retract
from domain.errors import GameFinishedError, TabletapeError
from domain.game import Event, Game
from domain.viewers import RECORDER, Viewer
from service.errors import (
    ForbiddenError,
    IdempotencyConflictError,
    NotFoundError,
    UnauthorizedError,
    VersionConflictError,
)
from service.games import who_may_act
from service.games.reads import event_json, state_view, view_of
from service.games.repository import Repository, Snapshot, folded_from_start, rules_of, start_of
from service.games.words import move_words
from service.store.chain import canonical_json, event_hash
from service.store.damage import DamagedRecordError, damaged_idempotency_record
from service.store.records import (
    Appended,
    Conflict,
    Finished,
    GameRecord,
    OtherHead,
    Replayed,
    Revoked,
    StoredEvent,
    Trimmed,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

# Appends without If-Match retry this often when another writer got in between; each retry
# re-validates the move against the newer state.
_MAX_APPEND_ATTEMPTS = 50


def utc_now() -> str:
    """Server time, ISO 8601 UTC to the millisecond (formatted by hand: it is on every append)."""
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z"


def ask_recount(recount: Callable[[T], object] | None, games: T) -> None:
    """Ask for the figures of a game (or of an import's many) to be counted again (``recount``,
    the archive job), best effort."""
    if recount is None:
        return
    try:
        recount(games)
    except Exception:
        # The move is stored: never fail it for this. Reconcile enqueues what was missed.
        log.exception("could not enqueue the archive job of %s", games)


@dataclass(frozen=True)
class AppendResult:
    response: dict[str, Any]
    version: int
    game_finished: bool


class Appending:
    """Appends moves to games' records, one at a time per game, each at the version it saw."""

    def __init__(
        self, repository: Repository, recount: Callable[[str], object] | None = None
    ) -> None:
        self.repository = repository
        # Called with a game's id when its figures must be counted again: once its last move is
        # stored, or once a retraction undid its finish (the service enqueues the archive job,
        # which archives and counts a finished game and withdraws a reopened one's figures).
        self.recount = recount

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
        repository = self.repository
        cache, store = repository.cache, repository.store
        body = canonical_json(event)
        # Only a keyed append needs to recognise its body again.
        body_digest = hashlib.sha256(body.encode()).hexdigest() if idempotency_key else ""
        snapshot = cache.get(game_id)
        trusted = (
            snapshot is not None
            and cache.trusted(snapshot)
            and if_match in (None, snapshot.record.version)
        )
        for _ in range(_MAX_APPEND_ATTEMPTS):
            if not trusted:
                found = self._current(game_id, token, event, if_match, idempotency_key, body_digest)
                if isinstance(found, AppendResult):
                    return found
                snapshot = found
            assert snapshot is not None
            record = snapshot.record
            game = rules_of(record)
            # As the record writes it (a score sheet's 2.0 is 2): stored, hashed and answered so.
            move = game.written(event)
            canonical = body if move is event else canonical_json(move)
            try:
                # On a snapshot, a token it does not know may be a seat's new link: settled on
                # the header read from Redis.
                viewer = who_may_act.writer(record, token)
                change = _status_change(game, snapshot.state, record, viewer, move)
                if is_retract(move):
                    state = self._replayed_with_retraction(game, record, move)
                elif is_abandon(move):
                    state = snapshot.state
                else:
                    state = game.apply(snapshot.state, move)
            except TabletapeError:
                if trusted:
                    trusted = False
                    continue
                raise
            trusted = False
            seq = record.version + 1
            at = utc_now()
            hashed = event_hash(record.head_hash, seq, at, move, record.record_format)
            result = game.result(state)
            stored = StoredEvent(seq=seq, body=dict(move), at=at, hash=hashed)
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
                "state": view_of(game, state, seq, reader, status),
                "words": move_words(game, shown, record.players, record.options),
            }
            outcome = store.append(
                game_id,
                expected_version=record.version,
                expected_head=record.head_hash,
                canonical_body=canonical,
                at=at,
                hash=hashed,
                result=result,
                writer="recorder" if viewer.sees_all else str(viewer.seat),
                token_sha256=who_may_act.token_digest(token or ""),
                change=change,
                idempotency_key=idempotency_key,
                idempotency_owner=who_may_act.key_owner(viewer),
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
                    cache.put(Snapshot(after, state, snapshot.checked_at))
                    if result is not None or change == "reopen":
                        ask_recount(self.recount, game_id)
                    return AppendResult(response, seq, result is not None)
                case Replayed(prior):
                    return self._replay_idempotent(
                        repository.record(game_id),
                        viewer,
                        prior,
                        body_digest,
                        idempotency_key or "",
                    )
                case Finished():
                    raise GameFinishedError(f"game {game_id} is over: no move can be added")
                case Revoked():
                    # The header no longer holds the token the snapshot knew (a seat's link was
                    # replaced, maybe by another process): the header read now says why.
                    cache.discard(game_id)
                    who_may_act.writer(repository.record(game_id), token)
                    raise UnauthorizedError("this token is not one of the game's any more")
                case Trimmed():
                    # The archive replaced the stream: put it back, then retract as ever.
                    record_now = repository.record(game_id)
                    store.restore_stream(game_id, repository.stored_events(record_now))
                    cache.discard(game_id)
                    continue
                case Conflict(current) if if_match is not None:
                    raise VersionConflictError(current, if_match)
                case Conflict():
                    continue  # another writer appended first: validate against the new state
                case OtherHead():
                    # This process remembers a write the store has lost: forget it, and validate
                    # the move again on the store's own head.
                    cache.discard(game_id)
                    continue
                case _:
                    raise NotFoundError(f"no game with id {game_id!r}")
        raise VersionConflictError(repository.record(game_id).version, None)

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
        repository = self.repository
        record = repository.record(game_id)
        viewer = who_may_act.writer(record, token)
        if idempotency_key:
            owner = who_may_act.key_owner(viewer)
            prior = repository.store.idempotency_record(game_id, idempotency_key, owner)
            if prior is not None:
                return self._replay_idempotent(record, viewer, prior, body_digest, idempotency_key)
        # A finished game takes one event still: the recorder's retraction of its last move
        # (``_status_change`` says whose it may be).
        if record.status == "abandoned" or (record.status != "active" and not is_retract(event)):
            raise GameFinishedError(_over(record))
        if if_match is not None and if_match != record.version:
            raise VersionConflictError(record.version, if_match)
        state = repository.state_at(record)
        # state_at() cached it, with when it was last checked against the stored record.
        cached = repository.cache.get(game_id)
        checked_at = cached.checked_at if cached is not None else float("-inf")
        return Snapshot(record, state, checked_at)

    def _replayed_with_retraction(self, game: Game[Any], record: GameRecord, retract: Event) -> Any:
        """The state once ``retract`` voids the latest standing move of ``record``: the whole
        record replayed from the seed, then the retraction."""
        stored = self.repository.stored_events(record, 1, record.version)
        folded = folded_from_start(game, record.id, start_of(game, record), stored)
        # The stored events replay: what the rules refuse now is the retraction.
        folded.add(retract)
        return folded.state

    # Idempotent answers --------------------------------------------------------------------------
    def _replay_idempotent(
        self, record: GameRecord, viewer: Viewer, prior: str, body_digest: str, key: str
    ) -> AppendResult:
        """The answer recorded for a keyed append of this same ``viewer`` (keys are per viewer),
        as the viewer may see the game now (``record``): a seat whose move ended the game was
        answered with every hand, which it may not see once the recorder reopened the game."""
        try:
            stored = orjson.loads(prior)
            recorded_body, response = stored["body_sha256"], stored["response"]
            answered_as = stored.get("viewer")
            finished = response["state"].get("status") != "active"
            version = response["version"]
        except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError):
            raise damaged_idempotency_record(record.id, key) from None
        if recorded_body != body_digest:
            raise IdempotencyConflictError(key)
        reading = who_may_act.reading_as(record, viewer)
        if answered_as == str(reading):
            return AppendResult(response, version, finished)
        return self._answered_again(record, version, reading)

    def _answered_again(self, record: GameRecord, version: int, reading: Viewer) -> AppendResult:
        """The answer to the append that stored event ``version``, for ``reading``."""
        game = rules_of(record)
        named = type(version) is int and 0 < version <= record.version
        events = self.repository.stored_events(record, version, version) if named else []
        if len(events) != 1:
            raise DamagedRecordError(
                record.id,
                [f"an idempotency record names event {version!r}, which the record lacks"],
                {"seq": version},
            )
        stored = events[0]
        state = state_view(self.repository, record, version, reading)
        shown = event_json(game, stored, reading)
        response = {
            "seq": version,
            "version": version,
            "event": shown,
            "state": state,
            "words": move_words(game, shown, record.players, record.options),
        }
        return AppendResult(response, version, state.get("status") != "active")


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
    who_may_act.check_seat_may_append(game, state, viewer, event)
    return ""
