"""A small tournament run from /tournaments/new to its standings on a phone (390x844): the form,
the organiser's page pairing each round with one button and showing each table's links and QR
codes, the page following the games as they finish; and the public page, with no link in it."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import LiveServer, check_no_machinery, fits_the_width
from tests.support.tournaments import end_score_sheet

PHONE = {"width": 390, "height": 844}
FINGER = 44
# A QR code as the service draws it.
QR = re.compile(r"^data:image/svg\+xml;base64,")

# Every control a person can touch on the page, and its size (a radio button's is its label's).
CONTROLS_JS = """
() => [...document.querySelectorAll('button, a, input, select, textarea, summary')]
  .filter(node => node.offsetParent !== null && !node.closest('.site-header')
                  && !node.classList.contains('skip-link'))
  .map(node => { const box = (node.type === 'radio' ? node.closest('label') : node)
                               .getBoundingClientRect();
                 return { words: (node.textContent || node.name || '').trim().slice(0, 40),
                          width: box.width, height: box.height }; })
"""


@pytest.fixture
def viewport() -> dict[str, int]:
    return PHONE


def check_at_a_finger(page: Page) -> None:
    small = [
        f"{c['words']!r} {c['width']:.0f}x{c['height']:.0f}"
        for c in page.evaluate(CONTROLS_JS)
        if c["width"] < FINGER - 0.5 or c["height"] < FINGER - 0.5
    ]
    assert not small, f"controls under {FINGER}x{FINGER} px: {small}"


def organiser_token(page: Page) -> str:
    return parse_qs(urlsplit(page.url).fragment)["token"][0]


def finish_round(server: LiveServer, tournament_id: str, token: str, ranks: Any) -> None:
    """Every table of the latest round finished by its own moves (a score sheet's end)."""
    headers = {"Authorization": f"Bearer {token}"}
    found = server.client.get(f"/tournaments/{tournament_id}").json
    links = server.client.get(f"/tournaments/{tournament_id}/links", headers=headers).json
    current = found["rounds"][-1]
    for table, table_links in zip(current["tables"], links["rounds"][-1], strict=True):
        end_score_sheet(server.client, {**table, **table_links}, ranks(table["players"]))


def alphabetical(players: list[str]) -> list[int]:
    return [sorted(players).index(name) + 1 for name in players]


def test_a_round_robin_from_the_form_to_its_standings_on_a_phone(
    page: Page, server: LiveServer
) -> None:
    page.goto(f"{server.url}/tournaments/new")
    page.get_by_label("Tournament name").fill("Club night")
    page.locator("input[name=game][value=scoresheet]").check()
    page.get_by_label("Which game?").fill("Chess")
    page.get_by_label("Round robin").check()
    expect(page.locator("#field-rounds")).to_be_hidden()
    page.locator("#players").fill("Ana\nBen\nCaro\n")
    assert fits_the_width(page)
    check_at_a_finger(page)
    page.get_by_role("button", name="Start the tournament").click()

    expect(page.locator("#tournament-title")).to_have_text("Club night")
    expect(page.locator("#tournament-status")).to_have_text("No round is paired yet.")
    tournament_id = page.locator("#tournament").get_attribute("data-tournament")
    assert tournament_id
    token = organiser_token(page)
    pair = page.get_by_role("button", name="Pair round 1")
    for number in (1, 2, 3):
        pair = page.get_by_role("button", name=f"Pair round {number}")
        expect(pair).to_be_enabled()
        pair.click()
        expect(page.locator("#round-title")).to_have_text(f"Round {number} of 3")
        expect(page.locator(".table-row")).to_have_count(1)
        expect(page.locator("#byes")).to_contain_text("Sitting out this round")
        # The table's links, with their QR codes, for the organiser to hand out.
        links = page.locator("details.table-links")
        links.locator("summary").click()
        expect(links.locator("img.qr").first).to_have_attribute("src", QR)
        expect(links.locator("a.link-name")).to_have_count(3)
        if number == 1:
            assert fits_the_width(page)
            check_at_a_finger(page)
            check_no_machinery(page)
            page.screenshot(path="/tmp/tournament-phone-round.png", full_page=True)
        expect(page.locator("#pair")).to_be_disabled()
        finish_round(server, tournament_id, token, alphabetical)
        # The page follows the games: the table's result in words, then the next round's button.
        expect(page.locator(".table-result")).not_to_have_text("being played", timeout=15_000)
    expect(page.locator("#tournament-status")).to_have_text(
        "Finished: Ana won the tournament with 3 points.", timeout=15_000
    )
    expect(page.locator("#organiser")).to_be_hidden()
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Ana")
    expect(rows.nth(2)).to_contain_text("Caro")
    assert fits_the_width(page)
    check_no_machinery(page)
    page.screenshot(path="/tmp/tournament-phone-standings.png", full_page=True)


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1920, "height": 1080}])
def test_the_public_page_shows_standings_and_tables_and_no_link(
    page: Page, server: LiveServer, viewport: dict[str, int]
) -> None:
    players = ["Ana", "Ben", "Caro", "Dan", "Eve", "Finn", "Gus", "Hana", "Ida", "Jon"]
    body = {"name": "Mada day", "game": "scoresheet", "options": {"title": "Mada"},
            "format": "pods", "table_size": [3, 5], "rounds": 2, "players": players}  # fmt: skip
    created = server.client.post("/tournaments", json=body).json
    headers = {"Authorization": f"Bearer {created['token']}"}
    paired = server.client.post(f"/tournaments/{created['id']}/rounds", headers=headers)
    assert paired.status_code == 201
    page.goto(f"{server.url}/tournaments/{created['id']}/view")
    expect(page.locator(".table-row")).to_have_count(2)
    expect(page.locator(".table-result").first).to_have_text("being played")
    finish_round(server, created["id"], created["token"], alphabetical)
    expect(page.locator(".table-result").first).to_contain_text("1st", timeout=15_000)
    expect(page.locator("#organiser")).to_be_hidden()
    assert page.locator("details.table-links").count() == 0
    assert fits_the_width(page)
    check_at_a_finger(page)
    check_no_machinery(page)
    page.screenshot(path=f"/tmp/tournament-public-{viewport['width']}.png", full_page=True)
