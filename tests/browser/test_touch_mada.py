"""Mada recorded by touching it (domain/mada/browser/mada.js's record), in a real Chromium on a
390x844 phone: whole games where the test clicks nothing but elements carrying data-records-move
(the cards of a hand, the draw pile, a seat's row, the buttons under the board, the picker's
pictures, the confirmation), chosen with a seeded random.Random among those offered.

At every step: a control that records is on the first screen (no scrolling), no control's words
show raw data, the picker's options each show a picture; the move the service then stores is the
one the controls touched named, and the page words it as the service does. A move that ends the
game is confirmed first (declined once: nothing is recorded). Games are recorded in seeded mode
(five players) and observed mode from the recorder's link, in seeded mode from each seat's own
link, and once on a laptop's screen. Then the touches that make one move
of several choices (a Double Lemur's target, the cards discarded after a lost round, in the order
touched), and the words of a move, the same in the browser (mada.js's describe) as on the server
(Game.describe).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Page, expect

from domain.game import get_game
from domain.mada.catalog import card_order
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
    state,
)

MADA = get_game("mada")
RECORDER = "#recorder"
PHONE = {"width": 390, "height": 844}
FIVE = ["Ana", "Ben", "Caro", "Dan", "Eve"]
LAPTOP = {"width": 1280, "height": 800}
CONFIRM_TITLE = "This move ends the game"
YES = "Yes: record it and end the game"
NOT_YET = "No, not yet"
# Raw data in a label: a list, an object, a coordinate pair, a card or cell id.
RAW = re.compile(r"[\[\]{}]|\(\s*-?\d+\s*,\s*-?\d+\s*\)|\bcard \d+|\bc\d+\b")

# What the page offers to touch now: the picker's options while it is open (it is modal), else the
# board's targets and the buttons under it; each numbered (data-test-index) for the test to click,
# with its words, where it is on the screen and whether it shows a picture. And every control that
# records, anywhere on the page, for its words.
CONTROLS_JS = """
() => {
  // A control's words as a screen reader says them: aria-label, else its text less hidden parts.
  const wordsOf = (node) => {
    if (node.getAttribute("aria-label")) return node.getAttribute("aria-label");
    const option = node.querySelector(".option-label"); // a picker's option, less its count
    if (option) return option.textContent.trim();
    const copy = node.cloneNode(true);
    for (const hidden of copy.querySelectorAll("[aria-hidden='true']")) hidden.remove();
    return copy.textContent.replace(/\\s+/g, " ").trim();
  };
  const picker = document.getElementById("picker");
  const open = !picker.hidden;
  const scope = open
    ? [...picker.querySelectorAll("#picker-options [data-records-move]")]
    : [...document.querySelectorAll("#board [data-records-move], #actions [data-records-move]")];
  const usable = scope.filter(
    (node) => !node.disabled && node.getAttribute("aria-disabled") !== "true");
  for (const node of document.querySelectorAll("[data-test-index]")) {
    node.removeAttribute("data-test-index");
  }
  usable.forEach((node, index) => node.setAttribute("data-test-index", String(index)));
  return {
    open,
    title: document.getElementById("picker-title").textContent,
    version: Number(document.getElementById("recorder").dataset.version),
    scrolled: window.scrollY,
    every: [...document.querySelectorAll("[data-records-move]")].map((node) => [
      wordsOf(node), node.textContent || "",
    ]),
    controls: usable.map((node) => {
      const box = node.getBoundingClientRect();
      return {
        label: wordsOf(node),
        top: box.top,
        bottom: box.bottom,
        picture: Boolean(node.querySelector("svg")),
        onBoard: Boolean(node.closest("#board")),
      };
    }),
  };
}
"""

# What changes when the page has taken a touch: the version, the picker, the controls offered.
SIGNATURE_JS = """
() => {
  const picker = document.getElementById("picker");
  const nodes = document.querySelectorAll("#board [data-records-move], "
    + "#actions [data-records-move], #picker-options [data-records-move]");
  return JSON.stringify([document.getElementById("recorder").dataset.version, picker.hidden,
    document.getElementById("picker-title").textContent,
    [...nodes].map((node) => node.getAttribute("aria-label") || node.textContent)]);
}
"""

# Settled: not busy, and either something to touch or the game over. (A closed picker keeps its
# last options: they do not count.)
READY_JS = """
() => {
  const root = document.getElementById("recorder");
  if (root.dataset.busy !== "false") return false;
  if (root.dataset.finished === "true") return true;
  const open = !document.getElementById("picker").hidden;
  return Boolean(document.querySelector(open
    ? "#picker-options [data-records-move]"
    : "#board [data-records-move], #actions [data-records-move]"));
}
"""


@pytest.fixture
def viewport() -> dict[str, int]:
    return PHONE


def finished(page: Page) -> bool:
    return page.locator(RECORDER).get_attribute("data-finished") == "true"


class Touches:
    """Touches on the pages of one game, chosen at random among those offered, each checked."""

    def __init__(
        self, client: FlaskClient, game: dict[str, Any], chooser: random.Random, height: int
    ) -> None:
        self.client = client
        self.game = game
        self.chooser = chooser
        self.height = height
        self.declined = 0  # game-ending moves declined, then...
        self.confirmed = 0  # ...confirmed
        self.where: Counter[str] = Counter()  # "board", "button" or "picker"
        self.said: list[str] = []  # the words of the controls touched since the last move
        self.counts_shown = 0  # pickers that showed a count for equal cards

    def look(self, page: Page) -> dict[str, Any]:
        """The controls now, checked as the contract asks, at the top of the page."""
        page.wait_for_function(READY_JS)
        page.evaluate("() => window.scrollTo(0, 0)")
        seen: dict[str, Any] = page.evaluate(CONTROLS_JS)
        assert seen["scrolled"] == 0
        check_at_a_finger(page)
        check_no_machinery(page)
        controls = seen["controls"]
        assert controls, f"nothing to touch at version {seen['version']}"
        first = [c for c in controls if c["top"] >= 0 and c["bottom"] <= self.height]
        assert first, f"no control on the first screen: {controls}"
        for label, words in seen["every"]:
            assert (label or words).strip(), "a control without words"
            for said in (label, words):
                assert not RAW.search(said), f"raw data in a control's words: {said!r}"
        if seen["open"] and seen["title"] != CONFIRM_TITLE:
            assert all(control["picture"] for control in controls), controls
            self.counts_shown += page.locator("#picker-options .count").count() > 0
        return seen

    def touch(self, page: Page, wanted: str | None = None) -> None:
        """One touch (the control saying ``wanted``, else one at random); waits until the page
        has taken it, and checks what it then says it recorded."""
        seen = self.look(page)
        controls = seen["controls"]
        labels = [control["label"] for control in controls]
        if seen["open"] and seen["title"] == CONFIRM_TITLE:
            # The frame asks before a move that ends the game: once "not yet", then "yes". The
            # sheet's one way out says "not yet" (no "No" beside a Cancel).
            assert labels == [YES], labels
            expect(page.locator("#picker-cancel")).to_have_text(NOT_YET)
            if not self.declined:
                self.declined += 1
                page.locator("#picker-cancel").click()
                expect(page.locator("#picker")).to_be_hidden()
                assert page.locator(RECORDER).get_attribute("data-version") == str(seen["version"])
                self.said = []
                return
            self.confirmed += 1
            wanted = YES
        index = labels.index(wanted) if wanted else self.chooser.randrange(len(controls))
        chosen = controls[index]
        self.where["picker" if seen["open"] else "board" if chosen["onBoard"] else "button"] += 1
        if chosen["label"] != YES:
            self.said.append(chosen["label"])
        before = page.evaluate(SIGNATURE_JS)
        page.locator(f'[data-records-move][data-test-index="{index}"]').click()
        page.wait_for_function(
            "(before) => document.getElementById('recorder').dataset.busy === 'false'"
            f" && ({SIGNATURE_JS})() !== before",
            arg=before,
        )
        version = int(page.locator(RECORDER).get_attribute("data-version") or "0")
        if version != seen["version"]:
            assert version == seen["version"] + 1
            last = events(self.client, self.game, token=True)[-1]
            check_touched(last, self.said, self.game["players"])
            self.said = []
            # The page words the stored move as the service does.
            expect(page.locator("#recent li").last.locator(".text")).to_have_text(
                MADA.describe(last, self.game["players"])
            )


CARD_NAMES = {"lemur": "Lemur", "double_lemur": "Double Lemur", "scorpion": "Scorpion"}


def card_name(card: Any) -> str:
    return CARD_NAMES.get(card, str(card))


def without_chance(event: dict[str, Any]) -> dict[str, Any]:
    """The move less the fields chance brought (what GET /legal's base_words word)."""
    fields = MADA.chance_fields.get(event["type"], ())
    return {name: value for name, value in event.items() if name not in fields}


def check_touched(event: dict[str, Any], said: list[str], players: list[str]) -> None:
    """The move stored is the one the controls touched said (the touches that made it: ``said``,
    the picker's cards last): a control that records one move says it in the API's words
    (``move_words``, what GET /legal sends beside it), one that then asks what chance brought says
    the move without it (GET /legal's base_words)."""
    words = move_words(MADA, event, players)
    base = move_words(MADA, without_chance(event), players)
    kind = event["type"]
    if kind == "deal":
        assert said[0] in (f"{base}: pick them from pictures", base), (event, said)
        assert sorted(map(card_name, event["cards"])) == sorted(said[-3:]), (event, said)
    elif kind == "play" and event["card"] == "double_lemur" and len(said) > 1:
        who = players[event["player"]]
        assert said[0] == f"Play the Double Lemur, then touch whose pile {who} swaps with", said
        assert said[-1] == words, (event, said)
    elif kind in ("play", "scorpion_discard", "choose_target"):
        assert said[-1] == words, (event, said)
    elif kind in ("draw", "try_luck"):
        assert said[0] == base, (event, said)
        if len(said) > 1:  # picked from pictures: the card chance brought
            assert said[-1] == card_name(event["card"]), (event, said)
    else:
        assert kind == "round_discard", event
        cards = event["cards"]
        if cards == sorted(cards, key=card_order):
            # The set of cards in the order GET /legal lists it: its words.
            assert said[-1] == words, (event, said)
        else:
            # Touched in another order, one /legal does not list: the cards as touched.
            rest = words.split(" ", 2)[2].removesuffix(" after losing the round")
            assert said[-1] == f"Discard {rest}", (event, said)


def record_whole_game(page: Page, touches: Touches) -> None:
    made = 0
    # Settled first: the page says the game is over a moment after it stops offering moves.
    while page.wait_for_function(READY_JS) and not finished(page):
        touches.touch(page)
        made += 1
        assert made < 2000, "the game does not end"


def stored_types(client: FlaskClient, game: dict[str, Any]) -> Counter[str]:
    return Counter(event["type"] for event in events(client, game))


def check_over(client: FlaskClient, game: dict[str, Any], touches: Touches) -> None:
    """The game ended on the page's touches, the last one confirmed after one "not yet"."""
    recorded = client.get(f"/games/{game['id']}").json
    assert recorded["status"] == "finished"
    assert recorded["result"]["winners"]
    assert touches.declined == 1 and touches.confirmed == 1
    assert touches.where["board"] > 10 and touches.where["button"] > 0


def test_a_seeded_game_recorded_by_touch_on_a_phone(page: Page, server: LiveServer) -> None:
    client = server.client
    game = create(client, players=FIVE, seed=21, options={"chance": "seeded"})
    open_recorder(page, server, game, version=None, ready_js=READY_JS)
    touches = Touches(client, game, random.Random(5), PHONE["height"])
    record_whole_game(page, touches)
    check_over(client, game, touches)
    types = stored_types(client, game)
    assert {"play", "draw", "try_luck", "round_discard", "scorpion_discard"} <= set(types)


def test_an_observed_game_recorded_by_touch_on_a_phone(page: Page, server: LiveServer) -> None:
    client = server.client
    game = create(client, players=["Ana", "Ben", "Caro"], seed=8, options={"chance": "observed"})
    open_recorder(page, server, game, version=None, ready_js=READY_JS)
    touches = Touches(client, game, random.Random(11), PHONE["height"])
    record_whole_game(page, touches)
    check_over(client, game, touches)
    types = stored_types(client, game)
    # Every deal's three cards, and the card of every draw and try, picked from pictures.
    assert types["deal"] == 3
    assert touches.where["picker"] >= 9 + types["draw"] + types["try_luck"]
    assert touches.counts_shown


def test_each_seat_records_its_own_moves_on_its_own_page(page: Page, server: LiveServer) -> None:
    client = server.client
    players = ["Ana", "Ben", "Caro"]
    game = create(client, players=players, seed=33, options={"chance": "seeded"})
    pages = [page, page.context.new_page(), page.context.new_page()]
    problems: list[str] = []
    for other in pages[1:]:
        other.on("pageerror", lambda error: problems.append(str(error)))
    for seat, seat_page in enumerate(pages):
        seat_page.goto(f"{server.url}/games/{game['id']}/record#token={game['seat_tokens'][seat]}")
        expect(seat_page.locator("#recording-as")).to_contain_text(f"Recording as {players[seat]}")
    touches = Touches(client, game, random.Random(17), PHONE["height"])
    made = Counter[int]()
    while (now := client.get(f"/games/{game['id']}").json)["status"] == "active":
        version = now["version"]
        awaited = state(client, game, version)["current_player"]
        for seat_page in pages:
            expect(seat_page.locator(RECORDER)).to_have_attribute("data-version", str(version))
            expect(seat_page.locator(RECORDER)).to_have_attribute("data-busy", "false")
        for seat, seat_page in enumerate(pages):
            if seat != awaited:
                # Not this seat's decision: nothing to record on its page.
                expect(seat_page.locator("[data-records-move]")).to_have_count(0)
        # The seat's phone in its hand (a page in the background has its timers slowed down).
        pages[awaited].bring_to_front()
        while client.get(f"/games/{game['id']}").json["version"] == version:
            touches.touch(pages[awaited])
        made[awaited] += 1
        assert sum(made.values()) < 500, "the game does not end"
    # A seat's page never asks to confirm (GET /legal marks no move as ending for a seat).
    assert touches.declined == 0 and touches.confirmed == 0
    assert all(made[seat] >= 5 for seat in range(3)), made
    assert touches.where["board"] > 10
    for seat_page in pages:
        expect(seat_page.locator(RECORDER)).to_have_attribute("data-finished", "true")
    for other in pages[1:]:
        other.close()
    assert not problems, problems


@pytest.mark.parametrize("viewport", [LAPTOP])
def test_a_two_player_observed_game_recorded_by_touch_on_a_laptop(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = create(client, players=["Ana", "Ben"], seed=4, options={"chance": "observed"})
    open_recorder(page, server, game, version=None, ready_js=READY_JS)
    touches = Touches(client, game, random.Random(3), LAPTOP["height"])
    record_whole_game(page, touches)
    check_over(client, game, touches)
    assert stored_types(client, game)["deal"] == 2
    # The board is drawn wide: a seat's hand, pile and cards set aside on one line.
    assert page.locator("svg#board").get_attribute("viewBox").startswith("0 0 680 ")


# One move of several touches ----------------------------------------------------------------


def observed_game(client: FlaskClient, deals: list[list[Any]], moves: list[dict[str, Any]]) -> Any:
    """An observed game of Ana, Ben and Caro: the deals, then the moves, appended by the API."""
    game = create(client, players=["Ana", "Ben", "Caro"], seed=1, options={"chance": "observed"})
    bodies = [{"type": "deal", "player": seat, "cards": cards} for seat, cards in enumerate(deals)]
    for body in [*bodies, *moves]:
        response = append(client, game, body)
        assert response.status_code == 201, response.json
    return game


def board_labels(page: Page) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        "#board [data-records-move]", "nodes => nodes.map(node => node.getAttribute('aria-label'))"
    )
    return found


def button_labels(page: Page) -> list[str]:
    # A button's words (its picture, hidden from screen readers, aside).
    words = page.locator("#actions button[data-records-move] > span").all_text_contents()
    return [text.strip() for text in words]


def test_a_double_lemur_is_played_then_the_row_touched_says_whose_pile(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    play = [
        {"type": "play", "player": seat, "card": card} for seat, card in ((0, 9), (1, 6), (2, 8))
    ]
    game = observed_game(client, [[5, 9, "double_lemur"], [2, 6, 7], [3, 4, 8]], play)
    open_recorder(page, server, game, version=None, ready_js=READY_JS)
    touches = Touches(client, game, random.Random(0), PHONE["height"])
    dl = "Play the Double Lemur, then touch whose pile Ana swaps with"
    assert dl in board_labels(page)
    assert "Ana plays a 5" not in board_labels(page)  # lower than the 9 on Ana's pile: not offered
    touches.touch(page, dl)
    # Each row records one move: it says it in the API's words.
    with_ben, with_caro = (
        move_words(MADA, {"type": "play", "player": 0, "card": "double_lemur", "target": seat},
                   game["players"])
        for seat in (1, 2)
    )  # fmt: skip
    assert with_caro == "Ana plays a Double Lemur and swaps piles with Caro"
    assert board_labels(page) == [
        "Keep the Double Lemur in hand (choose another move)",
        with_ben,
        with_caro,
    ]
    assert button_labels(page) == [with_ben, with_caro]
    # Cancel records nothing (it is no control that records) and offers the turn again.
    cancel = page.locator("#actions button", has_text="Cancel")
    assert cancel.get_attribute("data-records-move") is None
    cancel.click()
    expect(page.locator("#board [data-records-move]").first).to_be_visible()
    # The draw pile then asks which card: the draw without it, in the API's words.
    assert dl in board_labels(page) and "Ana draws a card" in board_labels(page)
    touches.touch(page, dl)
    # Caro's row, on the board.
    row = page.locator(f'#board g.mada-target.row[aria-label="{with_caro}"]')
    expect(row).to_have_count(1)
    touches.touch(page, with_caro)
    last = events(client, game, token=True)[-1]
    assert (last["type"], last["card"], last["target"]) == ("play", "double_lemur", 2)
    now = state(client, game, 7)
    assert now["piles"][0] == [8] and now["piles"][2] == [9]

    # Ben tries his luck and a Double Lemur comes up: he touches whose pile he swaps with.
    touches.touch(page, "Ben tries their luck")
    expect(page.locator("#picker")).to_be_visible()
    touches.touch(page, "Double Lemur")
    choices = [
        move_words(MADA, {"type": "choose_target", "player": 1, "target": seat}, game["players"])
        for seat in (0, 2)
    ]
    assert choices[0] == "Ben swaps piles with Ana (Double Lemur)"
    assert board_labels(page) == choices
    touches.touch(page, choices[0])
    last = events(client, game, token=True)[-1]
    assert (last["type"], last["player"], last["target"]) == ("choose_target", 1, 0)


def test_the_cards_discarded_after_a_lost_round_go_in_the_order_touched(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    moves = [
        *(
            {"type": "play", "player": seat, "card": card}
            for seat, card in ((0, 12), (1, 5), (2, 8))
        ),
        {"type": "try_luck", "player": 0, "card": 2},  # lower than the 12: Ana loses the round
    ]
    game = observed_game(client, [[3, 4, 12], [5, 6, 7], [8, 9, 10]], moves)
    assert state(client, game, 7)["pending"] == {"kind": "round_discard", "player": 0}
    open_recorder(page, server, game, version=None, ready_js=READY_JS)
    touches = Touches(client, game, random.Random(0), PHONE["height"])
    assert sorted(board_labels(page)) == ["Discard a 3", "Discard a 4"]
    # The default, discard nothing, records one move: in the API's words.
    keep = move_words(MADA, {"type": "round_discard", "player": 0, "cards": []}, game["players"])
    assert keep == "Ana keeps every card after losing the round"
    assert button_labels(page) == [keep]
    touches.touch(page, "Discard a 3")
    assert sorted(board_labels(page)) == ["Discard a 4 second", "Keep a 3 (discarded first)"]
    only_3 = {"type": "round_discard", "player": 0, "cards": [3]}
    assert button_labels(page) == [move_words(MADA, only_3, game["players"])]
    touches.touch(page, "Discard a 4 second")
    both = {"type": "round_discard", "player": 0, "cards": [3, 4]}
    assert button_labels(page) == [move_words(MADA, both, game["players"])]
    expect(page.locator("#board g.mada-target.chosen text")).to_have_text(["1", "2"])
    touches.touch(page, "Keep a 3 (discarded first)")
    touches.touch(page, "Discard a 3 second")
    assert button_labels(page) == ["Discard a 4 and a 3"]
    touches.touch(page, "Discard a 4 and a 3")
    last = events(client, game, token=True)[-1]
    assert (last["type"], last["player"], last["cards"]) == ("round_discard", 0, [4, 3])
    assert state(client, game, 8)["discard"][-2:] == [4, 3]


# Words ----------------------------------------------------------------------------------------


def test_a_move_is_said_in_the_same_words_in_the_browser_and_on_the_server(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = create(client, players=["Ana", "Ben", "Caro"], seed=6, options={"chance": "observed"})
    chooser = random.Random(6)
    said: list[dict[str, Any]] = []
    sent: list[str] = []  # the words the API sends beside the events read
    while moves := legal(client, game):
        assert append(client, game, chooser.choice(moves)).status_code == 201
        if len(said) < 40:  # while it is on: hidden cards in the public's and a seat's view
            said = events(client, game) + events(client, game, seat=1)
            sent = sent_words(client, game) + sent_words(client, game, seat=1)
    said += events(client, game, token=True)
    sent += sent_words(client, game, token=True)
    # The API says each move read as the server's pages do, from what its reader may see.
    assert sent == [move_words(MADA, event, ["Ana", "Ben", "Caro"]) for event in said]
    assert any("hidden" in line for line in sent), "no hidden cards worded"
    said += [
        {"type": "play", "player": 1, "card": "double_lemur"},
        {"type": "play", "player": 1, "card": "double_lemur", "target": 0},
        {"type": "draw", "player": 0},
        {"type": "try_luck", "player": 2},
        {"type": "try_luck", "player": 2, "card": 11},
        {"type": "scorpion_discard", "player": 0, "card": 8},
        {"type": "round_discard", "player": 2, "cards": []},
        {"type": "round_discard", "player": 2, "cards": [1, "lemur", 13]},
        {"type": "deal", "player": 1, "hidden": ["cards"]},
        {"type": "draw", "player": 2, "hidden": ["card"]},
        {"type": "retract"},
    ]
    open_recorder(page, server, game, version=None, ready_js=READY_JS)
    # The page shows the API's words (no page words a move): the game is over, every move whole.
    recent = page.locator("#recent li .text")
    expect(recent).to_have_count(12)
    expect(recent).to_have_text(sent_words(client, game, token=True)[-12:])
    kinds = {event["type"] for event in said}
    assert kinds >= {"deal", "play", "draw", "try_luck", "round_discard", "retract"}
    assert any("hidden" in event for event in said), "no hidden cards to word"
    duel = ["Ana", "Ben"]
    worded = {
        "Ben plays a Double Lemur and swaps piles with Ana": (
            {"type": "play", "player": 1, "card": "double_lemur"}
        ),
        "Caro discards a 1, a Lemur and a 13 after losing the round": (
            {"type": "round_discard", "player": 2, "cards": [1, "lemur", 13]}
        ),
        "Ben is dealt 3 hidden cards": {"type": "deal", "player": 1, "hidden": ["cards"]},
        "Caro draws a hidden card": {"type": "draw", "player": 2, "hidden": ["card"]},
        "Ana draws a card": {"type": "draw", "player": 0},
        "Caro tries their luck: an 11 comes up": {"type": "try_luck", "player": 2, "card": 11},
    }
    for words, event in worded.items():
        assert MADA.describe(event, ["Ana", "Ben", "Caro"] if "Caro" in words else duel) == words
    for event in said:
        assert not RAW.search(MADA.describe(event, ["Ana", "Ben", "Caro"]))


def test_a_deep_set_aside_stack_shows_every_cards_value_on_a_phone(
    page: Page, server: LiveServer
) -> None:
    """Five cards set aside on a phone: each card's value stays readable in its corner (a 13 is
    not hidden under a 10), the pile giving way."""
    client = server.client
    game = create(client, players=["Ana", "Ben"], seed=3, options={"chance": "seeded"})
    chooser = random.Random(5)
    version, deepest = 0, (0, 0)
    while deepest[1] < 5:
        moves = legal(client, game)
        assert moves, "the game ended before a seat set five cards aside"
        assert append(client, game, chooser.choice(moves)).status_code == 201
        version += 1
        counts = state(client, game, version)["set_aside_counts"]
        deepest = max(enumerate(counts), key=lambda pair: pair[1])
    seat, count = deepest
    page.set_viewport_size(PHONE)
    open_recorder(page, server, game, version=version)
    corners = page.locator(f'.seat[data-seat="{seat}"] .set-aside .card text.corner')
    numbered = corners.count()
    assert numbered >= 2, "too few numbered cards set aside to tell"
    for index in range(numbered):
        corner = corners.nth(index)
        box = corner.bounding_box()
        assert box is not None
        # What a person sees at the middle of the value is the value itself, not the next card.
        on_top = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.textContent ?? ''",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert on_top == corner.text_content(), (index, on_top, count)


# Each card target of the hand: how much of its width a finger can touch (the points along its
# middle where the page hands the touch to that target), once scrolled into the board's frame.
TOUCHABLE_JS = """
(target) => {
  target.scrollIntoView({ block: "center", inline: "center" });
  const box = target.getBoundingClientRect();
  const y = box.top + box.height / 2;
  let touched = 0;
  for (let x = Math.ceil(box.left); x < box.right; x += 1) {
    const hit = document.elementFromPoint(x, y);
    if (hit && hit.closest(".mada-target") === target) touched += 1;
  }
  return { width: box.width, touched };
}
"""


@pytest.mark.parametrize("viewport", [PHONE])
def test_every_card_of_a_fanned_hand_is_touched_over_its_whole_visible_part(
    page: Page, server: LiveServer
) -> None:
    game = create(server.client, game="mada", players=FIVE, seed=5, options={"chance": "seeded"})
    chooser = random.Random(2)
    # On to a turn whose player may play from a hand of three cards or more (a fan that overlaps
    # on a phone).
    for _ in range(200):
        moves = legal(server.client, game)
        current = server.client.get(
            f"/games/{game['id']}/state", headers={"Authorization": f"Bearer {game['token']}"}
        ).json
        seat = current.get("current_player")
        plays = [move for move in moves if move["type"] == "play"]
        if plays and isinstance(seat, int) and len(current["hands"][seat]) >= 3:
            break
        assert moves, "the game ended first"
        assert append(server.client, game, chooser.choice(moves)).status_code == 201
    else:
        pytest.fail("no turn with three cards in hand")
    open_recorder(page, server, game, version=None)
    targets = page.locator("#board .mada-target.card")
    assert targets.count() >= 3
    for index in range(targets.count()):
        seen = targets.nth(index).evaluate(TOUCHABLE_JS)
        # The whole visible part of the card is its own, and a finger's width.
        assert seen["touched"] >= seen["width"] - 2, seen
        assert seen["touched"] >= 44, seen
