"""The viewer of a long game (issue 23) on a phone's screen: the page carries the moves around the
one it opens at, and fetches the others from GET /events as the game is stepped through or the
list scrolled; stepping stays correct at any move, across what the page carried."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import BOARD, LiveServer, check_mada, said, state
from tests.support.viewer import long_game

MOVES = 5000
PHONE = {"width": 390, "height": 844}


class LongViewer:
    def __init__(self, page: Page, server: LiveServer, game: dict[str, Any]) -> None:
        self.page = page
        self.client = server.client
        self.game = game
        self.url = f"{server.url}/games/{game['id']}/view"

    def words(self, at: int) -> str:
        if at == 0:
            return "the start"
        response = self.client.get(f"/games/{self.game['id']}/events?from={at}&limit=1")
        event = response.json["events"][0]
        return said(self.game, event) + (" (voided)" if event.get("void") else "")

    def listed(self) -> list[int]:
        found: list[int] = self.page.eval_on_selector_all(
            "#moves li", "items => items.map((item) => Number(item.dataset.at))"
        )
        return found

    def expect_at(self, at: int) -> None:
        """The board, the slider, the status line and the move list all say move ``at``, and the
        list is an unbroken run of moves."""
        page = self.page
        expect(page.locator(BOARD)).to_have_attribute("data-at", str(at))
        check_mada(page, state(self.client, self.game, at, token=False))
        expect(page.locator("#slider")).to_have_value(str(at))
        expect(page.get_by_role("status")).to_have_text(f"move {at} of {MOVES}: {self.words(at)}")
        current = page.locator(f'#moves li[data-at="{at}"] a')
        expect(current).to_have_attribute("aria-current", "step")
        expect(page.locator("#moves a[aria-current]")).to_have_count(1)
        listed = self.listed()
        assert listed == list(range(listed[0], listed[-1] + 1)), "a gap in the list"
        # Scrolled into the list's sight.
        shown = page.evaluate(
            """(at) => {
              const list = document.getElementById("moves");
              const item = list.querySelector(`li[data-at="${at}"]`);
              return item.offsetTop >= list.scrollTop
                && item.offsetTop + item.offsetHeight <= list.scrollTop + list.clientHeight + 1;
            }""",
            at,
        )
        assert shown, f"move {at} is listed out of sight"

    def expect_listed_as_said(self, first: int, last: int) -> None:
        response = self.client.get(
            f"/games/{self.game['id']}/events?from={first}&limit={last - first + 1}"
        )
        worded = [said(self.game, event) for event in response.json["events"]]
        texts = [
            self.page.locator(f'#moves li[data-at="{seq}"] .text').text_content()
            for seq in range(first, last + 1)
        ]
        assert texts == worded


@pytest.fixture
def viewport() -> dict[str, int]:
    return PHONE


def test_a_long_games_viewer_opens_near_its_move_and_steps_across_what_it_carried(
    page: Page, server: LiveServer
) -> None:
    game = long_game(server.app, MOVES)
    viewer = LongViewer(page, server, game)
    fetched: list[str] = []
    page.on("request", lambda sent: fetched.append(sent.url) if "/events" in sent.url else None)

    response = page.goto(f"{viewer.url}?at=2500")
    assert response is not None and len(response.body()) < 60_000, "the page carries every move"
    viewer.expect_at(2500)
    listed = viewer.listed()
    assert listed[0] >= 2400 and listed[-1] <= 2600, "the page lists moves far from 2500"
    viewer.expect_listed_as_said(2490, 2510)
    expect(page.locator("#earlier-moves")).to_be_visible()
    expect(page.locator("#later-moves")).to_be_visible()

    # Next and Previous, with the buttons and the keys.
    page.get_by_role("button", name="Next").click()
    viewer.expect_at(2501)
    assert page.url.endswith("?at=2501")
    page.get_by_role("button", name="Previous").click()
    page.get_by_role("button", name="Previous").click()
    viewer.expect_at(2499)

    # Stepping back past the moves the page carried: they are fetched, and listed.
    for _ in range(80):
        page.keyboard.press("ArrowLeft")
    viewer.expect_at(2419)
    viewer.expect_listed_as_said(2415, 2425)
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    viewer.expect_at(2424)

    # Jumps: the ends, and the slider far from anything listed.
    page.keyboard.press("End")
    viewer.expect_at(MOVES)
    expect(page.get_by_role("button", name="Next")).to_be_disabled()
    expect(page.locator("#later-moves")).to_be_hidden()
    page.keyboard.press("Home")
    viewer.expect_at(0)
    expect(page.locator("#earlier-moves")).to_be_hidden()
    page.get_by_label("Move", exact=True).fill("1234")
    viewer.expect_at(1234)
    viewer.expect_listed_as_said(1230, 1240)
    page.keyboard.press("ArrowLeft")
    viewer.expect_at(1233)

    # Scrolled to its top, the list loads the moves before; "Later moves" those after.
    first = viewer.listed()[0]
    page.eval_on_selector("#moves", "list => { list.scrollTop = 0; }")
    expect(page.locator(f'#moves li[data-at="{first - 1}"]')).to_have_count(1)
    last = viewer.listed()[-1]
    page.locator("#later-moves a").click()
    expect(page.locator(f'#moves li[data-at="{last + 1}"]')).to_have_count(1)
    viewer.expect_listed_as_said(last - 2, last + 2)
    # A move picked from the list.
    page.locator(f'#moves li[data-at="{last + 1}"] a').click()
    viewer.expect_at(last + 1)

    # A deep link far into the game.
    page.goto(f"{viewer.url}?at=4321")
    viewer.expect_at(4321)
    page.keyboard.press("ArrowRight")
    viewer.expect_at(4322)

    # Past the end: the last move, and the note that says so.
    page.goto(f"{viewer.url}?at=99999")
    viewer.expect_at(MOVES)
    expect(page.locator("#at-problem")).to_contain_text(f"0 (the start) to {MOVES}")

    # The moves come a hundred at a time, never the whole game.
    assert fetched, "no move fetched"
    assert all("limit=100" in url for url in fetched), fetched
    assert len(fetched) < 20, fetched
