"""Strict parameters: a query parameter an endpoint does not know is a 400 naming the ones it
knows, never an answer as if it were not there; and every statistics answer says the filters it
applied."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.support.api import assert_error, auth, create


def test_every_operation_refuses_a_query_parameter_it_does_not_know(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"], seed=1)
    spec = client.get("/openapi.json").json
    values = {"game_id": game["id"], "game": "mada", "name": "Ana", "a": "Ana", "b": "Ben",
              "seat": "0", "tournament_id": "none-here", "date": "2026-01-01"}  # fmt: skip
    checked = 0
    for path, item in spec["paths"].items():
        for method in ("get", "post"):
            if method not in item:
                continue
            url = path.format(**values) + "?bogus=1"
            # Each with a body of the type its path takes (BoardGameGeek's import takes XML).
            body = (
                {"data": b"<plays/>", "content_type": "application/xml"}
                if path in ("/imports/bgg", "/imports/bgg/preview")
                else {"json": {}}
            )
            response = client.open(url, method=method.upper(), headers=auth(game), **body)
            details = assert_error(response, 400, "invalid_request")
            assert details.get("unknown") == ["bogus"], (method, path, details)
            known = {
                p["name"]
                for p in [*item.get("parameters", []), *item[method].get("parameters", [])]
                if p["in"] == "query"
            }
            assert details["known"] == sorted(known), (method, path)
            assert "bogus" in response.json["error"]["message"]
            checked += 1
    assert checked >= 18
    # Nothing was appended or created by any of them.
    assert client.get(f"/games/{game['id']}").json["version"] == 0


@pytest.mark.parametrize(
    ("path", "known"),
    [
        ("/stats/mada?playrs=3", "player, players, since, until"),
        ("/games?stauts=active", "cursor, game, limit, player, status"),
        ("/ratings/mada?limt=5", "cursor, limit"),
        ("/players/Ben/stats?sinse=2026-01-01", "players, since, until"),
    ],
)
def test_a_misspelt_filter_names_the_filters_there_are(
    client: FlaskClient, path: str, known: str
) -> None:
    response = client.get(path)
    assert_error(response, 400, "invalid_request")
    assert known in response.json["error"]["message"]


def test_every_statistics_answer_says_the_filters_it_applied(client: FlaskClient) -> None:
    answers: dict[str, dict[str, Any]] = {
        "/stats/mada": {},
        "/stats/mada?players=3&since=2026-01-01": {"players": 3, "since": "2026-01-01"},
        "/players/Ana/stats?until=2026-12-31": {"until": "2026-12-31"},
        "/players/Ana/versus/Ben?game=sifaka&players=2": {"game": "sifaka", "players": 2},
    }
    for path, filters in answers.items():
        response = client.get(path)
        assert response.status_code == 200, response.json
        assert response.json["filters"] == filters, path


@pytest.mark.parametrize(
    ("path", "repeated"),
    [
        ("/stats/mada?players=2&players=3", "players"),
        ("/stats/mada?since=2026-01-01&player=Ana&since=2026-02-01", "since"),
        ("/players/Ana/stats?until=2026-01-01&until=2026-12-31", "until"),
        ("/players/Ana/versus/Ben?game=mada&game=sifaka", "game"),
        ("/ratings/mada?limit=5&limit=5", "limit"),
        ("/games?status=active&status=finished", "status"),
        ("/games?player=Ana&player=Ben", "player"),
    ],
)
def test_a_filter_given_twice_is_refused_naming_it_never_the_first_taken(
    client: FlaskClient, path: str, repeated: str
) -> None:
    details = assert_error(client.get(path), 400, "invalid_request")
    assert list(details) == [repeated]
    assert f"{repeated} given 2 times" in client.get(path).json["error"]["message"]
