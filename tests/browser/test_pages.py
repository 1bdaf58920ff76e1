"""The other pages in a real Chromium: the recent games, and a game's statistics as plots."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.helpers import GAMES, LiveServer, new_game, play
from tests.support.workers import drain


def test_the_index_lists_recent_games_newest_first_with_links(
    page: Page, server: LiveServer
) -> None:
    made = [new_game(server.client, name) for name in GAMES]
    play(server.client, made[0], moves=2)
    page.goto(f"{server.url}/")
    rows = page.locator("table.games tbody tr")
    expect(rows).to_have_count(len(made))
    assert [row.get_attribute("data-game-id") for row in rows.all()] == [
        game["id"] for game in reversed(made)
    ]
    # Each game by its name and date, not its id.
    assert made[0]["id"] not in (page.locator("table.games").inner_text())
    page.locator(f'tr[data-game-id="{made[0]["id"]}"] th a').click()
    expect(page).to_have_url(f"{server.url}/games/{made[0]['id']}/view")
    expect(page.locator("svg#board")).to_have_attribute("data-at", "2")


def bars(page: Page, plot: str) -> list[tuple[str, float]]:
    found: list[dict[str, str]] = page.eval_on_selector_all(
        f'svg.plot[data-plot="{plot}"] rect.bar',
        "nodes => nodes.map(node => Object.assign({}, node.dataset))",
    )
    return [(bar["label"], float(bar["value"])) for bar in found]


def test_the_stats_page_plots_the_archived_games(page: Page, server: LiveServer) -> None:
    client = server.client
    for seed in range(3):
        game = new_game(client, "mada", seed=seed)
        play(client, game, seed=seed)
    drain(server.app)
    figures: dict[str, Any] = client.get("/stats/mada").json
    assert figures["games"] == 3

    page.goto(f"{server.url}/stats/mada/view")
    expect(page.locator("#games-counted")).to_have_text("3")
    plots = page.get_by_role("img")
    expect(plots).to_have_count(3)
    for name in ("Score distribution", "Wins per seat", "Game length"):
        expect(page.get_by_role("img", name=name)).to_be_visible()
    for plot in page.locator("svg.plot").all():
        box = plot.bounding_box()
        assert box is not None and box["width"] > 200 and box["height"] > 100
        assert (plot.locator("desc").text_content() or "").strip()

    distribution = {
        int(float(score)): seats for score, seats in figures["scores"]["distribution"].items()
    }
    # Every whole score from the lowest to the highest: those no one made at 0.
    every = range(min(distribution), max(distribution) + 1)
    assert bars(page, "scores") == [
        (str(score), float(distribution.get(score, 0))) for score in every
    ]
    wins = figures["seat_advantage"]["wins_by_seat"]
    assert bars(page, "seats") == [(f"seat {seat}", float(n)) for seat, n in enumerate(wins, 1)]
    length = dict(bars(page, "length"))
    assert length["events"] == figures["length"]["mean_events"]
    assert length["rounds"] == figures["length"]["mean_rounds"]
    # Every drawn bar has a height in proportion to its value.
    heights = page.eval_on_selector_all(
        'svg.plot[data-plot="scores"] rect.bar',
        "nodes => nodes.map(node => [Number(node.dataset.value), node.getBBox().height])",
    )
    top_value, top_height = max(heights)
    for value, height in heights:
        assert abs(height / top_height - value / top_value) < 0.01


def test_the_stats_page_of_a_game_not_played_yet(page: Page, server: LiveServer) -> None:
    page.goto(f"{server.url}/stats/sifaka/view")
    expect(page.locator("#games-counted")).to_have_text("0")
    expect(page.locator(".empty").last).to_contain_text("No game of Sifaka has finished yet")
    # The page opens on its leaders and recent games: none yet, said so.
    expect(page.locator("#leaders-heading + .empty")).to_have_text("No one is rated in Sifaka yet.")
    expect(page.locator("#recent-heading + .empty")).to_have_text("No game of Sifaka recorded yet.")
    expect(page.locator("svg.plot")).to_have_count(3)
