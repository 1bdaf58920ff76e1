"""The recorder in a real Chromium: games recorded at the table by tapping the buttons the page
draws from GET /legal (and picking the cards in observed mode), an undo on the way, a retried
request that appends once, the new-game form with the API's validation next to its field, and a
co-recorder's move followed live."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Page, Route, expect

from tests.browser.helpers import LiveServer, events, state
from tests.service.test_api import append, create

RECORDER = "#recorder"
NOT_RECORDED = ("seq", "at", "hash", "void")


def open_recorder(page: Page, server: LiveServer, game: dict[str, Any]) -> None:
    page.goto(f"{server.url}/games/{game['id']}/record#token={game['token']}")
    settled(page, 0)


def settled(page: Page, version: int) -> None:
    expect(page.locator(RECORDER)).to_have_attribute("data-version", str(version))
    expect(page.locator(RECORDER)).to_have_attribute("data-busy", "false")


def version_of(page: Page) -> int:
    return int(page.locator(RECORDER).get_attribute("data-version") or "0")


def tap_a_move(page: Page, chooser: random.Random) -> None:
    """Tap one of the move buttons at random; pick at random in the picker until it closes."""
    version = version_of(page)
    buttons = page.locator("#legal button.move")
    count = buttons.count()
    assert count, "no move button"
    buttons.nth(chooser.randrange(count)).click()
    picks = 0
    while page.locator("#picker").is_visible():
        options = page.locator("#picker-options button")
        options.nth(chooser.randrange(options.count())).click()
        picks += 1
        assert picks < 20
    settled(page, version + 1)


def tap_undo(page: Page) -> None:
    version = version_of(page)
    page.get_by_role("button", name="Undo the last move").click()
    settled(page, version + 1)


def standing_moves(client: FlaskClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {name: value for name, value in event.items() if name not in NOT_RECORDED}
        for event in events(client, game)
        if not event["void"] and event["type"] != "retract"
    ]


def without_version(shown: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in shown.items() if name != "version"}


def test_a_whole_observed_mada_game_recorded_by_tapping(page: Page, server: LiveServer) -> None:
    client = server.client
    options = {"chance": "observed"}
    game = create(client, players=["Ana", "Ben"], seed=11, options=options)
    open_recorder(page, server, game)
    expect(page.locator("#undo")).to_be_disabled()
    chooser = random.Random(2024)
    taps = 0
    picked = False
    while page.locator(RECORDER).get_attribute("data-finished") != "true":
        if page.locator("#legal button.move").count() == 0:
            break
        tap_a_move(page, chooser)
        picked = picked or page.locator("#recent li").count() > 0
        taps += 1
        if taps == 5:
            before = standing_moves(client, game)
            tap_undo(page)
            assert standing_moves(client, game) == before[:-1]
            expect(page.locator("#recent li.void")).to_have_count(1)
        assert taps < 800, "the game does not end"
    expect(page.locator(RECORDER)).to_have_attribute("data-finished", "true")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#undo")).to_be_disabled()
    recorded = client.get(f"/games/{game['id']}").json
    assert recorded["status"] != "active"
    stored = events(client, game)
    assert [event["type"] for event in stored].count("retract") == 1
    assert stored[0]["type"] == "deal"  # observed: the cards dealt were picked

    # The same standing moves appended through the API give the same game.
    again = create(client, players=["Ana", "Ben"], seed=11, options=options)
    for move in standing_moves(client, game):
        assert append(client, again, move).status_code == 201
    final = state(client, game, recorded["version"])
    assert without_version(state(client, again, len(standing_moves(client, game)))) == (
        without_version(final)
    )
    assert client.get(f"/games/{again['id']}").json["result"] == recorded["result"]


def test_madcala_and_sifaka_recorded_for_a_few_turns(page: Page, server: LiveServer) -> None:
    client = server.client
    games = [
        create(client, game="madcala", players=["Ana", "Ben"], seed=4,
               options={"chance": "observed", "health": 3}),
        create(client, game="sifaka", players=["Ana", "Ben", "Caro"], seed=5,
               options={"chance": "observed"}),
    ]  # fmt: skip
    chooser = random.Random(7)
    for game in games:
        open_recorder(page, server, game)
        expect(page.locator("svg#board")).to_have_attribute("data-full", "true")
        for _ in range(12):
            if page.locator("#legal button.move").count() == 0:
                break
            tap_a_move(page, chooser)
        version = client.get(f"/games/{game['id']}").json["version"]
        assert version >= 6
        # What the page drew last is the service's state now.
        expect(page.locator("svg#board")).to_have_attribute("data-version", str(version))
        assert len(page.locator("#recent li").all()) == min(version, 12)


# The answer the test loses on purpose is logged by Chromium as a failed load.
@pytest.mark.console_error("net::ERR_FAILED")
def test_a_lost_answer_is_retried_with_the_same_key_and_appends_once(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = create(client, players=["Ana", "Ben"], seed=3, options={"chance": "seeded"})
    open_recorder(page, server, game)
    keys: list[tuple[str, str]] = []
    lost: list[int] = []

    def lose_the_first_answer(route: Route) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        keys.append((request.headers["idempotency-key"], request.headers["if-match"]))
        assert request.headers["authorization"] == f"Bearer {game['token']}"
        if not lost:
            answer = route.fetch()  # the server appends...
            lost.append(answer.status)
            route.abort("failed")  # ...but the browser never hears of it
        else:
            route.continue_()

    page.route("**/events", lose_the_first_answer)
    page.locator("#legal button.move").first.click()
    settled(page, 1)
    assert lost == [201]
    assert len(keys) == 2 and keys[0] == keys[1] and keys[0][1] == "0"
    assert client.get(f"/games/{game['id']}").json["version"] == 1
    assert len(events(client, game)) == 1
    # The next tap is a new key.
    page.locator("#legal button.move").first.click()
    settled(page, 2)
    assert len(keys) == 3 and keys[2][0] != keys[0][0] and keys[2][1] == "1"


# Chromium logs every answer of 400 and more as a failed load: here the API's refusals.
@pytest.mark.console_error("status of 409")
def test_a_move_recorded_elsewhere_appears_and_a_stale_tap_is_refused(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = create(client, players=["Ana", "Ben"], seed=3, options={"chance": "seeded"})
    open_recorder(page, server, game)
    move = client.get(f"/games/{game['id']}/legal").json["moves"][0]
    assert append(client, game, move).status_code == 201
    settled(page, 1)  # followed live
    # A tap at a version the page has not seen yet: refused with the API's words, then refreshed.
    page.evaluate("() => { window.Tabletape.recorder.view.version = 0; }")
    page.locator("#legal button.move").first.click()
    expect(page.locator("#record-error")).to_contain_text("another move was recorded first")
    settled(page, 1)
    assert client.get(f"/games/{game['id']}").json["version"] == 1


def test_the_token_travels_only_in_the_authorization_header(page: Page, server: LiveServer) -> None:
    game = create(server.client, players=["Ana", "Ben"], seed=3)
    sent: list[tuple[str, str | None]] = []
    page.on(
        "request", lambda request: sent.append((request.url, request.headers.get("authorization")))
    )
    open_recorder(page, server, game)
    page.locator("#legal button.move").first.click()
    settled(page, 1)
    assert all(game["token"] not in url.split("#")[0] for url, _ in sent)
    assert any(header == f"Bearer {game['token']}" for _, header in sent)
    expect(page.locator("#share-link")).to_have_value(
        f"{server.url}/games/{game['id']}/record#token={game['token']}"
    )


@pytest.mark.console_error("status of 400")
def test_the_new_game_form_shows_the_api_errors_and_opens_the_recorder(
    page: Page, server: LiveServer
) -> None:
    page.goto(f"{server.url}/new")
    page.get_by_label("Mada").check()
    page.get_by_label("Seat 0", exact=True).first.fill("Ana")
    page.get_by_role("button", name="Start recording").click()
    expect(page.locator("#error-players")).to_be_visible()
    expect(page.locator("#error-players")).to_contain_text("2 to 5")
    expect(page.locator("#form-error")).to_contain_text("mada is played by 2 to 5 players")
    expect(page.locator("#player-0")).to_have_attribute("aria-invalid", "true")

    page.locator("#player-1").fill("Ben")
    page.locator("#seed").fill("9")
    page.get_by_role("button", name="Start recording").click()
    page.wait_for_url("**/record#token=*")
    game_id = page.url.split("/games/")[1].split("/")[0]
    token = page.url.split("#token=")[1]
    settled(page, 0)
    created = server.client.get(f"/games/{game_id}").json
    assert created["seed"] == 9 and created["options"]["chance"] == "observed"
    assert created["players"] == ["Ana", "Ben"]
    assert "?" not in page.url and token
    # Observed: the first move is a deal, one button opening the card picker.
    expect(page.locator("#legal button.pick")).to_have_count(1)


@pytest.mark.console_error("status of 400")
def test_the_new_game_form_for_madcala_shows_a_field_error(page: Page, server: LiveServer) -> None:
    page.goto(f"{server.url}/new")
    page.get_by_label("Madcala").check()
    page.locator("#player-0").fill("Ana")
    page.locator("#player-1").fill("Ben")
    page.locator("#health").fill("0")
    page.get_by_role("button", name="Start recording").click()
    expect(page.locator("#error-health")).to_contain_text("1..99")
    page.locator("#health").fill("5")
    page.locator("#catalog").fill("{not json")
    page.get_by_role("button", name="Start recording").click()
    expect(page.locator("#error-catalog")).to_be_visible()
    page.locator("#catalog").fill("")
    page.get_by_role("button", name="Start recording").click()
    page.wait_for_url("**/record#token=*")
    settled(page, 0)
    data = json.loads(page.locator("#record-data").text_content() or "{}")
    assert data["game"] == "madcala" and data["chance"] == "observed"
