"""The rebuild: every figure and rating recomputed from the archive files alone, then swapped in
for the live ones in one MULTI (``tabletape stats rebuild``). It counts each game as the archive
job does (``service.stats.game_figures``, ``service.stats.counting``) and rates them with the same
replay (``service.stats.ratings``), so both paths give identical figures.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path

import redis

from domain.roster import Roster
from service.players.store import Versioned, current, replayed
from service.stats.counting import add_figures
from service.stats.game_figures import GameFigures, StatsError, figures_of_archived
from service.stats.keys import LIVE_ROOT, StatsKeys
from service.stats.people import under_people
from service.stats.ratings import writing as ratings
from service.stats.ratings.model import RatedGame, rated_game_of
from service.store.archive import Archive, read_document
from service.store.connection import StoreClient
from service.store.events import EventStore

log = logging.getLogger(__name__)

# How a finished game becomes figures and ratings, as this code counts it. Raised whenever that
# changes, so that figures counted the earlier way are counted again from the archive, once, as a
# worker starts (``recount_when_counted_otherwise``). 2: a tie rated as a tie, a score never
# written counted as no score (not a 0), a game nobody won won by nobody. 3: a title counted under
# its key in every script ("Straße" under "strasse", no longer "stra-e"); the key is computed from
# each archived game's title as the rebuild counts it, never read from what was stored.
# 4: the names as written indexed beside the figures (``service.stats.names``), which the
# roster reads.
COUNTING = "4"
# How long one worker may take to count everything again before another may try.
RECOUNT_LEASE_SECONDS = 3600

Progress = Callable[[list[Path]], Iterable[Path]]


def rebuild_stats(
    client: StoreClient,
    prefix: str,
    archive_dir: str | Path,
    progress: Progress | None = None,
    skipped: Callable[[str], None] | None = None,
) -> int:
    """Recompute every figure from the archive files alone, then swap them in for the live ones
    in one MULTI; the number of games counted. ``progress`` wraps the list of files (a bar).

    A file that cannot be counted (unreadable, a move the rules refuse, a time that is no date)
    is left out and named, with its reason, to ``skipped`` (default: the log): one bad file
    never stops the others from being counted."""
    archive = Archive(archive_dir)
    rebuilt = StatsKeys(prefix, f"{LIVE_ROOT}rebuild-{uuid.uuid4().hex}")
    # Who counts as whom, as the roster's log gives it: the names read as people throughout.
    people = replayed(client, prefix)
    paths = list(archive)
    rated: list[RatedGame] = []
    say = skipped or _log_skipped
    try:
        for path in progress(paths) if progress is not None else paths:
            try:
                figures = under_people(figures_of_file(path), people.roster)
            except StatsError as error:
                say(str(error))
                continue
            add_figures(client, rebuilt, figures)
            one = rated_game_of(figures)
            if one is not None:
                rated.append(one)
        # The ratings once every game is known: each game type replayed in finish order.
        ratings.rebuild_ratings(lambda: client.pipeline(transaction=False), rebuilt, rated)
        games = _swap_in(client, archive, StatsKeys(prefix), rebuilt, say, people)
        client.set(StatsKeys(prefix).counting, COUNTING)
        # The listings too: titles' games listed under keys of an earlier scheme regrouped
        # under their keys as now computed, as their figures just were.
        store = EventStore(client, prefix=prefix)
        moved = store.indexes.regroup_titles(store.get_many)
        if moved:
            log.info("stats rebuild: %s games listed under their title key as now computed", moved)
        return games
    finally:
        # After a swap nothing is left there; after a failure, the live figures stay untouched.
        _drop(client, rebuilt)


def recount_when_counted_otherwise(
    client: StoreClient, prefix: str, archive_dir: str | Path
) -> int | None:
    """Rebuild the figures and ratings from the archive when they were counted otherwise than
    this code counts (by an earlier version, or never marked): the number of games counted, or
    None when nothing was to do, or another worker is doing it."""
    live = StatsKeys(prefix)
    if client.get(live.counting) == COUNTING:
        return None
    lease = uuid.uuid4().hex
    if not client.set(live.recounting, lease, nx=True, ex=RECOUNT_LEASE_SECONDS):
        return None
    try:
        log.info("the statistics were counted otherwise: counting them again from the archive")
        return rebuild_stats(client, prefix, archive_dir)
    finally:
        if client.get(live.recounting) == lease:
            client.delete(live.recounting)


def recount_for_roster(client: StoreClient, prefix: str, archive_dir: str | Path) -> int:
    """Count every figure and rating again from the archive, under the roster as it is now,
    until the figures are those of the roster's latest version (it may change meanwhile); the
    number of rebuilds run. One worker at a time (the recount's lease): another that finds it
    taken leaves, and the holder looks at the roster's version again once it lets go."""
    live = StatsKeys(prefix)
    runs = 0
    while (counted_version(client, prefix) or 0) != current(client, prefix).version:
        lease = uuid.uuid4().hex
        if not client.set(live.recounting, lease, nx=True, ex=RECOUNT_LEASE_SECONDS):
            return runs
        try:
            log.info("the roster changed: counting the statistics again from the archive")
            rebuild_stats(client, prefix, archive_dir)
            runs += 1
        finally:
            if client.get(live.recounting) == lease:
                client.delete(live.recounting)
    return runs


def counted_version(client: StoreClient, prefix: str) -> int | None:
    """The roster version the figures were last counted again with (None: never)."""
    found = client.get(StatsKeys(prefix).roster)
    return int(found) if found is not None else None


def _log_skipped(reason: str) -> None:
    log.warning("stats rebuild: %s; the file is left out", reason)


def figures_of_file(path: Path) -> GameFigures:
    """The figures of one archive file; a file that cannot be read or replayed is named."""
    try:
        document = read_document(path)
    # ValueError: a file that is not gzip'd JSON; OSError: one that cannot be read.
    except (ValueError, OSError) as error:
        raise StatsError(f"{path}: cannot be counted: {error}") from error
    return figures_of_archived(document, str(path))


def _swap_in(
    client: StoreClient,
    archive: Archive,
    live: StatsKeys,
    rebuilt: StatsKeys,
    skipped: Callable[[str], None],
    people: Versioned,
) -> int:
    """Replace the live figures by the rebuilt ones, atomically, noting the roster version they
    were counted with. A game the archive job counted while the rebuild ran is counted into the
    rebuild first (WATCH catches one counted meanwhile); a game counted live without an archive
    file is dropped: the archive is the truth."""
    looked_up: set[str] = set()
    while True:
        with client.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(live.counted, live.index)
                # SDIFF and RENAME as raw commands: redis-py's cluster pipeline refuses their
                # helpers, made for keys in several slots; here every key is in {stats}'s one.
                late = set(pipe.execute_command("SDIFF", live.counted, rebuilt.counted))
                late -= looked_up
                if late:
                    pipe.unwatch()
                    _count_late(client, archive, rebuilt, sorted(late), skipped, people.roster)
                    looked_up |= late
                    continue
                old: set[str] = pipe.smembers(live.index)
                new: set[str] = pipe.smembers(rebuilt.index)
                games = int(pipe.scard(rebuilt.counted))
                pipe.multi()
                if old - new:
                    pipe.delete(*(live.key(suffix) for suffix in old - new))
                for suffix in sorted(new):
                    pipe.execute_command("RENAME", rebuilt.key(suffix), live.key(suffix))
                if games:
                    pipe.execute_command("RENAME", rebuilt.counted, live.counted)
                    pipe.execute_command("RENAME", rebuilt.index, live.index)
                else:
                    pipe.delete(live.counted, live.index)
                pipe.set(live.roster, people.version)
                pipe.execute()
                return games
            except redis.WatchError:
                continue


def _count_late(
    client: StoreClient,
    archive: Archive,
    rebuilt: StatsKeys,
    game_ids: list[str],
    skipped: Callable[[str], None],
    roster: Roster,
) -> None:
    for game_id in game_ids:
        document = archive.read(game_id)
        if document is None:
            log.warning(
                "game %s is counted but not in the archive: the rebuild leaves it out", game_id
            )
            continue
        try:
            figures = figures_of_archived(document, str(archive.path(game_id)))
        except StatsError as error:
            skipped(str(error))
            continue
        figures = under_people(figures, roster)
        add_figures(client, rebuilt, figures)
        rated = rated_game_of(figures)
        if rated is not None:
            ratings.rate_game(client, rebuilt, rated)


def _drop(client: StoreClient, keys: StatsKeys) -> None:
    suffixes = client.smembers(keys.index)
    client.delete(keys.counted, keys.index, *(keys.key(suffix) for suffix in suffixes))
