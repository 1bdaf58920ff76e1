"""A player's page on a phone (390x844), in a real Chromium: their games in pages, and head to head
with any name through the page's form, nothing wider than the screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from service.pages.views import PLAYER_GAMES
from tests.browser.helpers import LiveServer, finished_games, fits_the_width, new_game


def no_table_scrolls(page: Page) -> bool:
    scrolling: int = page.evaluate(
        "() => [...document.querySelectorAll('.table-scroll')]"
        ".filter((n) => n.scrollWidth > n.clientWidth + 1).length"
    )
    return scrolling == 0


@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}])
def test_a_players_games_and_head_to_head_on_a_phone(page: Page, server: LiveServer) -> None:
    finished = finished_games(server, count=2)  # Ana, Ben and Caro, counted
    under_way = [new_game(server.client, "mada", seed=seed) for seed in range(PLAYER_GAMES)]
    newest_first = [game["id"] for game in [*finished, *under_way]][::-1]

    page.goto(f"{server.url}/players/Ana/view")
    rows = page.locator("table.player-games tbody tr")
    expect(rows).to_have_count(PLAYER_GAMES)
    expect(rows.first).to_have_attribute("data-game-id", newest_first[0])
    expect(rows.first.locator("strong.self")).to_have_text("Ana")
    assert fits_the_width(page) and no_table_scrolls(page)

    page.get_by_role("link", name="Older games").click()
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_attribute("data-game-id", newest_first[PLAYER_GAMES])
    expect(
        rows.first.get_by_role("cell").filter(has_text=re.compile(r" won\b| shared the win"))
    ).to_have_count(1)
    assert fits_the_width(page) and no_table_scrolls(page)
    # A row leads to its game's replay.
    rows.last.get_by_role("link", name="Mada").click()
    expect(page).to_have_url(f"{server.url}/games/{finished[0]['id']}/view")

    page.goto(f"{server.url}/players/Ana/view")
    page.get_by_label("Head to head of Ana with").fill("Caro")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#versus-games")).to_have_text("2")
    assert fits_the_width(page)
    page.get_by_label("Head to head of Ana with").fill("Someone Ana never met")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#versus-none")).to_contain_text("no game played together")
    assert fits_the_width(page)


# The page is answered 400, which Chromium logs as a failed load.
@pytest.mark.console_error("status of 400")
@pytest.mark.parametrize("viewport", [{"width": 390, "height": 844}])
def test_a_misspelt_filter_shows_a_page_that_names_the_known_ones(
    page: Page, server: LiveServer
) -> None:
    response = page.goto(f"{server.url}/stats/mada/view?playrs=3")
    assert response is not None and response.status == 400
    expect(page.locator("#filters-error")).to_contain_text(
        "unknown query parameter playrs: this takes player, players, since, until"
    )
    expect(page.locator("#games-counted")).to_have_count(0)
    assert fits_the_width(page)
