"""A player's page as a person uses it: the games they played, newest first and in pages; head to
head with any name, through the page's form; and, on every page that takes parameters, a
parameter it does not take refused (400) naming those it does: HTML to a browser, the
contract's JSON body to any other client."""

from __future__ import annotations

import dataclasses
import re
from html import unescape
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest
from flask.testing import FlaskClient

from service.pages.results import result_words
from service.pages.views import PLAYER_GAMES
from service.store.records import GameRecord
from tests.finished_games import Played
from tests.support.api import create, create_apart, play_to_the_end
from tests.support.stats_pages import (
    BROWSER,
    HOSTILE,
    next_link,
    page_of,
    player_path,
    wins_together,
)


def listed_games(html: str) -> list[str]:
    """The ids of the games in the page's list of the player's games, in order."""
    section = html.split('id="played-heading"')[1].split("</section>")[0]
    return re.findall(r'<tr data-game-id="([^"]+)"', section)


# --- the player's games -------------------------------------------------------------------------


def test_a_players_games_are_listed_newest_first_in_pages(client: FlaskClient) -> None:
    made = create_apart(client, range(PLAYER_GAMES), players=["Ana", "Ben"])
    finished = create(client, players=["Caro", "Ana", "Dan"], seed=3)
    play_to_the_end(client, finished, seed=3)
    made.append(finished["id"])
    create(client, players=["Ben", "Caro"])  # Ana not at the table: not on her page

    _, html = page_of(client, player_path("Ana"))
    first = listed_games(html)
    assert first == made[::-1][:PLAYER_GAMES]
    # The newest game's row: the game's viewer, the players with Ana's name set apart, its
    # status and its result in words.
    row = html.split(f'data-game-id="{finished["id"]}"')[1].split("</tr>")[0]
    assert f'href="/games/{finished["id"]}/view"' in row
    assert '<strong class="self">Ana</strong>' in row and 'href="/players/Caro/view"' in row
    assert ">finished<" in row
    result = client.get(f"/games/{finished['id']}").json["result"]
    winners = " and ".join(["Caro", "Ana", "Dan"][seat] for seat in result["winners"])
    won = f"{winners} won" if len(result["winners"]) == 1 else f"{winners} shared the win"
    assert f"{won}; Ana&#39;s score: {result['scores'][1]}" in row

    older = next_link(html)
    assert older is not None and "cursor=" in older
    _, rest = page_of(client, older)
    assert listed_games(rest) == made[::-1][PLAYER_GAMES:] == [made[0]]
    assert next_link(rest) is None
    assert "Newest games" in rest


def test_the_pager_keeps_the_filters_and_a_bad_cursor_shows_the_first_page(
    client: FlaskClient,
) -> None:
    made = create_apart(client, range(12), players=["Ana", "Ben"])
    _, html = page_of(client, player_path("Ana", players="3", versus="Ben"))
    older = next_link(html)
    assert older is not None
    assert {"players": "3", "versus": "Ben"}.items() <= dict(
        parse_qsl(urlsplit(older).query)
    ).items()
    # A bad cursor is read as none: the first page, the newest games.
    _, html = page_of(client, player_path("Ana", cursor="not-a-cursor"))
    assert listed_games(html) == made[::-1][:PLAYER_GAMES]


def test_a_name_with_no_game_has_an_empty_list(client: FlaskClient) -> None:
    _, html = page_of(client, player_path("Nobody"))
    assert listed_games(html) == [] and "No game recorded here has Nobody at its table" in html


def test_the_result_in_words() -> None:
    record = GameRecord(
        id="g", game="mada", players=["Ana", "Ben", "Ana"], seed=1, seed_salt=None,
        seed_commitment=None, options={}, rules_version="mada/1", record_format=2,
        created_at="2026-01-01T00:00:00Z", version=7, status="active", head_hash="",
        token_sha256="", seat_tokens_sha256=[],
    )  # fmt: skip
    assert result_words(record, "Ana") == "under way: 7 moves"
    won = {"winners": [1, 2], "scores": [3, 9, 9.5]}
    over = dataclasses.replace(record, status="finished", result=won)
    assert result_words(over, "Ana") == "Ben and Ana shared the win; Ana's score: 3, 9.5"
    assert result_words(over, "Ben") == "Ben and Ana shared the win; Ben's score: 9"
    alone = dataclasses.replace(over, result={"winners": [1], "scores": [3, 9, 9.5]})
    assert result_words(alone, "Ana") == "Ben won; Ana's score: 3, 9.5"
    drawn = dataclasses.replace(over, result={"winners": [0, 1], "scores": [0, 0], "draw": True})
    assert result_words(drawn, "Ben").startswith("a draw; ")
    # A score sheet: the table's fate, a game nobody won, a score never written.
    sheet = dataclasses.replace(over, game="scoresheet", rules_version="scoresheet/1")
    lost = {"winners": [], "ranks": [1, 1, 1], "scores": [None, 4, None], "outcome": "lost"}
    assert result_words(dataclasses.replace(sheet, result=lost), "Ana") == (
        "the table lost; Ana's score: —, —"
    )
    won = {**lost, "winners": [0, 1, 2], "outcome": "won"}
    assert result_words(dataclasses.replace(sheet, result=won), "Ben").startswith("the table won")
    nobody = {"winners": [], "ranks": None, "scores": [None, 4, None], "outcome": None}
    assert result_words(dataclasses.replace(sheet, result=nobody), "Ben") == (
        "no winner; Ben's score: 4"
    )
    # A named team wins by its name; teams without names, by their players.
    teams = {"teams": [[0, 2], [1]], "team_names": ["Red", "Blue"]}
    named = dataclasses.replace(sheet, options=teams, result={**nobody, "winners": [0, 2]})
    assert result_words(named, "Ben") == "Red won (Ana); Ben's score: 4"
    unnamed = dataclasses.replace(named, options={"teams": [[0, 2], [1]]})
    assert result_words(unnamed, "Ben").startswith("Ana won")
    # A game where no number was written says no score: never "no winner; score 0" nor dashes.
    blank = {"winners": [], "ranks": None, "scores": [None, None, None], "outcome": None}
    assert result_words(dataclasses.replace(sheet, result=blank), "Ben") == "no winner"
    cooperative = {**blank, "ranks": [1, 1, 1], "outcome": "lost"}
    assert result_words(dataclasses.replace(sheet, result=cooperative), "Ana") == "the table lost"
    # A status without a result (a game given up, say) is said as it is.
    assert (
        result_words(dataclasses.replace(record, status="abandoned"), "Ana")
        == "abandoned: no result"
    )


# --- head to head with any name -----------------------------------------------------------------


def versus_form(html: str) -> tuple[str, dict[str, str], str]:
    """The head-to-head form: where it goes, its hidden fields, and the name of its text field."""
    form = html.split('<form class="versus-form"')[1].split("</form>")[0]
    action = unescape(re.search(r'action="([^"]+)"', form).group(1))  # type: ignore[union-attr]
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    field = re.search(r'<input type="text" id="versus-name" name="([^"]+)"', form)
    assert field is not None
    return action, hidden, field.group(1)


def sent(client: FlaskClient, html: str, name: str, status: int = 200) -> tuple[Any, str]:
    """The form of ``html`` sent with ``name`` typed, as a browser sends it."""
    action, hidden, field = versus_form(html)
    path = urlsplit(action).path
    response = client.get(path, query_string={**hidden, field: name}, headers=BROWSER)
    assert response.status_code == status
    text = response.get_data(as_text=True)
    return response, text


def test_head_to_head_with_any_name_through_the_form(
    client: FlaskClient,
    games: list[Played],
) -> None:
    _, html = page_of(client, player_path("Ana"))
    # The names the statistics know are offered, Ana's own left out.
    offered = re.findall(r'<option value="([^"]*)"></option>', html.split('id="known-names"')[1])
    assert [unescape(name) for name in offered] == sorted(["Ben", "Caro", HOSTILE])

    _, page = sent(client, html, "Caro")
    api = client.get("/players/Ana/versus/Caro").json
    assert api["games"] == 2
    assert re.search(r'id="versus-games">(\d+)<', page).group(1) == "2"  # type: ignore[union-attr]
    wins = re.search(r'id="versus-wins">(\d+)<', page).group(1)  # type: ignore[union-attr]
    assert int(wins) == api["wins"]["Ana"] == wins_together(games, "Ana", "Caro", "Ana")

    # Any name: one Ana never met is no error.
    _, page = sent(client, html, "Zed")
    assert "no game played together" in page
    # The filters applied travel with the form.
    _, filtered = page_of(client, player_path("Ana", players="3"))
    assert versus_form(filtered)[1] == {"players": "3"}
    _, page = sent(client, filtered, "Caro")  # game 2 of TABLES alone
    assert re.search(r'id="versus-games">(\d+)<', page).group(1) == "1"  # type: ignore[union-attr]
    # Ana against Ana is refused, with the form to pick another name.
    _, page = sent(client, html, "Ana", 400)
    assert "head to head takes two different names" in page and 'class="versus-form"' in page


# --- parameters a page does not take ------------------------------------------------------------

KNOWN = {
    "/stats/mada/view": ["player", "players", "since", "until"],
    "/ratings/mada/view": ["cursor", "limit"],
    "/players/Ana/view": ["cursor", "players", "since", "until", "versus"],
    "/": ["cursor"],
}


@pytest.mark.parametrize("path", KNOWN)
def test_a_misspelt_parameter_is_refused_naming_the_known_ones(
    client: FlaskClient, path: str
) -> None:
    # A client (no Accept, or JSON first) gets the contract's error body.
    for headers in ({}, {"Accept": "application/json"}, {"Accept": "*/*"}):
        response = client.get(f"{path}?playrs=3", headers=headers)
        assert response.status_code == 400 and response.mimetype == "application/json"
        error = response.json["error"]
        assert error["code"] == "invalid_request"
        assert error["details"] == {"unknown": ["playrs"], "known": KNOWN[path]}
        assert all(name in error["message"] for name in KNOWN[path])
    # A browser gets a page that says so, naming the known ones; never unfiltered figures.
    response = client.get(f"{path}?playrs=3", headers=BROWSER)
    assert response.status_code == 400 and response.mimetype == "text/html"
    assert "Accept" in response.vary
    page = response.get_data(as_text=True)
    assert "unknown query parameter playrs: this takes " + ", ".join(KNOWN[path]) in page
    assert "Every finished game: no filter" not in page and "games-counted" not in page


@pytest.mark.parametrize("path", ["/stats/mada/view", "/players/Ana/view"])
def test_a_refused_filter_page_keeps_its_form_and_an_empty_field_is_no_error(
    client: FlaskClient, path: str
) -> None:
    _, html = page_of(client, f"{path}?playrs=3&since=2025-01-01", 400)
    assert '<form class="filters"' in html and 'value="2025-01-01"' in html
    page_of(client, f"{path}?players=&since=&until=")


def test_a_malformed_filter_is_json_to_a_client(client: FlaskClient) -> None:
    response = client.get("/stats/mada/view?players=x")
    assert response.status_code == 400
    assert list(response.json["error"]["details"]) == ["players"]


@pytest.mark.parametrize("path", KNOWN)
def test_a_parameter_given_twice_is_refused_naming_it(client: FlaskClient, path: str) -> None:
    name = KNOWN[path][0]
    query = f"?{name}=2&{name}=3"
    response = client.get(f"{path}{query}")
    assert response.status_code == 400 and response.mimetype == "application/json"
    assert list(response.json["error"]["details"]) == [name]
    _, page = page_of(client, f"{path}{query}", 400)
    assert f"{name} given 2 times" in page
