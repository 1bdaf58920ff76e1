"""Configuration: defaults, then the environment, then a mapping passed to create_app (tests)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any
from zoneinfo import TZPATH, ZoneInfo, ZoneInfoNotFoundError

from service.store.connection import DEFAULT_REPLICA_WAIT_MS
from service.store.snapshots import SNAPSHOT_EVERY

DEFAULTS: dict[str, Any] = {
    # Unset: the service starts an embedded Redis of its own, keeping its data in DATA_DIR. It may
    # name a plain Redis or any node of a Redis Cluster: the service asks the server which.
    "REDIS_URL": None,
    # The plain Redis of RQ's queue (RQ does not run on a cluster). Unset: REDIS_URL's server.
    "QUEUE_REDIS_URL": None,
    # On a cluster whose masters have replicas, a creation or an append is acknowledged only once
    # a replica has it (WAIT 1 <this>): a failover then loses no acknowledged write. A replica
    # that does not confirm in time makes the write a 503. 0: acknowledge without waiting.
    "REPLICA_WAIT_MS": DEFAULT_REPLICA_WAIT_MS,
    # Connections to the store per process (per node of a cluster), shared by its requests: one
    # that finds them all busy waits for one. Live streams hold none of them: each game followed
    # in a process has one connection of its own (service.api.fanout), whatever its followers.
    "REDIS_CONNECTIONS": 32,
    "DATA_DIR": ".data",
    "ARCHIVE_DIR": None,  # default: DATA_DIR/archive
    # Drop a game's stream once its archive is written and verified; reads then use the archive.
    "ARCHIVE_TRIM": False,
    "KEY_PREFIX": "tt:",
    # The contract's SHOULD: bodies over 64 KiB are refused with 413 too_large.
    "MAX_CONTENT_LENGTH": 64 * 1024,
    # POST /games/import has a limit of its own (the contract's SHOULD: 16 MiB), so that a record
    # of thousands of moves goes through.
    "IMPORT_MAX_BYTES": 16 * 1024 * 1024,
    # POST /imports/bgstats and /imports/bgg (a group's years of plays): the contract's SHOULD,
    # 64 MiB.
    "HISTORY_MAX_BYTES": 64 * 1024 * 1024,
    # Those imports hold their file, read, in memory: at most this many run at once, counted in
    # the store for every process of the server (more are answered 503 unavailable, Retry-After).
    "HISTORY_IMPORTS_AT_ONCE": 2,
    "STATE_CACHE_SIZE": 4096,
    # Seconds a process trusts the latest state it cached for a game; past them, the state is
    # checked against the whole stored record (replayed from the seed) before it serves a read
    # or an append, so that a record damaged behind the process's back is seen. 0: on every use.
    "CACHE_RECHECK_SECONDS": 5.0,
    # A snapshot of a game's state after every this many events, kept beside its record, so that
    # the state after any move is replayed from the nearest one (service.store.snapshots). 0: none.
    "SNAPSHOT_EVERY": SNAPSHOT_EVERY,
    # Requests per client address and API process (`limits` syntax); empty switches it off.
    "RATE_LIMIT": "100 per second",
    # Live streams (GET /games/{id}/stream): at most STREAM_LIMIT at once per API process (more
    # are refused with 503 unavailable). An open stream holds a greenlet under gevent, a thread
    # under gthread: `tabletape serve` sets it by worker class when it is not set (see
    # cli.serve), and under gthread keeps it at most half the threads, so that streams
    # never starve appends and reads.
    "STREAM_LIMIT": 8,
    # A follower that has this many batches of moves waiting to be sent (it does not read) is
    # dropped: its stream ends, and the client resumes with Last-Event-ID.
    "STREAM_BACKLOG": 256,
    # A stream closes after this many seconds; the client resumes it with Last-Event-ID.
    "STREAM_SECONDS": 300.0,
    # Seconds of silence after which a stream sends a comment, so that proxies keep it open.
    "STREAM_HEARTBEAT": 15.0,
    # Modules of games beyond those domain/ ships, comma-separated, imported at start: each
    # registers its game (service.plugins; installed packages may use an entry point instead).
    "GAMES": "",
    # How durable an acknowledged append is (service.store.durability): "everysec", Redis's
    # appendfsync everysec, or "fsync", acknowledged only once on disk.
    "DURABILITY": "everysec",
    # Seconds a request's body has to arrive in full; past them it is answered 400 and its
    # connection closed (service.api.body_deadline).
    "BODY_SECONDS": 30.0,
    # When set, creating a game and every import need `Authorization: Bearer <WRITE_KEY>`
    # (service.api.views.require_write_key); unset, anyone may add games.
    "WRITE_KEY": None,
    # The file of the Ed25519 key that signs the notes of games' heads (service.signing): its
    # 32-byte seed in base64 on one line. Unset: DATA_DIR/signing/key, which `tabletape serve`
    # makes at its first start.
    "SIGNING_KEY": None,
    # The key's name, the first line of every note it signs. Unset: the machine's host name.
    "SIGNER_NAME": None,
    # The time zone of the game nights (service.nights): an evening runs from 06:00 to 06:00 the
    # next day on its clock. An IANA name (Europe/Paris); the environment's TZ by default.
    "TZ": "UTC",
    # Where `tabletape serve` listens ("host:port"), set by it for its workers: the pages put an
    # address the other phones reach in the links they hand out (service.pages.addresses).
    # Unset under any other server: the links keep the address the page was opened at.
    "LISTEN": None,
}

# Environment variables read, each named after its setting.
_FROM_ENVIRONMENT = (
    "REDIS_URL", "QUEUE_REDIS_URL", "REPLICA_WAIT_MS", "REDIS_CONNECTIONS", "DATA_DIR",
    "ARCHIVE_DIR", "KEY_PREFIX", "RATE_LIMIT", "STREAM_LIMIT", "STREAM_BACKLOG", "STREAM_SECONDS",
    "STREAM_HEARTBEAT", "GAMES", "DURABILITY", "BODY_SECONDS", "SNAPSHOT_EVERY", "IMPORT_MAX_BYTES",
    "HISTORY_MAX_BYTES", "HISTORY_IMPORTS_AT_ONCE", "WRITE_KEY",
    "CACHE_RECHECK_SECONDS", "SIGNING_KEY", "SIGNER_NAME", "TZ", "LISTEN",
)  # fmt: skip

# Settings that are numbers (the environment gives text).
_NUMBERS = {
    "REPLICA_WAIT_MS": int,
    "REDIS_CONNECTIONS": int,
    "STREAM_LIMIT": int,
    "STREAM_BACKLOG": int,
    "STREAM_SECONDS": float,
    "STREAM_HEARTBEAT": float,
    "BODY_SECONDS": float,
    "SNAPSHOT_EVERY": int,
    "IMPORT_MAX_BYTES": int,
    "HISTORY_MAX_BYTES": int,
    "HISTORY_IMPORTS_AT_ONCE": int,
    "CACHE_RECHECK_SECONDS": float,
}


def environment_value(name: str) -> str | None:
    """The setting ``name`` as the environment gives it (TABLETAPE_<name>, else <name>)."""
    return os.environ.get(f"TABLETAPE_{name}", os.environ.get(name))


def load_config(overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    config = dict(DEFAULTS)
    for name in _FROM_ENVIRONMENT:
        value = environment_value(name)
        # Only the rate limit may be set empty (switched off); other empty values are unset.
        if value or (value is not None and name == "RATE_LIMIT"):
            config[name] = value
    trim = os.environ.get("TABLETAPE_ARCHIVE_TRIM", "")
    config["ARCHIVE_TRIM"] = trim.lower() in ("1", "true", "yes", "on")
    for name, kind in _NUMBERS.items():
        if isinstance(config[name], str):
            try:
                config[name] = kind(config[name])
            except ValueError:
                message = f"TABLETAPE_{name} must be a number, not {config[name]!r}"
                raise ValueError(message) from None
    config.update(overrides or {})
    config["TZ"] = time_zone_name(config["TZ"])
    if not config["ARCHIVE_DIR"]:
        config["ARCHIVE_DIR"] = os.path.join(config["DATA_DIR"], "archive")
    return config


def time_zone_name(name: str) -> str:
    """``name`` when it names a time zone zoneinfo knows; the C library's forms are taken too
    (a leading ``:``, a path into the zone database such as ``:/etc/localtime``, read as the zone
    it links to). A ValueError saying what TZ takes otherwise, at start rather than at the first
    game night read."""
    bare = str(name).removeprefix(":")
    if bare.startswith("/"):
        linked = os.path.realpath(bare)
        bare = next(
            (
                os.path.relpath(linked, root)
                for root in TZPATH
                if linked.startswith(os.path.realpath(root) + os.sep)
            ),
            bare,
        )
    try:
        ZoneInfo(bare)
    except (ValueError, ZoneInfoNotFoundError):
        message = f"TZ must name a time zone such as UTC or Europe/Paris, not {name!r}"
        raise ValueError(message) from None
    return bare
