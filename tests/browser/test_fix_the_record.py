"""Mistakes that can be undone, on the recorder's page at a phone's size: a mis-tapped last move
taken back (the game goes on), and a game set aside (abandoned), each asked first."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import LiveServer, append, create, open_recorder, settled

RECORDER = "#recorder"


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def moves_as_a_list(page: Page) -> None:
    page.add_init_script("try { window.localStorage.setItem('tabletape.moves-as-list', '1'); }"
                         " catch (e) {}")  # fmt: skip


def one_move_from_the_end(server: LiveServer) -> tuple[dict[str, Any], dict[str, Any]]:
    """A Madcala duel recorded over the API up to the move that ends it; that move."""
    client = server.app.test_client()
    game = create(client, game="madcala", players=["Ana", "Ben"], seed=4,
                  options={"health": 1, "first_player": 0})  # fmt: skip
    headers = {"Authorization": f"Bearer {game['token']}"}
    for _ in range(500):
        listed = client.get(f"/games/{game['id']}/legal", headers=headers).json
        paired = list(zip(listed["moves"], listed["ending"], strict=True))
        ending = [move for move, ends in paired if ends]
        if ending:
            return game, ending[0]
        others = [move for move, ends in paired if not ends]
        assert append(client, game, others[0]).status_code == 201
    raise AssertionError("no move ends the game")


def test_a_mis_tapped_last_move_is_taken_back_and_the_game_goes_on(
    page: Page, server: LiveServer
) -> None:
    game, last = one_move_from_the_end(server)
    version = open_recorder(page, server, game, version=None)
    page.locator(f"#legal button[data-move='{_json(last)}']").click()
    page.get_by_role("button", name="Yes: record it and end the game").click()
    settled(page, version + 1)
    expect(page.locator("#game-status")).to_have_text("finished")
    expect(page.locator("#legal")).to_contain_text("Take it back: the game goes on")

    # The recorder takes it back: asked first, then the game is on again.
    page.get_by_role("button", name="Take back the last move").click()
    expect(page.locator("#picker-title")).to_have_text("Take back the last move?")
    page.get_by_role("button", name="Yes: take it back, the game goes on").click()
    settled(page, version + 2)
    expect(page.locator("#game-status")).to_have_text("active")
    expect(page.locator("#result")).to_be_hidden()
    expect(page.locator("#legal button.move").first).to_be_visible()
    client = server.app.test_client()
    assert client.get(f"/games/{game['id']}").json["status"] == "active"

    # The right move this time: the game ends again.
    page.locator("#legal button.move").first.click()
    if page.locator("#picker").is_visible():
        page.get_by_role("button", name="Yes: record it and end the game").click()
    settled(page, version + 3)


def test_taking_back_the_end_can_be_called_off(page: Page, server: LiveServer) -> None:
    game, last = one_move_from_the_end(server)
    assert append(server.app.test_client(), game, last).status_code == 201
    version = open_recorder(page, server, game, version=None)
    page.get_by_role("button", name="Take back the last move").click()
    page.get_by_role("button", name="No, the game is over").click()
    expect(page.locator("#picker")).to_be_hidden()
    assert int(page.locator(RECORDER).get_attribute("data-version") or "0") == version
    expect(page.locator("#game-status")).to_have_text("finished")


def test_a_game_started_by_mistake_is_abandoned(page: Page, server: LiveServer) -> None:
    client = server.app.test_client()
    game = create(client, game="mada", players=["Ana", "Ben", "Caro"], seed=2)
    version = open_recorder(page, server, game, version=None)
    abandon = page.get_by_role("button", name="Abandon the game")
    expect(abandon).to_be_in_viewport()
    abandon.click()
    expect(page.locator("#picker-title")).to_have_text("Abandon this game?")
    page.get_by_role("button", name="Yes: abandon the game").click()
    settled(page, version + 1)
    expect(page.locator("#game-status")).to_have_text("abandoned")
    expect(page.locator("#legal")).to_contain_text("The game was abandoned")
    expect(page.locator("#legal button.move")).to_have_count(0)
    expect(abandon).to_be_hidden()
    expect(page.get_by_role("button", name="Undo the last move")).to_be_disabled()
    assert client.get(f"/games/{game['id']}").json["status"] == "abandoned"


def test_a_seats_page_offers_neither_abandon_nor_take_back(page: Page, server: LiveServer) -> None:
    client = server.app.test_client()
    game = create(client, game="mada", players=["Ana", "Ben", "Caro"], seed=2)
    page.goto(f"{server.url}/games/{game['id']}/record#token={game['seat_tokens'][0]}")
    expect(page.locator(RECORDER)).to_have_attribute("data-ready", "true")
    expect(page.get_by_role("button", name="Abandon the game")).to_be_hidden()


def _json(move: dict[str, Any]) -> str:
    return json.dumps(move, separators=(",", ":"))


def test_a_seats_page_sees_the_end_taken_back_and_the_game_go_on(
    page: Page, server: LiveServer
) -> None:
    game, last = one_move_from_the_end(server)
    client = server.app.test_client()
    assert append(client, game, last).status_code == 201
    page.goto(f"{server.url}/games/{game['id']}/record#token={game['seat_tokens'][1]}")
    expect(page.locator(RECORDER)).to_have_attribute("data-finished", "true")
    # The recorder, on another phone, takes the last move back.
    assert append(client, game, {"type": "retract"}).status_code == 201
    expect(page.locator("#game-status")).to_have_text("active", timeout=15_000)
    expect(page.locator(RECORDER)).to_have_attribute("data-finished", "false")
