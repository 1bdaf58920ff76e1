"""Signed records: the service's Ed25519 key, the signed note of a game's head, and the verifier
of exported records.

- ``note``: the C2SP signed-note format (pure: text and bytes), verifier keys;
- ``keys``: the key file, the key set that keeps earlier keys listed, ``keygen``;
- ``verify``: checks an exported record with no server and no store (``tabletape verify``).

A note says "this service vouched for this head of this game at this version". It does not say
that the moves recorded are the moves played: whoever held the recorder's token could record
others. What it adds to the hash chain is who vouched for the head: a copy that differs from the
note was changed after the service signed it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.signing.keys import KeyRing, NoSigningKeyError, SigningKeyError
from service.signing.note import Note, NoteError, Signer, VerifierKey, head_text, unlike_note
from service.store.records import GameRecord

__all__ = [
    "Checkpoint",
    "KeyRing",
    "NoSigningKeyError",
    "Note",
    "NoteError",
    "SigningKeyError",
    "VerifierKey",
    "sign_head",
]


@dataclass(frozen=True)
class Checkpoint:
    """A signed note of a head, with the verifier key that checks it."""

    note: str
    vkey: str

    def as_json(self) -> dict[str, str]:
        """As an export or an archive carries it."""
        return {"checkpoint": self.note, "checkpoint_key": self.vkey}


def sign_head(signer: Signer, record: GameRecord, status: str | None = None) -> Checkpoint:
    """The note of ``record``'s head at its version, with its status (or ``status``: the archive
    job signs the head it archives as archived) and its times, signed by ``signer`` (Ed25519
    signatures are deterministic: the same head signed twice by one key gives the same note)."""
    text = head_text(
        signer.name,
        record.id,
        record.version,
        record.head_hash,
        status or record.status,
        record.created_at,
        record.finished_at,
    )
    return Checkpoint(signer.sign(text), signer.verifier.text)


def source_checkpoints(document: dict[str, Any]) -> list[dict[str, Any]]:
    """What an import keeps of the notes a record came with: its source's own note first, then
    the notes that source had kept, each as it came."""
    kept = []
    if document.get("checkpoint"):
        kept.append(
            {
                "checkpoint": document["checkpoint"],
                "checkpoint_key": document.get("checkpoint_key"),
            }
        )
    kept += document.get("source_checkpoints") or []
    return kept


def times_unlike_notes(
    document: dict[str, Any], created_at: str, finished_at: str | None
) -> dict[str, str]:
    """The times a record to import would be stored with (``created_at``, ``finished_at``: the
    document's, or those the import fills in) that a note it carries vouches for otherwise: the
    field's name -> what it is and what the note says. The first note (its own, then those it was
    imported with) that does not agree. A note signed before notes carried times vouches for none.

    Its signature is not checked here: the note is kept as it came, for a verifier to check; but
    a record whose times are not its note's was changed after it was signed (moved to another
    date, it would be counted and rated at that date)."""
    stored = {"created_at": created_at, "finished_at": finished_at}
    for carried in source_checkpoints(document):
        try:
            fields = Note.parse(carried["checkpoint"]).fields
        except NoteError:
            continue  # Not a record's note (the import checked its format): it vouches for none.
        differences = unlike_note(stored, fields)
        if differences:
            return differences
    return {}
