"""Snapshots: a game's state after every K events, kept beside its record, so that a state of any
version is replayed from the nearest one below it rather than from the seed.

One hash per game, ``<prefix>{id}:snapshots``, under the game's hash tag (on a Redis Cluster it
lives on the game's node, beside its header and stream): field ``K`` (the version, in decimal)
holds the JSON document of the state after event K:
``{"format", "version", "head_hash", "rules_version", "state", "digest"}``, the state as data
(``domain.snapshot_codec``: never pickle, so a store's bytes never run code), and ``digest`` the
SHA-256 of the rest (``snapshot_digest``).

A snapshot is a cache, never the record: the reader checks that its content matches its digest
(a changed value is caught; a snapshot of format 1, without one, is passed over), that its
version is its field's, its rules are the record's and its ``head_hash`` is the stored hash of
event K (a lost write followed by another makes a snapshot stale), and that it decodes into a
valid state of its game: every field of the kind its class declares, and a view that can be
drawn from it. One that fails a check is passed over, whatever the exception.
Writes are best effort (the read path writes them: a failure is logged, never raised), and the
key expires ``TTL_SECONDS`` after the last write, so a game no one reads any more gives its memory
back: its next reader replays it once and writes them again.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from domain.game import Game
from domain.snapshot_codec import decode_state, encode_state
from domain.viewers import RECORDER
from service.store.connection import StoreClient
from service.store.keys import Keys

log = logging.getLogger(__name__)

# Format 2 carries a digest of its content; format 1 did not, and is passed over.
FORMAT = 2
# K: a snapshot after every K events (the setting SNAPSHOT_EVERY; docs/architecture.md,
# "Snapshots", says why).
SNAPSHOT_EVERY = 25
TTL_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class StoredSnapshot:
    version: int
    head_hash: str
    state: Any


class SnapshotStore:
    def __init__(self, client: StoreClient, prefix: str = "tt:") -> None:
        self.redis = client
        self.prefix = prefix
        self.keys = Keys(prefix)

    def key(self, game_id: str) -> str:
        return self.keys.snapshots(game_id)

    def versions(self, game_id: str) -> list[int]:
        """The versions a snapshot is stored at (fields that are not a version are skipped)."""
        names = self.redis.hkeys(self.key(game_id))
        return sorted(int(name) for name in names if isinstance(name, str) and name.isdigit())

    def raw(self, game_id: str, version: int) -> str | None:
        value = self.redis.hget(self.key(game_id), str(version))
        return value if isinstance(value, str) else None

    def write(self, game_id: str, documents: Mapping[int, str]) -> None:
        """Store ``documents`` (version -> document), renewing the key's lifetime."""
        if not documents:
            return
        pipe = self.redis.pipeline(transaction=False)
        pipe.hset(
            self.key(game_id), mapping={str(version): doc for version, doc in documents.items()}
        )
        pipe.expire(self.key(game_id), TTL_SECONDS)
        pipe.execute()


def snapshot_digest(content: Mapping[str, Any]) -> str:
    """SHA-256 of a snapshot's canonical content (the document less its ``digest``)."""
    return hashlib.sha256(orjson.dumps(content, option=orjson.OPT_SORT_KEYS)).hexdigest()


def document(
    game: Game[Any], version: int, head_hash: str, rules_version: str, state: Any, start: Any
) -> str:
    """The stored form of the state after event ``version``, whose stored hash is ``head_hash``;
    UnencodableState if the codec cannot write it."""
    content = {
        "format": FORMAT,
        "version": version,
        "head_hash": head_hash,
        "rules_version": rules_version,
        "state": encode_state(game, state, start),
    }
    return orjson.dumps({**content, "digest": snapshot_digest(content)}).decode()


def read_document(
    game: Game[Any], raw: str, version: int, head_hash: str, rules_version: str, start: Any
) -> StoredSnapshot | None:
    """The state a stored document holds, if it is the snapshot of ``version`` at ``head_hash``
    under ``rules_version``; else None (it is damaged, stale or of another version)."""
    try:
        found = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(found, dict) or found.get("format") != FORMAT:
        return None
    if found.get("version") != version or found.get("rules_version") != rules_version:
        return None
    if found.get("head_hash") != head_hash:
        return None
    content = {name: value for name, value in found.items() if name != "digest"}
    if found.get("digest") != snapshot_digest(content):
        log.warning("snapshot %s does not match its digest", version)
        return None
    try:
        state = decode_state(game, found.get("state"), start)
        # A state the game cannot even show is no state of it (a value its rules never make).
        game.view(state, RECORDER)
    except Exception as error:
        log.warning("snapshot %s does not decode into a valid state: %s", version, error)
        return None
    return StoredSnapshot(version, head_hash, state)
