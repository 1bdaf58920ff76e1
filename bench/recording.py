"""Figure 10: recording a whole game at the table, in Chromium on a phone's screen (390x844).

For each game and chance mode, one whole game is recorded on the recorder's page by touches
alone: a driver touches, at random (seeded), one of the controls that record a move
(``[data-records-move]``: a card, a plate, a cell, a button under the board, a picture in the
picker, a confirmation), and goes on until the game is over. It counts the touches and the seconds
each recorded move took, from the first touch to the page showing the next version.

Measured twice in the same run, on the same games (same seeds, same driver seed):
- **touch**: the page as it opens, each game's own drawing laying out the moves;
- **list** (the baseline): "Moves as a list", the page's list of every legal move as text buttons,
  grouped by type, with a picker of values for what chance brought: how every game was recorded
  before recording by touch.

Run it with ``python -m bench.recording`` (about two minutes); it needs Chromium. A random driver
is not a person: it never hesitates and never mis-taps, so the seconds are the page's own (a
round trip and a redraw per move), and the touches are the decisions each move asks for.
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import time
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page, sync_playwright

from bench.redis_target import redis_target
from service.store.connection import connect
from tests.browser.helpers import CHROMIUM_ARGS, LiveServer, chromium_path
from tests.conftest import make_app
from tests.service.test_api import create

PHONE = {"width": 390, "height": 844}
MOVES_AS_A_LIST = "tabletape.moves-as-list"
# The games recorded: every shipped game in both chance modes, small enough to end in a minute.
GAMES: list[tuple[str, list[str], dict[str, Any]]] = [
    ("mada", ["Ana", "Ben"], {"chance": "seeded"}),
    ("mada", ["Ana", "Ben"], {"chance": "observed"}),
    ("madcala", ["Ana", "Ben"], {"chance": "seeded", "health": 3}),
    ("madcala", ["Ana", "Ben"], {"chance": "observed", "health": 3}),
    ("sifaka", ["Ana", "Ben"], {"chance": "seeded"}),
    ("sifaka", ["Ana", "Ben"], {"chance": "observed"}),
]
MAX_TOUCHES = 3000

# The controls that record, where a person's thumb would look for them: the picker's sheet when
# it is open, else the drawing, the buttons under it and the list.
CONTROLS = """() => {
  const picker = document.getElementById("picker");
  const scope = picker && !picker.hidden ? "#picker" : "#board, #actions, #legal";
  const found = [...document.querySelectorAll(`:is(${scope}) [data-records-move]`)];
  const usable = found.filter((node) => !node.disabled
    && node.getAttribute("aria-disabled") !== "true" && node.getClientRects().length);
  document.querySelectorAll("[data-bench]").forEach((node) => node.removeAttribute("data-bench"));
  usable.forEach((node, index) => node.setAttribute("data-bench", String(index)));
  return usable.length;
}"""


@dataclass
class Recorded:
    game: str
    chance: str
    mode: str
    moves: int
    touches: int
    seconds_per_move: list[float]
    # Touches whose control was below the first screen: a scroll before the touch.
    scrolled: int = 0

    @property
    def touches_per_move(self) -> float:
        return self.touches / self.moves if self.moves else float("nan")


def version(page: Page) -> int:
    return int(page.locator("#recorder").get_attribute("data-version") or "0")


def settle(page: Page) -> None:
    page.wait_for_function(
        "() => { const r = document.getElementById('recorder');"
        " return r.dataset.ready === 'true' && r.dataset.busy === 'false'; }"
    )


def record_a_game(
    page: Page, url: str, game: dict[str, Any], mode: str, chooser: random.Random
) -> Recorded:
    listed = "1" if mode == "list" else "0"
    page.add_init_script(
        f"try {{ window.localStorage.setItem({MOVES_AS_A_LIST!r}, {listed!r}); }} catch (e) {{}}"
    )
    page.goto(f"{url}/games/{game['id']}/record#token={game['token']}")
    settle(page)
    touches = scrolled = 0
    seconds: list[float] = []
    began, at = time.perf_counter(), version(page)
    while page.locator("#recorder").get_attribute("data-finished") != "true":
        count = page.evaluate(CONTROLS)
        if not count:
            settle(page)
            if not page.evaluate(CONTROLS):
                break
            continue
        control = page.locator(f'[data-bench="{chooser.randrange(count)}"]')
        box = control.bounding_box()
        scroll = page.evaluate("() => window.scrollY")
        if box is not None and box["y"] + scroll + box["height"] > PHONE["height"]:
            scrolled += 1
        control.click()
        touches += 1
        settle(page)
        now = version(page)
        if now != at:
            seconds.append(time.perf_counter() - began)
            began, at = time.perf_counter(), now
        if touches >= MAX_TOUCHES:
            raise RuntimeError(f"{game['game']} did not end in {MAX_TOUCHES} touches")
    return Recorded(game["game"], game["options"]["chance"], mode, at, touches, seconds, scrolled)


def run(seed: int) -> list[Recorded]:
    # The server's request log is not the report.
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    executable = chromium_path()
    if executable is None:
        raise SystemExit("figure 10 needs Chromium (apt-get install chromium)")
    results = []
    # The bench's Redis (REDIS_URL's, else an embedded one); its keys are removed at the end.
    with redis_target() as target:
        client = connect(target.url, decode_responses=True)
        app = make_app(client, target.prefix, DATA_DIR=str(target.workdir))
        with LiveServer(app) as server, sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=executable, headless=True, args=CHROMIUM_ARGS
            )
            for name, players, options in GAMES:
                for mode in ("list", "touch"):
                    made = create(server.client, game=name, players=players, seed=seed,
                                  options=options)  # fmt: skip
                    context = browser.new_context(viewport=PHONE)
                    page = context.new_page()
                    results.append(record_a_game(page, server.url, made, mode, random.Random(seed)))
                    context.close()
            browser.close()
    return results


def report(results: list[Recorded]) -> None:
    print(
        "Figure 10: a whole game recorded on a 390x844 phone, touch / list (same games, same run)"
    )
    below_header = "touches below the first screen"
    print(
        f"{'game':9} {'chance':9} {'moves':>5}  {'touches/move':>13}  {below_header:>27}"
        f"  {'s/move (median)':>21}"
    )
    by_key = {(r.game, r.chance, r.mode): r for r in results}
    for name, _, options in GAMES:
        chance = options["chance"]
        listed, touched = by_key[(name, chance, "list")], by_key[(name, chance, "touch")]
        tpm = f"{touched.touches_per_move:.2f} / {listed.touches_per_move:.2f}"
        spm_touch = statistics.median(touched.seconds_per_move or [float("nan")])
        spm_list = statistics.median(listed.seconds_per_move or [float("nan")])
        below = f"{touched.scrolled / touched.touches:.0%} / {listed.scrolled / listed.touches:.0%}"
        print(
            f"{name:9} {chance:9} {touched.moves:>5}  {tpm:>13}  {below:>27}  "
            f"{spm_touch:.2f} / {spm_list:.2f} s ({spm_touch / spm_list:.2f}x)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7, help="the games' seeds and the driver's")
    report(run(parser.parse_args().seed))


if __name__ == "__main__":
    main()
