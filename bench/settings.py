"""How much the bench does: the defaults (minutes on 2 cores) and ``--quick`` (a smoke run)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    name: str
    # gunicorn, as `tabletape serve` runs it by default on a 2-core machine.
    workers: int = 2
    threads: int = 4
    # Concurrent recorders, each its own process with one keep-alive connection.
    clients: int = 4
    # 1. appends through HTTP: untimed appends per client, then seconds timed per side and round.
    # Rounds alternate which side goes first, so a drift of the machine hits both sides alike.
    warmup: int = 300
    duration: float = 15.0
    rounds: int = 3
    # 2. replay: how many stored games, and how long each variant is timed at least.
    replay_games: int = 200
    replay_seconds: float = 3.0
    # 3. append cost vs game length: pairs of games of `long_length` events (a chain of one game
    # more), timed one append at a time. Single appends are noisy: the pairs give ~130 per window.
    long_pairs: int = 12
    long_length: int = 1010
    # 4. memory: total appends after which the workers' memory is sampled (first vs last).
    memory_checkpoints: tuple[int, ...] = (1_000, 2_500, 5_000, 10_000)


DEFAULT = Settings(name="default")

QUICK = Settings(
    name="quick",
    warmup=50,
    duration=3.0,
    rounds=1,
    replay_games=40,
    replay_seconds=0.5,
    long_pairs=2,
    memory_checkpoints=(300, 3_000),
)
