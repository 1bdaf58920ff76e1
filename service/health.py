"""GET /health: is the store reachable, and how long is the queue."""

from __future__ import annotations

from typing import Any

import redis
from flask import current_app
from flask.views import MethodView

from service.api import ApiBlueprint
from service.jsonio import json_response
from service.schemas import ErrorSchema, HealthSchema

health = ApiBlueprint("health", __name__, description="Service health")


@health.route("/health")
class Health(MethodView):
    @health.response(200, HealthSchema)
    @health.alt_response(503, schema=HealthSchema, description="the store cannot be reached")
    @health.alt_response(429, schema=ErrorSchema, description="rate_limited")
    def get(self) -> Any:
        """200 with the store's state; 503 when Redis is down."""
        client: redis.Redis = current_app.extensions["tabletape.redis"]
        try:
            client.ping()
            waiting = current_app.extensions["tabletape.queue"].waiting()
        except (redis.ConnectionError, redis.TimeoutError) as error:
            message = "the store cannot be reached"
            return json_response(
                {
                    "error": {"code": "unavailable", "message": message, "details": {}},
                    "status": "unavailable",
                    "store": {"ok": False, "error": str(error)},
                },
                503,
            )
        return json_response(
            {"status": "ok", "store": {"ok": True}, "queue": {"archive": {"waiting": waiting}}}
        )
