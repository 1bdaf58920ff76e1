"""The verifier of exported records: what ``tabletape verify`` runs, with no server and no store.

It checks, from the file alone, in this order, and stops at the first thing that does not hold:

1. the seed against its commitment (``seed_salt``, ``seed_commitment``, record format 2);
2. a replay of every move by the game's rules, from the header (``service.store.audit``);
3. the hash chain: every event's hash recomputed (``service.store.chain``) from the header to
   the head, and compared with the hashes the file carries, where it carries them (an archive);
4. the note: its signature by the key (``--key``, else the key the file names, which proves
   nothing about who signed: the sentence says the key is not pinned), its head and version equal
   to the record's, and the file's ``id``, ``status``, ``created_at`` and ``finished_at`` (those it
   carries) equal to the note's ``game``, ``status``, ``created`` and ``finished`` lines;
5. the file's ``result``, where it carries one, equal to the one the replay gives.

Before all that, every field the file carries is of its type (``_KINDS``): a file of any other
shape is said in a sentence, never a traceback.

Nothing here imports Redis, Flask or the service's app: the store's chain and audit stand on the
domain alone, and so does this.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.errors import TabletapeError
from service.signing.note import VOUCHED_BY, Note, NoteError, VerifierKey, shown, unlike_note
from service.store.audit import replay_record
from service.store.chain import (
    FORMAT,
    LEGACY_FORMAT,
    event_hash,
    header_hash,
    seed_commitment,
)

# The header's fields a replay starts from.
_PLAYED = ("game", "players", "seed", "options", "rules_version")


def _text(value: Any) -> bool:
    return isinstance(value, str)


def _whole(value: Any) -> bool:
    # JSON's true is no number, though Python's bool is an int.
    return isinstance(value, int) and not isinstance(value, bool)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


def _object(value: Any) -> bool:
    return isinstance(value, dict)


def _carried_notes(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(kept, dict)
        and isinstance(kept.get("checkpoint"), str)
        and isinstance(kept.get("checkpoint_key"), (str, type(None)))
        for kept in value
    )


def _objects(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, dict) for item in value)


# What each field of a record file is, where the file has it (None allowed or not), in words.
_KINDS: dict[str, tuple[Any, bool, str]] = {
    "game": (_text, False, "a string"),
    "players": (_texts, False, "a list of names"),
    "seed": (_whole, False, "a whole number"),
    "options": (_object, False, "an object"),
    "rules_version": (_text, False, "a string"),
    "record_format": (_whole, True, "a whole number"),
    "seed_salt": (_text, True, "a string"),
    "seed_commitment": (_text, True, "a string"),
    "events": (_objects, False, "a list of objects"),
    "id": (_text, False, "a string"),
    "status": (_text, False, "a string"),
    "created_at": (_text, False, "a string"),
    "finished_at": (_text, True, "a string"),
    "version": (_whole, False, "a whole number"),
    "head_hash": (_text, False, "a string"),
    "result": (_object, True, "an object"),
    "checkpoint": (_text, True, "a string"),
    "checkpoint_key": (_text, True, "a string"),
    "source_checkpoints": (_carried_notes, True, "a list of notes, each a checkpoint string"),
}
# What each event's own fields are, where it has them.
_EVENT_KINDS: dict[str, tuple[Any, bool, str]] = {
    "type": (_text, False, "a string"),
    "at": (_text, False, "a string"),
    "hash": (_text, False, "a string"),
    "seq": (_whole, False, "a whole number"),
}


@dataclass(frozen=True)
class Verdict:
    ok: bool
    sentence: str


class _Refused(Exception):
    """The first thing about a record that does not hold, in a sentence."""


def records_in(path: str) -> Iterator[tuple[str, Any]]:
    """Each record a file holds, named by where it is (``file``, or ``file#3`` for the third
    record of a file of many: a JSON list, or JSON Lines as ``tabletape export --all`` writes);
    an archive file (``.json.gz``) is read too. A file that cannot be read gives its error."""
    try:
        raw = Path(path).read_bytes()
        if path.endswith(".gz"):
            raw = gzip.decompress(raw)
        text = raw.decode("utf-8")
        try:
            whole = json.loads(text)
            found = whole if isinstance(whole, list) else [whole]
        except ValueError:
            found = [json.loads(line) for line in text.splitlines() if line.strip()]
    except (OSError, ValueError, EOFError, RecursionError) as error:
        yield path, _Refused(f"it cannot be read as a JSON record ({error})")
        return
    if len(found) == 1:
        yield path, found[0]
    else:
        yield from ((f"{path}#{n}", document) for n, document in enumerate(found, start=1))


def verify(document: Any, key: VerifierKey | None = None) -> Verdict:
    """What holds of ``document`` (an exported record, or an archive file's), or the first thing
    that does not, in one sentence; ``key`` pins the key its note must be signed with."""
    try:
        if isinstance(document, _Refused):
            raise document
        return Verdict(True, _verify(document, key))
    except _Refused as refused:
        return Verdict(False, str(refused))
    except Exception as error:
        # A file of a shape no check above foresaw (the games' rules read events as they
        # come): said in its sentence, and the files after it are still checked.
        return Verdict(False, f"it cannot be read: an unforeseen {type(error).__name__} ({error})")


def _check_kinds(document: dict[str, Any]) -> None:
    """_Refused naming the first field of ``document`` (or of one of its events) that is not of
    its type: a file verify cannot read as a record."""
    for name, (kind, may_be_null, said) in _KINDS.items():
        if name in document and not (
            kind(document[name]) or (may_be_null and document[name] is None)
        ):
            raise _Refused(
                f"it cannot be read: its {name} is {_kind_of(document[name])}, not {said}"
            )
    for seq, event in enumerate(document.get("events") or [], start=1):
        for name, (kind, _, said) in _EVENT_KINDS.items():
            if name in event and not kind(event[name]):
                kind_of = _kind_of(event[name])
                raise _Refused(f"it cannot be read: event {seq}'s {name} is {kind_of}, not {said}")


def _kind_of(value: Any) -> str:
    """What a JSON value is, in words."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object"


def _verify(document: Any, key: VerifierKey | None) -> str:
    if not isinstance(document, dict) or "events" not in document:
        raise _Refused("it is not a record (a JSON object with the header's fields and events)")
    missing = [name for name in _PLAYED if name not in document]
    if missing:
        raise _Refused(f"it is not a whole record: it lacks {', '.join(missing)}")
    _check_kinds(document)
    record_format = document.get("record_format") or FORMAT
    header = {name: document[name] for name in _PLAYED}
    header["seed_commitment"] = document.get("seed_commitment")
    events = document["events"]

    # 1. The seed against its commitment.
    if record_format != LEGACY_FORMAT:
        salt = document.get("seed_salt")
        try:
            committed = seed_commitment(document["seed"], salt or "")
        except (TypeError, ValueError):
            committed = None
        if not salt or committed != header["seed_commitment"]:
            raise _Refused("its seed and salt do not match its seed commitment")

    # 2. A replay of every move by the rules.
    bodies = [
        {k: v for k, v in event.items() if k not in ("seq", "at", "hash")} for event in events
    ]
    try:
        replay = replay_record(header, bodies, quote_rules=True)
    except (TabletapeError, KeyError, TypeError, ValueError) as error:
        raise _Refused(f"its header cannot start a game: {error}") from None
    if not replay.ok:
        raise _Refused(f"the rules refuse it: {replay.problems[0]}")

    # 3. The hash chain, from the header to the head.
    try:
        head = header_hash(header, record_format)
    except (KeyError, TypeError, ValueError) as error:
        raise _Refused(f"its header cannot be hashed: {error}") from None
    for seq, (event, body) in enumerate(zip(events, bodies, strict=True), start=1):
        at = event.get("at")
        if record_format != LEGACY_FORMAT and not isinstance(at, str):
            raise _Refused(f"event {seq} has no time (at): the chain covers it")
        head = event_hash(head, seq, at or "", body, record_format)
        if "hash" in event and event["hash"] != head:
            raise _Refused(
                f"the chain is broken at event {seq} ({body.get('type')!r}): its hash is not"
                " the one its content and the events before it give"
            )
    if "head_hash" in document and document["head_hash"] != head:
        raise _Refused("the chain is broken: its head_hash is not the hash of its last event")
    held = (
        f"its seed commitment, its chain of {len(events)} events to head {head[:16]}… and a"
        " replay by the rules hold"
    )

    if "version" in document and document["version"] != len(events):
        raise _Refused(f"{held}, but it says version {document['version']} of {len(events)} events")

    # 4. The note: signed by the key, on this head and version, of this game, status and times.
    note, vkey, pinned, own = _note_to_check(document, key)
    try:
        fields = note.fields
    except NoteError as error:
        raise _Refused(f"{held}, but its note is not one of a record: {error}") from None
    if fields["origin"] != vkey.name:
        raise _Refused(f"its note's origin {fields['origin']!r} is not its key's name")
    if int(fields["version"]) != len(events):
        raise _Refused(
            f"{held}, but its note signs version {fields['version']} and the record has"
            f" {len(events)} events"
        )
    if fields["head"] != head:
        raise _Refused(
            f"{held}, but its note signs head {fields['head'][:16]}… and the record's events"
            f" chain to {head[:16]}…: the record was changed after the note was signed"
        )
    if replay.result is None and fields["status"] in ("finished", "archived"):
        raise _Refused(f"{held}, but its note says {fields['status']} and the replay does not end")
    # A note an import kept is of the source's game: its id and status are the source's, and
    # its times (an import keeps them) are this file's.
    compared = {
        name: document[name]
        for name in (("id", "status") if own else ()) + ("created_at", "finished_at")
        if name in document
    }
    differences = unlike_note(compared, fields)
    if differences:
        name, differs = next(iter(differences.items()))
        raise _Refused(
            f"{held}, but its {name} is {differs}: the file was changed after the note was signed"
        )
    # 5. The result, as the replay gives it (as JSON reads it: a tuple is a list there).
    if "result" in document:
        replayed = json.loads(json.dumps(replay.result))
        if document["result"] != replayed:
            raise _Refused(
                f"{held}, but its result {shown(document['result'])} is not the one the"
                f" replay gives ({shown(replayed)})"
            )
    trust = (
        f"signed by {vkey.name}+{vkey.hash.hex()}"
        if pinned
        else f"signed by {vkey.text}, the key the file names: that key is not pinned (pass"
        " --key with the service's key from its /keys)"
    )
    if "created" in fields:
        vouched = [name for name in compared if VOUCHED_BY[name] in fields]
        covers = f", vouching for {f'its {_listed(vouched)}' if vouched else 'no field of it'}"
    else:
        covers = "; its times are not covered: it was signed before notes carried them"
    return f"{held}, and its note ({fields['status']}, version {len(events)}{covers}) is {trust}"


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _note_to_check(
    document: dict[str, Any], key: VerifierKey | None
) -> tuple[Note, VerifierKey, bool, bool]:
    """The note to check and its key, whether that key is pinned, and whether the note is the
    file's own (not one it was imported with); its signature checked. With ``key``, the note
    among those the file carries (its own, then those it was imported with) that names that
    key."""
    carried = [(document.get("checkpoint"), document.get("checkpoint_key"))]
    for kept in document.get("source_checkpoints") or []:
        if isinstance(kept, dict):
            carried.append((kept.get("checkpoint"), kept.get("checkpoint_key")))
    if not carried[0][0] and len(carried) == 1:
        raise _Refused(
            "it carries no signed note (checkpoint): a game exported before it was over, or"
            " by a service that had no signing key"
        )
    notes = []
    for n, (text, named) in enumerate(carried):
        if not text:
            continue
        try:
            notes.append((Note.parse(text), named, n == 0))
        except NoteError as error:
            raise _Refused(f"its note is not a signed note: {error}") from None
    if key is None:
        note, named, own = notes[0]
        if not named:
            raise _Refused("it names no key for its note (checkpoint_key): pass --key")
        try:
            key = VerifierKey.parse(named)
        except NoteError as error:
            raise _Refused(f"the key it names for its note is not one: {error}") from None
        pinned = False
    else:
        signed = [(note, own) for note, _, own in notes if note.signed_by(key)]
        if not signed:
            by = ", ".join(f"{s.name}+{s.key_hash.hex()}" for n, *_ in notes for s in n.signatures)
            raise _Refused(f"its note is not signed by {key.name}+{key.hash.hex()} (but by {by})")
        (note, own), pinned = signed[0], True
    try:
        note.verify(key)
    except NoteError as error:
        raise _Refused(f"its note does not verify: {error}") from None
    return note, key, pinned, own
