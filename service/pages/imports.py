"""The import page: bringing a group's history in from BG Stats or BoardGameGeek."""

from __future__ import annotations

from flask import render_template, url_for

from service.pages.blueprint import _store, pages, refuse_parameters_but
from service.players.people import known_names


@pages.route("/import")
def import_history() -> str:
    """Bringing a group's history in: import.js reads the file chosen, shows its plays, maps
    its names to the names known here (``known``: every name a finished game has, a name that
    counts as another person included), and posts it to /imports/bgstats or /imports/bgg."""
    refuse_parameters_but((), "Bring your history", url_for("pages.import_history"))
    client, prefix = _store()
    return render_template("import.html", known=known_names(client, prefix))
