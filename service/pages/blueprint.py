"""The pages' blueprint and what every page shares: the store and the games they read, the
headers they are sent with, the names and results their templates write, and how a refused or
missing page is answered.

A plain Flask blueprint (pages are not API: they are left out of the OpenAPI document). Each page,
or group of pages, has its own module beside this one, which adds its routes to ``pages``;
``service.pages.views`` imports them all. Nothing on these pages is fetched from outside the
service: a Content-Security-Policy says so to the browser.
"""

from __future__ import annotations

from typing import Any

import redis
from flask import Blueprint, Response, current_app, request

from domain import get_game
from service.errors import NotFoundError
from service.games import GameService
from service.pages.bgstats import bgstats_link
from service.pages.refusals import PageRefusal, answer, refuse_unknown_parameters, refused_with
from service.pages.results import figure_words, outcome_words, score_words, scores_words
from service.pages.stats import stats_menu
from service.store.damage import DamagedRecordError
from service.store.records import GameRecord

pages = Blueprint(
    "pages",
    __name__,
    template_folder="templates",
    static_folder="static",
    # Not /static: the app itself answers that path (Flask's default static route).
    static_url_path="/assets",
)

# Only this service: no CDN, no font or script from elsewhere, no inline script or style.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'self'; form-action 'self'"
)


def service() -> GameService:
    game_service: GameService = current_app.extensions["tabletape"]
    return game_service


def _store() -> tuple[redis.Redis, str]:
    """The Redis client and key prefix the statistics are read from."""
    client: redis.Redis = current_app.extensions["tabletape.redis"]
    return client, current_app.config["KEY_PREFIX"]


@pages.after_request
def security_headers(response: Response) -> Response:
    if response.mimetype == "text/html":
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        # The token lives in the fragment, which is never sent; no referrer leaks the game's id.
        response.headers["Referrer-Policy"] = "same-origin"
    return response


# "Add to BG Stats" on a finished game's page (templates/add_to_bgstats.html).
pages.add_app_template_global(bgstats_link)
# A result in words, the same on every page that says one (service/pages/results.py).
pages.add_app_template_global(outcome_words)
pages.add_app_template_global(scores_words)
pages.add_app_template_filter(score_words, "score_words")
pages.add_app_template_filter(figure_words, "figure")


@pages.app_template_filter("record_name")
def record_name(record: GameRecord) -> str:
    """A game's name for people: its title for a game of a title (a score sheet of "Azul"), else
    its game's name."""
    title = get_game(record.game).title(record.options)
    return title.name if title is not None else record.game.title()


@pages.app_template_filter("game_name")
def game_name(key: str) -> str:
    """A statistics key's name for people: a title as it was last spelt, a game's name."""
    return dict(stats_menu(*_store())).get(key, key.title())


@pages.context_processor
def site() -> dict[str, Any]:
    client, prefix = _store()
    return {"stats_menu": stats_menu(client, prefix)}


# A page's 400s and 404s: HTML to a browser, the contract's JSON body to anyone else
# (service.pages.refusals).
@pages.errorhandler(NotFoundError)
def not_found(error: NotFoundError) -> Response:
    return answer(error, "not_found.html", message=error.message)


@pages.errorhandler(PageRefusal)
def refused(refusal: PageRefusal) -> Response:
    return answer(refusal.error, refusal.template, **refusal.context)


@pages.errorhandler(DamagedRecordError)
def damaged_record(error: DamagedRecordError) -> Response:
    # Like any refusal: HTML to a browser, the contract's JSON body to any other client.
    return answer(error, "damaged.html", message=error.message)


def refuse_parameters_but(
    known: tuple[str, ...], title: str, address: str, token_in_fragment: bool = False
) -> None:
    """A 400 naming the parameters a page takes (``known``) for any other sent: ``?bogus=1``
    is never shown as if it were not there. ``address`` is the page without parameters, and
    ``token_in_fragment`` says that the page's link carries a token after its ``#``."""
    with refused_with(
        "refused.html", title=title, address=address, token_in_fragment=token_in_fragment
    ):
        refuse_unknown_parameters(request.args, known)
