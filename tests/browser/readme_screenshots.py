"""The README's screenshots of the pages: docs/viewer-*.png, docs/recorder-<game>-phone.png (the
recorder's first screen on a 390x844 phone, for each game, the score sheet's pad too),
docs/recorder-picker-phone.png, docs/links-phone.png, docs/stats-mada.png, docs/title-phone.png (a
title's page on a 390x844 phone), docs/leaderboard.png, docs/player-page.png and
docs/night-phone.png (a game night's page on a phone).

    python -m tests.browser.readme_screenshots [--out docs]

Records a few games (fixed seeds) in a Redis of its own (REDIS_URL if set, else an embedded one
in a temporary folder, under a key prefix of its own, removed afterwards), serves the app, and
has Chromium take the pictures.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import uuid
from pathlib import Path
from typing import Any

import redis
from rq import SimpleWorker

from service.store.embedded import EmbeddedRedis
from tests.browser.helpers import (
    CHROMIUM_ARGS,
    INSTALL_HINT,
    LiveServer,
    chromium_path,
    create,
    play,
)
from tests.conftest import make_app
from tests.support.nights import FRIDAY, import_a_game_night


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs"))
    out: Path = parser.parse_args().out
    executable = chromium_path()
    if executable is None:
        raise SystemExit(INSTALL_HINT)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        url = os.environ.get("REDIS_URL")
        if url:
            shoot(redis.Redis.from_url(url, decode_responses=True), Path(folder), out, executable)
            return
        with EmbeddedRedis(Path(folder) / "redis") as embedded:
            client = redis.Redis.from_url(embedded, decode_responses=True)
            shoot(client, Path(folder), out, executable)


def shoot(client: redis.Redis, folder: Path, out: Path, executable: str) -> None:
    from playwright.sync_api import sync_playwright

    prefix = f"screenshots-{uuid.uuid4().hex[:8]}:"
    app = make_app(client, prefix, DATA_DIR=str(folder), ARCHIVE_DIR=str(folder / "archive"))
    try:
        with LiveServer(app) as live, sync_playwright() as playwright:
            http = live.client
            # Finished games for the statistics.
            for seed in range(12):
                game = create(http, players=["Ana", "Ben", "Caro"], seed=seed)
                play(http, game, seed=seed)
            queue = app.extensions["tabletape.queue"].queue
            SimpleWorker([queue], connection=queue.connection).work(burst=True)
            # Games under way, seen by their recorder (the token shows the hands).
            duel = {"game": "madcala", "players": ["Ana", "Ben"], "options": {"health": 12}}
            shown = {
                "mada": (create(http, players=["Ana", "Ben", "Caro"], seed=5), 31),
                "madcala": (create(http, seed=4, **duel), 14),
                "sifaka": (
                    create(http, game="sifaka", players=["Ana", "Ben", "Caro", "Dan"], seed=3),
                    40,
                ),
            }
            for game, moves in shown.values():
                play(http, game, moves=moves, seed=1)
            browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            for name, (game, _) in shown.items():
                page.goto(f"{live.url}/games/{game['id']}/view#token={game['token']}")
                page.wait_for_selector("svg#board[data-at]")
                page.screenshot(path=str(out / f"viewer-{name}.png"))
            page.goto(f"{live.url}/stats/mada/view")
            page.screenshot(path=str(out / "stats-mada.png"), full_page=True)
            page.goto(f"{live.url}/ratings/mada/view")
            page.locator("main").screenshot(path=str(out / "leaderboard.png"))
            # A title's page on a phone: its first screen, the leaders and the recent games.
            title_page = browser.new_page(viewport={"width": 390, "height": 844})
            title_page.goto(f"{live.url}/stats/mada/view")
            title_page.screenshot(path=str(out / "title-phone.png"))
            page.goto(f"{live.url}/players/Ana/view")
            page.screenshot(path=str(out / "player-page.png"), full_page=True)
            phone = browser.new_page(viewport={"width": 375, "height": 812})
            game = shown["madcala"][0]
            phone.goto(f"{live.url}/games/{game['id']}/view#token={game['token']}")
            phone.wait_for_selector("svg#board[data-at]")
            phone.screenshot(path=str(out / "viewer-phone.png"))
            # The recorder at the table, on a phone: the first screen, as it opens, of an observed
            # game of each game a few moves in; then a picker of what was drawn.
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            tables = {
                "mada": (create(http, players=["Ana", "Ben"], seed=8,
                                options={"chance": "observed"}), 8),
                "madcala": (create(http, game="madcala", players=["Ana", "Ben"], seed=4,
                                   options={"chance": "observed", "health": 12}), 9),
                "sifaka": (create(http, game="sifaka", players=["Ana", "Ben", "Caro"], seed=5,
                                  options={"chance": "observed"}), 10),
            }  # fmt: skip
            for name, (table, moves) in tables.items():
                play(http, table, moves=moves, seed=2)
                phone.goto(f"{live.url}/games/{table['id']}/record#token={table['token']}")
                phone.wait_for_selector('#recorder[data-ready="true"][data-busy="false"]')
                phone.screenshot(path=str(out / f"recorder-{name}-phone.png"))
            # Sifaka's draw after a move: the unseen Terrain cards as pictures.
            table = tables["sifaka"][0]
            phone.goto(f"{live.url}/games/{table['id']}/record#token={table['token']}")
            phone.wait_for_selector('#recorder[data-ready="true"][data-busy="false"]')
            for _ in range(6):
                if phone.locator("#picker").is_visible():
                    break
                phone.locator(
                    "#board [data-records-move], #actions [data-records-move]"
                ).first.click()
                phone.wait_for_timeout(400)
            phone.screenshot(path=str(out / "recorder-picker-phone.png"))
            # The links again, with their QR codes.
            phone.goto(f"{live.url}/games/{table['id']}/share#token={table['token']}")
            phone.wait_for_selector("#links-page img.qr")
            phone.wait_for_timeout(500)
            phone.screenshot(path=str(out / "links-phone.png"))
            # Any other game: a score sheet in teams, three rounds and a player's points in, on
            # its score pad (a round being typed) and in its viewer with the plot of the totals.
            sheet = create(http, game="scoresheet", players=["Ana", "Ben", "Caro", "Dan"],
                           options={"title": "Azul", "teams": [[0, 2], [1, 3]],
                                    "team_names": ["Red", "Blue"]})  # fmt: skip
            for move in (
                {"type": "round", "points": [12, 4.5, -3, 7]},
                {"type": "round", "points": [0.125, None, 10, 3]},
                {"type": "round", "points": [5, 6, 7, 8]},
                {"type": "score", "player": 1, "points": 20},
            ):
                http.post(f"/games/{sheet['id']}/events", json=move,
                          headers={"Authorization": f"Bearer {sheet['token']}"})  # fmt: skip
            phone.goto(f"{live.url}/games/{sheet['id']}/record#token={sheet['token']}")
            phone.wait_for_selector(".pad-sheet tr.round")
            phone.locator('.pad-input[data-seat="0"]').fill("8")
            phone.screenshot(path=str(out / "recorder-scoresheet-phone.png"))
            page.goto(f"{live.url}/games/{sheet['id']}/view")
            page.wait_for_selector("#board .plot-line")
            page.screenshot(path=str(out / "viewer-scoresheet.png"))
            shoot_night(live, phone, out)
            browser.close()
    finally:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
    print(f"screenshots written to {out}/")


def shoot_night(live: LiveServer, phone: Any, out: Path) -> None:
    """docs/night-phone.png: a game night's page as a group opens it the next day on a phone
    (tests/support/nights.py's evening, in Paris time)."""
    live.app.config["TZ"] = "Europe/Paris"
    import_a_game_night(live.client)
    phone.goto(f"{live.url}/nights/{FRIDAY}/view")
    phone.screenshot(path=str(out / "night-phone.png"), full_page=True)


if __name__ == "__main__":
    main()
