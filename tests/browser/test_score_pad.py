"""A score sheet (any game, recorded as its scores) on its pages, in a real Chromium: recorded on
the score pad by touch on a 390x844 phone (domain/scoresheet/browser/scoresheet-pad.js), a seat
adding its own points on its own link, the viewer's plot of the totals, and /new starting one.

At every step of the pad: the totals are on the first screen (in the viewport, unscrolled), and
every control that records is at least 44x44 CSS pixels.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import (
    LiveServer,
    check_no_machinery,
    events,
    open_recorder,
    settled,
)
from tests.support.api import create
from tests.support.workers import drain

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


def new_sheet(server: LiveServer, **options: Any) -> dict[str, Any]:
    players = options.pop("players", PLAYERS)
    return create(
        server.client, game="scoresheet", players=players, options={"title": "Azul", **options}
    )


def check_the_first_screen(page: Page) -> list[dict[str, Any]]:
    """The totals in view without scrolling; every control that records 44x44 at least; no
    record machinery in the page's words."""
    check_no_machinery(page)
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
    # Caro's minus from the ± key (a phone's decimal keypad may have none); her field keeps
    # the focus.
    type_points(phone, {0: "12", 1: "4.5", 2: "3"})
    phone.locator(".pad-sign").tap()
    expect(phone.locator('.pad-input[data-seat="2"]')).to_have_value("-3")
    expect(phone.locator('.pad-input[data-seat="2"]')).to_be_focused()
    tap_and_settle(phone, ".pad-write", 1)
    expect(phone.locator(".pad-sheet tr.round")).to_have_count(1)
    assert [s["total"] for s in check_the_first_screen(phone)] == ["12", "4.5", "-3"]
    # Round 2, Ben's blank; the fields were emptied after round 1, the first one ready.
    expect(phone.locator('.pad-input[data-seat="0"]')).to_have_value("")
    expect(phone.locator('.pad-input[data-seat="0"]')).to_be_focused()
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
    assert check_the_first_screen(phone)[0]["total"] == "112.125"
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
    expect(dialog).to_contain_text("Ben wins. 1st Ben 24.5 · 2nd Ana 15.125 · 3rd Caro 9.")
    check_the_first_screen(phone)
    # One way to cancel the question, in its words: no "No" beside a Cancel.
    expect(dialog.get_by_role("button", name="Cancel")).to_have_count(0)
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


def test_a_seat_adds_its_own_points_on_its_own_link(phone: Page, server: LiveServer) -> None:
    game = new_sheet(server)
    open_recorder(phone, server, game, seat=1, ready_js="document.querySelector('.pad-input')")
    # Ben's field only; no round, no end, no taking back.
    expect(phone.locator(".pad-input")).to_have_count(1)
    expect(phone.locator('.pad-input[data-seat="1"]')).to_have_count(1)
    for absent in (".pad-write", ".pad-end", ".pad-take-back"):
        expect(phone.locator(absent)).to_have_count(0)
    check_the_first_screen(phone)
    type_points(phone, {1: "7.25"})
    tap_and_settle(phone, ".pad-add", 1)
    # The pad is drawn again from the answer: waited for, on a machine that may be slow.
    expect(phone.locator("#board .seat").nth(1)).to_have_attribute("data-total", "7.25")
    assert [s["total"] for s in check_the_first_screen(phone)] == ["0", "7.25", "0"]
    assert stored(server, game) == [{"type": "score", "player": 1, "points": 7.25}]
    expect(phone.locator("#record-status")).to_contain_text("Ben scores 7.25")


# The page's stream, made late: each move message is handed on a second after it came, and
# counted in window.heard once handed; window.pending counts the page's fetches under way.
LATE_STREAM_JS = """
(() => {
  window.heard = 0;
  window.pending = 0;
  const fetchNow = window.fetch.bind(window);
  window.fetch = (...args) => {
    window.pending += 1;
    return fetchNow(...args).finally(() => { window.pending -= 1; });
  };
  const listen = EventSource.prototype.addEventListener;
  EventSource.prototype.addEventListener = function (type, handler, ...rest) {
    if (type !== "move") return listen.call(this, type, handler, ...rest);
    const late = (message) => setTimeout(() => { handler(message); window.heard += 1; }, 1000);
    return listen.call(this, type, late, ...rest);
  };
})();
"""


def test_the_answer_to_a_tap_stays_when_the_stream_brings_the_same_move_later(
    phone: Page, server: LiveServer
) -> None:
    phone.add_init_script(LATE_STREAM_JS)
    game = new_sheet(server)
    open_recorder(phone, server, game, seat=1, ready_js="document.querySelector('.pad-input')")
    type_points(phone, {1: "7.25"})
    tap_and_settle(phone, ".pad-add", 1)
    expect(phone.locator("#record-status")).to_contain_text("Ben scores 7.25")
    # The stream's news of the same move, once handed on and answered, changes nothing said.
    phone.wait_for_function("() => window.heard >= 1 && window.pending === 0")
    expect(phone.locator("#record-status")).to_contain_text("Ben scores 7.25")


def test_a_cooperative_game_ends_with_the_outcome_chosen(phone: Page, server: LiveServer) -> None:
    game = new_sheet(server, cooperative=True)
    open_recorder(phone, server, game, ready_js="document.querySelector('.pad-end')")
    phone.locator(".pad-end").tap()
    question = phone.get_by_role("dialog", name="How did the game end?")
    question.get_by_role("button", name="The game ends: the table wins").tap()
    confirm = phone.get_by_role("dialog", name=CONFIRM_TITLE)
    expect(confirm).to_contain_text("The game ends: the table wins")
    confirm.get_by_role("button", name=YES).tap()
    expect(phone.locator(RECORDER)).to_have_attribute("data-finished", "true")
    assert stored(server, game) == [{"type": "end", "outcome": "won"}]


def test_the_viewer_plots_each_players_total_after_each_round(
    page: Page, server: LiveServer
) -> None:
    game = new_sheet(server)
    headers = {"Authorization": f"Bearer {game['token']}"}
    for move in (
        {"type": "round", "points": [1, 2, 3]},
        {"type": "round", "points": [0.5, None, -1]},
        {"type": "score", "player": 0, "points": 10},
        {"type": "round", "points": [4, 4, 4]},
    ):
        assert server.client.post(f"/games/{game['id']}/events", json=move, headers=headers)
    page.goto(f"{server.url}/games/{game['id']}/view")
    plot = page.locator('#board .plot[data-at="4"]')
    expect(plot).to_have_attribute("data-entries", "4")
    expect(plot.locator(".plot-line")).to_have_count(3)
    # A line per player, from 0 through each entry: five points.
    for seat in range(3):
        path = plot.locator(f'.plot-line[data-seat="{seat}"]').get_attribute("d") or ""
        assert path.count("L") == 4, path
    expect(plot.locator('.plot-line[data-seat="0"] title')).to_have_text(
        "Ana: 0, 1, 1.5, 11.5, 15.5"
    )
    # Stepped back, the plot is the one of that move.
    page.get_by_role("button", name="Previous").click()
    expect(page.locator('#board .plot[data-at="3"]')).to_have_attribute("data-entries", "3")


def test_the_new_game_form_starts_a_score_sheet_scored_lowest_in_teams(
    page: Page, server: LiveServer
) -> None:
    # A title played before (a game of it finished and counted) is suggested (GET /titles).
    played = new_sheet(server, title="Hanabi")
    ended = server.client.post(
        f"/games/{played['id']}/events",
        json={"type": "end"},
        headers={"Authorization": f"Bearer {played['token']}"},
    )
    assert ended.status_code == 201
    drain(server.app)
    page.goto(f"{server.url}/new")
    page.get_by_label("Another game").check()
    for hidden in ("#field-seed", "#field-chance", "#field-first_player", "#field-catalog"):
        expect(page.locator(hidden)).to_be_hidden()
    for seat, name in enumerate(["Ana", "Ben", "Caro", "Dan", "Eve", "Finn"]):
        page.locator(f"#player-{seat}").fill(name)
    # More rows appear as they are filled, past the first five.
    expect(page.locator("#player-6")).to_be_visible()
    expect(page.locator("#player-7")).to_be_hidden()
    expect(page.locator('#title-suggestions option[value="Hanabi"]')).to_have_count(1)
    page.locator("#title").fill("Azul")
    page.get_by_label("the lowest total wins").check()
    teams = page.locator("#field-teams")
    expect(teams.locator('.player-row[data-seat="0"] label')).to_have_text("Ana")
    # A player left without a team is said beside the field, and nothing is created.
    teams.get_by_label("Ana").select_option(label="Team 1")
    page.get_by_role("button", name="Start recording").click()
    expect(page.locator("#error-teams")).to_be_visible()
    for name, team in (("Ben", 2), ("Caro", 1), ("Dan", 2), ("Eve", 1), ("Finn", 2)):
        teams.get_by_label(name).select_option(label=f"Team {team}")
    page.get_by_role("button", name="Start recording").click()
    expect(page.locator("#created")).to_be_visible()
    listed = server.client.get("/games?game=scoresheet").json
    games = listed["games"] if isinstance(listed, dict) else listed
    made = [g for g in games if g["players"][0] == "Ana" and len(g["players"]) == 6]
    assert made, games
    state = server.client.get(f"/games/{made[0]['id']}/state").json
    assert state["title"] == "Azul" and state["scoring"] == "lowest"
    assert state["teams"] == [[0, 2, 4], [1, 3, 5]] and not state["cooperative"]


def test_a_game_without_points_ends_with_who_won(phone: Page, server: LiveServer) -> None:
    game = new_sheet(server, scoring="none", teams=[[0, 2], [1]])
    open_recorder(phone, server, game, ready_js="document.querySelector('.pad-end')")
    expect(phone.locator(".pad-input")).to_have_count(0)
    check_sizes = phone.evaluate(SIZES_JS)
    assert all(c["width"] >= 44 and c["height"] >= 44 for c in check_sizes), check_sizes
    phone.locator(".pad-end").tap()
    question = phone.get_by_role("dialog", name="Who won?")
    question.get_by_role("button", name="The game ends: Ana and Caro win").tap()
    phone.get_by_role("dialog", name=CONFIRM_TITLE).get_by_role("button", name=YES).tap()
    expect(phone.locator(RECORDER)).to_have_attribute("data-finished", "true")
    assert stored(server, game) == [{"type": "end", "winners": [0, 2]}]


def test_points_written_on_another_phone_leave_what_is_being_typed(
    phone: Page, server: LiveServer
) -> None:
    game = new_sheet(server)
    open_recorder(phone, server, game, ready_js="document.querySelector('.pad-input')")
    type_points(phone, {0: "6", 2: "4"})
    ben = {"Authorization": f"Bearer {game['seat_tokens'][1]}"}
    move = {"type": "score", "player": 1, "points": 9}
    assert server.client.post(f"/games/{game['id']}/events", json=move, headers=ben)
    settled(phone, 1)
    assert [s["total"] for s in check_the_first_screen(phone)] == ["0", "9", "0"]
    expect(phone.locator('.pad-input[data-seat="0"]')).to_have_value("6")
    expect(phone.locator('.pad-input[data-seat="2"]')).to_have_value("4")
    expect(phone.locator('.pad-input[data-seat="2"]')).to_be_focused()


def write(server: LiveServer, game: dict[str, Any], *moves: dict[str, Any]) -> None:
    headers = {"Authorization": f"Bearer {game['token']}"}
    for move in moves:
        answer = server.client.post(f"/games/{game['id']}/events", json=move, headers=headers)
        assert answer.status_code == 201, answer.json


def test_a_score_never_written_shows_a_dash_not_a_zero_on_the_pad_and_the_viewer(
    phone: Page, server: LiveServer
) -> None:
    game = new_sheet(server)
    write(server, game, {"type": "round", "points": [5, 0, None]})
    open_recorder(phone, server, game, version=1, ready_js="document.querySelector('.pad-totals')")
    sums = phone.locator(".pad-totals td")
    expect(sums).to_have_text(["5", "0", "—"])
    expect(phone.locator("#board .seat .total")).to_have_text(["5", "0", "—"])
    phone.goto(f"{server.url}/games/{game['id']}/view")
    expect(phone.locator("#board .seat .total")).to_have_text(["5", "0", "—"])
    # Left to the totals, Caro (nothing written) ranks after Ben's written 0.
    expect(phone.locator("#board .seat .place")).to_have_text(["1st now", "2nd now", "3rd now"])


def test_an_abandoned_game_shows_no_standing_under_its_players(
    page: Page, server: LiveServer
) -> None:
    game = new_sheet(server)
    write(server, game, {"type": "round", "points": [5, 3, 1]}, {"type": "abandon"})
    page.goto(f"{server.url}/games/{game['id']}/view")
    expect(page.locator("#board .seat .total")).to_have_text(["5", "3", "1"])
    expect(page.locator("#board .seat .place")).to_have_count(0)
    assert "now" not in (page.locator("#board desc").text_content() or "")


def test_a_cooperative_loss_seen_live_reads_the_table_lost(page: Page, server: LiveServer) -> None:
    game = new_sheet(server, cooperative=True, scoring="none")
    page.goto(f"{server.url}/games/{game['id']}/view")
    expect(page.locator("#game-status")).to_have_text("active")
    write(server, game, {"type": "end", "outcome": "lost"})
    expect(page.locator("#game-status")).to_have_text("finished", timeout=15_000)
    # No number was written: no scores said, neither dashes nor zeros.
    expect(page.locator("#result")).to_have_text("Result: the table lost.")
