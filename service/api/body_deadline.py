"""A request's body must arrive in full within BODY_SECONDS (30 by default), or it is closed.

A client that sends its headers and then its body a byte at a time, or never, would otherwise
hold a thread (gthread) or a greenlet (gevent) and a connection for as long as it likes. A socket
timeout bounds each wait, not the whole body: a byte every few seconds would pass. So one
watchman per process keeps the deadline of every body being read; past it, the watchman shuts the
socket's reading side. The read then ends short, the request is answered 400 (the body did not
arrive in time), and the connection is closed.

Registering a body is a heap push under a lock: the append's hot path pays about a microsecond,
not a timer per request. The watchman is a daemon thread (a greenlet under gevent, whose
``threading`` is patched), started on the first body a process reads: after gunicorn forks.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import socket
import threading
import time
from typing import Final

# How often the watchman looks: a body is closed at most this late past its deadline.
TICK_SECONDS: Final = 0.25


class BodyDeadlines:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._lock = threading.Lock()
        self._heap: list[tuple[float, int, socket.socket]] = []
        self._done: set[int] = set()
        # The bodies the watchman cut short, until ``done``: their read ended for that reason.
        self._expired: set[int] = set()
        self._numbers = itertools.count()
        self._watchman: threading.Thread | None = None

    def watch(self, connection: socket.socket) -> int:
        """Start the clock on ``connection``'s body; the number to give ``done``."""
        number = next(self._numbers)
        with self._lock:
            heapq.heappush(self._heap, (time.monotonic() + self.seconds, number, connection))
            if self._watchman is None or not self._watchman.is_alive():
                self._watchman = threading.Thread(
                    target=self._watch, name="body deadlines", daemon=True
                )
                self._watchman.start()
        return number

    def done(self, number: int) -> None:
        """The body was read (or the request ended): its deadline no longer counts."""
        with self._lock:
            if number in self._expired:
                self._expired.discard(number)
            else:
                self._done.add(number)

    def expired(self, number: int) -> bool:
        """Whether the watchman closed this body for being late."""
        with self._lock:
            return number in self._expired

    def _watch(self) -> None:
        while True:
            time.sleep(TICK_SECONDS)
            now = time.monotonic()
            late: list[socket.socket] = []
            with self._lock:
                while self._heap and (self._heap[0][1] in self._done or self._heap[0][0] <= now):
                    _, number, connection = heapq.heappop(self._heap)
                    if number in self._done:
                        self._done.discard(number)
                    else:
                        self._expired.add(number)
                        late.append(connection)
            for connection in late:
                # Already closed by the client or the server: nothing left to cut.
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RD)
