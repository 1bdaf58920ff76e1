"""Marshmallow schemas of the tournaments' requests and answers (``service.api.tournaments``):
they check the bodies and write the tournaments' part of the OpenAPI document."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from service.api.schemas import (
    EXAMPLE_GAME,
    NAME_RULE,
    Name,
    Players,
    check_distinct,
    seed_field,
)
from service.tournaments.plan import MOST_ROUNDS

# How many players a tournament takes.
FEWEST_PLAYERS, MOST_PLAYERS = 2, 256


class TournamentPlayers(Players):
    """A tournament's names: 2 to 256, counted before any name is read (linear time)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, list) and not FEWEST_PLAYERS <= len(value) <= MOST_PLAYERS:
            raise ValidationError(f"{FEWEST_PLAYERS} to {MOST_PLAYERS} names")
        return fields.List._deserialize(self, value, attr, data, **kwargs)


def _not_blank(text: str) -> None:
    if not text.strip():
        raise ValidationError("a name of at least one letter or digit")


class CreateTournamentSchema(Schema):
    name = fields.String(
        required=True,
        validate=[validate.Length(min=1, max=100), _not_blank],
        metadata={"example": "Autumn cup", "description": "1 to 100 characters"},
    )
    game = fields.String(required=True, metadata={"example": EXAMPLE_GAME})
    format = fields.String(
        required=True,
        validate=validate.OneOf(["swiss", "round_robin", "pods"]),
        metadata={"description": "swiss or round_robin (a game of 2), pods (tables of more)"},
    )
    table_size = fields.List(
        fields.Integer(strict=True, validate=validate.Range(min=2, max=100)),
        validate=validate.Length(equal=2),
        load_default=None,
        metadata={"description": "pods: [least, most] players a table, within the game's range"},
    )
    rounds = fields.Integer(
        strict=True,
        validate=validate.Range(min=1, max=MOST_ROUNDS),
        load_default=None,
        metadata={"description": f"swiss and pods: 1 to {MOST_ROUNDS}; not for a round robin"},
    )
    players = TournamentPlayers(
        required=True,
        validate=check_distinct,
        metadata={
            "example": ["Ana", "Ben", "Caro", "Dan", "Eve"],
            "description": f"{FEWEST_PLAYERS} to {MOST_PLAYERS} distinct names: each {NAME_RULE}",
        },
    )
    seed = seed_field(load_default=None)
    options = fields.Dict(
        keys=fields.String(), load_default=dict, metadata={"description": "every table's options"}
    )


class WithdrawSchema(Schema):
    player = Name(required=True)


class TableResultSchema(Schema):
    ranks = fields.List(
        fields.Integer(),
        allow_none=True,
        metadata={"description": "per seat, 1 first; null: no winner"},
    )
    abandoned = fields.Boolean(metadata={"description": "a game lost by everyone at it"})
    points = fields.List(fields.Float(), metadata={"description": "per seat"})


class TableSchema(Schema):
    table = fields.Integer()
    players = fields.List(fields.String(), metadata={"description": "in seat order"})
    game = fields.String(metadata={"description": "the table's game (GET /games/{id})"})
    result = fields.Nested(
        TableResultSchema, allow_none=True, metadata={"description": "null while it is played"}
    )


class RoundSchema(Schema):
    round = fields.Integer()
    tables = fields.List(fields.Nested(TableSchema))
    byes = fields.List(fields.String(), metadata={"description": "who sat out (1 point)"})


class StandingSchema(Schema):
    rank = fields.Integer()
    player = fields.String()
    points = fields.Float()
    opponents_points = fields.Float()
    wins = fields.Integer()
    games = fields.Integer()


class TournamentSchema(Schema):
    id = fields.String()
    name = fields.String()
    game = fields.String()
    options = fields.Dict()
    format = fields.String()
    table_size = fields.List(fields.Integer(), metadata={"description": "pods only"})
    players = fields.List(fields.String())
    seed_commitment = fields.String(
        metadata={"description": 'SHA-256 (hex) of the canonical JSON of {"salt", "seed"}'}
    )
    seed = fields.Integer(metadata={"description": "once the tournament is over"})
    seed_salt = fields.String(metadata={"description": "once the tournament is over"})
    rounds_planned = fields.Integer()
    rules_version = fields.String(
        metadata={"description": "the version of the pairing rules it is paired and checked by"}
    )
    rounds = fields.List(fields.Nested(RoundSchema))
    withdrawn = fields.List(fields.String())
    standings = fields.List(fields.Nested(StandingSchema))
    status = fields.String(validate=validate.OneOf(["active", "finished"]))
    created_at = fields.String()


class CreatedTournamentSchema(TournamentSchema):
    token = fields.String(metadata={"description": "the organiser's secret: returned only here"})


class TableLinksSchema(TableSchema):
    token = fields.String(metadata={"description": "the table's game's recorder's token"})
    seat_tokens = fields.List(fields.String(), metadata={"description": "one per seat"})


class PairedRoundSchema(Schema):
    round = fields.Integer()
    tables = fields.List(fields.Nested(TableLinksSchema))
    byes = fields.List(fields.String())


class LinksSchema(Schema):
    rounds = fields.List(fields.List(fields.Nested(TableLinksSchema)))
