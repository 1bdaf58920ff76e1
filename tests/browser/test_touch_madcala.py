"""Madcala recorded by touching the game (domain/madcala/browser/madcala.js, record(table)): whole
games on a 390x844 phone, clicking nothing but the controls that record ([data-records-move]: the
plates, the Plus-One cards, the Commoners in hand, the action buttons, the picker's pictures and the
confirmation), chosen at random among those offered; in seeded and in observed mode, on the
recorder's page and on each seat's own page; and one game on a laptop's screen.

At every step: a control that records is on the first screen without scrolling, none is labelled
with raw data, every picker option shows a picture, and the move that ends the game is confirmed
first. The game recorded is then replayed through the API to the same state."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Browser, Page, expect

from domain.madcala import MADCALA
from service.games import move_words
from tests.browser.helpers import (
    LiveServer,
    append,
    check_at_a_finger,
    check_no_machinery,
    create,
    events,
    legal,
    open_recorder,
    sent_words,
)

RECORDER = "#recorder"
TOUCH = "[data-records-move]"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
PLAYERS = ["Ana", "Ben"]
# Raw data in a label: a list, an object, a coordinate pair, a bare card or space number.
RAW = re.compile(r"[\[\]{}]|\(\s*-?\d+\s*,\s*-?\d+\s*\)|\b(card|space|c)\s?\d+\b|_")
ENDS = "This move ends the game"
MAX_TOUCHES = 1500


@pytest.fixture
def viewport() -> dict[str, int]:
    return PHONE


@dataclass
class Tally:
    """What the touches went through, for the checks at the end."""

    touches: int = 0
    moves: int = 0
    labels: list[str] = field(default_factory=list)
    pickers: list[str] = field(default_factory=list)
    confirmed: int = 0
    worded: int = 0  # touches that recorded a move at once, each said in the API's words
    followed: int = 0  # turns ended with the touch before, nothing else being left to do


def settle(page: Page) -> None:
    expect(page.locator(RECORDER)).to_have_attribute("data-busy", "false")


def version_of(client: FlaskClient, game: dict[str, Any]) -> int:
    version: int = client.get(f"/games/{game['id']}").json["version"]
    return version


def label_of(control: Any) -> str:
    return str(control.get_attribute("aria-label") or control.inner_text()).strip()


SCREEN = """() => {
  window.scrollTo(0, 0);
  return [...document.querySelectorAll("[data-records-move]")]
    .filter((node) => node.getClientRects().length)
    .map((node) => {
      const box = node.getBoundingClientRect();
      const words = (node.getAttribute("aria-label") || node.innerText || "").trim();
      return { words, top: box.top, bottom: box.bottom };
    });
}"""


def check_screen(page: Page, height: int) -> None:
    """From the top of the page, unscrolled: a control that records is within the first screen;
    and no control that records is labelled with raw data."""
    controls = page.evaluate(SCREEN)
    assert controls, "nothing to touch"
    check_at_a_finger(page)
    check_no_machinery(page)
    assert any(box["top"] >= 0 and box["bottom"] <= height for box in controls), (
        "no control that records is on the first screen"
    )
    for box in controls:
        assert box["words"], "a control that records has no label"
        assert not RAW.search(box["words"]), f"raw data in a label: {box['words']!r}"


# The moves the page offers now and beside each its words, as GET /legal sent them.
LISTED_JS = """() => {
  const view = window.Tabletape.recorder.view;
  return { moves: view.legal, words: view.words };
}"""


def touch_once(
    page: Page,
    chooser: random.Random,
    tally: Tally,
    height: int,
    client: FlaskClient | None = None,
    game: dict[str, Any] | None = None,
) -> None:
    """One touch among the controls that record, as a person at the table would: in the picker
    when it is open, else on the board or the action buttons. A touch on the board or the buttons
    that records a move at once says that move in the API's words: those GET /legal sent beside
    it, the server's ``move_words`` (checked where ``client`` and ``game`` are given)."""
    check_screen(page, height)
    picker = page.locator("#picker")
    listed = None
    before = page.locator(RECORDER).get_attribute("data-version")
    if picker.is_visible():
        title = page.locator("#picker-title").inner_text()
        tally.pickers.append(title)
        options = page.locator(f"#picker-options {TOUCH}")
        count = options.count()
        assert count, "a picker without options"
        if title == ENDS:
            # The confirmation: "Yes" records the move that ends the game.
            tally.confirmed += 1
            chosen = page.locator(f"#picker-options {TOUCH}").filter(has_text="Yes")
        else:
            for index in range(count):
                option = options.nth(index)
                assert option.locator("svg.picture").count() == 1, (
                    f"a picker option without its picture: {label_of(option)!r} in {title!r}"
                )
            chosen = options.nth(chooser.randrange(count))
    else:
        controls = page.locator(f"#board {TOUCH}, #actions {TOUCH}")
        count = controls.count()
        assert count, "no control that records"
        chosen = controls.nth(chooser.randrange(count))
        listed = page.evaluate(LISTED_JS)
    label = label_of(chosen)
    tally.labels.append(label)
    chosen.click()
    tally.touches += 1
    settle(page)
    if listed is None or client is None or game is None:
        return
    after = page.locator(RECORDER).get_attribute("data-version")
    if after == before:
        return
    stored_all = events(client, game, token=True)
    # Where the rules left nothing but the end of the turn, it went with the touch.
    followed = int(after or 0) - int(before or 0) == 2
    if followed:
        assert stored_all[-1]["type"] == "end_turn"
    stored = stored_all[-2 if followed else -1]
    matches = [
        (move, words)
        for move, words in zip(listed["moves"], listed["words"], strict=True)
        if move == {name: value for name, value in stored.items() if name in move}
    ]
    assert matches, f"recorded a move /legal did not list: {stored}"
    # The touch's words are those GET /legal sent beside the move, the server's own.
    assert any(label == words == move_words(MADCALA, move, PLAYERS) for move, words in matches), (
        label,
        matches,
    )
    tally.worded += 1


def record_a_game(
    pages: dict[int | None, Page],
    client: FlaskClient,
    game: dict[str, Any],
    chooser: random.Random,
    height: int = PHONE["height"],
) -> Tally:
    """Touch until the game is over: on the recorder's page (key None) or, each turn, on the page
    of the seat whose decision is awaited."""
    tally = Tally()
    version = version_of(client, game)
    while True:
        shown = client.get(f"/games/{game['id']}/state", headers=auth(game)).json
        if shown["status"] != "active":
            break
        page = pages[None] if None in pages else pages[shown["current_player"]]
        expect(page.locator(RECORDER)).to_have_attribute("data-version", str(version))
        settle(page)
        if None not in pages:
            # The other seat's page records nothing while it waits.
            other = pages[1 - shown["current_player"]]
            expect(other.locator(RECORDER)).to_have_attribute("data-version", str(version))
            expect(other.locator(f"{TOUCH}:visible")).to_have_count(0)
        touch_once(page, chooser, tally, height, client, game)
        now = version_of(client, game)
        if now != version:
            # One move a touch; two where the turn then had nothing left but its end.
            assert now == version + 1 or (
                now == version + 2 and events(client, game, token=True)[-1]["type"] == "end_turn"
            )
            tally.followed += now == version + 2
            tally.moves += now - version
            version = now
        assert tally.touches < MAX_TOUCHES, "the game does not end"
    for page in pages.values():
        expect(page.locator(RECORDER)).to_have_attribute("data-finished", "true")
    return tally


def auth(game: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['token']}"}


def replayed_alike(client: FlaskClient, game: dict[str, Any], options: dict[str, Any]) -> None:
    """The moves recorded by touch, appended again through the API, give the same game."""
    stored = [
        {name: value for name, value in event.items() if name not in ("seq", "at", "hash", "void")}
        for event in events(client, game, token=True)
    ]
    again = create(client, game="madcala", players=PLAYERS, seed=game["seed"], options=options)
    for body in stored:
        assert append(client, again, body).status_code == 201, body
    first = client.get(f"/games/{game['id']}").json
    second = client.get(f"/games/{again['id']}").json
    assert first["result"] == second["result"] and first["result"] is not None


def new_game(client: FlaskClient, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    created = create(client, game="madcala", players=PLAYERS, seed=seed, options=options)
    created["seed"] = seed
    return created


KINDS = (
    "Sow from", "Use ", "Pay with these", "Pay a Shard", "Play ", "Buy a Commoner", "End the turn",
    "Strike", "Refresh", "Perform the effect", "Discard",
)  # fmt: skip


def kinds_touched(tally: Tally) -> set[str]:
    """What the touches did: a step's words ("Sow from the 3rd plate"), or the API's words of the
    move a touch recorded ("Ana: sow from the 3rd plate, ...")."""
    said = [re.sub(r"^(Ana|Ben): ", "", words).lower() for words in tally.labels]
    return {kind.strip() for words in said for kind in KINDS if words.startswith(kind.lower())}


def test_a_seeded_game_recorded_by_touch_on_a_phone(page: Page, server: LiveServer) -> None:
    client = server.client
    options = {"chance": "seeded", "health": 4, "first_player": 0}
    game = new_game(client, 21, options)
    open_recorder(page, server, game, version=None)
    tally = record_a_game({None: page}, client, game, random.Random(5))
    assert tally.confirmed == 1, "the move that ends the game was not confirmed first"
    assert tally.pickers[-1] == ENDS
    touched = kinds_touched(tally)
    assert {"Sow from", "Use", "Play", "End the turn"} <= touched, touched
    assert tally.worded > 10, "few touches recorded a move at once"
    # No drawn card is picked in a seeded game: the only picker questions are the rules' own.
    assert not [title for title in tally.pickers if "drawn" in title]
    replayed_alike(client, game, options)
    # About one touch per move.
    assert tally.touches <= 2.5 * tally.moves, (tally.touches, tally.moves)


def test_an_observed_game_recorded_by_touch_on_a_phone(page: Page, server: LiveServer) -> None:
    client = server.client
    options = {"chance": "observed", "health": 4}
    game = new_game(client, 33, options)
    open_recorder(page, server, game, version=None)
    tally = record_a_game({None: page}, client, game, random.Random(8))
    assert tally.confirmed == 1
    drawn = [title for title in tally.pickers if title.startswith("Which Commoner was drawn")]
    assert drawn, "no Commoner was picked as drawn"
    stored = events(client, game, token=True)
    assert any(event.get("drawn") for event in stored)
    replayed_alike(client, game, options)
    said_alike(page, stored, sent_words(client, game, token=True))
    # As the public read the moves while the game was on: the Commoners drawn are hidden.
    hidden = [{**event, "hidden": ["drawn"]} for event in stored if event.get("drawn")]
    for event in hidden:
        del event["drawn"]
    assert all("hidden" in MADCALA.describe(event, PLAYERS) for event in hidden)


def test_each_seat_records_its_own_moves_on_its_own_page(
    browser: Browser, server: LiveServer
) -> None:
    client = server.client
    options = {"chance": "observed", "health": 3}
    game = new_game(client, 12, options)
    contexts = [browser.new_context(viewport=PHONE) for _ in PLAYERS]
    try:
        pages: dict[int | None, Page] = {}
        problems: list[str] = []
        for seat, context in enumerate(contexts):
            context.set_default_timeout(10_000)
            pages[seat] = context.new_page()
            pages[seat].on("pageerror", lambda error: problems.append(str(error)))
            open_recorder(pages[seat], server, game, seat=seat, version=None)
            expect(pages[seat].locator("#recording-as")).to_contain_text(PLAYERS[seat])
        tally = record_a_game(pages, client, game, random.Random(3))
        # No confirmation here: /legal marks the moves that end the game for the recorder only.
        assert tally.moves >= 10
        players = {event["player"] for event in events(client, game, token=True)}
        assert players == {0, 1}
        replayed_alike(client, game, options)
        assert not problems, problems
    finally:
        for context in contexts:
            context.close()


@pytest.mark.parametrize("viewport", [LAPTOP])
def test_a_game_recorded_by_touch_on_a_laptop(page: Page, server: LiveServer) -> None:
    client = server.client
    options = {"chance": "seeded", "health": 3}
    game = new_game(client, 4, options)
    open_recorder(page, server, game, version=None)
    tally = record_a_game({None: page}, client, game, random.Random(11), height=LAPTOP["height"])
    assert tally.confirmed == 1
    replayed_alike(client, game, options)


def play_until(
    client: FlaskClient,
    game: dict[str, Any],
    wanted: Any,
    seed: int = 1,
    types: tuple[str, ...] | None = None,
) -> list[dict[str, Any]]:
    """Random legal moves through the API (of ``types`` only, if given) until ``wanted(moves)``
    holds of the moves listed."""
    chooser = random.Random(seed)
    for _ in range(200):
        moves = legal(client, game)
        if wanted(moves):
            return moves
        allowed = [move for move in moves if types is None or move["type"] in types]
        assert append(client, game, chooser.choice(allowed)).status_code == 201
    raise AssertionError("no such position")


def pays(moves: list[dict[str, Any]], kind: str, card: str | None = None) -> list[list[int]]:
    found = [
        sorted(move["pay"])
        for move in moves
        if move["type"] == kind and (card is None or move.get("card") == card)
    ]
    return [json.loads(key) for key in dict.fromkeys(json.dumps(pay) for pay in found)]


def test_paying_by_touching_the_plates(page: Page, server: LiveServer) -> None:
    """A Refreshable card is paid plate by plate among the payments /legal lists, or with the
    Shards proposed in one touch ("Pay with these"); what is recorded is a body /legal listed."""
    client = server.client
    options = {"chance": "seeded", "health": 20}
    game = new_game(client, 21, options)

    def eat_me_two_ways(moves: list[dict[str, Any]]) -> bool:
        ways = pays(moves, "plus_one", "alice_eat_me")
        return len(ways) > 1 and any(len(set(way)) == 1 for way in ways)

    listed = play_until(client, game, eat_me_two_ways)
    version = version_of(client, game)
    open_recorder(page, server, game, version=None)
    card = page.locator('#board g.plus-one[data-card="alice_eat_me"]')
    expect(card).to_have_attribute("aria-label", "Use Eat Me (pay 3 Shards)")
    card.click()
    expect(page.locator(f"#actions {TOUCH}[data-pay]")).to_have_count(1)
    # The Shards proposed: the first payment listed, marked on its plates.
    expect(page.locator("#board g.pay-badge")).to_have_count(
        len(set(pays(listed, "plus_one", "alice_eat_me")[0]))
    )
    # Another payment: all three from one plate, touched three times.
    single = next(way for way in pays(listed, "plus_one", "alice_eat_me") if len(set(way)) == 1)
    for _ in range(3):
        page.locator(f'#board g.plate[data-space="{single[0]}"]').click()
    expect(page.locator(RECORDER)).to_have_attribute("data-version", str(version + 1))
    settle(page)
    recorded = events(client, game, token=True)[-1]
    assert recorded["card"] == "alice_eat_me" and sorted(recorded["pay"]) == single
    assert any(move == {k: v for k, v in recorded.items() if k in move} for move in listed)

    # A Commoner bought with the Shards proposed: one touch accepts them.
    listed = play_until(client, game, lambda moves: len(pays(moves, "buy_commoner")) > 1)
    version = version_of(client, game)
    expect(page.locator(RECORDER)).to_have_attribute("data-version", str(version))
    settle(page)
    page.locator(f"#actions {TOUCH}").filter(has_text="Buy a Commoner").click()
    # The Shards proposed, accepted in one touch that records the purchase: it says it in the
    # API's words (those GET /legal sends beside the move, the server's move_words).
    accept = page.locator(f"#actions {TOUCH}[data-pay]")
    proposed = json.loads(accept.get_attribute("data-pay") or "")
    buying = next(m for m in listed if m["type"] == "buy_commoner" and sorted(m["pay"]) == proposed)
    assert set(buying) <= {"type", "player", "pay"}, "more to choose: no purchase in one touch"
    worded = move_words(MADCALA, buying, PLAYERS)
    assert worded.startswith(f"{PLAYERS[buying['player']]}: buy a Commoner, paying ")
    expect(accept.locator(":scope > span")).to_have_text(worded)
    accept.click()
    expect(page.locator(RECORDER)).to_have_attribute("data-version", str(version + 1))
    settle(page)
    recorded = events(client, game, token=True)[-1]
    assert (
        recorded["type"] == "buy_commoner"
        and sorted(recorded["pay"]) == pays(listed, "buy_commoner")[0]
    )


def test_sowing_in_another_order(page: Page, server: LiveServer) -> None:
    """Mixed Shards are sown own first by default (one touch on the plate); "Sow in another
    order…" first, and the plate's orders are offered as pictures, the usual one first."""
    client = server.client
    game = new_game(client, 22, {"chance": "seeded", "health": 20, "first_player": 0})
    listed = play_until(
        client,
        game,
        lambda moves: any("order" in move for move in moves),
        seed=22,
        types=("move", "end_turn"),
    )
    version = version_of(client, game)
    ordered = [move for move in listed if "order" in move]
    space = ordered[-1]["space"]
    open_recorder(page, server, game, version=None)
    plate = page.locator(f'#board g.plate[data-space="{space}"]')
    # One touch on the plate records the usual order, the first listed: in the API's words.
    usual = next(move for move in listed if move["type"] == "move" and move["space"] == space)
    assert "order" not in usual
    worded = move_words(MADCALA, usual, PLAYERS)
    mover = PLAYERS[usual["player"]]
    assert re.match(rf"^{mover}: sow from the \d(st|nd|rd|th) plate", worded), worded
    expect(plate).to_have_attribute("aria-label", worded)
    page.locator(f"#actions {TOUCH}").filter(has_text="Sow in another order").click()
    expect(page.locator("#actions .madcala-prompt")).to_have_attribute("data-step", "mode-sowing")
    # Only the plates whose Shards may be sown in several orders are offered now.
    offered = {move["space"] for move in listed if "order" in move or "last_doubler" in move}
    targets = page.locator(f"#board g.plate{TOUCH}")
    expect(targets).to_have_count(len(offered))
    plate.click()
    options = page.locator(f"#picker-options {TOUCH}")
    expect(options).to_have_count(1 + sum(move["space"] == space for move in ordered))
    expect(options.first).to_contain_text("(usual)")
    for index in range(options.count()):
        expect(options.nth(index).locator("svg.picture")).to_have_count(1)
    wanted = ordered[-1]
    picker_value(page, key([wanted["order"], wanted.get("last_doubler")])).click()
    expect(page.locator(RECORDER)).to_have_attribute("data-version", str(version + 1))
    settle(page)
    recorded = events(client, game, token=True)[-1]
    assert {name: recorded[name] for name in wanted} == wanted


# --- every body /legal lists can be touched ----------------------------------------------------


def picker_value(page: Page, expected: str) -> Any:
    """The picker's option whose value (a choice as the page keys it) is ``expected``."""
    options = page.locator(f"#picker-options {TOUCH}")
    for index in range(options.count()):
        if json.loads(options.nth(index).get_attribute("data-value") or "null") == expected:
            return options.nth(index)
    raise AssertionError(
        f"no option {expected} in the picker {page.locator('#picker-title').inner_text()!r}"
    )


def key(value: Any) -> str:
    """A choice's value as the page keys it (JSON, as JavaScript writes it)."""
    return json.dumps(value, separators=(",", ":"))


def next_touch(page: Page, body: dict[str, Any], drawn: int) -> tuple[Any, str]:
    """The control a person touches next to record ``body``, and what it is."""
    board = page.locator("#board")
    actions = page.locator("#actions")
    if page.locator("#picker").is_visible():
        title = page.locator("#picker-title").inner_text()
        if title == ENDS:
            return page.locator(f"#picker-options {TOUCH}").filter(has_text="Yes"), "confirm"
        if title.startswith("Which Commoner was drawn"):
            return picker_value(page, key(body["drawn"][drawn])), "drawn"
        if title.startswith("Whose Shard"):
            index = int(actions.locator(".madcala-prompt").get_attribute("data-index") or "0")
            return picker_value(page, key(body["strike"][index])), "whose"
        if title.endswith("the order of the Shards"):
            return picker_value(page, key([body.get("order"), body.get("last_doubler")])), "order"
        if title.endswith("the effects"):
            return picker_value(page, key(body.get("effects"))), "effects"
        raise AssertionError(f"an unexpected question: {title}")
    asked = actions.locator(".madcala-prompt")
    step = asked.get_attribute("data-step") if asked.count() else None
    kind = body["type"]
    if step is None:
        # Nothing under way: the touch that starts the move.
        if kind == "move" and body["space"] is None:
            return actions.locator(TOUCH).filter(has_text="reserve"), "fallback"
        if kind == "move" and ("order" in body or "last_doubler" in body):
            return actions.locator(TOUCH).filter(has_text="Sow in another order"), "mode"
        if kind in ("plus_one", "commoner") and "effects" in body:
            return actions.locator(TOUCH).filter(has_text="Choose a card's effects"), "mode"
        step = "start"
    if step in ("start", "mode-sowing", "mode-effects"):
        if kind == "move":
            return board.locator(f'g.plate[data-space="{body["space"]}"]{TOUCH}'), "plate"
        if kind == "plus_one":
            return board.locator(f'g.plus-one[data-card="{body["card"]}"]{TOUCH}'), "card"
        if kind == "commoner":
            return board.locator(f'g.commoner[data-card="{body["card"]}"]{TOUCH}').first, "commoner"
        words = "Buy a Commoner" if kind == "buy_commoner" else "End the turn"
        return actions.locator(TOUCH).filter(has_text=words), "button"
    index = int(asked.get_attribute("data-index") or "0")
    if step == "pay":
        proposed = actions.locator(f"{TOUCH}[data-pay]")
        if proposed.count() and json.loads(proposed.get_attribute("data-pay") or "") == sorted(
            body["pay"]
        ):
            return proposed, "accept"
        # Touched plate by plate: the next Shard not yet touched.
        space = body["pay"][pay_progress(page)]
        return board.locator(f'g.plate[data-space="{space}"]{TOUCH}'), "pay"
    if step == "discard":
        chosen = board.locator("g.commoner.chosen").count()
        return board.locator(
            f'g.commoner[data-card="{body["discard"][chosen]}"]{TOUCH}'
        ).first, "discard"
    if step in ("home_space", "place"):
        return board.locator(f'g.plate[data-space="{body[step]}"]{TOUCH}'), step
    if step == "strike":
        return board.locator(
            f'g.plate[data-space="{body["strike"][index]["space"]}"]{TOUCH}'
        ), "strike"
    if step in ("strike_card", "refresh"):
        return board.locator(f'g.plus-one[data-card="{body[step][index]}"]{TOUCH}'), step
    raise AssertionError(f"an unexpected step: {step}")


def pay_progress(page: Page) -> int:
    """How many Shards of a payment have been touched so far (the prompt says "n of m")."""
    words = page.locator("#actions .madcala-prompt").inner_text()
    found = re.search(r"(\d+) of \d+ Shards touched", words)
    return int(found.group(1)) if found else 0


def test_every_move_listed_is_recorded_by_touch_about_once_a_decision(
    page: Page, server: LiveServer
) -> None:
    """A game of moves chosen at random among those /legal lists, each recorded by the touches a
    person makes for it: each is stored exactly as listed, in about one touch per decision."""
    client = server.client
    options = {"chance": "observed", "health": 5}
    game = new_game(client, 8, options)
    open_recorder(page, server, game, version=None)
    chooser = random.Random(4)
    touches = moves = decisions = 0
    while listed := legal(client, game):
        body = chooser.choice(listed)
        version = version_of(client, game)
        # The decisions: the move itself, and each choice it writes out.
        decisions += 1 + sum(
            len(value) if isinstance(value, list) and name not in ("pay", "discard", "order") else 1
            for name, value in body.items()
            if name not in ("type", "player", "card", "space")
        )
        drawn = 0
        for _ in range(20):
            check_screen(page, PHONE["height"])
            control, what = next_touch(page, body, drawn)
            expect(control).to_have_count(1)
            control.click()
            touches += 1
            drawn += what == "drawn"
            settle(page)
            if version_of(client, game) != version:
                break
        else:
            raise AssertionError(f"{body} was not recorded")
        stored_all = events(client, game, token=True)
        # The end of a turn with nothing else left to do goes with the touch before it.
        followed = version_of(client, game) == version + 2
        if followed:
            assert stored_all[-1]["type"] == "end_turn"
        stored = stored_all[-2 if followed else -1]
        assert {name: stored[name] for name in body} == body and set(stored) - set(body) <= {
            "seq", "at", "hash", "void"
        }, (stored, body)  # fmt: skip
        moves += 1 + followed
        expect(page.locator(RECORDER)).to_have_attribute(
            "data-version", str(version + 1 + followed)
        )
        settle(page)
    assert client.get(f"/games/{game['id']}").json["status"] == "finished"
    assert moves >= 20
    said_alike(page, events(client, game, token=True), sent_words(client, game, token=True))
    # A touch per decision, and a little more: a payment touched Shard by Shard, a mode chosen
    # first, the confirmation of the last move.
    assert touches <= 1.3 * decisions, (touches, decisions, moves)


def said_alike(page: Page, stored: list[dict[str, Any]], sent: list[str]) -> None:
    """The page says each move as the server does (Game.describe), in the rulebook's words: the
    words the API sends beside the events (``sent``), which the page shows."""
    said = [MADCALA.describe(event, PLAYERS) for event in stored]
    assert sent == said
    for line in said:
        assert not RAW.search(line.replace("_", "")), line
    shown = page.locator("#recent li .text").all_text_contents()
    assert shown and shown == said[-len(shown) :]


def test_a_turn_with_nothing_left_but_its_end_ends_with_the_touch_before(
    page: Page, server: LiveServer
) -> None:
    """Where the rules leave nothing to decide after a move but the end of the turn, the end goes
    with that move's touch (one touch, two moves, both said); an Undo then takes back the end
    alone, and the page does not end the turn again by itself."""
    client = server.client
    options = {"chance": "seeded", "health": 4}
    game = new_game(client, 3, options)
    chooser = random.Random(2)
    state = MADCALA.new_game(len(PLAYERS), 3, options)
    wanted = None
    for _ in range(400):
        listed = MADCALA.legal_moves(state)
        ending = [
            move for move in listed
            if move["type"] != "end_turn"
            and [m["type"] for m in MADCALA.legal_moves(MADCALA.apply(state, move))] == ["end_turn"]
        ]  # fmt: skip
        if ending:
            wanted = ending[0]
            break
        move = chooser.choice(listed)
        assert append(client, game, move).status_code == 201
        state = MADCALA.apply(state, move)
    assert wanted is not None, "no move leaves only the end of the turn"
    version = version_of(client, game)
    open_recorder(page, server, game, version=version)
    page.evaluate("(move) => window.Tabletape.recorder.record(move)", wanted)
    expect(page.locator(RECORDER)).to_have_attribute("data-version", str(version + 2))
    settle(page)
    stored = events(client, game, token=True)
    assert stored[-1]["type"] == "end_turn" and stored[-2]["type"] == wanted["type"]
    expect(page.locator("#record-status")).to_contain_text(f"move {version + 1}")
    expect(page.locator("#record-status")).to_contain_text(f"then move {version + 2}")
    page.locator("#undo").click()
    expect(page.locator(RECORDER)).to_have_attribute("data-version", str(version + 3))
    settle(page)
    page.wait_for_timeout(500)
    assert version_of(client, game) == version + 3
