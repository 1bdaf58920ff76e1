"""People and their names: POST and DELETE /players/{name}/same-as, GET /players and
GET /players/changes.

A change of the roster is checked (``checks``: a name played under, never two names of one
finished game), logged with its projection (``store``), and answered at once; the statistics
follow within seconds, counted again by the archive queue's recount job (``workers.roster``),
never in the request. ``WRITE_KEY`` guards the changes as it guards adding games
(``service.api.views.adding_games_needs_the_write_key``).
"""

from __future__ import annotations

import logging
from typing import Any

import redis
from flask import current_app
from flask.views import MethodView

from domain.roster import Roster, RosterChange
from service.api.views import WRITE_KEY_SECURITY, ApiBlueprint, error_responses
from service.games.appending import utc_now
from service.jsonio import json_response
from service.players import store
from service.players.checks import known_name, never_together
from service.players.people import people
from service.players.schemas import ChangesSchema, PersonSchema, PlayersSchema, SameAsSchema
from service.store.connection import StoreClient

log = logging.getLogger(__name__)

players = ApiBlueprint(
    "players", __name__, description="People and their names: who counts as whom"
)

_ERRORS = {
    400: 'invalid_request: a body that is not {"player": <a name>}',
    401: "unauthorized: the service sets WRITE_KEY and the request lacks it",
    404: "not_found: no finished game has that name",
    409: "played_together: the two names sat in one finished game (details.game names it)",
    429: "rate_limited",
    503: "unavailable",
}


def _errors(*statuses: int, writes: bool = False) -> Any:
    documented: dict[str, Any] = {"responses": error_responses(_ERRORS, *statuses)}
    if writes:
        documented["security"] = WRITE_KEY_SECURITY
    return players.doc(**documented)


def _redis() -> tuple[StoreClient, str]:
    client: redis.Redis = current_app.extensions["tabletape.redis"]
    return client, current_app.config["KEY_PREFIX"]


def person_json(roster: Roster, name: str) -> dict[str, Any]:
    player = roster.player_of(name)
    return {"player": player, "names": roster.names_of(player)}


def _recount() -> None:
    """Ask the archive queue to count the statistics again under the new roster; best effort:
    the roster is written, and a worker that starts finds the figures behind it."""
    try:
        current_app.extensions["tabletape.queue"].enqueue_roster_recount()
    except redis.RedisError as error:
        log.warning("the recount after a roster change is not queued: %s", error)


@players.route("/players/<name:name>/same-as")
class SameAs(MethodView):
    @players.arguments(SameAsSchema)
    @players.response(200, PersonSchema)
    @_errors(400, 401, 404, 409, writes=True)
    def post(self, body: dict[str, Any], name: str) -> Any:
        """From now on ``name`` counts as ``player`` (its player's name, if it counts as
        someone) in every statistic, rating, head to head and list, and so do the names that
        counted as ``name``; the records keep the names as written. The figures follow within
        seconds (the ratings rated again in the order played)."""
        client, prefix = _redis()
        other = body["player"]
        known_name(client, prefix, name)
        known_name(client, prefix, other)
        change = RosterChange(utc_now(), name, other)
        roster, changed = store.record(
            client,
            prefix,
            change,
            lambda before: never_together(client, prefix, before, name, other),
        )
        if changed:
            _recount()
        return json_response(person_json(roster, name))

    @players.response(200, PersonSchema)
    @_errors(401, 404, writes=True)
    def delete(self, name: str) -> Any:
        """``name`` counts as itself again (the names that counted as it still do)."""
        client, prefix = _redis()
        known_name(client, prefix, name)
        roster, changed = store.record(
            client, prefix, RosterChange(utc_now(), name, None), lambda before: None
        )
        if changed:
            _recount()
        return json_response(person_json(roster, name))


@players.route("/players")
class Players(MethodView):
    @players.response(200, PlayersSchema)
    @_errors()
    def get(self) -> Any:
        """Every person who finished a game: the name they are counted under, every name that
        counts as them, and their finished games, most games first."""
        client, prefix = _redis()
        listed = people(client, prefix, store.roster_of(client, prefix))
        return json_response(
            {
                "players": [
                    {"player": one.player, "names": [one.player, *one.others], "games": one.games}
                    for one in listed
                ]
            }
        )


@players.route("/players/changes")
class Changes(MethodView):
    @players.response(200, ChangesSchema)
    @_errors()
    def get(self) -> Any:
        """Every change of who counts as whom, oldest first: ``player`` the name ``name``
        counted as from ``at`` on, null when it counted as itself again."""
        client, prefix = _redis()
        return json_response(
            {
                "changes": [
                    {"at": change.at, "name": change.name, "player": change.player}
                    for change in store.changes(client, prefix)
                ]
            }
        )
