"""The baseline: a plain Flask app whose append only parses the JSON body and XADDs it to a stream.

No validation, no version check, no hash chain, no state: what any Flask + Redis service pays for
one write, under the same gunicorn, Redis and clients as the API. The route and headers are the
API's, so the clients send byte-for-byte the same requests to both.
"""

from __future__ import annotations

import json
import os
from typing import Any

import redis
from flask import Flask, request


def create_bare_app(config: Any = None) -> Flask:
    app = Flask("tabletape-bare")
    prefix = os.environ.get("TABLETAPE_KEY_PREFIX", "tt:")
    # The client settings of service.app.redis_client: the same connection behaviour as the API.
    client = redis.Redis.from_url(
        os.environ["REDIS_URL"], decode_responses=True, socket_timeout=5, socket_connect_timeout=2
    )

    @app.post("/games/<game_id>/events")
    def append(game_id: str) -> Any:
        event = request.get_json()
        entry_id = client.xadd(f"{prefix}bare:{{{game_id}}}:events", {"body": json.dumps(event)})
        return {"id": entry_id}, 201

    @app.get("/health")
    def health() -> Any:
        # "app" lets the bench check that it started the server it meant to.
        client.ping()
        return {"status": "ok", "app": "bare"}

    return app
