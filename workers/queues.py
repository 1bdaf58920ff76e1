"""The service's RQ queue, the enqueueing of archive jobs, and the recovery of lost ones.

RQ runs on a plain Redis (QUEUE_REDIS_URL, by default the store's own server: ``service.app``);
the store itself may be a cluster. A job names its game, key prefix and archive folder; the worker
that runs it finds the store in its own configuration (``workers.archive``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Any

import redis
from rq import Queue, Retry, Worker
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.registry import StartedJobRegistry

from service.store import EventStore

log = logging.getLogger(__name__)

_WAITING = (JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED)


def _name_part(key_prefix: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", key_prefix)


def archive_queue_name(key_prefix: str) -> str:
    # Services sharing a Redis under different key prefixes (tests do) have queues of their own.
    return f"{_name_part(key_prefix)}archive"


def archive_job_id(key_prefix: str, game_id: str) -> str:
    # One job id per game: enqueueing a game twice names one job, which is idempotent anyway.
    return f"archive-{_name_part(key_prefix)}-{game_id}"


class ArchiveQueue:
    """Enqueues archive jobs for the games of one store (one key prefix)."""

    def __init__(
        self, connection: redis.Redis, key_prefix: str, archive_dir: str, trim: bool
    ) -> None:
        self.queue = Queue(archive_queue_name(key_prefix), connection=connection)
        self.job_args: dict[str, Any] = {
            "key_prefix": key_prefix,
            "archive_dir": archive_dir,
            "trim": trim,
        }

    def enqueue(self, game_id: str) -> Job | None:
        job_id = archive_job_id(self.job_args["key_prefix"], game_id)
        try:
            status = Job.fetch(job_id, connection=self.queue.connection).get_status()
        except NoSuchJobError:
            status = None
        if status in _WAITING:
            return None
        return self.queue.enqueue(
            "workers.archive.archive_game",
            game_id,
            job_id=job_id,
            retry=Retry(max=3),
            result_ttl=3600,
            failure_ttl=7 * 24 * 3600,
            **self.job_args,
        )

    def waiting(self) -> int:
        return int(self.queue.count)


def unarchived_games(store: EventStore) -> Iterator[str]:
    """Ids of finished games that are not archived, and not held back by an audit problem.

    A finished game whose header does not decode is one of them until the archive job has marked
    it (its problem is its header): the job is where a record is judged, and logged, once.
    """
    below = None
    while True:
        rows = store.newest(below=below)
        found = store.get_many([game_id for game_id, _ in rows])
        for header in found:
            if header is not None and header.status == "finished" and not header.archive_problem:
                yield header.id
        if len(rows) < store.PAGE:
            return
        below = rows[-1][1]


def reconcile(store: EventStore, archive_queue: ArchiveQueue) -> int:
    """Enqueue every finished game not yet archived; the number enqueued.

    It recovers what a crash lost: the API dying between a game's last append and its enqueue,
    or a worker dying mid-job (its job, abandoned in the started registry, is failed or retried by
    RQ's cleanup, and the game is enqueued again here).
    """
    StartedJobRegistry(queue=archive_queue.queue).cleanup()
    enqueued = sum(1 for game_id in unarchived_games(store) if archive_queue.enqueue(game_id))
    if enqueued:
        log.info("reconcile: %d finished games enqueued for archiving", enqueued)
    return enqueued


def run_worker(connection: redis.Redis, key_prefix: str, *, burst: bool = False) -> bool:
    """Work the service's queues; with ``burst``, stop once they are empty."""
    queue = Queue(archive_queue_name(key_prefix), connection=connection)
    worker = Worker([queue], connection=connection)
    return bool(worker.work(burst=burst))
