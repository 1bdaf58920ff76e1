"""One append, prepared: everything a move validated against a snapshot comes to, made once.

``prepare`` turns a validated move into a ``PreparedAppend``: the event as the store writes it
(``EventWrite``: its body, time and hash, the game's new head, the idempotency record), the answer
the request gets, and the record and state the game has once it is stored. The use case
(``service.games.appending``) hands ``write`` to the store as it is and, once it is stored, puts
``after`` and ``state`` into its cache and answers ``response``.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from typing import Any

import orjson

from domain.copies import changer
from domain.game import Event, Game
from domain.viewers import RECORDER, Viewer
from service.games import who_may_act
from service.games.reads import event_json, view_of
from service.games.words import move_words
from service.store.chain import canonical_json, event_hash
from service.store.records import EventWrite, GameRecord, StoredEvent

# ``dataclasses.replace`` for a game's record, fast: the record after each append is one.
_record_with = changer(GameRecord)


def utc_now() -> str:
    """Server time, ISO 8601 UTC to the millisecond (formatted by hand: it is on every append)."""
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z"


@dataclass(frozen=True, slots=True)
class AppendRequest:
    """What a client asked: ``event`` appended to ``game_id`` with ``token``, at ``if_match``'s
    version if given, once per ``idempotency_key`` if given."""

    game_id: str
    token: str | None
    event: Event
    if_match: int | None
    idempotency_key: str | None
    # The event's canonical JSON, and (only a keyed append needs to recognise its body again)
    # the SHA-256 of it, else "".
    body: str
    body_digest: str

    @classmethod
    def of(
        cls,
        game_id: str,
        token: str | None,
        event: Event,
        if_match: int | None,
        idempotency_key: str | None,
    ) -> AppendRequest:
        body = canonical_json(event)
        digest = hashlib.sha256(body.encode()).hexdigest() if idempotency_key else ""
        return cls(game_id, token, event, if_match, idempotency_key, body, digest)


@dataclass(frozen=True, slots=True)
class PreparedAppend:
    """A move validated against ``record`` (the snapshot's), ready to store."""

    write: EventWrite
    # Who appends it: the recorder or a seat.
    viewer: Viewer
    # The answer, as the appender may see the game (everything, once the move ends it).
    response: dict[str, Any]
    # The game once it is stored: its record and its state.
    after: GameRecord
    state: Any

    @property
    def finished(self) -> bool:
        return self.write.result is not None


def prepare(
    request: AppendRequest,
    game: Game[Any],
    record: GameRecord,
    move: Event,
    viewer: Viewer,
    change: str,
    state: Any,
) -> PreparedAppend:
    """The append of ``move`` (``request``'s event as the record writes it), validated for
    ``viewer`` on ``record``; ``state``: the game's state after it; ``change``: what it does to
    the game's status ("", "abandon" or "reopen")."""
    seq = record.version + 1
    at = utc_now()
    hashed = event_hash(record.head_hash, seq, at, move, record.record_format)
    result = game.result(state)
    # The move that ends the game shows everything: the game is over.
    reader = viewer if result is None else RECORDER
    status = "finished" if result is not None else "abandoned" if change == "abandon" else "active"
    shown = event_json(game, StoredEvent(seq=seq, body=dict(move), at=at, hash=hashed), reader)
    response = {
        "seq": seq,
        "version": seq,
        "event": shown,
        "state": view_of(game, state, seq, reader, status),
        "words": move_words(game, shown, record.players, record.options),
    }
    key = request.idempotency_key
    write = EventWrite(
        expected_version=record.version,
        expected_head=record.head_hash,
        # As the record writes it (a score sheet's 2.0 is 2): stored, hashed and answered so.
        canonical_body=request.body if move is request.event else canonical_json(move),
        at=at,
        hash=hashed,
        result=result,
        writer="recorder" if viewer.sees_all else str(viewer.seat),
        # The digest of the writer's token, as ``who_may_act.writer`` found it in the header.
        token_sha256=(
            record.token_sha256 if viewer.seat is None else record.seat_tokens_sha256[viewer.seat]
        ),
        change=change,
        idempotency_key=key,
        idempotency_owner=who_may_act.key_owner(viewer),
        idempotency_record=(
            orjson.dumps(
                {"body_sha256": request.body_digest, "viewer": str(reader), "response": response}
            ).decode()
            if key
            else ""
        ),
    )
    after = _record_with(record, version=seq, head_hash=hashed, status=status, result=result,
                         reopened=record.reopened or change == "reopen",
                         finished_at=at if result is not None else None)  # fmt: skip
    return PreparedAppend(write, viewer, response, after, state)
