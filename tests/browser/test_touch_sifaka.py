"""Sifaka recorded by touch on a phone (390x844): whole games played by touching only the
controls that record ([data-records-move]) — the lit boxes where the tile in hand may go, the
tile's facings drawn turned, the sifaka and the boxes where it may end, the action buttons and the
picker's pictures of the Terrain cards and counters that can still be unseen — in seeded and
observed mode, on the recorder's page and on each seat's own page, and once on a laptop.

At every step: a control that records lies on the first screen without scrolling, no control's
words hold a list, an object or a coordinate pair, every picker option shows a picture, and the
targets offered are exactly those the moves of GET /legal call for. The move that ends the game is
confirmed first."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest
from flask.testing import FlaskClient
from playwright.sync_api import Locator, Page, expect

from domain.sifaka.catalog import DEFAULT_CATALOG
from domain.sifaka.display import from_huts, square_from_huts
from domain.sifaka.rules import SIFAKA
from domain.sifaka.state import SifakaState, board_map, walk_choices
from service.games import move_words
from tests.browser.helpers import (
    LiveServer,
    append,
    auth,
    check_at_a_finger,
    check_no_machinery,
    create,
    events,
    legal,
    open_recorder,
    sent_words,
    settled,
    state,
)

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
RECORDER = "#recorder"
BOARD = "svg#board"
PICKER = "#picker"
CONFIRM_TITLE = "This move ends the game"
RECORDS = "[data-records-move]"
TIMES = "\N{MULTIPLICATION SIGN}"  # before a count: equal pictures as one
# A coordinate pair, a list or an object, or a card named by its id: never in a control's words.
RAW = re.compile(r"[\[\]{}]|-?\d+\s*,\s*-?\d+|\bcard \d|#\d|\bid\b")

# A short deck for the games that must end quickly: the default deck's first 14 cards and the two
# pairs of equal tiles (2 and 39, 31 and 36: the same tile turned), so that pickers show counts.
SHORT_IDS = [*range(1, 15), 31, 36, 39]
SHORT_DECK = {
    "name": "short",
    "cards": [card for card in DEFAULT_CATALOG["cards"] if card["id"] in SHORT_IDS],
}


def version_now(client: FlaskClient, game: dict[str, Any]) -> int:
    version: int = client.get(f"/games/{game['id']}").json["version"]
    return version


def words_of(node: Locator) -> str:
    return node.get_attribute("aria-label") or node.text_content() or ""


def picker_open(page: Page) -> bool:
    return page.locator(PICKER).is_visible()


class Touches:
    """One page recording a game of Sifaka by touch, and what it checked on the way."""

    def __init__(
        self,
        page: Page,
        server: LiveServer,
        game: dict[str, Any],
        chooser: random.Random,
        seed: int,
        seat: int | None = None,
    ) -> None:
        self.seed = seed
        self.page = page
        self.client: FlaskClient = server.client
        self.game = game
        self.chooser = chooser
        self.seat = seat
        self.used: Counter[str] = Counter()
        self.confirmations = 0

    # What every screen must satisfy ----------------------------------------------------------

    def check_screen(self) -> None:
        """A control that records on the first screen (the page scrolled to its top), and no
        control's words holding raw data."""
        self.page.evaluate("window.scrollTo(0, 0)")
        controls = self.page.evaluate(
            """(selector) => [...document.querySelectorAll(selector)].map((node) => {
                  const box = node.getBoundingClientRect();
                  return {
                    top: box.top + window.scrollY, bottom: box.bottom + window.scrollY,
                    shown: node.getClientRects().length > 0 && box.width > 0,
                    words: node.getAttribute("aria-label") || node.textContent || "",
                  };
                })""",
            RECORDS,
        )
        height = self.page.viewport_size["height"] if self.page.viewport_size else 844
        check_at_a_finger(self.page)
        check_no_machinery(self.page)
        assert any(c["shown"] and c["top"] >= 0 and c["bottom"] <= height for c in controls), (
            f"no control that records on the first screen: {controls}"
        )
        for control in controls:
            said = control["words"]
            assert said.strip(), "a control without words"
            assert not RAW.search(said), f"raw data in a control's words: {said!r}"

    def last_event(self) -> dict[str, Any]:
        version = version_now(self.client, self.game)
        answer = self.client.get(
            f"/games/{self.game['id']}/events?from={version}", headers=auth(self.game)
        )
        assert answer.status_code == 200, answer.json
        last: dict[str, Any] = answer.json["events"][-1]
        assert last["seq"] == version
        return last

    def rules_state(self) -> SifakaState:
        """The game now, as the rules hold it: its events replayed from its seed."""
        played = [
            {k: v for k, v in event.items() if k not in ("seq", "at", "hash", "void")}
            for event in events(self.client, self.game, token=True)
        ]
        options = self.client.get(f"/games/{self.game['id']}").json["options"]
        replayed: SifakaState = SIFAKA.replay(len(self.game["players"]), self.seed, options, played)
        return replayed

    def legal_now(self) -> list[dict[str, Any]]:
        return legal(self.client, self.game, self.seat)

    # Touching --------------------------------------------------------------------------------

    def offered(self) -> list[Locator]:
        """The controls that record a move now, out of the picker: the board's and the buttons."""
        expect(self.page.locator("#legal")).to_be_hidden()
        return [
            *self.page.locator(f"{BOARD} {RECORDS}").all(),
            *self.page.locator(f"#actions {RECORDS}").all(),
        ]

    def check_targets(self, moves: list[dict[str, Any]]) -> None:
        """The board lights what the moves call for, and nothing else."""
        page = self.page
        kind = moves[0]["type"]
        anchors = page.locator(f"{BOARD} g.target[data-anchor]")
        if kind == "place":
            wanted = sorted({(m["x"], m["y"]) for m in moves if "x" in m})
            lit = sorted(
                tuple(at)
                for at in anchors.evaluate_all(
                    "(nodes) => nodes.map((n) => [Number(n.dataset.x), Number(n.dataset.y)])"
                )
            )
            assert lit == wanted
            # The discard records one move: it says it in the API's words.
            nowhere = {"type": "place", "player": moves[0]["player"]}
            fits_nowhere = move_words(SIFAKA, nowhere, self.game["players"])
            discard = page.get_by_role("button", name=fits_nowhere, exact=True)
            expect(discard).to_have_count(0 if wanted else 1)
        else:
            expect(anchors).to_have_count(0)
        if kind == "move":
            expect(page.locator(f"{BOARD} g.target[data-sifaka]")).to_have_count(1)
            # One lit box per box where a listed way ends (the sifaka's own box is the sifaka),
            # as the rules' own walk says.
            now = self.rules_state()
            pawn = now.pawns[now.turn]
            ways = {tuple(m["turns"]) for m in moves}
            walks = {t: w for t, w in walk_choices(board_map(now), pawn) if t in ways}
            assert len(walks) == len(ways)
            wanted = Counter((w.x, w.y) for w in walks.values() if (w.x, w.y) != (pawn.x, pawn.y))
            lit = page.locator(f"{BOARD} g.target[data-end]").evaluate_all(
                "(all) => all.map((n) => [n.dataset.x, n.dataset.y, n.dataset.ways].map(Number))"
            )
            assert {(x, y): ways for x, y, ways in lit} == dict(wanted)
        if kind == "deal":
            expect(page.locator(f"{BOARD} g.target[data-deal]")).to_have_count(1)

    def check_picker(self) -> str:
        """Every option a picture (the confirmation's yes and no aside); the picker's title."""
        title = self.page.locator("#picker-title").text_content() or ""
        options = self.page.locator(f"#picker-options {RECORDS}")
        assert options.count() >= 1
        if title != CONFIRM_TITLE:
            for option in options.all():
                expect(option.locator("svg")).to_have_count(1)
        return title

    def step(self) -> bool:
        """One touch (and the picks it opens) to the next version; False once the game is over."""
        page = self.page
        shown = self.client.get(f"/games/{self.game['id']}").json
        version = shown["version"]
        settled(page, version)
        if shown["status"] != "active":
            return False
        moves = self.legal_now()
        self.check_screen()
        self.check_targets(moves)
        controls = self.offered()
        assert controls, "nothing to touch"
        touched = self.chooser.choice(controls)
        self.used[self.kind_of(touched)] += 1
        expected = self.expectation(touched, moves)
        touched.click()
        picks = 0
        while True:
            page.wait_for_function(
                """(version) => {
                  const root = document.querySelector('#recorder');
                  return !document.querySelector('#picker').hidden
                    || (Number(root.dataset.version) > version && root.dataset.busy === 'false');
                }""",
                arg=version,
            )
            if not picker_open(page):
                break
            self.check_screen()
            title = self.check_picker()
            options = page.locator(f"#picker-options {RECORDS}").all()
            if title == CONFIRM_TITLE:
                self.confirmations += 1
                assert "end the game" in (page.locator("#picker-chosen").text_content() or "")
                page.get_by_role("button", name="Yes: record it and end the game").click()
            else:
                self.check_pick(title, options, moves, expected)
                chosen = self.chooser.choice(self.truthful(title, options))
                expected.setdefault("picked", []).append(
                    (title, words_of(chosen), json.loads(chosen.get_attribute("data-value") or ""))
                )
                chosen.click()
            picks += 1
            assert picks < 6, "too many picks for one move"
        settled(page, version + 1)
        recorded = self.last_event()
        self.check_recorded(recorded, expected, moves)
        return True

    def truthful(self, title: str, options: list[Locator]) -> list[Locator]:
        """The options a player may really pick. A seat's page offers every card and value the
        seat cannot rule out, those in the other seats' hands too; what came up at the table is
        one the recorder's list names (the recorder's page offers only those)."""
        if self.seat is None:
            return options
        field = {"dealt": "card", "draw": "draw", "counter": "counter"}
        named = next((name for word, name in field.items() if word in title), None)
        if named is None:
            return options
        possible = {move.get(named) for move in legal(self.client, self.game)}
        kept = [o for o in options if json.loads(o.get_attribute("data-value") or "") in possible]
        assert kept, f"no option of {title!r} can be what came up"
        return kept

    def kind_of(self, node: Locator) -> str:
        for kind in ("anchor", "end", "sifaka", "deal"):
            if node.get_attribute(f"data-{kind}") is not None:
                return kind
        return f"button {words_of(node)}"

    def expectation(self, node: Locator, moves: list[dict[str, Any]]) -> dict[str, Any]:
        """What the touched control promises: the tile's place, or where the sifaka ends."""
        x, y = node.get_attribute("data-x"), node.get_attribute("data-y")
        if node.get_attribute("data-anchor") is not None:
            at = (int(x or ""), int(y or ""))
            facings = [m for m in moves if (m.get("x"), m.get("y")) == at]
            return {"type": "place", "at": at, "facings": facings}
        if node.get_attribute("data-end") is not None:
            return {"type": "move", "end": (int(x or ""), int(y or ""))}
        if node.get_attribute("data-deal") is not None:
            return {"type": "deal"}
        return {}

    def check_recorded(
        self, recorded: dict[str, Any], expected: dict[str, Any], moves: list[dict[str, Any]]
    ) -> None:
        """The event stored is a move /legal listed, and what was touched and picked."""
        body = {k: v for k, v in recorded.items() if k not in ("seq", "at", "hash", "void")}
        assert body in moves, f"recorded a move /legal did not list: {body}"
        picked = expected.get("picked", [])
        if expected.get("type") == "place":
            assert (recorded.get("x"), recorded.get("y")) == expected["at"]
            if len(expected["facings"]) == 1:
                assert not picked, "a single facing is recorded at once"
                assert recorded == {**recorded, **expected["facings"][0]}
        if expected.get("type") == "move":
            shown = state(self.client, self.game, recorded["seq"])
            pawn = shown["pawns"][recorded["player"]]
            assert (pawn["x"], pawn["y"]) == expected["end"], "the sifaka did not end where lit"
        for title, label, value in picked:
            if "which way does it face" in title:
                assert label == FACING[recorded.get("rotation", 0)]
                assert value == body
            elif "Terrain card" in title:
                assert recorded["card" if recorded["type"] == "deal" else "draw"] == value
            elif "counter" in title:
                assert recorded["counter"] == value

    def check_pick(
        self,
        title: str,
        options: list[Locator],
        moves: list[dict[str, Any]],
        expected: dict[str, Any],
    ) -> None:
        """The picker offers what the moves list: facings, ways, cards, counters."""
        if "which way does it face" in title:
            self.used["pick a facing"] += 1
            labels = [words_of(option) for option in options]
            assert labels == [FACING[m["rotation"]] for m in expected["facings"]]
        elif "Terrain card" in title:
            field = "card" if "dealt" in title else "draw"
            self.used[f"pick a card {field}"] += 1
            ids = {m[field] for m in moves if field in m}
            counted = 0
            for option in options:
                count = option.locator(".count")
                counted += int((count.text_content() or "?1")[1:]) if count.count() else 1
            assert counted == len(ids), "the pictures do not count the cards listed"
            if counted > len(options):
                self.used["equal tiles counted"] += 1
        elif "counter" in title:
            self.used["pick a counter"] += 1
            values = sorted({m["counter"] for m in moves if "counter" in m})
            assert [json.loads(o.get_attribute("data-value") or "") for o in options] == values
        elif "sifaka go" in title:
            self.used["pick a way"] += 1
            assert len(options) == len({json.dumps(m["turns"]) for m in moves})
        else:
            raise AssertionError(f"an unexpected picker: {title}")

    def play(self, limit: int = 400) -> int:
        steps = 0
        while self.step():
            steps += 1
            assert steps < limit, "the game does not end"
        return steps


FACING = {0: "Facing north", 90: "Facing east", 180: "Facing south", 270: "Facing west"}


# The games -----------------------------------------------------------------------------------


def new_game(client: FlaskClient, players: list[str], seed: int, **options: Any) -> dict[str, Any]:
    return create(client, game="sifaka", players=players, seed=seed, options=options)


@pytest.mark.parametrize("viewport", [PHONE])
def test_a_whole_seeded_game_recorded_by_touch(page: Page, server: LiveServer) -> None:
    client = server.client
    # Two thirds of the default deck: a board as wide as a phone allows, within a minute's test.
    deck = {"cards": DEFAULT_CATALOG["cards"][:32]}
    game = new_game(client, ["Ana", "Ben"], 3, chance="seeded", catalog=deck)
    open_recorder(page, server, game, version=None)
    touches = Touches(page, server, game, random.Random(11), seed=3)
    touches.play()
    recorded = client.get(f"/games/{game['id']}").json
    assert recorded["status"] == "finished" and recorded["result"]
    assert touches.confirmations == 1, "the last move is confirmed, and only it"
    expect(page.locator(RECORDER)).to_have_attribute("data-finished", "true")
    # The whole deck placed, each by touching the box for the tile's corner.
    assert touches.used["anchor"] == 32
    assert touches.used["pick a facing"] > 20
    assert touches.used["sifaka"] + touches.used["end"] > 10


@pytest.mark.parametrize("viewport", [PHONE])
def test_a_whole_observed_game_recorded_by_touch(page: Page, server: LiveServer) -> None:
    client = server.client
    game = new_game(client, ["Ana", "Ben", "Caro"], 1, chance="observed", catalog=SHORT_DECK)
    open_recorder(page, server, game, version=None)
    touches = Touches(page, server, game, random.Random(4), seed=1)
    touches.play()
    recorded = client.get(f"/games/{game['id']}").json
    assert recorded["status"] == "finished"
    assert touches.confirmations == 1
    stored = events(client, game, token=True)
    assert [event["type"] for event in stored[:3]] == ["deal"] * 3
    # Every card dealt and drawn, and every counter taken, was picked from pictures.
    assert touches.used["pick a card card"] == 3
    assert touches.used["pick a card draw"] == len(SHORT_IDS) - 3 - 1  # the last one goes alone
    assert touches.used["equal tiles counted"] >= 1
    taken = sum(1 for event in stored if "counter" in event)
    assert taken and touches.used["pick a counter"] >= 1


@pytest.mark.parametrize("viewport", [PHONE])
def test_each_seat_records_its_own_moves_on_its_own_page(page: Page, server: LiveServer) -> None:
    client = server.client
    game = new_game(client, ["Ana", "Ben"], 2, chance="observed", catalog=SHORT_DECK)
    pages = [page, page.context.new_page()]
    problems: list[str] = []
    pages[1].on("pageerror", lambda error: problems.append(f"page error: {error}"))
    pages[1].on(
        "console",
        lambda message: (
            problems.append(message.text)
            if message.type == "error" and "/stream" not in message.text
            else None
        ),
    )
    for seat, opened in enumerate(pages):
        open_recorder(opened, server, game, seat=seat, version=None)
    chooser = random.Random(8)
    seats = [
        Touches(opened, server, game, chooser, seed=2, seat=seat)
        for seat, opened in enumerate(pages)
    ]
    steps = 0
    while (shown := client.get(f"/games/{game['id']}").json)["status"] == "active":
        awaited = state(client, game, shown["version"])["current_player"]
        other = pages[1 - awaited]
        settled(other, shown["version"])
        # The seat not awaited has nothing to record.
        expect(other.locator(f"{RECORDS}:visible")).to_have_count(0)
        expect(other.locator("#legal")).to_contain_text("Not your turn")
        # The awaited seat's phone is in its player's hand (a page in the background is slowed
        # down by the browser); it has followed the game live.
        pages[awaited].bring_to_front()
        assert seats[awaited].step()
        steps += 1
        assert steps < 200
    posted = {event["player"] for event in events(client, game, token=True)}
    assert posted == {0, 1}
    for touches in seats:
        assert touches.used["anchor"] > 3
        # A seat's page is never told which move ends the game (the frame asks the recorder's
        # page only), so no confirmation is looked for here.
    assert sum(t.used["pick a card card"] for t in seats) == 2
    assert sum(t.used["pick a card draw"] for t in seats) > 5
    assert not problems, problems


def inside(inner: Locator, outer: Locator) -> bool:
    """Whether ``inner`` is drawn within ``outer``'s box (a board's part within its view)."""
    one, other = inner.bounding_box(), outer.bounding_box()
    assert one and other
    return other["y"] <= one["y"] and one["y"] + one["height"] <= other["y"] + other["height"] + 1


@pytest.mark.parametrize("viewport", [LAPTOP])
def test_a_whole_game_recorded_by_touch_on_a_laptop(page: Page, server: LiveServer) -> None:
    client = server.client
    game = new_game(client, ["Ana", "Ben", "Caro", "Dan"], 4, chance="seeded", catalog=SHORT_DECK)
    open_recorder(page, server, game, version=None)
    touches = Touches(page, server, game, random.Random(3), seed=4)
    for _ in range(6):
        touches.step()
        # On a wide screen the board keeps the seats' rows in view while recording.
        expect(page.locator(f"{BOARD} g.seat")).to_have_count(4)
        assert inside(page.locator(f"{BOARD} g.seat").last, page.locator(BOARD))
    touches.play()
    assert client.get(f"/games/{game['id']}").json["status"] == "finished"
    assert touches.confirmations == 1


# The choices of one move ---------------------------------------------------------------------


def play_through_the_api(client: FlaskClient, game: dict[str, Any], seed: int, moves: int) -> None:
    chooser = random.Random(seed)
    for _ in range(moves):
        assert append(client, game, chooser.choice(legal(client, game))).status_code == 201


@pytest.mark.parametrize("viewport", [PHONE])
def test_a_move_that_may_turn_lights_where_each_way_ends(page: Page, server: LiveServer) -> None:
    client = server.client
    # Found by playing this seed: Ben's sifaka at the edge of palm trees, two arrows on its way.
    game = new_game(client, ["Ana", "Ben"], 184, chance="seeded")
    play_through_the_api(client, game, 184, 35)
    assert [m["turns"] for m in legal(client, game)] == [[], [1], [2]]
    open_recorder(page, server, game, version=None)
    settled(page, 35)
    ends = page.locator(f"{BOARD} g.target[data-end]")
    expect(ends).to_have_count(3)
    said = {
        (int(end.get_attribute("data-x") or ""), int(end.get_attribute("data-y") or "")): words_of(
            end
        )
        for end in ends.all()
    }
    # Each lit end records one move: it says it in the API's words (GET /legal's, the server's
    # move_words).
    worded = {
        turns: move_words(SIFAKA, {"type": "move", "player": 1, "turns": list(turns)},
                          game["players"])
        for turns in ((), (1,), (2,))
    }  # fmt: skip
    assert worded[(1,)] == "Ben moves the sifaka, turning at the 1st step"
    assert said == {(2, 6): worded[()], (3, 5): worded[(1,)], (3, 6): worded[(2,)]}
    # The sifaka (and its button) asks which way, each drawn; Cancel records nothing.
    page.locator(f"{BOARD} g.target[data-sifaka]").click()
    expect(page.locator("#picker-title")).to_have_text("Which way does Ben's sifaka go?")
    options = page.locator(f"#picker-options {RECORDS}")
    expect(options).to_have_count(3)
    expect(options.locator("svg")).to_have_count(3)
    assert [words_of(option) for option in options.all()] == list(said.values())
    page.locator("#picker-cancel").click()
    expect(page.locator(PICKER)).to_be_hidden()
    assert version_now(client, game) == 35
    # Touching a lit end records the way that ends there.
    page.locator(f'{BOARD} g.target[data-end][data-x="3"][data-y="5"]').click()
    settled(page, 36)
    assert events(client, game)[-1]["turns"] == [1]
    assert state(client, game, 36)["pawns"][1] == {"x": 3, "y": 5, "facing": "E"}


@pytest.mark.parametrize("viewport", [PHONE])
def test_a_tile_is_placed_by_its_corner_then_its_facing(page: Page, server: LiveServer) -> None:
    client = server.client
    game = new_game(client, ["Ana", "Ben"], 3, chance="seeded")
    open_recorder(page, server, game, version=None)
    moves = legal(client, game)
    slots = sorted({(m["x"], m["y"]) for m in moves})
    assert slots == [(-1, 1), (1, -1), (1, 3), (3, 1)]
    anchors = page.locator(f"{BOARD} g.target[data-anchor]")
    expect(anchors).to_have_count(4)
    # Each says what the tile would cover (a starting slot: two blank boxes of the hut square).
    assert [words_of(anchor) for anchor in anchors.all()] == [
        "Place the tile here, over 2 blank boxes"
    ] * 4
    # The card in hand shows under the board while its place is chosen, and on a phone the board
    # shows the grid only (the seats' rows out of view), as large as the screen allows.
    expect(page.locator("#actions .sifaka-hint")).to_contain_text("top-left corner")
    expect(page.locator("#actions .sifaka-hint svg")).to_have_count(1)
    assert not inside(page.locator(f"{BOARD} g.seat").first, page.locator(BOARD))
    # By the keyboard too: Enter on a lit box asks for the facing.
    north = page.locator(f'{BOARD} g.target[data-anchor][data-x="1"][data-y="-1"]')
    north.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#picker-title")).to_have_text("Ana's tile: which way does it face?")
    expect(north).to_have_class(re.compile(r"\bchosen\b"))
    facings = [m for m in moves if (m["x"], m["y"]) == (1, -1)]
    expect(page.locator(f"#picker-options {RECORDS}")).to_have_text(
        [FACING[m["rotation"]] for m in facings]
    )
    page.locator("#picker-cancel").click()
    expect(north).not_to_have_class(re.compile(r"\bchosen\b"))
    assert version_now(client, game) == 0
    page.locator(f'{BOARD} g.target[data-anchor][data-x="3"][data-y="1"]').click()
    page.get_by_role("button", name="Facing east").click()
    settled(page, 1)
    assert events(client, game)[-1] == {
        **events(client, game)[-1],
        "type": "place",
        "player": 0,
        "x": 3,
        "y": 1,
        "rotation": 90,
    }


# The service refuses the discard of a card that fits: Chromium logs the 422 as a failed load.
@pytest.mark.console_error("status of 422")
@pytest.mark.parametrize("viewport", [PHONE])
def test_a_tile_that_fits_nowhere_is_discarded_by_a_button(page: Page, server: LiveServer) -> None:
    client = server.client
    game = new_game(client, ["Ana", "Ben"], 3, chance="seeded")
    # A card that fits nowhere is all but impossible to reach in play: /legal is made to say so.
    discard = {"type": "place", "player": 0}

    words = move_words(SIFAKA, discard, game["players"])
    assert words == "Ana discards the tile (it fits nowhere)"

    def only_a_discard(route: Any) -> None:
        answer = route.fetch()
        listed = {"moves": [discard], "ending": [False], "words": [words], "base_words": [words]}
        route.fulfill(response=answer, json=listed)

    page.route("**/legal", only_a_discard)
    posted: list[Any] = []
    page.on(
        "request",
        lambda sent: posted.append(sent.post_data_json) if sent.method == "POST" else None,
    )
    open_recorder(page, server, game, version=None)
    expect(page.locator(f"{BOARD} g.target[data-anchor]")).to_have_count(0)
    expect(page.locator("#actions .sifaka-hint")).to_contain_text("fits nowhere")
    # It records one move: its words are the API's.
    button = page.get_by_role("button", name=words, exact=True)
    expect(button.locator("svg")).to_have_count(1)
    button.click()
    expect(page.locator("#record-error")).to_contain_text("Not recorded")
    assert posted == [discard], "the body /legal gave, as is"
    settled(page, 0)
    page.unroute_all(behavior="wait")


# A seat offered a card another seat holds is refused (422): Chromium logs it as a failed load.
@pytest.mark.console_error("status of 422")
@pytest.mark.parametrize("viewport", [PHONE])
def test_equal_tiles_on_a_seats_page_send_the_other_card_when_one_is_refused(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = new_game(client, ["Ana", "Ben"], 1, chance="observed", catalog=SHORT_DECK)
    # Ben is dealt card 2; Ana then draws card 39, the same tile. Ana's page cannot tell them
    # apart (nor rule out Ben's card): one picture, counted twice.
    for seat, card in ((0, 1), (1, 2)):
        assert (
            append(client, game, {"type": "deal", "player": seat, "card": card}).status_code == 201
        )
    assert append(client, game, legal(client, game)[0]).status_code == 201
    ways = {json.dumps(m["turns"]) for m in legal(client, game)}
    assert len(ways) == 1 and not any("counter" in m for m in legal(client, game))
    open_recorder(page, server, game, seat=0, version=None)
    settled(page, 3)

    def draw_the_tile() -> None:
        page.locator(f"#actions {RECORDS}").first.click()
        expect(page.locator("#picker-title")).to_have_text("Which Terrain card did Ana draw?")
        tile = page.locator(f'#picker-options {RECORDS}[data-value="2"]')
        expect(tile.locator(".count")).to_have_text(f"{TIMES}2")
        tile.click()

    draw_the_tile()
    expect(page.locator("#record-error")).to_contain_text("Not recorded")
    assert version_now(client, game) == 3
    draw_the_tile()
    settled(page, 4)
    assert events(client, game, token=True)[-1]["draw"] == 39


def test_moves_are_worded_alike_by_the_server_and_the_page(page: Page, server: LiveServer) -> None:
    client = server.client
    game = new_game(client, ["Ana", "Ben"], 1, chance="observed", catalog=SHORT_DECK)
    play_through_the_api(client, game, 1, 9)
    written = [
        {"type": "place", "player": 1},
        {"type": "place", "player": 0, "x": -3, "y": 2, "rotation": 270},
        {"type": "place", "player": 0, "x": 1, "y": -1},
        {"type": "move", "player": 1, "turns": [1, 3], "counter": 4, "draw": 12},
        {"type": "move", "player": 1, "turns": [2], "hidden": ["draw", "counter"]},
        {"type": "move", "player": 0, "turns": []},
        {"type": "retract"},
    ]
    seen = [
        *written,
        *events(client, game),
        *events(client, game, seat=0),
        *events(client, game, token=True),
    ]
    sent = [
        *sent_words(client, game),
        *sent_words(client, game, seat=0),
        *sent_words(client, game, token=True),
    ]
    # A correction's words are every game's (the pages' move_words), the rest Sifaka's own; the
    # API sends them beside the events, as each reader may see them, and the pages show them.
    said = [move_words(SIFAKA, event, game["players"], game["options"]) for event in seen]
    assert sent == said[len(written) :]
    page.goto(f"{server.url}/games/{game['id']}/view")
    expect(page.locator("#moves li .text")).to_have_text(["the start", *sent_words(client, game)])
    assert said[:6] == [
        "Ben discards the tile (it fits nowhere)",
        # A tile's place is said from the huts, a card by its face: no coordinate, no number.
        "Ana places the tile 1 square south and 4 west of the huts, facing west",
        "Ana places the tile 2 squares north of the huts, facing north",
        "Ben moves the sifaka, turning at the 1st and 3rd steps, takes a counter worth 4 and"
        " draws a Terrain card with a green mango, 2 palms over 2 boxes and an arrow east",
        "Ben moves the sifaka, turning at the 2nd step, takes a counter and draws a Terrain card",
        "Ana moves the sifaka",
    ]
    # What a seat may not see is said without its value.
    public = [
        SIFAKA.describe(event, game["players"], game["options"]) for event in events(client, game)
    ]
    assert public[0] == "Ana is dealt a Terrain card"
    assert "draws a Terrain card" in " ".join(public)


def test_the_boards_labels_say_where_things_lie_from_the_huts_never_coordinates(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = new_game(client, ["Ana", "Ben", "Caro"], 5, chance="seeded")
    players, facing = game["players"], {"N": "north", "E": "east", "S": "south", "W": "west"}

    def labels(selector: str) -> list[tuple[int, int, str | None, str]]:
        """Each node's box (its data-x and data-y, or data-slot), its hut's colour if it is a
        hut, and its own title."""
        found: list[tuple[int, int, str | None, str]] = page.locator(
            f"{BOARD} {selector}"
        ).evaluate_all(
            """(nodes) => nodes.map((n) => {
                const at = n.dataset.slot ? n.dataset.slot.split(",") : [n.dataset.x, n.dataset.y];
                const [x, y] = at;
                const title = n.querySelector("title").textContent;
                return [Number(x), Number(y), n.dataset.hut || null, title];
            })"""
        )  # fmt: skip
        return found

    # Early, with starting slots free; later, with tiles and sifakas away from the huts.
    for moves in (2, 16):
        play_through_the_api(client, game, moves, moves - version_now(client, game))
        page.goto(f"{server.url}/games/{game['id']}/view")
        expect(page.locator(f"{BOARD} g.pawn")).to_have_count(3)
        shown = state(client, game, moves)
        # The drawing says a tile-sized slot as a move's words say a tile (from_huts), and a box
        # or a sifaka from its nearest hut (square_from_huts), as display.py does.
        slots = labels("rect.slot")
        assert [title for *_, title in slots] == [
            f"starting slot {from_huts(x, y)}, free" for x, y, *_ in slots
        ]
        assert len(slots) == sum(not slot["filled"] for slot in shown["starting_slots"])
        for x, y, hut, title in labels("g.box"):
            # A hut says itself; any other box where it lies, then what it shows.
            assert title == f"{hut} hut" if hut else title.startswith(f"{square_from_huts(x, y)}: ")
        pawns = labels("g.pawn")
        assert [title for *_, title in pawns] == [
            f"{players[seat]}'s {colour} sifaka {square_from_huts(pawn['x'], pawn['y'])},"
            f" facing {facing[pawn['facing']]}"
            for seat, (colour, pawn) in enumerate(
                zip(shown["colours"], shown["pawns"], strict=True)
            )
        ]
        described = page.locator("#board-desc").text_content() or ""
        every = [title for *_, title in (*slots, *labels("g.box"), *pawns)] + [described]
        assert not [words for words in every if RAW.search(words)], every
