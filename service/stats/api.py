"""The statistics of finished games: GET /stats/{game}, /players/{name}/stats,
/players/{a}/versus/{b}, /ratings/{game} and /players/{name}/ratings/{game}/history.

The figures and ratings are projections the archive job keeps in Redis
(``service.stats.counting``, ``service.stats.ratings.writing``); a view only reads them, through
the read models (``service.stats.reading``, ``service.stats.ratings.reading``). Errors are raised,
as everywhere: a game named in the path that does not exist is a 404, like an unknown game id; a
malformed filter is a 400.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import redis
from flask import current_app
from flask.views import MethodView

from domain.errors import UnknownGameError
from domain.game import Game
from service.api.requests import ascii_int
from service.api.views import ApiBlueprint, error_responses
from service.errors import InvalidRequestError, NotFoundError
from service.jsonio import json_response
from service.players.store import roster_of
from service.stats.ratings.reading import leaderboard, player_ratings, rating_history
from service.stats.reading import StatsFilter, game_stats, player_stats, versus_stats
from service.stats.schemas import (
    GameStatsQuerySchema,
    GameStatsSchema,
    PlayerStatsQuerySchema,
    PlayerStatsWithRatingsSchema,
    RatingHistorySchema,
    RatingsQuerySchema,
    RatingsSchema,
    TitlesSchema,
    VersusQuerySchema,
    VersusSchema,
    days_of,
)
from service.stats.titles import counts_played, rules_for, titles

stats = ApiBlueprint("stats", __name__, description="Statistics and ratings of finished games")


def _redis() -> tuple[redis.Redis, str]:
    client: redis.Redis = current_app.extensions["tabletape.redis"]
    return client, current_app.config["KEY_PREFIX"]


def _errors(*statuses: int) -> Any:
    """Document the contract's error body for the statuses a view can answer, plus 429 and 503:
    one ``doc`` decorator, as ``service.api.views``'s views have."""
    descriptions = {
        400: "invalid_request: a malformed filter",
        404: "not_found: no game of that name",
    }
    return stats.doc(responses=error_responses(descriptions, *statuses))


def _path_game(name: str) -> Game[Any]:
    """A game (or a title's key) named in the path, and the rules its figures are read with: no
    such game is a 404 naming the closest keys, not a malformed request."""
    client, prefix = _redis()
    try:
        return rules_for(client, prefix, name)
    except UnknownGameError as error:
        raise NotFoundError(error.message, error.details) from None


def applied(query: dict[str, Any]) -> dict[str, Any]:
    """The filters a query applied, by name, as JSON (days as ``YYYY-MM-DD``)."""
    return {
        name: value.isoformat() if isinstance(value, date) else value
        for name, value in sorted(query.items())
        if value is not None
    }


def filters_of(query: dict[str, Any], rules: Game[Any] | None = None) -> StatsFilter:
    """The filters of a query; a player count no game read with ``rules`` can have (none is
    given for the reads across games) is a 400."""
    players = query.get("players")
    counts = counts_played(rules) if rules is not None else None
    if counts is not None and players is not None and players not in counts:
        raise InvalidRequestError(
            f"a game, a score sheet included, has {counts[0]} to {counts[-1]} players,"
            f" not {players}",
            {"players": "out of range"},
        )
    player = query.get("player")
    if player is not None:
        # Any of a person's names filters their games: the figures count people.
        player = person_of(player)
    return StatsFilter(players=players, player=player, days=days_of(query))


def person_of(name: str) -> str:
    """The player ``name`` counts as (``service.players``): itself unless joined to another."""
    client, prefix = _redis()
    return roster_of(client, prefix).player_of(name)


def two_people(a: str, b: str) -> tuple[str, str]:
    """The players ``a`` and ``b`` count as; InvalidRequestError when they are one person (or
    one name): head to head needs two."""
    two_names(a, b)
    first, second = person_of(a), person_of(b)
    if first == second:
        raise InvalidRequestError(
            f"{a} and {b} count as one person ({first}): head to head takes two",
            {"b": "the same person as a"},
        )
    return first, second


def two_names(a: str, b: str) -> None:
    """InvalidRequestError unless ``a`` and ``b`` differ: head to head needs two players."""
    if a == b:
        raise InvalidRequestError(
            "head to head takes two different names", {"b": "the same name as a"}
        )


@stats.route("/stats/<game>")
class GameStats(MethodView):
    @stats.arguments(GameStatsQuerySchema, location="query")
    @stats.response(200, GameStatsSchema)
    @_errors(400, 404)
    def get(self, query: dict[str, Any], game: str) -> Any:
        """Aggregates over the finished games of one game: wins and win rates per player,
        scores, length, seat advantage and the game's own figures (zeros before the first).
        Filters, combined with AND, narrow the games counted: ``players``, ``player``,
        ``since`` and ``until`` (UTC dates of ``finished_at``, both inclusive)."""
        rules = _path_game(game)
        client, prefix = _redis()
        figures = game_stats(client, prefix, game, filters_of(query, rules), rules)
        return json_response({**figures, "filters": applied(query)})


@stats.route("/players/<name:name>/stats")
class PlayerStats(MethodView):
    @stats.arguments(PlayerStatsQuerySchema, location="query")
    @stats.response(200, PlayerStatsWithRatingsSchema)
    @_errors(400)
    def get(self, query: dict[str, Any], name: str) -> Any:
        """A player's figures over every finished game, in all and per game (zeros for a name
        that has finished no game: players are names, not registered accounts), narrowed by
        ``players``, ``since`` and ``until``; and their current rating in each game."""
        client, prefix = _redis()
        roster = roster_of(client, prefix)
        # Answered under the person, whichever of their names is asked.
        player = roster.player_of(name)
        figures = player_stats(client, prefix, player, filters_of(query))
        ratings = player_ratings(client, prefix, player)
        return json_response(
            {
                **figures,
                "names": roster.names_of(player),
                "ratings": ratings,
                "filters": applied(query),
            }
        )


@stats.route("/players/<name:a>/versus/<name:b>")
class Versus(MethodView):
    @stats.arguments(VersusQuerySchema, location="query")
    @stats.response(200, VersusSchema)
    @_errors(400)
    def get(self, query: dict[str, Any], a: str, b: str) -> Any:
        """Head to head: the finished games both ``a`` and ``b`` played, and each one's wins in
        them (a shared victory counts for each), in all and per game; filtered by ``game``,
        ``players``, ``since`` and ``until``."""
        a, b = two_people(a, b)
        game = query.get("game")
        client, prefix = _redis()
        # An unknown game in the query is a 400 (UnknownGameError).
        rules = rules_for(client, prefix, game) if game is not None else None
        figures = versus_stats(client, prefix, a, b, filters_of(query, rules), game)
        return json_response({**figures, "filters": applied(query)})


@stats.route("/ratings/<game>")
class Ratings(MethodView):
    @stats.arguments(RatingsQuerySchema, location="query")
    @stats.response(200, RatingsSchema)
    @_errors(400, 404)
    def get(self, query: dict[str, Any], game: str) -> Any:
        """The players' OpenSkill (Plackett-Luce) ratings in one game, best ``rating`` first
        (``mu - 3 * sigma``), paginated by cursor."""
        _path_game(game)
        given = query.get("cursor") or None
        offset = ascii_int(given) if given is not None else 0
        if offset is None:
            raise InvalidRequestError(
                "cursor must be a next_cursor this endpoint returned", {"cursor": "invalid"}
            )
        client, prefix = _redis()
        page, following = leaderboard(client, prefix, game, query["limit"], offset)
        return json_response(
            {
                "ratings": page,
                "next_cursor": str(following) if following is not None else None,
            }
        )


@stats.route("/players/<name:name>/ratings/<game>/history")
class RatingHistory(MethodView):
    @stats.response(200, RatingHistorySchema)
    @_errors(404)
    def get(self, name: str, game: str) -> Any:
        """The player's rating after each of their finished games of ``game``, oldest first
        (empty for a name never rated in it): the points of a rating-over-time plot."""
        _path_game(game)
        client, prefix = _redis()
        player = person_of(name)
        history = rating_history(client, prefix, player, game)
        return json_response({"player": player, "game": game, "history": history})


@stats.route("/titles")
class Titles(MethodView):
    @stats.response(200, TitlesSchema)
    @_errors()
    def get(self) -> Any:
        """The titles recorded as score sheets with at least one finished game, most games
        first: each with its key (the game it is in every statistic), the spelling and
        BoardGameGeek id of its latest game, and the day that game finished."""
        client, prefix = _redis()
        return json_response({"titles": titles(client, prefix)})
