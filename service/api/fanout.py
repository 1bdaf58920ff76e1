"""Fan-out of live games to their followers: one Redis reader per process and per followed game.

A follower of a live game (GET /games/{id}/stream) subscribes to the process's ``Hub``. The hub
keeps one ``GameFeed`` per game that has followers here: a background thread (a greenlet under
gunicorn's gevent worker, which patches ``threading``) doing XREAD BLOCK on the game's stream
from the last seq it has, on a connection of its own (on a Redis Cluster, to the node serving the
game's slot: ``EventStore.blocking_client``). The first follower of a game starts its feed; the
last one leaving stops it, within one blocking read. So the Redis connections of a process grow
with the games followed here, never with the followers.

Each batch of new events is put, once, in every subscriber's bounded queue. A batch is rendered
once per kind of viewer (recorder, public, seat k), by whichever follower of that kind needs it
first, not once per follower: ``Batch.messages``. A subscriber whose queue is full (a client that
does not read) is dropped: it is told so, its connection is shut down, and the client resumes
with Last-Event-ID, losing nothing; nothing is ever buffered for it without bound.

The feed also reads the game's header after each blocking read, before it queues what the read
brought (``GameFeed.header``): each follower checks that its token is still the game's before it
sends anything taken from its queue, so that a seat's replaced link, replaced in any process, ends
the streams opened with it within a second, before the seat's next move reaches them. Once the game
is over the feed puts the rest of its events and ``End`` in the queues, and stops. A store that
cannot be reached, or a record that does not read, ends the feed with ``Failure``: its followers
end their streams and resume later.

Only threading objects are used (``threading.Lock``, ``threading.Event``, ``collections.deque``):
the same code runs under threads (gthread) and under gevent's greenlets.
"""

from __future__ import annotations

import logging
import os
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import redis

from domain.corrections import voided
from domain.errors import TabletapeError
from domain.viewers import Viewer
from service.games import GameService
from service.store.records import GameRecord, StoredEvent

log = logging.getLogger(__name__)

# The longest single XREAD BLOCK of a feed: how long a feed whose followers all left lingers.
BLOCK_MS = 1000
# Events read per XREAD.
PAGE = 500

# Renders one event (with whether it is void) for one viewer: a stream's message.
Render = Callable[[StoredEvent, bool], str]


@dataclass
class Batch:
    """New events of a game, in order, each with whether it is void as of this batch; rendered
    once per viewer and shared by every follower (``messages``)."""

    events: list[StoredEvent]
    void: list[bool]
    _rendered: dict[Viewer, list[tuple[int, str]]] = field(default_factory=dict)

    def messages(self, viewer: Viewer, render: Render) -> list[tuple[int, str]]:
        """(seq, message) of each event, as ``viewer`` may read it. Two threads asking at once
        may both render: the same text, the second kept."""
        shown = self._rendered.get(viewer)
        if shown is None:
            shown = [(e.seq, render(e, v)) for e, v in zip(self.events, self.void, strict=True)]
            self._rendered[viewer] = shown
        return shown


@dataclass(frozen=True)
class End:
    """The game is over: ``record`` as it ended. The last item of a feed."""

    record: GameRecord


@dataclass(frozen=True)
class Failure:
    """The feed stopped before the game's end (the store cannot be reached, a damaged record):
    the followers end their streams and resume later."""

    message: str


Item = Batch | End | Failure


def reader_name(game_id: str, pid: int | None = None) -> str:
    """The name of the Redis connection reading ``game_id`` for process ``pid`` (default: this
    one): CLIENT LIST tells the feeds of each process."""
    return f"tabletape-{pid or os.getpid()}-feed-{game_id}"


class Subscription:
    """One follower's place in a feed: a bounded queue of what it has not sent yet.

    The feed puts items (``offer``); the follower takes them all at once (``take``). ``start``
    is the last seq the feed had when the follower joined: the queue holds exactly what follows
    it. Once ``dropped``, nothing more is put, and the follower ends its stream.
    """

    def __init__(
        self, feed: GameFeed, start: int, backlog: int, on_drop: Callable[[], None] | None
    ) -> None:
        self.feed = feed
        self.start = start
        self.dropped = False
        self._backlog = backlog
        self._on_drop = on_drop
        self._items: deque[Item] = deque()
        self._ready = threading.Event()

    def offer(self, item: Item) -> bool:
        """Queue ``item``; False, and the subscription is dropped, if its queue is full."""
        if len(self._items) >= self._backlog:
            self.dropped = True
            self._ready.set()
            if self._on_drop is not None:
                self._on_drop()
            return False
        self._items.append(item)
        self._ready.set()
        return True

    def wake(self) -> None:
        """End the follower's wait at once, with nothing queued: the game's tokens changed."""
        self._ready.set()

    def take(self, timeout: float) -> list[Item]:
        """What is queued, waiting up to ``timeout`` seconds for something if nothing is."""
        if not self._items and not self.dropped:
            self._ready.wait(timeout)
        # Cleared before the queue is emptied: an item put meanwhile sets it again.
        self._ready.clear()
        taken = []
        while self._items:
            taken.append(self._items.popleft())
        return taken


class GameFeed:
    """The one reader of a game's new events in this process, and who it feeds."""

    def __init__(self, hub: Hub, game_id: str, last: int) -> None:
        self.hub = hub
        self.game_id = game_id
        # The last seq put in the queues: a follower joining now gets what follows it.
        self.last = last
        # The game's header as last read, after the events queued so far: whose tokens may still
        # read them. None until the feed has read it.
        self.header: GameRecord | None = None
        self.subscriptions: set[Subscription] = set()
        # Set (under the hub's lock) once the feed has left the hub: no one joins it any more.
        self.stopped = False
        self.thread = threading.Thread(target=self._run, name=f"feed {game_id}", daemon=True)

    def _run(self) -> None:
        games, store = self.hub.games, self.hub.games.store
        reader: redis.Redis | None = None
        try:
            record = self._read_header()
            # The bodies of every event so far: what decides which moves are void.
            history = [event.body for event in games.events(record, 1, self.last)]
            while not self.stopped:
                if record.status != "active":
                    rest = record.version - self.last
                    self._publish(history, games.events(record, self.last + 1, rest))
                    self._finish(End(record))
                    return
                if reader is None:
                    reader = store.blocking_client(self.game_id, reader_name(self.game_id))
                batch = store.wait_events(self.game_id, self.last, BLOCK_MS, client=reader,
                                          count=PAGE)  # fmt: skip
                if self.stopped:
                    return
                # Read after the batch, before it is queued: a link replaced before its events
                # were appended is known to the followers before they take them. Has the game
                # ended? (Its last move and "finished" are one write.)
                record = self._read_header()
                self._publish(history, batch)
        except redis.RedisError as error:
            log.warning("the feed of game %s stopped: the store cannot be reached: %s",
                        self.game_id, error)  # fmt: skip
            self._finish(Failure("the store cannot be reached: resume with Last-Event-ID"))
        except TabletapeError as error:
            log.warning("the feed of game %s stopped: %s", self.game_id, error.message)
            self._finish(Failure(" ".join(error.message.splitlines())))
        except Exception:
            # Its followers end their streams and resume; the process goes on.
            if not self.stopped:
                log.exception("the feed of game %s failed", self.game_id)
            self._finish(Failure("the server failed: resume with Last-Event-ID"))
        finally:
            if reader is not None:
                reader.connection_pool.disconnect()

    def _read_header(self) -> GameRecord:
        """The game's header from the store, kept as ``header``; when its tokens changed (a
        seat's link replaced), every follower is woken to check its own."""
        record = self.hub.games.get(self.game_id)
        known = self.header
        self.header = record
        if known is None or _tokens(known) != _tokens(record):
            with self.hub.lock:
                for subscription in self.subscriptions:
                    subscription.wake()
        return record

    def _publish(self, history: list[dict[str, Any]], events: list[StoredEvent]) -> None:
        if not events:
            return
        history += [event.body for event in events]
        batch = Batch(events, voided(history)[-len(events) :])
        with self.hub.lock:
            for subscription in list(self.subscriptions):
                if not subscription.offer(batch):
                    log.info("a follower of game %s reads too slowly: dropped", self.game_id)
                    self.hub.leave(subscription)
            self.last = events[-1].seq

    def _finish(self, item: End | Failure) -> None:
        """Put the feed's last item in every queue, and leave the hub."""
        with self.hub.lock:
            for subscription in list(self.subscriptions):
                subscription.offer(item)
            self.subscriptions.clear()
            self.hub.forget(self)


def _tokens(record: GameRecord) -> tuple[str, list[str]]:
    return record.token_sha256, record.seat_tokens_sha256


class Hub:
    """The feeds of one process, by game id."""

    def __init__(self, games: GameService, backlog: int) -> None:
        self.games = games
        # Items a follower may have queued and not sent yet before it is dropped.
        self.backlog = backlog
        self.lock = threading.Lock()
        self._feeds: dict[str, GameFeed] = {}

    def subscribe(
        self, game_id: str, last: int, on_drop: Callable[[], None] | None = None
    ) -> Subscription:
        """Follow ``game_id``: the subscription gets every event after its ``start``. A new feed
        starts at ``last`` (the follower's position); a running one where it is.
        ``on_drop`` is called if the follower is dropped for reading too slowly."""
        with self.lock:
            feed = self._feeds.get(game_id)
            started = feed is None
            if feed is None:
                feed = self._feeds[game_id] = GameFeed(self, game_id, last)
            subscription = Subscription(feed, feed.last, self.backlog, on_drop)
            feed.subscriptions.add(subscription)
        if started:
            feed.thread.start()
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self.lock:
            self.leave(subscription)

    def leave(self, subscription: Subscription) -> None:
        """(Under the lock.) The follower leaves its feed; the feed stops once no one is left."""
        feed = subscription.feed
        feed.subscriptions.discard(subscription)
        if not feed.subscriptions:
            self.forget(feed)

    def forget(self, feed: GameFeed) -> None:
        """(Under the lock.) The feed stops: the next follower of its game starts another."""
        feed.stopped = True
        if self._feeds.get(feed.game_id) is feed:
            del self._feeds[feed.game_id]

    def feeds(self) -> dict[str, GameFeed]:
        """The running feeds, by game id (a copy)."""
        with self.lock:
            return dict(self._feeds)
