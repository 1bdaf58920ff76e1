"""GET /nights/{date} (one evening's games, players and titles) and GET /nights (the evenings
played, newest first), read by ``service.nights.evenings``."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from flask import current_app
from flask.views import MethodView
from marshmallow import Schema, fields, validate

from domain.roster import Roster
from domain.viewers import PUBLIC
from service.api.requests import QueryInteger, page_cursor
from service.api.schemas import GameSchema
from service.api.views import ApiBlueprint, error_responses, game_json, service
from service.games import GameService
from service.jsonio import json_response
from service.nights.evenings import evening, evenings, parse_evening
from service.players.store import roster_of

nights = ApiBlueprint(
    "nights", __name__, description="Game nights: the games of an evening, 06:00 to 06:00 in TZ"
)

# A cursor is the date of the last evening of the page before; empty, the first page.
_CURSOR_PATTERN = "^([0-9]{4}-[0-9]{2}-[0-9]{2})?$"


def zone() -> ZoneInfo:
    """The server's time zone (``TZ``), whose clock an evening runs on."""
    return ZoneInfo(current_app.config["TZ"])


def roster() -> Roster:
    """Who counts as whom now: an evening counts people, as the statistics do."""
    return roster_of(current_app.extensions["tabletape.redis"], current_app.config["KEY_PREFIX"])


def _errors(*statuses: int) -> Any:
    descriptions = {400: "invalid_request: a date or cursor not written YYYY-MM-DD"}
    return nights.doc(responses=error_responses(descriptions, *statuses))


class NightPlayerSchema(Schema):
    player = fields.String()
    games = fields.Integer(metadata={"description": "the games they played that evening"})
    wins = fields.Integer(metadata={"description": "the games they won (a shared win counts)"})


class NightTitleSchema(Schema):
    key = fields.String(metadata={"description": "what the statistics count it under"})
    title = fields.String(metadata={"description": "its name, as its first game spelt it"})
    games = fields.Integer()


class NightSchema(Schema):
    date = fields.String(metadata={"format": "date", "description": "the day the evening starts"})
    games = fields.List(
        fields.Nested(GameSchema),
        metadata={"description": "the games finished that evening, in the order played"},
    )
    players = fields.List(
        fields.Nested(NightPlayerSchema), metadata={"description": "most wins first"}
    )
    titles = fields.List(fields.Nested(NightTitleSchema), metadata={"description": "most played"})


class NightsQuerySchema(Schema):
    limit = QueryInteger(validate=validate.Range(min=1, max=100), load_default=20)
    cursor = page_cursor(_CURSOR_PATTERN, " (a date)")


class NightCountSchema(Schema):
    date = fields.String(metadata={"format": "date"})
    games = fields.Integer(metadata={"description": "how many games were finished"})
    players = fields.Integer(metadata={"description": "how many names played"})


class NightsSchema(Schema):
    nights = fields.List(fields.Nested(NightCountSchema), metadata={"description": "newest first"})
    next_cursor = fields.String(allow_none=True)


@nights.route("/nights/<date>")
class Night(MethodView):
    @nights.response(200, NightSchema)
    @_errors(400)
    def get(self, date: str) -> Any:
        """The games finished in one evening, from 06:00 that day to 06:00 the next in the
        server's time zone (``TZ``), in the order played; who played and won how many; the
        titles played. An evening without a game has empty lists."""
        found = evening(service(), parse_evening(date), zone(), roster())
        return json_response(
            {
                "date": found.date.isoformat(),
                # Public, as the listing of games: a game night is shared.
                "games": [
                    game_json(record, GameService.reading_as(record, PUBLIC))
                    for record in found.games
                ],
                "players": found.players(),
                "titles": found.titles(),
            }
        )


@nights.route("/nights")
class Nights(MethodView):
    @nights.arguments(NightsQuerySchema, location="query")
    @nights.response(200, NightsSchema)
    @_errors(400)
    def get(self, query: dict[str, Any]) -> Any:
        """The evenings with at least one game finished, newest first, with how many games and
        players each; paginated by cursor."""
        given = query.get("cursor") or None
        before = parse_evening(given, "cursor") if given is not None else None
        listed, following = evenings(service(), zone(), query["limit"], before, roster())
        return json_response(
            {
                "nights": listed,
                "next_cursor": following.isoformat() if following is not None else None,
            }
        )
