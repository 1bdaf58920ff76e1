"""The game nights' pages: an evening's games as a group shares them the next day (what was
played, who won, who won most, a link and a QR code to pass on), and the evenings played."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import render_template, request, url_for

from service.nights.api import zone
from service.nights.evenings import Evening, evening, evenings, parse_evening
from service.pages.addresses import share_address
from service.pages.blueprint import pages, record_name, refuse_parameters_but, service
from service.pages.recorder import qr_address
from service.pages.refusals import refuse_unknown_parameters, refused_with
from service.pages.results import won_words
from service.store.moments import parse_moment
from service.store.records import GameRecord

# The evenings the list of them shows at a time, newest first.
NIGHTS_LISTED = 20


def evening_name(day: date) -> str:
    """``Friday 27 November 2026``."""
    return f"{day:%A} {day.day} {day:%B %Y}"


@pages.route("/nights/<named>/view")
def night_view(named: str) -> str:
    """One evening's games, in the order played, each with its result in words; ``named`` is
    the day it starts on, ``YYYY-MM-DD``."""
    address = url_for("pages.night_view", named=named)
    refuse_parameters_but((), "A game night", address)
    with refused_with("refused.html", title="A game night", address=url_for("pages.nights_view")):
        day = parse_evening(named)
    found = evening(service(), day, zone())
    share = share_address()
    link = share.origin + address
    return render_template(
        "night.html",
        day=day,
        name=evening_name(day),
        games=[night_game(record) for record in found.games],
        summary=night_summary(found) if found.games else "",
        most=most_wins_words(found),
        link=link,
        qr=qr_address(link),
        share=share,
    )


def night_game(record: GameRecord) -> dict[str, Any]:
    """What the evening's page says of one game."""
    finished = parse_moment(record.finished_at)
    return {
        "record": record,
        "title": record_name(record),
        # A line of its own: "The table lost", "Ann won".
        "result": _sentence(won_words(record.result, record.players)),
        "finished": finished.astimezone(zone()).strftime("%H:%M") if finished else "",
    }


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:]


def night_summary(found: Evening) -> str:
    """``4 games of Azul and Hearts, 3 players``."""
    games = len(found.games)
    players = len(found.players())
    titles = and_list([row["title"] for row in found.titles()])
    return (
        f"{games} game{'' if games == 1 else 's'} of {titles},"
        f" {players} player{'' if players == 1 else 's'}"
    )


def most_wins_words(found: Evening) -> str:
    """Who won most, in words: "Cyd won most: 3 of the 4 games", "Ann and Cyd won most: 2 games
    each", or that no game had a winner."""
    names, wins = found.most_wins()
    games = len(found.games)
    if not names:
        return "No one won a game this evening."
    counted = f"{wins} game{'' if wins == 1 else 's'}"
    if len(names) == 1:
        if games == 1:
            return f"{names[0]} won the one game of the evening."
        return f"{names[0]} won most: {wins} of the {games} games."
    return f"{and_list(names)} won most: {counted} each."


def and_list(names: list[str]) -> str:
    """``Ann``, ``Ann and Ben``, ``Ann, Ben and Cyd``."""
    return names[0] if len(names) < 2 else ", ".join(names[:-1]) + " and " + names[-1]


@pages.route("/nights/view")
def nights_view() -> str:
    """The evenings with a game, newest first, paged."""
    with refused_with("refused.html", title="Game nights", address=url_for("pages.nights_view")):
        refuse_unknown_parameters(request.args, ("cursor",))
        given = request.args.get("cursor") or None
        before = parse_evening(given, "cursor") if given is not None else None
    listed, following = evenings(service(), zone(), NIGHTS_LISTED, before)
    return render_template(
        "nights.html",
        nights=[{**row, "name": evening_name(date.fromisoformat(row["date"]))} for row in listed],
        older=url_for("pages.nights_view", cursor=following.isoformat()) if following else None,
        newest=url_for("pages.nights_view") if before is not None else None,
    )


def latest_night() -> dict[str, str] | None:
    """The latest evening with a game, for the front page's link: its address and its name."""
    listed, _ = evenings(service(), zone(), 1)
    if not listed:
        return None
    day = date.fromisoformat(listed[0]["date"])
    return {
        "address": url_for("pages.night_view", named=day.isoformat()),
        "name": evening_name(day),
    }
