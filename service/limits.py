"""Rate limits: a client that sends too many requests gets 429 rate_limited.

Counted per client address and per API process, in memory, with the ``limits`` library (the engine
of flask-limiter, used directly: the extension's per-request machinery cost more than a whole
append's validation). A guard against runaway clients, not a quota. Behind a reverse proxy every
client shares the proxy's address: raise or switch off the limit there (RATE_LIMIT empty).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any

import limits
from flask import Flask, request
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests


def init_rate_limits(app: Flask, settings: Mapping[str, Any]) -> None:
    if not settings["RATE_LIMIT"]:
        return
    limit = limits.parse(settings["RATE_LIMIT"])
    limiter = FixedWindowRateLimiter(MemoryStorage())

    @app.before_request
    def count_request() -> None:
        client = request.remote_addr or "unknown"
        if not limiter.hit(limit, client):
            # Retry-After: the seconds until this client's window resets (at least 1).
            reset = limiter.get_window_stats(limit, client).reset_time
            raise TooManyRequests(retry_after=max(1, math.ceil(reset - time.time())))
