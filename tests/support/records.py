"""A game's record as the store keeps it, made by hand for the store's tests."""

from __future__ import annotations

import json
from typing import Any

import redis

from service.store.chain import FORMAT, header_hash, seed_commitment
from service.store.records import GameRecord


def record(game_id: str, **overrides: object) -> GameRecord:
    header = {
        "game": "mada",
        "players": ["Ana", "Ben"],
        "seed": 2**64 - 1,
        "seed_salt": "ab" * 16,
        "seed_commitment": seed_commitment(2**64 - 1, "ab" * 16),
        "options": {"first_player": 0, "chance": "seeded"},
        "rules_version": "mada/1",
    }
    fields = {
        "id": game_id,
        "created_at": "2026-11-26T00:00:00.000Z",
        "version": 0,
        "status": "active",
        "record_format": FORMAT,
        "head_hash": header_hash(header),
        "token_sha256": "0" * 64,
        "seat_tokens_sha256": ["1" * 64, "2" * 64],
        **header,
        **overrides,
    }
    return GameRecord(**fields)  # type: ignore[arg-type]


# The writer of the appends the store's tests make: the recorder of ``record``, by its token's
# digest.
BY_THE_RECORDER = {"writer": "recorder", "token_sha256": "0" * 64}


def tamper(client: redis.Redis, key_prefix: str, game_id: str, seq: int, **changes: Any) -> None:
    """Change event ``seq``'s body directly in Redis, keeping its old hash."""
    key = f"{key_prefix}{{{game_id}}}:events"
    entries = client.xrange(key)
    client.delete(key)
    for entry_id, fields in entries:
        if entry_id == f"0-{seq}":
            fields = {**fields, "body": json.dumps({**json.loads(fields["body"]), **changes})}
        client.xadd(key, fields, id=entry_id)
