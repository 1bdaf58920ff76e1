"""The score pad of up to 8 players on a 390x844 touch phone (api.md, "Pages: what people read
afterwards"; scoresheet.md, team_names): every player's column on the first screen with no
sideways swipe, no button cut, each player a colour of their own, teams by their names, a pad's
words (no hand, no turn), one Undo and one way to cancel a question."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.helpers import LiveServer, append, open_recorder
from tests.support.api import create

PHONE = {"width": 390, "height": 844}
EIGHT = ["Alice", "Bruno", "Chloé", "Dev", "Emma", "Farid", "Gus", "Hana"]
CONFIRM_TITLE = "This move ends the game"

# Each player's cell of the pad: whether its field and "+" lie on the first screen, whether the
# "+" shows its words whole, and the cell's colour.
CELLS_JS = """
() => {
  window.scrollTo(0, 0);
  const inside = (box) => box.top >= 0 && box.bottom <= window.innerHeight && box.left >= 0
    && box.right <= document.documentElement.clientWidth && box.width > 0;
  return [...document.querySelectorAll(".pad-player")].map((cell) => {
    const field = cell.querySelector(".pad-input").getBoundingClientRect();
    const add = cell.querySelector(".pad-add");
    const box = add.getBoundingClientRect();
    return {
      seat: cell.dataset.seat, field: inside(field), add: inside(box), words: add.textContent,
      cut: add.scrollWidth > add.clientWidth + 1 || add.scrollHeight > add.clientHeight + 1,
      width: box.width, height: box.height,
      colour: getComputedStyle(cell.querySelector(".dot")).backgroundColor,
    };
  });
}
"""


def visible_words(page: Page) -> str:
    said: str = page.evaluate("() => document.body.innerText")
    return said


def test_eight_players_fit_the_first_screen_each_in_a_colour_of_their_own(
    phone: Page, server: LiveServer
) -> None:
    game = create(server.client, game="scoresheet", players=EIGHT, options={"title": "7 Wonders"})
    open_recorder(phone, server, game, ready_js="document.querySelector('.pad-input') !== null")
    cells = phone.evaluate(CELLS_JS)
    assert [cell["seat"] for cell in cells] == [str(seat) for seat in range(8)]
    off = [EIGHT[int(c["seat"])] for c in cells if not (c["field"] and c["add"])]
    assert not off, f"players whose column is off the first screen: {off}"
    assert phone.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    ), "a sideways swipe"
    # "+ Bruno", whole: no button cut.
    for cell, name in zip(cells, EIGHT, strict=True):
        assert cell["words"] == f"+ {name}" and not cell["cut"], cell
        assert cell["width"] >= 44 and cell["height"] >= 44, cell
    colours = [cell["colour"] for cell in cells]
    assert len(set(colours)) == 8, colours
    # The board's totals draw the same colours, one each.
    dots = phone.eval_on_selector_all(
        "#board .seat circle", "nodes => nodes.map((n) => n.getAttribute('fill'))"
    )
    assert len(set(dots)) == 8

    # A pad's words: points and rounds, no hand, no turn.
    said = visible_words(phone)
    assert not re.search(r"\bhands?\b|\bturns?\b", said, re.IGNORECASE), said
    # One Undo: the pad's, the page's own hidden while the pad stands in for it.
    undos = phone.get_by_role("button", name=re.compile(r"^(Undo|Take back)"))
    expect(undos).to_have_count(1)
    expect(undos).to_have_text("Undo the last entry")


def test_a_question_has_one_way_out(phone: Page, server: LiveServer) -> None:
    game = create(server.client, game="scoresheet", players=EIGHT[:3], options={"title": "Azul"})
    assert append(server.client, game, {"type": "round", "points": [3, 4, 5]}).status_code == 201
    open_recorder(phone, server, game, version=1)
    phone.locator(".pad-end").tap()
    dialog = phone.get_by_role("dialog", name=CONFIRM_TITLE)
    expect(dialog).to_contain_text("Chloé wins")
    buttons = dialog.get_by_role("button")
    words = [words.strip() for words in buttons.all_text_contents() if words.strip()]
    assert sorted(words) == sorted(["Yes: record it and end the game", "No, not yet"]), words
    dialog.get_by_role("button", name="No, not yet").tap()
    expect(dialog).to_be_hidden()
    assert phone.locator("#recorder").get_attribute("data-version") == "1"


def test_teams_are_shown_by_their_names(phone: Page, server: LiveServer) -> None:
    options = {
        "title": "Codenames", "teams": [[0, 2], [1, 3]], "team_names": ["Red", "Blue"],
    }  # fmt: skip
    game = create(server.client, game="scoresheet", players=EIGHT[:4], options=options)
    assert append(server.client, game, {"type": "round", "points": [3, 4, 5, 1]}).status_code == 201
    open_recorder(phone, server, game, version=1)
    board = phone.locator("#board")
    expect(board.locator(".caption")).to_contain_text("Red 8 · Blue 5")
    places = board.locator(".seat .place")
    expect(places).to_have_text(["Red 1st", "Blue 2nd", "Red 1st", "Blue 2nd"])
    # Seat 1's own link: their own points, in a pad's words.
    open_recorder(phone, server, game, seat=1, version=1)
    expect(phone.locator("#recording-as")).to_have_text(
        "Recording as Bruno: Bruno's own points only."
    )
    expect(phone.locator("#record-status")).to_contain_text("Bruno: add your points")


def test_new_names_the_teams_chosen(phone: Page, server: LiveServer) -> None:
    phone.goto(f"{server.url}/new")
    phone.get_by_label("Another game").check()
    phone.locator("#title").fill("Codenames")
    for seat, name in enumerate(EIGHT[:4]):
        phone.locator(f"#player-{seat}").fill(name)
    teams = phone.locator("#field-teams")
    # No name field before a team is chosen; then one per team in use.
    expect(teams.locator(".team-name:visible")).to_have_count(0)
    for name, team in zip(EIGHT[:4], (1, 2, 1, 2), strict=True):
        teams.get_by_label(name, exact=True).select_option(label=f"Team {team}")
    expect(teams.locator(".team-name:visible")).to_have_count(2)
    phone.locator("#team_names-1").fill("Red")
    phone.locator("#team_names-2").fill("Blue")
    phone.get_by_role("button", name="Start recording").click()
    expect(phone.locator("#created")).to_be_visible()
    games = server.client.get("/games?game=scoresheet").json["games"]
    state = server.client.get(f"/games/{games[0]['id']}/state").json
    assert state["teams"] == [[0, 2], [1, 3]] and state["team_names"] == ["Red", "Blue"]
