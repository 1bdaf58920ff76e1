"""The queue the API writes to: archive jobs enqueued by their dotted name.

The API enqueues; the workers (``workers/``) run the jobs and recover lost ones. The job is
named as text (``workers.archive.archive_game``), so the service never imports the workers: the
arrows go one way, from the jobs to the store and the domain.
"""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import redis
from rq import Queue, Retry, Worker
from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from rq.registry import FailedJobRegistry, StartedJobRegistry

from service.store.connection import StoreClient
from service.store.keys import Keys

# The archive job, as RQ imports it in a worker: of one game, and of an import's many at once.
ARCHIVE_JOB = "workers.archive.archive_game"
ARCHIVE_MANY_JOB = "workers.archive.archive_games"
# The statistics counted again under the roster once it changed (``service.players``).
ROSTER_JOB = "workers.roster.recount_for_roster"
# Its id, before the prefix: it counts no game of its own in /health's figures.
ROSTER_JOB_ID = "roster-"
# The games of one job of many: a job of a second or so, counted in a few round trips.
GAMES_PER_JOB = 100

_WAITING = (JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED)

# A worker says it is alive (its heartbeat) before each wait for a job, a wait of WORKER_TTL - 15
# seconds (RQ's rule), and every JOB_MONITORING_SECONDS while a job runs: every 5 s either way.
# Killed with -9, it leaves its registration behind, which RQ keeps for minutes: a worker is
# counted as alive while its last heartbeat is at most ALIVE_SECONDS old (three missed).
WORKER_TTL = 20
JOB_MONITORING_SECONDS = 5
ALIVE_SECONDS = 15


def _name_part(key_prefix: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", key_prefix)


def archive_queue_name(key_prefix: str) -> str:
    # Services sharing a Redis under different key prefixes (tests do) have queues of their own.
    return f"{_name_part(key_prefix)}archive"


def archive_job_id(key_prefix: str, game_id: str) -> str:
    # One job id per game: enqueueing a game twice names one job, which is idempotent anyway.
    return f"archive-{_name_part(key_prefix)}-{game_id}"


def archive_many_job_id(key_prefix: str, games: int) -> str:
    # The job's id says how many games it holds: /health counts games from the ids alone.
    return f"archive-{_name_part(key_prefix)}-many-{games}-{uuid.uuid4().hex}"


def _games_of_many_job(job_id: str) -> int | None:
    """How many games the job of many ``job_id`` counts (``archive_many_job_id``); None for
    the job of one game."""
    parts = job_id.rsplit("-", 3)
    if len(parts) == 4 and parts[1] == "many" and parts[2].isdigit():
        return int(parts[2])
    return None


def games_of_job(job_id: str) -> int:
    """How many games the archive job ``job_id`` counts (the roster's recount: none)."""
    if job_id.startswith(ROSTER_JOB_ID):
        return 0
    many = _games_of_many_job(job_id)
    return 1 if many is None else many


def mark_refused(client: StoreClient, key_prefix: str, game_id: str) -> None:
    """Note in the store that the archive job refused ``game_id`` (its header now carries an
    ``archive_problem``, which nothing clears): /health counts these without reading every
    header."""
    client.sadd(Keys(key_prefix).refused(), game_id)


def refused_games(client: StoreClient, key_prefix: str) -> int:
    """How many finished games the archive job refused: they will not be counted."""
    return int(client.scard(Keys(key_prefix).refused()))


class ArchiveQueue:
    """Enqueues archive jobs for the games of one store (one key prefix)."""

    def __init__(
        self,
        connection: redis.Redis,
        key_prefix: str,
        archive_dir: str,
        trim: bool,
        signing_key: str = "",
        signer_name: str = "",
    ) -> None:
        self.queue = Queue(archive_queue_name(key_prefix), connection=connection)
        self.job_args: dict[str, Any] = {
            "key_prefix": key_prefix,
            "archive_dir": archive_dir,
            "trim": trim,
        }
        # The key the job signs the archived head with, and its name: the API's own, so that
        # the note kept with the archive verifies with a key of its /keys.
        if signing_key:
            self.job_args.update(signing_key=signing_key, signer_name=signer_name)

    def enqueue(self, game_id: str) -> Job | None:
        job_id = archive_job_id(self.job_args["key_prefix"], game_id)
        if self._waits(job_id):
            return None
        return self._enqueue(ARCHIVE_JOB, game_id, job_id)

    def _waits(self, job_id: str) -> bool:
        """Whether the job ``job_id`` waits to be run already."""
        try:
            status = Job.fetch(job_id, connection=self.queue.connection).get_status()
        except NoSuchJobError:
            return False
        return status in _WAITING

    def enqueue_roster_recount(self) -> Job | None:
        """Enqueue the recount of every figure under the roster as it is now, unless one waits
        already (it reads the roster when it runs: one is enough)."""
        key_prefix = self.job_args["key_prefix"]
        job_id = f"{ROSTER_JOB_ID}{_name_part(key_prefix)}"
        if self._waits(job_id):
            return None
        return self.queue.enqueue(
            ROSTER_JOB,
            key_prefix=key_prefix,
            archive_dir=self.job_args["archive_dir"],
            job_id=job_id,
            retry=Retry(max=3),
            result_ttl=3600,
            failure_ttl=7 * 24 * 3600,
        )

    def enqueue_many(self, game_ids: list[str]) -> list[Job]:
        """Enqueue the archive of many games (an import's), GAMES_PER_JOB to a job."""
        batches = [
            game_ids[first : first + GAMES_PER_JOB]
            for first in range(0, len(game_ids), GAMES_PER_JOB)
        ]
        return [
            self._enqueue(
                ARCHIVE_MANY_JOB,
                batch,
                archive_many_job_id(self.job_args["key_prefix"], len(batch)),
            )
            for batch in batches
        ]

    def _enqueue(self, job: str, games: str | list[str], job_id: str) -> Job:
        # Retried three times; kept an hour once done, a week once failed (``failed``).
        return self.queue.enqueue(
            job,
            games,
            job_id=job_id,
            retry=Retry(max=3),
            result_ttl=3600,
            failure_ttl=7 * 24 * 3600,
            **self.job_args,
        )

    def forget_failed_many(self) -> None:
        """Drop the failed jobs of many games from the failed registry: the recovery enqueues
        their games that still wait again, one job each (``workers.queues.reconcile``)."""
        registry = FailedJobRegistry(queue=self.queue)
        for job_id in registry.get_job_ids():
            if _games_of_many_job(job_id) is not None:
                registry.remove(job_id, delete_job=True)

    def waiting(self) -> int:
        """Finished games whose archive job waits to be run."""
        return sum(map(games_of_job, self.queue.get_job_ids()))

    def to_count(self) -> int:
        """Finished games not counted yet: their jobs waiting, those being run, and those that
        failed (``failed``)."""
        running = StartedJobRegistry(queue=self.queue).get_job_ids()
        return self.waiting() + sum(map(games_of_job, running)) + self.failed()

    def failed(self) -> int:
        """Finished games whose archive job failed for good (its retries spent), and that were
        not enqueued again since: RQ keeps a job in its failed registry for a week, even once the
        game has been enqueued again and archived."""
        job_ids = FailedJobRegistry(queue=self.queue).get_job_ids()
        jobs = Job.fetch_many(job_ids, connection=self.queue.connection)
        failed = JobStatus.FAILED
        return sum(
            games_of_job(job.id)
            for job in jobs
            if job is not None and job.get_status(refresh=False) == failed
        )

    def workers(self) -> int:
        """The RQ workers alive on the queue's Redis: registered, with a heartbeat at most
        ALIVE_SECONDS old (a worker killed with -9 stays registered for minutes)."""
        alive_since = datetime.now(UTC) - timedelta(seconds=ALIVE_SECONDS)
        return sum(
            1
            for worker in Worker.all(queue=self.queue)
            if worker.last_heartbeat is not None and _aware(worker.last_heartbeat) >= alive_since
        )


def _aware(moment: datetime) -> datetime:
    """RQ's times are UTC, naive or not depending on its version."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
