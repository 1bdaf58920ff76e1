"""What people read afterwards, on a 390x844 phone and on a laptop, in a real Chromium (api.md,
"Pages: what people read afterwards"): every people's page of a whole evening (a rule game to its
end, score sheets of every kind, an import) has every control at a finger's size (44x44 CSS px; a
link inside a sentence 24 px high), no sideways scroll, plot text of 12 CSS px or more, no word of
the record's machinery; the Statistics menu opens within the screen, every item readable; results
are said in words."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.evening import Evening, an_evening
from tests.browser.helpers import MACHINERY, LiveServer, open_recorder

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
FINGER = 44
IN_A_SENTENCE = 24
PLOT_TEXT = 12

# Beyond helpers.MACHINERY (ids, hashes, seeds, "version N", "seat 0"): the words a person should
# not meet on the pages they read afterwards.
MORE_MACHINERY = re.compile(
    r"\barchived\b|\btoken\b|#token|\bcatalog\b|\bid\b|won by\b|\bscore 0\b", re.IGNORECASE
)

# Every control the page shows: its size, and whether it is a link inside a sentence (its block
# holds words beside it).
CONTROLS_JS = """
() => {
  const shown = (node) => node.getClientRects().length > 0 && !node.closest("[hidden]")
    && !node.closest("details:not([open]) > :not(summary)")
    && getComputedStyle(node).visibility !== "hidden";
  const block = (node) => {
    let up = node.parentElement;
    while (up && /^inline/.test(getComputedStyle(up).display)) up = up.parentElement;
    return up;
  };
  const found = [];
  const nodes = document.querySelectorAll(
    "a[href], button, summary, input:not([type=hidden]), select, textarea");
  for (const node of nodes) {
    if (!shown(node) || node.closest("svg") || node.classList.contains("skip-link")) continue;
    // A box to tick is touched through its label.
    const touched = /^(radio|checkbox)$/.test(node.type) ? node.closest("label") || node : node;
    const box = touched.getBoundingClientRect();
    if (!box.width && !box.height) continue;
    const words = (node.textContent || node.value || node.name || "").trim().replace(/\\s+/g, " ");
    const around = (block(node).textContent || "").trim().replace(/\\s+/g, " ");
    found.push({
      words: words.slice(0, 40), tag: node.tagName, width: box.width, height: box.height,
      inSentence: node.tagName === "A" && around.length > words.length + 1,
    });
  }
  return found;
}
"""

# The size, in CSS px, each plot's text is shown at.
PLOT_TEXT_JS = """
() => [...document.querySelectorAll("svg.plot")].filter((svg) => svg.getClientRects().length)
  .flatMap((svg) => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll("text")].map((text) => ({
      words: text.textContent, size: parseFloat(getComputedStyle(text).fontSize) * scale,
    }));
  })
"""

# The open Statistics menu: each item's box against the screen, and whether its words fit it.
MENU_JS = """
() => [...document.querySelectorAll(".site-header .menu a")].map((link) => {
  const box = link.getBoundingClientRect();
  return { words: link.textContent.trim(), left: box.left, right: box.right, top: box.top,
           bottom: box.bottom, width: box.width, height: box.height,
           cut: link.scrollWidth > link.clientWidth + 1, screen: window.innerWidth };
})
"""


def people_pages(evening: Evening) -> list[str]:
    games = evening.games
    keys = ["mada", "azul", "codenames", "pandemic", "hearts", "hanabi", "carcassonne"]
    return [
        "/",
        "/new",
        "/import",
        *(f"/stats/{key}/view" for key in keys),
        "/ratings/azul/view",
        "/ratings/mada/view",
        *(f"/players/{name}/view" for name in ("Alice", "Bruno", "Dev")),
        *(f"/games/{game['id']}/view" for game in games.values() if "id" in game),
    ]


def check_the_page(page: Page, path: str) -> None:
    controls: list[dict[str, Any]] = page.evaluate(CONTROLS_JS)
    small = [
        f"{c['tag']} {c['words']!r} {c['width']:.0f}x{c['height']:.0f}"
        for c in controls
        if (c["inSentence"] and c["height"] < IN_A_SENTENCE - 0.5)
        or (not c["inSentence"] and (c["width"] < FINGER - 0.5 or c["height"] < FINGER - 0.5))
    ]
    assert not small, f"{path}: controls under a finger's size: {small}"
    sideways = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert sideways <= 0, f"{path}: a sideways scroll of {sideways} px"
    tiny = [t for t in page.evaluate(PLOT_TEXT_JS) if t["size"] < PLOT_TEXT - 0.05]
    assert not tiny, f"{path}: plot text under {PLOT_TEXT} px: {tiny[:5]}"
    said = page.evaluate("() => document.title + '\\n' + document.body.innerText")
    found = [m.group(0) for m in MACHINERY.finditer(said)]
    found += [m.group(0) for m in MORE_MACHINERY.finditer(said)]
    assert not found, f"{path}: the record's machinery on the page: {found}"


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_every_peoples_page_is_read_by_touch(
    page: Page, server: LiveServer, viewport: dict[str, int]
) -> None:
    evening = an_evening(server)
    for path in people_pages(evening):
        page.goto(f"{server.url}{path}")
        expect(page.locator("main")).to_be_visible()
        check_the_page(page, path)
    # The score pad and its links page, from the recorder's link: the same rules.
    pad = evening.games["seven-wonders"]
    open_recorder(page, server, pad, version=None)
    check_the_page(page, "the score pad")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_statistics_menu_opens_within_the_screen(page: Page, server: LiveServer) -> None:
    an_evening(server)
    page.goto(f"{server.url}/")
    menu = page.locator(".site-header details.menu")
    menu.locator("summary").click()
    expect(menu).to_have_attribute("open", "")
    items = page.evaluate(MENU_JS)
    # Every title of the evening is in it, the imported one too (and on a phone, the site's
    # other links: the header is one row).
    words = [item["words"] for item in items if item["height"]]
    assert {"Azul statistics", "Carcassonne statistics", "Mada leaderboard"} <= set(words)
    assert ("Recent games" in words) == (page.viewport_size == PHONE)
    items = [item for item in items if item["height"]]
    for item in items:
        menu.get_by_role("link", name=item["words"], exact=True).first.scroll_into_view_if_needed()
    items = [item for item in page.evaluate(MENU_JS) if item["height"]]
    outside = [i["words"] for i in items if i["left"] < 0 or i["right"] > i["screen"] or i["cut"]]
    assert not outside, f"menu items off the screen or cut: {outside}"
    small = [i["words"] for i in items if i["height"] < FINGER - 0.5 or i["width"] < FINGER]
    assert not small, f"menu items under a finger's size: {small}"
    page.get_by_role("link", name="Azul statistics", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Azul")


@pytest.mark.parametrize("viewport", [PHONE])
def test_results_are_said_in_words(page: Page, server: LiveServer) -> None:
    evening = an_evening(server)
    games = evening.games
    page.goto(f"{server.url}/")
    listed = page.locator("table.games tbody")
    for words in ("Chloé won", "Alice and Bruno shared the win", "the table lost",
                  "the table won", "no winner", "Blue won (Bruno and Dev)"):  # fmt: skip
        expect(listed.get_by_text(words, exact=True).first).to_be_visible()
    # A finished game is "finished", never "archived".
    expect(listed.get_by_text("archived", exact=True)).to_have_count(0)

    page.goto(f"{server.url}/games/{games['pandemic-lost']['id']}/view")
    expect(page.locator("#result")).to_have_text("Result: the table lost.")
    page.goto(f"{server.url}/games/{games['azul']['id']}/view")
    expect(page.locator("#result")).to_have_text(
        "Result: Chloé won; scores Alice 32, Bruno 30.5, Chloé 36.5, Dev 3."
    )
    page.goto(f"{server.url}/games/{games['no-winner']['id']}/view")
    expect(page.locator("#result")).to_have_text("Result: no winner.")
    # A named team wins by its name.
    page.goto(f"{server.url}/games/{games['codenames']['id']}/view")
    expect(page.locator("#result")).to_have_text("Result: Blue won (Bruno and Dev).")

    # A player's page: a game without points says no score; a title without points has a dash
    # for a mean score, never 0.
    page.goto(f"{server.url}/players/Bruno/view")
    hanabi = page.locator(f'tr[data-game-id="{games["no-winner"]["id"]}"] .result')
    expect(hanabi).to_have_text("no winner")
    expect(page.locator('table.per-game tr[data-game="pandemic"] td').last).to_have_text("—")

    # A title without points: no score chart, no mean score.
    page.goto(f"{server.url}/stats/codenames/view")
    expect(page.locator('svg[data-plot="scores"]')).to_have_count(0)
    expect(page.get_by_text("Mean score")).to_have_count(0)
    # A title with points has them.
    page.goto(f"{server.url}/stats/azul/view")
    expect(page.locator('svg[data-plot="scores"]')).to_have_count(1)


@pytest.mark.parametrize("viewport", [PHONE])
def test_a_titles_page_opens_on_its_leaderboard_and_recent_games(
    page: Page, server: LiveServer
) -> None:
    evening = an_evening(server)
    page.goto(f"{server.url}/stats/azul/view")
    first_screen = page.viewport_size["height"] if page.viewport_size else 844
    leaders = page.locator("ol.leaders li")
    expect(leaders).to_have_count(4)
    expect(leaders.first).to_have_attribute("data-player", "Alice")
    recent = page.locator("ul.recent-games li")
    expect(recent).to_have_count(2)
    expect(recent.first).to_have_attribute("data-game-id", evening.games["azul-tie"]["id"])
    box = recent.first.bounding_box()
    assert box is not None and box["y"] + box["height"] <= first_screen, "recent games below"
    # The filters wait behind one control, closed at first.
    expect(page.locator("#filter-players")).to_be_hidden()
    page.locator("#filters > summary").click()
    expect(page.locator("#filter-players")).to_be_visible()

    # A player's page opens on their titles, then their results.
    page.goto(f"{server.url}/players/Alice/view")
    expect(page.locator("#filter-players")).to_be_hidden()
    titles = page.locator("table.per-game")
    expect(titles.locator("tbody tr")).to_have_count(5)
    box = titles.bounding_box()
    assert box is not None and box["y"] < first_screen
    headings = page.locator("main h2").all_text_contents()
    assert headings.index("Their games") < headings.index("Results") < headings.index("Ratings")


@pytest.mark.parametrize("viewport", [PHONE])
def test_new_keeps_the_seed_and_catalog_behind_more_options(page: Page, server: LiveServer) -> None:
    page.goto(f"{server.url}/new")
    # No "Seat 0" before names are typed: players are counted from 1.
    page.get_by_label("Another game").check()
    teams = page.locator("#field-teams .player-row label")
    expect(teams.first).to_have_text("Player 1")
    more = page.locator("details#more-options")
    # A score sheet takes neither: no "More options" at all.
    expect(more).to_be_hidden()
    page.get_by_label("Mada").check()
    expect(more).to_be_visible()
    expect(more).not_to_have_attribute("open", "")
    expect(page.locator("#seed")).to_be_hidden()
    expect(page.locator("#catalog")).to_be_hidden()
    more.locator("summary").click()
    expect(page.locator("#seed")).to_be_visible()
    expect(page.locator("#catalog")).to_be_visible()
