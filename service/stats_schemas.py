"""Marshmallow schemas of the statistics' bodies: they write the OpenAPI document of /stats.

The bodies are built by ``workers.stats`` (``game_stats``, ``player_stats``); these schemas only
describe them. Rates are fractions from 0 to 1, and 0 when there is nothing to divide by.
"""

from __future__ import annotations

from marshmallow import Schema, fields


class PlayerFiguresSchema(Schema):
    games = fields.Integer(
        metadata={"description": "finished games played (a seat held twice counts twice)"}
    )
    wins = fields.Integer(metadata={"description": "games won, a shared victory included"})
    win_rate = fields.Float(metadata={"description": "wins / games"})
    mean_score = fields.Float(metadata={"description": "the mean of the player's scores"})


class ScoresSchema(Schema):
    mean = fields.Float(metadata={"description": "the mean score of every seat of every game"})
    distribution = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={
            "description": "score (as JSON) -> how many seats ended a game with it",
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


class GameStatsSchema(Schema):
    game = fields.String(metadata={"example": "mada"})
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
            " which the game measures its length (Mada: mean_rounds)",
            "example": {"mean_events": 84.5, "mean_rounds": 6.5},
        },
    )
    seat_advantage = fields.Nested(SeatAdvantageSchema)
    extras = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        metadata={
            "description": "the game's own figures (Mada: rounds_per_game, try_luck_loss_rate)",
            "example": {"rounds_per_game": 6.5, "try_luck_loss_rate": 0.31},
        },
    )


class PlayerStatsSchema(PlayerFiguresSchema):
    player = fields.String(metadata={"example": "Ana"})
    by_game = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(PlayerFiguresSchema),
        metadata={"description": "game -> the player's figures in it"},
    )
