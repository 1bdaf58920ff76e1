"""The tournaments' pages: the form that makes one (``/tournaments/new``), and a tournament's page
(``/tournaments/<id>/view``): its standings and its current round's tables, for a phone and for a
projector, following the games as they are played.

A blueprint of its own, dressed as the other pages are (the site's menu, the security headers,
HTML refusals): the page shows what ``GET /tournaments/<id>`` says, drawn in the browser
(``static/tournament-view.js``, which asks again every few seconds). Opened with the organiser's
token in its fragment (``#token=``, never sent to a server), it also shows each table's links with
their QR codes and pairs the next round with one button.
"""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, url_for

from service.errors import NotFoundError
from service.pages.refusals import PageRefusal
from service.pages.views import (
    damaged_record,
    new_game_choices,
    not_found,
    refuse_parameters_but,
    refused,
    security_headers,
    site,
)
from service.store.damage import DamagedRecordError
from service.tournaments.tournaments import Tournaments

tournament_pages = Blueprint("tournament_pages", __name__, template_folder="templates")
tournament_pages.after_request(security_headers)
tournament_pages.context_processor(site)
tournament_pages.errorhandler(NotFoundError)(not_found)
tournament_pages.errorhandler(DamagedRecordError)(damaged_record)
tournament_pages.errorhandler(PageRefusal)(refused)


@tournament_pages.route("/tournaments/new")
def new_tournament() -> str:
    """The form: a name, a game, a format and the players; tournament-new.js posts it."""
    refuse_parameters_but((), "New tournament", url_for("tournament_pages.new_tournament"))
    return render_template("tournament_new.html", games=new_game_choices())


@tournament_pages.route("/tournaments/<tournament_id>/view")
def tournament_view(tournament_id: str) -> str:
    """A tournament's standings and tables (tournament-view.js keeps them up to date)."""
    refuse_parameters_but((), "Tournament", url_for(
        "tournament_pages.tournament_view", tournament_id=tournament_id
    ))  # fmt: skip
    tournaments: Tournaments = current_app.extensions["tabletape.tournaments"]
    found = tournaments.get(tournament_id)
    return render_template("tournament_view.html", tournament=found.created, id=found.id)
