"""Figure 14: a game night's cost against the history stored before it.

``GET /nights/{date}`` (an evening of 6 games), its page ``/nights/{date}/view`` and the first
page of ``GET /nights`` are timed through the Flask app in process, on the bench's Redis, first
with the evening alone in the store (the baseline), then with ``--history`` older plays imported
before it (BG Stats' shape, a few hours apart over the years before): an evening is read from
the listing by finish time from its end back to its start, so the ratio should stay near 1.

Run it with ``python -m bench.nights`` (about a minute with the default 5,000 plays).
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import datetime

from flask.testing import FlaskClient

from bench.redis_target import redis_target
from tests.conftest import make_app
from tests.support.history import random_backup
from tests.support.nights import FRIDAY, import_a_game_night

# The listing asks for the three evenings the store holds alone: the same page either way.
PATHS = (f"/nights/{FRIDAY}", f"/nights/{FRIDAY}/view", "/nights?limit=3")


def timed(clients: dict[str, FlaskClient], path: str, runs: int) -> dict[str, float]:
    """The median milliseconds of ``runs`` requests of ``path`` to each app, the apps taking
    turns request by request, so that the machine's other work weighs on both alike."""
    took: dict[str, list[float]] = {label: [] for label in clients}
    headers = {"Accept": "text/html"} if "view" in path else {}
    for _ in range(runs):
        for label, client in clients.items():
            began = time.perf_counter()
            answer = client.get(path, headers=headers)
            took[label].append((time.perf_counter() - began) * 1000)
            assert answer.status_code == 200, answer.data[:300]
    return {label: statistics.median(times) for label, times in took.items()}


def import_history(client: FlaskClient, plays: int) -> None:
    # Plays from 2015 on, a few hours apart: all before the evening measured (2026).
    for batch, start in enumerate(range(0, plays, 1000)):
        backup = random_backup(
            min(1000, plays - start), titles=20, names=30, seed=batch + 1,
            start=datetime(2015 + batch, 1, 1, 18, 0),
        )  # fmt: skip
        answer = client.post("/imports/bgstats", json=backup.export())
        assert answer.status_code == 200, answer.json


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--history", type=int, default=5000, help="older plays imported")
    parser.add_argument("--runs", type=int, default=30)
    options = parser.parse_args()
    with redis_target() as target:
        clients: dict[str, FlaskClient] = {}
        for label, history in (("alone", 0), ("with history", options.history)):
            app = make_app(
                target.client(), f"{target.prefix}{label[:5]}:", DATA_DIR=str(target.workdir),
                TZ="Europe/Paris", HISTORY_MAX_BYTES=1 << 30,
            )  # fmt: skip
            clients[label] = app.test_client()
            import_history(clients[label], history)
            import_a_game_night(clients[label])
        results = {path: timed(clients, path, options.runs) for path in PATHS}
        print(f"figure 14: a game night, median ms of {options.runs} requests")
        print(
            f"{'request':<28} {'alone':>8} {'+' + str(options.history) + ' plays':>14} {'ratio':>6}"
        )
        for path in PATHS:
            alone, after = results[path]["alone"], results[path]["with history"]
            print(f"{path:<28} {alone:>8.2f} {after:>14.2f} {after / alone:>6.2f}")


if __name__ == "__main__":
    main()
