"""Recording at the table: the new-game form, the recorder, the game's links (share page) and
their QR codes.

The recorder, the links page and the new-game form take no parameter: a token travels in the
address's fragment (``#token=``), which never reaches a server.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Mapping
from typing import Any

import segno
from flask import Response, current_app, render_template, request, url_for
from marshmallow import Schema, ValidationError, fields, validate

from domain import game_names, get_game
from service.api.requests import json_body
from service.errors import InvalidRequestError
from service.games import move_words
from service.pages.addresses import share_address
from service.pages.blueprint import pages, refuse_parameters_but, service
from service.pages.refusals import refuse_unknown_parameters
from service.pages.viewer import card_info, drawing_script, listed_events, seat_colours

# The longest text drawn as a QR code: a link with a token is about 100 characters.
MAX_QR_TEXT = 512


@pages.route("/new")
def new_game() -> str:
    """The new-game form: every game and option of the contract; new.js posts it to /games."""
    refuse_parameters_but((), "New game", url_for("pages.new_game"))
    return render_template(
        "new.html",
        games=new_game_choices(),
        suggestions=suggestion_sources(),
        share=share_address(),
    )


def suggestion_sources() -> dict[str, str]:
    """Where a field's suggestions come from (a field's ``suggest``), among the API's paths this
    service answers: a field whose source is missing is a plain one, and asks nothing."""
    paths = {rule.rule for rule in current_app.url_map.iter_rules()}
    return {name: path for name, path in (("titles", "/titles"),) if path in paths}


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
    return render_template("links.html", record=record, share=share_address())


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
