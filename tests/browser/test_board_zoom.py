"""A board that outgrows a phone's screen (lib/zoom.js), in a real Chromium at 390x844 with touch:
drawn larger than the screen so that every control that records is at a finger's size, pinched
with two fingers to look at it whole (or closer), and brought back to a finger's size by "Zoom in"
or by the next move."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import LiveServer, check_at_a_finger, new_game, open_recorder, play

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Iterator[Page]:
    """A phone's page: its size, and touch."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(10_000)
    try:
        yield context.new_page()
    finally:
        context.close()


def pinch(page: Page, selector: str, start_gap: float, end_gap: float) -> None:
    """Two fingers on the middle of ``selector``, ``start_gap`` px apart, moved to ``end_gap``."""
    box = page.locator(selector).bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    session = page.context.new_cdp_session(page)

    def fingers(gap: float) -> list[dict[str, float]]:
        return [{"x": x - gap / 2, "y": y, "id": 0}, {"x": x + gap / 2, "y": y, "id": 1}]

    session.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": fingers(start_gap)}
    )
    for step in range(1, 11):
        gap = start_gap + (end_gap - start_gap) * step / 10
        session.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": fingers(gap)})
    session.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def board_width(page: Page) -> float:
    box = page.locator("#board").bounding_box()
    assert box is not None
    return float(box["width"])


def test_a_grown_board_is_pinched_to_look_whole_and_zoomed_back_to_a_finger(
    phone: Page, server: LiveServer
) -> None:
    game = new_game(server.client, "sifaka", seed=7)
    version = play(server.client, game, moves=70, seed=2)
    assert server.client.get(f"/games/{game['id']}").json["status"] == "active"
    open_recorder(phone, server, game, version=version)
    frame, toggle = phone.locator(".board-frame"), phone.locator("#zoom-toggle")
    # The fitted board would shrink its boxes below a finger: it is drawn larger, the frame scrolls.
    expect(frame).to_have_class(re.compile(r"\bzoomed\b"))
    expect(toggle).to_have_text("Zoom out")
    check_at_a_finger(phone)
    at_a_finger = board_width(phone)
    assert at_a_finger > PHONE["width"]

    # Fingers together: the board shrinks, down to the whole board in the frame at the least.
    pinch(phone, ".board-frame", 240, 60)
    looked = board_width(phone)
    assert looked < at_a_finger * 0.8
    expect(toggle).to_have_text("Zoom in")
    frame_box = frame.bounding_box()
    assert frame_box is not None and looked >= frame_box["width"] * 0.5
    # Fingers apart: closer again.
    pinch(phone, ".board-frame", 60, 200)
    assert board_width(phone) > looked * 1.5

    # "Zoom in" brings every control that records back to a finger's size.
    toggle.tap()
    expect(toggle).to_have_text("Zoom out")
    assert board_width(phone) == pytest.approx(at_a_finger, rel=0.01)
    check_at_a_finger(phone)
