"""A fourth game, Tally (tests/games/tally), in a real Chromium: its own drawing (the package's
browser/tally.js, served by the pages) shows each state as the API serves it, its moves are said
in its own words, and a whole game is recorded by tapping the recorder's move buttons (a move that
ends the game asked for once more).

What is drawn is read back from the SVG's data attributes (data-tally, data-hand, ...) and from the
cards drawn, and compared with the state JSON of the same move.
"""

from __future__ import annotations

import json
import random
from typing import Any

from flask.testing import FlaskClient
from playwright.sync_api import Page, expect

import tests.games.tally  # noqa: F401  (registers the game until tests/conftest.py does)
from tests.browser.helpers import (
    LiveServer,
    append,
    auth,
    create,
    events,
    legal,
    open_recorder,
    play,
    sent_words,
    settled,
    state,
)
from tests.games.tally import TALLY

BOARD = "svg#board"
PLAYERS = ["Ana", "Ben"]


def new_tally(client: FlaskClient, seed: int = 5) -> dict[str, Any]:
    return create(client, game="tally", players=PLAYERS, seed=seed, options={})


def said(client: FlaskClient, game: dict[str, Any]) -> list[str]:
    """The moves in the game's own words, as its package says them."""
    return [TALLY.describe(event, PLAYERS) for event in events(client, game)]


def expect_drawn(page: Page, shown: dict[str, Any]) -> None:
    """The board shows ``shown``: the tally, the cards played, and each hand (face down where the
    state has null)."""
    table = page.locator(f"{BOARD} g.table")
    expect(table).to_have_attribute("data-tally", str(shown["tally"]))
    assert json.loads(table.get_attribute("data-played") or "") == shown["played"]
    expect(page.locator(f"{BOARD} text.tally")).to_have_text(str(shown["tally"]))
    expect(page.locator(f"{BOARD} g.seat")).to_have_count(2)
    for seat in (0, 1):
        drawn = page.locator(f'{BOARD} g.seat[data-seat="{seat}"]')
        expect(drawn).to_have_attribute("data-hand-size", str(shown["hand_sizes"][seat]))
        hand = shown["hands"][seat]
        if hand is None:
            assert drawn.get_attribute("data-hand") is None
            expect(drawn.locator("g.hidden-card")).to_have_count(shown["hand_sizes"][seat])
            expect(drawn.locator("g.card[data-card]")).to_have_count(0)
        else:
            assert json.loads(drawn.get_attribute("data-hand") or "") == hand
            faces = drawn.locator("g.card[data-card]").evaluate_all(
                "nodes => nodes.map(node => JSON.parse(node.dataset.card))"
            )
            assert faces == hand
        current = shown["status"] == "active" and shown["current_player"] == seat
        assert (drawn.get_attribute("data-current") == "true") == current


def test_the_viewer_draws_each_state_of_a_tally_game_with_its_own_drawing(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = new_tally(client)
    version = play(client, game)
    assert client.get(f"/games/{game['id']}").json["status"] != "active"
    url = f"{server.url}/games/{game['id']}/view"
    for at in (0, 1, version):
        page.goto(f"{url}?at={at}")
        expect(page.locator(BOARD)).to_have_attribute("data-at", str(at))
        expect_drawn(page, state(client, game, at))
        expect(page.locator("#board-title")).to_have_text(f"Tally after move {at} of {version}")
    # The game is over: every hand is shown.
    expect(page.locator(f"{BOARD} g.hidden-card")).to_have_count(0)
    # The moves in the game's words, on the page and in the words the API sends beside them.
    expect(page.locator("#moves li .text")).to_have_text(["the start", *said(client, game)])
    from_the_api = sent_words(client, game)
    assert from_the_api == said(client, game)
    assert all(" plays a " in line for line in from_the_api)
    # The seats in the game's colours.
    swatches = page.locator(".players svg.swatch circle").evaluate_all(
        "nodes => nodes.map(node => node.getAttribute('fill'))"
    )
    assert swatches == TALLY.seat_colours(2)


def test_hands_are_face_down_but_for_the_seat_whose_link_it_is(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = new_tally(client, seed=9)
    play(client, game, moves=2)
    url = f"{server.url}/games/{game['id']}/view"

    page.goto(url)
    expect(page.locator(BOARD)).to_have_attribute("data-viewer", "public")
    expect_drawn(page, state(client, game, 2, token=False))
    expect(page.locator(f"{BOARD} g.seat[data-hand]")).to_have_count(0)

    page.goto(f"{url}#token={game['seat_tokens'][1]}")
    expect(page.locator(BOARD)).to_have_attribute("data-viewer", "seat")
    expect_drawn(page, state(client, game, 2, seat=1))
    expect(page.locator(f"{BOARD} g.seat[data-hand]")).to_have_count(1)

    page.goto(f"{url}#token={game['token']}")
    expect(page.locator(BOARD)).to_have_attribute("data-viewer", "recorder")
    expect_drawn(page, state(client, game, 2))
    expect(page.locator(f"{BOARD} g.seat[data-hand]")).to_have_count(2)


def tap(page: Page, client: FlaskClient, game: dict[str, Any], chooser: random.Random) -> None:
    """Tap one of the move buttons at random, as the recorder. A move that ends the game asks
    first: declined once (nothing is recorded), then confirmed."""
    version = int(page.locator("#recorder").get_attribute("data-version") or "0")
    answer = client.get(f"/games/{game['id']}/legal", headers=auth(game)).json
    index = chooser.randrange(len(answer["moves"]))
    button = page.locator("#legal button.move").nth(index)
    button.click()
    if answer["ending"][index]:
        expect(page.locator("#picker")).to_be_visible()
        expect(page.locator("#picker-title")).to_contain_text("ends the game")
        # The question's one way out, worded as its No: no "No" option beside a Cancel.
        expect(page.locator("#picker-options button", has_text="No")).to_have_count(0)
        page.locator("#picker-cancel", has_text="No, not yet").click()
        expect(page.locator("#picker")).to_be_hidden()
        assert client.get(f"/games/{game['id']}").json["version"] == version
        button.click()
        page.locator("#picker-options button", has_text="Yes").click()
    settled(page, version + 1)


def test_a_whole_tally_game_recorded_by_tapping_the_move_buttons(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = new_tally(client, seed=21)
    open_recorder(page, server, game)
    chooser = random.Random(4)
    taps = 0
    while page.locator("#recorder").get_attribute("data-finished") != "true":
        # One button per card value in the hand of the player to act, in the game's words.
        offered = [TALLY.describe(move, PLAYERS) for move in legal(client, game)]
        expect(page.locator("#legal button.move")).to_have_text(offered)
        tap(page, client, game, chooser)
        taps += 1
        expect(page.locator(BOARD)).to_have_attribute("data-version", str(taps))
        expect_drawn(page, state(client, game, taps))
        assert taps <= 8, "a game of Tally lasts 8 plays at most"
    recorded = client.get(f"/games/{game['id']}").json
    assert recorded["status"] != "active" and recorded["version"] == taps
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#legal button.move")).to_have_count(0)
    stored = events(client, game)
    assert len(stored) == taps and all(event["type"] == "play" for event in stored)
    tally = sum(event["card"] for event in stored)
    last = stored[-1]["player"]
    assert recorded["result"]["winners"] == [last if tally == 15 else 1 - last]


def test_a_seats_recorder_offers_only_its_own_cards_on_its_turn(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = new_tally(client, seed=13)
    hand = state(client, game, 0)["hands"][0]
    open_recorder(page, server, game, seat=0)
    offered = [TALLY.describe({"type": "play", "player": 0, "card": card}, PLAYERS)
               for card in sorted(set(hand))]  # fmt: skip
    expect(page.locator("#legal button.move")).to_have_text(offered)
    page.locator("#legal button.move").first.click()
    settled(page, 1)
    assert events(client, game)[0]["card"] == min(hand)
    # Ben's turn now: Ana's page offers nothing, and follows Ben's move.
    expect(page.locator("#legal button.move")).to_have_count(0)
    assert append(client, game, legal(client, game)[0]).status_code == 201
    settled(page, 2)
    expect(page.locator("#legal button.move")).not_to_have_count(0)
