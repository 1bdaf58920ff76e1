"""HTTP resources of the tournaments: create one (WRITE_KEY), read it, pair its next round and
withdraw a player (the organiser's token), export it (anyone's once over).

Creating one needs the write key as adding a game does (``service.api.views.ADDS_GAMES``): its
rounds make games."""

from __future__ import annotations

from typing import Any

from flask import current_app, url_for
from flask.views import MethodView

from service.api.tournament_schemas import (
    CreatedTournamentSchema,
    CreateTournamentSchema,
    LinksSchema,
    PairedRoundSchema,
    TournamentSchema,
    WithdrawSchema,
)
from service.api.views import (
    TOKEN_HEADER,
    WRITE_KEY_SECURITY,
    ApiBlueprint,
    bearer_token,
    error_responses,
)
from service.jsonio import json_response
from service.tournaments.plan import checked_plan
from service.tournaments.tournaments import Tournaments

tournaments = ApiBlueprint(
    "tournaments", __name__, description="Tournaments: rounds paired, each table a game"
)

_CODES = {
    400: "invalid_request",
    401: "unauthorized",
    404: "not_found",
    409: "round_in_play (a table of the round before is being played), tournament_finished, or"
    " version_conflict (another organiser pairs at the same moment)",
    413: "too_large",
    422: "impossible_plan: no tables within table_size seat these players (or, for a round,"
    " too few players are left to pair)",
    429: "rate_limited",
    503: "unavailable",
}


def _errors(*statuses: int, security: Any = None) -> Any:
    documented: dict[str, Any] = {"responses": error_responses(_CODES, *statuses)}
    if security is not None:
        documented["security"] = security
    return tournaments.doc(**documented)


def service() -> Tournaments:
    found: Tournaments = current_app.extensions["tabletape.tournaments"]
    return found


@tournaments.route("/tournaments")
class TournamentList(MethodView):
    @tournaments.arguments(CreateTournamentSchema)
    @tournaments.response(201, CreatedTournamentSchema)
    @_errors(400, 401, 413, 422, security=WRITE_KEY_SECURITY)
    def post(self, body: dict[str, Any]) -> Any:
        """Create a tournament; the answer carries the organiser's token, returned only here."""
        plan = checked_plan(
            body["game"], body["options"], body["format"], body["table_size"], body["rounds"],
            len(body["players"]),
        )  # fmt: skip
        created, token = service().create(body["name"], body["players"], body["seed"], plan)
        resource = service().resource(service().played(created))
        headers = {"Location": url_for("tournaments.OneTournament", tournament_id=created.id)}
        return json_response({**resource, "token": token}, 201, headers)


@tournaments.route("/tournaments/<tournament_id>")
class OneTournament(MethodView):
    @tournaments.response(200, TournamentSchema)
    @_errors(404)
    def get(self, tournament_id: str) -> Any:
        """The tournament: its rounds with each table's game and result, the standings, and
        once over its seed."""
        found = service().get(tournament_id)
        return json_response(service().resource(service().played(found)))


@tournaments.route("/tournaments/<tournament_id>/rounds", parameters=[TOKEN_HEADER])
class Rounds(MethodView):
    @tournaments.response(201, PairedRoundSchema)
    @_errors(401, 404, 409, 422)
    def post(self, tournament_id: str) -> Any:
        """Pair the next round (the organiser's token) once every table of the round before is
        over: each table a new game, with its links to hand out."""
        return json_response(service().pair_next(tournament_id, bearer_token()), 201)


@tournaments.route("/tournaments/<tournament_id>/withdraw", parameters=[TOKEN_HEADER])
class Withdraw(MethodView):
    @tournaments.arguments(WithdrawSchema)
    @tournaments.response(200, TournamentSchema)
    @_errors(400, 401, 404, 409, 413)
    def post(self, body: dict[str, Any], tournament_id: str) -> Any:
        """Withdraw a player (the organiser's token): not paired again; their points stay."""
        withdrawn = service().withdraw(tournament_id, bearer_token(), body["player"])
        return json_response(service().resource(service().played(withdrawn)))


@tournaments.route("/tournaments/<tournament_id>/links", parameters=[TOKEN_HEADER])
class Links(MethodView):
    @tournaments.response(200, LinksSchema)
    @_errors(401, 404)
    def get(self, tournament_id: str) -> Any:
        """Every table's tokens again, per round (the organiser's token): the organiser's page
        shows them as links and QR codes."""
        token = bearer_token()
        found = service().get(tournament_id)
        service().organiser(found, token)
        return json_response({"rounds": service().table_links(found, token or "")})


@tournaments.route("/tournaments/<tournament_id>/export", parameters=[TOKEN_HEADER])
class Export(MethodView):
    @tournaments.response(200, TournamentSchema)
    @_errors(401, 404)
    def get(self, tournament_id: str) -> Any:
        """The whole tournament: the resource, its seed, its withdrawals and every table's
        record. Anyone's once it is over; the organiser's while it is on."""
        return json_response(service().export(tournament_id, bearer_token()))
