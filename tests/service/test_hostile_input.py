"""Hostile requests answer the contract: a 4xx (or 503) with the contract's error body, never a
500, and nothing changes. One test per way in that was found to break it.

In-process tests run on the real Redis through the Flask test client; the tests of what gunicorn
itself answers (a bad request line, headers too large, a broken chunked body) run against a real
`tabletape serve` process over a raw socket.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.errors import error_response
from tests.conftest import make_app
from tests.served import serving
from tests.support.api import append, assert_error, auth, create, legal
from tests.support.streams import messages

JSON = {"Content-Type": "application/json"}
# Over Python's limit on converting text to an int (4,300 digits).
HUGE = "9" * 5000


def post_raw(client: FlaskClient, path: str, data: bytes, headers: dict[str, str] | None = None):
    return client.post(path, data=data, headers={**JSON, **(headers or {})})


def record_of(client: FlaskClient, game: dict[str, Any]) -> tuple[int, int]:
    """What a rejected request must leave as it was: the version and the number of events."""
    version = client.get(f"/games/{game['id']}").json["version"]
    events = client.get(f"/games/{game['id']}/events", headers=auth(game)).json["events"]
    return version, len(events)


def game_count(client: FlaskClient) -> int:
    return len(client.get("/games?limit=100").json["games"])


def assert_rejected(client: FlaskClient, game: dict[str, Any], response: Any, status: int,
                    code: str, before: tuple[int, int], games: int) -> dict[str, Any]:  # fmt: skip
    details = assert_error(response, status, code)
    assert response.mimetype == "application/json"
    assert record_of(client, game) == before
    assert game_count(client) == games
    return details


WRITE_PATHS = ("/games", "/games/import", "/games/{id}/events")


def write_path(path: str, game: dict[str, Any]) -> str:
    return path.replace("{id}", game["id"])


# Bodies ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", WRITE_PATHS)
@pytest.mark.parametrize("depth", [40, 300, 1000, 5000])
def test_deep_nesting_in_a_body_is_400_not_a_500(
    client: FlaskClient, path: str, depth: int
) -> None:
    game = create(client)
    before, games = record_of(client, game), game_count(client)
    nested = b"[" * depth + b"]" * depth
    bodies = [
        nested,
        b'{"game": "mada", "players": ["A", "B"], "options": {"catalog": ' + nested + b"}}",
        b'{"type": "play", "card": ' + nested + b"}",
    ]
    for body in bodies:
        response = post_raw(client, write_path(path, game), body, auth(game))
        details = assert_rejected(client, game, response, 400, "invalid_request", before, games)
        assert details


@pytest.mark.parametrize(
    "body",
    [
        b'{"game": "mada", "players": ["a\\ud800", "B"]}',
        b'{"game": "mada", "players": ["A", "B"], "options": {"\\udfff": 1}}',
        b'{"game": "\\udfff", "players": ["A", "B"]}',
        b'{"game": "mada", "players": ["A", "B"], "options": {"catalog": {"x": ["\\ud800"]}}}',
        b'{"type": "\\ud800"}',
        b'{"type": "play", "\\udfff": 1}',
        # A high surrogate escaped, then raw bytes that are not UTF-8 at all.
        b'{"type": "play", "card": "\\ud83d"}',
        b'{"type": "play", "card": "\xed\xa0\x80"}',
    ],
)
@pytest.mark.parametrize("path", WRITE_PATHS)
def test_lone_surrogates_anywhere_in_a_body_are_400_not_a_500(
    client: FlaskClient, path: str, body: bytes
) -> None:
    game = create(client)
    before, games = record_of(client, game), game_count(client)
    response = post_raw(client, write_path(path, game), body, auth(game))
    assert_rejected(client, game, response, 400, "invalid_request", before, games)


def test_the_error_body_survives_any_text_it_echoes(app: Flask) -> None:
    """Whatever an error's message or details echo (a lone surrogate, an int too long for
    JSON, an object, a deep list), the error body is still JSON of the contract's shape."""
    deep: list[Any] = []
    for _ in range(2000):
        deep = [deep]
    with app.app_context():
        response = error_response(
            400,
            "invalid_request",
            "no game named 'a\ud800'",
            {"\udfff": ["x\udc00"], 3: 10**100, "deep": deep, "object": object()},
        )
    body = json.loads(response.get_data())
    assert response.status_code == 400 and response.mimetype == "application/json"
    assert set(body["error"]) == {"code", "message", "details"}
    assert "\\ud800" in body["error"]["message"]
    assert body["error"]["details"]["3"] == str(10**100)


# Integers in headers, queries and bodies ---------------------------------------------------------
@pytest.mark.parametrize("value", ["²", "¹", "³", "٣", "1²", "¹0", "\U0001d7d1"])
def test_unicode_digits_are_not_read_as_integers(client: FlaskClient, value: str) -> None:
    game = create(client)
    append(client, game, legal(client, game)[0])
    before, games = record_of(client, game), game_count(client)
    move = legal(client, game)[0]
    latin1 = value if value.encode("latin-1", "ignore").decode("latin-1") == value else None
    if latin1 is not None:
        # A header is Latin-1 text on the wire: only these can reach the service in one.
        response = append(client, game, move, **{"If-Match": latin1})
        details = assert_rejected(client, game, response, 400, "invalid_request", before, games)
        assert "If-Match" in details
        response = client.get(f"/games/{game['id']}/stream", headers={"Last-Event-ID": latin1})
        assert "Last-Event-ID" in assert_error(response, 400, "invalid_request")
    response = client.get("/games", query_string={"cursor": value})
    assert "cursor" in assert_error(response, 400, "invalid_request")
    # The pages fall back to their default (the first page, the last move) for what is no number.
    assert client.get("/", query_string={"cursor": value}).status_code == 200
    page = client.get(f"/games/{game['id']}/view", query_string={"at": value})
    assert page.status_code == 200
    assert 'aria-valuetext="move 1 of 1"' in page.get_data(as_text=True)
    for path, name in (("/events", "from"), ("/events", "limit"), ("/state", "at"),
                       ("/stream", "from"), ("/stream", "last_event_id")):  # fmt: skip
        response = client.get(f"/games/{game['id']}{path}", query_string={name: value})
        assert name in assert_error(response, 400, "invalid_request")


def test_integers_over_4300_digits_are_400_not_a_500(client: FlaskClient) -> None:
    game = create(client)
    before, games = record_of(client, game), game_count(client)
    move = legal(client, game)[0]

    def rejected(response: Any) -> dict[str, Any]:
        return assert_rejected(client, game, response, 400, "invalid_request", before, games)

    assert "If-Match" in rejected(append(client, game, move, **{"If-Match": HUGE}))
    assert "If-Match" in rejected(append(client, game, move, **{"If-Match": f'"{HUGE}"'}))
    stream = client.get(f"/games/{game['id']}/stream", headers={"Last-Event-ID": HUGE})
    assert "Last-Event-ID" in rejected(stream)
    assert "cursor" in rejected(client.get(f"/games?cursor={HUGE}"))
    for path, name in (("/events", "from"), ("/events", "limit"), ("/state", "at"),
                       ("/stream", "from"), ("/stream", "last_event_id")):  # fmt: skip
        assert name in rejected(client.get(f"/games/{game['id']}{path}?{name}={HUGE}"))
    bodies = {
        "/games": [
            f'{{"game": "mada", "players": ["A", "B"], "seed": {HUGE}}}',
            f'{{"game": "mada", "players": ["A", "B"], "options": {{"first_player": {HUGE}}}}}',
            f'{{"game": "mada", "players": ["A", "B"], "seed": -{HUGE}}}',
        ],
        "/games/import": [
            f'{{"game": "mada", "players": ["A", "B"], "seed": {HUGE}, "options": {{}},'
            f' "rules_version": "mada/1", "events": []}}',
            f'{{"game": "mada", "players": ["A", "B"], "seed": 1, "options": {{}},'
            f' "rules_version": "mada/1", "events": [{{"type": "play", "card": {HUGE}}}]}}',
        ],
        f"/games/{game['id']}/events": [
            f'{{"type": "play", "player": 0, "card": {HUGE}}}',
            f'{{"type": "play", "player": {HUGE}}}',
        ],
    }
    for path, texts in bodies.items():
        for text in texts:
            rejected(post_raw(client, path, text.encode(), auth(game)))
    # The pages, which read the same numbers, fall back to their defaults.
    assert client.get(f"/?cursor={HUGE}").status_code == 200
    assert client.get(f"/games/{game['id']}/view?at={HUGE}").status_code == 200


# Status headers: Allow, Retry-After; what a 503 tells ---------------------------------------------
@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("DELETE", "/games", {"GET", "POST", "HEAD", "OPTIONS"}),
        ("PUT", "/games/{id}/events", {"GET", "POST", "HEAD", "OPTIONS"}),
        ("PATCH", "/health", {"GET", "HEAD", "OPTIONS"}),
        ("POST", "/games/{id}", {"GET", "HEAD", "OPTIONS"}),
        ("DELETE", "/games/{id}/stream", {"GET", "HEAD", "OPTIONS"}),
        ("POST", "/", {"GET", "HEAD", "OPTIONS"}),
    ],
)
def test_a_405_lists_the_methods_the_path_takes_in_allow(
    client: FlaskClient, method: str, path: str, allowed: set[str]
) -> None:
    game = create(client)
    before, games = record_of(client, game), game_count(client)
    response = client.open(path.replace("{id}", game["id"]), method=method, json={})
    assert_rejected(client, game, response, 405, "method_not_allowed", before, games)
    assert {name.strip() for name in response.headers["Allow"].split(",")} == allowed


def test_a_429_says_when_to_retry(real_redis: redis.Redis, key_prefix: str) -> None:
    client = make_app(real_redis, key_prefix, RATE_LIMIT="3 per minute").test_client()
    statuses = [client.get("/health").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    response = client.get("/health")
    assert_error(response, 429, "rate_limited")
    assert 1 <= int(response.headers["Retry-After"]) <= 60


def test_the_stream_limits_503_says_when_to_retry(real_redis: redis.Redis, key_prefix: str) -> None:
    client = make_app(real_redis, key_prefix, STREAM_LIMIT=1).test_client()
    game = create(client)
    with client.get(f"/games/{game['id']}/stream", buffered=False) as first:
        assert first.status_code == 200
        refused = client.get(f"/games/{game['id']}/stream")
        assert_error(refused, 503, "unavailable")
        assert int(refused.headers["Retry-After"]) >= 1


def test_a_503_of_health_keeps_the_store_address_in_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    unreachable = redis.Redis.from_url(
        "redis://127.0.0.1:1/0", decode_responses=True, socket_connect_timeout=0.5
    )
    client = make_app(unreachable, "unreachable:").test_client()
    with caplog.at_level("WARNING"):
        response = client.get("/health")
    assert response.status_code == 503
    assert response.json["error"]["code"] == "unavailable"
    assert response.json["store"]["ok"] is False
    assert "127.0.0.1" not in response.get_data(as_text=True)
    assert ":1" not in json.dumps(response.json["store"])
    assert "127.0.0.1:1" in caplog.text
    # Any other request the store cannot answer says so the same way, with a time to retry.
    down = client.get("/games")
    assert_error(down, 503, "unavailable")
    assert "127.0.0.1" not in down.get_data(as_text=True)
    assert int(down.headers["Retry-After"]) >= 1


# The stream's void ------------------------------------------------------------------------------
def test_a_streams_moves_say_whether_they_are_void_as_events_does(app: Flask) -> None:
    client = app.test_client()
    game = create(client, players=["Ana", "Ben"], seed=3)
    for _ in range(2):
        assert append(client, game, legal(client, game)[0]).status_code == 201
    assert append(client, game, {"type": "retract"}).status_code == 201
    listed = client.get(f"/games/{game['id']}/events").json["events"]
    assert [event["void"] for event in listed] == [False, True, False]

    url = f"/games/{game['id']}/stream"
    with client.get(url, buffered=False) as response:
        stream = messages(response.response)
        assert next(stream) == {"retry": "2000"}
        caught_up = [next(stream) for _ in range(3)]
        assert [m["data"]["void"] for m in caught_up] == [False, True, False]
        assert [m["data"]["type"] for m in caught_up] == [e["type"] for e in listed]

        # Live: a move is not void when it is sent; its retraction follows as an event.
        assert append(client, game, legal(client, game)[0]).status_code == 201
        live = next(m for m in stream if "comment" not in m)
        assert live["id"] == "4" and live["data"]["void"] is False
        assert append(client, game, {"type": "retract"}).status_code == 201
        retraction = next(m for m in stream if "comment" not in m)
        assert retraction["id"] == "5"
        assert retraction["data"]["type"] == "retract" and retraction["data"]["void"] is False

    # Resumed after the retraction: moves 4 and 5 as GET /events has them now.
    with client.get(url, headers={"Last-Event-ID": "3"}, buffered=False) as response:
        stream = messages(response.response)
        next(stream)
        resumed = [next(stream) for _ in range(2)]
    assert [m["data"]["void"] for m in resumed] == [True, False]
    listed = client.get(f"/games/{game['id']}/events").json["events"]
    assert [event["void"] for event in listed] == [False, True, False, True, False]


# Query parameters -------------------------------------------------------------------------------
HOSTILE_VALUES = ["", "-1", "0", HUGE, "²", "٣", "1.5", "0x10", " 1", "1 ", "\x00", "\ufffd",
                  "a" * 3000, "%", "1e3", "true", "[]", "null"]  # fmt: skip
QUERY_NAMES = ("limit", "from", "at", "cursor", "last_event_id", "game", "status", "player")


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_any_query_parameter_answers_200_or_a_contract_400(client: FlaskClient, value: str) -> None:
    game = create(client)
    append(client, game, legal(client, game)[0])
    paths = ["/games", "/games/{id}", "/games/{id}/events", "/games/{id}/state",
             "/games/{id}/legal", "/games/{id}/audit", "/games/{id}/export",
             "/games/{id}/stream", "/", "/games/{id}/view", "/games/{id}/record",
             "/stats/mada", "/players/Ana/stats", "/health"]  # fmt: skip
    for path in paths:
        url = path.replace("{id}", game["id"])
        for name in QUERY_NAMES:
            for query in ({name: value}, {name: [value, "1"]}, {name: ["1", value]}):
                with client.get(url, query_string=query, headers=auth(game),
                                buffered=False) as response:  # fmt: skip
                    assert response.status_code in (200, 400), (url, query, response.data)
                    if response.status_code == 400:
                        details = assert_error(response, 400, "invalid_request")
                        # A malformed value names its parameter; a parameter the path does not
                        # take is named as unknown, beside the ones it takes.
                        assert name in details or details.get("unknown") == [name], (url, details)


def test_an_empty_cursor_is_no_cursor(client: FlaskClient) -> None:
    create(client)
    first = client.get("/games")
    assert client.get("/games?cursor=").json == first.json
    assert client.get("/games", query_string={"cursor": ""}).status_code == 200


# gunicorn: what `tabletape serve` answers before and around the app -------------------------------
@pytest.fixture(scope="module", params=["gevent", "gthread"])
def server(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[int]:
    """A `tabletape serve` process (one worker, of each worker class) on the test Redis; its
    port."""
    prefix = f"test-{uuid.uuid4().hex[:12]}:"
    options = ("--workers", "1", "--worker-class", request.param, "--threads", "4")
    try:
        with serving(tmp_path_factory.mktemp("serve"), *options, redis_url=redis_url,
                     key_prefix=prefix) as served:  # fmt: skip
            yield served.port
    finally:
        client = redis.Redis.from_url(redis_url)
        keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()


def raw_request(port: int, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are; the status, headers and body of the one answer (the request asks
    the server to close, or the server closes after an error)."""
    if b"\r\n\r\n" in data and b"Connection:" not in data:
        head, _, rest = data.partition(b"\r\n\r\n")
        data = head + b"\r\nConnection: close\r\n\r\n" + rest
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            # The server may answer a body too large by its Content-Length, and close, before
            # all of it was sent: its answer is there to read.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                connection.sendall(data)
            answer = b""
            while chunk := connection.recv(65536):
                answer += chunk
    except ConnectionRefusedError:
        return 0, {}, b""
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def assert_contract_error(answer: tuple[int, dict[str, str], bytes], status: int, code: str):
    got, headers, body = answer
    assert got == status, body
    assert headers["content-type"] == "application/json", body
    assert int(headers["content-length"]) == len(body)
    error = json.loads(body)
    assert set(error) == {"error"}
    assert set(error["error"]) == {"code", "message", "details"}
    assert error["error"]["code"] == code
    assert isinstance(error["error"]["message"], str) and error["error"]["message"]
    assert isinstance(error["error"]["details"], dict)
    return error["error"]


GAME = b'{"game": "mada", "players": ["Ana", "Ben"]}'


def chunked_post(path: bytes, *chunks: bytes, sizes: list[bytes] | None = None) -> bytes:
    """A chunked POST; ``sizes`` overrides the chunk size lines (to send wrong ones)."""
    lines = sizes or [b"%x" % len(chunk) for chunk in chunks]
    body = b"".join(
        size + b"\r\n" + chunk + b"\r\n" for size, chunk in zip(lines, chunks, strict=True)
    )
    return (b"POST " + path + b" HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n" + body + b"0\r\n\r\n")  # fmt: skip


def test_a_chunked_body_with_a_bad_chunk_size_is_400_not_a_500(server: int) -> None:
    before = raw_request(server, b"GET /games?limit=100 HTTP/1.1\r\nHost: t\r\n\r\n")[2]
    for size in (b"ZZ", b"-5", b"+2c", b"0x2c", b"2c 1", b"", b"2c;\x00", b"2c;x=" + b"y" * 5000):
        answer = raw_request(server, chunked_post(b"/games", GAME, sizes=[size]))
        assert_contract_error(answer, 400, "invalid_request")
    # A chunk declared larger than the limit is a 413 once the limit is passed.
    huge = chunked_post(b"/games", b"a" * 70000, sizes=[b"1" * 40])
    assert_contract_error(raw_request(server, huge), 413, "too_large")
    answer = raw_request(server, chunked_post(b"/games/nosuchgame/events", b"{}", sizes=[b"q"]))
    assert answer[0] in (400, 401, 404) and answer[0] != 500
    assert raw_request(server, b"GET /games?limit=100 HTTP/1.1\r\nHost: t\r\n\r\n")[2] == before
    # A well-formed chunked body is read whole.
    created = raw_request(server, chunked_post(b"/games", GAME[:10], GAME[10:]))
    assert created[0] == 201, created


def test_a_body_over_its_limit_is_413_chunked_or_not(server: int) -> None:
    before = raw_request(server, b"GET /games?limit=100 HTTP/1.1\r\nHost: t\r\n\r\n")[2]
    # An import's limit is its own, 16 MiB: a record of thousands of moves goes through.
    for path, limit in ((b"/games", 64 * 1024), (b"/games/import", 16 * 1024 * 1024)):
        padding = b" " * limit
        answer = raw_request(server, chunked_post(path, GAME[:-1], padding, b"}"))
        assert_contract_error(answer, 413, "too_large")
        sized = (
            b"POST " + path + b" HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % (len(GAME) + len(padding)) + GAME + padding
        )
        assert_contract_error(raw_request(server, sized), 413, "too_large")
    assert raw_request(server, b"GET /games?limit=100 HTTP/1.1\r\nHost: t\r\n\r\n")[2] == before
    # At the limit exactly, a chunked body is still read.
    at_limit = GAME[:-1] + b" " * (64 * 1024 - len(GAME)) + b"}"
    assert raw_request(server, chunked_post(b"/games", at_limit))[0] == 201


@pytest.mark.parametrize(
    ("request_bytes", "status", "code"),
    [
        # A request line or headers past gunicorn's limits: 400, a status of the contract's (not
        # gunicorn's 414 or 431).
        (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", 400, "invalid_request"),
        (b"GET /games?player=" + b"a" * 9000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", 400,
         "invalid_request"),
        (b"GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n", 400,
         "invalid_request"),
        (b"GET / HTTP/1.1\r\nHost: t\r\n" + b"".join(b"X-%d: a\r\n" % i for i in range(200))
         + b"\r\n", 400, "invalid_request"),
        (b"GARBAGE\r\n\r\n", 400, "invalid_request"),
        (b"G@T / HTTP/1.1\r\nHost: t\r\n\r\n", 400, "invalid_request"),
        (b"GET / HTTP/9.9\r\nHost: t\r\n\r\n", 400, "invalid_request"),
        (b"GET /\xff\xfe HTTP/1.1\r\nHost: t\r\n\r\n", 400, "invalid_request"),
        (b"GET / HTTP/1.1\r\nHost: t\r\nBad Header: 1\r\n\r\n", 400, "invalid_request"),
        (b"GET / HTTP/1.1\r\nHost: t\r\nX-A: a\x00b\r\n\r\n", 400, "invalid_request"),
        (b"GET / HTTP/1.1\r\nHost: t\r\nX-A: 1\r\n  folded\r\n\r\n", 400, "invalid_request"),
        (b"POST /games HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n{}", 400,
         "invalid_request"),
        (b"POST /games HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nTransfer-Encoding: chunked"
         b"\r\n\r\n0\r\n\r\n", 400, "invalid_request"),
    ],
)  # fmt: skip
def test_gunicorns_own_errors_answer_the_contracts_json(
    server: int, request_bytes: bytes, status: int, code: str
) -> None:
    error = assert_contract_error(raw_request(server, request_bytes), status, code)
    assert "<" not in error["message"]


@pytest.mark.parametrize(
    ("path", "status"),
    [(b"/health", 400), (b"/games/nosuchgame", 400), (b"/nowhere", 400)],
)
def test_a_broken_chunked_body_is_answered_once_on_any_route(
    server: int, path: bytes, status: int
) -> None:
    """Even where no view reads the body, one answer, then the connection closes: gunicorn
    draining the body after an answer must not write a second one."""
    broken = b"GET " + path + b" HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n"
    answer = raw_request(server, broken)
    assert_contract_error(answer, status, "invalid_request")
    assert b"HTTP/1.1" not in answer[2]
    # Past the size limit, the break comes after the 413: still one answer.
    over = (b"POST " + path + b" HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
            + b"%x\r\n" % 70000 + b"a" * 70000 + b"\r\nZZ\r\n")  # fmt: skip
    answer = raw_request(server, over)
    assert_contract_error(answer, 413, "too_large")
    assert b"HTTP/1.1" not in answer[2]


@pytest.mark.parametrize("worker_class", ["gevent", "gthread"])
def test_a_body_that_does_not_arrive_in_time_is_answered_and_closed(
    redis_url: str, tmp_path: Path, worker_class: str
) -> None:
    """BODY_SECONDS (1 here, 30 by default): a client that sends its headers and then its body
    a byte at a time, too slowly, or never, is answered 400 and its connection closed."""
    options = ("--workers", "1", "--worker-class", worker_class, "--threads", "4")
    prefix = f"test-{uuid.uuid4().hex[:12]}:"
    with serving(tmp_path, *options, redis_url=redis_url, key_prefix=prefix,
                 BODY_SECONDS="1") as served:  # fmt: skip
        head = (b"POST /games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n" % len(GAME))  # fmt: skip
        for drip in (0.0, 0.3):
            with socket.create_connection(("127.0.0.1", served.port), timeout=10) as connection:
                began = time.monotonic()
                connection.sendall(head + GAME[:5])
                answer = b""
                if drip:
                    # A byte every 0.3 s: each wait is short, the whole is too long.
                    for byte in GAME[5:12]:
                        time.sleep(drip)
                        try:
                            connection.sendall(bytes([byte]))
                        except OSError:
                            break
                while chunk := connection.recv(65536):
                    answer += chunk
                took = time.monotonic() - began
            assert 0.9 < took < 5, took
            status_line, _, rest = answer.partition(b"\r\n")
            assert b" 400 " in status_line, answer
            body = json.loads(rest.partition(b"\r\n\r\n")[2])
            assert body["error"]["code"] == "invalid_request"
            assert "within 1 seconds" in body["error"]["message"]
        # A body that comes in time is served as ever.
        created = raw_request(served.port, head + GAME)
        assert created[0] == 201, created
