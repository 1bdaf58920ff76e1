"""The viewer's block of the signed note (docs/signed-records.md): shown once a game is over, in a
section of its own, closed until asked for; open, it fits a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import LiveServer, new_game, play


@pytest.mark.parametrize("viewport", [{"width": 375, "height": 740}])
def test_a_finished_games_note_opens_and_fits_a_phone(page: Page, server: LiveServer) -> None:
    game = new_game(server.client, "mada")
    play(server.client, game)
    note = server.client.get(f"/games/{game['id']}/checkpoint").get_data(as_text=True)
    page.goto(f"{server.url}/games/{game['id']}/view")
    # The note is among the record's checks, in their section, closed until asked for.
    block = page.locator("#signed-note")
    expect(block.locator(".note-text")).to_be_hidden()
    page.locator("details#check-record > summary").click()
    expect(block.locator(".note-text")).to_have_text(note)
    expect(block).to_contain_text("tabletape verify")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "it scrolls sideways"


def test_a_game_being_played_shows_no_note(page: Page, server: LiveServer) -> None:
    game = new_game(server.client, "mada")
    play(server.client, game, moves=3)
    page.goto(f"{server.url}/games/{game['id']}/view")
    page.wait_for_selector("svg#board[data-viewer]")
    assert page.locator("#signed-note").count() == 0
