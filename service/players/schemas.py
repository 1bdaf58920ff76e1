"""Marshmallow schemas of the roster's API (``service.players.api``): the body of a join, which
they load, and the answers, which they only describe for the OpenAPI document."""

from __future__ import annotations

from marshmallow import Schema, fields

from service.api.schemas import Name


class SameAsSchema(Schema):
    player = Name(
        required=True,
        metadata={
            "description": "the other name: the one this name counts as from now on (its"
            " player: the other name's own player, if it counts as someone already)",
            "example": "Chloé",
        },
    )


class PersonSchema(Schema):
    player = fields.String(
        metadata={"description": "the name the person is counted under in every statistic"}
    )
    names = fields.List(
        fields.String(),
        metadata={"description": "the player first, then every name that counts as them"},
    )


class PlayerSchema(PersonSchema):
    games = fields.Integer(
        metadata={"description": "finished games played under any of these names"}
    )


class PlayersSchema(Schema):
    players = fields.List(
        fields.Nested(PlayerSchema), metadata={"description": "most games first, then by name"}
    )


class ChangeSchema(Schema):
    at = fields.String(metadata={"description": "when the change was made (UTC, ISO 8601)"})
    name = fields.String()
    player = fields.String(
        allow_none=True,
        metadata={"description": "the name it counts as from then on; null: itself again"},
    )


class ChangesSchema(Schema):
    changes = fields.List(fields.Nested(ChangeSchema), metadata={"description": "oldest first"})
