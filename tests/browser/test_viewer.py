"""The replay viewer in a real Chromium: each game drawn as its state says, stepped through with
the buttons, the keys, the slider and the move list's links; a game followed live; the tokens (the
recorder's shows everything, a seat's its own hand); the seed commitment of a finished game.

What is drawn is read back from the SVG's data attributes and from the drawn cards, tokens and
pawns themselves, and compared with the state JSON the API serves for the same move.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Page, Route, expect

from tests.browser.helpers import (
    BOARD,
    GAMES,
    LiveServer,
    append,
    check_mada,
    create,
    datasets,
    events,
    legal,
    new_game,
    play,
    said,
    sent_words,
    state,
)


def check_madcala(page: Page, shown: dict[str, Any]) -> None:
    plates = sorted(datasets(page, f"{BOARD} g.plate"), key=lambda plate: int(plate["space"]))
    assert len(plates) == 12
    for space, drawn in enumerate(plates):
        cell = shown["spaces"][space]
        assert json.loads(drawn["normal"]) == cell["normal"]
        assert json.loads(drawn["doubler"]) == cell["doubler"]
        assert drawn["effect"] == shown["layout"][space]
        # The tokens drawn on the plate: one per seat with Shards there, showing their number.
        tokens = page.locator(f'{BOARD} g.plate[data-space="{space}"] g.shards text')
        assert sorted(int(count) for count in tokens.all_text_contents()) == sorted(
            count for count in cell["normal"] if count
        )
        doublers = page.locator(f'{BOARD} g.plate[data-space="{space}"] g.doubler')
        assert doublers.count() == sum(cell["doubler"])
    for seat in (0, 1):
        drawn = datasets(page, f'{BOARD} g.seat[data-seat="{seat}"]')[0]
        assert int(drawn["health"]) == shown["health"][seat]
        assert int(drawn["maxHealth"]) == shown["max_health"][seat]
        assert int(drawn["reserve"]) == shown["reserves"][seat]
        assert int(drawn["handSize"]) == shown["hand_sizes"][seat]
        if shown["hands"][seat] is not None:
            assert json.loads(drawn["hand"]) == shown["hands"][seat]
        else:
            assert "hand" not in drawn
        cards = datasets(page, f'{BOARD} g.seat[data-seat="{seat}"] g.plus-one')
        assert [
            (card["card"], card["faceUp"] == "true", int(card["shards"])) for card in cards
        ] == [(card["id"], card["face_up"], card["shards"]) for card in shown["plus_ones"][seat]]


def check_sifaka(page: Page, shown: dict[str, Any]) -> None:
    fields = ("kind", "palms", "arrow", "mango", "hut")

    def box_key(box: dict[str, Any]) -> tuple[Any, ...]:
        return (
            int(box["x"]),
            int(box["y"]),
            *(str(box[name]) if box.get(name) is not None else None for name in fields),
            str(box.get("counter", "")).lower() == "true",
        )

    drawn_boxes = sorted(box_key(box) for box in datasets(page, f"{BOARD} g.box"))
    assert drawn_boxes == sorted(box_key(box) for box in shown["boxes"])
    values = {
        (int(box["x"]), int(box["y"])): int(box["counterValue"])
        for box in datasets(page, f"{BOARD} g.box[data-counter-value]")
    }
    assert values == {
        (box["x"], box["y"]): box["counter_value"]
        for box in shown["boxes"]
        if "counter_value" in box
    }
    pawns = sorted(datasets(page, f"{BOARD} g.pawn"), key=lambda pawn: int(pawn["seat"]))
    assert [(int(p["x"]), int(p["y"]), p["facing"]) for p in pawns] == [
        (pawn["x"], pawn["y"], pawn["facing"]) for pawn in shown["pawns"]
    ]
    for seat, drawn in enumerate(datasets(page, f"{BOARD} g.seat")):
        assert json.loads(drawn["counters"]) == shown["counters"][seat]
        assert int(drawn["handSize"]) == shown["hand_sizes"][seat]
        if shown["scores"][seat] is not None:
            assert int(drawn["score"]) == shown["scores"][seat]
        else:
            assert "score" not in drawn
        # A null hand: no card, or one this viewer may not see. data-hand is a card shown.
        if shown["hands"][seat] is not None:
            assert json.loads(drawn["hand"]) == shown["hands"][seat]
        else:
            assert "hand" not in drawn


CHECKS: dict[str, Callable[[Page, dict[str, Any]], None]] = {
    "mada": check_mada,
    "madcala": check_madcala,
    "sifaka": check_sifaka,
}


class Viewer:
    """One game's viewer page, and what it should show after each move."""

    def __init__(self, page: Page, server: LiveServer, game: dict[str, Any]) -> None:
        self.page = page
        self.client: FlaskClient = server.client
        self.game = game
        self.url = f"{server.url}/games/{game['id']}/view"
        self.check = CHECKS[game["game"]]

    def stored(self) -> list[dict[str, Any]]:
        return events(self.client, self.game)

    def expect_at(self, at: int, *, token: bool = True, seat: int | None = None) -> None:
        """The board, the slider, the live status line and the move list all say move ``at``;
        the board as the recorder (or seat ``seat``, or without a token the public) sees it."""
        version = self.client.get(f"/games/{self.game['id']}").json["version"]
        expect(self.page.locator(BOARD)).to_have_attribute("data-at", str(at))
        self.check(self.page, state(self.client, self.game, at, token=token, seat=seat))
        expect(self.page.locator("#slider")).to_have_value(str(at))
        if at == 0:
            words = "the start"
        else:
            event = self.stored()[at - 1]
            words = said(self.game, event) + (" (voided)" if event.get("void") else "")
        expect(self.page.get_by_role("status")).to_have_text(f"move {at} of {version}: {words}")
        expect(self.page.locator("#moves a[aria-current]")).to_have_count(1)
        expect(self.page.locator(f'#moves li[data-at="{at}"] a')).to_have_attribute(
            "aria-current", "step"
        )


@pytest.mark.parametrize("game_name", list(GAMES))
def test_step_through_a_recorded_game(page: Page, server: LiveServer, game_name: str) -> None:
    game = new_game(server.client, game_name)
    version = play(server.client, game)
    assert version >= 5, "too short a game to step through"
    viewer = Viewer(page, server, game)

    page.goto(f"{viewer.url}?at=3")
    viewer.expect_at(3)
    page.get_by_role("button", name="Next").click()
    viewer.expect_at(4)
    assert page.url.endswith("?at=4")
    page.get_by_role("button", name="Previous").click()
    page.get_by_role("button", name="Previous").click()
    viewer.expect_at(2)

    # The keys, wherever the focus is but in a field.
    page.keyboard.press("ArrowRight")
    viewer.expect_at(3)
    page.keyboard.press("ArrowLeft")
    viewer.expect_at(2)
    page.keyboard.press("End")
    viewer.expect_at(version)
    expect(page.get_by_role("button", name="Next")).to_be_disabled()
    expect(page.get_by_role("button", name="Last")).to_be_disabled()
    page.keyboard.press("Home")
    viewer.expect_at(0)
    expect(page.get_by_role("button", name="Previous")).to_be_disabled()
    page.get_by_role("button", name="Last").click()
    viewer.expect_at(version)
    page.get_by_role("button", name="First").click()
    viewer.expect_at(0)

    # The slider steps by itself.
    page.get_by_label("Move", exact=True).focus()
    page.keyboard.press("ArrowRight")
    viewer.expect_at(1)
    page.keyboard.press("End")
    viewer.expect_at(version)

    # A link to any move: from the list, and as an address.
    page.locator('#moves li[data-at="5"] a').click()
    viewer.expect_at(5)
    assert page.url == f"{viewer.url}?at=5"
    page.reload()
    viewer.expect_at(5)
    page.goto(f"{viewer.url}?at={version - 1}")
    viewer.expect_at(version - 1)

    # The move list says what the server's describe() says, every move; and so do the words
    # GET /events sends beside the events, which the viewer shows for the moves that arrive live.
    worded = [said(game, event) for event in viewer.stored()]
    assert page.locator("#moves li .text").all_text_contents() == ["the start", *worded]
    assert sent_words(server.client, game) == worded


# A token that is not the game's is refused (401): Chromium logs that answer as a failed load.
@pytest.mark.console_error("status of 401")
def test_hidden_cards_show_only_with_the_token(page: Page, server: LiveServer) -> None:
    game = new_game(server.client, "mada")
    play(server.client, game, moves=4)
    viewer = Viewer(page, server, game)
    sent: list[tuple[str, str | None]] = []
    page.on(
        "request", lambda request: sent.append((request.url, request.headers.get("authorization")))
    )

    page.goto(viewer.url)
    viewer.expect_at(4, token=False)
    expect(page.locator(BOARD)).to_have_attribute("data-full", "false")
    expect(page.locator(BOARD)).to_have_attribute("data-viewer", "public")
    assert page.locator(f"{BOARD} g.seat[data-hand]").count() == 0
    expect(page.locator("#access")).to_contain_text("Public view")

    page.goto(f"{viewer.url}?at=4#token={game['token']}")
    viewer.expect_at(4, token=True)
    expect(page.locator(BOARD)).to_have_attribute("data-full", "true")
    expect(page.locator(BOARD)).to_have_attribute("data-viewer", "recorder")
    assert page.locator(f"{BOARD} g.seat[data-hand]").count() == 3
    expect(page.locator("#access")).to_contain_text("Recorder's view")
    page.keyboard.press("ArrowLeft")
    viewer.expect_at(3, token=True)
    assert page.url.endswith(f"?at=3#token={game['token']}"), "the token stays in the fragment"

    # A seat's link: that player's hand, the others face down.
    ben = game["seat_tokens"][1]
    page.goto(f"{viewer.url}?at=4#token={ben}")
    viewer.expect_at(4, seat=1)
    expect(page.locator(BOARD)).to_have_attribute("data-full", "false")
    expect(page.locator(BOARD)).to_have_attribute("data-viewer", "seat")
    expect(page.locator(f"{BOARD} g.seat[data-hand]")).to_have_count(1)
    expect(page.locator(f'{BOARD} g.seat[data-seat="1"]')).to_have_attribute(
        "data-hand", re.compile(r"^\[")
    )
    expect(page.locator("#access")).to_have_text("Seat view: Ben's hand shown, the others hidden.")

    page.goto(f"{viewer.url}?at=2#token=not-the-token")
    viewer.expect_at(2, token=False)
    expect(page.locator("#access")).to_contain_text("not this game's")
    expect(page.locator(BOARD)).to_have_attribute("data-viewer", "public")

    assert all(game["token"] not in url for url, _ in sent), "the token went into an address"
    assert all(ben not in url for url, _ in sent), "a seat's token went into an address"
    with_token = [url for url, header in sent if header == f"Bearer {game['token']}"]
    assert any("/state?at=4" in url for url in with_token)
    assert any("/state?at=4" in url for url, header in sent if header == f"Bearer {ben}")


def test_a_seats_link_words_its_own_moves_whole(page: Page, server: LiveServer) -> None:
    """The server renders the public move list; a seat's page words again what its token shows
    (its own cards dealt), and the others' stay hidden."""
    client = server.client
    game = create(client, players=["Ana", "Ben"], seed=11, options={"chance": "observed"})
    for _ in range(2):  # the recorder names the cards dealt to each seat
        assert append(client, game, legal(client, game)[0]).status_code == 201
    viewer = Viewer(page, server, game)
    public = [said(game, event) for event in events(client, game)]
    anas = [said(game, event) for event in events(client, game, seat=0)]
    assert public[0] != anas[0] and public[1] == anas[1], "Ana sees her own deal only"

    page.goto(viewer.url)
    viewer.expect_at(2, token=False)
    expect(page.locator("#moves li .text")).to_have_text(["the start", *public])

    # Ana's link pasted into the same tab: only the fragment changes, and the page starts again.
    page.evaluate("(token) => { window.location.hash = `token=${token}`; }", game["seat_tokens"][0])
    expect(page.locator("#access")).to_have_text("Seat view: Ana's hand shown, the others hidden.")
    viewer.expect_at(2, seat=0)
    expect(page.locator("#moves li .text")).to_have_text(["the start", *anas])
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_role("status")).to_have_text(f"move 1 of 2: {anas[0]}")


def without_the_stream(page: Page) -> None:
    """As a server without GET /games/{id}/stream would answer it: the viewer polls instead."""
    page.route(
        "**/games/*/stream*",
        lambda route: route.fulfill(
            status=404,
            content_type="application/json",
            body='{"error": {"code": "not_found", "message": "no such resource", "details": {}}}',
        ),
    )


FOLLOWING = ["stream", "polling"]


@pytest.mark.parametrize("following", FOLLOWING)
def test_a_game_being_recorded_is_drawn_live_without_a_reload(
    page: Page, server: LiveServer, following: str
) -> None:
    client = server.client
    game = new_game(client, "mada")
    play(client, game, moves=3)
    viewer = Viewer(page, server, game)
    if following == "polling":
        without_the_stream(page)
    page.goto(viewer.url)
    viewer.expect_at(3, token=False)
    expect(page.locator("#live")).to_be_visible()
    expect(page.locator("#live")).to_have_attribute("data-mode", following)
    page.evaluate("window.sameDocument = true")

    assert append(client, game, legal(client, game)[0]).status_code == 201
    viewer.expect_at(4, token=False)
    expect(page.locator("#moves li")).to_have_count(5)
    assert page.url == viewer.url, "at the last move of a live game, the address has no ?at"

    # Away from the last move, a new move is listed, and the view stays where it is.
    page.get_by_role("button", name="Previous").click()
    viewer.expect_at(3, token=False)
    assert append(client, game, legal(client, game)[0]).status_code == 201
    expect(page.locator("#moves li")).to_have_count(6)
    expect(page.locator("#position")).to_have_text("3 / 5")
    expect(page.locator(BOARD)).to_have_attribute("data-at", "3")
    page.keyboard.press("End")
    viewer.expect_at(5, token=False)
    assert page.evaluate("window.sameDocument") is True, "the page was reloaded"

    texts = page.locator("#moves li .text").all_text_contents()
    assert texts[1:] == [said(game, event) for event in viewer.stored()]


@pytest.mark.parametrize("following", FOLLOWING)
def test_a_live_game_that_ends_shows_its_result(
    page: Page, server: LiveServer, following: str
) -> None:
    client = server.client
    game = new_game(client, "madcala")
    viewer = Viewer(page, server, game)
    if following == "polling":
        without_the_stream(page)
    page.goto(viewer.url)
    viewer.expect_at(0, token=False)
    expect(page.locator("#live")).to_have_attribute("data-mode", following)
    version = play(client, game)
    expect(page.locator("#game-status")).to_have_text("finished", timeout=15_000)
    # Once over, the states are fetched again, whole: hands and all.
    expect(page.locator(BOARD)).to_have_attribute("data-full", "true")
    viewer.expect_at(version)
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result")).to_contain_text("Result:")
    expect(page.locator("#live")).to_be_hidden()
    expect(page.locator("#access")).to_contain_text("The game is over")
    texts = page.locator("#moves li .text").all_text_contents()
    assert texts[1:] == [said(game, event) for event in viewer.stored()]


@pytest.mark.parametrize("following", FOLLOWING)
def test_a_retraction_voids_a_move_in_the_list(
    page: Page, server: LiveServer, following: str
) -> None:
    client = server.client
    game = new_game(client, "mada")
    play(client, game, moves=3)
    viewer = Viewer(page, server, game)
    if following == "polling":
        without_the_stream(page)
    page.goto(f"{viewer.url}#token={game['token']}")
    viewer.expect_at(3)
    retracted = append(client, game, {"type": "retract"})
    if retracted.status_code != 201:
        pytest.skip(f"this service records no retraction yet ({retracted.status_code})")
    viewer.expect_at(4)
    expect(page.locator('#moves li[data-at="4"]')).to_have_attribute("data-type", "retract")
    expect(page.locator('#moves li[data-at="3"]')).to_have_class("void")
    expect(page.locator('#moves li[data-at="3"] .voided')).to_have_text("(voided)")
    page.keyboard.press("ArrowLeft")
    viewer.expect_at(3)
    expect(page.get_by_role("status")).to_contain_text("(voided)")
    # Drawn by the server the same way.
    page.reload()
    viewer.expect_at(3)
    expect(page.locator("#moves li.void")).to_have_count(1)
    expect(page.locator('#moves li[data-at="3"]')).to_have_class("void")


@pytest.mark.parametrize("viewport", [{"width": 375, "height": 740}])
@pytest.mark.parametrize("game_name", list(GAMES))
def test_the_viewer_fits_a_phone(page: Page, server: LiveServer, game_name: str) -> None:
    game = new_game(server.client, game_name)
    version = play(server.client, game, moves=12)
    viewer = Viewer(page, server, game)
    page.goto(f"{viewer.url}#token={game['token']}")
    viewer.expect_at(version)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "it scrolls sideways"
    board = page.locator(BOARD).bounding_box()
    assert board is not None and board["width"] <= 375
    for name in ("First", "Previous", "Next", "Last"):
        button = page.get_by_role("button", name=name).bounding_box()
        assert (
            button is not None and button["height"] >= 44 and button["x"] + button["width"] <= 375
        )
    page.get_by_role("button", name="Previous").click()
    viewer.expect_at(version - 1)


@pytest.mark.parametrize("game_name", list(GAMES))
def test_the_board_is_an_image_with_a_text_alternative(
    page: Page, server: LiveServer, game_name: str
) -> None:
    game = new_game(server.client, game_name)
    version = play(server.client, game, moves=6)
    page.goto(f"{server.url}/games/{game['id']}/view")
    expect(page.locator(BOARD)).to_have_attribute("data-at", str(version))
    board = page.get_by_role("img", name=f"{game_name.title()} after move {version} of {version}")
    expect(board).to_have_count(1)
    description = page.locator("#board-desc").text_content() or ""
    for name in game["players"]:
        assert name in description
    live = page.get_by_role("status")
    expect(live).to_have_attribute("aria-live", "polite")
    expect(page.get_by_label("Move", exact=True)).to_have_attribute(
        "aria-valuetext", f"move {version} of {version}"
    )
    # The controls are reached with the Tab key (disabled ones skipped), and show the focus.
    page.get_by_role("button", name="First").focus()
    reached = []
    for _ in range(2):
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.id"))
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("none", ""), f"no visible focus on {reached[-1]}"
    assert reached == ["prev", "slider"]


def test_a_game_with_no_move_yet(page: Page, server: LiveServer) -> None:
    game = new_game(server.client, "sifaka")
    viewer = Viewer(page, server, game)
    page.goto(viewer.url)
    viewer.expect_at(0, token=False)
    expect(page.get_by_role("button", name="Next")).to_be_disabled()
    expect(page.get_by_role("button", name="First")).to_be_disabled()


def test_the_viewer_of_a_finished_game_shows_the_seed_commitment(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = new_game(client, "madcala")
    # While the game is on, "Check this record" shows the commitment, not the seed; the first
    # screen shows neither.
    page.goto(f"{server.url}/games/{game['id']}/view")
    check = page.locator("details#check-record")
    expect(check.locator("code.commitment")).to_be_hidden()
    check.locator("summary").click()
    expect(check.locator("code.commitment")).to_have_text(game["seed_commitment"])
    expect(page.locator("#commitment")).to_have_count(0)
    expect(check.locator("code.seed")).to_have_count(0)
    assert game["seed_commitment"][:12] not in (page.locator(".game-head").text_content() or "")

    play(client, game)
    page.goto(f"{server.url}/games/{game['id']}/view")
    paragraph = page.locator("#commitment")
    expect(paragraph).to_be_hidden()
    page.locator("details#check-record summary").click()
    expect(paragraph).to_be_visible()
    expect(paragraph).to_contain_text("committed to before the first move")
    expect(paragraph).to_contain_text(game["seed_commitment"])
    expect(paragraph).to_contain_text("Check passed")
    expect(page.locator("details#check-record code.seed")).to_have_text("7")
    assert "seed" not in (page.locator(".game-head").text_content() or "").lower()


BIG_SEED = 18446744073709551615  # 2**64 - 1: far above 2**53, where a JS Number rounds


@pytest.mark.parametrize("tampered", [False, True])
def test_the_browser_checks_the_commitment_again_from_the_seeds_digits(
    page: Page, server: LiveServer, tampered: bool
) -> None:
    """viewer.js checks the commitment with crypto.subtle when the page's data carries the seed as
    a string (with seed_salt and seed_commitment). The server does not put them there yet: the test
    adds them to the page as pages.py would, from the finished game's resource."""
    client = server.client
    game = create(client, game="madcala", players=["Ana", "Ben"], seed=BIG_SEED,
                  options={"health": 3})  # fmt: skip
    play(client, game)
    finished = client.get(f"/games/{game['id']}").json
    assert finished["seed"] == BIG_SEED and finished["status"] != "active"
    salt = finished["seed_salt"]
    if tampered:
        salt = ("0" if salt[0] != "0" else "1") + salt[1:]

    def with_the_seed(route: Route) -> None:
        answer = route.fetch()
        html = answer.text()
        found = re.search(r'(<script type="application/json" id="viewer-data">)(.*?)(</script>)',
                          html, re.S)  # fmt: skip
        assert found
        data = json.loads(found.group(2))
        data.setdefault("seed", str(BIG_SEED))
        data.setdefault("seed_commitment", finished["seed_commitment"])
        data["seed_salt"] = salt if tampered else data.get("seed_salt", salt)
        html = html.replace(found.group(2), json.dumps(data))
        route.fulfill(response=answer, body=html)

    url = f"{server.url}/games/{game['id']}/view"
    page.route(url, with_the_seed)
    page.goto(url)
    paragraph = page.locator("#commitment")
    expect(paragraph).to_have_attribute("data-browser-check", "fail" if tampered else "pass")
    expect(paragraph).to_contain_text(
        "it does NOT match" if tampered else "Checked again in this browser: it matches."
    )


CONTRAST = (Path(__file__).parent / "contrast.js").read_text()


def test_the_pages_text_has_a_contrast_of_at_least_4_5_to_1(page: Page, server: LiveServer) -> None:
    game = new_game(server.client, "mada")
    play(server.client, game, moves=5)
    over = new_game(server.client, "madcala")
    play(server.client, over)
    paths = (
        f"/games/{game['id']}/view",
        f"/games/{game['id']}/view#token={game['seat_tokens'][0]}",
        f"/games/{over['id']}/view",  # with the commitment's check
        f"/games/{game['id']}/record#token={game['seat_tokens'][1]}",
        "/",
        "/stats/mada/view",
    )
    for path in paths:
        page.goto("about:blank")
        page.goto(f"{server.url}{path}")
        # Drawn, and the page's own words (whose view, whose link) in place.
        page.wait_for_selector("svg#board[data-viewer], main:not(:has(svg#board))")
        ratios = page.evaluate(CONTRAST)
        assert ratios, path
        low = [(text, round(ratio, 2)) for text, ratio in ratios if ratio < 4.5]
        assert not low, (path, low)
