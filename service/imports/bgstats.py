"""The BG Stats app's backup (its JSON export), read into plays (api.md, Bringing history in).

Field names are the app's: ``players`` (``id``, ``name``), ``games`` (``id``, ``name``,
``bggId``, ``highestWins``, ``noPoints``, ``cooperative``), ``plays`` (``uuid``, ``playDate``,
``durationMin``, ``gameRefId``, ``ignored``, ``usesTeams``, ``playerScores`` with
``playerRefId``, ``score`` as a string, ``winner``, ``seatOrder``, ``team``). Pure: the export's
tables and one play's JSON in, the play or its skip reason out; the file itself is read as a
stream by ``backup_file`` (the API's and the command line's alike).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

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

SOURCE = "bgstats"

# The app writes "2019-05-11 20:15:00" (its local time, taken as UTC); a "T" and no seconds pass.
_PLAY_DATE = re.compile(
    r"([0-9]{4}-[0-9]{2}-[0-9]{2})[ T]([0-9]{2}:[0-9]{2})(:[0-9]{2})?(\.[0-9]+)?"
)


class NotABackup(ValueError):
    """The body is not a BG Stats export: what it lacks, in words (``details``: what the API's
    answer names, else the export itself)."""

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.details = details or {"body": "a BG Stats export"}


def check_lists(kinds: Mapping[str, str]) -> None:
    """NotABackup unless the export's ``players``, ``games`` and ``plays`` are lists (``kinds``:
    the kind of each of its values, as ijson names it)."""
    missing = [
        field for field in ("players", "games", "plays") if kinds.get(field) != "start_array"
    ]
    if missing:
        raise NotABackup(
            f"a BG Stats export has players, games and plays lists; {', '.join(missing)}"
            f" {'is' if len(missing) == 1 else 'are'} missing or not a list"
        )


@dataclass(frozen=True)
class Tables:
    """The export's players, games and locations, by id."""

    players: Mapping[Any, Mapping[str, Any]]
    games: Mapping[Any, Mapping[str, Any]]
    locations: Mapping[Any, Mapping[str, Any]]


def tables_of(items: Mapping[str, list[Any]]) -> Tables:
    """The tables of the export's ``players``, ``games`` and ``locations`` lists."""
    return Tables(_by_id(items["players"]), _by_id(items["games"]), _by_id(items["locations"]))


def read_play(
    index: int,
    raw: Any,
    tables: Tables,
    names: Mapping[str, str],
    repeats: Repeats | None = None,
) -> Play | Skipped | None:
    """Play ``index`` (from 1) of the export read whole, or the reason it cannot be; None for
    a play the app marks ignored (passed over). ``repeats``: what the plays of the file read so
    far share (its seats), so that this play holds no copy of them."""
    if not isinstance(raw, dict):
        return Skipped(None, f"play {index} is not a JSON object")
    if raw.get("ignored") is True:
        return None
    uuid = raw.get("uuid")
    if not isinstance(uuid, str) or not uuid.strip():
        return Skipped.unknowable(index, "uuid")
    if any(unicodedata.category(char) == "Cs" for char in uuid):
        # Half a character (the file is read keeping it): no key, nor answer, can hold it.
        return Skipped(
            None,
            f"play {index}'s uuid {uuid!r} holds a lone surrogate (half a character): it could"
            " not be known again",
        )
    return read_or_skip(_play, uuid, raw, tables, names, repeats or Repeats())


def _by_id(items: list[Any]) -> dict[Any, Mapping[str, Any]]:
    return {
        item["id"]: item
        for item in items
        if isinstance(item, dict) and isinstance(item.get("id"), int | str)
    }


def _play(
    uuid: str,
    raw: Mapping[str, Any],
    tables: Tables,
    names: Mapping[str, str],
    repeats: Repeats,
) -> Play:
    game = tables.games.get(raw.get("gameRefId"))
    if game is None:
        raise Unreadable(
            f"its game (gameRefId {raw.get('gameRefId')!r}) is not in the export's games"
        )
    title = check_title(game.get("name"))
    no_points = game.get("noPoints") is True
    scoring = "none" if no_points else ("lowest" if game.get("highestWins") is False else "highest")
    scores = raw.get("playerScores")
    if not isinstance(scores, list):
        raise Unreadable("its playerScores is not a list")
    seats = [_seat(entry, tables.players, names, no_points) for entry in scores]
    orders = [_seat_order(entry) for entry in scores]
    if len(set(orders)) == len(orders) and any(orders):
        seats = [
            seat for _, seat in sorted(zip(orders, seats, strict=True), key=lambda pair: pair[0])
        ]
    return Play(
        source=SOURCE,
        play_id=uuid,
        title=title,
        bgg_id=read_bgg_id(game.get("bggId")),
        scoring=scoring,
        cooperative=game.get("cooperative") is True,
        uses_teams=raw.get("usesTeams") is True,
        seats=repeats.seats(check_seats(seats)),
        started=_play_date(raw.get("playDate")),
        minutes=_minutes(raw.get("durationMin")),
        started_as_written=raw.get("playDate"),
        location=_location(raw.get("locationRefId"), tables.locations),
        comment=_text(raw.get("comments")),
    )


def _location(ref: Any, locations: Mapping[Any, Mapping[str, Any]]) -> str | None:
    """The name of the location a play's ``locationRefId`` names, if the export holds it."""
    location = locations.get(ref) if isinstance(ref, int | str) else None
    return _text(location.get("name")) if location is not None else None


def _text(value: Any) -> str | None:
    """A location's name or a play's comments, when the file holds a string there."""
    return value if isinstance(value, str) else None


def _seat(
    entry: Any,
    players: Mapping[Any, Mapping[str, Any]],
    names: Mapping[str, str],
    no_points: bool,
) -> Seat:
    if not isinstance(entry, dict):
        raise Unreadable("a player's score is not a JSON object")
    player = players.get(entry.get("playerRefId"))
    if player is None:
        raise Unreadable(
            f"its player (playerRefId {entry.get('playerRefId')!r}) is not in the export's players"
        )
    written = player.get("name")
    name = mapped_name(written, names)
    score = None if no_points else read_score(entry.get("score"), name)
    team = entry.get("team")
    return Seat(
        name=name,
        score=score,
        winner=entry.get("winner") is True,
        written=written,
        team=str(team)
        if isinstance(team, str | int) and not isinstance(team, bool) and team != ""
        else None,
    )


def _seat_order(entry: Any) -> int:
    order = entry.get("seatOrder") if isinstance(entry, dict) else None
    return order if isinstance(order, int) and not isinstance(order, bool) else 0


def _play_date(text: Any) -> datetime:
    shape = _PLAY_DATE.fullmatch(text) if isinstance(text, str) else None
    if shape is None:
        raise Unreadable(
            f"its playDate {text!r} is not a date and time such as 2019-05-11 20:15:00"
        )
    try:
        return datetime.strptime(f"{shape[1]} {shape[2]}{shape[3] or ':00'}", "%Y-%m-%d %H:%M:%S")
    except ValueError:
        raise Unreadable(f"its playDate {text!r} is no day of the calendar") from None


def _minutes(value: Any) -> int:
    if value is None or value == "":
        return 0
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 100_000:
        raise Unreadable(f"its durationMin {value!r} is not a number of minutes")
    return int(value)
