"""What the browser tests and the README's screenshots share: the app under a real WSGI server in a
thread, Debian's Chromium driven by Playwright, and games recorded through the API (with the
recorder's token, or a seat's where a test says so)."""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import threading
from pathlib import Path
from types import TracebackType
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Page, expect
from werkzeug.serving import make_server

from domain import get_game
from service.games import move_words
from tests.support.api import create
from tests.support.workers import drain

# The flags Chromium needs here: no sandbox as root, no GPU, and none of its own traffic (this
# machine reaches nothing outside, and the pages must need nothing outside either).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

INSTALL_HINT = (
    "the browser tests need Debian's Chromium: apt-get install chromium "
    "(or set TABLETAPE_CHROMIUM to a Chromium executable); .ci/run installs it"
)

GAMES: dict[str, dict[str, Any]] = {
    "mada": {"players": ["Ana", "Ben", "Caro"], "options": {}},
    # Small health: a duel of random moves ends in a few dozen events.
    "madcala": {"players": ["Ana", "Ben"], "options": {"health": 3}},
    "sifaka": {"players": ["Ana", "Ben", "Caro"], "options": {}},
}


def chromium_path() -> str | None:
    """The Chromium to drive: TABLETAPE_CHROMIUM, else Debian's, else any on the PATH."""
    named = os.environ.get("TABLETAPE_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    candidates = ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser"))
    for candidate in candidates:
        if candidate and Path(candidate).exists():
            return candidate
    return None


class LiveServer:
    """The app under werkzeug's threaded WSGI server on a free port of 127.0.0.1."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client: FlaskClient = app.test_client()
        self._server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> LiveServer:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)


def auth(game: dict[str, Any], seat: int | None = None) -> dict[str, str]:
    """The recorder's Authorization header, or seat ``seat``'s."""
    token = game["token"] if seat is None else game["seat_tokens"][seat]
    return {"Authorization": f"Bearer {token}"}


def legal(client: FlaskClient, game: dict[str, Any], seat: int | None = None) -> list[Any]:
    """The moves the recorder (or seat ``seat``) may append now: GET /legal needs a token."""
    response = client.get(f"/games/{game['id']}/legal", headers=auth(game, seat))
    assert response.status_code == 200, response.json
    moves: list[dict[str, Any]] = response.json["moves"]
    return moves


def append(
    client: FlaskClient,
    game: dict[str, Any],
    move: dict[str, Any],
    seat: int | None = None,
    **headers: str,
) -> Any:
    return client.post(
        f"/games/{game['id']}/events", json=move, headers={**auth(game, seat), **headers}
    )


def new_game(client: FlaskClient, game: str, seed: int = 7) -> dict[str, Any]:
    settings = GAMES[game]
    return create(client, game=game, players=settings["players"], seed=seed,
                  options=settings["options"])  # fmt: skip


def play(client: FlaskClient, game: dict[str, Any], moves: int | None = None, seed: int = 0) -> int:
    """Append random legal moves: ``moves`` of them, or until the game is over. The version."""
    chooser = random.Random(seed)
    made = 0
    while (moves is None or made < moves) and (choices := legal(client, game)):
        response = append(client, game, chooser.choice(choices))
        assert response.status_code == 201, response.json
        made += 1
        assert made < 5000, "the game does not end"
    version: int = client.get(f"/games/{game['id']}").json["version"]
    return version


def state(
    client: FlaskClient, game: dict[str, Any], at: int, token: bool = True, seat: int | None = None
) -> Any:
    """The state after move ``at``: the recorder's, seat ``seat``'s, or (token=False) the
    public's."""
    headers = auth(game, seat) if token else {}
    response = client.get(f"/games/{game['id']}/state?at={at}", headers=headers)
    assert response.status_code == 200, response.json
    return response.json


def events(
    client: FlaskClient, game: dict[str, Any], seat: int | None = None, token: bool = False
) -> list[dict[str, Any]]:
    """GET /events: as the public reads it (the pages' server-rendered move lists), or with the
    recorder's token (token=True) or seat ``seat``'s."""
    headers = auth(game, seat) if token or seat is not None else {}
    response = client.get(f"/games/{game['id']}/events", headers=headers)
    assert response.status_code == 200, response.json
    found: list[dict[str, Any]] = response.json["events"]
    return found


def sent_words(
    client: FlaskClient, game: dict[str, Any], seat: int | None = None, token: bool = False
) -> list[str]:
    """The words GET /events sends beside its events (read as ``events`` reads them): what the
    pages show of each move, which no page words itself."""
    headers = auth(game, seat) if token or seat is not None else {}
    response = client.get(f"/games/{game['id']}/events", headers=headers)
    assert response.status_code == 200, response.json
    found: list[str] = response.json["words"]
    return found


def said(game: dict[str, Any], event: dict[str, Any]) -> str:
    """A move in its game's words, as the server's pages say it (a correction's words are every
    game's, the rest the game's own ``describe``)."""
    return move_words(get_game(game["game"]), event, game["players"], game.get("options"))


RECORDER = "#recorder"


def open_recorder(
    page: Page,
    server: LiveServer,
    game: dict[str, Any],
    seat: int | None = None,
    version: int | None = 0,
    ready_js: str | None = None,
) -> int:
    """The recorder page from the recorder's link, or from seat ``seat``'s, once it is ready
    (and ``ready_js`` holds, a game's own sign that its drawing is done) and idle at ``version``
    (any version when None); the version it shows. The one way every browser test opens it."""
    token = game["token"] if seat is None else game["seat_tokens"][seat]
    page.goto(f"{server.url}/games/{game['id']}/record#token={token}")
    expect(page.locator(RECORDER)).to_have_attribute("data-ready", "true")
    if ready_js is not None:
        page.wait_for_function(ready_js)
    if version is not None:
        settled(page, version)
    expect(page.locator(RECORDER)).to_have_attribute("data-busy", "false")
    return int(page.locator(RECORDER).get_attribute("data-version") or "0")


def settled(page: Page, version: int) -> None:
    expect(page.locator(RECORDER)).to_have_attribute("data-version", str(version))
    expect(page.locator(RECORDER)).to_have_attribute("data-busy", "false")


def finished_games(server: LiveServer, count: int = 3) -> list[dict[str, Any]]:
    """Games of Mada (Ana, Ben, Caro) played to the end and archived: counted and rated."""
    made = []
    for seed in range(count):
        game = new_game(server.client, "mada", seed=seed)
        play(server.client, game, seed=seed)
        made.append(game)
    drain(server.app)
    return made


def fits_the_width(page: Page) -> bool:
    width: bool = page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    return width


BOARD = "svg#board"


def datasets(page: Page, selector: str) -> list[dict[str, str]]:
    found: list[dict[str, str]] = page.eval_on_selector_all(
        selector, "nodes => nodes.map(node => Object.assign({}, node.dataset))"
    )
    return found


def cards_in(page: Page, selector: str) -> list[Any]:
    found: list[Any] = page.eval_on_selector_all(
        selector, "nodes => nodes.map(node => JSON.parse(node.dataset.card))"
    )
    return found


# What each game draws, against its state -------------------------------------------------------
def check_mada(page: Page, shown: dict[str, Any]) -> None:
    seats = datasets(page, f"{BOARD} g.seat")
    assert len(seats) == len(shown["hand_sizes"])
    for seat, drawn in enumerate(seats):
        inside = f'{BOARD} g.seat[data-seat="{seat}"]'
        assert json.loads(drawn["pile"]) == shown["piles"][seat]
        assert cards_in(page, f"{inside} g.pile g.card") == shown["piles"][seat]
        assert int(drawn["handSize"]) == shown["hand_sizes"][seat]
        # Every view has hands: null where this viewer may not see the hand.
        if shown["hands"][seat] is not None:
            assert json.loads(drawn["hand"]) == shown["hands"][seat]
            assert cards_in(page, f"{inside} g.hand g.card") == shown["hands"][seat]
        else:
            assert "hand" not in drawn
            hidden = page.locator(f"{inside} g.hand g.hidden-card")
            assert hidden.count() == shown["hand_sizes"][seat]
        assert int(drawn["setAsideCount"]) == shown["set_aside_counts"][seat]
        if "set_aside" in shown:
            assert json.loads(drawn["setAside"]) == shown["set_aside"][seat]
            assert cards_in(page, f"{inside} g.set-aside g.card") == shown["set_aside"][seat]
            assert int(drawn["score"]) == shown["scores"][seat]
        else:
            assert "setAside" not in drawn and "score" not in drawn
        assert (drawn.get("current") == "true") == (shown["current_player"] == seat)
    table = datasets(page, f"{BOARD} g.table")[0]
    assert json.loads(table["discard"]) == shown["discard"]
    assert int(table["drawPileSize"]) == shown["draw_pile_size"]


# At a real table, with a finger, on a small screen (the contract's Pages) ----------------------
FINGER = 44  # CSS px: WCAG 2.5.5's touch target, each way

# Every control that records, as laid out now: its box, whether it is in the open sheet, whether
# a touch can reach it (not inert); the sheet's scroll and where its question is.
AT_A_FINGER_JS = """
() => {
  const picker = document.getElementById("picker");
  const open = Boolean(picker) && !picker.hidden;
  const modal = open && (picker.matches(":modal") || picker.getAttribute("aria-modal") === "true");
  const wordsOf = (node) => (node.getAttribute("aria-label") || node.textContent || "")
    .replace(/\\s+/g, " ").trim();
  const controls = [];
  for (const node of document.querySelectorAll("[data-records-move]")) {
    if (!node.getClientRects().length) continue;
    const box = node.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    const inSheet = open && picker.contains(node);
    // Reachable by a touch: not inside an inert subtree, and (a sheet being open) inside it or
    // behind a real modal <dialog>, which makes the rest inert by itself.
    const inert = Boolean(node.closest("[inert]"))
      || (open && !inSheet && picker.matches(":modal"));
    controls.push({ words: wordsOf(node), width: box.width, height: box.height, inSheet, inert });
  }
  let sheet = null;
  if (open) {
    const title = document.getElementById("picker-title").getBoundingClientRect();
    const scrolled = [picker, ...picker.querySelectorAll("*")]
      .reduce((most, node) => Math.max(most, node.scrollTop || 0), 0);
    const question = document.getElementById("picker-title").textContent;
    sheet = { modal, scrolled, titleTop: title.top, titleBottom: title.bottom,
              height: window.innerHeight, title: question };
  }
  return { controls, sheet };
}
"""


def check_at_a_finger(page: Page) -> None:
    """What a finger meets now: every control that records (data-records-move) a touch can reach
    is at least 44x44 CSS px; an open sheet is modal (nothing behind it takes a touch) and opened
    at its top with its question in view."""
    seen = page.evaluate(AT_A_FINGER_JS)
    small = [
        f"{c['words']!r} {c['width']:.0f}x{c['height']:.0f}"
        for c in seen["controls"]
        if not c["inert"] and (c["width"] < FINGER - 0.5 or c["height"] < FINGER - 0.5)
    ]
    assert not small, f"controls that record under {FINGER}x{FINGER} px: {small}"
    sheet = seen["sheet"]
    if sheet is not None:
        assert sheet["modal"], f"a sheet that is not modal: {sheet['title']!r}"
        behind = [c["words"] for c in seen["controls"] if not c["inSheet"] and not c["inert"]]
        assert not behind, f"the page behind the sheet {sheet['title']!r} takes touches: {behind}"
        assert sheet["scrolled"] == 0, f"the sheet {sheet['title']!r} opened scrolled"
        assert sheet["titleTop"] >= 0 and sheet["titleBottom"] <= sheet["height"], (
            f"the sheet's question is out of view: {sheet}"
        )


# The record's machinery, never in the text of the pages people read while recording: the game's
# id, a hash or commitment, the seed or salt, "version N", seats counted from 0.
MACHINERY = re.compile(
    r"\bversion \d|\bseat 0\b|\bseed\b|\bsalt\b|\bcommit(ted|ment)\b|\bsha-?256\b"
    r"|\b[0-9a-f]{12,}\b",
    re.IGNORECASE,
)


def check_no_machinery(page: Page, game: dict[str, Any] | None = None) -> None:
    """The recorder's (or a seat's) page speaks of players and moves: its visible text and its
    title hold no id, hash, seed, salt, "version N" nor "seat 0" (``game``'s id, where given, nor
    any run of 12 hex digits)."""
    # The whole page's text, its header and footer too: a person reads them all.
    said = page.evaluate("() => document.title + '\\n' + document.body.innerText")
    if game is not None:
        assert game["id"] not in said, f"the game's id on the page: {said!r}"
    found = MACHINERY.findall(said)
    where = [m.group(0) for m in MACHINERY.finditer(said)]
    assert not found, f"the record's machinery on the page: {where} in {said!r}"
