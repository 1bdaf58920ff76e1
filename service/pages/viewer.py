"""A game's replay viewer, and the files of a game's own drawing.

The viewer's shell is rendered here (the header, the players, the move list); the board is drawn
in the browser, as SVG, by plain JavaScript (``static/viewer.js``, and the game's own ``<game>.js``
from its package) from the JSON the API serves. The recorder (``service.pages.recorder``) reads a
game's moves, colours and pieces with the helpers here too.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

from flask import Response, abort, render_template, request, send_from_directory, url_for

from domain import get_game
from domain.corrections import voided
from domain.errors import UnknownGameError
from domain.game import Game
from domain.viewers import PUBLIC
from service.api.requests import ascii_int
from service.games import GameService, event_json, move_words
from service.pages.blueprint import pages, refuse_parameters_but, service
from service.signing import Checkpoint, NoSigningKeyError
from service.store.chain import seed_commitment
from service.store.records import GameRecord

# The viewer takes the move it opens at (``?at=``, which viewer.js keeps in the address).
VIEWER_PARAMETERS = ("at",)
# The files a game's package may hand the browser (its drawing and its pictures).
GAME_ASSET = re.compile(r"[a-z0-9_-]+\.(?:js|css|svg|png)")


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
