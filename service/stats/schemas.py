"""Marshmallow schemas of the statistics: their filters, which they load, and their bodies,
which they only describe (for the OpenAPI document of /stats, /players and /ratings).

The bodies are built by the read models (``service.stats.reading``,
``service.stats.ratings.reading``).
Rates are fractions from 0 to 1, and 0 when there is nothing to divide by. A score figure is over
the numbers written only: null where games were played and no number was written (a title without
points).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from service.api.requests import QueryInteger, page_cursor
from service.api.schemas import CURSOR_PATTERN, EXAMPLE_GAME, LookedUpName
from service.stats.periods import DayFilter

# The most seats a filter may name: more than any game seats, few enough to stay a count.
MAX_PLAYERS_FILTER = 100
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class Day(fields.String):
    """A UTC date written ``YYYY-MM-DD``, and only so."""

    default_error_messages = {"invalid": "Not a date written YYYY-MM-DD (e.g. 2025-05-01)."}

    def __init__(self, **kwargs: Any) -> None:
        # The pattern documents the form; _deserialize checks it (validators would see a date).
        documented = {"format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
        super().__init__(metadata={**documented, **kwargs.pop("metadata", {})}, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        text = super()._deserialize(value, attr, data, **kwargs)
        if not _DAY.fullmatch(text):
            raise self.make_error("invalid")
        try:
            return date.fromisoformat(text)
        except ValueError:
            raise self.make_error("invalid") from None


class PlayerStatsQuerySchema(Schema):
    """The filters of a player's statistics; combined with AND, each left out filters nothing."""

    players = QueryInteger(
        validate=validate.Range(min=1, max=MAX_PLAYERS_FILTER),
        metadata={"description": "only games of this many players"},
    )
    since = Day(metadata={"description": "only games finished on this UTC date or later"})
    until = Day(metadata={"description": "only games finished on this UTC date or earlier"})

    @validates_schema
    def _since_before_until(self, data: dict[str, Any], **kwargs: Any) -> None:
        since, until = data.get("since"), data.get("until")
        if since is not None and until is not None and since > until:
            raise ValidationError("since is after until: no day is in that range", "since")


class GameStatsQuerySchema(PlayerStatsQuerySchema):
    player = LookedUpName(
        validate=validate.Length(min=1, max=64),
        metadata={"description": "only games this name played in"},
    )


class VersusQuerySchema(PlayerStatsQuerySchema):
    game = fields.String(
        validate=validate.Length(min=1, max=64),
        metadata={"description": "only games of this game (a name of GET /stats/{game})"},
    )


class RatingsQuerySchema(Schema):
    limit = QueryInteger(validate=validate.Range(min=1, max=100), load_default=20)
    cursor = page_cursor(CURSOR_PATTERN, " (digits)")


def days_of(query: dict[str, Any]) -> DayFilter:
    return DayFilter(query.get("since"), query.get("until"))


class PlayerWinsSchema(Schema):
    games = fields.Integer(
        metadata={"description": "finished games played (a seat held twice counts twice)"}
    )
    wins = fields.Integer(metadata={"description": "games won, a shared victory included"})
    win_rate = fields.Float(metadata={"description": "wins / games"})


class PlayerFiguresSchema(PlayerWinsSchema):
    mean_score = fields.Float(
        allow_none=True,
        metadata={
            "description": "the mean of the numbers written for the player (a null score is no"
            " score); null when none was"
        },
    )


class ScoresSchema(Schema):
    mean = fields.Float(
        allow_none=True,
        metadata={
            "description": "the mean of the numbers written, every seat of every game; null when"
            " games were played and none was written (a title without points)"
        },
    )
    distribution = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        allow_none=True,
        metadata={
            "description": "score (as JSON) -> how many seats ended a game with it (the numbers"
            " written only); null when none was",
            "example": {"7": 3, "12": 1},
        },
    )


class SeatAdvantageSchema(Schema):
    first_player_wins = fields.Integer(
        metadata={"description": "games in which the seat that moved first was among the winners"}
    )
    first_player_win_rate = fields.Float(metadata={"description": "first_player_wins / games"})
    expected_win_rate = fields.Float(
        metadata={
            "description": "the first player's win rate if no seat had an advantage: the mean of"
            " winners / players over the games"
        }
    )
    wins_by_seat = fields.List(fields.Integer(), metadata={"description": "wins of seat 0, 1..."})
    games_by_seat = fields.List(
        fields.Integer(), metadata={"description": "games that had a seat 0, 1..."}
    )


# Every statistics answer says which filters it applied: a figure is never read as unfiltered by
# mistake.
FILTERS_APPLIED = {
    "description": "the filters applied, by name, as read (none: every finished game)",
    "example": {"players": 3, "since": "2026-01-01"},
}


class GameStatsSchema(Schema):
    game = fields.String(metadata={"example": EXAMPLE_GAME})
    filters = fields.Dict(keys=fields.String(), metadata=FILTERS_APPLIED)
    games = fields.Integer(metadata={"description": "finished games counted"})
    wins = fields.Dict(
        keys=fields.String(), values=fields.Integer(), metadata={"description": "player -> wins"}
    )
    win_rate = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        metadata={"description": "player -> wins / games played"},
    )
    players = fields.Dict(keys=fields.String(), values=fields.Nested(PlayerFiguresSchema))
    scores = fields.Nested(ScoresSchema)
    length = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        metadata={
            "description": "mean_events for every game, and mean_<counter> for each counter by"
            " which the game measures its length (mean_rounds, say)",
            "example": {"mean_events": 84.5, "mean_rounds": 6.5},
        },
    )
    seat_advantage = fields.Nested(SeatAdvantageSchema)
    extras = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        metadata={
            "description": "the game's own figures (rounds_per_game, try_luck_loss_rate...)",
            "example": {"rounds_per_game": 6.5, "try_luck_loss_rate": 0.31},
        },
    )


class PlayerStatsSchema(PlayerWinsSchema):
    """A player's figures across all games have no mean score: one game's points and another's
    have no mean together (each game's mean is in ``by_game``)."""

    player = fields.String(
        metadata={
            "example": "Ana",
            "description": "the person asked for: the name they are counted under, whichever"
            " of their names the path gave",
        }
    )
    names = fields.List(
        fields.String(),
        metadata={"description": "the player first, then every name that counts as them"},
    )
    by_game = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(PlayerFiguresSchema),
        metadata={"description": "game -> the player's figures in it"},
    )


class RatingSchema(Schema):
    rating = fields.Float(metadata={"description": "mu - 3 * sigma: what the board ranks by"})
    mu = fields.Float(metadata={"description": "the estimated skill (25 for a new player)"})
    sigma = fields.Float(metadata={"description": "how uncertain mu is (25/3 for a new player)"})
    games = fields.Integer(metadata={"description": "games rated"})


class PlayerStatsWithRatingsSchema(PlayerStatsSchema):
    filters = fields.Dict(keys=fields.String(), metadata=FILTERS_APPLIED)
    ratings = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(RatingSchema),
        metadata={
            "description": "game -> the player's current rating in it (all their games,"
            " whatever the filters)"
        },
    )


class RatedPlayerSchema(RatingSchema):
    player = fields.String(metadata={"example": "Ana"})


class RatingsSchema(Schema):
    ratings = fields.List(
        fields.Nested(RatedPlayerSchema), metadata={"description": "best rating first"}
    )
    next_cursor = fields.String(
        allow_none=True,
        metadata={"description": "the cursor of the next page; null after the last"},
    )


class TitleSchema(Schema):
    key = fields.String(
        metadata={"description": "the title's key: the game it is in every statistic and rating"}
    )
    title = fields.String(metadata={"description": "the spelling of its latest finished game"})
    games = fields.Integer(metadata={"description": "its finished games"})
    bgg_id = fields.Integer(
        allow_none=True, metadata={"description": "its BoardGameGeek id, as its latest game gave"}
    )
    last_played = fields.String(
        metadata={"description": "the UTC day its latest game finished (YYYY-MM-DD)"}
    )


class TitlesSchema(Schema):
    titles = fields.List(fields.Nested(TitleSchema), metadata={"description": "most games first"})


class RatingPointSchema(RatingSchema):
    finished_at = fields.String(metadata={"description": "when the game finished"})
    game_id = fields.String(metadata={"description": "the game after which the rating stood"})


class RatingHistorySchema(Schema):
    player = fields.String(metadata={"example": "Ana"})
    game = fields.String(metadata={"example": EXAMPLE_GAME})
    history = fields.List(
        fields.Nested(RatingPointSchema),
        metadata={"description": "the rating after each of the player's games, oldest first"},
    )


class PairWinsSchema(Schema):
    games = fields.Integer(metadata={"description": "finished games both played"})
    wins = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={
            "description": "name -> wins in those games (a shared victory counts for each)",
            "example": {"Ana": 3, "Ben": 2},
        },
    )


class VersusSchema(PairWinsSchema):
    players = fields.List(fields.String(), metadata={"example": ["Ana", "Ben"]})
    filters = fields.Dict(keys=fields.String(), metadata=FILTERS_APPLIED)
    by_game = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(PairWinsSchema),
        metadata={"description": "game -> the same figures over its games (games they met in)"},
    )
