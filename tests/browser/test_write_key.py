"""The /new page on a service that sets WRITE_KEY: it asks for the key once, and the device keeps
it for the next games."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from playwright.sync_api import Page, expect

from tests.browser.helpers import LiveServer
from tests.conftest import make_app

KEY = "the-club-s-write-key"


@pytest.fixture
def server(real_redis: redis.Redis, key_prefix: str, tmp_path: Path) -> Iterator[LiveServer]:
    app = make_app(real_redis, key_prefix, DATA_DIR=str(tmp_path), WRITE_KEY=KEY)
    with LiveServer(app) as live:
        yield live


def start_a_game(page: Page, server: LiveServer) -> None:
    page.get_by_label("Mada").check()
    for seat, name in enumerate(["Ana", "Ben"]):
        page.locator(f"#player-{seat}").fill(name)
    page.get_by_role("button", name="Start recording").click()


def games_created(server: LiveServer) -> int:
    return len(server.client.get("/games").json["games"])


# Chromium logs each 401 answer as a failed resource.
@pytest.mark.console_error("401")
def test_the_new_game_page_asks_for_the_write_key_once_and_keeps_it(
    page: Page, server: LiveServer
) -> None:
    page.goto(f"{server.url}/new")
    key = page.get_by_label("Write key")
    expect(key).to_be_hidden()
    start_a_game(page, server)
    expect(key).to_be_visible()
    expect(key).to_be_focused()
    assert games_created(server) == 0

    key.fill("not the key")
    page.get_by_role("button", name="Start recording").click()
    expect(page.locator("#error-write_key")).to_contain_text("refused")
    assert games_created(server) == 0

    key.fill(KEY)
    page.get_by_role("button", name="Start recording").click()
    expect(page.locator("#created")).to_be_visible()
    assert games_created(server) == 1
    assert page.evaluate("() => localStorage.getItem('tabletape.writeKey')") == KEY

    # The next game, on this device: the key is not asked again.
    page.goto(f"{server.url}/new")
    start_a_game(page, server)
    expect(page.locator("#created")).to_be_visible()
    expect(key).to_be_hidden()
    assert games_created(server) == 2
