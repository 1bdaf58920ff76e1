"""Which evening a game belongs to, and what an evening holds.

An evening is named by the date it starts on and runs from 06:00 that day (included) to 06:00
the next (excluded), on the clock of the time zone ``TZ``: a game finished at 01:30 is the
evening before's. Its games are read from the listing of the finished games by finish time
(``GameService.finished_newest``), from the evening's end back to its start, so an evening costs
its own games (and the games left unfinished in those hours) whatever the history before it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from domain import get_game
from domain.errors import UnknownGameError
from service.errors import InvalidRequestError
from service.games import GameService
from service.store.moments import parse_moment
from service.store.records import GameRecord

# When an evening starts, and so when the one before ends, on the local clock.
EVENING_STARTS = time(6)
_EPOCH = datetime(1970, 1, 1)
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_evening(text: str, field_name: str = "date") -> date:
    """The evening named ``YYYY-MM-DD`` (and only so); a 400 naming ``field_name`` otherwise,
    or for the last day of year 9999, whose evening ends past the calendar."""
    day: date | None = None
    if _DATE.fullmatch(text):
        try:
            day = date.fromisoformat(text)
        except ValueError:  # 2026-02-30
            day = None
    if day is None or day == date.max:
        raise InvalidRequestError(
            f"an evening is named by the date it starts on, written YYYY-MM-DD (such as"
            f" 2026-11-28), not {text[:40]!r}",
            {field_name: "a date written YYYY-MM-DD"},
        )
    return day


def evening_of(finished_at: str | None, zone: ZoneInfo) -> date | None:
    """The evening a game finished at ``finished_at`` (the service's UTC time) belongs to."""
    moment = parse_moment(finished_at)
    if moment is None:
        return None
    local = moment.astimezone(zone)
    # On the local clock: 05:59 is still the evening before.
    return (local.replace(tzinfo=None) - timedelta(hours=EVENING_STARTS.hour)).date()


def evening_bounds(day: date, zone: ZoneInfo) -> tuple[int, int]:
    """The evening ``day`` as milliseconds since 1970 (the listing's times): its start, included,
    and its end, excluded."""

    def millisecond(on: date) -> int:
        wall = datetime.combine(on, EVENING_STARTS)
        offset = wall.replace(tzinfo=zone).utcoffset() or timedelta(0)
        # Counted on naive times: year 1 in a zone east of UTC has no aware UTC time.
        return (wall - offset - _EPOCH) // timedelta(milliseconds=1)

    return millisecond(day), millisecond(day + timedelta(days=1))


@dataclass
class Evening:
    """One evening's games, in the order played (by finish), and who played and won them."""

    date: date
    games: list[GameRecord] = field(default_factory=list)

    def players(self) -> list[dict[str, Any]]:
        """Each name that played, with its games and wins that evening: most wins first, then
        most games, then by name. A name seated twice in one game plays it once."""
        games: Counter[str] = Counter()
        wins: Counter[str] = Counter()
        for record in self.games:
            games.update(set(record.players))
            wins.update(winners_of(record))
        return [
            {"player": name, "games": games[name], "wins": wins[name]}
            for name in sorted(games, key=lambda name: (-wins[name], -games[name], name))
        ]

    def titles(self) -> list[dict[str, Any]]:
        """Each game played (a score sheet's title, or a game with rules), with how many times:
        most played first, then in the order first played."""
        names: dict[str, str] = {}
        counts: Counter[str] = Counter()
        for record in self.games:
            key, name = title_of(record)
            names.setdefault(key, name)
            counts[key] += 1
        # A dict keeps its keys in the order first played; sorted() keeps that order for ties.
        return [
            {"key": key, "title": names[key], "games": counts[key]}
            for key in sorted(names, key=lambda key: -counts[key])
        ]

    def most_wins(self) -> tuple[list[str], int]:
        """Who won most games that evening (several when they tie), and how many; nobody for an
        evening without a win."""
        players = self.players()
        best = players[0]["wins"] if players else 0
        return [row["player"] for row in players if row["wins"] == best and best], best


def winners_of(record: GameRecord) -> set[str]:
    """The names that won ``record`` (each once): the seats its result names."""
    seats = (record.result or {}).get("winners") or []
    return {record.players[seat] for seat in seats if 0 <= seat < len(record.players)}


def title_of(record: GameRecord) -> tuple[str, str]:
    """A game's statistics key and its name for people: a score sheet's title as it was spelt,
    else the game's own name."""
    try:
        rules = get_game(record.game)
    except UnknownGameError:
        return record.game, record.game.title()
    title = rules.title(record.options)
    return (title.key, title.name) if title is not None else (rules.name, record.game.title())


def evening(service: GameService, day: date, zone: ZoneInfo) -> Evening:
    """The games finished in the evening ``day``, in the order played."""
    start, end = evening_bounds(day, zone)
    found = Evening(day)
    for _, record in service.finished_newest(end, since=start):
        if evening_of(record.finished_at, zone) == day:
            found.games.append(record)
    found.games.reverse()
    return found


def evenings(
    service: GameService, zone: ZoneInfo, limit: int, before: date | None = None
) -> tuple[list[dict[str, Any]], date | None]:
    """Up to ``limit`` evenings with a game finished, newest first, before the evening
    ``before`` (all, for None): each ``{"date", "games", "players"}`` (how many of each); and
    the evening the next page starts before, None after the last."""
    top = evening_bounds(before, zone)[0] if before is not None else None
    games: Counter[date] = Counter()
    players: dict[date, set[str]] = {}
    for day, record in _finished_by_evening(service, zone, top):
        if day not in players:
            if len(players) == limit:
                return _listed(games, players), min(players)
            players[day] = set()
        games[day] += 1
        players[day].update(record.players)
    return _listed(games, players), None


def _finished_by_evening(
    service: GameService, zone: ZoneInfo, before: int | None
) -> Iterator[tuple[date, GameRecord]]:
    for _, record in service.finished_newest(before):
        day = evening_of(record.finished_at, zone)
        if day is not None:
            yield day, record


def _listed(games: Counter[date], players: dict[date, set[str]]) -> list[dict[str, Any]]:
    return [
        {"date": day.isoformat(), "games": games[day], "players": len(players[day])}
        for day in sorted(players, reverse=True)
    ]
