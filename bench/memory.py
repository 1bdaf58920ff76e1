"""Measurement 4: does the API's memory stay flat as it records?

A fresh API server, so nothing before counts; the same clients as measurement 1 append in segments,
and after each the RSS (and USS, the pages a worker holds alone) of the worker processes is summed.
The product's target: flat, i.e. the last sample about the first one.
"""

from __future__ import annotations

import math
from typing import Any

import redis

from bench.load import run_load
from bench.redis_target import RedisTarget
from bench.servers import running_server
from bench.settings import Settings
from bench.stats import ratio

MIB = 1024 * 1024
# "Flat": within this much of the first sample. The bench reports; it does not fail.
TARGET_GROWTH = 0.05


def measure(
    target: RedisTarget, redis_client: redis.Redis, settings: Settings, log: Any
) -> dict[str, Any]:
    samples: list[dict[str, Any]] = []
    with running_server("full", target, settings.workers, settings.threads) as server:
        appended = 0
        finished_games = 0
        for number, checkpoint in enumerate(settings.memory_checkpoints):
            # Clients start only after their first (untimed) append; count those in.
            per_client = max(1, math.ceil((checkpoint - appended) / settings.clients) - 1)
            result = run_load(
                server,
                redis_client,
                clients=settings.clients,
                first_seed=2_000_000_000 + 10_000 * number,
                warmup=0,
                count=per_client,
            )
            appended += result.appends + result.untimed_appends
            finished_games += len(result.finished_games)
            memory = server.memory()
            samples.append(
                {
                    "appends": appended,
                    "rss_mib": memory["rss"] / MIB,
                    "pss_mib": memory["pss"] / MIB,
                    "uss_mib": memory["uss"] / MIB,
                }
            )
            log(
                f"  after {appended:6} appends: workers' RSS {memory['rss'] / MIB:.1f} MiB,"
                f" PSS {memory['pss'] / MIB:.1f} MiB, USS {memory['uss'] / MIB:.1f} MiB"
            )
    first, last = samples[0], samples[-1]
    growth = ratio(last["rss_mib"] - first["rss_mib"], first["rss_mib"])
    return {
        "workers": settings.workers,
        "samples": samples,
        "rss_growth_mib": last["rss_mib"] - first["rss_mib"],
        "pss_growth_mib": last["pss_mib"] - first["pss_mib"],
        "uss_growth_mib": last["uss_mib"] - first["uss_mib"],
        "rss_growth": growth,
        "rss_growth_kib_per_1000_appends": ratio(
            (last["rss_mib"] - first["rss_mib"]) * 1024, (last["appends"] - first["appends"]) / 1000
        ),
        "games_finished": finished_games,
        "targets": {
            "rss_flat_within_5pct": {
                "target": TARGET_GROWTH,
                "measured": growth,
                "met": growth <= TARGET_GROWTH,
            }
        },
    }
