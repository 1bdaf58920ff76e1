"""The service's RQ queues and the worker that drains them."""

from __future__ import annotations

import redis
from rq import Queue, Worker

# One queue for now: finished games waiting to be re-validated and archived.
QUEUE_NAMES = ("archive",)


def queues(connection: redis.Redis) -> list[Queue]:
    return [Queue(name, connection=connection) for name in QUEUE_NAMES]


def run_worker(redis_url: str, *, burst: bool = False) -> bool:
    """Work the service's queues; with ``burst``, stop once they are empty."""
    # RQ stores pickled payloads: its connection must not decode responses.
    connection = redis.Redis.from_url(redis_url)
    worker = Worker(queues(connection), connection=connection)
    return bool(worker.work(burst=burst))
