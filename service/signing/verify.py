"""The verifier of exported records: what ``tabletape verify`` runs, with no server and no store.

It checks, from the file alone, in this order, and stops at the first thing that does not hold:

1. the seed against its commitment (``seed_salt``, ``seed_commitment``, record format 2);
2. a replay of every move by the game's rules, from the header (``service.store.audit``);
3. the hash chain: every event's hash recomputed (``service.store.chain``) from the header to
   the head, and compared with the hashes the file carries, where it carries them (an archive);
4. the note: its signature by the key (``--key``, else the key the file names, which proves
   nothing about who signed: the sentence says the key is not pinned), and its head and version
   equal to the record's.

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
from service.signing.note import Note, NoteError, VerifierKey
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
    except (OSError, ValueError, EOFError) as error:
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


def _verify(document: Any, key: VerifierKey | None) -> str:
    if not isinstance(document, dict) or not isinstance(document.get("events"), list):
        raise _Refused("it is not a record (a JSON object with the header's fields and events)")
    missing = [name for name in _PLAYED if name not in document]
    if missing:
        raise _Refused(f"it is not a whole record: it lacks {', '.join(missing)}")
    record_format = document.get("record_format") or FORMAT
    header = {name: document[name] for name in _PLAYED}
    header["seed_commitment"] = document.get("seed_commitment")
    events = document["events"]
    if not all(isinstance(event, dict) for event in events):
        raise _Refused("its events are not all JSON objects")

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

    # 4. The note: signed by the key, on this head and version.
    note, vkey, pinned = _note_to_check(document, key)
    fields = note.fields
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
    trust = (
        f"signed by {vkey.name}+{vkey.hash.hex()}"
        if pinned
        else f"signed by {vkey.text}, the key the file names: that key is not pinned (pass"
        " --key with the service's key from its /keys)"
    )
    return f"{held}, and its note ({fields['status']}, version {len(events)}) is {trust}"


def _note_to_check(
    document: dict[str, Any], key: VerifierKey | None
) -> tuple[Note, VerifierKey, bool]:
    """The note to check and its key, whether that key is pinned; its signature checked. With
    ``key``, the note among those the file carries (its own, then those it was imported with)
    that names that key."""
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
    for text, named in carried:
        if not text:
            continue
        try:
            notes.append((Note.parse(text), named))
        except NoteError as error:
            raise _Refused(f"its note is not a signed note: {error}") from None
    if key is None:
        note, named = notes[0]
        if not named:
            raise _Refused("it names no key for its note (checkpoint_key): pass --key")
        try:
            key = VerifierKey.parse(named)
        except NoteError as error:
            raise _Refused(f"the key it names for its note is not one: {error}") from None
        pinned = False
    else:
        signed = [note for note, _ in notes if note.signed_by(key)]
        if not signed:
            by = ", ".join(f"{s.name}+{s.key_hash.hex()}" for n, _ in notes for s in n.signatures)
            raise _Refused(f"its note is not signed by {key.name}+{key.hash.hex()} (but by {by})")
        note, pinned = signed[0], True
    try:
        note.verify(key)
    except NoteError as error:
        raise _Refused(f"its note does not verify: {error}") from None
    return note, key, pinned
