"""The import page: bringing a group's history in from BG Stats or BoardGameGeek."""

from __future__ import annotations

from flask import render_template, url_for

from service.pages.blueprint import _store, pages, refuse_parameters_but
from service.stats.reading import known_players


@pages.route("/import")
def import_history() -> str:
    """Bringing a group's history in: import.js reads the file chosen, shows its plays, maps
    its names to the players known here (``known``), and posts it to /imports/bgstats or
    /imports/bgg."""
    refuse_parameters_but((), "Bring your history", url_for("pages.import_history"))
    client, prefix = _store()
    return render_template("import.html", known=known_players(client, prefix))
