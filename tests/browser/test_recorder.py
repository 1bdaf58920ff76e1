"""The recorder in a real Chromium: games recorded at the table by tapping the buttons the page
draws from GET /legal (and picking the cards in observed mode), an undo on the way, a retried
request that appends once, a co-recorder's move followed live, a seat's link (its own hand, its own
moves, no undo), and the new-game form: the API's validation next to its field, the links it
hands out, a seed sent digit for digit.

These tests record through the list of moves ("Moves as a list", which a person may prefer: a
screen reader's user, say), the one way to record any game, whatever its drawing. Recording by
touching each game's own drawing is tested in test_touch_<game>.py."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Page, Route, expect

from tests.browser.helpers import (
    RECORDER,
    LiveServer,
    append,
    create,
    events,
    legal,
    open_recorder,
    said,
    settled,
    state,
)

MOVES_AS_A_LIST = "tabletape.moves-as-list"


@pytest.fixture(autouse=True)
def moves_as_a_list(page: Page) -> None:
    """Every page of these tests lists the moves as buttons, as a person who ticks "Moves as a
    list" sees them (the choice is kept in the browser's storage)."""
    # Every document the page opens runs it, some without storage (about:blank): those pass.
    page.add_init_script(
        f"try {{ window.localStorage.setItem({MOVES_AS_A_LIST!r}, '1'); }} catch (e) {{}}"
    )


BOARD = "svg#board"
NOT_RECORDED = ("seq", "at", "hash", "void")


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
        if page.locator("#picker-title").text_content() == "This move ends the game":
            # The move that ends the game is asked about first: yes, it was made.
            page.get_by_role("button", name="Yes: record it and end the game").click()
            break
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
    expect(page.locator("#recording-as")).to_contain_text("Recorder (all seats)")
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
    # Over, the last move may still be taken back (test_fix_the_record.py takes it back).
    expect(page.locator("#undo")).to_have_text("Take back the last move")
    recorded = client.get(f"/games/{game['id']}").json
    assert recorded["status"] != "active"
    stored = events(client, game)
    assert [event["type"] for event in stored].count("retract") == 1
    # Over: the moves are worded whole, as everyone may now read them.
    shown = [said(game, event) for event in stored][-12:]
    expect(page.locator("#recent li .text")).to_have_text(shown)
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
    move = legal(client, game)[0]
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
    page.get_by_label("Player 1", exact=True).first.fill("Ana")
    page.get_by_role("button", name="Start recording").click()
    expect(page.locator("#error-players")).to_be_visible()
    expect(page.locator("#error-players")).to_contain_text("2 to 5")
    expect(page.locator("#form-error")).to_contain_text("Mada is played by 2 to 5 players")
    expect(page.locator("#player-0")).to_have_attribute("aria-invalid", "true")

    page.locator("#player-1").fill("Ben")
    # The seed waits behind "More options", closed at first.
    expect(page.locator("#seed")).to_be_hidden()
    page.get_by_text("More options").click()
    page.locator("#seed").fill("9")
    page.get_by_role("button", name="Start recording").click()
    game_id, links = created_links(page, server)
    created = server.client.get(f"/games/{game_id}", headers=bearer(links["Recorder"])).json
    assert created["seed"] == 9 and created["options"]["chance"] == "observed"
    assert created["players"] == ["Ana", "Ben"]
    page.get_by_role("link", name="Open the recorder page").click()
    page.wait_for_url("**/record#token=*")
    settled(page, 0)
    assert "?" not in page.url and page.url == links["Recorder"]
    expect(page.locator("#recording-as")).to_contain_text("Recorder (all seats)")
    # Observed: the first move is a deal, one button opening the card picker.
    expect(page.locator("#legal button.pick")).to_have_count(1)


def bearer(link: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {link.split('#token=')[1]}"}


def created_links(page: Page, server: LiveServer) -> tuple[str, dict[str, str]]:
    """Once /new has created the game: its id, and the links it shows by their names."""
    created = page.locator("#created")
    expect(created).to_be_visible()
    expect(page.locator("#new-game")).to_be_hidden()
    game_id = created.get_attribute("data-game-id") or ""
    rows = page.locator("#created li.link-row")
    links = {}
    for row in rows.all():
        name = row.locator("a.link-name").text_content() or ""
        href = row.locator("a.link-name").get_attribute("href") or ""
        assert row.locator("input").input_value() == href
        links[name] = href
    assert game_id and links["Recorder"].startswith(f"{server.url}/games/{game_id}/record#token=")
    return game_id, links


@pytest.mark.parametrize("viewport", [{"width": 375, "height": 740}])
def test_the_new_game_form_hands_out_a_link_per_seat(page: Page, server: LiveServer) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{server.url}/new")
    page.get_by_label("Sifaka").check()
    for seat, name in enumerate(["Ana", "Ben", "Caro"]):
        page.locator(f"#player-{seat}").fill(name)
    page.get_by_role("button", name="Start recording").click()
    game_id, links = created_links(page, server)
    assert list(links) == ["Recorder", "Ana", "Ben", "Caro", "Viewer"]
    assert links["Viewer"] == f"{server.url}/games/{game_id}/view", "the viewer's link has no token"
    # Each kind of link says what it can do.
    kinds = page.locator("#created .link-group")
    expect(kinds.filter(has=page.locator('[data-kind="recorder"]'))).to_contain_text(
        "keep it to yourself"
    )
    expect(page.locator('#created .link-group[data-kind="seat"]')).to_contain_text(
        "that player's own hand"
    )
    expect(page.locator('#created .link-group[data-kind="viewer"]')).to_contain_text("spectators")
    # The seat links carry each seat's token: the API says whose.
    tokens: set[str] = set()
    for seat, name in enumerate(["Ana", "Ben", "Caro"]):
        link = page.get_by_role("link", name=name, exact=True)
        href = link.get_attribute("href") or ""
        assert href.startswith(f"{server.url}/games/{game_id}/record#token=")
        answer = server.client.get(f"/games/{game_id}", headers=bearer(href)).json
        assert answer["viewer"] == {"role": "seat", "seat": seat}
        tokens.add(href.split("#token=")[1])
    recorder = server.client.get(f"/games/{game_id}", headers=bearer(links["Recorder"])).json
    assert recorder["viewer"] == {"role": "recorder", "seat": None}
    assert len(tokens | {links["Recorder"].split("#token=")[1]}) == 4
    # Copy buttons, one per link, each named for its link.
    expect(page.locator("#created button.copy")).to_have_count(5)
    page.get_by_role("button", name="Copy Ben's link").click()
    expect(page.locator("#copy-note")).to_have_text("Ben's link copied.")
    assert page.evaluate("navigator.clipboard.readText()") == links["Ben"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 375, "it scrolls sideways"


def test_the_new_game_form_sends_a_big_seed_digit_for_digit(page: Page, server: LiveServer) -> None:
    seed = 18446744073709551615  # 2**64 - 1: a JS Number would make it 18446744073709552000
    bodies: list[str] = []
    page.on(
        "request",
        lambda sent: bodies.append(sent.post_data or "") if sent.method == "POST" else None,
    )
    page.goto(f"{server.url}/new")
    page.locator("#player-0").fill("Ana")
    page.locator("#player-1").fill("Ben")
    page.get_by_text("More options").click()
    page.locator("#seed").fill(str(seed))
    page.get_by_role("button", name="Start recording").click()
    game_id, links = created_links(page, server)
    assert f'"seed":{seed},' in bodies[0]
    created = server.client.get(f"/games/{game_id}", headers=bearer(links["Recorder"])).json
    assert created["seed"] == seed


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
    page.get_by_text("More options").click()
    page.locator("#catalog").fill("{not json")
    page.get_by_role("button", name="Start recording").click()
    expect(page.locator("#error-catalog")).to_be_visible()
    page.locator("#catalog").fill("")
    page.locator("#seed").fill("007")  # leading zeros, which JSON forbids, are dropped
    page.get_by_role("button", name="Start recording").click()
    game_id, links = created_links(page, server)
    created = server.client.get(f"/games/{game_id}", headers=bearer(links["Recorder"])).json
    assert created["seed"] == 7
    page.get_by_role("link", name="Open the recorder page").click()
    settled(page, 0)
    data = json.loads(page.locator("#record-data").text_content() or "{}")
    assert data["game"] == "madcala" and data["chance"] == "observed"


# A seat's link ---------------------------------------------------------------------------------
def test_a_seats_link_shows_its_own_hand_and_offers_only_its_moves(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = create(client, players=["Ana", "Ben"], seed=11, options={"chance": "observed"})
    for _ in range(2):  # the recorder names the cards dealt to each seat
        assert append(client, game, legal(client, game)[0]).status_code == 201
    sent: list[tuple[str, str, str | None]] = []
    page.on(
        "request",
        lambda request: sent.append(
            (request.method, request.url, request.headers.get("authorization"))
        ),
    )
    open_recorder(page, server, game, seat=0, version=2)
    expect(page.locator("#recording-as")).to_contain_text("Recording as Ana:")
    expect(page.locator("#undo")).to_be_hidden()
    expect(page.locator("#share-summary")).to_have_text("Ana's link")

    # Ana's hand, and only hers.
    anas = state(client, game, 2, seat=0)
    assert anas["hands"][0] and anas["hands"][1] is None
    expect(page.locator(BOARD)).to_have_attribute("data-viewer", "seat")
    expect(page.locator(BOARD)).to_have_attribute("data-full", "false")
    expect(page.locator(f"{BOARD} g.seat[data-hand]")).to_have_count(1)
    drawn = page.locator(f'{BOARD} g.seat[data-seat="0"]').get_attribute("data-hand")
    assert json.loads(drawn or "null") == anas["hands"][0]
    # Her own deal is worded with its cards; Ben's stays hidden.
    worded = [said(game, event) for event in events(client, game, seat=0)]
    expect(page.locator("#recent li .text")).to_have_text(worded)
    assert "hidden" in worded[1] and "hidden" not in worded[0]

    # The moves offered are those /legal lists for Ana's token: all hers.
    offered = [
        json.loads(button.get_attribute("data-move") or button.get_attribute("data-group") or "")
        for button in page.locator("#legal button.move").all()
    ]
    assert offered and all(move["player"] == 0 for move in offered)
    own = legal(client, game, seat=0)
    singles = page.locator("#legal button.move[data-move]").all()
    assert all(json.loads(b.get_attribute("data-move") or "") in own for b in singles)

    # Ana plays a card (the whole table sees it): Ben's decision is awaited now.
    page.locator('#legal section[data-type="play"] button.move').first.click()
    settled(page, 3)
    posted = [header for method, url, header in sent if method == "POST"]
    assert posted == [f"Bearer {game['seat_tokens'][0]}"]
    assert state(client, game, 3)["current_player"] == 1
    expect(page.locator("#record-status")).to_contain_text(
        "Waiting for Ben: Ben's decision is awaited."
    )
    expect(page.locator("#legal .waiting")).to_contain_text("Not your turn")
    expect(page.locator("#legal button")).to_have_count(0)
    assert legal(client, game, seat=0) == []

    # Ben's moves, recorded on his own phone, arrive live; then Ana's turn comes round again.
    version = 3
    while state(client, game, version)["current_player"] == 1:
        assert append(client, game, legal(client, game, seat=1)[0], seat=1).status_code == 201
        version += 1
        settled(page, version)
    expect(page.locator("#legal button.move").first).to_be_visible()
    expect(page.locator("#record-status")).to_contain_text("Your turn, Ana")


# A seat may not retract: the API refuses (403), and the page shows its words like any refusal.
@pytest.mark.console_error("status of 403")
def test_a_refusal_of_a_seats_request_shows_the_apis_message(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = create(client, players=["Ana", "Ben"], seed=3, options={"chance": "seeded"})
    open_recorder(page, server, game, seat=0)
    page.locator("#legal button.move").first.click()
    settled(page, 1)
    # No Undo on a seat's page; a retraction sent all the same is the recorder's alone.
    page.evaluate("() => window.Tabletape.recorder.record({ type: 'retract' })")
    expect(page.locator("#record-error")).to_have_text(
        "Not recorded: only the recorder's token may retract a move, not a seat's"
    )
    settled(page, 1)
    assert client.get(f"/games/{game['id']}").json["version"] == 1


# A token that is not the game's is refused (401) wherever it goes: Chromium logs the answer.
@pytest.mark.console_error("status of 401")
def test_a_link_without_the_games_token_shows_the_game_and_records_nothing(
    page: Page, server: LiveServer
) -> None:
    game = create(server.client, players=["Ana", "Ben"], seed=3)
    for fragment, says in (("", "for spectators"), ("#token=not-the-token", "not this game's")):
        page.goto("about:blank")  # a new fragment alone would not load the page again
        page.goto(f"{server.url}/games/{game['id']}/record{fragment}")
        expect(page.locator(RECORDER)).to_have_attribute("data-ready", "true")
        expect(page.locator("#recording-as")).to_contain_text(says)
        expect(page.locator(BOARD)).to_have_attribute("data-viewer", "public")
        expect(page.locator("#legal button")).to_have_count(0)
        expect(page.locator("#undo")).to_be_disabled()
        expect(page.locator("#record-status")).to_contain_text("not recorded")
