"""The HTML pages as the server renders them (the browser tests drive them in Chromium): the
recent games, the viewer's shell, the statistics, the 404 page, the assets, and nothing fetched
from outside the service."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from importlib import resources
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from domain import game_names, get_game
from domain.words import describe_fields as describe
from service.pages.plots import bar_plot, nice_scale
from service.pages.views import CONTENT_SECURITY_POLICY
from tests.support.api import append, create, create_apart, legal, play_to_the_end

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "service" / "pages"


def page_files() -> list[Path]:
    """The pages' templates and static files, those of static/'s folders too (there are some: a
    glob that finds none fails)."""
    found = [p for p in [*PAGES.glob("templates/*"), *PAGES.glob("static/**/*")] if p.is_file()]
    assert len(found) > 10
    return found


def test_the_index_lists_the_recent_games_newest_first(client: FlaskClient) -> None:
    first = create(client, players=["Ana", "Ben"])
    second = create(client, game="sifaka", players=["Caro", "Dan"], seed=3)
    response = client.get("/")
    assert response.status_code == 200 and response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert page.index(second["id"]) < page.index(first["id"])
    assert f'href="/games/{first["id"]}/view"' in page
    # The statistics menu: every game with rules (not the score sheet, whose games count under
    # their titles).
    for name in game_names():
        assert (f'href="/stats/{name}/view"' in page) == (name != "scoresheet")
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY


def test_the_index_pages_on_to_older_games(client: FlaskClient) -> None:
    made = create_apart(client, range(32), players=["Ana", "Ben"])
    page = client.get("/").get_data(as_text=True)
    assert made[-1] in page and made[0] not in page
    older = re.search(r'href="(/\?cursor=[0-9]+_[0-9a-f]+)" rel="next"', page)
    assert older is not None
    rest = client.get(older.group(1)).get_data(as_text=True)
    assert made[0] in rest and made[-1] not in rest


def test_the_viewer_shell_has_the_header_players_and_move_list(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben <b>"])
    for _ in range(3):
        assert append(client, game, legal(client, game)[0]).status_code == 201
    response = client.get(f"/games/{game['id']}/view?at=2")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Ben &lt;b&gt;" in page and "Ben <b>" not in page.split('id="viewer-data"')[0]
    assert page.count("<li data-at=") == 4  # the start and three moves
    assert 'aria-current="step"' in page.split('data-at="2"')[1].split("</li>")[0]
    assert 'value="2"' in page and 'max="3"' in page
    assert 'role="img"' in page and 'aria-live="polite"' in page
    assert "/assets/viewer.js" in page and "/assets/games/mada/mada.js" in page
    # The player's name is escaped inside the JSON of the script element too.
    data = page.split('id="viewer-data">')[1].split("</script>")[0]
    assert "<b>" not in data and "\\u003cb\\u003e" in data


def test_the_viewer_of_any_move_past_the_last_shows_the_last(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"])
    page = client.get(f"/games/{game['id']}/view?at=99").get_data(as_text=True)
    assert "move 0 of 0: the start" in page
    page = client.get(f"/games/{game['id']}/view?at=x").get_data(as_text=True)
    assert "move 0 of 0: the start" in page


# What a browser sends: it prefers HTML, and takes anything.
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def test_an_unknown_game_is_a_404_page(client: FlaskClient) -> None:
    for path in ("/games/nope/view", "/stats/chess/view"):
        response = client.get(path, headers=BROWSER)
        assert response.status_code == 404 and response.mimetype == "text/html", path
        assert "Not found" in response.get_data(as_text=True)
        # A client that does not ask for HTML gets the contract's error body.
        answer = client.get(path)
        assert answer.status_code == 404 and answer.json["error"]["code"] == "not_found", path
    # The API still answers with its JSON error body.
    assert client.get("/games/nope").json["error"]["code"] == "not_found"


def test_the_stats_page_draws_three_plots(client: FlaskClient) -> None:
    page = client.get("/stats/madcala/view").get_data(as_text=True)
    assert page.count('<svg class="plot"') == 3
    assert "No game of Madcala has finished yet" in page


def test_every_game_has_a_renderer_and_the_assets_are_served(client: FlaskClient) -> None:
    drawings = [f"games/{game}/{game}.js" for game in game_names()]
    # The modules the pages share (written once, imported by the viewer and the recorder), and
    # the modules of a game's drawing besides its own <game>.js.
    shared = [
        "lib/client.js",
        "lib/draw.js",
        "lib/follow.js",
        "lib/picker.js",
        "lib/zoom.js",
        "lib/write-key.js",
    ]
    parts = [f"games/{game}/{game}-{part}.js" for game in ("mada", "madcala", "sifaka")
             for part in ("draw", "touch")]  # fmt: skip
    for name in ("viewer.js", "record.js", "tabletape.css", *shared, *drawings, *parts):
        response = client.get(f"/assets/{name}")
        assert response.status_code == 200, name
        assert response.mimetype in ("text/javascript", "application/javascript", "text/css")
        response.close()


def test_nothing_is_fetched_from_outside_the_service() -> None:
    for path in page_files():
        text = path.read_text()
        # The SVG namespace is a name, not an address fetched.
        outside = set(re.findall(r"(?:https?:)?//[\w.-]+\.\w+", text)) - {"http://www.w3.org"}
        assert not outside, (path.name, outside)
        assert "@import" not in text and "url(" not in text, path.name


def test_a_game_serves_only_the_files_of_its_own_drawing(client: FlaskClient) -> None:
    assert client.get("/assets/games/mada/madcala.py").status_code == 404
    assert client.get("/assets/games/mada/rules.py").status_code == 404
    assert client.get("/assets/games/mada/__init__.py").status_code == 404
    assert client.get("/assets/games/chess/chess.js").status_code == 404
    assert client.get("/assets/games/mada/..%2Frules.py").status_code == 404


def test_templates_and_assets_are_installed_with_the_package() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["service.pages"]
    for path in page_files():
        relative = path.relative_to(PAGES).as_posix()
        assert any(fnmatch(relative, pattern) for pattern in patterns), relative
    # Each game's drawing, in the package its Game names.
    everywhere = pyproject["tool"]["setuptools"]["package-data"]["*"]
    for name in game_names():
        package = get_game(name).browser_assets
        assert package is not None, name
        folder = Path(str(resources.files(package)))
        drawn = sorted(path.name for path in folder.iterdir() if path.suffix != ".py")
        assert f"{name}.js" in drawn
        for file in drawn:
            assert any(fnmatch(file, pattern) for pattern in everywhere), (package, file)


def test_a_move_is_described_in_words() -> None:
    players = ["Ana", "Ben", "Caro"]
    assert describe({"seq": 1, "type": "draw", "player": 0, "at": "x", "hash": "y"}, players) == (
        "Ana: draw"
    )
    assert describe(
        {"type": "play", "player": 1, "card": "double_lemur", "target": 2}, players
    ) == ("Ben: play card double lemur, target Caro")
    assert describe({"type": "choose_target", "player": 2, "target": 0}, players) == (
        "Caro: choose target Ana"
    )
    assert describe({"rotation": 90, "type": "place", "x": -1, "y": 3, "player": 0}, players) == (
        "Ana: place at (-1, 3), rotation 90"
    )
    assert describe({"type": "move", "player": 1, "space": None, "drawn": []}, players) == (
        "Ben: move"
    )
    assert describe(
        {"type": "plus_one", "player": 0, "strike": [{"space": 3, "seat": 1}], "effects": True},
        players,
    ) == ("Ana: plus one strike [{space: 3, seat: 1}], effects yes")


def test_plot_scales_round_up_to_a_nice_number() -> None:
    whole = [nice_scale(v, integral=True) for v in (0, 1, 3, 4, 7, 11, 26, 180)]
    assert whole == [(0, 0), (1, 1), (3, 1), (4, 1), (8, 2), (15, 5), (30, 10), (200, 50)]
    assert nice_scale(0.3) == (pytest.approx(0.3), pytest.approx(0.1))
    assert nice_scale(9.5) == (10, 2.5)
    plot = bar_plot([("a", 2), ("b", 4)], x_title="x", y_title="y", summary="s")
    heights = [bar["height"] for bar in plot["bars"]]
    assert heights[1] == 2 * heights[0]
    assert [tick["value"] for tick in plot["ticks"]] == ["0", "1", "2", "3", "4"]


def test_a_finished_game_shows_its_result(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"])
    play_to_the_end(client, game, seed=2)
    record = client.get(f"/games/{game['id']}").json
    page = client.get(f"/games/{game['id']}/view").get_data(as_text=True)
    assert "Result:" in page and "The game is over" in page
    winners = [record["players"][seat] for seat in record["result"]["winners"]]
    assert all(name in page.split('id="result"')[1].split("</p>")[0] for name in winners)


def test_the_new_game_page_offers_every_game_and_option(client: FlaskClient) -> None:
    response = client.get("/new")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    page = response.get_data(as_text=True)
    for name in game_names():
        assert f'name="game" value="{name}"' in page
    for field in ("seed", "first_player", "health", "catalog", "guest-0", "layout-4", "facing-3"):
        assert f'id="{field}"' in page, field
    assert 'value="observed" checked' in page
    assert "/assets/new.js" in page and "<script>" not in page and "style=" not in page


def test_the_recorder_page_of_a_game(client: FlaskClient) -> None:
    game = create(client, game="sifaka", players=["Ana", "Ben"], seed=3,
                  options={"chance": "observed"})  # fmt: skip
    assert append(client, game, legal(client, game)[0]).status_code == 201
    response = client.get(f"/games/{game['id']}/record")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert response.headers["Referrer-Policy"] == "same-origin"
    page = response.get_data(as_text=True)
    # record.js no longer loads viewer.js as a library: both import the shared modules (lib/).
    for script in ("lib/client.js", "lib/draw.js", "games/sifaka/sifaka.js", "record.js"):
        assert f"/assets/{script}" in page
    assert "/assets/viewer.js" not in page
    assert "<script>" not in page and "style=" not in page
    data = page.split('id="record-data">')[1].split("</script>")[0]
    assert '"chance": "observed"' in data and '"version": 1' in data
    assert game["token"] not in page


def test_the_recorder_of_an_unknown_game_is_a_404_page(client: FlaskClient) -> None:
    response = client.get("/games/nope/record", headers=BROWSER)
    assert response.status_code == 404 and response.mimetype == "text/html"
    assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY


def test_a_move_the_viewer_is_asked_for_that_is_not_there_is_said(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"], seed=2)
    for _ in range(3):
        assert append(client, game, legal(client, game)[0]).status_code == 201
    for asked in ("abc", "999999", "-1", "4"):
        page = client.get(f"/games/{game['id']}/view?at={asked}").get_data(as_text=True)
        assert 'id="at-problem"' in page, asked
        assert "no move" in page and "0 (the start) to 3" in page
    for asked in ("0", "3", ""):
        page = client.get(f"/games/{game['id']}/view?at={asked}").get_data(as_text=True)
        assert 'id="at-problem"' not in page, asked


def test_the_score_histogram_shows_every_score_in_its_range() -> None:
    from service.pages.views import score_histogram

    bars = score_histogram({"1": 2, "4": 1, "2.0": 3})
    assert bars == [("1", 2), ("2", 3), ("3", 0), ("4", 1)]
    # Scores with a fraction are shown as they come.
    assert score_histogram({"1.5": 1, "3": 2}) == [("1.5", 1), ("3", 2)]


# What each page of a game takes in its query: the viewer, the move it opens at; the recorder and
# the links page nothing (their token travels in the fragment, which no server sees).
GAME_PAGES = {"view": ["at"], "record": [], "share": []}
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


@pytest.mark.parametrize("page", [*GAME_PAGES, "/new"])
def test_a_game_page_refuses_a_parameter_it_does_not_take(client: FlaskClient, page: str) -> None:
    game = create(client, players=["Ana", "Ben"])
    path = page if page.startswith("/") else f"/games/{game['id']}/{page}"
    known = GAME_PAGES.get(page, [])
    # A client gets the contract's body, naming what the page takes.
    response = client.get(f"{path}?bogus=1")
    assert response.status_code == 400 and response.mimetype == "application/json"
    assert response.json["error"]["code"] == "invalid_request"
    assert response.json["error"]["details"] == {"unknown": ["bogus"], "known": known}
    # A browser gets a page that says so, and leads to the page without parameters.
    response = client.get(f"{path}?bogus=1&at=1", headers=BROWSER)
    assert response.status_code == 400 and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "unknown query parameter" in html and "bogus" in html
    assert f'href="{path}"' in html
    # Where the page's link carries a code after "#" (which no server sees), it says to keep it,
    # in words, not the token's.
    assert ("keep that part" in html) == (page in ("record", "share"))
    assert "#token=" not in html
    # The page without it is shown as ever.
    assert client.get(path, headers=BROWSER).status_code == 200


def test_the_pages_write_each_function_once_and_word_no_move() -> None:
    """The recorder's (record.js and static/recorder/) and the viewer's scripts share their code
    through the modules of static/lib (a client, following a game, drawing helpers, the picker),
    imported by both: no function is written in both. No page words a move: the API sends each
    move's words (Game.describe)."""
    declared = {}
    # The recorder is record.js and its modules by concern (static/recorder/).
    scripts = {
        "viewer.js": [PAGES / "static" / "viewer.js"],
        "record.js": [PAGES / "static" / "record.js", *sorted(PAGES.glob("static/recorder/*.js"))],
    }
    for name, paths in scripts.items():
        text = "\n".join(path.read_text() for path in paths)
        assert re.search(r'^import .* from "\.\.?/lib/client\.js";$', text, re.M), name
        declared[name] = set(re.findall(r"\bfunction\s+(\w+)\s*\(", text)) | set(
            re.findall(r"\b(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>", text)
        )
    assert declared["viewer.js"] and declared["record.js"]
    assert not declared["viewer.js"] & declared["record.js"]
    drawings = [
        path
        for name in game_names()
        for path in Path(str(resources.files(get_game(name).browser_assets or ""))).glob("*.js")
    ]
    for path in [*PAGES.glob("static/**/*.js"), *drawings]:
        text = path.read_text()
        assert not re.search(r"\bdescribe\s*\(", text), path
        # Native ES modules: no script registers itself on a global for the others.
        assert "Tabletape.renderers" not in text, path
