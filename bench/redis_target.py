"""The Redis the bench runs on: the one the service itself would use, else an embedded one.

Both servers under test (the API and the bare endpoint) share it, so the store is never the
difference between them. Every key the bench writes carries one prefix, removed at the end, so a
shared server is left as it was found.
"""

from __future__ import annotations

import os
import re
import secrets
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import redis

from service.config import load_config
from service.store.embedded import EmbeddedRedis

# The API limits requests per client address (RATE_LIMIT, 100 per second by default), and all the
# bench's clients are 127.0.0.1: left as is, the bench would measure the limiter's cap. A limit no
# run can reach keeps the limiter's per-request work in the measurement without its throttling.
RATE_LIMIT = "1000000 per second"


@dataclass(frozen=True)
class RedisTarget:
    url: str
    embedded: bool
    # Every key written by this run starts with it (the servers get it as TABLETAPE_KEY_PREFIX).
    prefix: str
    # A scratch folder for this run: the embedded Redis, server logs.
    workdir: Path
    # The plain Redis of RQ's queue, given to the servers as QUEUE_REDIS_URL (a cluster needs one);
    # None: the servers' environment decides (by default, the store's own server).
    queue_url: str | None = None

    def client(self) -> redis.Redis:
        # The settings of service.app.redis_client, so that in-process measurements talk to Redis
        # the way the API does.
        return redis.Redis.from_url(
            self.url, decode_responses=True, socket_timeout=5, socket_connect_timeout=2
        )


@contextmanager
def redis_target() -> Iterator[RedisTarget]:
    # REDIS_URL (or TABLETAPE_REDIS_URL) resolved exactly as the service resolves it.
    url = load_config()["REDIS_URL"]
    prefix = f"bench-{time.strftime('%Y%m%d%H%M%S')}-{secrets.token_hex(3)}:"
    with tempfile.TemporaryDirectory(prefix="tabletape-bench-") as tmp:
        workdir = Path(tmp)
        embedded = None if url else EmbeddedRedis(workdir / "redis")
        try:
            if embedded is not None:
                url = embedded.start()
            target = RedisTarget(url, embedded is not None, prefix, workdir)
            try:
                yield target
            finally:
                if embedded is None:
                    _delete_prefixed(target)
        finally:
            if embedded is not None:
                embedded.stop()


def _delete_prefixed(target: RedisTarget) -> None:
    """Remove what the run wrote: its prefixed keys, and the RQ keys of its archive jobs (which RQ
    names ``rq:...`` with the prefix, made name-safe, inside: see workers/queues.py)."""
    name_part = re.sub(r"[^A-Za-z0-9_-]", "_", target.prefix)
    client = target.client()
    try:
        for pattern in (f"{target.prefix}*", f"rq:*{name_part}*"):
            batch: list[str] = []
            for key in client.scan_iter(match=pattern, count=1000):
                batch.append(key)
                if len(batch) == 1000:
                    client.unlink(*batch)
                    batch.clear()
            if batch:
                client.unlink(*batch)
        ours = [queue for queue in client.smembers("rq:queues") if name_part in queue]
        if ours:
            client.srem("rq:queues", *ours)
    finally:
        client.close()


def server_environment(target: RedisTarget) -> dict[str, str]:
    """The environment of a server under test: our Redis, our key prefix, our scratch folder."""
    env = dict(os.environ)
    # TABLETAPE_REDIS_URL wins over REDIS_URL in service.config: set both.
    env["REDIS_URL"] = env["TABLETAPE_REDIS_URL"] = target.url
    env["TABLETAPE_KEY_PREFIX"] = target.prefix
    env["TABLETAPE_DATA_DIR"] = str(target.workdir / "data")
    env["TABLETAPE_RATE_LIMIT"] = RATE_LIMIT
    if target.queue_url is not None:
        env["QUEUE_REDIS_URL"] = env["TABLETAPE_QUEUE_REDIS_URL"] = target.queue_url
    return env
