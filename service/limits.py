"""Rate limits: a client that sends too many requests gets 429 rate_limited.

Counted per client address and per API process (in memory): a guard against runaway clients, not a
quota. Behind a reverse proxy every client shares the proxy's address: raise or switch off the
limit there (RATE_LIMIT empty).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address


def init_rate_limits(app: Flask, settings: Mapping[str, Any]) -> None:
    limit = settings["RATE_LIMIT"]
    if not limit:
        return
    Limiter(
        get_remote_address,
        app=app,
        default_limits=[limit],
        storage_uri="memory://",
        headers_enabled=True,
    )
