"""The front page: the recent games, newest first, paged by the listing's cursor, and the way to
the latest game night."""

from __future__ import annotations

from flask import render_template, request, url_for

from service.pages.blueprint import pages, service
from service.pages.nights import latest_night
from service.pages.refusals import refuse_unknown_parameters, refused_with
from service.store.indexes import Place

RECENT_GAMES = 30
# What the front page takes: its games are paged by ``cursor``.
INDEX_PARAMETERS = ("cursor",)


@pages.route("/")
def index() -> str:
    with refused_with("refused.html", title="Recent games", address=url_for("pages.index")):
        refuse_unknown_parameters(request.args, INDEX_PARAMETERS)
    # A page for people: a cursor that is not one shows the first page.
    found, next_place = service().list(
        game="",
        status="",
        player="",
        limit=RECENT_GAMES,
        cursor=Place.from_cursor(request.args.get("cursor")),
    )
    return render_template(
        "index.html",
        games=found,
        next_cursor=next_place.cursor() if next_place is not None else None,
        latest_night=latest_night(),
    )
