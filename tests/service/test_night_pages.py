"""The game nights' pages (api.md, "Game nights" and "Pages: what people read afterwards"): the
evening's page says each game's result in words, who won most, and hands out a link (and its QR
code) that the other phones can reach, or says why they cannot; the evenings' list; the front
page's way to the latest evening; a date that is not one refused as any page refuses."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.network import local_network_address
from tests.support.nights import FRIDAY, SATURDAY, WEEK_BEFORE, import_a_game_night

HTML = {"Accept": "text/html"}


@pytest.fixture
def app_config() -> dict[str, Any]:
    return {"TZ": "Europe/Paris"}


def text_of(client: FlaskClient, path: str) -> str:
    answer = client.get(path, headers=HTML)
    assert answer.status_code == 200, answer.data[:500]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", answer.data.decode())).strip()


def test_the_evenings_page_says_each_result_in_words_in_the_order_played(
    client: FlaskClient,
) -> None:
    import_a_game_night(client)
    said = text_of(client, f"/nights/{FRIDAY}/view")
    assert "Game night of Friday 27 November 2026" in said
    assert "6 games of Azul, Codenames, Pandemic, Hearts and Werewolf, 4 players" in said
    assert "Chloé won most: 3 of the 6 games." in said
    page = client.get(f"/nights/{FRIDAY}/view", headers=HTML).data.decode()
    shown = re.findall(
        r'night-game-title">([^<]+)</span>\s*<span class="night-game-result">([^<]+)</span>'
        r".*?finished at (\d\d:\d\d)",
        page,
        re.DOTALL,
    )
    assert shown == [
        ("Azul", "Chloé won", "20:40"),
        ("Azul", "Alice and Bruno shared the win", "21:40"),
        ("Codenames", "Chloé won", "22:40"),
        ("Pandemic", "The table lost", "23:40"),
        ("Hearts", "Chloé won", "01:10"),
        ("Werewolf", "No winner", "01:30"),
    ]
    for words in ("Chloé won", "Alice and Bruno shared the win", "The table lost", "No winner"):
        assert words in said
    assert "won by" not in said and "seat" not in said.lower()


def test_each_game_links_to_its_viewer(client: FlaskClient) -> None:
    import_a_game_night(client)
    games = client.get(f"/nights/{FRIDAY}").json["games"]
    page = client.get(f"/nights/{FRIDAY}/view", headers=HTML).data.decode()
    linked = re.findall(r'class="night-game-link" href="/games/([0-9a-f]+)/view"', page)
    assert linked == [game["id"] for game in games]


def test_the_link_and_qr_code_name_the_evenings_page(client: FlaskClient) -> None:
    import_a_game_night(client)
    page = client.get(f"/nights/{FRIDAY}/view", headers=HTML).data.decode()
    assert f'value="http://localhost/nights/{FRIDAY}/view"' in page
    assert re.search(r'<img class="qr" src="data:image/svg\+xml;base64,[A-Za-z0-9+/=]+"', page)
    assert "Other phones cannot open these links" not in page


def test_on_loopback_only_the_page_says_other_phones_cannot_reach_it(
    app: Flask, client: FlaskClient
) -> None:
    import_a_game_night(client)
    app.config["LISTEN"] = "127.0.0.1:8000"
    said = text_of(client, f"/nights/{FRIDAY}/view")
    assert "Other phones cannot open these links" in said
    assert "tabletape serve --host 0.0.0.0" in said


def test_listening_beyond_loopback_the_link_names_the_local_network(
    app: Flask, client: FlaskClient
) -> None:
    import_a_game_night(client)
    address = local_network_address()
    if address is None:
        pytest.skip("this machine has no address on a network")
    app.config["LISTEN"] = "0.0.0.0:8123"
    page = client.get(f"/nights/{FRIDAY}/view", headers=HTML).data.decode()
    assert f'value="http://{address}:8123/nights/{FRIDAY}/view"' in page
    assert "Other phones cannot open these links" not in page
    # Opened from another phone (not on loopback), the page keeps the address it was opened at.
    page = client.get(
        f"/nights/{FRIDAY}/view", headers=HTML, base_url=f"http://{address}:8123"
    ).data.decode()
    assert f'value="http://{address}:8123/nights/{FRIDAY}/view"' in page


def test_the_evenings_are_listed_and_the_front_page_leads_to_the_latest(
    client: FlaskClient,
) -> None:
    import_a_game_night(client)
    page = client.get("/nights/view", headers=HTML).data.decode()
    assert re.findall(r'href="/nights/([0-9-]+)/view"', page) == [SATURDAY, FRIDAY, WEEK_BEFORE]
    said = text_of(client, "/nights/view")
    assert "Saturday 28 November 2026 1 game, 2 players" in said
    assert "Friday 27 November 2026 6 games, 4 players" in said
    front = client.get("/", headers=HTML).data.decode()
    assert f'href="/nights/{SATURDAY}/view">The last game night: Saturday 28 November 2026' in front


def test_an_evening_without_games_says_so(client: FlaskClient) -> None:
    import_a_game_night(client)
    assert "No game was finished that evening" in text_of(client, "/nights/2026-11-25/view")
    front = client.get("/", headers=HTML).data.decode()
    assert "latest-night" in front


def test_no_game_yet_no_link_to_a_night_on_the_front_page(client: FlaskClient) -> None:
    assert "latest-night" not in client.get("/", headers=HTML).data.decode()
    assert "No game has been finished yet" in text_of(client, "/nights/view")


@pytest.mark.parametrize("path", ["/nights/2026-13-01/view", "/nights/soon/view",
                                  "/nights/view?cursor=x", "/nights/view?bogus=1",
                                  f"/nights/{FRIDAY}/view?bogus=1"])  # fmt: skip
def test_a_page_asked_wrongly_is_400_html_to_a_browser_json_to_others(
    client: FlaskClient, path: str
) -> None:
    import_a_game_night(client)
    to_a_person = client.get(path, headers=HTML)
    assert to_a_person.status_code == 400 and to_a_person.mimetype == "text/html"
    assert "This page cannot be shown" in to_a_person.data.decode()
    to_a_client = client.get(path)
    assert to_a_client.status_code == 400
    assert to_a_client.json["error"]["code"] == "invalid_request"
