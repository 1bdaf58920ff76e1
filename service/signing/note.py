"""The signed note of a game's head, in C2SP's signed-note format (https://c2sp.org/signed-note).

The format is the one Go's ``golang.org/x/mod/sumdb/note`` reads, and the transparency logs' tools
with it: a checkpoint of a record is then checked with tools that exist, not ours alone. A note is
a text, a blank line, and one signature line per signer::

    <origin>
    game <id>
    version <N>
    head <head_hash>
    status <status>
    created <created_at>
    finished <finished_at>

    — <origin> <base64 of the key's 4-byte hash followed by the 64-byte Ed25519 signature>

A game not over yet has no ``finished`` line. Notes signed before the ``created`` and ``finished``
lines existed end at ``status``: they still verify, and vouch for no time.

The text, its last newline included, is signed as UTF-8 bytes. The key's hash is the first 4
bytes of SHA-256 of ``<name> "\\n" 0x01 <32-byte public key>``: it tells which of a signer's keys
signed (0x01 is the format's number for Ed25519). A verifier key is written
``<name>+<that hash, 8 hex digits>+<base64 of 0x01 and the public key>``.

Pure: bytes in, bytes out, no file and no clock (``service.signing.keys`` keeps the keys).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

# The format's algorithm byte for Ed25519.
ED25519 = 0x01
# What starts a signature line: an em dash (U+2014) and a space.
SIGNATURE_DASH = "\u2014 "
# A key's name: what the note's first line and its signature lines carry. The format forbids
# spaces and "+" in it (a "+" would split the verifier key); a control character would make every
# note's text one the format refuses.
_NAME = re.compile(r"[^\s+]+")
# The lines of a record's note, in order, after its origin: those every note has, then the times,
# which notes signed before they existed lack (and a game not over has no finish).
NOTE_FIELDS = ("game", "version", "head", "status")
TIME_FIELDS = ("created", "finished")
# A note's number is written one way only: ASCII digits, no leading zero ("03", "٣" or "³" are not
# 3, whatever int() makes of them).
_NUMBER = re.compile(r"0|[1-9][0-9]*")
_HEAD = re.compile(r"[0-9a-f]{64}")
# Notes are small; anything much larger is not one of ours (and not read further).
MAX_NOTE = 4096


# A record's fields, as an export or an archive file names them, and the lines of its note that
# vouch for them.
VOUCHED_BY = {"id": "game", "status": "status", "created_at": "created", "finished_at": "finished"}


class NoteError(ValueError):
    """A note, or a verifier key, that is not in the format, or whose signature does not hold."""


def check_name(name: str) -> str:
    """``name`` if it may name a key (printable, not empty, no space, no "+"), else NoteError."""
    if not isinstance(name, str) or not _NAME.fullmatch(name) or not name.isprintable():
        raise NoteError(
            f"a key's name is printable, has no spaces and no '+', and is not empty: {name!r}"
        )
    return name


def key_hash(name: str, public_key: bytes) -> bytes:
    """The 4 bytes that tell one key of ``name`` from another in a signature line."""
    return hashlib.sha256(name.encode() + b"\n" + bytes([ED25519]) + public_key).digest()[:4]


def public_bytes(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(Encoding.Raw, PublicFormat.Raw)


@dataclass(frozen=True)
class VerifierKey:
    """A public key and its name, as the verifier key ``name+hash+base64`` gives them."""

    name: str
    public_key: bytes

    @property
    def hash(self) -> bytes:
        return key_hash(self.name, self.public_key)

    @property
    def text(self) -> str:
        encoded = base64.b64encode(bytes([ED25519]) + self.public_key).decode()
        return f"{self.name}+{self.hash.hex()}+{encoded}"

    def __str__(self) -> str:
        return self.text

    @classmethod
    def parse(cls, text: str) -> VerifierKey:
        """A verifier key from its text; NoteError when it is not one (or its hash is not its
        key's: a key copied wrong)."""
        name, plus, rest = text.strip().partition("+")
        given_hash, plus2, encoded = rest.partition("+")
        try:
            check_name(name)
            if not (plus and plus2) or not re.fullmatch(r"[0-9a-f]{8}", given_hash):
                raise NoteError("not name+hash+key")
            data = base64.b64decode(encoded, validate=True)
        except (NoteError, binascii.Error):
            raise NoteError(
                f"{text.strip()[:80]!r} is not a verifier key (name+<8 hex digits>+<base64>)"
            ) from None
        if len(data) != 33 or data[0] != ED25519:
            raise NoteError(f"the verifier key {name}+{given_hash} is not an Ed25519 key")
        key = cls(name, data[1:])
        if key.hash.hex() != given_hash:
            raise NoteError(f"the verifier key {name}+{given_hash} does not match its own hash")
        return key


@dataclass(frozen=True)
class Signer:
    """A private key and its name: what signs notes."""

    name: str
    private_key: Ed25519PrivateKey

    @property
    def verifier(self) -> VerifierKey:
        return VerifierKey(self.name, public_bytes(self.private_key.public_key()))

    def sign(self, text: str) -> str:
        """The note of ``text`` (lines ending in a newline), with this key's signature line."""
        check_text(text)
        signature = self.private_key.sign(text.encode())
        encoded = base64.b64encode(self.verifier.hash + signature).decode()
        return f"{text}\n{SIGNATURE_DASH}{self.name} {encoded}\n"


def head_text(
    origin: str,
    game_id: str,
    version: int,
    head_hash: str,
    status: str,
    created_at: str,
    finished_at: str | None,
) -> str:
    """The signed text of a record's note: its origin (the key's name), then the head, then when
    the game was created and, once it is over, when it finished."""
    text = (
        f"{check_name(origin)}\ngame {game_id}\nversion {version}\nhead {head_hash}\n"
        f"status {status}\ncreated {created_at}\n"
    )
    if finished_at is not None:
        text += f"finished {finished_at}\n"
    return text


def check_text(text: str) -> None:
    """The format's rules for a note's text: UTF-8 lines, each ending in a newline, no control
    characters but newlines, no blank line."""
    if not text.endswith("\n") or "\n\n" in text or text.startswith("\n"):
        raise NoteError("a note's text is lines, each ending in a newline, none blank")
    if any((ord(char) < 0x20 and char != "\n") or char == "\x7f" for char in text):
        raise NoteError("a note's text holds no control characters")


@dataclass(frozen=True)
class Signature:
    name: str
    key_hash: bytes
    signature: bytes


@dataclass(frozen=True)
class Note:
    """A note as read: its signed text and its signature lines (not checked yet)."""

    text: str
    signatures: tuple[Signature, ...]

    @classmethod
    def parse(cls, note: str) -> Note:
        """Split a note into its text and its signatures; NoteError when it is not a note."""
        if not isinstance(note, str) or len(note) > MAX_NOTE:
            raise NoteError("a note is a text of at most 4 KiB")
        text, blank, signed = note.rpartition("\n\n")
        if not blank or not signed.endswith("\n"):
            raise NoteError("a note is its text, a blank line, and its signature lines")
        text += "\n"
        check_text(text)
        signatures = []
        for line in signed[:-1].split("\n"):
            if not line.startswith(SIGNATURE_DASH):
                raise NoteError(f"a signature line starts with an em dash: {line[:40]!r}")
            name, space, encoded = line[len(SIGNATURE_DASH) :].partition(" ")
            try:
                check_name(name)
                data = base64.b64decode(encoded, validate=True)
            except (NoteError, binascii.Error):
                raise NoteError(
                    f"a signature line reads '— <name> <base64>': {line[:40]!r}"
                ) from None
            if not space or len(data) != 68:
                raise NoteError(f"{name}'s signature is not a 4-byte key hash and 64 bytes")
            signatures.append(Signature(name, data[:4], data[4:]))
        return cls(text, tuple(signatures))

    def signed_by(self, key: VerifierKey) -> bool:
        """Whether a signature line names ``key`` (its name and its hash)."""
        return any(s.name == key.name and s.key_hash == key.hash for s in self.signatures)

    def verify(self, key: VerifierKey) -> None:
        """NoteError unless ``key`` signed this text (the line naming it holds)."""
        public = Ed25519PublicKey.from_public_bytes(key.public_key)
        for signature in self.signatures:
            if signature.name == key.name and signature.key_hash == key.hash:
                try:
                    public.verify(signature.signature, self.text.encode())
                except InvalidSignature:
                    raise NoteError(
                        f"the signature of {key.name}+{key.hash.hex()} does not hold: the note"
                        " was changed after it was signed"
                    ) from None
                return
        named = ", ".join(f"{s.name}+{s.key_hash.hex()}" for s in self.signatures)
        raise NoteError(f"the note is not signed by {key.name}+{key.hash.hex()} (but by {named})")

    @property
    def fields(self) -> dict[str, str]:
        """The record's note as fields: ``origin``, each of NOTE_FIELDS, and those of
        TIME_FIELDS it has; NoteError when its text is not a record's head."""
        lines = self.text[:-1].split("\n")
        fields = {"origin": lines[0]}
        for line, name in zip(lines[1:], NOTE_FIELDS + TIME_FIELDS, strict=False):
            label, space, value = line.partition(" ")
            if label != name or not space:
                break
            fields[name] = value
        if len(lines) != len(fields) or not set(NOTE_FIELDS) <= set(fields):
            raise NoteError(
                "the note's text is not a record's head (game, version, head, status, then"
                " created and finished)"
            )
        if not _NUMBER.fullmatch(fields["version"]):
            raise NoteError(
                f"the note's version {fields['version']!r} is not a number in ASCII digits"
                " without a leading zero"
            )
        if not _HEAD.fullmatch(fields["head"]):
            raise NoteError("the note's head is not 64 hex digits")
        return fields


def unlike_note(record: Mapping[str, Any], fields: Mapping[str, str]) -> dict[str, str]:
    """Each field of ``record`` (of VOUCHED_BY; those it has) that its note's ``fields`` vouch for
    otherwise: the field's name -> what it says, and what the note says."""
    return {
        name: f"{shown(record[name])}, where its note says {shown(fields[line])}"
        for name, line in VOUCHED_BY.items()
        if name in record and line in fields and record[name] != fields[line]
    }


def shown(value: Any, most: int = 80) -> str:
    """``value`` as a sentence quotes it: as JSON (on one line, whatever it holds), at most
    ``most`` characters of it (a field of a hostile file may be megabytes long)."""
    text = json.dumps(value)
    return text if len(text) <= most else text[: most - 1] + "…"
