"""BoardGameGeek's plays (the XML of ``/xmlapi2/plays``), read into plays (api.md, Bringing
history in).

The XML comes from outside: it is parsed by ``defusedxml``, which refuses a DTD and entities
(never expanded: no billion laughs, no external entity reads). One ``<plays>`` holds the
``<play>`` elements of one page or of several pages put together (or the pages' own ``<plays>``,
each keeping its owner). A play is known by its ``id``; ``quantity="N"`` logs N plays at once,
the k-th (k ≥ 2) known by ``<id>/k``. ``<item name objectid>`` gives the title and ``bgg_id``;
``<player name score win startposition>`` the players (in ``startposition`` order when every one
is a whole number; a blank ``name`` is the player's ``username``), their scores and who won;
``nowinstats="1"`` keeps the play out of the win statistics: no winner. A play with no
``<player>`` is the play of the page's owner (``<plays username>``), who logs only the game.
``date`` the day (taken at noon UTC), ``length`` the minutes. BoardGameGeek does not say how a
game scores: a play with scores counts the highest as best, one without any is ranked by its
winners alone.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime
from io import BytesIO
from typing import Any
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException  # type: ignore[import-untyped]
from defusedxml.ElementTree import iterparse  # type: ignore[import-untyped]

from service.imports.plays import (
    Play,
    Repeats,
    Seat,
    Skipped,
    Unreadable,
    check_seats,
    check_title,
    mapped_name,
    read_bgg_id,
    read_or_skip,
    read_score,
)

SOURCE = "bgg"

_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# The most plays one record logs at once: BoardGameGeek's form takes far fewer, and a file of
# huge quantities must not make millions of games out of a few bytes.
_MOST_AT_ONCE = 999


class NotPlaysXml(ValueError):
    """The body is not BoardGameGeek's plays: why, in words."""


def read_plays(data: bytes, names: dict[str, str] | None = None) -> list[Play | Skipped]:
    """Each ``<play>`` of the XML ``data`` read whole, or the reason it cannot be; NotPlaysXml
    for XML with a DTD or entities (never expanded), XML that does not parse, or another root.

    Read as it is parsed: each ``<play>`` of ``<plays>`` is dropped from the tree once read, so
    that the file's tree is never held whole (it would take about 20 times the file). A play of
    ``quantity="N"`` is one ``Play`` of N ``copies`` (``domain.history.each_play``)."""
    names = names or {}
    repeats = Repeats()
    found: list[Play | Skipped] = []
    plays_read = 0
    # The elements open at this point of the document: the root first.
    open_elements: list[Element] = []
    events = iterparse(
        BytesIO(data),
        events=("start", "end"),
        forbid_dtd=True,
        forbid_entities=True,
        forbid_external=True,
    )
    try:
        for event, element in events:
            if event == "start":
                if not open_elements and element.tag != "plays":
                    raise NotPlaysXml(
                        f"the root element is <{element.tag}>: BoardGameGeek's plays are in <plays>"
                    )
                open_elements.append(element)
                continue
            open_elements.pop()
            if element.tag != "play":
                continue
            plays_read += 1
            found += _read_one(plays_read, element, _owner(open_elements), names, repeats)
            if open_elements[-1].tag == "plays":
                # A play of a page (not one inside another's element): read, let go.
                open_elements[-1].remove(element)
    except NotPlaysXml:
        raise
    except DefusedXmlException as error:
        raise NotPlaysXml(
            f"XML with a DTD or entities is refused, never expanded ({type(error).__name__})"
        ) from None
    except ParseError as error:
        raise NotPlaysXml(f"the body is not well-formed XML: {error}") from None
    except (LookupError, ValueError) as error:
        # The XML declaration names an encoding the parser does not know (or cannot read).
        raise NotPlaysXml(f"the XML is in an encoding that cannot be read: {error}") from None
    return found


def _owner(open_elements: list[Element]) -> str | None:
    """The owner of the page a play is read in: the ``username`` of the nearest ``<plays>``
    around it that names one (several pages in one body each keep their own)."""
    for element in reversed(open_elements):
        username = (element.get("username") or "").strip()
        if element.tag == "plays" and username:
            return username
    return None


def _read_one(
    index: int, element: Element, owner: str | None, names: dict[str, str], repeats: Repeats
) -> list[Play | Skipped]:
    """The ``index``-th ``<play>`` (from 1) read whole, as many plays as its ``quantity``, or
    the reason it cannot be: one skip whatever its quantity. ``repeats``: what the plays of the
    file read so far share (titles, days, players), so that this play holds no copy of them."""
    play_id = (element.get("id") or "").strip()
    if not play_id:
        return [Skipped.unknowable(index, "id")]
    if element.get("incomplete") == "1":
        return [Skipped(play_id, "incomplete: BoardGameGeek marks the play incomplete")]
    read = read_or_skip(_play, play_id, element, owner, names, repeats)
    if isinstance(read, Skipped):
        return [read]
    try:
        quantity = _quantity(element.get("quantity"))
    except Unreadable as error:
        return [Skipped(play_id, error.reason)]
    # The same play again, known by <id>/k: each its own game, each known again on a re-import;
    # one play here until each is imported (``each_play``).
    return [read if quantity == 1 else replace(read, copies=quantity)]


def _play(
    play_id: str, element: Element, owner: str | None, names: dict[str, str], repeats: Repeats
) -> Play:
    item = element.find("item")
    if item is None:
        raise Unreadable("the play has no <item>: which game was played is not said")
    title = check_title(repeats.text(item.get("name")))
    players = list(element.iter("player"))
    if all(_position(player) is not None for player in players):
        # A stable sort: players sharing a start position stay in the file's order.
        players.sort(key=lambda player: _position(player) or 0)
    if players:
        seats = [_seat(player, names, repeats) for player in players]
    else:
        seats = [_owner_alone(owner, names)]
    scored = any(seat.score is not None for seat in seats)
    return Play(
        source=SOURCE,
        play_id=play_id,
        title=title,
        bgg_id=repeats.number(read_bgg_id(item.get("objectid"))),
        scoring="highest" if scored else "none",
        cooperative=False,
        uses_teams=False,
        seats=repeats.seats(check_seats(seats)),
        started=_day(element.get("date"), repeats),
        minutes=_minutes(element.get("length")),
        started_as_written=repeats.text(element.get("date")),
        # Kept out of the win statistics: nobody won it, whatever its marks and totals.
        no_winner=element.get("nowinstats") == "1",
        location=repeats.text(element.get("location")),
        comment=element.findtext("comments"),
    )


def _seat(player: Element, names: dict[str, str], repeats: Repeats) -> Seat:
    written = repeats.text(
        (player.get("name") or "").strip() or (player.get("username") or "").strip()
    )
    name = mapped_name(written, names)
    return Seat(
        name=name,
        written=written,
        score=read_score(player.get("score") or "", name),
        winner=player.get("win") == "1",
    )


def _owner_alone(owner: str | None, names: dict[str, str]) -> Seat:
    """The seat of a play logged with no player: the page's owner, who logs only the game,
    with no score and no win."""
    if owner is None:
        raise Unreadable(
            "the play has no players, and the file names no owner (<plays username>) to"
            " whom it would belong"
        )
    return Seat(name=mapped_name(owner, names), score=None, winner=False)


def _quantity(text: str | None) -> int:
    """How many plays one record logs: its ``quantity``, 1 when blank."""
    text = (text or "").strip()
    if not text:
        return 1
    if not (
        text.isascii() and text.isdigit() and len(text) <= 6 and 1 <= int(text) <= _MOST_AT_ONCE
    ):
        raise Unreadable(
            f"its quantity {text!r} is not a number of plays from 1 to {_MOST_AT_ONCE}"
        )
    return int(text)


def _position(player: Element) -> int | None:
    text = (player.get("startposition") or "").strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else None


def _day(text: Any, repeats: Repeats) -> datetime:
    if not isinstance(text, str) or not _DAY.fullmatch(text):
        raise Unreadable(f"its date {text!r} is not a day such as 2019-05-11")
    # One datetime for each day of the file: plays of one evening share it.
    return repeats.day(text, _noon)


def _noon(text: str) -> datetime:
    try:
        return datetime.strptime(text, "%Y-%m-%d").replace(hour=12)
    except ValueError:
        raise Unreadable(f"its date {text!r} is no day of the calendar") from None


def _minutes(text: str | None) -> int:
    text = (text or "").strip()
    if not text:
        return 0
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        raise Unreadable(f"its length {text!r} is not a number of minutes")
    return int(text)
