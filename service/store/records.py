"""The values the store reads and writes: a game's record (its header), a stored event, what an
append comes to, and a header that does not decode. How each is turned into the stored text and
back is ``service.store.codec``'s business."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.store.damage import DamagedRecordError, damaged_header

# The header's fields that say what was played: what export writes and import reads back.
HEADER_FIELDS = (
    "game",
    "players",
    "seed",
    "seed_salt",
    "seed_commitment",
    "options",
    "rules_version",
)

# What a game may be: "abandoned" is set aside without a result, and counted nowhere.
STATUSES = ("active", "finished", "archived", "abandoned")


@dataclass(frozen=True)
class GameRecord:
    """A game's header as stored, with its current version and status.

    ``seed_salt`` and ``seed_commitment`` are None in a record of format 1
    (``service.store.chain``). The tokens are kept as SHA-256 digests only: the recorder's, and one
    per seat.
    """

    id: str
    game: str
    players: list[str]
    seed: int
    seed_salt: str | None
    seed_commitment: str | None
    options: dict[str, Any]
    rules_version: str
    record_format: int
    created_at: str
    version: int
    status: str
    head_hash: str
    token_sha256: str
    seat_tokens_sha256: list[str]
    # Per seat, the generation its token was derived at from the recorder's token (0 at
    # creation, one more at each replacement), so that the recorder can show the links again;
    # -1 for a token drawn at random (every seat of a record made before links could be shown
    # again).
    seat_token_generations: list[int] | None = None
    finished_at: str | None = None
    result: dict[str, Any] | None = None
    # Why the archive job refused this game (its replay disagreed with the record), if it did.
    archive_problem: str | None = None
    # The stream was dropped once the archive was verified: events are read from the archive.
    trimmed: bool = False
    # A retraction undid the game's finish: the figures counted then wait to be withdrawn.
    reopened: bool = False
    # An imported record's notes as they came (``service.signing``): each
    # ``{"checkpoint", "checkpoint_key"}``, its source's own first.
    source_checkpoints: list[dict[str, Any]] | None = None

    @property
    def over(self) -> bool:
        """Finished (or archived): everyone may then see everything. An abandoned game is not
        over: it ended without a result, and its secrets stay kept."""
        return self.status in ("finished", "archived")

    @property
    def header(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in HEADER_FIELDS}


@dataclass(frozen=True)
class DamagedHeader:
    """A stored header that does not decode into a GameRecord, with what the archive job and the
    recovery read of it: they leave such a game alone once it is marked."""

    id: str
    # Field name -> what is wrong with it.
    problems: dict[str, str]
    status: str | None
    archive_problem: str | None

    def error(self) -> DamagedRecordError:
        return damaged_header(self.id, self.problems)


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    body: dict[str, Any]
    at: str
    hash: str

    def as_json(self) -> dict[str, Any]:
        return {"seq": self.seq, **self.body, "at": self.at, "hash": self.hash}


@dataclass(frozen=True, slots=True)
class EventWrite:
    """One append as the store writes it, whole: the event (its canonical body, its time, its
    hash: the game's new head), what the append script checks before writing it (the version and
    head it follows, the writer and its token's digest), what it does to the header (``result``
    of a move that ends the game, ``change``) and, for a keyed append, the idempotency record.

    Made once per attempt by the use case (``service.games.prepared``), handed as it is to
    ``EventStore.append``, and laid out for ``lua/append.lua`` in one place
    (``service.store.scripts.append_argv``).
    """

    expected_version: int
    expected_head: str
    canonical_body: str
    at: str
    hash: str
    result: dict[str, Any] | None
    # "recorder", or the seat's index; the header must still hold its token's digest.
    writer: str
    token_sha256: str
    # "" for none; "abandon" for an abandonment, "reopen" for a retraction of a finished
    # game's last move.
    change: str = ""
    # A keyed append: the key, whose it is ("recorder", "seat0"...) and the answer recorded.
    idempotency_key: str | None = None
    idempotency_owner: str = ""
    idempotency_record: str = ""


# What an append comes to (``EventStore.append``, from the append script's reply).


@dataclass(frozen=True)
class Appended:
    version: int


@dataclass(frozen=True)
class Replayed:
    """The idempotency key was used before: here is what was recorded for it."""

    record: str


@dataclass(frozen=True)
class Conflict:
    current_version: int


@dataclass(frozen=True)
class OtherHead:
    """The store's head at the expected version is not the one the event was chained to: the
    appending process remembers a write the store has lost."""


@dataclass(frozen=True)
class Finished:
    pass


@dataclass(frozen=True)
class Trimmed:
    """A retraction of a finished game's last move met a stream the archive replaced: it must be
    put back first (``EventStore.restore_stream``)."""


@dataclass(frozen=True)
class Missing:
    pass


@dataclass(frozen=True)
class Revoked:
    """The header no longer holds the writer's token (a seat's link was replaced): nothing was
    appended, and a key used before is not replayed."""


AppendOutcome = Appended | Replayed | Conflict | OtherHead | Finished | Trimmed | Missing | Revoked
