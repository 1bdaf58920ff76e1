"""Figure 14: a group's history brought in. A BG Stats backup of 10,000 plays over 40 titles and
12 players, made here (``tests.support.history.random_backup``), imported (``History``, what
``POST /imports/bgstats`` and ``tabletape import --bgstats`` run) while a real archive worker
(``tabletape worker``, a process of its own, as ``serve`` runs it) counts and rates the games as
the import enqueues them, a hundred games to a job. The clock stops when the last game is
counted. Beside it, the same run: the archive job's own games/s (its jobs' time in the worker),
and the baseline, the first plays of the same backup counted one job per game (as a game
finished at the table is), into another prefix. Then the same backup with its plays in reverse
order, into a third prefix, must give the same ratings.
The CPU seconds each side used are reported too: the import's, the worker's (its forked jobs'),
and the Redis server's (INFO cpu; on a shared server, its other clients' as well).
``python -m bench.history_import [--plays N] [--baseline-plays N]``.

The goal (issue 38, api.md's SHOULD): the whole backup imported, counted and rated within 30 s on
the bench machine (issue 30's was 2 minutes).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
from rq.job import Job
from rq.registry import FinishedJobRegistry

from bench.redis_target import RedisTarget, redis_target
from bench.servers import REPO
from service import create_app
from service.imports import History
from service.imports.backup_file import read_backup
from service.signing.keys import default_key_path, make_key, signer_name
from service.store.queue import ArchiveQueue, games_of_job
from tests.support.history import Backup, random_backup

GOAL_SECONDS = 30.0


def _app(url: str, prefix: str, folder: Path) -> Any:
    # The key the archive job signs each archived head with, as `tabletape serve` makes it.
    make_key(default_key_path(folder), signer_name())
    return create_app({
        "REDIS_URL": url, "KEY_PREFIX": prefix, "DATA_DIR": str(folder),
        "ARCHIVE_DIR": str(folder / "archive"), "RATE_LIMIT": "",
    })  # fmt: skip


@contextmanager
def archive_worker(url: str, prefix: str, folder: Path) -> Iterator[None]:
    """``tabletape worker`` on the store's queue, as ``serve`` runs it beside the API."""
    env = {
        **os.environ, "REDIS_URL": url, "TABLETAPE_KEY_PREFIX": prefix,
        "DATA_DIR": str(folder), "ARCHIVE_DIR": str(folder / "archive"),
    }  # fmt: skip
    log = (folder / "worker.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", "worker"],
        env=env, cwd=REPO, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        yield
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
        log.close()


def counted(queue: ArchiveQueue, deadline: float) -> None:
    """Wait until no game waits for its count (none waiting, running or failed)."""
    while queue.to_count():
        if queue.failed():
            raise RuntimeError(f"{queue.failed()} games' archive jobs failed")
        if time.monotonic() > deadline:
            raise RuntimeError("the worker did not count every game in time")
        time.sleep(0.05)


def job_seconds(queue: ArchiveQueue) -> tuple[int, float]:
    """The games the queue's finished jobs counted, and the seconds the worker spent on them."""
    registry = FinishedJobRegistry(queue=queue.queue)
    jobs = Job.fetch_many(registry.get_job_ids(), connection=queue.queue.connection)
    done = [job for job in jobs if job is not None and job.started_at and job.ended_at]
    games = sum(games_of_job(job.id) for job in done)
    return games, sum((job.ended_at - job.started_at).total_seconds() for job in done)


def bring_in(
    target: RedisTarget,
    prefix: str,
    folder: Path,
    export: dict[str, Any],
    *,
    one_job_a_game: bool = False,
) -> dict[str, Any]:
    """Import ``export`` while a worker counts and rates its games; the times of each."""
    url = target.url
    app = _app(url, prefix, folder)
    games = app.extensions["tabletape"]
    queue: ArchiveQueue = app.extensions["tabletape.queue"]
    if one_job_a_game:
        games.records.recount_many = None  # each game its own job, as a game played here
    history = History(games.records, games.store.indexes)
    # The CPU each side used (this process's threads; the worker and its jobs, once it exits):
    # on a machine shared with other work, what the figure needs of the cores.
    own_cpu, their_cpu = _cpu_seconds(resource.RUSAGE_SELF), _cpu_seconds(resource.RUSAGE_CHILDREN)
    # And Redis's, the server's own (it shares the cores): all its clients', so on a shared
    # server other work's too; on the embedded one, this run's alone.
    redis_cpu = redis_cpu_seconds(target)
    with archive_worker(url, prefix, folder):
        began = time.perf_counter()
        # The file's bytes, read as the API and the command line read them.
        outcome = history.import_plays(list(read_backup(orjson.dumps(export))))
        imported = time.perf_counter()
        import_cpu = _cpu_seconds(resource.RUSAGE_SELF) - own_cpu
        counted(queue, deadline=time.monotonic() + 3600)
        done = time.perf_counter()
    worker_cpu = _cpu_seconds(resource.RUSAGE_CHILDREN) - their_cpu
    redis_cpu = redis_cpu_seconds(target) - redis_cpu
    job_games, busy = job_seconds(queue)
    return {
        "plays": outcome.imported,
        "skipped": len(outcome.skipped),
        "import_seconds": imported - began,
        "total_seconds": done - began,
        "job_games": job_games,
        "job_seconds": busy,
        "import_cpu_seconds": import_cpu,
        "worker_cpu_seconds": worker_cpu,
        "redis_cpu_seconds": redis_cpu,
        "ratings": every_rating(app),
    }


def _cpu_seconds(who: int) -> float:
    used = resource.getrusage(who)
    return used.ru_utime + used.ru_stime


def redis_cpu_seconds(target: RedisTarget) -> float:
    """The CPU seconds the target's Redis server has used since it started (INFO cpu: system
    and user, its main thread's and its background threads')."""
    client = target.client()
    try:
        used = client.info("cpu")
    finally:
        client.close()
    return float(used["used_cpu_sys"]) + float(used["used_cpu_user"])


def every_rating(app: Any) -> dict[str, dict[str, list[float]]]:
    """Every title's ratings, by title and player (``/titles``, ``/ratings/{key}``)."""
    client = app.test_client()
    keys = [title["key"] for title in client.get("/titles").json["titles"]]
    found: dict[str, dict[str, list[float]]] = {}
    for key in keys:
        rows, cursor = [], ""
        while True:
            page = client.get(f"/ratings/{key}?limit=100" + (f"&cursor={cursor}" if cursor else ""))
            assert page.status_code == 200, page.json
            rows += page.json["ratings"]
            cursor = page.json.get("next_cursor") or ""
            if not cursor:
                break
        found[key] = {r["player"]: [r["mu"], r["sigma"], r["games"]] for r in rows}
    return found


def same_ratings(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a.keys() != b.keys():
        return False
    for key in a:
        if a[key].keys() != b[key].keys():
            return False
        for player, values in a[key].items():
            pairs = zip(values, b[key][player], strict=True)
            if not all(math.isclose(x, y, rel_tol=1e-9) for x, y in pairs):
                return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=10_000)
    parser.add_argument("--baseline-plays", type=int, default=1_000)
    parser.add_argument("--titles", type=int, default=40)
    parser.add_argument("--players", type=int, default=12)
    arguments = parser.parse_args()
    backup = random_backup(arguments.plays, arguments.titles, arguments.players, seed=30)
    reverse = Backup(backup.players, backup.games, backup.plays[::-1])
    sample = Backup(backup.players, backup.games, backup.plays[: arguments.baseline_plays])
    load_at_start = os.getloadavg()[0]
    with redis_target() as target:
        baseline = bring_in(
            target, target.prefix + "one:", target.workdir / "one", sample.export(),
            one_job_a_game=True,
        )  # fmt: skip
        forward = bring_in(target, target.prefix + "a:", target.workdir / "a", backup.export())
        backward = bring_in(target, target.prefix + "b:", target.workdir / "b", reverse.export())
    report = {
        "plays": forward["plays"],
        "titles": arguments.titles,
        "players": arguments.players,
        "import_plays_per_s": forward["plays"] / forward["import_seconds"],
        "archive_job_games_per_s": forward["job_games"] / forward["job_seconds"],
        "imported_counted_rated_plays_per_s": forward["plays"] / forward["total_seconds"],
        "total_seconds": forward["total_seconds"],
        "import_cpu_seconds": forward["import_cpu_seconds"],
        "worker_cpu_seconds": forward["worker_cpu_seconds"],
        "redis_cpu_seconds": forward["redis_cpu_seconds"],
        "redis_embedded": target.embedded,
        "load_average_at_start": load_at_start,
        "within_goal": forward["total_seconds"] <= GOAL_SECONDS,
        "reverse_total_seconds": backward["total_seconds"],
        "reverse_same_ratings": same_ratings(forward["ratings"], backward["ratings"]),
        "baseline_plays": baseline["plays"],
        "baseline_archive_job_games_per_s": baseline["job_games"] / baseline["job_seconds"],
        "baseline_imported_counted_rated_plays_per_s": (
            baseline["plays"] / baseline["total_seconds"]
        ),
        "rated_titles": len(forward["ratings"]),
    }
    job_ratio = report["archive_job_games_per_s"] / report["baseline_archive_job_games_per_s"]
    whole_ratio = (
        report["imported_counted_rated_plays_per_s"]
        / report["baseline_imported_counted_rated_plays_per_s"]
    )
    print(json.dumps(report, indent=1))
    print(
        f"\nFigure 14. {report['plays']:,} plays over {arguments.titles} titles and"
        f" {arguments.players} players: imported at {report['import_plays_per_s']:.0f} plays/s;"
        f" the archive job counts and rates {report['archive_job_games_per_s']:.0f} games/s"
        f" ({job_ratio:.2f}x the baseline's {report['baseline_archive_job_games_per_s']:.0f},"
        f" one job a game, {report['baseline_plays']:,} plays, same run); imported, counted and"
        f" rated at {report['imported_counted_rated_plays_per_s']:.0f} plays/s ({whole_ratio:.2f}x"
        f" the baseline's {report['baseline_imported_counted_rated_plays_per_s']:.0f}):"
        f" {report['total_seconds']:.1f} s in all (goal {GOAL_SECONDS:.0f} s:"
        f" {'met' if report['within_goal'] else 'missed'}). In reverse order:"
        f" {report['reverse_total_seconds']:.1f} s, the same ratings:"
        f" {report['reverse_same_ratings']}. CPU: the import {report['import_cpu_seconds']:.1f} s,"
        f" the worker {report['worker_cpu_seconds']:.1f} s, Redis"
        f" {report['redis_cpu_seconds']:.1f} s ({'embedded' if target.embedded else 'the'}"
        f" server's, all its clients') (load average"
        f" {report['load_average_at_start']:.1f} at the start)."
    )


if __name__ == "__main__":
    main()
