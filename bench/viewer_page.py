"""Figure 13: the viewer's page of a long game, in Chromium (issue 23).

The viewer (``/games/{id}/view``, opened at the last move, and at the middle one with ``?at=``)
of a game of 5,000 moves against the same page of a game of 50 moves, the baseline, in the same
run: the page's bytes, the server's
answer (time to its first byte), DOMContentLoaded, the first contentful paint, the board drawn
(its ``data-at`` set, after ``GET /state``), and a step (``Tabletape.viewer.go`` to the move
before, until drawn). Each page is loaded ``--loads`` times, the games and the pages taking turns;
the medians are reported.

With ``--before REV`` (default ``HEAD``) the same games are also served by the code of git
revision REV, extracted with ``git archive`` into a scratch folder (nothing in the repository
changes), so the page before the change is measured in the same run. ``--before none`` skips it.
Both servers run as processes of their own (werkzeug's threaded server, the app of
``tests.conftest.make_app``) on the bench's Redis.

Run it with ``python -m bench.viewer_page`` (about a minute; it needs Chromium).
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

from bench.redis_target import redis_target
from service.store.connection import connect
from tests.browser.helpers import CHROMIUM_ARGS, chromium_path
from tests.conftest import make_app
from tests.service.test_viewer_pages import long_game

REPO = Path(__file__).resolve().parents[1]
PHONE = {"width": 390, "height": 844}
LENGTHS = (50, 5000)
OPENED = ("last", "middle")  # where the page opens: no ?at, and ?at= half the game's length

# The app under werkzeug's threaded server, as the browser tests serve it: the same lines run
# against the working tree and against an older revision's.
SERVE = """
import logging, sys, tempfile
from werkzeug.serving import make_server
from service.store.connection import connect
from tests.conftest import make_app
logging.getLogger("werkzeug").setLevel(logging.WARNING)
app = make_app(connect(sys.argv[1], decode_responses=True), sys.argv[2],
               DATA_DIR=tempfile.mkdtemp(prefix="tabletape-viewer-bench-"))
server = make_server("127.0.0.1", 0, app, threaded=True)
print(server.server_port, flush=True)
server.serve_forever()
"""

# When the board is first drawn: the viewer sets its data-at once a state is drawn.
WATCH_BOARD = """
new MutationObserver((changes, observer) => {
  if (changes.some((change) => change.target.id === "board")) {
    window.boardDrawnAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-at"] });
"""

TIMINGS = """() => {
  const navigation = performance.getEntriesByType("navigation")[0];
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  return {
    bytes: navigation.decodedBodySize,
    ttfb_ms: navigation.responseStart,
    dom_content_loaded_ms: navigation.domContentLoadedEventEnd,
    first_paint_ms: paint ? paint.startTime : null,
    board_drawn_ms: window.boardDrawnAt || null,
  };
}"""

STEP = """async () => {
  const viewer = Tabletape.viewer;
  const started = performance.now();
  await viewer.go(viewer.view.at - 1);
  return performance.now() - started;
}"""


@contextmanager
def served(tree: Path, redis_url: str, prefix: str) -> Iterator[str]:
    """The app of the code in ``tree`` on a free port of 127.0.0.1: its address."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, redis_url, prefix],
        cwd=tree,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        port = process.stdout.readline().strip()
        if not port.isdigit():
            raise RuntimeError(f"the server of {tree} did not start")
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def extracted(revision: str, into: Path) -> Path:
    """The files of git revision ``revision``, in a folder of ``into`` (git archive: read only)."""
    archive = into / "tree.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "archive", revision], cwd=REPO, stdout=out, check=True)
    tree = into / "tree"
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def load(browser: Browser, url: str) -> dict[str, Any]:
    """One load of the page, in a fresh context (nothing cached): its figures, and a step."""
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.add_init_script(WATCH_BOARD)
        page.goto(url, wait_until="load")
        page.wait_for_function("() => window.boardDrawnAt")
        figures: dict[str, Any] = page.evaluate(TIMINGS)
        figures["step_ms"] = page.evaluate(STEP)
        return figures
    finally:
        context.close()


Page = tuple[int, str]  # a game's length, and where its page opens


def run(loads: int, before: str | None) -> dict[str, dict[Page, dict[str, float]]]:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    executable = chromium_path()
    if executable is None:
        raise SystemExit("figure 13 needs Chromium (apt-get install chromium)")
    with redis_target() as target, tempfile.TemporaryDirectory() as scratch:
        app = make_app(connect(target.url, decode_responses=True), target.prefix,
                       DATA_DIR=str(target.workdir))  # fmt: skip
        games = {length: long_game(app, length)["id"] for length in LENGTHS}
        trees = {"after": REPO}
        if before:
            trees["before"] = extracted(before, Path(scratch))
        pages = [(length, opened) for opened in OPENED for length in LENGTHS]
        samples: dict[str, dict[Page, list[dict[str, Any]]]] = {
            name: {key: [] for key in pages} for name in trees
        }
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=executable, headless=True, args=CHROMIUM_ARGS
            )
            for name, tree in trees.items():
                with served(tree, target.url, target.prefix) as url:
                    for length in LENGTHS:  # warm: the server's caches, Chromium's start
                        load(browser, f"{url}/games/{games[length]}/view")
                    for _ in range(loads):
                        for length, opened in pages:
                            address = f"{url}/games/{games[length]}/view"
                            if opened == "middle":
                                address += f"?at={length // 2}"
                            samples[name][length, opened].append(load(browser, address))
            browser.close()
    return {
        name: {key: medians(found) for key, found in by_page.items()}
        for name, by_page in samples.items()
    }


def medians(samples: list[dict[str, Any]]) -> dict[str, float]:
    return {
        key: statistics.median(sample[key] for sample in samples if sample[key] is not None)
        for key in samples[0]
    }


COLUMNS = (
    ("bytes", "page bytes", "{:,.0f}"),
    ("ttfb_ms", "TTFB ms", "{:.0f}"),
    ("dom_content_loaded_ms", "DOMContentLoaded ms", "{:.0f}"),
    ("first_paint_ms", "first paint ms", "{:.0f}"),
    ("board_drawn_ms", "board drawn ms", "{:.0f}"),
    ("step_ms", "a step ms", "{:.0f}"),
)


def report(figures: dict[str, dict[Page, dict[str, float]]], loads: int) -> None:
    short, long = LENGTHS
    print(
        f"Figure 13: the viewer's page in Chromium (390x844); medians of {loads} loads; the"
        f" {short}-move game's page, opened at the same place, is the baseline"
    )
    print(
        f"{'code':7} {'opened':7} {'moves':>5}  "
        + "  ".join(f"{title:>19}" for _, title, _ in COLUMNS)
    )
    for name, by_page in figures.items():
        for opened in OPENED:
            for length in LENGTHS:
                shown = [fmt.format(by_page[length, opened][key]) for key, _, fmt in COLUMNS]
                print(
                    f"{name:7} {opened:7} {length:>5}  "
                    + "  ".join(f"{cell:>19}" for cell in shown)
                )
            ratios = [
                f"{by_page[long, opened][key] / by_page[short, opened][key]:.2f}x"
                for key, _, _ in COLUMNS
            ]
            print(
                f"{name:7} {opened:7} {'ratio':>5}  " + "  ".join(f"{cell:>19}" for cell in ratios)
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=7, help="loads of each page (default 7)")
    parser.add_argument(
        "--before",
        default="HEAD",
        help="the git revision whose page is also measured (default HEAD; none to skip)",
    )
    arguments = parser.parse_args()
    before = None if arguments.before.lower() == "none" else arguments.before
    report(run(arguments.loads, before), arguments.loads)


if __name__ == "__main__":
    main()
