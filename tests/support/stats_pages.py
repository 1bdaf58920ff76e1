"""Tables of games for the statistics' and players' pages, and reading those pages."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from typing import Any
from urllib.parse import quote, urlencode

from flask.testing import FlaskClient

from tests.finished_games import Played

HOSTILE = "<script>alert(1)</script>"


# Seats and finishing day of each game: Ana met Ben in 4 games, Caro in 2, HOSTILE in 1.
TABLES = [
    (["Ana", "Ben"], "2025-01-10T10:00:00Z"),
    (["Ana", "Ben", "Caro"], "2025-02-10T10:00:00Z"),
    (["Ana", "Caro"], "2025-03-10T10:00:00Z"),
    (["Ben", "Ana"], "2025-03-20T10:00:00Z"),
    (["Ana", HOSTILE, "Ben"], "2025-04-01T10:00:00Z"),
    (["Caro", "Ben"], "2025-04-02T10:00:00Z"),
]


class Page(HTMLParser):
    """What a test reads of a page: each table's rows (cell texts, and each cell's first link),
    the points of each line plot, the form's values, and the text of elements by id."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tables: dict[str, list[list[tuple[str, str | None]]]] = {}
        self.points: dict[str, list[float]] = {}
        self.values: dict[str, str] = {}
        self.texts: dict[str, str] = {}
        self._table: str | None = None
        self._cell: list[Any] | None = None
        self._plot: str | None = None
        self._ids: list[tuple[str, str]] = []
        self._select: str | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "table":
            self._table = found.get("class") or "table"
            self.tables[self._table] = []
        elif tag == "tr" and self._table:
            self.tables[self._table].append([])
        elif tag in ("td", "th") and self._table:
            self._cell = ["", None]
        elif tag == "a" and self._cell is not None and self._cell[1] is None:
            self._cell[1] = found.get("href")
        elif tag == "svg" and found.get("data-plot"):
            self._plot = found["data-plot"]
            self.points[self._plot] = []
        elif tag == "circle" and self._plot:
            self.points[self._plot].append(float(found["data-value"] or "nan"))
        elif tag == "input" and found.get("name"):
            self.values[found["name"] or ""] = found.get("value") or ""
        elif tag == "select":
            self._select = found.get("name")
        elif tag == "option" and self._select and "selected" in found:
            self.values[self._select] = found.get("value") or ""
        if found.get("id"):
            self._ids.append((tag, found["id"] or ""))
            self.texts[found["id"] or ""] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._table:
            self.tables[self._table][-1].append((" ".join(self._cell[0].split()), self._cell[1]))
            self._cell = None
        elif tag == "table":
            self._table = None
        elif tag == "svg":
            self._plot = None
        elif tag == "select":
            self._select = None
        if self._ids and self._ids[-1][0] == tag:
            self._ids.pop()

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell[0] += data
        for _, element in self._ids:
            self.texts[element] += data

    def rows(self, table: str) -> list[list[str]]:
        """The table's body rows, as texts (the header row left out)."""
        return [[text for text, _ in row] for row in self.tables[table][1:] if row]

    def text(self, element: str) -> str:
        return " ".join(self.texts[element].split())


# What a browser sends: it prefers HTML (a refused page is HTML to it, JSON to other clients).
BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def page_of(client: FlaskClient, path: str, status: int = 200) -> tuple[Page, str]:
    response = client.get(path, headers=BROWSER)
    html = response.get_data(as_text=True)
    assert response.status_code == status, html
    assert response.mimetype == "text/html"
    return Page(html), html


def player_path(name: str, **query: str) -> str:
    path = f"/players/{quote(name, safe='')}/view"
    return f"{path}?{urlencode(query)}" if query else path


def next_link(html: str) -> str | None:
    found = re.search(r'href="([^"]+)" rel="next"', html)
    return unescape(found.group(1)) if found else None


def wins_together(games: list[Played], a: str, b: str, winner: str) -> int:
    """``winner``'s wins in the games both ``a`` and ``b`` played, counted from the results."""
    return sum(
        game.record.players.index(winner) in (game.record.result or {})["winners"]
        for game in games
        if {a, b} <= set(game.record.players)
    )
