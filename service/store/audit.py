"""Audit of a record: replay it from its header with the game's rules, check its seed commitment
and recompute its hash chain (``service.store.chain``, in the record's own format).

A problem names the event it concerns, so a record changed behind the service's back (an event
edited in Redis, a corrupted file) is pointed at, not just rejected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain import get_game
from domain.corrections import Fold
from domain.errors import TabletapeError
from service.store.chain import LEGACY_FORMAT, event_hash, header_hash, seed_commitment
from service.store.records import GameRecord, StoredEvent


@dataclass
class Audit:
    version: int
    head_hash: str | None
    problems: list[str] = field(default_factory=list)
    # The moves left standing once retractions are folded, and the state after each of them:
    # what the statistics count (``states[i]`` follows ``standing[i]``).
    standing: list[dict[str, Any]] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    result: dict[str, Any] | None = None
    # The record ends with an abandonment.
    abandoned: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "version": self.version,
            "head_hash": self.head_hash,
            "problems": self.problems,
        }


def illegal_event(seq: int, body: dict[str, Any]) -> str:
    """The problem of a stored event the rules refuse, in words any viewer may read: the rules'
    own words may quote what the event holds (the cards a seat was dealt), so the event is named
    by its seq, its type and its fields, never their values."""
    fields = ", ".join(sorted(str(name) for name in body if name != "type")) or "none"
    return (
        f"event {seq} ({body.get('type')!r}) is illegal under the game's rules"
        f" (its fields: {fields})"
    )


def replay_record(
    header: dict[str, Any], bodies: Sequence[dict[str, Any]], *, quote_rules: bool = False
) -> Audit:
    """Replay event bodies from a header; the first illegal event stops it and is named. (The
    bodies alone carry no hashes: ``audit_game`` checks the chain of a stored record.) With
    ``quote_rules``, the problem gives the rules' own words, values included: for the one who
    holds the bodies (an import's sender), never for a stored record's readers."""
    audit = Audit(version=0, head_hash=None)
    try:
        game = get_game(header["game"])
        if header["rules_version"] != game.rules_version:
            audit.problems.append(
                f"recorded under rules {header['rules_version']!r}; this service replays"
                f" {game.rules_version!r} only"
            )
            return audit
        state = game.start(header)
    except TabletapeError as error:
        audit.problems.append(f"the header cannot start a game: {error.message}")
        return audit
    folded = Fold(game, state)
    for seq, body in enumerate(bodies, start=1):
        try:
            # One event at a time, so that the first bad one is named.
            folded.add(body)
        except TabletapeError as error:
            audit.problems.append(
                f"event {seq} ({body.get('type')!r}) is illegal: {error.message}"
                if quote_rules
                else illegal_event(seq, body)
            )
            break
        audit.version = seq
    audit.standing = [dict(move) for move in folded.moves]
    audit.states = folded.states[1:]
    audit.result = game.result(folded.state)
    audit.abandoned = folded.abandoned
    return audit


def audit_game(
    record: GameRecord, events: list[StoredEvent], archive: dict[str, Any] | None = None
) -> Audit:
    """Replay, seed commitment, hash chain, and agreement with the header (and the archive, when
    there is one)."""
    audit = replay_record(record.header, [event.body for event in events])
    problems = audit.problems
    legacy = record.record_format == LEGACY_FORMAT
    if not legacy and record.seed_commitment != seed_commitment(
        record.seed, record.seed_salt or ""
    ):
        problems.append("the seed and its salt do not match the seed commitment")
    previous = header_hash(record.header, record.record_format)
    for position, event in enumerate(events, start=1):
        if event.seq != position:
            problems.append(f"event {position} is missing: the stream goes on at {event.seq}")
            break
        if (
            event_hash(previous, event.seq, event.at, event.body, record.record_format)
            != event.hash
        ):
            problems.append(
                f"event {event.seq} ({event.body.get('type')!r}) does not match its hash:"
                " it was changed after it was recorded"
            )
        previous = event.hash
    if len(events) != record.version:
        problems.append(f"the header says {record.version} events, the stream holds {len(events)}")
    if previous != record.head_hash:
        problems.append("the header's head hash is not the last event's hash")
    finished = record.status in ("finished", "archived")
    if finished and audit.result != record.result:
        problems.append(f"the replay ends with {audit.result}, the record says {record.result}")
    if record.status == "active" and audit.result is not None:
        problems.append("the replay ends the game, but the record says it is still active")
    if audit.abandoned != (record.status == "abandoned"):
        problems.append(
            f"the replay {'ends with' if audit.abandoned else 'has no'} abandonment,"
            f" but the record says the game is {record.status}"
        )
    if archive is not None:
        if archive.get("head_hash") != record.head_hash:
            problems.append("the archive's head hash differs from the record's")
        if archive.get("events") != [event.as_json() for event in events]:
            problems.append("the archive's events differ from the stream's")
        if archive.get("result") != record.result:
            problems.append("the archive's result differs from the record's")
    audit.head_hash = record.head_hash
    audit.version = record.version
    return audit
