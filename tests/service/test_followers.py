"""Many followers of live games: the process's hub (service/api/fanout.py), and `tabletape serve`
with its default gevent worker serving hundreds of streams at once, on the real Redis server."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import redis
from flask import Flask

from domain import get_game
from domain.viewers import PUBLIC, RECORDER, seat
from service.api.fanout import Batch, End, Hub, Subscription, reader_name
from service.games import move_words
from service.store.connection import StoreClient
from service.store.records import StoredEvent
from tests.conftest import make_app
from tests.served import serving
from tests.support.api import append, create, legal, play_to_the_end
from tests.support.secrecy import PRIVATE_FIELDS
from tests.support.streams import Follower, messages, stream_url


def hub_of(app: Flask) -> Hub:
    hub: Hub = app.extensions["tabletape.fanout"]
    return hub


def moves_in(items: list[Any]) -> list[int]:
    return [event.seq for item in items if isinstance(item, Batch) for event in item.events]


def take_until(subscription: Subscription, seqs: int, timeout: float = 10) -> list[Any]:
    """What the subscription gets until it has ``seqs`` moves (or an end)."""
    items: list[Any] = []
    deadline = time.monotonic() + timeout
    while len(moves_in(items)) < seqs and not any(isinstance(i, End) for i in items):
        assert time.monotonic() < deadline, f"only {moves_in(items)} came"
        items += subscription.take(0.2)
    return items


def readers(real_redis: redis.Redis, *games: dict[str, Any]) -> int:
    """This process's connections reading ``games``' events (the feeds' readers)."""
    names = {reader_name(game["id"]) for game in games}
    return sum(1 for c in real_redis.client_list() if c.get("name") in names)


def eventually(check: Any, timeout: float = 5) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "it did not happen in time"
        time.sleep(0.05)


# The hub ------------------------------------------------------------------------------------------
def test_one_redis_reader_per_game_however_many_follow_and_the_last_to_leave_stops_it(
    app: Flask, real_redis: redis.Redis
) -> None:
    client = app.test_client()
    first, second = create(client, seed=1), create(client, seed=2)
    hub = hub_of(app)
    many = [hub.subscribe(first["id"], 0) for _ in range(40)]
    few = [hub.subscribe(second["id"], 0) for _ in range(3)]
    assert set(hub.feeds()) == {first["id"], second["id"]}
    eventually(lambda: readers(real_redis, first) == 1 and readers(real_redis, second) == 1)

    append(client, first, legal(client, first)[0])
    append(client, first, legal(client, first)[0])
    for subscription in many:
        assert moves_in(take_until(subscription, 2)) == [1, 2]
    assert all(subscription.take(0) == [] for subscription in few)

    feed = hub.feeds()[first["id"]]
    for subscription in many:
        hub.unsubscribe(subscription)
    assert set(hub.feeds()) == {second["id"]}
    # The reader notices within one blocking read, and lets its connection go.
    feed.thread.join(5)
    assert not feed.thread.is_alive()
    eventually(lambda: readers(real_redis, first) == 0)
    assert readers(real_redis, second) == 1
    for subscription in few:
        hub.unsubscribe(subscription)
    assert hub.feeds() == {}


def test_the_feeds_read_a_redis_cluster_from_the_node_of_each_game(
    cluster_redis: StoreClient, key_prefix: str, tmp_path: Path
) -> None:
    app = make_app(cluster_redis, key_prefix, ARCHIVE_DIR=str(tmp_path))
    client = app.test_client()
    # Games whose ids hash to slots of different masters, most likely.
    games = [create(client, seed=seed) for seed in range(6)]
    hub = hub_of(app)
    subscriptions = [hub.subscribe(game["id"], 0) for game in games for _ in range(3)]
    for game in games:
        append(client, game, legal(client, game)[0])
    for subscription in subscriptions:
        assert moves_in(take_until(subscription, 1)) == [1]
    for subscription in subscriptions:
        hub.unsubscribe(subscription)
    assert hub.feeds() == {}


def test_a_follower_joining_a_running_feed_gets_what_follows_its_start(app: Flask) -> None:
    client = app.test_client()
    game = create(client)
    hub = hub_of(app)
    early = hub.subscribe(game["id"], 0)
    append(client, game, legal(client, game)[0])
    take_until(early, 1)
    late = hub.subscribe(game["id"], 0)
    assert late.start == 1  # seq 1 is the follower's to read (the stream's catch-up)
    append(client, game, legal(client, game)[0])
    assert moves_in(take_until(late, 1)) == [2]
    assert moves_in(take_until(early, 1)) == [2]
    hub.unsubscribe(early)
    hub.unsubscribe(late)


def test_a_follower_whose_queue_is_full_is_dropped_and_the_others_go_on(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    app = make_app(real_redis, key_prefix, STREAM_BACKLOG=2)
    client = app.test_client()
    game = create(client)
    hub = hub_of(app)
    drops: list[str] = []
    idle = hub.subscribe(game["id"], 0, on_drop=lambda: drops.append("idle"))
    reading = hub.subscribe(game["id"], 0, on_drop=lambda: drops.append("reading"))
    received: list[Any] = []
    for _ in range(4):
        append(client, game, legal(client, game)[0])
        received += take_until(reading, 1)
    assert moves_in(received) == [1, 2, 3, 4]
    assert drops == ["idle"] and idle.dropped and not reading.dropped
    # What it had queued before it was dropped is still its to send; then it ends.
    assert moves_in(idle.take(0)) == [1, 2]
    hub.unsubscribe(idle)
    hub.unsubscribe(reading)


def test_the_feed_ends_with_the_game_and_leaves_the_hub(app: Flask) -> None:
    client = app.test_client()
    game = create(client, players=["Ana", "Ben"], seed=9)
    hub = hub_of(app)
    subscription = hub.subscribe(game["id"], 0)
    answers = play_to_the_end(client, game, seed=9)
    items = take_until(subscription, len(answers) + 1)
    assert moves_in(items) == list(range(1, len(answers) + 1))
    assert isinstance(items[-1], End) and items[-1].record.status == "finished"
    assert hub.feeds() == {}
    hub.unsubscribe(subscription)


def test_a_batch_is_rendered_once_per_kind_of_viewer_whoever_asks() -> None:
    events = [StoredEvent(seq, {"type": "play", "player": 0}, "at", "h") for seq in (1, 2)]
    batch = Batch(events, [False, True])
    rendered: list[tuple[int, Any]] = []

    def render_for(viewer: Any) -> Any:
        def render(event: StoredEvent, void: bool) -> str:
            rendered.append((event.seq, viewer))
            return f"{viewer} {event.seq} {void}"

        return render

    for _follower in range(50):
        for viewer in (PUBLIC, seat(0), seat(1), RECORDER):
            shown = batch.messages(viewer, render_for(viewer))
            assert shown == [(1, f"{viewer} 1 False"), (2, f"{viewer} 2 True")]
    assert len(rendered) == 2 * 4


def test_each_follower_gets_the_moves_as_its_viewer_may_see_them(app: Flask) -> None:
    """Followers of one live game as the public, each seat and the recorder share the game's
    feed; each gets what the contract lets it see, nothing of another seat's."""
    recorder = app.test_client()
    game = create(recorder, game="sifaka", players=["Ana", "Ben", "Caro"], seed=7)
    tokens: dict[Any, str | None] = {None: None, "recorder": game["token"]}
    tokens.update(enumerate(game["seat_tokens"]))
    followers = {
        viewer: Follower(
            app, stream_url(game), {"Authorization": f"Bearer {token}"} if token else {}
        )
        for viewer, token in tokens.items()
    }
    for follower in followers.values():
        follower.start()
        assert follower.started_streaming.wait(10)
    eventually(lambda: len(hub_of(app).feeds()) == 1)
    whole = [answer["event"] for answer in play_to_the_end(recorder, game, seed=7)]
    for viewer, follower in followers.items():
        follower.finish()
        seen = [message["data"] for message in follower.moves()]
        assert len(seen) == len(whole)
        for shown, event in zip(seen, whole, strict=True):
            expected = {**event, "void": False, "version": event["seq"]}
            if viewer != "recorder":
                private = PRIVATE_FIELDS["sifaka"].get(event["type"], ())
                mine = viewer is not None and event.get("player") == viewer
                hidden = [] if mine else [name for name in private if name in event]
                expected = {k: v for k, v in expected.items() if k != "hash" and k not in hidden}
                if hidden:
                    expected["hidden"] = hidden
            # Its words, said from the event as this follower reads it.
            expected["words"] = move_words(get_game("sifaka"), expected, game["players"])
            assert shown == expected, viewer


# `tabletape serve` (gevent) -----------------------------------------------------------------------
@contextmanager
def serving_gevent(
    redis_url: str, key_prefix: str, data_dir: Path, **settings: str
) -> Iterator[int]:
    """`tabletape serve` with its defaults (2 gevent workers) on the test Redis; its port."""
    with serving(data_dir, redis_url=redis_url, key_prefix=key_prefix, **settings) as served:
        yield served.port
    assert "JsonErrorGeventWorker" in served.log()


def call(port: int, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data, headers,
                                     method=method)  # fmt: skip
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, json.loads(response.read())


def play(port: int, game: dict[str, Any], seed: int, moves: int | None = None) -> list[dict]:
    """Append random legal moves (``moves`` of them, else to the game's end); the events, each
    with the words the answer gave it (which the stream's messages carry too)."""
    chooser = random.Random(seed)
    url = f"/games/{game['id']}"
    events = []
    while moves is None or len(events) < moves:
        legal_moves = call(port, "GET", f"{url}/legal", token=game["token"])[1]["moves"]
        if not legal_moves:
            break
        status, answer = call(port, "POST", f"{url}/events", chooser.choice(legal_moves),
                              game["token"])  # fmt: skip
        assert status == 201
        events.append({**answer["event"], "words": answer["words"]})
    return events


class RawFollower:
    """A follower on a socket of its own (HTTP/1.0: the body is the stream, to the close)."""

    def __init__(self, port: int, path: str, headers: dict[str, str] | None = None) -> None:
        self.port, self.path, self.headers = port, path, headers or {}
        self.status = 0
        self.received: list[dict[str, Any]] = []

    def request(self) -> bytes:
        lines = [f"GET {self.path} HTTP/1.0", "Host: t", *(f"{k}: {v}" for k, v in
                                                           self.headers.items())]  # fmt: skip
        return ("\r\n".join(lines) + "\r\n\r\n").encode()

    def take(self, body: bytes) -> None:
        """The whole messages in what was received (a message cut by the close is not one)."""
        whole = body[: body.rfind(b"\n\n") + 2] if b"\n\n" in body else b""
        self.received = list(messages(iter([whole])))

    def moves(self) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("event") == "move"]

    def read_until(self, seq: int, timeout: float = 30) -> None:
        """Follow on a blocking socket until move ``seq`` has come."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as connection:
            connection.sendall(self.request())
            body = b""
            while not self.moves() or int(self.moves()[-1]["id"]) < seq:
                chunk = connection.recv(65536)
                assert chunk, f"the stream closed at {self.moves()[-1:]}"
                body += chunk
                self.take(body.partition(b"\r\n\r\n")[2])

    async def follow(self, opened: asyncio.Event | None = None) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            writer.write(self.request())
            head = await reader.readuntil(b"\r\n\r\n")
            self.status = int(head.split()[1])
            body = await reader.readuntil(b"\n\n")  # retry: the stream is open
            if opened is not None:
                opened.set()
            while not body.endswith(b"\n\n") or b"event: end\n" not in body[-4096:]:
                chunk = await reader.read(65536)
                if not chunk:
                    break
                body += chunk
            self.take(body)
        finally:
            writer.close()


def test_hundreds_of_followers_each_get_every_move_once_and_in_order(
    redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    games_count, per_game = 3, 100
    with serving_gevent(redis_url, key_prefix, tmp_path, STREAM_HEARTBEAT="1") as port:
        games = [
            call(port, "POST", "/games", {"game": "mada", "players": ["Ana", "Ben"], "seed": s})[1]
            for s in range(games_count)
        ]

        async def run() -> tuple[list[list[RawFollower]], list[list[dict]]]:
            followers = [
                [RawFollower(port, f"/games/{game['id']}/stream") for _ in range(per_game)]
                for game in games
            ]
            opened = [asyncio.Event() for _ in range(games_count * per_game)]
            everyone = [f for group in followers for f in group]
            tasks = [asyncio.create_task(f.follow(o)) for f, o in zip(everyone, opened,
                                                                      strict=True)]  # fmt: skip
            await asyncio.wait_for(asyncio.gather(*(o.wait() for o in opened)), 60)
            # Every stream is open: the games are played meanwhile, two of them from move 1.
            played = await asyncio.gather(
                *(asyncio.to_thread(play, port, game, seed) for seed, game in enumerate(games))
            )
            await asyncio.wait_for(asyncio.gather(*tasks), 120)
            return followers, played

        # A loop of its own, on a thread of its own: the browser tests' Playwright may hold a
        # running loop on this thread when the whole suite runs.
        with ThreadPoolExecutor(1) as loop_thread:
            followers, played = loop_thread.submit(asyncio.run, run()).result()

    for group, events in zip(followers, played, strict=True):
        expected = [{k: v for k, v in e.items() if k != "hash"} for e in events]
        for follower in group:
            assert follower.status == 200
            moves = follower.moves()
            assert [int(m["id"]) for m in moves] == list(range(1, len(events) + 1))
            shown = [{k: v for k, v in m["data"].items() if k not in ("void", "version")}
                     for m in moves]  # fmt: skip
            assert shown == expected
            assert follower.received[-1]["event"] == "end"


def test_a_follower_that_does_not_read_is_dropped_and_resumes_without_loss(
    redis_url: str, key_prefix: str, tmp_path: Path
) -> None:
    with serving_gevent(redis_url, key_prefix, tmp_path, STREAM_BACKLOG="4",
                 STREAM_HEARTBEAT="60") as port:  # fmt: skip
        game = call(port, "POST", "/games", {"game": "mada", "players": ["Ana", "Ben"],
                                             "seed": 3})[1]  # fmt: skip
        slow = RawFollower(port, f"/games/{game['id']}/stream")
        with socket.socket() as connection:
            # A small receive window, and nothing read: what the server sends piles up.
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
            connection.connect(("127.0.0.1", port))
            connection.sendall(slow.request())
            time.sleep(0.5)
            # Each move, then its retraction: as many events as it takes, the game never ends.
            events = []
            for _ in range(150):
                events += play(port, game, seed=len(events), moves=1)
                status, answer = call(port, "POST", f"/games/{game['id']}/events",
                                      {"type": "retract"}, game["token"])  # fmt: skip
                assert status == 201
                events.append({**answer["event"], "words": answer["words"]})
            # The server closed the stream: what it had sent comes, then the end of the stream.
            connection.settimeout(20)
            body = b""
            while chunk := connection.recv(65536):
                body += chunk
        slow.take(body.partition(b"\r\n\r\n")[2])
        got = [int(m["id"]) for m in slow.moves()]
        assert got == list(range(1, len(got) + 1))
        assert len(got) < len(events), "the follower was never dropped"
        assert "end" not in [m.get("event") for m in slow.received]

        # It resumes where it stopped: the rest, nothing twice.
        resumed = RawFollower(port, f"/games/{game['id']}/stream",
                              {"Last-Event-ID": str(got[-1] if got else 0)})  # fmt: skip
        resumed.read_until(len(events))
        assert [int(m["id"]) for m in resumed.moves()] == list(range(len(got) + 1,
                                                                     len(events) + 1))  # fmt: skip
        received = [m["data"] for m in slow.moves() + resumed.moves()]
    assert [{k: v for k, v in m.items() if k not in ("void", "version")} for m in received] == [
        {k: v for k, v in e.items() if k != "hash"} for e in events
    ]
