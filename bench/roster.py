"""Figure 15: one person, one name. A BG Stats backup of N plays (default 2,000 and 10,000) over
40 titles and 12 players, one of whom also plays a tenth of their plays as "Player 01 online",
imported through the app in process and counted by the archive queue (rq's SimpleWorker, here);
then ``POST /players/Player 01 online/same-as`` (its check reads the games of the side with fewer)
and the recount job that follows it (every figure and rating counted again from the archive), in
seconds and games/s. Baseline, the same run: the archive jobs that counted the same games the
first time. ``python -m bench.roster [--plays N ...]``.

What it shows: the request costs the join's check alone (milliseconds, whatever the history), and
the figures follow within the recount's seconds, a rebuild of the archive, so its time grows
with the history: about the first count's.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from rq import SimpleWorker

from bench.redis_target import redis_target
from service import create_app
from tests.support.history import random_backup

ONLINE = "Player 01 online"


def history(plays: int) -> dict[str, Any]:
    """The backup, Player 01 as ``ONLINE`` in every tenth play they sit at."""
    export = random_backup(plays, titles=40, names=12, seed=15).export()
    first = export["players"][0]["id"]
    online = len(export["players"]) + 1
    export["players"].append({**export["players"][0], "id": online, "uuid": f"online-{online}",
                              "name": ONLINE})  # fmt: skip
    theirs = [play for play in export["plays"] if any(
        score["playerRefId"] == first for score in play["playerScores"])]  # fmt: skip
    for play in theirs[::10]:
        for score in play["playerScores"]:
            if score["playerRefId"] == first:
                score["playerRefId"] = online
    return export


def drain(app: Any) -> float:
    """Run the archive queue to empty; its seconds."""
    queue = app.extensions["tabletape.queue"].queue
    start = time.perf_counter()
    SimpleWorker([queue], connection=queue.connection).work(burst=True)
    return time.perf_counter() - start


def one_run(url: str, prefix: str, folder: Path, plays: int) -> dict[str, Any]:
    app = create_app({
        "REDIS_URL": url, "KEY_PREFIX": prefix, "DATA_DIR": str(folder),
        "ARCHIVE_DIR": str(folder / "archive"), "RATE_LIMIT": "",
    })  # fmt: skip
    client = app.test_client()
    imported = client.post("/imports/bgstats", json=history(plays))
    assert imported.status_code == 200, imported.json
    first_count = drain(app)
    start = time.perf_counter()
    joined = client.post(f"/players/{ONLINE}/same-as", json={"player": "Player 01"})
    request_ms = (time.perf_counter() - start) * 1000
    assert joined.status_code == 200, joined.json
    recount = drain(app)
    games = imported.json["imported"]
    stats = client.get("/players/Player 01/stats").json
    assert stats["names"] == ["Player 01", ONLINE], stats
    return {
        "plays": games,
        "request_ms": round(request_ms, 1),
        "first_count_s": round(first_count, 2),
        "recount_s": round(recount, 2),
        "recount_games_per_s": round(games / recount, 1),
        "recount_over_first_count": round(recount / first_count, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, nargs="+", default=[2000, 10000])
    arguments = parser.parse_args()
    with redis_target() as target:
        for number, plays in enumerate(arguments.plays):
            folder = target.workdir / f"run{number}"
            folder.mkdir()
            print(one_run(target.url, f"{target.prefix}{number}:", folder, plays), flush=True)


if __name__ == "__main__":
    main()
