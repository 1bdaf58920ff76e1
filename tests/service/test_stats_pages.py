"""The statistics pages as the server renders them: the filters of /stats/{game}/view, the
leaderboard, a player's page, and the links to it from every player's name.

Games are the random Mada playouts of test_stats.py, each given its own ``finished_at``, counted
(and rated) as the archive job counts them. What a page shows is checked against the API's answer
to the same question, and the few figures a reader checks at a glance against a count made here.
"""

from __future__ import annotations

import re
from html import unescape
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlencode, urlsplit

import pytest
from flask.testing import FlaskClient

from tests.finished_games import Played
from tests.support.api import create, play_to_the_end
from tests.support.stats_pages import (
    HOSTILE,
    TABLES,
    next_link,
    page_of,
    player_path,
    wins_together,
)
from tests.support.workers import drain


def player_links(html: str) -> list[str]:
    """The names whose pages the page links to, in order, decoded."""
    hrefs = re.findall(r'href="/players/([^"?]+)/view', html)
    return [unquote(unescape(href)) for href in hrefs]


# --- the statistics page's filters --------------------------------------------------------------


def test_the_stats_page_applies_the_filters_and_echoes_them(
    client: FlaskClient, games: list[Played]
) -> None:
    query = {"players": "2", "player": "Ana", "since": "2025-01-01", "until": "2025-03-31"}
    page, _ = page_of(client, f"/stats/mada/view?{urlencode(query)}")
    # Games 1, 3 and 4 of TABLES: two players, Ana among them, finished in the first quarter.
    assert page.text("games-counted") == "3"
    assert client.get(f"/stats/mada?{urlencode(query)}").json["games"] == 3
    assert page.values == query
    assert page.text("filtered") == (
        "Filtered: games of 2 players; games Ana played in;"
        " finished from 2025-01-01 to 2025-03-31 (UTC)."
    )
    # Only the players of those games are listed, each linked to their page with the filters a
    # player's page takes.
    names = [row[0] for row in page.rows("players-table")]
    assert sorted(names) == ["Ana", "Ben", "Caro"]
    links = {text: href for text, href in (row[0] for row in page.tables["players-table"][1:])}
    ana = urlsplit(links["Ana"] or "")
    assert ana.path == "/players/Ana/view"
    assert parse_qs(ana.query) == {
        "players": ["2"],
        "since": ["2025-01-01"],
        "until": ["2025-03-31"],
    }


def test_a_form_sent_with_empty_fields_filters_nothing(
    client: FlaskClient, games: list[Played]
) -> None:
    page, _ = page_of(client, "/stats/mada/view?players=&player=&since=&until=")
    assert page.text("games-counted") == str(len(TABLES))
    assert page.text("filtered") == "Every finished game: no filter."
    assert page.values == {"players": "", "player": "", "since": "", "until": ""}
    assert "Clear the filters" not in client.get("/stats/mada/view").text


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("players=two", "players: Not a whole number"),
        ("players=21", "a game, a score sheet included, has 1 to 20 players, not 21"),
        ("since=2025-13-01", "since: Not a date written YYYY-MM-DD"),
        ("until=01/05/2025", "until: Not a date written YYYY-MM-DD"),
        ("since=2025-05-02&until=2025-05-01", "since is after until"),
        ("player=" + "x" * 65, "player: Length must be between 1 and 64"),
    ],
)
def test_a_malformed_filter_is_a_400_page_that_says_why(
    client: FlaskClient, query: str, said: str
) -> None:
    page, html = page_of(client, f"/stats/mada/view?{query}", 400)
    assert page.text("filters-error").startswith("These filters cannot be applied")
    assert said in page.text("filters-error")
    # The form shows what was sent, to be corrected; no figure is shown.
    sent = dict(part.split("=") for part in query.split("&"))
    for name, value in sent.items():
        assert page.values[name] == value
    assert "games-counted" not in page.texts and 'aria-invalid="true"' in html


def test_the_stats_page_links_to_the_leaderboard(client: FlaskClient) -> None:
    _, html = page_of(client, "/stats/sifaka/view")
    assert 'href="/ratings/sifaka/view"' in html


# --- the leaderboard ---------------------------------------------------------------------------


def test_the_leaderboard_ranks_as_the_api_and_pages_on(
    client: FlaskClient, games: list[Played]
) -> None:
    api = client.get("/ratings/mada?limit=100").json["ratings"]
    assert len(api) == 4
    page, _ = page_of(client, "/ratings/mada/view")
    rows = page.rows("board-table")
    assert [row[:3] for row in rows] == [
        [str(rank), rated["player"], f"{rated['rating']:.2f}"]
        for rank, rated in enumerate(api, start=1)
    ]
    assert [row[5] for row in rows] == [str(rated["games"]) for rated in api]
    ratings = [float(row[2]) for row in rows]
    assert ratings == sorted(ratings, reverse=True)
    # Each name links to its player's page.
    _, html = page_of(client, "/ratings/mada/view")
    assert player_links(html) == [rated["player"] for rated in api]

    seen, pages = [], 0
    path: str | None = "/ratings/mada/view?limit=3"
    while path:
        page, html = page_of(client, path)
        seen += [row[1] for row in page.rows("board-table")]
        path, pages = next_link(html), pages + 1
    assert seen == [rated["player"] for rated in api] and pages == 2
    assert page.rows("board-table")[0][0] == "4"  # the second page's ranks go on


def test_an_empty_leaderboard_and_a_bad_cursor(client: FlaskClient) -> None:
    _, html = page_of(client, "/ratings/madcala/view")
    assert "No game of Madcala has been rated yet" in html
    page, _ = page_of(client, "/ratings/madcala/view?cursor=abc", 400)
    assert "This page of the leaderboard cannot be shown: cursor" in page.text("ratings-error")
    page_of(client, "/ratings/madcala/view?limit=0", 400)
    page_of(client, "/ratings/chess/view", 404)


# --- a player's page ---------------------------------------------------------------------------


def test_a_players_page_shows_figures_ratings_opponents_and_rating_over_time(
    client: FlaskClient, games: list[Played]
) -> None:
    api = client.get("/players/Ana/stats").json
    page, _ = page_of(client, player_path("Ana"))
    assert page.text("games-played") == "5" == str(api["games"])
    assert page.rows("per-game") == [
        [
            "Mada",
            str(api["by_game"]["mada"]["games"]),
            str(api["by_game"]["mada"]["wins"]),
            f"{100 * api['by_game']['mada']['win_rate']:.0f}%",
            f"{api['by_game']['mada']['mean_score']:.2f}",
        ]
    ]
    rating = api["ratings"]["mada"]
    assert page.rows("ratings") == [
        [
            "Mada leaderboard",
            f"{rating['rating']:.2f}",
            f"{rating['mu']:.2f}",
            f"{rating['sigma']:.2f}",
            "5",
        ]
    ]
    # Her usual opponents, most met first, with each one's wins in the games both played.
    versus = page.rows("versus")
    assert [(row[0], row[1]) for row in versus] == [("Ben", "4"), ("Caro", "2"), (HOSTILE, "1")]
    for row in versus:
        assert row[2:4] == [
            str(wins_together(games, "Ana", row[0], name)) for name in ("Ana", row[0])
        ]
    duel = client.get("/players/Ana/versus/Ben").json
    assert versus[0][2:4] == [str(duel["wins"]["Ana"]), str(duel["wins"]["Ben"])]
    # One point per rated game, at the ratings the history gives, the last the current one.
    history = client.get("/players/Ana/ratings/mada/history").json["history"]
    assert len(page.points["history-mada"]) == rating["games"] == len(history) == 5
    assert page.points["history-mada"] == pytest.approx([point["rating"] for point in history])
    assert page.points["history-mada"][-1] == pytest.approx(rating["rating"])


def test_a_players_page_takes_the_filters(client: FlaskClient, games: list[Played]) -> None:
    page, _ = page_of(client, player_path("Ana", until="2025-02-28", players="3"))
    assert page.text("games-played") == "1"  # game 2 of TABLES
    # The filter form's fields, and the head-to-head form's name (empty) beside them.
    assert page.values == {"players": "3", "since": "", "until": "2025-02-28", "versus": ""}
    assert [(row[0], row[1]) for row in page.rows("versus")] == [("Ben", "1"), ("Caro", "1")]
    # The ratings and their plot stay over every game.
    assert len(page.points["history-mada"]) == 5
    page, _ = page_of(client, player_path("Ana", since="last week"), 400)
    assert "since: Not a date" in page.text("filters-error")


def test_a_name_that_never_played_has_an_empty_page(client: FlaskClient) -> None:
    page, html = page_of(client, player_path("Nobody/else"))
    assert page.text("games-played") == "0"
    assert "Nobody/else is not rated in any game yet" in html
    assert page.points == {}


# --- names are escaped, and linked from everywhere ----------------------------------------------


def test_a_hostile_name_is_escaped_everywhere(client: FlaskClient, games: list[Played]) -> None:
    live = create(client, players=["Ana", HOSTILE])
    for path in (
        "/stats/mada/view",
        "/ratings/mada/view",
        player_path("Ana"),
        player_path(HOSTILE),
        f"/stats/mada/view?player={quote(HOSTILE)}",
        f"/games/{live['id']}/view",
        "/",
    ):
        _, html = page_of(client, path)
        assert HOSTILE not in html, path
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html, path
    # Its links are URL-encoded, and lead to its page.
    _, html = page_of(client, "/ratings/mada/view")
    assert HOSTILE in player_links(html) and 'href="/players/%3Cscript%3E' in html


def test_the_viewer_and_the_index_link_each_name_to_its_page(client: FlaskClient, app: Any) -> None:
    names = ["Ana", "Ben & Co", "a/b", "/c"]
    game = create(client, players=names)
    play_to_the_end(client, game)
    drain(app)
    for path in (f"/games/{game['id']}/view", "/"):
        _, html = page_of(client, path)
        assert player_links(html) == names, path
    # The link of a name with a slash leads to its page, rated after the archive counted it.
    for path in ("/players/a/b/view", "/players//c/view"):
        page, _ = page_of(client, path)
        assert page.text("games-played") == "1", path
        assert len(page.points["history-mada"]) == 1, path
