"""GET /health: is the store reachable, and how long is the queue."""

from __future__ import annotations

import logging
from typing import Any

import redis
from flask import current_app
from flask.views import MethodView

from service.api.schemas import ErrorSchema, HealthSchema
from service.api.views import RETRY_AFTER, ApiBlueprint
from service.errors import STORE_RETRY_AFTER
from service.jsonio import json_response

log = logging.getLogger(__name__)

health = ApiBlueprint("health", __name__, description="Service health")


@health.route("/health")
class Health(MethodView):
    @health.response(200, HealthSchema)
    @health.alt_response(
        503, schema=HealthSchema, description="the store cannot be reached", headers=RETRY_AFTER
    )
    @health.alt_response(429, schema=ErrorSchema, description="rate_limited", headers=RETRY_AFTER)
    def get(self) -> Any:
        """200 with the store's state; 503 when Redis is down."""
        client: redis.Redis = current_app.extensions["tabletape.redis"]
        try:
            client.ping()
            queue = current_app.extensions["tabletape.queue"]
            waiting, to_count, workers = queue.waiting(), queue.to_count(), queue.workers()
        except (redis.ConnectionError, redis.TimeoutError) as error:
            # The store's address stays in the log: the answer is for anyone who asks.
            log.warning("health: the store cannot be reached: %s", error)
            problem = "timed out" if isinstance(error, redis.TimeoutError) else "no connection"
            message = "the store cannot be reached: retry in a moment"
            return json_response(
                {
                    "error": {"code": "unavailable", "message": message, "details": {}},
                    "status": "unavailable",
                    "store": {"ok": False, "error": problem},
                },
                503,
                {"Retry-After": str(STORE_RETRY_AFTER)},
            )
        archive: dict[str, Any] = {"waiting": waiting, "workers": workers}
        if to_count and not workers:
            # What a newcomer who served with --no-worker, and saw no figure move, needs to hear.
            archive["note"] = (
                f"{to_count} finished game{'s wait' if to_count > 1 else ' waits'} to be counted,"
                " and no archive worker runs: start `tabletape worker`, or serve without"
                " --no-worker"
            )
        return json_response(
            {
                "status": "ok",
                "store": {"ok": True},
                "finished_games_to_count": to_count,
                "queue": {"archive": archive},
            }
        )
