"""One load client: a process recording games over one keep-alive connection.

It talks with the parent (bench.load) over a pipe, in steps, so that every client is timed over
the same window:
  client: ("prepared", info)    warmed up, enough games scripted (and created on the API) to last
  parent: "connect"             open a fresh connection and make one untimed append on it
  client: ("connected", port)   the parent checks which worker took it and may ask again
  parent: "go"                  the timed run
  client: ("done", result)      or ("failed", traceback) at any point
"""

from __future__ import annotations

import http.client
import math
import time
import traceback
from array import array
from collections import Counter, deque
from dataclasses import dataclass
from multiprocessing.connection import Connection as Pipe
from typing import Any

from bench.scripts import typical_game
from bench.wire import DUMMY_TOKEN, Append, Connection, prepare_appends
from service.store.embedded import die_with_parent

PARENT_TIMEOUT = 300.0
# A run this broken measures nothing: stop rather than loop on errors.
MAX_ERRORS = 100
CONNECTION_ERRORS = (OSError, http.client.HTTPException)


@dataclass(frozen=True)
class ClientPlan:
    index: int
    port: int
    # "full" and "peer": games are created on the server first; "bare": the endpoint takes any id
    kind: str
    first_seed: int
    warmup: int  # untimed appends before anything is timed
    duration: float | None  # timed for this long ...
    count: int | None  # ... or for this many appends


class Feed:
    """The appends to come, game after game, each game started on the server before it is needed."""

    def __init__(self, plan: ClientPlan, conn: Connection) -> None:
        self.plan = plan
        self.conn = conn
        self.queue: deque[Append] = deque()
        self.next_seed = plan.first_seed
        self.games_started = 0
        # Games started while timed: a sign that the capacity estimate fell short.
        self.refills = 0

    def ensure(self, appends: int) -> None:
        while len(self.queue) < appends:
            self._start_game()

    def next(self, timed: bool = False) -> Append:
        if not self.queue:
            self.refills += timed
            self._start_game()
        return self.queue.popleft()

    def abandon(self, game_id: str) -> None:
        """Drop the rest of a game whose append failed: its script no longer matches the server."""
        while self.queue and self.queue[0].game_id == game_id:
            self.queue.popleft()

    def _start_game(self) -> None:
        script = typical_game(self.next_seed)
        if self.plan.kind != "bare":
            game_id, token = self.conn.create_game(script)
        else:
            game_id, token = f"s{self.next_seed}", DUMMY_TOKEN
        self.next_seed += 1
        self.games_started += 1
        self.queue.extend(prepare_appends(game_id, token, script))


def client_main(plan: ClientPlan, pipe: Pipe) -> None:
    die_with_parent()
    try:
        result = _run(plan, pipe)
        if result is not None:
            pipe.send(("done", result))
    except BaseException:
        pipe.send(("failed", f"client {plan.index}:\n{traceback.format_exc()}"))
    finally:
        pipe.close()


def _run(plan: ClientPlan, pipe: Pipe) -> dict[str, Any] | None:
    conn = Connection(plan.port)
    feed = Feed(plan, conn)
    finished: list[str] = []
    errors: Counter[str] = Counter()

    # Warm-up: the server's code paths, caches and connections get going; untimed.
    conn.connect()
    untimed = 0
    began = time.perf_counter()
    for _ in range(plan.warmup):
        untimed += _append_once(conn, feed, feed.next(), errors, finished)
    rate = plan.warmup / max(time.perf_counter() - began, 1e-6)

    # Script (and create) all the games the timed run can need, with a wide margin, up front.
    if plan.duration is not None:
        feed.ensure(math.ceil(rate * plan.duration * 2.5) + 200)
    else:
        feed.ensure((plan.count or 0) + 10)
    pipe.send(("prepared", {"warmup_rate": rate, "games": feed.games_started}))

    while True:
        if not pipe.poll(PARENT_TIMEOUT):
            raise TimeoutError("no word from the parent")
        message = pipe.recv()
        if message == "connect":
            port = conn.connect()
            untimed += _append_once(conn, feed, feed.next(), errors, finished)
            pipe.send(("connected", port))
        elif message == "go":
            break
        else:
            return None  # the parent gave up

    latencies = array("d")
    reconnects = 0
    deadline = math.inf if plan.duration is None else time.perf_counter() + plan.duration
    target = plan.count if plan.count is not None else math.inf
    start = time.perf_counter()
    cpu_start = time.process_time()
    while len(latencies) < target:
        append = feed.next(timed=True)
        sent = time.perf_counter()
        try:
            status, _ = conn.append(append)
        except CONNECTION_ERRORS:
            # Most likely a kept-alive connection the server closed: retry once on a new one. If the
            # first try did land, If-Match makes the retry a 409 and the game is abandoned below.
            reconnects += 1
            conn.connect()
            sent = time.perf_counter()
            try:
                status, _ = conn.append(append)
            except CONNECTION_ERRORS as error:
                errors[type(error).__name__] += 1
                _check_errors(errors)
                conn.connect()
                feed.abandon(append.game_id)
                continue
        done = time.perf_counter()
        if status == 201:
            latencies.append(done - sent)
            if append.last:
                finished.append(append.game_id)
        else:
            errors[str(status)] += 1
            _check_errors(errors)
            feed.abandon(append.game_id)
        if done >= deadline:
            break
    end = time.perf_counter()
    cpu = time.process_time() - cpu_start
    conn.close()
    return {
        "index": plan.index,
        "appends": len(latencies),
        "untimed_appends": untimed,
        "start": start,
        "end": end,
        "latencies": latencies.tolist(),
        "errors": dict(errors),
        "reconnects": reconnects,
        "refills": feed.refills,
        "games_started": feed.games_started,
        "finished_games": finished,
        "warmup_rate": rate,
        "cpu": cpu,
    }


def _check_errors(errors: Counter[str]) -> None:
    if sum(errors.values()) > MAX_ERRORS:
        raise RuntimeError(f"too many failed appends: {dict(errors)}")


def _append_once(
    conn: Connection, feed: Feed, append: Append, errors: Counter[str], finished: list[str]
) -> bool:
    """An untimed append (warm-up, connection check); whether it was accepted."""
    try:
        status, _ = conn.append(append)
    except CONNECTION_ERRORS as error:
        errors[f"untimed {type(error).__name__}"] += 1
        _check_errors(errors)
        conn.connect()
        feed.abandon(append.game_id)
        return False
    if status != 201:
        errors[f"untimed {status}"] += 1
        _check_errors(errors)
        feed.abandon(append.game_id)
        return False
    if append.last:
        finished.append(append.game_id)
    return True
