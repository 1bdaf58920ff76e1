"""The statistics pages in a real Chromium: from a player's name in the viewer to their page, its
rating plot, the leaderboard, and both at a phone's width."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import LiveServer, finished_games, fits_the_width


def test_a_name_in_the_viewer_leads_to_the_players_page_and_its_rating_plot(
    page: Page, server: LiveServer
) -> None:
    games = finished_games(server)
    ratings: dict[str, Any] = server.client.get("/players/Ben/stats").json["ratings"]
    assert ratings["mada"]["games"] == len(games)

    page.goto(f"{server.url}/games/{games[-1]['id']}/view")
    page.locator(".players").get_by_role("link", name="Ben", exact=True).click()
    expect(page).to_have_url(f"{server.url}/players/Ben/view")
    expect(page.get_by_role("heading", level=1)).to_have_text("Ben")
    plot = page.get_by_role("img", name="Mada: Ben's rating after each game")
    expect(plot).to_be_visible()
    expect(plot.locator("circle.point")).to_have_count(len(games))
    box = plot.bounding_box()
    assert box is not None and box["width"] > 200 and box["height"] > 80
    expect(page.locator("table.versus tbody tr")).to_have_count(2)  # Ana and Caro

    # The filter form, behind one control closed at first, puts the filters in the address; the
    # leaderboard links back to players.
    expect(page.locator("#filter-players")).to_be_hidden()
    page.locator("#filters > summary").click()
    page.select_option("#filter-players", "3")
    page.get_by_role("button", name="Apply").click()
    expect(page).to_have_url(f"{server.url}/players/Ben/view?players=3&since=&until=")
    expect(page.locator("#filtered")).to_have_text("Filtered: games of 3 players.")
    page.get_by_role("link", name="Mada leaderboard").click()
    expect(page.locator("table.board-table tbody tr")).to_have_count(3)
    page.get_by_role("link", name="Caro", exact=True).click()
    expect(page).to_have_url(f"{server.url}/players/Caro/view")


@pytest.mark.parametrize("viewport", [{"width": 375, "height": 740}])
def test_the_statistics_pages_fit_a_phone(page: Page, server: LiveServer) -> None:
    finished_games(server, count=2)
    for path in ("/players/Ana/view", "/ratings/mada/view", "/stats/mada/view?players=3"):
        page.goto(f"{server.url}{path}")
        expect(page.locator("main table").first).to_be_attached()
        assert fits_the_width(page), path
    page.goto(f"{server.url}/players/Ana/view")
    box = page.locator('svg[data-plot="history-mada"]').bounding_box()
    assert box is not None and 300 <= box["width"] <= 375


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}])
def test_every_table_fits_a_phone_without_a_sideways_scroll(page: Page, server: LiveServer) -> None:
    finished_games(server, count=2)
    for path in ("/ratings/mada/view", "/players/Ana/view", "/stats/mada/view", "/"):
        page.goto(f"{server.url}{path}")
        expect(page.locator("main").first).to_be_attached()
        scrolls = page.evaluate(
            "() => [...document.querySelectorAll('.table-scroll')]"
            ".filter((n) => n.scrollWidth > n.clientWidth + 1).length"
        )
        assert scrolls == 0, path
    # The leaderboard keeps what it ranks by on a phone.
    page.goto(f"{server.url}/ratings/mada/view")
    expect(page.get_by_role("columnheader", name="Rating")).to_be_visible()
