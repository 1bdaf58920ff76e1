"""The archive job: a finished game is replayed from scratch, verified, archived and counted; a
reopened one (a retraction undid its finish) has the figures of that finish withdrawn.

The job is idempotent, so it may be killed at any point and run again, or run twice at once:
the archive file is written atomically with bytes that depend on the record alone, the statistics
are counted (and withdrawn) under a guard that admits each game once, and the game is marked
``archived`` last, only if it is still finished at the version archived: the API may reopen the
game during a job, which then withdraws what it counted. (Two jobs of one game at once, while the
game is reopened and finished again between them, could count the earlier finish in place of the
later: a recorder does not undo and replay a last move within the tens of milliseconds of a job.)

Which finish was counted is told by the archive file, written before the count: a file whose head
is not the game's (the game was reopened, and perhaps finished again) holds the figures to
withdraw, and is then superseded (``service.store.archive``).

A record that does not audit (a header or an event that does not decode, an event the rules
refuse, a broken chain) is never archived: the job marks it with its problems, once, and the
recovery leaves it alone from then on (``workers.queues``); the audit goes on saying why.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from service.config import load_config
from service.signing import KeyRing, NoSigningKeyError, SigningKeyError, sign_head
from service.stats import counting
from service.stats.game_figures import GameFigures, StatsError, figures_of, figures_of_archived
from service.store.archive import Archive, archive_document
from service.store.audit import audit_game
from service.store.connection import STORE_UNAVAILABLE, StoreClient, close, connect, same_server
from service.store.damage import DamagedRecordError
from service.store.events import EventStore
from service.store.queue import ArchiveQueue, mark_refused
from service.store.records import DamagedHeader, GameRecord

log = logging.getLogger(__name__)
T = TypeVar("T")

# Seconds to wait before each retry of a step that met a Redis error.
_BACKOFF = (0.2, 0.5, 1, 2, 4, 8)

# How many games of a job are archived at once. A game's archiving waits, most of its time, on
# Redis (its header, its events, its place, its mark) and on the fsync of its file: games
# archived side by side share those waits, and the file system commits their fsyncs together
# (figure 14: a job of a hundred games about 3x faster). Each game is still archived whole, as
# alone; only the waiting overlaps.
_GAMES_AT_ONCE = 16


def archive_game(
    game_id: str,
    key_prefix: str,
    archive_dir: str,
    trim: bool = False,
    redis_url: str = "",
    signing_key: str = "",
    signer_name: str = "",
) -> str:
    """Archive one finished game; the outcome in a word ("archived", "already", "problem"...).

    The store is the one ``redis_url`` names, else the worker's REDIS_URL (a plain Redis or a
    cluster), else the worker's own queue connection: the embedded Redis, which is both. The
    archived head is signed with the key in ``signing_key`` (named ``signer_name``), and its note
    kept in the archive; without a key the game is archived without one.
    """
    outcomes = archive_games(
        [game_id], key_prefix, archive_dir, trim, redis_url, signing_key, signer_name
    )
    return outcomes[game_id]


def archive_games(
    game_ids: list[str],
    key_prefix: str,
    archive_dir: str,
    trim: bool = False,
    redis_url: str = "",
    signing_key: str = "",
    signer_name: str = "",
) -> dict[str, str]:
    """``archive_game`` for many games at once (an import's, ``service.imports``): one
    connection, and their figures counted and rated in a few round trips rather than a few each.
    Each game's outcome, by its id."""
    client = store_client(redis_url)
    ring = KeyRing(signing_key, signer_name) if signing_key and signer_name else None
    try:
        store = EventStore(client, prefix=key_prefix)
        archive = Archive(archive_dir)
        return with_backoff(lambda: _archive_many(store, archive, game_ids, trim, ring))
    finally:
        close(client)


@dataclass(frozen=True)
class _Written:
    """A finished game whose archive file is written: to be counted, then marked archived."""

    record: GameRecord
    figures: GameFigures
    document: dict[str, Any]
    # Its archive file, whose folder the job syncs once for all its games before counting them.
    path: Path


def _archive_many(
    store: EventStore, archive: Archive, game_ids: list[str], trim: bool, ring: KeyRing | None
) -> dict[str, str]:
    outcomes: dict[str, str] = {}
    written: list[_Written] = []
    # The games read, to be placed in the listings: all of them in one round trip.
    read: list[GameRecord] = []
    # Their headers read in one round trip, not one each.
    headers = store.get_many(game_ids)
    with ThreadPoolExecutor(_GAMES_AT_ONCE, thread_name_prefix="archive") as games_at_once:
        # In the job's order, whatever order they finish in: the ratings are those of that order.
        for game_id, found in zip(
            game_ids,
            games_at_once.map(
                lambda pair: _written(store, archive, *pair, ring, read.append),
                zip(game_ids, headers, strict=True),
            ),
            strict=True,
        ):
            if isinstance(found, str):
                outcomes[game_id] = found
            else:
                written.append(found)
        # The files' renames made durable, each folder once (a game's file is what tells which
        # finish was counted, ``_withdraw_undone_finish``): before any game is counted.
        archive.sync_folders([game.path for game in written])
        # Listed where it was played: at its finish, or back where it was created once a
        # retraction reopened it. Here, within seconds of the change, rather than in the
        # finishing append, which would wait as long again for the write to 2 + players indexes
        # (about 0.3 ms on one Redis, measured; on a cluster, one round trip per master holding
        # them); the job reads the header, and places the games of a job in one round trip.
        store.indexes.place(read)
        # Each game's count is guarded on its own (counted once, rated once), as one game's is.
        # Counted under the roster (who counts as whom): if it changes meanwhile, a recount
        # follows.
        roster_before = counting.roster_version(store.redis, store.prefix)
        counting.count_many(store.redis, store.prefix, [game.figures for game in written])
        _recount_if_roster_moved(store, archive, roster_before)
        marked = games_at_once.map(lambda one: _marked_archived(store, archive, one, trim), written)
        for game, outcome in zip(written, marked, strict=True):
            outcomes[game.record.id] = outcome
    return outcomes


def _written(
    store: EventStore,
    archive: Archive,
    game_id: str,
    record: GameRecord | DamagedHeader | None,
    ring: KeyRing | None,
    to_place: Callable[[GameRecord], None],
) -> _Written | str:
    """The game, whose header the job read as ``record`` (``EventStore.find``), audited, its
    figures told and its archive file written; else the outcome in a word (the game refused,
    missing, archived already, not finished, its earlier finish withdrawn). A game read whole
    goes ``to_place`` in the listings."""
    if record is None:
        return "missing"
    if record.status == "archived":
        return "already"
    if isinstance(record, DamagedHeader):
        if record.status != "finished":
            return "not finished"
        return _refuse(store, game_id, record.error().problems)
    to_place(record)
    withdrawn = _withdraw_undone_finish(store, archive, record)
    if record.status != "finished":
        return "withdrawn" if withdrawn else "not finished"
    try:
        # The events its header counts: a retraction appended since it was read reopened the
        # game, which mark_archived sees below.
        events = store.events(game_id, 1, record.version)
    except DamagedRecordError as error:
        return _refuse(store, game_id, error.problems)
    audit = audit_game(record, events)
    if not audit.ok:
        return _refuse(store, game_id, audit.problems)
    # The audit's replay gives the moves left standing and their states, which the statistics
    # read (voided moves and retractions are not counted): the game is replayed once. Figures
    # that cannot be told (a finished_at that is no date) refuse the game before its file is
    # written: a job that failed on them would fail at every retry and every start.
    try:
        figures = figures_of(record, audit.standing, audit.states)
    except StatsError as error:
        return _refuse(store, game_id, [str(error)])
    document = archive_document(record, events)
    document.update(_note_of_archive(ring, record))
    # Its folder is synced by the job, once for all the games it wrote there.
    path = archive.write(document, sync_folder=False)
    if archive.read(game_id) != document:
        return _refuse(store, game_id, ["the archive file did not read back as written"])
    return _Written(record, figures, document, path)


def _recount_if_roster_moved(store: EventStore, archive: Archive, version_before: int) -> None:
    """Ask for a recount (``workers.roster``) when the roster is no longer at ``version_before``,
    read before the games were counted: they may have been counted under the roster before."""
    if counting.roster_version(store.redis, store.prefix) == version_before:
        return
    counting.recount_due(store.redis, store.prefix)
    from rq import get_current_job

    job = get_current_job()
    if job is None:
        log.warning("the roster changed while games were counted: run `tabletape stats rebuild`")
        return
    queue = ArchiveQueue(job.connection, store.prefix, str(archive.directory), trim=False)
    queue.enqueue_roster_recount()


def _marked_archived(store: EventStore, archive: Archive, game: _Written, trim: bool) -> str:
    """Mark a counted game archived, unless it was reopened meanwhile: then what was just
    counted goes again."""
    if not store.mark_archived(game.record.id, game.record.version, trim=trim):
        _withdraw(store, archive, game.document)
        return "withdrawn"
    return "archived"


def _note_of_archive(ring: KeyRing | None, record: GameRecord) -> dict[str, str]:
    """The note of the head being archived (status ``archived``), as the archive keeps it; none
    when the worker has no key (the game is archived all the same: a note is added to a record,
    never a condition of keeping it)."""
    if ring is None:
        return {}
    try:
        signer = ring.signer()
    except (NoSigningKeyError, SigningKeyError) as error:
        log.warning("game %s archived without its note: %s", record.id, error)
        return {}
    return sign_head(signer, record, "archived").as_json()


def _withdraw_undone_finish(store: EventStore, archive: Archive, record: GameRecord) -> bool:
    """Withdraw the figures of a finish of ``record`` that a retraction undid, if its archive
    file is still there; whether there was one."""
    counted = archive.read(record.id)
    undone = counted is not None and (
        record.status != "finished" or counted["head_hash"] != record.head_hash
    )
    if counted is not None and undone:
        _withdraw(store, archive, counted)
    if record.reopened:
        store.clear_reopened(record.id)
    return undone


def _withdraw(store: EventStore, archive: Archive, document: dict[str, Any]) -> None:
    """Withdraw the figures of the finish ``document`` archived, then supersede its file: a job
    killed between the two withdraws nothing twice when it runs again (the count's guard)."""
    figures = figures_of_archived(document, str(archive.path(document["id"])))
    counting.withdraw_figures(store.redis, store.prefix, figures)
    archive.supersede(document)
    log.info("game %s reopened: the figures of its finish at %s are withdrawn",
             document["id"], document["version"])  # fmt: skip


def _refuse(store: EventStore, game_id: str, problems: list[str]) -> str:
    """Never archive a record that does not audit: mark it, for the audit and the recovery,
    and count it among the refused games, for /health."""
    store.mark_archive_problem(game_id, "; ".join(problems))
    mark_refused(store.redis, store.prefix, game_id)
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


def store_client(redis_url: str) -> StoreClient:
    url = redis_url or load_config()["REDIS_URL"]
    if url:
        return connect(url, decode_responses=True)
    # Inside an RQ worker on the embedded Redis: the worker's own connection, decoding text.
    from rq import get_current_job

    job = get_current_job()
    if job is None:
        raise RuntimeError("archive_game needs a redis_url outside an RQ worker")
    return same_server(job.connection, decode_responses=True)
