"""The record format: the seed commitment and the hash chain over a game's events.

Record format 2 (the current one) chains from the **header hash**, SHA-256 of the canonical JSON of
``{game, players, options, rules_version, seed_commitment}``: the seed stays out, so the chain
gives no handle on it while the game is on. Event N's hash is SHA-256 of the previous hash (hex
text) followed by the canonical JSON of ``{"seq": N, "at": ..., "type": ..., ...its fields}``, so
the server's time is covered too. The seed commitment is SHA-256 of the canonical JSON of
``{"salt": seed_salt, "seed": seed}``: published at creation, it lets anyone check, once the seed
is revealed, that the deck was fixed before the first move.

Format 1 (records written before format 2) chained from ``{game, players, seed, options,
rules_version}`` over the bare event bodies, and had no commitment. Such records are still read,
replayed and audited under format 1: a record's header names its format, and one record never
mixes the two. An import keeps the format its record names: one of format 1 has no salt and no
commitment, one of format 2 has both (``service.games``).

Nothing here imports the service: an outside client can check a record with this file alone.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Mapping
from typing import Any

import orjson

FORMAT = 2
# A header written before formats were named is format 1.
LEGACY_FORMAT = 1


# orjson writes what the standard library's json.dumps(sort_keys=True, separators=(",", ":"),
# ensure_ascii=False) writes, bar numbers with a fraction or an exponent (json: 1e-05, orjson:
# 1e-5) and what orjson refuses (an integer past 64 bits, a lone surrogate): those take json's
# path. Objects json does not take (a dataclass, a datetime) are passed through to fail there too.
_ORJSON_CANONICAL = (
    orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
)
# A number with a fraction or an exponent, as a value of compact JSON: between the delimiters a
# value sits between. Text inside a string can match too (then json's path is taken for nothing);
# a real such number always matches.
_FRACTIONAL_NUMBER = re.compile(
    r"[:,\[]-?[0-9]+(?:\.[0-9]+(?:[eE][-+]?[0-9]+)?|[eE][-+]?[0-9]+)[,\]}]"
)


def canonical_json(value: Any) -> str:
    """The contract's canonical JSON: sorted keys, no spaces, UTF-8 (not ASCII-escaped), numbers
    as Python's json writes them."""
    if isinstance(value, dict | list | tuple):
        try:
            text = orjson.dumps(value, option=_ORJSON_CANONICAL).decode()
        except orjson.JSONEncodeError:
            pass
        else:
            if not _FRACTIONAL_NUMBER.search(text):
                return text
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def new_salt() -> str:
    """32 lowercase hex digits, drawn by the server when a game is created."""
    return secrets.token_hex(16)


def seed_commitment(seed: int, salt: str) -> str:
    return sha256_hex(canonical_json({"salt": salt, "seed": seed}))


def header_hash(header: Mapping[str, Any], record_format: int = FORMAT) -> str:
    """The hash event 1 chains from (and the head hash of a record with no event)."""
    if record_format == LEGACY_FORMAT:
        names = ("game", "players", "seed", "options", "rules_version")
    else:
        names = ("game", "players", "options", "rules_version", "seed_commitment")
    return sha256_hex(canonical_json({name: header[name] for name in names}))


def event_hash(
    previous: str, seq: int, at: str, body: Mapping[str, Any], record_format: int = FORMAT
) -> str:
    """Event ``seq``'s hash, chained from ``previous`` (hex): over the event as the recorder
    reads it, less ``hash`` and ``void`` (format 1: over the body alone)."""
    if record_format == LEGACY_FORMAT:
        return sha256_hex(previous + canonical_json(body))
    return sha256_hex(previous + canonical_json({**body, "seq": seq, "at": at}))


# What a game is played from, whatever its record's format, salt or commitment.
PLAYED_FIELDS = ("game", "players", "seed", "options", "rules_version")


def played_digest(header: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of what a game is played from: ``{game, players, seed,
    options, rules_version}`` (the options as completed with their defaults)."""
    return sha256_hex(canonical_json({name: header[name] for name in PLAYED_FIELDS}))


def record_digest(header: Mapping[str, Any], bodies: list[dict[str, Any]]) -> str:
    """SHA-256 of the canonical JSON of what a record records: what its game is played from
    and its event bodies in order (no salt, commitment, format, times or hashes): two records
    with the same digest are one record, however each was written."""
    played = {name: header[name] for name in PLAYED_FIELDS}
    return sha256_hex(canonical_json({**played, "events": bodies}))
