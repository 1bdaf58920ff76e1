"""GET /games/{id}/stream: a game followed live as Server-Sent Events, on the real Redis server.

The Flask test client streams the response (buffered=False) in one thread while another records
the game; one test runs the stream through `tabletape serve` (gunicorn) as a real process.
"""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import make_app
from tests.served import serving
from tests.support.api import (
    append,
    assert_error,
    auth,
    bodies,
    create,
    legal,
    play_to_the_end,
)
from tests.support.streams import Follower, messages, stream_url
from tests.support.workers import drain


def events_with_version(client: FlaskClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    """The events as a follower without a token got them while the game was on: no hash, and
    ``void`` as GET /events says now (these games have no retraction: no move turns void after
    it was sent; tests/service/test_hostile_input.py follows one that has), with their words as
    GET /events sends them beside the events."""
    listed = client.get(f"/games/{game['id']}/events").json
    return [
        {**{k: v for k, v in event.items() if k != "hash"}, "version": event["seq"], "words": words}
        for event, words in zip(listed["events"], listed["words"], strict=True)
    ]


def unhashed(event: dict[str, Any]) -> dict[str, Any]:
    """An appended event as the public reads it while the game is on (a Mada game in seeded
    mode hides no field: only the hash)."""
    return {k: v for k, v in event.items() if k != "hash"}


# Following a game live ----------------------------------------------------------------------------
def test_a_follower_receives_every_move_of_a_game_being_recorded_in_order(app: Flask) -> None:
    recorder = app.test_client()
    game = create(recorder, players=["Ana", "Ben"], seed=5)
    follower = Follower(app, stream_url(game))
    follower.start()
    # The stream is open before the first move: every move reaches it live, through XREAD.
    assert follower.started_streaming.wait(10)
    assert follower.received[0] == {"retry": "2000"}
    answers = play_to_the_end(recorder, game, seed=5)
    follower.finish()

    moves = follower.moves()
    assert [int(message["id"]) for message in moves] == list(range(1, len(answers) + 1))
    assert [message["data"] for message in moves] == events_with_version(recorder, game)
    assert [message["data"] for message in moves] == [
        {
            **unhashed(answer["event"]),
            "void": False,
            "version": answer["version"],
            "words": answer["words"],
        }
        for answer in answers
    ]
    end = follower.received[-1]
    record = recorder.get(f"/games/{game['id']}").json
    assert end["event"] == "end"
    assert end["data"] == {key: record[key] for key in
                           ("id", "status", "version", "finished_at", "result")}  # fmt: skip


def test_several_followers_each_receive_the_whole_game(app: Flask) -> None:
    recorder = app.test_client()
    game = create(recorder, game="sifaka", players=["Ana", "Ben", "Caro"], seed=2)
    followers = [Follower(app, stream_url(game)) for _ in range(3)]
    for follower in followers:
        follower.start()
        assert follower.started_streaming.wait(10)
    play_to_the_end(recorder, game, seed=2)
    expected = events_with_version(recorder, game)
    for follower in followers:
        follower.finish()
        assert [message["data"] for message in follower.moves()] == expected


def test_a_follower_that_reconnects_with_last_event_id_misses_nothing_and_sees_nothing_twice(
    app: Flask,
) -> None:
    recorder = app.test_client()
    game = create(recorder, players=["Ana", "Ben", "Caro"], seed=11)
    done = threading.Event()

    def record() -> None:
        try:
            chooser = random.Random(11)
            while moves := legal(recorder, game):
                assert append(recorder, game, chooser.choice(moves)).status_code == 201
                time.sleep(0.005)  # moves keep coming while the follower is away
        finally:
            done.set()

    recorder_thread = threading.Thread(target=record, daemon=True)
    recorder_thread.start()
    received: list[dict[str, Any]] = []
    last_id: str | None = None
    connections = 0
    reconnected_mid_game = 0
    # Each way a client can name where it stopped: the header, and the queries for clients that
    # cannot set headers (?last_event_id=N is the header's value, ?from=N the next seq to send).
    resume = [
        lambda last: ("", {"Last-Event-ID": last}),
        lambda last: (f"?last_event_id={last}", {}),
        lambda last: (f"?from={int(last) + 1}", {}),
    ]
    ended = False
    while not ended:
        assert connections < 500, "the follower never reached the end"
        query, headers = ("", {}) if last_id is None else resume[connections % 3](last_id)
        reconnected_mid_game += last_id is not None and not done.is_set()
        connections += 1
        with app.test_client().get(
            stream_url(game, query), headers=headers, buffered=False
        ) as response:
            assert response.status_code == 200
            taken = 0
            for message in messages(response.response):
                if message.get("event") == "end":
                    ended = True
                    break
                if message.get("event") == "move":
                    received.append(message)
                    last_id = message["id"]
                    taken += 1
                    if taken == 7:
                        break  # the client goes away mid-game; the server notices the close
        time.sleep(0.01)
    recorder_thread.join(60)
    assert done.is_set()
    assert reconnected_mid_game >= 3, "the follower should come back while the game goes on"
    seqs = [int(message["id"]) for message in received]
    assert seqs == list(range(1, len(seqs) + 1)), "a gap or a repeat"
    # (Once the game is over, a stream reconnected then shows the hashes too.)
    received_events = [unhashed(message["data"]) for message in received]
    assert received_events == events_with_version(recorder, game)
    # Every stream closed released its slot.
    assert app.extensions["tabletape.streams"].open == 0


def test_a_finished_game_streams_all_its_moves_then_ends(app: Flask) -> None:
    recorder = app.test_client()
    game = create(recorder, players=["Ana", "Ben"], seed=3)
    answers = play_to_the_end(recorder, game, seed=3)
    with recorder.get(stream_url(game), buffered=False) as response:
        received = list(messages(response.response))
    assert [m.get("event") for m in received] == [None, *["move"] * len(answers), "end"]
    assert received[-1]["data"]["result"] == recorder.get(f"/games/{game['id']}").json["result"]
    # Resuming at the last move gives the end at once: EventSource reconnects after a close.
    headers = {"Last-Event-ID": str(len(answers))}
    with recorder.get(stream_url(game), headers=headers, buffered=False) as response:
        assert [m.get("event") for m in messages(response.response)] == [None, "end"]


def test_the_stream_ends_when_the_last_move_is_appended(app: Flask) -> None:
    recorder = app.test_client()
    game = create(recorder, players=["Ana", "Ben"], seed=8)
    play_to_the_end(recorder, game, seed=8)
    # Rebuild the same game up to its last move, then follow it and append the last move.
    moves = bodies(recorder.get(f"/games/{game['id']}/export").json)
    again = create(recorder, players=["Ana", "Ben"], seed=8)
    for move in moves[:-1]:
        assert append(recorder, again, move).status_code == 201
    follower = Follower(app, stream_url(again, f"?from={len(moves) - 1}"))
    follower.start()
    assert follower.started_streaming.wait(10)
    time.sleep(0.2)  # the follower is now waiting in XREAD
    assert append(recorder, again, moves[-1]).status_code == 201
    follower.finish(timeout=10)
    assert [m.get("id") for m in follower.moves()] == [str(len(moves) - 1), str(len(moves))]
    assert follower.received[-1]["event"] == "end"


# Heartbeats and limits ----------------------------------------------------------------------------
def test_a_quiet_stream_sends_heartbeats(real_redis: redis.Redis, key_prefix: str) -> None:
    app = make_app(real_redis, key_prefix, STREAM_HEARTBEAT=0.05)
    client = app.test_client()
    game = create(client)
    began = time.monotonic()
    with client.get(stream_url(game), buffered=False) as response:
        stream = messages(response.response)
        assert next(stream) == {"retry": "2000"}
        beats = [next(stream) for _ in range(3)]
    assert beats == [{"comment": "keep-alive"}] * 3
    assert time.monotonic() - began < 5


def test_a_stream_closes_at_its_time_limit_and_resumes_where_it_stopped(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    app = make_app(real_redis, key_prefix, STREAM_SECONDS=0.3, STREAM_HEARTBEAT=0.1)
    client = app.test_client()
    game = create(client)
    append(client, game, legal(client, game)[0])
    began = time.monotonic()
    with client.get(stream_url(game), buffered=False) as response:
        received = list(messages(response.response))  # ends by itself
    assert 0.3 <= time.monotonic() - began < 5
    assert [m.get("id") for m in received if m.get("event") == "move"] == ["1"]
    assert "end" not in [m.get("event") for m in received]
    assert received[-1]["comment"].startswith("time limit")
    append(client, game, legal(client, game)[0])
    with client.get(stream_url(game), headers={"Last-Event-ID": "1"}, buffered=False) as response:
        resumed = [m for m in messages(response.response) if m.get("event") == "move"]
    assert [m["id"] for m in resumed] == ["2"]


def test_streams_over_the_limit_are_refused_with_503(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    app = make_app(real_redis, key_prefix, STREAM_LIMIT=2)
    client = app.test_client()
    game = create(client)
    first = client.get(stream_url(game), buffered=False)
    second = client.get(stream_url(game), buffered=False)
    assert (first.status_code, second.status_code) == (200, 200)
    details = assert_error(client.get(stream_url(game)), 503, "unavailable")
    assert details == {}
    # Reads and appends are not streams: they go on.
    assert append(client, game, legal(client, game)[0]).status_code == 201
    first.close()
    with client.get(stream_url(game), buffered=False) as third:
        assert third.status_code == 200
    second.close()
    assert app.extensions["tabletape.streams"].open == 0


def test_an_unknown_game_is_a_404(client: FlaskClient) -> None:
    assert_error(client.get("/games/nosuchgame/stream"), 404, "not_found")


@pytest.mark.parametrize(
    ("query", "headers", "field"),
    [
        ("", {"Last-Event-ID": "three"}, "Last-Event-ID"),
        ("", {"Last-Event-ID": "4"}, "Last-Event-ID"),
        ("?last_event_id=4", {}, "last_event_id"),
        ("?last_event_id=-1", {}, "last_event_id"),
        ("?from=5", {}, "from"),
        ("?from=0", {}, "from"),
    ],
)
def test_a_resume_point_that_is_not_a_seq_of_the_game_is_a_400(
    client: FlaskClient, query: str, headers: dict[str, str], field: str
) -> None:
    game = create(client)
    for _ in range(3):
        append(client, game, legal(client, game)[0])
    assert client.get(f"/games/{game['id']}").json["version"] == 3
    details = assert_error(client.get(stream_url(game, query), headers=headers), 400,
                           "invalid_request")  # fmt: skip
    assert field in details


def test_the_store_waits_for_events_after_a_seq(app: Flask) -> None:
    client = app.test_client()
    game = create(client)
    store = app.extensions["tabletape"].store
    reader = store.blocking_client()
    try:
        began = time.monotonic()
        assert store.wait_events(game["id"], 0, 100, client=reader) == []
        assert time.monotonic() - began >= 0.09
        append(client, game, legal(client, game)[0])
        append(client, game, legal(client, game)[0])
        assert [e.seq for e in store.wait_events(game["id"], 0, 100, client=reader)] == [1, 2]
        assert [e.seq for e in store.wait_events(game["id"], 1, 100)] == [2]
        assert store.wait_events(game["id"], 2, 10, client=reader) == []
    finally:
        reader.connection_pool.disconnect()


# Through gunicorn ---------------------------------------------------------------------------------
def sse_lines(response: http.client.HTTPResponse) -> Iterator[dict[str, Any]]:
    def chunks() -> Iterator[bytes]:
        while line := response.readline():
            yield line

    return messages(chunks())


def test_a_game_followed_through_tabletape_serve_with_threads(
    redis_url: str, key_prefix: str, real_redis: redis.Redis, tmp_path: Path
) -> None:
    """gunicorn's gthread worker streams each move as it is appended, and with 4 threads per
    process it serves 2 streams at most (half its threads): a third is refused, appends still go
    through. (The default gevent worker: tests/service/test_followers.py.)"""
    connections: list[http.client.HTTPConnection] = []
    port = 0

    def call(method: str, path: str, body: Any = None, headers: dict[str, str] | None = None):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        data = json.dumps(body) if body is not None else None
        connection.request(method, path, data, {"Content-Type": "application/json",
                                                **(headers or {})})  # fmt: skip
        response = connection.getresponse()
        return connection, response

    def call_json(method: str, path: str, body: Any = None, headers: Any = None):
        connection, response = call(method, path, body, headers)
        try:
            return response.status, json.loads(response.read())
        finally:
            connection.close()

    # Short heartbeats: the server notices closed clients quickly, and stops without waiting.
    with serving(tmp_path, "--workers", "1", "--worker-class", "gthread", "--threads", "4",
                 redis_url=redis_url, key_prefix=key_prefix,
                 STREAM_HEARTBEAT="0.2") as served, closing_all(connections):  # fmt: skip
        port = served.port
        status, game = call_json("POST", "/games", {"game": "mada", "players": ["Ana", "Ben"],
                                                    "seed": 4})  # fmt: skip
        assert status == 201
        first, response = call("GET", f"/games/{game['id']}/stream")
        connections.append(first)
        assert response.status == 200
        assert response.getheader("Content-Type", "").startswith("text/event-stream")
        stream = sse_lines(response)
        assert next(stream) == {"retry": "2000"}
        second, other = call("GET", f"/games/{game['id']}/stream")
        connections.append(second)
        assert other.status == 200
        status, refused = call_json("GET", f"/games/{game['id']}/stream")
        assert status == 503 and refused["error"]["code"] == "unavailable"

        # Record the game move by move; each move comes out of the stream before the next is made.
        chooser = random.Random(4)
        appended = 0
        while True:
            status, moves = call_json("GET", f"/games/{game['id']}/legal", None, auth(game))
            if not moves["moves"]:
                break
            status, answer = call_json("POST", f"/games/{game['id']}/events",
                                       chooser.choice(moves["moves"]), auth(game))  # fmt: skip
            assert status == 201, answer
            appended += 1
            message = next(m for m in stream if "comment" not in m)
            assert message["event"] == "move" and message["id"] == str(appended)
            assert message["data"] == {**unhashed(answer["event"]), "void": False,
                                       "version": appended, "words": answer["words"]}  # fmt: skip
        end = next(m for m in stream if "comment" not in m)
        assert end["event"] == "end" and end["data"]["version"] == appended
        assert next(stream, None) is None, "the stream closes after the end"
    assert "live streams limited to 2 per process" in served.log()


@contextmanager
def closing_all(connections: list[http.client.HTTPConnection]) -> Iterator[None]:
    """Closes ``connections`` on leaving, then gives the server time to notice the closed
    streams at their next heartbeat, before it is asked to stop."""
    try:
        yield
    finally:
        for connection in connections:
            connection.close()
        time.sleep(0.5)


def test_an_archived_game_whose_stream_was_trimmed_streams_from_its_archive(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    app = make_app(real_redis, key_prefix, ARCHIVE_DIR=str(tmp_path), ARCHIVE_TRIM=True)
    client = app.test_client()
    game = create(client, players=["Ana", "Ben"], seed=6)
    answers = play_to_the_end(client, game, seed=6)
    drain(app)
    assert client.get(f"/games/{game['id']}").json["status"] == "archived"
    assert not real_redis.exists(f"{key_prefix}{{{game['id']}}}:events")
    headers = {"Last-Event-ID": "2"}
    with client.get(stream_url(game), headers=headers, buffered=False) as response:
        received = list(messages(response.response))
    moves = [m["data"] for m in received if m.get("event") == "move"]
    assert moves == [
        {**answer["event"], "void": False, "version": answer["version"], "words": answer["words"]}
        for answer in answers[2:]
    ]
    assert received[-1]["event"] == "end" and received[-1]["data"]["status"] == "archived"


def test_a_follower_resuming_after_the_end_sees_the_end_retracted_and_the_game_go_on(
    app: Flask,
) -> None:
    recorder = app.test_client()
    game = create(recorder, players=["Ana", "Ben"], seed=5)
    answers = play_to_the_end(recorder, game, seed=5)
    last_move = {k: v for k, v in answers[-1]["event"].items() if k not in ("seq", "at", "hash")}
    # The recorder takes the last move back: the game goes on, and its followers see it.
    assert append(recorder, game, {"type": "retract"}).status_code == 201
    follower = Follower(app, stream_url(game), {"Last-Event-ID": str(len(answers))})
    follower.start()
    assert follower.started_streaming.wait(10)
    time.sleep(0.2)
    assert append(recorder, game, last_move).status_code == 201
    follower.finish(timeout=10)
    moves = follower.moves()
    assert [m["data"]["type"] for m in moves] == ["retract", last_move["type"]]
    assert [m["id"] for m in moves] == [str(len(answers) + 1), str(len(answers) + 2)]
    assert follower.received[-1]["event"] == "end"
