"""Figure 6: statistics you can query, on a year of a busy server.

``python -m bench --stats`` (or alone: ``python -m bench.stats_query [--games N] [--archive N]``).

1. Fill: ``--games`` finished games (100,000 by default) of ~50 players over a year of days are
   counted through the projections' own update path (what the archive job runs once it has a
   game's figures: the guarded count script, then the rating), fed made-up figures of Mada games
   of 2 to 5 players; about 2% arrive late (archived after a game that finished after them).
   Many games go in one round trip (each still its own guarded script call), and a second
   process counts the figures while this one rates the games
   (``service.stats.counting.count_many``'s two halves): Python's work and Redis's overlap.
2. Queries: ``GET /stats/mada`` with each filter, a player's filtered figures, head to head and
   ``/ratings/mada``, through the Flask app in process (its test client: no HTTP server, so the
   figures are the view's and Redis's work), interleaved so that a drift of the machine hits
   them all alike; against ``GET /health`` and the unfiltered ``/stats/mada`` of the same run.
   Target: p99 below 50 ms for every query.
3. Rebuild: ``--archive`` archive files of random Mada games played by the rules, then
   ``rebuild_stats`` from them, in games per second.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from itertools import islice
from typing import Any

import redis

from bench.stats import latency_summary, ratio
from service import create_app
from service.stats.counting import count_many_figures, rate_many
from service.stats.game_figures import GameFigures, PlayFigures
from service.stats.rebuild import rebuild_stats
from service.store.archive import Archive, archive_document
from tests.finished_games import play

TARGET_P99_MS = 50.0
# Games per round trip of the fill, each still its own guarded count script.
FILL_BATCH = 500
PLAYERS = [f"Player {number:02d}" for number in range(50)]
FIRST_DAY = datetime(2025, 3, 1, tzinfo=UTC)
# A year from mid-March to mid-February: whole months in the middle, days at either end.
SINCE, UNTIL = "2025-03-15", "2026-02-14"
YEAR = f"since={SINCE}&until={UNTIL}"

QUERIES = {
    "GET /health (baseline)": "/health",
    "/stats/mada, no filter (baseline)": "/stats/mada",
    "/stats/mada?players=3": "/stats/mada?players=3",
    "/stats/mada?player=": "/stats/mada?player=Player%2007",
    "/stats/mada?since&until (a year)": f"/stats/mada?{YEAR}",
    "/stats/mada?player=&since&until": f"/stats/mada?player=Player%2007&{YEAR}",
    "/stats/mada, all four filters": f"/stats/mada?players=3&player=Player%2007&{YEAR}",
    "/players/{name}/stats?since&until": f"/players/Player%2007/stats?{YEAR}",
    "/players/{a}/versus/{b}?since&until": f"/players/Player%2007/versus/Player%2008?{YEAR}",
    "/ratings/mada (first page)": "/ratings/mada?limit=20",
    "/ratings/mada (second page)": "/ratings/mada?limit=20&cursor=20",
}
BASELINES = ("GET /health (baseline)", "/stats/mada, no filter (baseline)")

Log = Callable[[str], None]


def measure(
    url: str, prefix: str, games: int, archived: int, log: Log, samples: int = 300
) -> dict[str, Any]:
    client = redis.Redis.from_url(url, decode_responses=True, socket_timeout=30)
    figure_began = time.perf_counter()
    try:
        used_before = int(client.info("memory")["used_memory"])
        log(f"   filling the projections with {games} games ...")
        began = time.perf_counter()
        _fill(url, client, prefix, games)
        fill_seconds = time.perf_counter() - began
        used_after = int(client.info("memory")["used_memory"])
        log(f"   {games / fill_seconds:.0f} games/s; timing the queries ...")
        latencies = _time_queries(client, prefix, samples)
        log(f"   rebuilding from {archived} archive files ...")
        rebuild = _time_rebuild(client, prefix + "rebuild:", archived)
        figure_seconds = time.perf_counter() - figure_began
    finally:
        client.close()
    summaries = {name: latency_summary(values) for name, values in latencies.items()}
    health, unfiltered = (summaries[name] for name in BASELINES)
    return {
        "games": games,
        "players": len(PLAYERS),
        "seconds": figure_seconds,
        "fill": {
            "seconds": fill_seconds,
            "games_per_second": games / fill_seconds,
            "redis_memory_mb": (used_after - used_before) / 2**20,
        },
        "queries": {
            name: {
                **summary,
                "p99_over_health": ratio(summary["p99_ms"], health["p99_ms"]),
                "p99_over_unfiltered": ratio(summary["p99_ms"], unfiltered["p99_ms"]),
                "path": QUERIES[name],
            }
            for name, summary in summaries.items()
        },
        "rebuild": rebuild,
        "targets": {
            f"p99 < {TARGET_P99_MS:.0f} ms, slowest query (ms)": {
                "measured": max(summary["p99_ms"] for summary in summaries.values()),
                "met": all(summary["p99_ms"] < TARGET_P99_MS for summary in summaries.values()),
            }
        },
    }


def _fill(url: str, client: redis.Redis, prefix: str, games: int) -> None:
    """Count ``games`` made-up games: their figures in a child process, their ratings here."""
    counter = multiprocessing.get_context("fork").Process(
        target=_count_figures, args=(url, prefix, games), name="stats-fill"
    )
    counter.start()
    try:
        for batch in batched(made_up_games(games), FILL_BATCH):
            rate_many(client, prefix, batch)
    finally:
        counter.join()
    if counter.exitcode != 0:
        raise RuntimeError(f"the process counting the figures failed ({counter.exitcode})")


def _count_figures(url: str, prefix: str, games: int) -> None:
    client = redis.Redis.from_url(url, decode_responses=True, socket_timeout=60)
    try:
        for batch in batched(made_up_games(games), FILL_BATCH):
            count_many_figures(client, prefix, batch)
    finally:
        client.close()


def made_up_games(count: int, seed: int = 6) -> Iterator[GameFigures]:
    """What ``count`` finished Mada games add, spread over a year, mostly in finish order."""
    chooser = random.Random(seed)
    step = timedelta(days=365) / count
    moments = [FIRST_DAY + step * number for number in range(count)]
    # ~2% swapped with the next one: archived after a game that finished after them.
    for number in range(count - 1):
        if chooser.random() < 0.02:
            moments[number], moments[number + 1] = moments[number + 1], moments[number]
    for number, moment in enumerate(moments):
        yield _made_up(chooser, f"{number:032x}", moment)


def batched(items: Iterable[GameFigures], size: int) -> Iterator[list[GameFigures]]:
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


def _made_up(chooser: random.Random, game_id: str, moment: datetime) -> GameFigures:
    seats = chooser.randint(2, 5)
    players = chooser.sample(PLAYERS, seats)
    scores = [chooser.randint(0, 24) for _ in range(seats)]
    winners = tuple(seat for seat, score in enumerate(scores) if score == max(scores))
    first = chooser.randrange(seats)
    tried = chooser.randint(0, 12)
    # The fields service.stats.game_figures.figures_of makes.
    totals = {
        "events": chooser.randint(40, 160),
        f"players:{seats}:games": 1,
        f"players:{seats}:winners": len(winners),
        "counter:rounds": chooser.randint(3, 9),
        "counter:try_luck": tried,
        "counter:try_luck_lost": chooser.randint(0, tried),
    }
    if first in winners:
        totals["first:wins"] = 1
    for seat in winners:
        totals[f"seat:{seat}:wins"] = 1
    plays = {
        name: PlayFigures(1, int(seat in winners), scores[seat])
        for seat, name in enumerate(players)
    }
    return GameFigures(
        game_id,
        "mada",
        totals,
        dict(Counter(json.dumps(score) for score in scores)),
        plays,
        players=tuple(players),
        winners=winners,
        seat_scores=tuple(scores),
        finished_at=moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z",
    )


def _time_queries(client: redis.Redis, prefix: str, samples: int) -> dict[str, list[float]]:
    app = create_app({"REDIS_CLIENT": client, "KEY_PREFIX": prefix, "RATE_LIMIT": ""})
    http = app.test_client()
    latencies: dict[str, list[float]] = {name: [] for name in QUERIES}
    for number in range(samples + 5):
        for name, path in QUERIES.items():
            began = time.perf_counter()
            response = http.get(path)
            took = time.perf_counter() - began
            if response.status_code != 200:
                raise RuntimeError(f"{path}: {response.status_code} {response.get_data()!r}")
            if number >= 5:  # the first rounds warm up
                latencies[name].append(took)
    return latencies


def _time_rebuild(client: redis.Redis, prefix: str, count: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="tabletape-bench-archive-") as folder:
        archive = Archive(folder)
        events = 0
        for number in range(count):
            document = _archived_game(number)
            events += len(document["events"])
            archive.write(document)
        began = time.perf_counter()
        counted = rebuild_stats(client, prefix, folder)
        seconds = time.perf_counter() - began
    for key in client.scan_iter(match=f"{prefix}*", count=1000):
        client.delete(key)
    return {
        "games": counted,
        "mean_events": events / count if count else 0,
        "seconds": seconds,
        "games_per_second": counted / seconds if seconds else 0.0,
    }


def _archived_game(seed: int) -> dict[str, Any]:
    """A random game of Mada to its end by the rules, as the archive holds it, finished on a day
    of the year its seed picks."""
    chooser = random.Random(seed)
    players = chooser.sample(PLAYERS, chooser.randint(2, 5))
    played = play(seed, players)
    at = (FIRST_DAY + timedelta(minutes=seed)).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    record = replace(played.record, id=f"{seed:032x}", finished_at=at)
    return archive_document(record, played.events)


def main() -> None:
    from bench.redis_target import redis_target
    from bench.report import print_stats_query

    parser = argparse.ArgumentParser(prog="python -m bench.stats_query", description=__doc__)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--archive", type=int, default=2_000)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    with redis_target() as target:
        figures = measure(target.url, target.prefix, args.games, args.archive, print, args.samples)
    print_stats_query(figures)


if __name__ == "__main__":
    main()
