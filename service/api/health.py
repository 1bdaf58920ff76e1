"""GET /health: is the store reachable, and is the archive work done: how many finished games
wait to be counted, how many workers are alive to count them, and which games will not be
counted (their job refused them, or failed). ``degraded`` while a finished game waits with no
worker alive, or will not be counted without a person's help; ``ok`` otherwise."""

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
from service.store.queue import refused_games

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
            failed = queue.failed()
            refused = refused_games(client, current_app.config["KEY_PREFIX"])
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
        archive: dict[str, Any] = {
            "waiting": waiting,
            "workers": workers,
            "failed": failed,
            "refused": refused,
        }
        notes = []
        waits = to_count - failed  # jobs waiting or being run
        if waits and not workers:
            # What a newcomer who served with --no-worker, and saw no figure move, needs to hear.
            # (A worker that keeps dying as it starts is no worker either.)
            notes.append(
                f"{waits} finished game{'s wait' if waits > 1 else ' waits'} to be counted,"
                " and no archive worker runs: start `tabletape worker`, or serve without"
                " --no-worker (or read the log of the one that should run)"
            )
        if failed:
            notes.append(
                f"the archive job of {_games(failed)} failed: the worker's log says why;"
                " `tabletape reconcile` enqueues them again"
            )
        if refused:
            notes.append(
                f"the archive job refused {_games(refused)} whose record does not audit: they"
                " are not counted (GET /games/{id}/audit says why)"
            )
        if notes:
            archive["note"] = "; ".join(notes)
        return json_response(
            {
                "status": "degraded" if notes else "ok",
                "store": {"ok": True},
                # Every finished game not counted: waiting, being counted, failed or refused.
                "finished_games_to_count": to_count + refused,
                "queue": {"archive": archive},
            }
        )


def _games(count: int) -> str:
    return f"{count} finished game{'s' if count > 1 else ''}"
