"""Where a tournament's record lies: one Redis list per tournament, its events' JSON in order.

The list is ``<prefix>{t-<id>}:log`` (its hash tag gives it a Redis Cluster slot of its own, as a
game's keys have); ``<prefix>{t-<id>}:pairing`` (a string, for a minute) is held while a round is
being paired, so that two organisers pressing at once make one round's games, not two. Every
write is a Lua script on the log alone (``lua/``): the log is append-only, and an append names
the length its writer read, so a round is never paired twice.
"""

from __future__ import annotations

import json
from typing import Any

from service.store.connection import StoreClient, acknowledged_writes
from service.store.scripts import lua_source

# How long a pairing holds the round, in seconds: a pairing that dies halfway lets go by then.
PAIRING_HOLD_SECONDS = 60


class TournamentStore:
    """The tournaments' logs under ``prefix``."""

    def __init__(self, client: StoreClient, prefix: str, replica_wait_ms: int) -> None:
        self.redis = client
        self.prefix = prefix
        writes = acknowledged_writes(client, replica_wait_ms)
        self._create = writes.script(lua_source(__package__, "create"))
        self._append = writes.script(lua_source(__package__, "append"))

    def log_key(self, tournament_id: str) -> str:
        return f"{self.prefix}{{t-{tournament_id}}}:log"

    def pairing_key(self, tournament_id: str) -> str:
        return f"{self.prefix}{{t-{tournament_id}}}:pairing"

    def create(self, tournament_id: str, created: dict[str, Any]) -> bool:
        """Start the log with its ``created`` event; False if the id is taken."""
        return bool(self._create(keys=[self.log_key(tournament_id)], args=[_json(created)]))

    def append(self, tournament_id: str, read: int, event: dict[str, Any]) -> bool:
        """Append ``event`` if the log still holds the ``read`` events its writer read."""
        key = self.log_key(tournament_id)
        return bool(self._append(keys=[key], args=[str(read), _json(event)]))

    def events(self, tournament_id: str) -> list[str]:
        """The log's events as stored (JSON texts), oldest first; empty for no such tournament."""
        stored: list[Any] = self.redis.lrange(self.log_key(tournament_id), 0, -1)
        return [item.decode() if isinstance(item, bytes) else item for item in stored]

    def hold_pairing(self, tournament_id: str) -> bool:
        """Take the right to pair the next round for a while; False while another holds it."""
        key = self.pairing_key(tournament_id)
        return bool(self.redis.set(key, "1", nx=True, ex=PAIRING_HOLD_SECONDS))

    def release_pairing(self, tournament_id: str) -> None:
        self.redis.delete(self.pairing_key(tournament_id))


def _json(event: dict[str, Any]) -> str:
    return json.dumps(event, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
