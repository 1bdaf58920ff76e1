"""The viewer's page of a long game (issue 23): it carries the moves around the one it opens at,
not every move of the game, so its size does not grow with the game's length; viewer.js fetches
the others from GET /events (tests/browser/test_viewer_long_game.py drives it in Chromium)."""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from domain import get_game
from service.games import move_words
from service.pages.views import MOVES_AROUND, shown_moves
from tests.support.api import append, create, legal
from tests.support.viewer import long_game


def page_of(client: FlaskClient, path: str) -> tuple[str, dict[str, Any]]:
    response = client.get(path)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    found = re.search(r'id="viewer-data">(.*?)</script>', html, re.S)
    assert found
    return html, json.loads(found.group(1))


def listed(html: str) -> list[int]:
    return [int(seq) for seq in re.findall(r'<li data-at="(\d+)"', html)]


def test_the_page_of_a_long_game_is_no_heavier_than_a_short_ones(
    app: Flask, client: FlaskClient
) -> None:
    short = long_game(app, 50)
    long = long_game(app, 2000)
    short_page = client.get(f"/games/{short['id']}/view").get_data()
    sizes = {
        at: len(client.get(f"/games/{long['id']}/view?at={at}").get_data())
        for at in ("0", "1000", "2000", "")
    }
    # The long game's page lists twice as many moves as the short game's (MOVES_AROUND either
    # side), against forty times as many in the game: a page that listed them all would be some
    # 25 times the short one's.
    for at, size in sizes.items():
        assert size < 3 * len(short_page), (at, size, len(short_page))


def test_the_page_lists_the_moves_around_the_one_it_opens_at(
    app: Flask, client: FlaskClient
) -> None:
    game = long_game(app, 2000)
    stored = client.get(f"/games/{game['id']}/events?from=1000&limit=1").json["events"][0]
    words = get_game("mada").describe(stored, game["players"])
    html, data = page_of(client, f"/games/{game['id']}/view?at=1000")
    assert listed(html) == list(range(1000 - MOVES_AROUND, 1000 + MOVES_AROUND + 1))
    assert 'aria-current="step"' in html.split('<li data-at="1000"')[1].split("</li>")[0]
    assert html.count('aria-current="step"') == 1
    assert f"move 1000 of 2000: {words}" in html
    assert data["first"] == 1000 - MOVES_AROUND and len(data["moves"]) == 2 * MOVES_AROUND + 1
    assert data["moves"][MOVES_AROUND] == words
    assert len(data["types"]) == len(data["void"]) == len(data["moves"])
    # The links to the moves beyond, which work without a script (viewer.js loads them in place).
    before, after = 999 - MOVES_AROUND, 1001 + MOVES_AROUND
    assert f'<a href="?at={before}">Earlier moves (0 to {before})</a>' in html
    assert f'<a href="?at={after}">Later moves ({after} to 2000)</a>' in html

    # At either end, the window leans on the game's other side, and the start is listed.
    html, data = page_of(client, f"/games/{game['id']}/view?at=0")
    assert listed(html) == list(range(0, 2 * MOVES_AROUND + 2))
    assert "move 0 of 2000: the start" in html
    assert 'id="earlier-moves" hidden' in html and 'id="later-moves" hidden' not in html
    html, data = page_of(client, f"/games/{game['id']}/view")
    assert listed(html) == list(range(2000 - 2 * MOVES_AROUND, 2001))
    assert data["at"] == 2000 and 'id="later-moves" hidden' in html

    # A move past the end: the last, and the note that says so.
    html, data = page_of(client, f"/games/{game['id']}/view?at=2001")
    assert 'id="at-problem"' in html and data["at"] == 2000
    assert listed(html)[-1] == 2000


def test_the_moves_listed_read_and_are_voided_as_get_events_says(
    app: Flask, client: FlaskClient
) -> None:
    game = long_game(app, 150)
    # Retractions, two in a row among them: each voids the latest move still standing.
    for move in ({"type": "retract"}, {"type": "retract"}, None, None, {"type": "retract"}, None):
        response = append(client, game, move or legal(client, game)[0])
        assert response.status_code == 201, response.json
    listed_by_api = client.get(f"/games/{game['id']}/events").json["events"]
    assert sum(event["void"] for event in listed_by_api) == 3
    for at in (0, 60, 100, 153, 156):
        html, data = page_of(client, f"/games/{game['id']}/view?at={at}")
        first = data["first"]
        expected = listed_by_api[first - 1 : first - 1 + len(data["moves"])]
        assert data["void"] == [event["void"] for event in expected], at
        assert data["types"] == [event["type"] for event in expected], at
        assert data["moves"] == [move_words(get_game("mada"), e, game["players"]) for e in expected]
        for event in expected:
            item = html.split(f'<li data-at="{event["seq"]}"')[1].split("</li>")[0]
            assert ('class="void"' in item) == event["void"], (at, event["seq"])


def test_a_short_game_lists_every_move_and_no_link_to_more(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"])
    html, data = page_of(client, f"/games/{game['id']}/view")
    assert listed(html) == [0] and data["first"] == 1 and data["moves"] == []
    assert 'id="earlier-moves" hidden' in html and 'id="later-moves" hidden' in html


def test_the_window_of_moves() -> None:
    span = 2 * MOVES_AROUND + 1
    assert shown_moves(0, 0) == (1, 0)
    assert shown_moves(3, 3) == (1, 3)
    assert shown_moves(0, 5000) == (1, span)
    assert shown_moves(2500, 5000) == (2500 - MOVES_AROUND, 2500 + MOVES_AROUND)
    assert shown_moves(5000, 5000) == (5000 - span + 1, 5000)
    assert shown_moves(span, span) == (1, span)


# --- a score sheet's result in words --------------------------------------------------------------
def ended_sheet(client: FlaskClient, options: dict[str, Any], *moves: dict[str, Any]) -> str:
    """The viewer's page of a score sheet of Alice and Bruno, once ``moves`` are appended."""
    game = create(client, game="scoresheet", players=["Alice", "Bruno"], options=options)
    for move in moves:
        assert append(client, game, move).status_code == 201, move
    html, _ = page_of(client, f"/games/{game['id']}/view")
    return html


def result_line(html: str) -> str:
    found = re.search(r'<p class="result" id="result"[^>]*>(.*?)</p>', html, re.S)
    assert found
    return " ".join(found.group(1).split())


def test_a_cooperative_loss_reads_the_table_lost_and_a_win_the_table_won(
    client: FlaskClient,
) -> None:
    options = {"title": "Pandemic", "cooperative": True, "scoring": "none"}
    lost = ended_sheet(client, options, {"type": "end", "outcome": "lost"})
    # No number was written: no scores, neither dashes nor zeros.
    assert result_line(lost) == "Result: the table lost."
    won = ended_sheet(client, options, {"type": "end", "outcome": "won"})
    assert result_line(won) == "Result: the table won."
    # The recent games say it alike.
    index = client.get("/").get_data(as_text=True)
    assert "the table lost</span>" in index and "the table won</span>" in index
    assert "won by" not in index and "Alice and Bruno shared the win" not in index


def test_a_game_with_no_winner_reads_no_winner_never_won_by_nobody(client: FlaskClient) -> None:
    html = ended_sheet(client, {"title": "Azul"}, {"type": "end", "winners": []})
    assert result_line(html) == "Result: no winner."
    assert "won by" not in html and 'class="won"' not in html and "score" not in result_line(html)
    assert "no winner</span>" in client.get("/").get_data(as_text=True)


def test_a_score_never_written_reads_as_a_dash_not_a_zero(client: FlaskClient) -> None:
    html = ended_sheet(
        client,
        {"title": "Azul"},
        {"type": "round", "points": [12.5, None]},
        {"type": "score", "player": 0, "points": 0},
        {"type": "end"},
    )
    assert result_line(html) == "Result: Alice won; scores Alice 12.5, Bruno —."
