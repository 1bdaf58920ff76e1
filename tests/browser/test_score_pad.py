"""A score sheet (any game, recorded as its scores) on its pages, in a real Chromium: recorded on
the score pad by touch on a 390x844 phone (domain/scoresheet/browser/scoresheet-pad.js), a seat
adding its own points on its own link, the viewer's plot of the totals, and /new starting one.

At every step of the pad: the totals are on the first screen (in the viewport, unscrolled), and
every control that records is at least 44x44 CSS pixels.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import CHROMIUM_ARGS, LiveServer, events, open_recorder, settled
from tests.support.api import create

PHONE = {"width": 390, "height": 844}
RECORDER = "#recorder"
CONFIRM_TITLE = "This move ends the game"
YES = "Yes: record it and end the game"
NOT_YET = "No, not yet"
PLAYERS = ["Ana", "Ben", "Caro"]

# Every control that records: its size, and whether it is usable now.
SIZES_JS = """
() => [...document.querySelectorAll("[data-records-move]")]
  .filter((node) => node.getClientRects().length && !node.closest("[hidden]"))
  .map((node) => {
    const box = node.getBoundingClientRect();
    return {words: node.textContent.trim(), width: box.width, height: box.height};
  })
"""

# Each player's total, as the board draws it, and whether it is inside the first screen.
TOTALS_JS = """
() => {
  window.scrollTo(0, 0);
  return [...document.querySelectorAll("#board .seat")].map((seat) => {
    const total = seat.querySelector(".total").getBoundingClientRect();
    return {
      total: seat.dataset.total,
      rank: seat.dataset.rank,
      shown: total.top >= 0 && total.bottom <= window.innerHeight && total.height > 0,
    };
  });
}
"""


@pytest.fixture
def viewport() -> dict[str, int]:
    return PHONE


@pytest.fixture
def phone(browser: Any, server: LiveServer) -> Iterator[Page]:
    """A phone's page: 390x844, touch. What it logs as errors fails the test."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(10_000)
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    opened.on(
        "console",
        lambda message: (
            problems.append(message.text)
            if message.type == "error" and "/stream" not in message.text
            else None
        ),
    )
    yield opened
    context.close()
    assert not problems, problems


def new_sheet(server: LiveServer, **options: Any) -> dict[str, Any]:
    players = options.pop("players", PLAYERS)
    return create(
        server.client, game="scoresheet", players=players, options={"title": "Azul", **options}
    )


def check_the_first_screen(page: Page) -> list[dict[str, Any]]:
    """The totals in view without scrolling; every control that records 44x44 at least."""
    totals: list[dict[str, Any]] = page.evaluate(TOTALS_JS)
    assert totals and all(seat["shown"] for seat in totals), totals
    for control in page.evaluate(SIZES_JS):
        assert control["width"] >= 44 and control["height"] >= 44, control
    return totals


def type_points(page: Page, points: dict[int, str]) -> None:
    for seat, typed in points.items():
        field = page.locator(f'.pad-input[data-seat="{seat}"]')
        field.tap()
        field.fill(typed)


def tap_and_settle(page: Page, selector: str, version: int) -> None:
    page.locator(selector).tap()
    settled(page, version)


def stored(server: LiveServer, game: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {key: value for key, value in event.items() if key not in ("seq", "at", "void", "hash")}
        for event in events(server.client, game)
    ]


def test_a_whole_score_sheet_is_recorded_on_the_pad_by_touch(
    phone: Page, server: LiveServer
) -> None:
    game = new_sheet(server)
    open_recorder(phone, server, game, ready_js="document.querySelector('.pad-input') !== null")
    assert [seat["total"] for seat in check_the_first_screen(phone)] == ["0", "0", "0"]

    # Round 1, every player's points; a blank is no points.
    type_points(phone, {0: "12", 1: "4.5", 2: "-3"})
    tap_and_settle(phone, ".pad-write", 1)
    expect(phone.locator(".pad-sheet tr.round")).to_have_count(1)
    assert [s["total"] for s in check_the_first_screen(phone)] == ["12", "4.5", "-3"]
    # Round 2, Ben's blank; the fields were emptied after round 1.
    expect(phone.locator('.pad-input[data-seat="0"]')).to_have_value("")
    type_points(phone, {0: "0,125", 2: "10"})
    tap_and_settle(phone, ".pad-write", 2)
    totals = check_the_first_screen(phone)
    assert [s["total"] for s in totals] == ["12.125", "4.5", "7"]
    assert [s["rank"] for s in totals] == ["1", "3", "2"]
    # Ben's points alone.
    type_points(phone, {1: "20"})
    tap_and_settle(phone, '.pad-add[data-seat="1"]', 3)
    expect(phone.locator(".pad-sheet tr.score")).to_have_count(1)
    assert [s["total"] for s in check_the_first_screen(phone)] == ["12.125", "24.5", "7"]
    # A wrong entry, taken back.
    type_points(phone, {0: "100", 1: "1", 2: "1"})
    tap_and_settle(phone, ".pad-write", 4)
    assert [s["total"] for s in check_the_first_screen(phone)][0] == "112.125"
    tap_and_settle(phone, ".pad-take-back", 5)
    assert [s["total"] for s in check_the_first_screen(phone)] == ["12.125", "24.5", "7"]
    expect(phone.locator(".pad-sheet tr.round")).to_have_count(2)
    # Not a number: said, nothing sent.
    type_points(phone, {0: "1.2345"})
    phone.locator(".pad-write").tap()
    expect(phone.locator(".pad-message")).to_contain_text("not a number")
    settled(phone, 5)
    type_points(phone, {0: "3", 1: "", 2: "2"})
    tap_and_settle(phone, ".pad-write", 6)

    # The end shows who wins, and asks first: once "not yet", then yes.
    phone.locator(".pad-end").tap()
    dialog = phone.get_by_role("dialog", name=CONFIRM_TITLE)
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Ben wins")
    expect(dialog).to_contain_text("1st Ben (24.5), 2nd Ana (15.125), 3rd Caro (9)")
    check_the_first_screen(phone)
    dialog.get_by_role("button", name=NOT_YET).tap()
    settled(phone, 6)
    phone.locator(".pad-end").tap()
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name=YES).tap()
    expect(phone.locator(RECORDER)).to_have_attribute("data-finished", "true")
    assert stored(server, game) == [
        {"type": "round", "points": [12, 4.5, -3]},
        {"type": "round", "points": [0.125, None, 10]},
        {"type": "score", "player": 1, "points": 20},
        {"type": "round", "points": [100, 1, 1]},
        {"type": "retract"},
        {"type": "round", "points": [3, None, 2]},
        {"type": "end"},
    ]
    result = server.client.get(f"/games/{game['id']}").json["result"]
    assert result["winners"] == [1]
