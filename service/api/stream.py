"""GET /games/{id}/stream: a game's moves as they are recorded, as Server-Sent Events.

One message per move, in order, each with its seq as the SSE ``id``; ``end`` with the result once
the game is over, then the stream closes. A client that lost the stream resumes it where it
stopped: EventSource sends the last id it saw as ``Last-Event-ID`` by itself, and the stream
starts after it.

How it is served: the events the client has not seen yet first (XRANGE, or the archive once the
stream is trimmed), then what the process's one reader of the game brings (``service.api.fanout``:
one XREAD BLOCK per game and process, however many follow it), until the game's end or
STREAM_SECONDS, after which the client resumes. A client that does not read what it is sent is
dropped once STREAM_BACKLOG batches wait for it: its stream ends, and it resumes where it stopped.

An open stream holds its connection for its whole life: under gunicorn's gevent worker (the
default of `tabletape serve`) a greenlet, under gthread a thread. At most STREAM_LIMIT of them
per process (more get 503 unavailable): `tabletape serve` sets it by worker class.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any

import orjson
import redis
from flask import Response, current_app, request
from flask.blueprints import BlueprintSetupState
from flask.views import MethodView
from marshmallow import Schema, validate
from werkzeug.exceptions import ServiceUnavailable

from domain import get_game
from domain.corrections import voided
from domain.errors import TabletapeError
from domain.viewers import Viewer
from service.api.fanout import Batch, End, Hub, Item, Render, Subscription
from service.api.game_shapes import ref
from service.api.requests import (
    HEADER_SPACE,
    MAX_DIGITS,
    MAX_QUERY_INTEGER,
    QueryInteger,
    ascii_int,
)
from service.api.views import (
    TOKEN_HEADER,
    ApiBlueprint,
    bearer_token,
    error_doc,
    reader,
    service,
)
from service.errors import InvalidRequestError
from service.games import GameService, event_json, move_words
from service.store.records import GameRecord, StoredEvent

log = logging.getLogger(__name__)

stream = ApiBlueprint("stream", __name__, description="Follow a game live (Server-Sent Events)")

# How long a browser's EventSource waits before it reconnects (sent as the stream's first line).
RETRY_MS = 2000
# Events read per XRANGE.
_PAGE = 500
# Bytes of a stream's connection's send buffer in the kernel (Linux doubles it): dozens of moves.
_SEND_BUFFER = 16 * 1024
# A client refused for want of a stream slot may retry after this many seconds.
_SLOT_RETRY_AFTER = 5


@dataclass(frozen=True)
class StreamLimits:
    seconds: float
    heartbeat: float


class StreamSlots:
    """The streams one process serves at once, up to its limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0
        self._lock = threading.Lock()

    def acquire(self) -> Callable[[], None] | None:
        """A slot's release (to call once the stream is over), or None when all are taken."""
        with self._lock:
            if self.open >= self.limit:
                return None
            self.open += 1
        released = threading.Event()

        def release() -> None:
            with self._lock:
                if not released.is_set():
                    released.set()
                    self.open -= 1

        return release


@stream.record_once
def _count_streams(state: BlueprintSetupState) -> None:
    state.app.extensions["tabletape.streams"] = StreamSlots(state.app.config["STREAM_LIMIT"])
    state.app.extensions["tabletape.fanout"] = Hub(
        state.app.extensions["tabletape"], state.app.config["STREAM_BACKLOG"]
    )


class StreamQuerySchema(Schema):
    first = QueryInteger(
        data_key="from",
        validate=validate.Range(min=1, max=MAX_QUERY_INTEGER),
        metadata={"description": "the first seq to send, as in GET /events (default: 1)"},
    )
    last_event_id = QueryInteger(
        validate=validate.Range(min=0, max=MAX_QUERY_INTEGER),
        metadata={"description": "the last seq received: as the Last-Event-ID header, which wins"},
    )


_LAST_EVENT_ID = {
    "in": "header",
    "name": "Last-Event-ID",
    "required": False,
    # A seq; blank is no header (_resume_point reads it stripped).
    "schema": {
        "type": "string",
        "pattern": f"^{HEADER_SPACE}*([0-9]{{1,{MAX_DIGITS}}})?{HEADER_SPACE}*$",
    },
    "description": "the last seq received (EventSource sends it when it reconnects):"
    " the stream starts after it",
}

_DESCRIPTION = f"""Server-Sent Events (`text/event-stream`), in this order:

- `retry: {RETRY_MS}` (how long EventSource waits before reconnecting);
- one message per move, in order, from the resume point: `id: <seq>`, `event: move`,
  `data: <the stored event as GET /games/{{id}}/events returns it, plus "version">`
  (`StoredEvent`). Its
  `void` says whether the move is void as of when it is sent: a retraction appended later
  comes as a message of its own (`type` `retract`), and voids the latest move still standing;
- once the game is over (at once if it already is): `event: end`,
  `data: {{"id", "status", "version", "finished_at", "result"}}` (`StreamEnd`), and the stream
  closes.
  Close the EventSource on `end`, or it reconnects and gets the `end` again;
- a comment `: keep-alive` after STREAM_HEARTBEAT seconds (15) without a message.

A stream also closes after STREAM_SECONDS (300) without `end`, and when the client does not read
what it is sent (STREAM_BACKLOG batches of moves wait for it): resume it with `Last-Event-ID`
(EventSource does so itself). A stream opened with a seat's token closes within a second once that
seat's link is replaced (`POST /games/{{id}}/seats/{{seat}}/token`), before its next move: the old
token then gets 401. At most STREAM_LIMIT streams at once per API process (9,000 under
`tabletape serve`'s default gevent worker; 8, and at most half the threads, under gthread): more
are refused with 503 `unavailable`. The schema below is that of one message, as an SSE client
reads it (`event`, `id`, and `data` holding JSON)."""

_EXAMPLE = (
    f"retry: {RETRY_MS}\n\n"
    'id: 1\nevent: move\ndata: {"seq":1,"type":"draw","player":0,'
    '"at":"2025-01-01T12:00:00.000Z","hash":"9f2c...","void":false,"version":1}\n\n'
    ": keep-alive\n\n"
    'event: end\ndata: {"id":"3f2a...","status":"finished","version":87,'
    '"finished_at":"2025-01-01T12:30:00.000Z","result":{"winners":[1],"scores":[12,17]}}\n\n'
)


@stream.route("/games/<game:game_id>/stream", parameters=[_LAST_EVENT_ID, TOKEN_HEADER])
class Stream(MethodView):
    @stream.arguments(StreamQuerySchema, location="query")
    @stream.response(
        200,
        # OpenAPI before 3.2 has the schema of an event stream describe each of its messages.
        ref("StreamMessage"),
        content_type="text/event-stream",
        # An example of the whole stream, in the description: the schema is one message's.
        description=f"{_DESCRIPTION}\n\nA stream:\n\n```\n{_EXAMPLE}```",
    )
    @stream.doc(
        responses={
            "400": error_doc(400, "invalid_request: a resume point that is not a seq of the game"),
            "401": error_doc(401, "unauthorized: a token that is not one of the game's"),
            "404": error_doc(404, "not_found: no such game"),
            "429": error_doc(429, "rate_limited"),
            "503": error_doc(
                503, "unavailable: the store cannot be reached, or too many live streams"
            ),
        }
    )
    def get(self, query: dict[str, Any], game_id: str) -> Any:
        """Follow a game live: its moves as Server-Sent Events, resumable with Last-Event-ID,
        ending with the result."""
        games = service()
        record = games.get(game_id)
        token = bearer_token()
        viewer = reader(record)
        after = _resume_point(query, record)
        slots: StreamSlots = current_app.extensions["tabletape.streams"]
        release = slots.acquire()
        if release is None:
            raise ServiceUnavailable(
                f"this server already serves {slots.limit} live streams: retry in a moment,"
                f" or read GET /games/{game_id}/events",
                retry_after=_SLOT_RETRY_AFTER,
            )
        try:
            limits = StreamLimits(
                seconds=float(current_app.config["STREAM_SECONDS"]),
                heartbeat=float(current_app.config["STREAM_HEARTBEAT"]),
            )
            hub: Hub = current_app.extensions["tabletape.fanout"]
            messages = follow(games, hub, record, viewer, after, limits, _closer(), token)
            response = Response(
                messages,
                mimetype="text/event-stream",
                # X-Accel-Buffering: nginx passes each message on at once.
                headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
            )
        except BaseException:
            release()
            raise
        # The WSGI server closes the response when the stream ends or the client goes away,
        # even if the generator never started.
        response.call_on_close(release)
        return response


def _closer() -> Callable[[], None] | None:
    """What ends this request's connection at once should its follower be dropped, if the server
    gives the connection (gunicorn does): the client reads what was sent, then the stream's end.

    The connection's send buffer is kept small too: what a client that does not read leaves in
    the kernel is bounded as tightly as what it leaves queued here (Linux grows a socket's buffer
    on loopback to megabytes otherwise)."""
    connection = request.environ.get("gunicorn.socket")
    if connection is None:
        return None
    with contextlib.suppress(OSError):
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, _SEND_BUFFER)

    def shut_down() -> None:
        # Through a twin of the descriptor: the socket is shut down all the same, and the
        # follower's write fails as if the client had gone (EPIPE), where gevent's own shutdown
        # would cancel it as a descriptor closed under it (an error in the log).
        with contextlib.suppress(OSError):  # the client is gone already
            twin = socket.fromfd(connection.fileno(), connection.family, connection.type)
            with twin:
                twin.shutdown(socket.SHUT_RDWR)

    return shut_down


def _resume_point(query: dict[str, Any], record: GameRecord) -> int:
    """The last seq the client has: Last-Event-ID, else ?last_event_id=, else ?from= minus 1."""
    header = request.headers.get("Last-Event-ID")
    if header is not None and header.strip():
        seq = ascii_int(header.strip())
        if seq is None:
            raise InvalidRequestError(
                f"Last-Event-ID must be a seq this stream sent (the digits 0-9, at most"
                f" {MAX_DIGITS}), got {header!r}",
                {"Last-Event-ID": "a seq"},
            )
        after, name, given = seq, "Last-Event-ID", header.strip()
    elif "last_event_id" in query:
        after, name, given = query["last_event_id"], "last_event_id", query["last_event_id"]
    elif "first" in query:
        after, name, given = query["first"] - 1, "from", query["first"]
    else:
        return 0
    if after > record.version:
        low, high = (1, record.version + 1) if name == "from" else (0, record.version)
        raise InvalidRequestError(
            f"{name}={given} is past the game's {record.version} events",
            {name: f"{low} to {high}"},
        )
    return after


def follow(
    games: GameService,
    hub: Hub,
    record: GameRecord,
    viewer: Viewer,
    after: int,
    limits: StreamLimits,
    on_drop: Callable[[], None] | None = None,
    token: str | None = None,
) -> Iterator[str]:
    """The stream's messages: the moves after ``after`` as ``viewer`` may read them, live, then
    ``end``; a stream opened with ``token`` closes as soon as the game's header no longer holds
    it (a seat's link replaced, in any process), before it sends another move.

    Each move says whether it is void as of when it is sent, as GET /events would say then. A
    retraction voids the latest move still standing, which the whole record decides: the events
    the client has not seen yet are read and marked here (``_catch_up``); the live ones come from
    the process's feed of the game (``service.api.fanout``), marked and rendered there once for all
    its followers who see the game alike.

    Runs outside the request: it uses only what it is given.
    """
    game = get_game(record.game)
    deadline = time.monotonic() + limits.seconds
    subscription: Subscription | None = None

    def render(event: StoredEvent, void: bool) -> str:
        shown = {**event_json(game, event, viewer), "void": void}
        return _move(
            {**shown, "words": move_words(game, shown, record.players, record.options)}, event.seq
        )

    def admitted(header: GameRecord | None) -> bool:
        """Whether the token is still the game's, as the feed read the header last."""
        return header is None or GameService.admits(header, token, viewer)

    yield f"retry: {RETRY_MS}\n\n"
    try:
        # The bodies of events 1 to ``after``, in order: what decides which moves are void.
        history = [event.body for event in games.events(record, 1, after)] if after else []
        last = yield from _catch_up(games, record, history, after, record.version, render)
        if record.status != "active":
            yield _end(record)
            return
        if time.monotonic() >= deadline:
            yield _TIME_LIMIT
            return
        # The feed sends what follows its own position: what lies between is read here.
        subscription = hub.subscribe(record.id, last, on_drop)
        if not admitted(subscription.feed.header):
            yield _REPLACED
            return
        last = yield from _catch_up(games, record, history, last, subscription.start, render)
        del history
        live = _live(subscription, viewer, render, admitted, last, deadline, limits.heartbeat)
        yield from live
    except redis.RedisError as error:
        log.warning("stream of game %s stopped: the store cannot be reached: %s", record.id, error)
        yield ": the store cannot be reached: resume with Last-Event-ID\n\n"
    except TabletapeError as error:  # an archived game whose archive file is missing
        log.warning("stream of game %s stopped: %s", record.id, error.message)
        yield ": " + " ".join(error.message.splitlines()) + "\n\n"
    finally:
        if subscription is not None:
            hub.unsubscribe(subscription)


_TIME_LIMIT = ": time limit reached: resume with Last-Event-ID\n\n"
_REPLACED = ": this link was replaced: the recorder has the new one\n\n"


def _catch_up(
    games: GameService,
    record: GameRecord,
    history: list[dict[str, Any]],
    last: int,
    until: int,
    render: Render,
) -> Generator[str, None, int]:
    """The moves after ``last`` up to ``until``, read from the stream (XRANGE) or the archive;
    ``history`` (the bodies of the moves up to ``last``) grows by them. Returns the last seq
    sent."""
    while last < until:
        batch = games.events(record, last + 1, min(_PAGE, until - last))
        if not batch:
            break
        history += [event.body for event in batch]
        void = voided(history)
        for event in batch:
            yield render(event, void[event.seq - 1])
        last = batch[-1].seq
    return last


def _live(
    subscription: Subscription,
    viewer: Viewer,
    render: Render,
    admitted: Callable[[GameRecord | None], bool],
    last: int,
    deadline: float,
    heartbeat: float,
) -> Iterator[str]:
    """The moves the feed brings, after ``last``, until the game's end, the time limit, the
    follower is dropped, or its token is no longer ``admitted`` by the header the feed read after
    what it queued; a heartbeat after ``heartbeat`` seconds without a message.

    What was queued is sent in one write: a follower that fell behind (a busy server) catches up
    with one send, not one per move, so its cost per move falls as the load grows."""
    quiet_since = time.monotonic()
    while True:
        now = time.monotonic()
        if now >= deadline:
            yield _TIME_LIMIT
            return
        if now - quiet_since >= heartbeat:
            yield ": keep-alive\n\n"
            quiet_since = now
        taken = subscription.take(min(deadline, quiet_since + heartbeat) - now)
        # Checked after the take: the feed reads the header before it queues events.
        if not admitted(subscription.feed.header):
            yield _REPLACED
            return
        messages, last, over = _messages(taken, viewer, render, last)
        if subscription.dropped and not over:
            messages.append(": this client reads too slowly: resume with Last-Event-ID\n\n")
            over = True
        if messages:
            yield "".join(messages)
            quiet_since = time.monotonic()
        if over:
            return


def _messages(
    items: list[Item], viewer: Viewer, render: Render, last: int
) -> tuple[list[str], int, bool]:
    """The messages of the feed's ``items`` after ``last``, the last seq among them, and whether
    they end the stream (the game's end, or the feed's failure)."""
    messages: list[str] = []
    for item in items:
        if isinstance(item, Batch):
            for seq, message in item.messages(viewer, render):
                if seq > last:
                    messages.append(message)
                    last = seq
        elif isinstance(item, End):
            messages.append(_end(item.record))
            return messages, last, True
        else:
            messages.append(f": {item.message}\n\n")
            return messages, last, True
    return messages, last, False


def _move(shown: dict[str, Any], seq: int) -> str:
    data = orjson.dumps({**shown, "version": seq}).decode()
    return f"id: {seq}\nevent: move\ndata: {data}\n\n"


def _end(record: GameRecord) -> str:
    data = orjson.dumps(
        {
            "id": record.id,
            "status": record.status,
            "version": record.version,
            "finished_at": record.finished_at,
            "result": record.result,
        }
    ).decode()
    return f"event: end\ndata: {data}\n\n"
