"""Figure 12: the state after any move (``GET /games/{id}/state?at=N``) vs the latest state, with
snapshots off and at several K, on games of 100, 1,000 and 5,000 moves; and the audit of 5,000-move
games beside reading and decoding them (figure 2's measurement, ``bench.replay``).

Through the Flask app in process (``service.create_app``) on the bench's Redis, under a key prefix
of the run's own, deleted at the end. The games are the bench's endless Mada games
(``bench.scripts``), stored by the service's own import (a new id each time: no snapshots yet).
For each game length and each setting (``SNAPSHOT_EVERY`` 0, that is the code before snapshots,
then each K), in the same run:

- the baseline: the p90 of the latest state, ``GET /state``, asked ``--samples`` times;
- ``state?at=N`` for ``--samples`` random N (the same N for every setting), on a game just
  imported: the first reads replay from the seed and write the snapshots they pass ("cold"),
  then another ``--samples`` random N ("warm");
- the snapshots' count and bytes in Redis, and the first read of the latest state (a replay
  from the seed, which writes every snapshot: their write cost, against K=off's).

    .venv/bin/python -m bench.state_at [--samples 40] [--lengths 100,1000,5000] [--every 25,50,...]
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import secrets
import time
from pathlib import Path
from typing import Any

from bench import replay
from bench.redis_target import RedisTarget, redis_target
from bench.scripts import GameScript, endless_game
from bench.stats import percentile, ratio
from domain import get_game
from service import create_app
from service.games import GameService
from service.store.chain import new_salt
from service.store.keys import Keys

TARGET = 4.0
RESULTS = Path(__file__).parent / "results" / "state_at.json"


def _log(message: str) -> None:
    print(message, flush=True)


@functools.cache
def _script(length: int) -> GameScript:
    return endless_game(seed=length, length=length)


def _import(service: GameService, length: int) -> str:
    script = _script(length)
    record, _ = service.import_record(
        {
            "game": "mada",
            # Each import a record of its own (the same record is imported once): other names.
            "players": [f"{name} {secrets.token_hex(3)}" for name in script.players],
            "seed": script.seed,
            "options": script.options,
            "rules_version": get_game("mada").rules_version,
            # A record of format 2 carries its salt.
            "seed_salt": new_salt(),
            "events": list(script.moves),
        }
    )
    return record.id


def _timed(client: Any, path: str, headers: dict[str, str]) -> float:
    started = time.perf_counter()
    answer = client.get(path, headers=headers)
    elapsed = time.perf_counter() - started
    if answer.status_code != 200:
        raise RuntimeError(f"{path}: {answer.status_code} {answer.get_data(as_text=True)[:200]}")
    return elapsed


def _ms(values: list[float], q: float) -> float:
    return percentile(values, q) * 1000


def measure_one(
    target: RedisTarget, every: int, length: int, samples: int, chooser_seed: int
) -> dict[str, Any]:
    app = create_app(
        {
            "REDIS_URL": target.url,
            "KEY_PREFIX": target.prefix,
            "RATE_LIMIT": "",
            "DATA_DIR": str(target.workdir / "data"),
            "SNAPSHOT_EVERY": every,
        }
    )
    service: GameService = app.extensions["tabletape"]
    game_id = _import(service, length)
    record = service.get(game_id)
    # An imported game is finished or not; either way its recorder's token is not ours: read it
    # as the public, which sees everything once the game is over, and what it may before.
    client = app.test_client()
    headers: dict[str, str] = {}
    chooser = random.Random(chooser_seed)
    cold_at = [chooser.randint(0, record.version) for _ in range(samples)]
    warm_at = [chooser.randint(0, record.version) for _ in range(samples)]
    # The baseline first: its first read replays the game into the process's cache.
    first_read = _timed(client, f"/games/{game_id}/state", headers)
    latest = [_timed(client, f"/games/{game_id}/state", headers) for _ in range(samples)]
    cold = [_timed(client, f"/games/{game_id}/state?at={n}", headers) for n in cold_at]
    warm = [_timed(client, f"/games/{game_id}/state?at={n}", headers) for n in warm_at]
    latest += [_timed(client, f"/games/{game_id}/state", headers) for _ in range(samples)]
    key = Keys(target.prefix).snapshots(game_id)
    redis_client = target.client()
    try:
        count = redis_client.hlen(key)
        size = sum(redis_client.hstrlen(key, name) for name in redis_client.hkeys(key))
    finally:
        redis_client.close()
    latest_p90 = _ms(latest, 90)
    figures = {
        "every": every,
        "moves": record.version,
        "first_read_ms": first_read * 1000,
        "latest_p50_ms": _ms(latest, 50),
        "latest_p90_ms": latest_p90,
        "cold_p50_ms": _ms(cold, 50),
        "cold_p90_ms": _ms(cold, 90),
        "warm_p50_ms": _ms(warm, 50),
        "warm_p90_ms": _ms(warm, 90),
        "warm_p90_over_latest_p90": ratio(_ms(warm, 90), latest_p90),
        "cold_p90_over_latest_p90": ratio(_ms(cold, 90), latest_p90),
        "snapshots": count,
        "snapshot_bytes": size,
        "game_id": game_id,
    }
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--lengths", default="100,1000,5000")
    parser.add_argument("--every", default="0,25,50,100,200")
    parser.add_argument("--audit-games", type=int, default=3)
    parser.add_argument("--audit-seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    lengths = [int(value) for value in args.lengths.split(",")]
    settings = [int(value) for value in args.every.split(",")]
    rows: list[dict[str, Any]] = []
    with redis_target() as target:
        for length in lengths:
            for every in settings:
                row = measure_one(target, every, length, args.samples, chooser_seed=length)
                rows.append(row)
                _log(
                    f"{length:>5} moves, K={every or 'off':>3}: latest p90 "
                    f"{row['latest_p90_ms']:.2f} ms; state?at=N warm p50/p90 "
                    f"{row['warm_p50_ms']:.2f}/{row['warm_p90_ms']:.2f} ms "
                    f"({row['warm_p90_over_latest_p90']:.1f}x), cold p50/p90 "
                    f"{row['cold_p50_ms']:.2f}/{row['cold_p90_ms']:.2f} ms "
                    f"({row['cold_p90_over_latest_p90']:.1f}x); {row['snapshots']} snapshots, "
                    f"{row['snapshot_bytes'] / 1024:.0f} KiB; first read of the game "
                    f"{row['first_read_ms']:.1f} ms"
                )
        _log("audit of 5,000-move games (bench.replay, figure 2's measurement):")
        ids = []
        app = create_app(
            {"REDIS_URL": target.url, "KEY_PREFIX": target.prefix, "RATE_LIMIT": "",
             "DATA_DIR": str(target.workdir / "data")}
        )  # fmt: skip
        service: GameService = app.extensions["tabletape"]
        for _ in range(args.audit_games):
            ids.append(_import(service, 5000))
        audit = replay.measure(target, {"5,000-move games": ids}, args.audit_seconds, _log)
    results = {"rows": rows, "audit": audit, "target_warm_p90_over_latest_p90": TARGET}
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2))
    _log(f"written to {RESULTS}")


if __name__ == "__main__":
    main()
