"""GET /stats/{game} and GET /players/{name}/stats: the statistics of finished games.

The figures are projections the archive job keeps in Redis (``workers.stats``); a view only reads
them. Errors are raised, as everywhere: an unknown game is a 404, like an unknown game id.
"""

from __future__ import annotations

from typing import Any

import redis
from flask import current_app
from flask.views import MethodView

from domain.errors import UnknownGameError
from service.api import RETRY_AFTER, ApiBlueprint
from service.errors import NotFoundError
from service.jsonio import json_response
from service.schemas import ErrorSchema
from service.statistics import game_stats, player_stats
from service.stats_schemas import GameStatsSchema, PlayerStatsSchema

stats = ApiBlueprint("stats", __name__, description="Statistics of finished games")


def _redis() -> tuple[redis.Redis, str]:
    client: redis.Redis = current_app.extensions["tabletape.redis"]
    return client, current_app.config["KEY_PREFIX"]


@stats.route("/stats/<game>")
class GameStats(MethodView):
    @stats.response(200, GameStatsSchema)
    @stats.alt_response(404, schema=ErrorSchema, description="not_found: no game of that name")
    @stats.alt_response(503, schema=ErrorSchema, description="unavailable", headers=RETRY_AFTER)
    @stats.alt_response(429, schema=ErrorSchema, description="rate_limited", headers=RETRY_AFTER)
    def get(self, game: str) -> Any:
        """Aggregates over the finished games of one game: wins and win rates per player,
        scores, length, seat advantage and the game's own figures (zeros before the first)."""
        client, prefix = _redis()
        try:
            return json_response(game_stats(client, prefix, game))
        except UnknownGameError as error:
            # /stats/<game> names a resource: no such game is a 404, not a malformed request.
            raise NotFoundError(error.message, error.details) from None


@stats.route("/players/<name>/stats")
class PlayerStats(MethodView):
    @stats.response(200, PlayerStatsSchema)
    @stats.alt_response(503, schema=ErrorSchema, description="unavailable", headers=RETRY_AFTER)
    @stats.alt_response(429, schema=ErrorSchema, description="rate_limited", headers=RETRY_AFTER)
    def get(self, name: str) -> Any:
        """A player's figures over every finished game, in all and per game (zeros for a name
        that has finished no game: players are names, not registered accounts)."""
        client, prefix = _redis()
        return json_response(player_stats(client, prefix, name))
