"""The append's own route (service.api.append_route) answers as Flask's view of the same path does.

Two games of one seed and players get the same requests, one game's through the route, the
other's through Flask alone: every answer has the same status, the same headers, and the same
body (but for the game's id, and the time and hash of a stored event, which are each game's own).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.api.append_route import AppendRoute
from tests.conftest import make_app
from tests.support.api import auth, create, legal

Send = Callable[[FlaskClient, dict[str, Any]], Any]


@contextmanager
def flask_alone(app: Flask) -> Iterator[None]:
    """Requests served by Flask's own WSGI callable, as before the route."""
    route = app.wsgi_app
    assert isinstance(route, AppendRoute)
    app.wsgi_app = route.flask  # type: ignore[method-assign]
    try:
        yield
    finally:
        app.wsgi_app = route  # type: ignore[method-assign]


@contextmanager
def route_alone(app: Flask) -> Iterator[None]:
    """Appends served by the route, failing any that it hands to Flask (other requests, such as
    the legal moves', go to Flask)."""
    route = app.wsgi_app
    assert isinstance(route, AppendRoute)
    flask = route.flask

    def refused(environ: dict[str, Any], start_response: Any) -> Any:
        if environ["REQUEST_METHOD"] == "POST" and environ["PATH_INFO"].endswith("/events"):
            raise AssertionError(f"POST {environ['PATH_INFO']} went to Flask")
        return flask(environ, start_response)

    route.flask = refused
    try:
        yield
    finally:
        route.flask = flask


def post(body: str | bytes, content_type: str = "application/json", **headers: str) -> Send:
    def send(client: FlaskClient, game: dict[str, Any]) -> Any:
        sent = {"Content-Type": content_type, **auth(game), **headers}
        for name in [name for name, value in sent.items() if value == ""]:
            del sent[name]
        return client.post(f"/games/{game['id']}/events", data=body, headers=sent)

    return send


def a_legal_move(client: FlaskClient, game: dict[str, Any], **headers: str) -> Any:
    move = json.dumps(legal(client, game)[0])
    return post(move, **headers)(client, game)


def comparable(response: Any, game: dict[str, Any]) -> tuple[int, list[Any], Any]:
    """Status, headers and body, the game's id and an event's time and hash left out."""
    body = json.loads(response.get_data().replace(game["id"].encode(), b"<id>"))
    if isinstance(body.get("event"), dict):
        body["event"].pop("at", None)
        body["event"].pop("hash", None)
    headers = [(name, value) for name, value in response.headers if name != "Retry-After"]
    return response.status_code, headers, body


# The route's requests (each answered by it) and the others of the path (Flask's).
THE_ROUTES: list[Send] = [
    a_legal_move,
    lambda client, game: a_legal_move(client, game, **{"If-Match": '"1"'}),
    post('{"type": "draw", "player": 2}'),  # not this player's turn: 422
    post('{"type": "draw", "player": 0}', Authorization=""),  # 401
    post('{"type": "draw", "player": 0}', Authorization="Token x"),  # 401
    post('{"type": "draw", "player": 0}', Authorization="Bearer not-a-token"),  # 401
    post("not json"),
    post('{"type": "draw", "type": "play", "player": 0}'),  # a key given twice: 400
    post('{"type": "draw", "player": 1e0}'),  # an exponent: 400
    post("[1, 2]"),
    post('{"type": 3}'),
    post(b'{"type": "draw", "player": 0, "x": "\xff"}'),  # not UTF-8: 400
    post('{"type": "draw", "player": 0}', **{"If-Match": "soon"}),  # 400
    post('{"type": "draw", "player": 0}', **{"If-Match": "0"}),  # stale: 409
    lambda client, game: a_legal_move(client, game, **{"Idempotency-Key": "k"}),
    post('{"type": "draw", "player": 0}', **{"Idempotency-Key": "k"}),  # another body: 409
]
FLASKS: list[Send] = [
    post(""),  # no Content-Length
    post('{"type": "draw", "player": 0}', content_type="text/plain"),
    post('{"type": "draw", "player": 0, "pad": "' + "x" * 70_000 + '"}'),  # 413
    lambda client, game: client.post(
        f"/games/{game['id']}/events?x=1", json={"type": "draw"}, headers=auth(game)
    ),
]


@pytest.mark.parametrize("route_takes_it", [True, False])
def test_every_answer_of_the_path_is_the_views(app: Flask, route_takes_it: bool) -> None:
    client = app.test_client()
    routed, alone = create(client), create(client)
    sends = THE_ROUTES if route_takes_it else FLASKS
    for number, send in enumerate(sends):
        with flask_alone(app):
            expected = comparable(send(client, alone), alone)
        if route_takes_it:
            with route_alone(app):
                got = comparable(send(client, routed), routed)
        else:
            got = comparable(send(client, routed), routed)
        assert got == expected, number


def test_an_idempotent_retry_through_the_route_is_answered_as_first(client: FlaskClient) -> None:
    game = create(client)
    move = json.dumps(legal(client, game)[0])
    first = post(move, **{"Idempotency-Key": "again"})(client, game)
    second = post(move, **{"Idempotency-Key": "again"})(client, game)
    assert first.status_code == second.status_code == 201
    assert second.json == first.json and second.headers["ETag"] == '"1"'
    assert client.get(f"/games/{game['id']}").json["version"] == 1


def test_the_routes_appends_count_against_the_rate_limit(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    app = make_app(real_redis, key_prefix, RATE_LIMIT="3 per minute")
    client = app.test_client()
    game = create(client)  # the first request of the window
    with route_alone(app):
        assert post('{"type": "draw", "player": 0}')(client, game).status_code in (201, 422)
        assert post('{"type": "draw", "player": 1}')(client, game).status_code in (201, 422)
        refused = post('{"type": "draw", "player": 2}')(client, game)
    assert refused.status_code == 429
    assert refused.json["error"]["code"] == "rate_limited"
    assert int(refused.headers["Retry-After"]) >= 1
