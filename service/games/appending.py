"""How an append is stored: a move validated against the latest state, stored at that version.

The game's rules validate every move against the latest state before the store appends it,
atomically, at that version (the append script refuses it if another writer got in first, if the
token is no longer the header's, if the game is over). The first attempt trusts this process's
cached state (``repository.StateCache``); any doubt is settled on the record read from Redis
(``Appending._current``). A move validated on a snapshot becomes one value
(``prepared.PreparedAppend``: the event as the store writes it, its answer, the record after), whose
``write`` the store appends whole; what the store says of it (``Appending._answer``) answers the
request, or sends the move round again. An append with an idempotency key stores its answer beside
the event; the same key and body get that answer again, as the viewer may see the game now
(``Appending._replay_idempotent``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import orjson

from domain.corrections import check_abandon, is_abandon, is_correction, is_retract
from domain.errors import GameFinishedError, TabletapeError
from domain.game import Event, Game
from domain.viewers import Viewer
from service.errors import (
    ForbiddenError,
    IdempotencyConflictError,
    NotFoundError,
    UnauthorizedError,
    VersionConflictError,
)
from service.games import who_may_act
from service.games.prepared import AppendRequest, PreparedAppend, prepare, utc_now
from service.games.reads import event_json, state_view
from service.games.repository import Repository, Snapshot, folded_from_start, rules_of, start_of
from service.games.words import move_words
from service.store.damage import DamagedRecordError, damaged_idempotency_record
from service.store.records import (
    Appended,
    AppendOutcome,
    Conflict,
    Finished,
    GameRecord,
    OtherHead,
    Replayed,
    Revoked,
    Trimmed,
)

# utc_now, the server's time as every append writes it: other use cases take it from here too.
__all__ = ["AppendResult", "Appending", "ask_recount", "utc_now"]

log = logging.getLogger(__name__)
T = TypeVar("T")

# Appends without If-Match retry this often when another writer got in between; each retry
# re-validates the move against the newer state.
_MAX_APPEND_ATTEMPTS = 50


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
        request = AppendRequest.of(game_id, token, event, if_match, idempotency_key)
        snapshot = self._trusted_snapshot(request)
        for _ in range(_MAX_APPEND_ATTEMPTS):
            trusted = snapshot is not None
            if snapshot is None:
                found = self._current(request)
                if isinstance(found, AppendResult):
                    return found
                snapshot = found
            try:
                prepared = self._prepare(request, snapshot)
            except TabletapeError:
                if trusted:
                    snapshot = None
                    continue
                raise
            outcome = self.repository.store.append(game_id, prepared.write)
            answer = self._answer(request, snapshot, prepared, outcome)
            if answer is not None:
                return answer
            snapshot = None
        raise VersionConflictError(self.repository.record(game_id).version, None)

    def _trusted_snapshot(self, request: AppendRequest) -> Snapshot | None:
        """This process's snapshot of the game, if it may be trusted for a first attempt."""
        cache = self.repository.cache
        snapshot = cache.get(request.game_id)
        if snapshot is None or not cache.trusted(snapshot):
            return None
        return snapshot if request.if_match in (None, snapshot.record.version) else None

    def _prepare(self, request: AppendRequest, snapshot: Snapshot) -> PreparedAppend:
        """The request's move validated on ``snapshot`` (the rules' error if it may not follow),
        and all it comes to."""
        record = snapshot.record
        game = rules_of(record)
        move = game.written(request.event)
        # On a snapshot, a token it does not know may be a seat's new link: settled on the
        # header read from Redis.
        viewer = who_may_act.writer(record, request.token)
        change = _status_change(game, snapshot.state, record, viewer, move)
        if is_retract(move):
            state = self._replayed_with_retraction(game, record, move)
        elif is_abandon(move):
            state = snapshot.state
        else:
            state = game.apply(snapshot.state, move)
        return prepare(request, game, record, move, viewer, change, state)

    def _answer(
        self,
        request: AppendRequest,
        snapshot: Snapshot,
        prepared: PreparedAppend,
        outcome: AppendOutcome,
    ) -> AppendResult | None:
        """What the store's ``outcome`` of ``prepared`` answers: the stored move's answer, the
        recorded one of a key used before, an error, or None: validate again on the record read
        from Redis."""
        game_id, cache = request.game_id, self.repository.cache
        match outcome:
            case Appended():
                cache.put(Snapshot(prepared.after, prepared.state, snapshot.checked_at))
                if prepared.finished or prepared.write.change == "reopen":
                    ask_recount(self.recount, game_id)
                return AppendResult(prepared.response, prepared.after.version, prepared.finished)
            case Replayed(prior):
                record = self.repository.record(game_id)
                return self._replay_idempotent(record, prepared.viewer, prior, request)
            case Finished():
                raise GameFinishedError(f"game {game_id} is over: no move can be added")
            case Revoked():
                # The header no longer holds the token the snapshot knew (a seat's link was
                # replaced, maybe by another process): the header read now says why.
                cache.discard(game_id)
                who_may_act.writer(self.repository.record(game_id), request.token)
                raise UnauthorizedError("this token is not one of the game's any more")
            case Trimmed():
                # The archive replaced the stream: put it back, then retract as ever.
                record_now = self.repository.record(game_id)
                self.repository.store.restore_stream(
                    game_id, self.repository.stored_events(record_now)
                )
                cache.discard(game_id)
                return None
            case Conflict(current) if request.if_match is not None:
                raise VersionConflictError(current, request.if_match)
            case Conflict():
                return None  # another writer appended first: validate against the new state
            case OtherHead():
                # This process remembers a write the store has lost: forget it, and validate
                # the move again on the store's own head.
                cache.discard(game_id)
                return None
            case _:
                raise NotFoundError(f"no game with id {game_id!r}")

    def _current(self, request: AppendRequest) -> Snapshot | AppendResult:
        """The game as Redis has it now, checked for everything an append must not get past;
        or the recorded answer when the idempotency key was used before."""
        repository = self.repository
        record = repository.record(request.game_id)
        viewer = who_may_act.writer(record, request.token)
        if request.idempotency_key:
            owner = who_may_act.key_owner(viewer)
            prior = repository.store.idempotency_record(
                request.game_id, request.idempotency_key, owner
            )
            if prior is not None:
                return self._replay_idempotent(record, viewer, prior, request)
        # A finished game takes one event still: the recorder's retraction of its last move
        # (``_status_change`` says whose it may be).
        if record.status == "abandoned" or (
            record.status != "active" and not is_retract(request.event)
        ):
            raise GameFinishedError(_over(record))
        if request.if_match is not None and request.if_match != record.version:
            raise VersionConflictError(record.version, request.if_match)
        state = repository.state_at(record)
        # state_at() cached it, with when it was last checked against the stored record.
        cached = repository.cache.get(request.game_id)
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
        self, record: GameRecord, viewer: Viewer, prior: str, request: AppendRequest
    ) -> AppendResult:
        """The answer recorded for a keyed append of this same ``viewer`` (keys are per viewer),
        as the viewer may see the game now (``record``): a seat whose move ended the game was
        answered with every hand, which it may not see once the recorder reopened the game."""
        key = request.idempotency_key or ""
        try:
            stored = orjson.loads(prior)
            recorded_body, response = stored["body_sha256"], stored["response"]
            answered_as = stored.get("viewer")
            finished = response["state"].get("status") != "active"
            version = response["version"]
        except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError):
            raise damaged_idempotency_record(record.id, key) from None
        if recorded_body != request.body_digest:
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
