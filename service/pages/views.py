"""HTML pages for people: the recent games, a game's replay viewer, its recorder (with the
new-game form) and a game's statistics.

A plain Flask blueprint (pages are not API: they are left out of the OpenAPI document). The
viewer's shell is rendered here (the header, the players, the move list); the board is drawn in
the browser, as SVG, by plain JavaScript (``static/viewer.js``, and the game's own ``<game>.js``
from its package) from the JSON the API serves. The statistics are drawn here, as SVG, from the
same projections as ``GET /stats/<game>``.

Nothing on these pages is fetched from outside the service: a Content-Security-Policy says so to
the browser.
"""

from __future__ import annotations

import base64
import io
import json
import re
from collections.abc import Mapping
from importlib import resources
from typing import Any

import redis
import segno
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from marshmallow import Schema, ValidationError, fields, validate

from domain import game_names, get_game
from domain.corrections import voided
from domain.errors import UnknownGameError
from domain.game import Game
from domain.viewers import PUBLIC
from service.api.requests import ascii_int, json_body
from service.errors import InvalidRequestError, NotFoundError
from service.games import GameService, event_json, move_words
from service.pages.bgstats import bgstats_link
from service.pages.plots import bar_plot, line_plot, shown_number
from service.pages.refusals import PageRefusal, answer, refuse_unknown_parameters, refused_with
from service.pages.results import figure_words, outcome_words, result_words, score_words
from service.pages.stats import (
    filter_words,
    head_to_head,
    loaded_query,
    page_filters,
    sent_filters,
    stats_menu,
)
from service.signing import Checkpoint, NoSigningKeyError
from service.stats.api import two_names
from service.stats.ratings.reading import leaderboard, player_ratings, rating_history
from service.stats.reading import game_stats, known_players, player_stats, versus_stats
from service.stats.schemas import GameStatsQuerySchema, PlayerStatsQuerySchema, RatingsQuerySchema
from service.stats.titles import counts_played, rules_for
from service.store.chain import seed_commitment
from service.store.damage import DamagedRecordError
from service.store.indexes import Place
from service.store.records import GameRecord

pages = Blueprint(
    "pages",
    __name__,
    template_folder="templates",
    static_folder="static",
    # Not /static: the app itself answers that path (Flask's default static route).
    static_url_path="/assets",
)

RECENT_GAMES = 30
# The games a player's page lists at a time, newest first.
PLAYER_GAMES = 10
# What the pages take besides the API's filters: the index's and a player's games are paged by
# ``cursor``; ``versus`` names whom a player's head to head is with.
INDEX_PARAMETERS = ("cursor",)
PLAYER_PAGE_PARAMETERS = ("cursor", "versus")
# The viewer takes the move it opens at (``?at=``, which viewer.js keeps in the address); the
# recorder, the links page and the new-game form take nothing: a token travels in the address's
# fragment (``#token=``), which never reaches a server.
VIEWER_PARAMETERS = ("at",)

# The longest text drawn as a QR code: a link with a token is about 100 characters.
MAX_QR_TEXT = 512
# The files a game's package may hand the browser (its drawing and its pictures).
GAME_ASSET = re.compile(r"[a-z0-9_-]+\.(?:js|css|svg|png)")

# Only this service: no CDN, no font or script from elsewhere, no inline script or style.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'self'; form-action 'self'"
)


def service() -> GameService:
    game_service: GameService = current_app.extensions["tabletape"]
    return game_service


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


# The recent games --------------------------------------------------------------------------------
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
    )


# The viewer --------------------------------------------------------------------------------------
@pages.route("/games/<game:game_id>/view")
def viewer(game_id: str) -> str:
    refuse_parameters_but(VIEWER_PARAMETERS, "The game", url_for("pages.viewer", game_id=game_id))
    record = service().get(game_id)
    game = get_game(record.game)
    at, at_problem = _requested_at(record.version)
    # Only the moves around ``at``: a long game's page is as light as a short one's, and
    # viewer.js fetches the others from GET /events as the list is scrolled or stepped through.
    first, last = shown_moves(at, record.version)
    events = listed_events(record, first, last - first + 1)
    colours = seat_colours(record)
    moves = [
        {
            "seq": event["seq"],
            "type": event.get("type"),
            "void": bool(event.get("void")),
            "text": move_words(game, event, record.players, record.options),
        }
        for event in events
    ]
    data = {
        "id": record.id,
        "game": record.game,
        "players": record.players,
        "colours": colours,
        "version": record.version,
        "status": record.status,
        "result": record.result,
        "at": at,
        # The moves carried, from move ``first`` on (the rest are fetched).
        "first": first,
        "moves": [move["text"] for move in moves],
        "types": [move["type"] for move in moves],
        "void": [move["void"] for move in moves],
        "cards": card_info(record),
        # The game's drawing, a module viewer.js imports (none for a game without one).
        "drawing": drawing_script(game),
    }
    if record.over and record.seed_commitment is not None:
        # For viewer.js to check the commitment again; the seed as digits, which a JS Number
        # would round above 2**53.
        data.update(
            seed=str(record.seed),
            seed_salt=record.seed_salt,
            seed_commitment=record.seed_commitment,
        )
    at_move = moves[at - first] if first <= at <= last else None
    return render_template(
        "viewer.html",
        record=record,
        moves=moves,
        first=first,
        last=last,
        at=at,
        colours=colours,
        winners=set((record.result or {}).get("winners", [])),
        data=data,
        status_line=status_line(at, record.version, at_move),
        at_problem=at_problem,
        drawing=drawing_script(game),
        commitment=commitment_check(record),
        signed_note=signed_note(record),
    )


# The moves the viewer's page lists on either side of the move it opens at.
MOVES_AROUND = 50


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


def shown_moves(at: int, version: int) -> tuple[int, int]:
    """The first and last move the viewer's page carries: ``MOVES_AROUND`` either side of
    ``at`` (more on one side when the other reaches an end of the game). ``(1, 0)``, none, for a
    game with no move yet."""
    span = 2 * MOVES_AROUND + 1
    first = max(1, min(at - MOVES_AROUND, version - span + 1))
    return first, min(version, first + span - 1)


def signed_note(record: GameRecord) -> Checkpoint | None:
    """The signed note of a finished game's head, for the viewer's block of it
    (docs/signed-records.md); None while the game is on (the note names the head hash) or when
    the service has no signing key (the page is shown all the same)."""
    if not record.over:
        return None
    try:
        return service().checkpoints.sign(record)
    except NoSigningKeyError:
        return None


def commitment_check(record: GameRecord) -> str:
    """What the viewer of a finished game says of the seed commitment (empty while the game is
    on, and for a record of format 1, which has none)."""
    if not record.over or record.seed_commitment is None:
        return ""
    if seed_commitment(record.seed, record.seed_salt or "") != record.seed_commitment:
        return (
            f"The deck check FAILS: seed {record.seed} with salt {record.seed_salt} does not give"
            f" the commitment {record.seed_commitment} published before the first move."
        )
    return (
        f"The deck was committed to before the first move: SHA-256 of seed {record.seed} and salt"
        f" {record.seed_salt} gives {record.seed_commitment}, the commitment published when the"
        " game was created. Check passed."
    )


def listed_events(
    record: GameRecord, first: int = 1, limit: int | None = None
) -> list[dict[str, Any]]:
    """The game's events (all, or ``limit`` from move ``first``) as GET /games/{id}/events lists
    them to the public (a page is rendered without the token, which stays in the address's
    fragment): with ``void`` where a retraction voided a move, and, until the game is over,
    without what only one seat saw. A record that does not replay is not listed
    (DamagedRecordError)."""
    reader = GameService.reading_as(record, PUBLIC)
    if limit is None:
        if not record.version:
            return []
        return service().events_json(record, 1, record.version, reader)
    if not record.version or limit < 1 or first > record.version:
        return []
    # Whether the record replays: the service's snapshot of the game says so, else a replay.
    service().state(record)
    # Only the moves from ``first`` on are read: whether a move is void depends on the
    # retractions after it alone (a retraction voids the latest move still standing, and the
    # moves from ``first`` on stand above any before them), so the fold of domain/corrections.py
    # over them marks these moves as over the whole record.
    game = get_game(record.game)
    stored = service().events(record, first, record.version - first + 1)
    void = voided([event.body for event in stored])
    return [
        {**event_json(game, event, reader), "void": is_void}
        for event, is_void in zip(stored[:limit], void[:limit], strict=True)
    ]


def drawing_script(game: Game[Any]) -> str | None:
    """The address of the script that draws ``game`` in the browser, if its package has one."""
    if game.browser_assets is None:
        return None
    return url_for("pages.game_asset", game=game.name, filename=f"{game.name}.js")


@pages.route("/assets/games/<game>/<filename>")
def game_asset(game: str, filename: str) -> Response:
    """A file of a game's drawing, from the game's own package (``Game.browser_assets``)."""
    try:
        package = get_game(game).browser_assets
    except UnknownGameError:
        abort(404)
    if package is None or not GAME_ASSET.fullmatch(filename):
        abort(404)
    # A game's package is a folder on disk (installed or editable), so Flask serves from it as
    # from its own static folder: conditional requests, caching headers, no path outside it.
    return send_from_directory(str(resources.files(package)), filename)


def _requested_at(version: int) -> tuple[int, str]:
    """The move the viewer opens at (``?at=``, else the last), and what to say of an ``?at=``
    that names no move of the game: the page then opens at the last, and says so."""
    sent = request.args.get("at")
    at = ascii_int(sent)
    if sent is None or sent == "":
        return version, ""
    if at is None or at > version:
        moves = f"{version} move{'' if version == 1 else 's'}"
        return version, (
            f"There is no move {sent!s:.20} in this game: ?at= takes a move's number from 0 (the"
            f" start) to {version}, and the game has {moves}. Showing the last."
        )
    return at, ""


def status_line(at: int, version: int, move: dict[str, Any] | None) -> str:
    """What the viewer's live region says of move ``at`` (``move``, as listed); viewer.js says
    the same as it steps."""
    if at == 0:
        return f"move 0 of {version}: the start"
    if move is None:
        return f"move {at} of {version}"
    return f"move {at} of {version}: {move['text']}{' (voided)' if move['void'] else ''}"


def seat_colours(record: GameRecord) -> list[str]:
    return get_game(record.game).seat_colours(len(record.players))


def card_info(record: GameRecord) -> dict[str, Any]:
    """What the game's catalog says of the pieces the state names by id (public: the components'
    faces, not who holds what)."""
    game = get_game(record.game)
    return game.catalog_view(game.start(record.header))


# Recording at the table -------------------------------------------------------------------------
@pages.route("/new")
def new_game() -> str:
    """The new-game form: every game and option of the contract; new.js posts it to /games."""
    refuse_parameters_but((), "New game", url_for("pages.new_game"))
    return render_template("new.html", games=new_game_choices(), suggestions=suggestion_sources())


def suggestion_sources() -> dict[str, str]:
    """Where a field's suggestions come from (a field's ``suggest``), among the API's paths this
    service answers: a field whose source is missing is a plain one, and asks nothing."""
    paths = {rule.rule for rule in current_app.url_map.iter_rules()}
    return {name: path for name, path in (("titles", "/titles"),) if path in paths}


@pages.route("/import")
def import_history() -> str:
    """Bringing a group's history in: import.js reads the file chosen, shows its plays, maps
    its names to the players known here (``known``), and posts it to /imports/bgstats or
    /imports/bgg."""
    refuse_parameters_but((), "Bring your history", url_for("pages.import_history"))
    client, prefix = _store()
    return render_template("import.html", known=known_players(client, prefix))


def new_game_choices() -> list[dict[str, Any]]:
    """What the form offers per game: its seats and the fields of its own options."""
    choices: list[dict[str, Any]] = []
    for name in game_names():
        rules = get_game(name)
        fields = rules.option_fields()
        choices.append(
            {
                "name": name,
                "min_players": rules.min_players,
                "max_players": rules.max_players,
                "fields": [field for field in fields if field["kind"] != "hint"],
                # The options it takes: the form sends the shared ones (chance, first_player,
                # catalog) only to a game that takes them, as any other is refused.
                "takes": sorted(option_names(rules.options_schema(rules.min_players))),
                "hints": {
                    field["field"]: field["text"] for field in fields if field["kind"] == "hint"
                },
            }
        )
    # A game that names itself on the form ("Another game: ...") is the catch-all: last.
    choices.sort(key=lambda choice: "game" in choice["hints"])
    return choices


def option_names(schema: Mapping[str, Any]) -> set[str]:
    """The option names a game's options schema lists, in any of its alternatives (oneOf)."""
    names = set(schema.get("properties", {}))
    for key in ("oneOf", "anyOf", "allOf"):
        for branch in schema.get(key, []):
            names |= option_names(branch)
    return names


@pages.route("/qr", methods=["POST"])
def qr_code() -> Response:
    """A link as a QR code (SVG, as a data: address an <img> shows): ``{"text": "..."}`` in,
    ``{"svg": "data:image/svg+xml;base64,..."}`` out. POSTed, since a link may carry a token in
    its fragment, which must never be in an address a server logs. Its body is read as the API
    reads its bodies (service.api.requests): a key given twice, or a field it does not take, is
    a 400."""
    refuse_unknown_parameters(request.args, ())
    try:
        body = QrSchema().load(json_body())
    except ValidationError as error:
        # Each field's first reason, as {"text": "1 to 512 characters"}.
        reasons = {
            field: why[0] if isinstance(why, list) else why
            for field, why in error.normalized_messages().items()
        }
        raise InvalidRequestError(
            f'send {{"text": "..."}}, the link to draw (1 to {MAX_QR_TEXT} characters), and'
            f" nothing else: {'; '.join(f'{field}: {why}' for field, why in reasons.items())}",
            reasons,
        ) from None
    return Response(json.dumps({"svg": qr_address(body["text"])}), mimetype="application/json")


class QrSchema(Schema):
    text = fields.String(
        required=True,
        validate=validate.Length(min=1, max=MAX_QR_TEXT, error=f"1 to {MAX_QR_TEXT} characters"),
    )


def qr_address(text: str) -> str:
    """``text`` drawn as a QR code, as a data: address; 400 for a text that segno cannot encode
    (a lone surrogate has no UTF-8: orjson refuses it in a body, and this says so to any other
    caller)."""
    drawn = io.BytesIO()
    try:
        segno.make(text, error="m").save(drawn, kind="svg", scale=4, border=2, xmldecl=False)
    except (ValueError, segno.DataOverflowError) as error:  # UnicodeEncodeError is a ValueError
        raise InvalidRequestError(
            f"this text cannot be drawn as a QR code: {error}",
            {"text": "text a QR code can hold (UTF-8)"},
        ) from None
    return "data:image/svg+xml;base64," + base64.b64encode(drawn.getvalue()).decode()


@pages.route("/games/<game:game_id>/share")
def links(game_id: str) -> str:
    """The game's links again, with their QR codes, for the recorder (links.js asks the API with
    the recorder's token from the fragment); a seat's link can be replaced here."""
    address = url_for("pages.links", game_id=game_id)
    refuse_parameters_but((), "The game's links", address, token_in_fragment=True)
    record = service().get(game_id)
    return render_template("links.html", record=record)


@pages.route("/games/<game:game_id>/record")
def recorder(game_id: str) -> str:
    """The recorder: the board as the viewer draws it, the legal moves as buttons (record.js)."""
    address = url_for("pages.recorder", game_id=game_id)
    refuse_parameters_but((), "The recorder", address, token_in_fragment=True)
    record = service().get(game_id)
    game = get_game(record.game)
    events = listed_events(record)
    data = {
        "id": record.id,
        "game": record.game,
        "players": record.players,
        "colours": seat_colours(record),
        "version": record.version,
        "status": record.status,
        "result": record.result,
        # A game with chance says how it comes ("seeded", "observed"); one without (a score
        # sheet) says nothing of it.
        "chance": (record.options or {}).get("chance"),
        "moves": [move_words(game, event, record.players, record.options) for event in events],
        "types": [event.get("type") for event in events],
        "void": [bool(event.get("void")) for event in events],
        "cards": card_info(record),
        "chance_fields": dict(game.chance_fields),
        # The game's drawing, a module record.js imports (none for a game without one).
        "drawing": drawing_script(game),
    }
    return render_template(
        "record.html",
        record=record,
        colours=data["colours"],
        data=data,
        drawing=drawing_script(game),
    )


# Statistics ------------------------------------------------------------------------------------
def _store() -> tuple[redis.Redis, str]:
    client: redis.Redis = current_app.extensions["tabletape.redis"]
    return client, current_app.config["KEY_PREFIX"]


def _known_game(name: str) -> Game[Any]:
    """The game (or title) a statistics page names in its path: no such game is a 404 page
    naming the closest."""
    client, prefix = _store()
    try:
        return rules_for(client, prefix, name)
    except UnknownGameError as error:
        raise NotFoundError(error.message, error.details) from None


@pages.route("/stats/<game>/view")
def stats_view(game: str) -> str:
    """A game's statistics as plots, over the games the filters (the API's) let through."""
    rules = _known_game(game)
    sent = sent_filters(request.args, GameStatsQuerySchema())
    form = {
        "sent": sent,
        "seat_counts": list(counts_played(rules)),
        "with_player": True,
    }
    with refused_with("stats.html", game=game, form=form):
        refuse_unknown_parameters(request.args, GameStatsQuerySchema().fields)
        filters = page_filters(sent, GameStatsQuerySchema(), rules)
    client, prefix = _store()
    figures = game_stats(client, prefix, game, filters, rules)
    # A player's link keeps the filters their page takes too.
    carried = {name: value for name, value in sent.items() if name != "player"}
    return render_template(
        "stats.html",
        game=game,
        form=form,
        filtered=filter_words(filters),
        carried=carried,
        figures=figures,
        to_count=current_app.extensions["tabletape.queue"].to_count(),
        **stats_plots(figures),
    )


def stats_plots(figures: dict[str, Any]) -> dict[str, Any]:
    """The three plots of a game's statistics, and its players best first."""
    seats = figures["seat_advantage"]
    # No distribution: games were played and no number written in any (a title without points).
    distribution = figures["scores"]["distribution"]
    score_bars = score_histogram(distribution or {})
    seat_bars = [(f"seat {seat}", wins) for seat, wins in enumerate(seats["wins_by_seat"])]
    length_bars = [(_length_label(name), value) for name, value in figures["length"].items()]
    return {
        "score_plot": bar_plot(
            score_bars,
            x_title="final score",
            y_title="seats",
            summary="; ".join(
                f"score {label}: {_count(seats, 'seat')}" for label, seats in score_bars
            )
            or ("no score written" if distribution is None else "no game finished yet"),
        ),
        "seat_plot": bar_plot(
            seat_bars,
            x_title="seat",
            y_title="wins",
            totals=seats["games_by_seat"],
            summary="; ".join(
                f"{label}: {_count(wins, 'win')} in {_count(games, 'game')}"
                for (label, wins), games in zip(seat_bars, seats["games_by_seat"], strict=True)
            )
            or "no game finished yet",
        ),
        "length_plot": bar_plot(
            length_bars,
            x_title="mean per game",
            y_title="",
            horizontal=True,
            summary="; ".join(f"{label}: {shown_number(value)}" for label, value in length_bars),
        ),
        "players": sorted(figures["players"].items(), key=lambda item: (-item[1]["wins"], item[0])),
    }


@pages.route("/ratings/<game>/view")
def ratings_view(game: str) -> str:
    """A game's leaderboard: GET /ratings/{game}, paged by its cursor."""
    _known_game(game)
    sent = sent_filters(request.args, RatingsQuerySchema())
    with refused_with("ratings.html", game=game):
        refuse_unknown_parameters(request.args, RatingsQuerySchema().fields)
        query = loaded_query(
            sent, RatingsQuerySchema(), "This page of the leaderboard cannot be shown"
        )
    limit, offset = query["limit"], int(query.get("cursor") or 0)
    kept = {"limit": limit} if "limit" in sent else {}
    client, prefix = _store()
    board, following = leaderboard(client, prefix, game, limit, offset)
    return render_template(
        "ratings.html",
        game=game,
        board=[{"rank": offset + number, **row} for number, row in enumerate(board, start=1)],
        next_page=url_for("pages.ratings_view", game=game, cursor=following, **kept)
        if following is not None
        else None,
        first_page=url_for("pages.ratings_view", game=game, **kept) if offset else None,
    )


@pages.route("/players/<name:name>/view")
def player_view(name: str) -> str:
    """A player's games, newest first; their figures per game, ratings, usual opponents, head
    to head with any name (``?versus=``), and rating over time."""
    sent = sent_filters(request.args, PlayerStatsQuerySchema())
    form = {"sent": sent, "seat_counts": _every_seat_count(), "with_player": False}
    client, prefix = _store()
    opponent = request.args.get("versus", "")
    versus_form = {"opponent": opponent, "names": known_players(client, prefix)}
    with refused_with("player.html", name=name, form=form, versus_form=versus_form):
        refuse_unknown_parameters(
            request.args, [*PlayerStatsQuerySchema().fields, *PLAYER_PAGE_PARAMETERS]
        )
        filters = page_filters(sent, PlayerStatsQuerySchema())
        if opponent:
            two_names(name, opponent)
    ratings = player_ratings(client, prefix, name)
    return render_template(
        "player.html",
        name=name,
        form=form,
        versus_form=versus_form,
        filtered=filter_words(filters),
        figures=player_stats(client, prefix, name, filters),
        ratings=ratings,
        duels=head_to_head(client, prefix, name, filters),
        versus=versus_stats(client, prefix, name, opponent, filters) if opponent else None,
        histories={
            game: rating_plot(rating_history(client, prefix, name, game)) for game in ratings
        },
        # The pager keeps the filters and the head to head shown.
        **player_games(name, {**sent, **({"versus": opponent} if opponent else {})}),
    )


def player_games(name: str, kept: dict[str, str]) -> dict[str, Any]:
    """A page of the games ``name`` played, newest first (GET /games?player=NAME's listing and
    cursor), each with its result in words; and the addresses of the next page and the first,
    which keep the parameters ``kept``."""
    # As on the index, a cursor that is not one shows the first page.
    cursor = Place.from_cursor(request.args.get("cursor"))
    found, next_place = service().list(
        game="", status="", player=name, limit=PLAYER_GAMES, cursor=cursor
    )

    def address(**page: Any) -> str:
        return url_for("pages.player_view", name=name, _anchor="played-heading", **kept, **page)

    return {
        "played": [{"record": record, "result": result_words(record, name)} for record in found],
        "older_games": address(cursor=next_place.cursor()) if next_place is not None else None,
        "newest_games": address() if cursor is not None else None,
    }


def _every_seat_count() -> list[int]:
    rules = [get_game(name) for name in game_names()]
    return list(range(min(r.min_players for r in rules), max(r.max_players for r in rules) + 1))


def rating_plot(history: list[dict[str, Any]]) -> dict[str, Any]:
    """A player's rating after each of their games of one game, as a line plot."""
    points = [(point["finished_at"], point["rating"]) for point in history]
    ratings = [rating for _, rating in points]
    summary = (
        f"{_count(len(points), 'game')} rated: {shown_number(round(ratings[0], 2))} after the"
        f" first, {shown_number(round(ratings[-1], 2))} after the last, highest"
        f" {shown_number(round(max(ratings), 2))}"
        if points
        else "no game rated"
    )
    plot = line_plot(points, x_title="games rated, oldest first", y_title="rating", summary=summary)
    # Each point names the game after which the rating stood.
    for number, (shape, point) in enumerate(zip(plot["points"], history, strict=True), start=1):
        shape["game_id"] = point["game_id"]
        shape["title"] = (
            f"after game {number} (finished {point['finished_at'][:16].replace('T', ' ')} UTC):"
            f" rating {shape['shown']}"
        )
    return plot


def _count(value: float, noun: str) -> str:
    return f"{shown_number(value)} {noun}{'' if value == 1 else 's'}"


def score_histogram(distribution: dict[str, int]) -> list[tuple[str, int]]:
    """The score plot's bars: every whole score from the lowest made to the highest, those no one
    made at 0 (a gap is seen, not closed up); scores with a fraction as they are."""
    values = {_score_label(score): count for score, count in distribution.items()}
    whole = [int(label) for label in values if re.fullmatch(r"-?\d+", label)]
    if len(whole) != len(values) or not whole or max(whole) - min(whole) > 200:
        return list(values.items())
    return [(str(score), values.get(str(score), 0)) for score in range(min(whole), max(whole) + 1)]


def _score_label(score: str) -> str:
    value = json.loads(score)
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _length_label(name: str) -> str:
    return name.removeprefix("mean_").replace("_", " ")
