"""The README's screenshots of the pages: docs/viewer-*.png, docs/recorder-phone.png and
docs/stats-mada.png, docs/leaderboard.png and docs/player-page.png.

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
            page.goto(f"{live.url}/players/Ana/view")
            page.screenshot(path=str(out / "player-page.png"), full_page=True)
            phone = browser.new_page(viewport={"width": 375, "height": 812})
            game = shown["madcala"][0]
            phone.goto(f"{live.url}/games/{game['id']}/view#token={game['token']}")
            phone.wait_for_selector("svg#board[data-at]")
            phone.screenshot(path=str(out / "viewer-phone.png"))
            # The recorder on a phone: an observed game of Mada, dealt, a few moves in.
            table = create(http, players=["Ana", "Ben"], seed=8, options={"chance": "observed"})
            play(http, table, moves=6, seed=2)
            phone.goto(f"{live.url}/games/{table['id']}/record#token={table['token']}")
            phone.wait_for_selector('#recorder[data-ready="true"][data-busy="false"]')
            phone.screenshot(path=str(out / "recorder-phone.png"), full_page=True)
            browser.close()
    finally:
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
    print(f"screenshots written to {out}/")


if __name__ == "__main__":
    main()
