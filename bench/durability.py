"""Figure 11: what DURABILITY=fsync costs, appends/s against everysec, in the same run.

One redis-server (Debian's) per mode, started by this script on a loopback port with its AOF in a
scratch folder (``appendfsync everysec``, then ``always``), and the service's own append path in
process (GameService: validation, hash chain, the append script), 4 threads recording random Mada
games, for a few seconds per round, rounds alternating. ``python -m bench.durability``.

The figure depends on the disk under the scratch folder (``--dir``; the default is the system's
temporary folder, which may be memory): fsync costs what the disk's flush costs.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from domain import get_game
from service.app import build_services
from service.config import load_config
from tests.aof_redis import aof_redis
from tests.served import free_port

MADA = get_game("mada")
THREADS = 4


def appends_per_second(services: Any, seconds: float, seed: int) -> float:
    """Appends/s of ``THREADS`` threads recording random games for ``seconds``."""
    done = [0] * THREADS
    deadline = time.monotonic() + seconds

    def record(index: int) -> None:
        chooser = random.Random(seed * 100 + index)
        while time.monotonic() < deadline:
            created, tokens = services.games.create(
                "mada", ["Ana", "Ben"], chooser.randrange(9), {}
            )
            state = MADA.new_game(2, created.seed, created.options)
            while time.monotonic() < deadline and MADA.result(state) is None:
                move = chooser.choice(MADA.legal_moves(state))
                services.games.append(created.id, tokens.recorder, move)
                state = MADA.apply(state, move)
                done[index] += 1

    threads = [threading.Thread(target=record, args=(index,)) for index in range(THREADS)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done) / (time.monotonic() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dir", default=None, help="where the AOF files go")
    options = parser.parse_args()
    measured: dict[str, list[float]] = {"everysec": [], "fsync": []}
    with tempfile.TemporaryDirectory(dir=options.dir) as scratch:
        for number in range(options.rounds):
            for mode, appendfsync in (("everysec", "everysec"), ("fsync", "always")):
                port = free_port()
                with aof_redis(Path(scratch) / f"{mode}-{number}", port, appendfsync):
                    config = {"REDIS_URL": f"redis://127.0.0.1:{port}/0", "DURABILITY": mode,
                              "DATA_DIR": scratch, "RATE_LIMIT": ""}  # fmt: skip
                    services = build_services(load_config(config))
                    measured[mode].append(appends_per_second(services, options.seconds, number))
    best = {mode: max(values) for mode, values in measured.items()}
    print("Figure 11: appends/s in process, 4 threads, DURABILITY=fsync against everysec")
    for mode, values in measured.items():
        print(f"  {mode:9} " + ", ".join(f"{value:,.0f}" for value in values) + " appends/s")
    print(f"  fsync / everysec (best rounds): {best['fsync'] / best['everysec']:.2f}x")


if __name__ == "__main__":
    main()
