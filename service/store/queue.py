"""The queue the API writes to: archive jobs enqueued by their dotted name.

The API enqueues; the workers (``workers/``) run the jobs and recover lost ones. The job is
named as text (``workers.archive.archive_game``), so the service never imports the workers: the
arrows go one way, from the jobs to the store and the domain.
"""

from __future__ import annotations

import re
from typing import Any

import redis
from rq import Queue, Retry, Worker
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.registry import StartedJobRegistry

# The archive job, as RQ imports it in a worker.
ARCHIVE_JOB = "workers.archive.archive_game"

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
            ARCHIVE_JOB,
            game_id,
            job_id=job_id,
            retry=Retry(max=3),
            result_ttl=3600,
            failure_ttl=7 * 24 * 3600,
            **self.job_args,
        )

    def waiting(self) -> int:
        return int(self.queue.count)

    def to_count(self) -> int:
        """Finished games not counted yet: their jobs waiting, and those being run."""
        return self.waiting() + StartedJobRegistry(queue=self.queue).count

    def workers(self) -> int:
        """The RQ workers alive on the queue's Redis (each says so every few seconds)."""
        return int(Worker.count(queue=self.queue))
