"""A game night's page on a 390x844 phone and on a laptop, in Chromium (api.md, "Game nights"
and "Pages: what people read afterwards"): every game in the order played with its result in
words, who won most, a QR code drawn and the link to share; every control at least 44x44 CSS px,
no sideways scroll, no machinery words; a game's link opens its viewer, and the front page leads
to the latest evening."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import LiveServer, check_no_machinery, fits_the_width
from tests.support.nights import FRIDAY, SATURDAY, import_a_game_night

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
FINGER = 44

# Every control in the page's content (the site's header is the header's own test): its size.
CONTROLS_JS = """
() => [...document.querySelectorAll('main a, main button, main input, main summary, main select')]
  .filter(node => node.offsetParent !== null)
  .map(node => { const box = node.getBoundingClientRect();
                 return { words: (node.innerText || node.value || '').trim().slice(0, 40),
                          width: box.width, height: box.height }; })
"""


@pytest.fixture(params=[PHONE, LAPTOP], ids=["phone", "laptop"])
def viewport(request: pytest.FixtureRequest) -> dict[str, int]:
    size: dict[str, int] = request.param
    return size


def small_controls(page: Page) -> list[str]:
    seen: list[dict[str, Any]] = page.evaluate(CONTROLS_JS)
    return [
        f"{c['words']!r} {c['width']:.0f}x{c['height']:.0f}"
        for c in seen
        if c["width"] < FINGER - 0.5 or c["height"] < FINGER - 0.5
    ]


def test_a_game_night_reads_on_a_phone(page: Page, server: LiveServer) -> None:
    server.app.config["TZ"] = "Europe/Paris"
    import_a_game_night(server.client)
    page.goto(server.url)
    page.get_by_role("link", name="The last game night").click()
    expect(page).to_have_url(f"{server.url}/nights/{SATURDAY}/view")
    page.goto(f"{server.url}/nights/{FRIDAY}/view")
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Game night of Friday 27 November 2026"
    )
    results = page.locator(".night-game-result")
    expect(results).to_have_text(
        ["Chloé won", "Alice and Bruno shared the win", "Chloé won", "The table lost",
         "Chloé won", "No winner"]
    )  # fmt: skip
    expect(page.locator(".night-most")).to_have_text("Chloé won most: 3 of the 6 games.")
    qr = page.locator(".night-share img.qr")
    expect(qr).to_be_visible()
    assert qr.evaluate("image => image.complete && image.naturalWidth > 0")
    link = page.locator("#night-link")
    expect(link).to_have_value(f"{server.url}/nights/{FRIDAY}/view")
    assert fits_the_width(page), "the evening's page scrolls sideways on a phone"
    assert small_controls(page) == []
    check_no_machinery(page)
    # Plot-free, but text is never below 12 px either.
    smallest = page.evaluate(
        "() => Math.min(...[...document.querySelectorAll('main *')].filter(n => n.innerText)"
        ".map(n => parseFloat(getComputedStyle(n).fontSize)))"
    )
    assert smallest >= 12
    pandemic = server.client.get(f"/nights/{FRIDAY}").json["games"][3]
    page.locator(".night-game-link").nth(3).click()
    expect(page).to_have_url(f"{server.url}/games/{pandemic['id']}/view")
    expect(page.locator("h1")).to_contain_text("Pandemic")


def test_the_evenings_list_reads_on_a_phone(page: Page, server: LiveServer) -> None:
    server.app.config["TZ"] = "Europe/Paris"
    import_a_game_night(server.client)
    page.goto(f"{server.url}/nights/view")
    links = page.locator(".night-link")
    expect(links).to_have_count(3)
    assert fits_the_width(page)
    assert small_controls(page) == []
    check_no_machinery(page)
    links.nth(1).click()
    expect(page).to_have_url(f"{server.url}/nights/{FRIDAY}/view")
