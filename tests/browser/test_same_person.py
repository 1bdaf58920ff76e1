""" "Same person as…" on a player's page, in a real Chromium on a phone (390x844) and a laptop:
Chloe's page offers the names that never sat at her table, with their games; picked, Chloé and
Chloe are one player, and the page says which names count as her; counted apart, they are two
again. With WRITE_KEY set, the page asks for the key once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from playwright.sync_api import Page, expect

from tests.browser.helpers import LiveServer, fits_the_width
from tests.conftest import make_app
from tests.support.players import club_history
from tests.support.workers import drain

# Where the screenshots taken to be looked at go (ignored by git, as the failures' are).
SCREENSHOTS = Path(__file__).parent / "screenshots"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
KEY = "club-write-key"


@pytest.fixture
def server(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path, app_config: dict[str, Any]
) -> Iterator[LiveServer]:
    """The suite's server, with this module's settings (``app_config``: WRITE_KEY)."""
    app = make_app(
        real_redis,
        key_prefix,
        DATA_DIR=str(tmp_path),
        ARCHIVE_DIR=str(tmp_path / "archive"),
        **app_config,
    )
    with LiveServer(app) as live:
        yield live


def imported(server: LiveServer, **headers: str) -> None:
    response = server.client.post("/imports/bgstats", json=club_history(), headers=headers)
    assert response.status_code == 200, response.json
    drain(server.app)


def too_small(page: Page) -> list[str]:
    """The controls of the names' section under 44x44 CSS px (a radio counts by its label)."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll(
             '.same-person summary, .same-person button, .same-person label.choice,'
             + ' .same-person input[type=password]')]
           .filter((node) => node.getClientRects().length)
           .map((node) => [node.textContent.trim(), node.getBoundingClientRect()])
           .filter(([, box]) => box.width < 43.5 || box.height < 43.5)
           .map(([words, box]) => `${words} ${box.width}x${box.height}`)"""
    )
    return found


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP])
def test_same_person_as_joins_two_names_and_counting_apart_parts_them(
    page: Page, server: LiveServer, viewport: dict[str, int]
) -> None:
    imported(server)
    SCREENSHOTS.mkdir(exist_ok=True)
    page.goto(f"{server.url}/players/Chloe/view")
    expect(page.locator("#names-line")).to_have_text("Every game here is under the name Chloe.")
    expect(page.locator("#games-played")).to_have_text("2")

    page.get_by_text("Same person as…").click()
    choices = page.locator("#same-as-form label.choice")
    # Ana, Ben and Dan sat at Chloe's table: not her. Chloé and chloe.b never did.
    expect(choices).to_have_count(2)
    expect(choices.nth(0)).to_contain_text("Chloé")
    expect(choices.nth(0)).to_contain_text("2 games")
    expect(choices.nth(1)).to_contain_text("chloe.b")
    expect(choices.nth(1)).to_contain_text("1 game")
    assert too_small(page) == []
    assert fits_the_width(page)
    page.locator("#same-as").screenshot(
        path=str(SCREENSHOTS / f"same-person-picker-{viewport['width']}.png")
    )

    choices.nth(0).click()
    page.get_by_role("button", name="Count as one player").click()
    expect(page.locator("#same-as-status")).to_contain_text("now count as one player, Chloé")
    page.wait_for_url(f"{server.url}/players/Chlo%C3%A9/view")
    drain(server.app)  # the worker counts the figures again
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_have_text("Chloé")
    expect(page.locator("#names-line")).to_contain_text(
        "Counted as one player: Chloé, also written Chloe."
    )
    expect(page.locator("#games-played")).to_have_text("4")
    # Her games under either name, her names in bold.
    expect(page.locator("table.player-games tbody tr")).to_have_count(4)
    expect(page.locator("table.player-games strong.self")).to_have_count(4)
    assert too_small(page) == []
    assert fits_the_width(page)
    page.screenshot(
        path=str(SCREENSHOTS / f"same-person-joined-{viewport['width']}.png"), full_page=True
    )
    # Asked under the other name, the page is hers too.
    page.goto(f"{server.url}/players/Chloe/view")
    expect(page.get_by_role("heading", level=1)).to_have_text("Chloé")

    page.get_by_role("button", name="Count Chloe apart").click()
    expect(page.locator("#same-as-status")).to_contain_text(
        "Chloe counts as a player of their own again"
    )
    drain(server.app)
    # The page opens again: this address names Chloe, a player of her own again.
    expect(page.locator("#names-line")).to_have_text("Every game here is under the name Chloe.")
    page.reload()
    expect(page.locator("#games-played")).to_have_text("2")
    page.goto(f"{server.url}/players/Chlo%C3%A9/view")
    expect(page.locator("#names-line")).to_have_text("Every game here is under the name Chloé.")
    expect(page.locator("#games-played")).to_have_text("2")


@pytest.mark.console_error("status of 401")
@pytest.mark.parametrize("app_config", [{"WRITE_KEY": KEY}])
@pytest.mark.parametrize("viewport", [PHONE])
def test_the_page_asks_for_the_write_key_once(page: Page, server: LiveServer) -> None:
    imported(server, Authorization=f"Bearer {KEY}")
    page.goto(f"{server.url}/players/Chloe/view")
    page.get_by_text("Same person as…").click()
    page.locator("#same-as-form label.choice").first.click()
    page.get_by_role("button", name="Count as one player").click()
    key = page.get_by_label("Write key")
    expect(key).to_be_visible()
    expect(page.locator("#error-write_key")).to_contain_text("Type it")
    assert too_small(page) == []
    key.fill(KEY)
    page.get_by_role("button", name="Count as one player").click()
    page.wait_for_url(f"{server.url}/players/Chlo%C3%A9/view")
    kept: Any = page.evaluate("() => window.localStorage.getItem('tabletape.writeKey')")
    assert kept == KEY
