"""The tournaments' pages: the form that makes one (``/tournaments/new``), and a tournament's page
(``/tournaments/<id>/view``): its standings and its current round's tables, for a phone and for a
projector, following the games as they are played.

The page shows what ``GET /tournaments/<id>`` says, drawn in the browser
(``static/tournament-view.js``, which asks again every few seconds). Opened with the organiser's
token in its fragment (``#token=``, never sent to a server), it also shows each table's links with
their QR codes and pairs the next round with one button.
"""

from __future__ import annotations

from flask import current_app, render_template, url_for

from service.pages.blueprint import pages, refuse_parameters_but
from service.pages.recorder import new_game_choices
from service.tournaments.tournaments import Tournaments


@pages.route("/tournaments/new")
def new_tournament() -> str:
    """The form: a name, a game, a format and the players; tournament-new.js posts it."""
    refuse_parameters_but((), "New tournament", url_for("pages.new_tournament"))
    return render_template("tournament_new.html", games=new_game_choices())


@pages.route("/tournaments/<tournament_id>/view")
def tournament_view(tournament_id: str) -> str:
    """A tournament's standings and tables (tournament-view.js keeps them up to date)."""
    address = url_for("pages.tournament_view", tournament_id=tournament_id)
    refuse_parameters_but((), "Tournament", address)
    tournaments: Tournaments = current_app.extensions["tabletape.tournaments"]
    found = tournaments.get(tournament_id)
    return render_template("tournament_view.html", tournament=found.created, id=found.id)
