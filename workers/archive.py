"""The archive job: a finished game is replayed from scratch, verified, archived and counted.

The job is idempotent, so it may be killed at any point and run again, or run twice at once:
the archive file is written atomically with bytes that depend on the record alone, the statistics
are counted under a guard that admits each game once, and the game is marked ``archived`` last.

A record that does not audit (a header or an event that does not decode, an event the rules
refuse, a broken chain) is never archived: the job marks it with its problems, once, and the
recovery leaves it alone from then on (``workers.queues``); the audit goes on saying why.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from service.config import load_config
from service.store.archive import Archive, archive_document
from service.store.audit import audit_game
from service.store.connection import STORE_UNAVAILABLE, StoreClient, close, connect, same_server
from service.store.events import DamagedHeader, DamagedRecordError, EventStore
from workers import stats

log = logging.getLogger(__name__)
T = TypeVar("T")

# Seconds to wait before each retry of a step that met a Redis error.
_BACKOFF = (0.2, 0.5, 1, 2, 4, 8)


def archive_game(
    game_id: str, key_prefix: str, archive_dir: str, trim: bool = False, redis_url: str = ""
) -> str:
    """Archive one finished game; the outcome in a word ("archived", "already", "problem"...).

    The store is the one ``redis_url`` names, else the worker's REDIS_URL (a plain Redis or a
    cluster), else the worker's own queue connection: the embedded Redis, which is both.
    """
    client = _store_client(redis_url)
    try:
        store = EventStore(client, prefix=key_prefix)
        return with_backoff(lambda: _archive(store, Archive(archive_dir), game_id, trim))
    finally:
        close(client)


def _archive(store: EventStore, archive: Archive, game_id: str, trim: bool) -> str:
    record = store.find(game_id)
    if record is None:
        return "missing"
    if record.status == "archived":
        return "already"
    if record.status != "finished":
        return "not finished"
    if isinstance(record, DamagedHeader):
        return _refuse(store, game_id, record.error().problems)
    try:
        events = store.events(game_id)
    except DamagedRecordError as error:
        return _refuse(store, game_id, error.problems)
    audit = audit_game(record, events)
    if not audit.ok:
        return _refuse(store, game_id, audit.problems)
    document = archive_document(record, events)
    archive.write(document)
    if archive.read(game_id) != document:
        store.mark_archive_problem(game_id, "the archive file did not read back as written")
        return "problem"
    # The audit's replay gives the moves left standing and their states, which the statistics
    # read (voided moves and retractions are not counted): the game is replayed once.
    stats.count_game(store.redis, store.prefix, record, audit.standing, audit.states)
    store.mark_archived(game_id, trim=trim)
    return "archived"


def _refuse(store: EventStore, game_id: str, problems: list[str]) -> str:
    """Never archive a record that does not audit: mark it, for the audit and the recovery."""
    store.mark_archive_problem(game_id, "; ".join(problems))
    log.error("game %s not archived: %s", game_id, problems)
    return "problem"


def with_backoff(step: Callable[[], T]) -> T:
    """Run ``step``, retrying with growing pauses while Redis is unreachable (or, for a cluster,
    failing over)."""
    for pause in _BACKOFF:
        try:
            return step()
        except STORE_UNAVAILABLE as error:
            log.warning("Redis unreachable (%s); retrying in %ss", error, pause)
            time.sleep(pause)
    return step()


def _store_client(redis_url: str) -> StoreClient:
    url = redis_url or load_config()["REDIS_URL"]
    if url:
        return connect(url, decode_responses=True)
    # Inside an RQ worker on the embedded Redis: the worker's own connection, decoding text.
    from rq import get_current_job

    job = get_current_job()
    if job is None:
        raise RuntimeError("archive_game needs a redis_url outside an RQ worker")
    return same_server(job.connection, decode_responses=True)
