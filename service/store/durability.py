"""How durable an acknowledged append is: the ``DURABILITY`` setting.

- ``everysec`` (the default): Redis's ``appendfsync everysec``. An append is acknowledged once
  Redis has it in memory and in its AOF buffer; the AOF reaches the disk every second, so a crash
  of the store's machine (or ``kill -9`` of Redis) may lose the appends of the last second.
- ``fsync``: an append is acknowledged only once it is on disk. Tabletape asks the store to
  fsync its AOF before it answers each write (``appendfsync always``): at start the service
  checks each server it writes to, and sets it on the embedded Redis, which is its own; a server
  that runs otherwise is refused, and the service does not start.

Redis 7.2's WAITAOF would let a server keep ``everysec`` and wait per write; the servers this
service runs on here (Debian's 7.0, the embedded 6.2) do not have it, so it is not used.
"""

from __future__ import annotations

from typing import Final

import redis
from redis.cluster import RedisCluster

from service.store.connection import StoreClient

EVERYSEC: Final = "everysec"
FSYNC: Final = "fsync"
MODES: Final = (EVERYSEC, FSYNC)


class DurabilityError(RuntimeError):
    """The store cannot give the durability asked for: the service must not start."""


def check_durability(client: StoreClient, mode: str, *, own_server: bool) -> None:
    """Refuse to go on unless every server of the store acknowledges writes as ``mode`` says.
    ``own_server``: the embedded Redis, which may be set as needed."""
    if mode not in MODES:
        raise DurabilityError(f"DURABILITY must be one of {', '.join(MODES)}, not {mode!r}")
    if mode == EVERYSEC:
        return
    for server in _servers(client):
        if _appendfsync(server) == "always":
            continue
        if own_server:
            server.config_set("appendfsync", "always")
            continue
        raise DurabilityError(
            "DURABILITY=fsync needs a store that writes each append to disk before it answers:"
            f" run Redis with appendonly yes and appendfsync always (this one {_how(server)})"
        )


def _appendfsync(server: redis.Redis) -> str:
    try:
        found = server.config_get("appendonly")
        if found.get("appendonly") != "yes":
            return "no AOF"
        return str(server.config_get("appendfsync").get("appendfsync", ""))
    except redis.ResponseError:
        return "unknown"


def _how(server: redis.Redis) -> str:
    """How ``server`` writes to disk, in words, for the refusal."""
    found = _appendfsync(server)
    if found == "no AOF":
        return "runs without its AOF: appendonly no"
    if found == "unknown":
        return "does not answer CONFIG GET"
    return f"runs appendfsync {found}"


def _servers(client: StoreClient) -> list[redis.Redis]:
    """The servers the store writes to: the plain one, or each master of a cluster."""
    if isinstance(client, RedisCluster):
        return [client.get_redis_connection(node) for node in client.get_primaries()]
    return [client]
