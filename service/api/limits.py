"""Rate limits: a client that sends too many requests gets 429 rate_limited.

Counted per client address and per API process, in memory, in fixed windows: RATE_LIMIT is parsed
by the ``limits`` library ("100 per second", "1000/hour"), and counted here. (The library's own
in-memory storage starts a timer thread every few requests to expire its counters: on every
append's path, that cost more than the move's validation. A window here is a count and the number
of the window it belongs to; a stale one is reset as it is hit, and swept when many pile up.)
A guard against runaway clients, not a quota. Behind a reverse proxy every client shares the
proxy's address: raise or switch off the limit there (RATE_LIMIT empty).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Mapping
from typing import Any

import limits
from flask import Flask, request
from werkzeug.exceptions import TooManyRequests

# Past this many client addresses, those whose window is over are forgotten.
_SWEEP_ABOVE = 10_000


class FixedWindows:
    """At most ``amount`` hits per client in each window of ``seconds`` (windows aligned on the
    clock), counted in this process."""

    def __init__(self, amount: int, seconds: int) -> None:
        self.amount = amount
        self.seconds = seconds
        # Client -> (the window it was last counted in, its hits in that window).
        self._counts: dict[str, tuple[int, int]] = {}
        self._swept_in = -1
        self._lock = threading.Lock()

    def hit(self, client: str, now: float) -> float | None:
        """Count a hit; None if it is within the limit, else the seconds until the window ends."""
        window = int(now // self.seconds)
        with self._lock:
            counted, hits = self._counts.get(client, (window, 0))
            hits = hits + 1 if counted == window else 1
            if len(self._counts) > _SWEEP_ABOVE and self._swept_in != window:
                self._sweep(window)
            self._counts[client] = (window, hits)
        if hits <= self.amount:
            return None
        return (window + 1) * self.seconds - now

    def _sweep(self, window: int) -> None:
        """Forget the clients not seen in this window (at most once a window)."""
        self._counts = {c: counted for c, counted in self._counts.items() if counted[0] == window}
        self._swept_in = window


def init_rate_limits(app: Flask, settings: Mapping[str, Any]) -> None:
    if not settings["RATE_LIMIT"]:
        return
    limit = limits.parse(settings["RATE_LIMIT"])
    windows = FixedWindows(limit.amount, limit.get_expiry())
    # For the append's own route (``service.api.append_route``), which counts its requests here.
    app.extensions["tabletape.rate_limit"] = windows

    @app.before_request
    def count_request() -> None:
        count(windows, request.remote_addr)


def count(windows: FixedWindows, client: str | None) -> None:
    """Count a request of ``client`` (its address); 429 past the limit."""
    wait = windows.hit(client or "unknown", time.time())
    if wait is not None:
        # Retry-After: the seconds until this client's window ends (at least 1).
        raise TooManyRequests(retry_after=max(1, math.ceil(wait)))
