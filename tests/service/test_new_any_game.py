"""The new-game form as the server renders it for any other game (a score sheet): its own fields
(title, scoring, cooperative, teams, BoardGameGeek id) from Game.option_fields, up to 20 players,
and for each game the options it takes, so that the form sends a game nothing it refuses."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from domain import get_game
from service.pages.views import option_names


def radio(page: str, game: str) -> str:
    found = re.search(rf'<input type="radio" name="game" value="{game}"[^>]*>[^<]*', page)
    assert found, game
    return found.group(0)


def test_the_form_offers_another_game_last_with_its_own_fields(client: FlaskClient) -> None:
    page = client.get("/new").get_data(as_text=True)
    sheet = radio(page, "scoresheet")
    assert "Another game: any game, recorded as its scores" in sheet
    takes = "bgg_id comment cooperative location scoring team_names teams title"
    assert f'data-takes="{takes}"' in sheet
    assert 'data-takes="catalog chance first_player"' in radio(page, "mada")
    # The catch-all comes after every game with rules.
    games = re.findall(r'name="game" value="([a-z_]+)"', page)
    assert games[-1] == "scoresheet" and games[0] == "mada"
    # As many player rows as the game with the most seats.
    assert 'id="player-19"' in page and 'id="player-20"' not in page
    assert re.search(r'<input type="text" id="title" name="title" maxlength="\d+"', page)
    for value in ("highest", "lowest", "none"):
        assert f'name="scoring" value="{value}"' in page
    assert 'name="scoring" value="highest" checked' in page
    assert '<input type="checkbox" id="cooperative" name="cooperative">' in page
    assert 'id="teams-0"' in page and 'id="teams-19"' in page
    assert 'id="bgg_id"' in page and "style=" not in page


def test_the_title_suggests_the_titles_played_only_where_the_service_answers_them(
    app: Flask, client: FlaskClient
) -> None:
    page = client.get("/new").get_data(as_text=True)
    answered = any(rule.rule == "/titles" for rule in app.url_map.iter_rules())
    assert ('data-suggest="/titles"' in page) == answered
    assert ('<datalist id="title-suggestions">' in page) == answered


def test_the_options_a_game_takes_are_read_from_every_branch_of_its_schema() -> None:
    assert option_names(get_game("madcala").options_schema(2)) >= {"chance", "guests", "health"}
    assert option_names(get_game("scoresheet").options_schema(1)) == {
        "title",
        "scoring",
        "cooperative",
        "teams",
        "team_names",
        "bgg_id",
        "location",
        "comment",
    }
