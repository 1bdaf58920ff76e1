"""The service's RQ queue, the enqueueing of archive jobs, and the recovery of lost ones.

RQ runs on a plain Redis (QUEUE_REDIS_URL, by default the store's own server: ``service.app``);
the store itself may be a cluster. A job names its game, key prefix and archive folder; the worker
that runs it finds the store in its own configuration (``workers.archive``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import redis
from rq import Queue, Worker
from rq.registry import StartedJobRegistry

from service.store.events import EventStore
from service.store.queue import (
    JOB_MONITORING_SECONDS,
    WORKER_TTL,
    ArchiveQueue,
    archive_queue_name,
    mark_refused,
)
from service.store.records import DamagedHeader, GameRecord

log = logging.getLogger(__name__)


def unarchived_games(store: EventStore) -> Iterator[str]:
    """Ids of the games whose figures wait for the archive job: finished games that are not
    archived and not held back by an audit problem, and reopened ones whose earlier finish's
    figures are still to be withdrawn.

    A finished game whose header does not decode is one of them until the archive job has marked
    it (its problem is its header): the job is where a record is judged, and logged, once.
    """
    for page in every_game(store):
        # As it goes: games stored before their commitments were indexed are indexed, so that
        # an import of one of them is known for what it is (409 already_imported).
        records = [header for header in page if isinstance(header, GameRecord)]
        store.indexes.index_commitments(records)
        # And each is listed where it was played: games a store of an earlier version indexed
        # by a creation serial, a finish whose archive job was lost. (A game moved further down
        # is read again on a later page: enqueued twice, it is one job.)
        store.indexes.place(records)
        for header in page:
            if header is None:
                continue
            if header.status == "finished" and header.archive_problem:
                # Refused before /health counted the refused games: counted from now on.
                mark_refused(store.redis, store.prefix, header.id)
            to_count = header.status == "finished" and not header.archive_problem
            to_withdraw = isinstance(header, GameRecord) and header.reopened
            if to_count or to_withdraw:
                yield header.id


def every_game(store: EventStore) -> Iterator[list[GameRecord | DamagedHeader | None]]:
    """Every game's record, newest first, a page at a time."""
    after = None
    while True:
        places, more = store.indexes.newest(after=after)
        yield store.get_many([place.id for place in places])
        if not more:
            return
        after = places[-1]


def reconcile(store: EventStore, archive_queue: ArchiveQueue) -> int:
    """Enqueue every finished game not yet archived, and every reopened one whose figures are
    still counted; the number enqueued.

    It recovers what a crash lost: the API dying between a game's last append and its enqueue,
    or a worker dying mid-job (its job, abandoned in the started registry, is failed or retried by
    RQ's cleanup, and the game is enqueued again here).
    """
    StartedJobRegistry(queue=archive_queue.queue).cleanup()
    archive_queue.forget_failed_many()
    enqueued = sum(1 for game_id in unarchived_games(store) if archive_queue.enqueue(game_id))
    if enqueued:
        log.info("reconcile: %d finished games enqueued for archiving", enqueued)
    return enqueued


def run_worker(
    connection: redis.Redis, key_prefix: str, *, burst: bool = False, logging_level: str = "INFO"
) -> bool:
    """Work the service's queues; with ``burst``, stop once they are empty."""
    queue = Queue(archive_queue_name(key_prefix), connection=connection)
    # Its heartbeat every 5 s, for /health to tell it alive (service.store.queue).
    worker = Worker(
        [queue],
        connection=connection,
        worker_ttl=WORKER_TTL,
        job_monitoring_interval=JOB_MONITORING_SECONDS,
    )
    return bool(worker.work(burst=burst, logging_level=logging_level))
