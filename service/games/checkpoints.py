"""Checkpoints: the signed note of a game's head, as the API and an export give it.

Who may read a note is who may read the head it names (the head hash is the recorder's alone
while the game is on): the view decides that as for the export. Here: the note is signed with the
service's current key (``service.signing``), its status the game's.

A service without a key (none made yet, or its file unreadable) answers a checkpoint with 503
``unavailable``; an export then goes out without its note, logged, and every other read is
unaffected: signing is added to a record, never a condition of reading it.
"""

from __future__ import annotations

import logging
from typing import Any

from service.signing import (
    Checkpoint,
    KeyRing,
    NoSigningKeyError,
    SigningKeyError,
    sign_head,
)
from service.store.records import GameRecord

log = logging.getLogger(__name__)


class Checkpoints:
    def __init__(self, ring: KeyRing | None) -> None:
        self.ring = ring

    def sign(self, record: GameRecord) -> Checkpoint:
        """The note of ``record``'s current head; NoSigningKeyError without a usable key."""
        if self.ring is None:
            raise NoSigningKeyError("this service signs no notes: it was started without a key")
        try:
            signer = self.ring.signer()
        except SigningKeyError as error:
            log.error("signing key unreadable: %s", error)
            raise NoSigningKeyError(
                "this service's signing key cannot be read: whoever runs it is told why in its log"
            ) from None
        return sign_head(signer, record)

    def of_export(self, record: GameRecord) -> dict[str, Any]:
        """What an export carries of notes: once the game is over, this service's note of its
        head (``checkpoint``, ``checkpoint_key``); and the notes an import kept, as they came
        (``source_checkpoints``)."""
        carried: dict[str, Any] = {}
        if record.over:
            try:
                carried.update(self.sign(record).as_json())
            except NoSigningKeyError as error:
                log.warning("game %s exported without its note: %s", record.id, error.message)
        if record.source_checkpoints:
            carried["source_checkpoints"] = record.source_checkpoints
        return carried

    def listed(self) -> list[dict[str, Any]]:
        """The keys ``GET /keys`` lists (none for a service without a key ring)."""
        if self.ring is None:
            return []
        try:
            return self.ring.listed()
        except SigningKeyError as error:
            log.error("signing keys unreadable: %s", error)
            raise NoSigningKeyError(
                "this service's signing keys cannot be read: whoever runs it is told why in its log"
            ) from None
