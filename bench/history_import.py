"""Figure 14: a group's history brought in. A BG Stats backup of 10,000 plays over 40 titles and
12 players, made here (``tests.support.history.random_backup``), imported (``History``, what
``POST /imports/bgstats`` and ``tabletape import --bgstats`` run), then counted and rated by the
archive job's own work (``workers.archive.archive_game``, called inline for each game in the
order the import enqueued it), in plays/s; beside it, the archive job's games/s on the same
games, same run. Then the same backup with its plays in reverse order, into another prefix, must
give the same ratings. ``python -m bench.history_import [--plays N]``.

The goal (issue 30): the whole backup counted and rated within 2 minutes on the bench machine.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from bench.redis_target import redis_target
from service import create_app
from service.imports import History, bgstats
from tests.support.history import Backup, random_backup
from workers.archive import archive_game

GOAL_SECONDS = 120.0


def _app(url: str, prefix: str, folder: Path) -> Any:
    app = create_app({
        "REDIS_URL": url, "KEY_PREFIX": prefix, "DATA_DIR": str(folder),
        "ARCHIVE_DIR": str(folder / "archive"), "RATE_LIMIT": "",
    })  # fmt: skip
    # The archive jobs are run inline below, each game once, in the order the import made them.
    app.extensions["tabletape"].records.recount = None
    return app


def bring_in(url: str, prefix: str, folder: Path, export: dict[str, Any]) -> dict[str, Any]:
    """Import ``export``, then archive (count and rate) every game made; the times of each."""
    app = _app(url, prefix, folder)
    games = app.extensions["tabletape"]
    history = History(games.records, games.store.indexes)
    began = time.perf_counter()
    export, names = bgstats.export_and_names(export)
    outcome = history.import_plays(bgstats.read_plays(export, names))
    imported = time.perf_counter()
    outcomes: dict[str, int] = {}
    for game_id in outcome.games:
        done = archive_game(game_id, prefix, str(folder / "archive"), redis_url=url)
        outcomes[done] = outcomes.get(done, 0) + 1
    archived = time.perf_counter()
    return {
        "plays": outcome.imported,
        "skipped": len(outcome.skipped),
        "import_seconds": imported - began,
        "archive_seconds": archived - imported,
        "total_seconds": archived - began,
        "archive_outcomes": outcomes,
        "ratings": every_rating(app),
    }


def every_rating(app: Any) -> dict[str, dict[str, list[float]]]:
    """Every title's ratings, by title and player: ``/titles`` and ``/ratings/{key}``, or every
    score sheet's under its game's name where titles are not rated apart."""
    client = app.test_client()
    titles = client.get("/titles")
    keys = (
        [title["key"] for title in titles.json["titles"]]
        if titles.status_code == 200
        else ["scoresheet"]
    )
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
    parser.add_argument("--titles", type=int, default=40)
    parser.add_argument("--players", type=int, default=12)
    arguments = parser.parse_args()
    backup = random_backup(arguments.plays, arguments.titles, arguments.players, seed=30)
    reverse = Backup(backup.players, backup.games, backup.plays[::-1])
    with redis_target() as target:
        forward = bring_in(target.url, target.prefix + "a:", target.workdir / "a", backup.export())
        backward = bring_in(
            target.url, target.prefix + "b:", target.workdir / "b", reverse.export()
        )
    report = {
        "plays": forward["plays"],
        "titles": arguments.titles,
        "players": arguments.players,
        "import_plays_per_s": forward["plays"] / forward["import_seconds"],
        "archive_job_games_per_s": forward["plays"] / forward["archive_seconds"],
        "imported_counted_rated_plays_per_s": forward["plays"] / forward["total_seconds"],
        "total_seconds": forward["total_seconds"],
        "within_goal": forward["total_seconds"] <= GOAL_SECONDS,
        "reverse_total_seconds": backward["total_seconds"],
        "reverse_same_ratings": same_ratings(forward["ratings"], backward["ratings"]),
        "archive_outcomes": forward["archive_outcomes"],
        "rated_titles": len(forward["ratings"]),
    }
    print(json.dumps(report, indent=1))
    print(
        f"\nFigure 14. {report['plays']:,} plays over {arguments.titles} titles and"
        f" {arguments.players} players: imported at {report['import_plays_per_s']:.0f} plays/s;"
        f" the archive job counts and rates {report['archive_job_games_per_s']:.0f} games/s;"
        f" imported, counted and rated at {report['imported_counted_rated_plays_per_s']:.0f}"
        f" plays/s: {report['total_seconds']:.1f} s in all (goal {GOAL_SECONDS:.0f} s:"
        f" {'met' if report['within_goal'] else 'missed'}). In reverse order: the same ratings:"
        f" {report['reverse_same_ratings']}."
    )


if __name__ == "__main__":
    main()
