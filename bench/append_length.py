"""Measurement 3: does an append cost more late in a long game than early on?

One client, one request at a time (no queueing to blur it), on the real API. Games of 1,000+ legal
events come from the endless deck of bench.scripts. The product's target: the 1,000th append
within 10% of the 10th, compared as the median of appends #5..#15 vs. #995..#1005, pooled over
games.

Single requests take about a millisecond and drift by more than 10% over seconds (Redis' AOF
flush, gunicorn's housekeeping, neighbours), so the two windows are measured at the same moments:
the games form a chain, and the late appends of one game alternate with the early appends of the
next. Each pair compares like with like; a drift hits both windows alike.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from bench.scripts import endless_game
from bench.servers import Server
from bench.settings import Settings
from bench.stats import bootstrap_ratio_of_medians, median, ratio
from bench.wire import Append, Connection, prepare_appends

TARGET = 1.10
EARLY = (5, 15)  # append numbers, inclusive
LATE = (995, 1005)
# Points of the curve printed besides the two the target compares (each a median over +-5 appends).
CURVE = (10, 50, 100, 250, 500, 750, 1000)


@dataclass
class LongGame:
    game_id: str
    appends: list[Append]
    # Per append made so far, index i = append #(i + 1).
    latencies: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)

    @property
    def made(self) -> int:
        return len(self.latencies)


def measure(full: Server, settings: Settings, log: Any) -> tuple[dict[str, Any], list[str]]:
    """The figures, and the ids of the long games (for the replay)."""
    length = settings.long_length
    if length < LATE[1] + 1:
        raise ValueError(f"long games need more than {LATE[1]} events")
    conn = Connection(full.port)
    games: list[LongGame] = []
    pairs: list[tuple[LongGame, LongGame]] = []  # (late, early): measured interleaved
    try:
        conn.connect()
        current = _start(conn, 900_000, length)
        games.append(current)
        _play(conn, current, LATE[0] - 1)
        for number in range(1, settings.long_pairs + 1):
            following = _start(conn, 900_000 + number, length)
            games.append(following)
            # current's #995.. alternate with following's #1..: the same moments for both windows.
            while current.made < length:
                _play(conn, current, current.made + 1)
                _play(conn, following, following.made + 1)
            pairs.append((current, following))
            log(
                f"  pair {number}: #995..1005 of one game {_window_ms(current, LATE):.2f} ms,"
                f" #5..15 of the next, alongside, {_window_ms(following, EARLY):.2f} ms"
            )
            if number < settings.long_pairs:
                _play(conn, following, LATE[0] - 1)
            current = following
    finally:
        conn.close()

    early_samples = [v for _, game in pairs for v in _window(game, EARLY)]
    late_samples = [v for game, _ in pairs for v in _window(game, LATE)]
    early, late = median(early_samples) * 1000, median(late_samples) * 1000
    growth = ratio(late, early)
    # Single appends are noisy: how far the ratio could be off, from the spread of the samples.
    interval = bootstrap_ratio_of_medians(late_samples, early_samples)
    whole = [game for game in games if game.made >= length]
    figures = {
        "pairs": len(pairs),
        "events_per_game": length,
        "early_window": list(EARLY),
        "late_window": list(LATE),
        "early_median_ms": early,
        "late_median_ms": late,
        "late_over_early": growth,
        "late_over_early_90pct_interval": list(interval),
        "per_pair_late_over_early": [
            ratio(_window_ms(late_game, LATE), _window_ms(early_game, EARLY))
            for late_game, early_game in pairs
        ],
        # Each game played alone outside the paired windows: a drift shows here, not a trend.
        "curve_median_ms": {
            str(n): median([v for game in whole for v in _window(game, (n - 5, n + 5))]) * 1000
            for n in CURVE
        },
        # The response carries the state: if it grew with the game, so would the append's cost.
        "response_bytes_at": {
            str(n): median([float(game.sizes[n - 1]) for game in whole]) for n in (10, 1000)
        },
        "targets": {
            "append_1000_within_10pct_of_append_10": {
                "target": TARGET,
                "measured": growth,
                "met": growth <= TARGET,
            }
        },
    }
    return figures, [game.game_id for game in whole]


def _start(conn: Connection, seed: int, length: int) -> LongGame:
    # Scripted before anything is timed: the client does no rule work.
    script = endless_game(seed, length)
    game_id, token = conn.create_game(script)
    return LongGame(game_id, prepare_appends(game_id, token, script))


def _play(conn: Connection, game: LongGame, until: int) -> None:
    """Append, one request at a time, until the game has ``until`` events."""
    while game.made < until:
        append = game.appends[game.made]
        started = time.perf_counter()
        status, body = conn.append(append)
        elapsed = time.perf_counter() - started
        if status != 201:
            raise RuntimeError(f"append #{append.seq} of {game.game_id}: {status} {body[:300]!r}")
        game.latencies.append(elapsed)
        game.sizes.append(len(body))


def _window(game: LongGame, window: tuple[int, int]) -> list[float]:
    first, last = window
    return game.latencies[first - 1 : last]


def _window_ms(game: LongGame, window: tuple[int, int]) -> float:
    return median(_window(game, window)) * 1000
