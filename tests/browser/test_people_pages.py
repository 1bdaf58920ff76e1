"""The pages people read while recording or following a game speak of players and moves, not of
the record's machinery (the contract's Pages, "At a real table"): on a 390x844 phone, for each
game in both chance modes, the recorder's page and a seat's page show no game id, hash,
commitment, seed or salt, no "version N" and no "seat 0", and every control that records is at
a finger's size; the viewer keeps the record's checks in a "Check this record" section of its
own, closed on its first screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    GAMES,
    LiveServer,
    check_at_a_finger,
    check_no_machinery,
    create,
    open_recorder,
    play,
)

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def viewport() -> dict[str, int]:
    return PHONE


@pytest.mark.parametrize("chance", ["seeded", "observed"])
@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_recorder_and_a_seats_page_speak_of_players_and_moves(
    page: Page, server: LiveServer, name: str, chance: str
) -> None:
    settings = GAMES[name]
    game = create(server.client, game=name, players=settings["players"], seed=18200315974144,
                  options={**settings["options"], "chance": chance})  # fmt: skip
    version = play(server.client, game, moves=6, seed=1)
    open_recorder(page, server, game, version=version)
    expect(page.locator("#record-status")).to_contain_text(f"Move {version + 1}")
    check_no_machinery(page, game)
    check_at_a_finger(page)
    # Seat 1's page (the second player's): named, never counted from 0.
    open_recorder(page, server, game, seat=1, version=version)
    expect(page.locator("#recording-as")).to_contain_text(f"Recording as {settings['players'][1]}")
    check_no_machinery(page, game)
    check_at_a_finger(page)


def test_the_viewer_keeps_the_records_checks_in_a_section_of_their_own(
    page: Page, server: LiveServer
) -> None:
    settings = GAMES["madcala"]
    game = create(server.client, game="madcala", players=settings["players"], seed=18200315974144,
                  options=settings["options"])  # fmt: skip
    play(server.client, game)
    page.goto(f"{server.url}/games/{game['id']}/view")
    check = page.locator("details#check-record")
    expect(check).not_to_have_attribute("open", "")
    # The first screen: the game by its players and date, its moves; no id, seed nor salt.
    check_no_machinery(page, game)
    check.locator("summary").click()
    expect(check.locator("code.game-id")).to_have_text(game["id"])
    expect(check.locator("code.seed")).to_have_text("18200315974144")
    expect(check.locator("code.salt")).not_to_be_empty()
    expect(check.locator("#commitment")).to_contain_text("Check passed")
