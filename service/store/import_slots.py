"""The imports of other apps' plays running at once, counted server-wide in the store.

An import holds its whole file, read, in memory (several times its size): a server takes only so
many at once, whatever its processes, threads or greenlets. Each running import holds a slot, a
lease in one sorted set (``Keys.imports_in_flight``: the lease's id, scored by the millisecond it
runs out, on Redis's own clock so that every process agrees). A slot is taken only while fewer
than the limit are held; the import renews its lease as it goes and gives it back when it ends.
An import whose process was killed gives nothing back: its lease runs out LEASE_SECONDS after its
last renewal, and its slot is free again.
"""

from __future__ import annotations

import secrets
import time
from types import TracebackType

from service.store.connection import StoreClient
from service.store.keys import Keys

# How long a slot stands without being renewed.
LEASE_SECONDS = 60
# A running import renews its lease at most this often.
_RENEW_EVERY = LEASE_SECONDS / 4

# Drop the leases that ran out, then take a slot if fewer than ARGV[1] are held. The key itself
# lasts as long as its newest lease: a server without imports keeps nothing.
_TAKE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
    return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""

# Push a lease that still stands LEASE_SECONDS on (one that ran out and was dropped stays out).
_RENEW = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
if redis.call('ZADD', KEYS[1], 'XX', 'CH', now + tonumber(ARGV[2]), ARGV[1]) == 1 then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""


class ImportSlot:
    """One import's slot: renew it as the import goes, release it when it ends (or use it as a
    context manager)."""

    def __init__(self, client: StoreClient, key: str, lease: str) -> None:
        self._client = client
        self._key = key
        self.lease = lease
        self._renewed = time.monotonic()

    def renew(self, *_: object) -> None:
        """Push the lease on, at most every _RENEW_EVERY seconds (so that it can be called for
        each play imported: the import's progress)."""
        if time.monotonic() - self._renewed < _RENEW_EVERY:
            return
        self._client.eval(_RENEW, 1, self._key, self.lease, LEASE_SECONDS * 1000)
        self._renewed = time.monotonic()

    def release(self) -> None:
        self._client.zrem(self._key, self.lease)

    def __enter__(self) -> ImportSlot:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.release()


class ImportSlots:
    """At most ``limit`` imports of other apps' plays running at once on the store of ``keys``."""

    def __init__(self, client: StoreClient, keys: Keys, limit: int) -> None:
        self._client = client
        self._key = keys.imports_in_flight()
        self.limit = limit

    def take(self) -> ImportSlot | None:
        """A slot, or None when ``limit`` imports hold one."""
        lease = secrets.token_hex(8)
        taken = self._client.eval(_TAKE, 1, self._key, self.limit, lease, LEASE_SECONDS * 1000)
        return ImportSlot(self._client, self._key, lease) if taken == 1 else None
