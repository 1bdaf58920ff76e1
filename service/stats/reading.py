"""The figures as the API and the pages read them: a game's, a player's, head to head, each over
the games a filter lets through, as the contract's JSON.

The archive job writes them (``service.stats.counting``: counted once per finished game;
``service.stats.rebuild``: recomputed from the archive); the API and the pages only read them,
here. Where each figure lies is ``service.stats.keys``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from domain import game_names, get_game
from domain.game import Game
from service.stats.game_figures import Number, PlayFigures
from service.stats.keys import (
    ALL_COUNTS,
    SECTIONS,
    TITLES_SUFFIX,
    YEARS_SUFFIX,
    StatsKeys,
    bucket_suffix,
    game_players_suffix,
    game_suffix,
    own_suffix,
    pair_field,
    pair_suffix,
    player_bucket_suffix,
    player_suffix,
    scores_suffix,
)
from service.stats.periods import DayFilter, periods_covering
from service.store.connection import StoreClient
from service.store.scripts import lua_source


@dataclass(frozen=True)
class StatsFilter:
    """The games a query covers: of ``players`` seats, that ``player`` played in, finished in
    ``days``; None (and an open range) filters nothing. Combined with AND."""

    players: int | None = None
    player: str | None = None
    days: DayFilter = field(default_factory=DayFilter)

    @property
    def empty(self) -> bool:
        return self.players is None and self.player is None and self.days.open

    @property
    def count(self) -> str:
        """The ``<n>`` of the buckets to read: the player count asked for, else ``all``."""
        return ALL_COUNTS if self.players is None else str(self.players)

    def player_counts(self, counted: Iterable[int]) -> list[int]:
        """The ``<n>`` of the per-player buckets to read (they have no ``all``): the count asked
        for, else every count the game's finished games were ``counted`` with."""
        if self.players is not None:
            return [self.players]
        return sorted(counted)


def counted_titles(client: StoreClient, prefix: str) -> dict[str, int]:
    """Title key -> its finished games counted."""
    found = client.hgetall(StatsKeys(prefix).key(TITLES_SUFFIX))
    return {key: int(games) for key, games in found.items() if int(games) > 0}


def stats_games(client: StoreClient, prefix: str) -> list[str]:
    """Every key the statistics may hold figures of: the games with rules (but a game whose
    records all count under their titles), then the titles counted whose key is not one of them
    (``service.stats.titles``)."""
    names = [name for name in game_names() if not get_game(name).records_titles]
    titles = sorted(key for key in counted_titles(client, prefix) if key not in game_names())
    return [*names, *titles]


def game_stats(
    client: StoreClient,
    prefix: str,
    game_name: str,
    filters: StatsFilter | None = None,
    rules: Game[Any] | None = None,
) -> dict[str, Any]:
    """The statistics of one game (a game with rules, or a title's key read with ``rules``,
    those of the game recording it) over the games ``filters`` lets through (UnknownGameError
    if no game has that name); zeros when none finished."""
    game = rules or get_game(game_name)
    keys = StatsKeys(prefix)
    if filters is None or filters.empty:
        # One transaction: the three hashes are read as one count left them.
        with client.pipeline(transaction=True) as pipe:
            pipe.hgetall(keys.key(game_suffix(game_name)))
            pipe.hgetall(keys.key(scores_suffix(game_name)))
            pipe.hgetall(keys.key(game_players_suffix(game_name)))
            totals_raw, scores_raw, players_raw = pipe.execute()
        return _game_json(
            game, _summed([totals_raw]), _summed([scores_raw]), _plays_of(players_raw)
        )
    periods = periods_covering(filters.days, _years(client, keys))
    if filters.player is None:
        suffixes = [
            bucket_suffix(game_name, filters.count, period, section)
            for period in periods
            for section in SECTIONS
        ]
    else:
        suffixes = [
            player_bucket_suffix(game_name, players, period, section, filters.player)
            for players in filters.player_counts(_counts_counted(client, keys, game_name))
            for period in periods
            for section in SECTIONS
        ]
    buckets = [keys.key(suffix) for suffix in suffixes]
    if not buckets:
        return _game_json(game, {}, {}, {})
    # Summed by Redis, in one script: dozens of buckets come back as three hashes.
    summed = _sum(client, buckets, len(SECTIONS))
    totals, scores, plays = (_summed([_pairs(flat)]) for flat in summed)
    return _game_json(game, totals, scores, _plays_of(plays))


def _counts_counted(client: StoreClient, keys: StatsKeys, game_name: str) -> list[int]:
    """The player counts of the games counted under ``game_name``, read from its all-time
    ``players:<n>:games`` fields: not its rules' counts, since a score sheet of its title may seat
    any number, whatever its rules seat."""
    fields = client.hkeys(keys.key(game_suffix(game_name)))
    return [count for name in fields if (count := _games_of_count(name)) is not None]


def _games_of_count(field_name: str) -> int | None:
    """The ``<n>`` of a ``players:<n>:games`` field (the games of n players); None for another."""
    kind, _, rest = field_name.partition(":")
    count, _, what = rest.partition(":")
    return int(count) if kind == "players" and what == "games" else None


def _sum(client: StoreClient, buckets: list[str], sections: int) -> list[list[str]]:
    """Each section's buckets summed field by field, by Redis (``lua/sum_buckets.lua``)."""
    script = client.register_script(lua_source(__package__, "sum_buckets"))
    summed: list[list[str]] = script(keys=buckets, args=[sections])
    return summed


def _pairs(flat: list[str]) -> dict[str, str]:
    return dict(zip(flat[::2], flat[1::2], strict=True))


def _game_json(
    game: Game[Any],
    totals_summed: Mapping[str, Number],
    scores: Mapping[str, Number],
    plays: Mapping[str, PlayFigures],
) -> dict[str, Any]:
    totals = {name: int(value) for name, value in totals_summed.items()}
    # Games of n players, by n: they give the games, and the games each seat held.
    by_count = {
        count: value
        for name, value in totals.items()
        if (count := _games_of_count(name)) is not None
    }
    games = sum(by_count.values())
    seats = max(by_count, default=0)
    games_by_seat = [
        sum(value for count, value in by_count.items() if count > seat) for seat in range(seats)
    ]
    counters = {
        name.removeprefix("counter:"): value
        for name, value in sorted(totals.items())
        if name.startswith("counter:")
    }
    return {
        "game": game.name,
        "games": games,
        "wins": {player: play.wins for player, play in plays.items()},
        "win_rate": {player: _ratio(play.wins, play.games) for player, play in plays.items()},
        "players": {player: _play_json(play) for player, play in plays.items()},
        "scores": _scores_json(scores, games),
        "length": {
            "mean_events": _ratio(totals.get("events", 0), games),
            **{
                f"mean_{name}": _ratio(counters.get(name, 0), games)
                for name in game.length_counters
            },
        },
        "seat_advantage": {
            "first_player_wins": totals.get("first:wins", 0),
            "first_player_win_rate": _ratio(totals.get("first:wins", 0), games),
            "expected_win_rate": _expected_win_rate(totals, games),
            "wins_by_seat": [totals.get(f"seat:{seat}:wins", 0) for seat in range(seats)],
            "games_by_seat": games_by_seat,
        },
        "extras": game.stats_summary(counters, games),
    }


def player_stats(
    client: StoreClient, prefix: str, name: str, filters: StatsFilter | None = None
) -> dict[str, Any]:
    """A player's statistics over every game (of those ``filters`` lets through: its ``player``
    is not read); zeros for a name that never finished a game. The figures across all games have
    no mean score: one game's points and another's have no mean together; each game's has one."""
    keys = StatsKeys(prefix)
    if filters is None or (filters.players is None and filters.days.open):
        by_game = _plays_of(client.hgetall(keys.key(player_suffix(name))))
    else:
        by_game = _filtered_plays(client, keys, name, filters)
    overall = PlayFigures()
    for play in by_game.values():
        overall.games += play.games
        overall.wins += play.wins
    return {
        "player": name,
        **_wins_json(overall),
        "by_game": {game: _play_json(play) for game, play in by_game.items()},
    }


def _filtered_plays(
    client: StoreClient, keys: StatsKeys, name: str, filters: StatsFilter
) -> dict[str, PlayFigures]:
    """The player's own figures per game, summed over the buckets the filters cover: one HMGET
    of their ``own`` hash."""
    periods = periods_covering(filters.days, _years(client, keys))
    fields = [
        (game_name, kind, pair_field(game_name, filters.count, period, kind))
        for game_name in stats_games(client, keys.prefix)
        for period in periods
        for kind in _PLAY_FIELDS
    ]
    if not fields:
        return {}
    found = client.hmget(keys.key(own_suffix(name)), [field for _, _, field in fields])
    by_game: dict[str, PlayFigures] = {}
    for (game_name, kind, _), value in zip(fields, found, strict=True):
        if value is not None:
            play = by_game.setdefault(game_name, PlayFigures())
            setattr(play, kind, getattr(play, kind) + _number(value))
    return {game_name: play for game_name, play in by_game.items() if play.games}


def versus_stats(
    client: StoreClient,
    prefix: str,
    a: str,
    b: str,
    filters: StatsFilter,
    game_name: str | None = None,
) -> dict[str, Any]:
    """Head to head: the finished games both ``a`` and ``b`` played (of ``game_name`` only, if
    given), with each one's wins; a shared victory is a win for each."""
    keys = StatsKeys(prefix)
    names = sorted((a, b))
    wins_field = {a: f"wins:{names.index(a)}", b: f"wins:{names.index(b)}"}
    periods = periods_covering(filters.days, _years(client, keys))
    games = [game_name] if game_name is not None else stats_games(client, keys.prefix)
    fields: list[tuple[str, str]] = []
    for name in games:
        for period in periods:
            for what in ("games", wins_field[a], wins_field[b]):
                fields.append((name, pair_field(name, filters.count, period, what)))
    found = (
        client.hmget(keys.key(pair_suffix(a, b)), [field for _, field in fields]) if fields else []
    )
    sums: dict[str, list[int]] = {name: [0, 0, 0] for name in games}
    for number, ((name, _), value) in enumerate(zip(fields, found, strict=True)):
        sums[name][number % 3] += int(value or 0)
    by_game = {
        name: {"games": games_, "wins": {a: wins_a, b: wins_b}}
        for name, (games_, wins_a, wins_b) in sums.items()
        if games_
    }
    return {
        "players": [a, b],
        "games": sum(figures["games"] for figures in by_game.values()),
        "wins": {
            a: sum(figures["wins"][a] for figures in by_game.values()),
            b: sum(figures["wins"][b] for figures in by_game.values()),
        },
        "by_game": by_game,
    }


def known_players(client: StoreClient, prefix: str) -> list[str]:
    """Every name that has finished a game of any game, sorted: the names a page offers to pick
    from (each game's ``players`` hash has a ``games:<name>`` field per name it counted)."""
    keys = StatsKeys(prefix)
    names: set[str] = set()
    for game_name in stats_games(client, prefix):
        for field_name in client.hkeys(keys.key(game_players_suffix(game_name))):
            kind, _, name = field_name.partition(":")
            if kind == "games":
                names.add(name)
    return sorted(names)


def _years(client: StoreClient, keys: StatsKeys) -> list[int]:
    return sorted(int(year) for year in client.hkeys(keys.key(YEARS_SUFFIX)))


def _summed(hashes: list[Mapping[str, str]]) -> dict[str, Number]:
    """Field by field, the sum of hashes of counts (and of score sums)."""
    total: dict[str, Number] = {}
    for fields in hashes:
        for name, value in fields.items():
            total[name] = total.get(name, 0) + _number(value)
    return total


def _plays_of(fields: Mapping[str, str | Number]) -> dict[str, PlayFigures]:
    """``games:<name>``, ``wins:<name>``, ``unscored:<name>``, ``score:<name>`` fields, gathered
    by name (sorted)."""
    plays: dict[str, PlayFigures] = {}
    for field_name, value in sorted(fields.items()):
        kind, _, name = field_name.partition(":")
        if kind in _PLAY_FIELDS:
            number = _number(value) if isinstance(value, str) else value
            setattr(plays.setdefault(name, PlayFigures()), kind, number)
    return plays


# The fields of a player's figures (``PlayFigures``), as the hashes name them.
_PLAY_FIELDS = ("games", "wins", "unscored", "score")


def _wins_json(play: PlayFigures) -> dict[str, Any]:
    return {"games": play.games, "wins": play.wins, "win_rate": _ratio(play.wins, play.games)}


def _play_json(play: PlayFigures) -> dict[str, Any]:
    """A player's figures in one game: the mean over the numbers written for them, null when
    none was (a game without points), never a 0 that was not scored."""
    mean = play.score / play.scored if play.scored else None
    return {**_wins_json(play), "mean_score": mean}


def _scores_json(histogram: Mapping[str, Number], games: int) -> dict[str, Any]:
    """The mean and distribution of the numbers written; null when games were played and no
    number written in any (a title without points), zeros when no game was."""
    if not histogram and games:
        return {"mean": None, "distribution": None}
    counts = sorted(((json.loads(score), int(seats)) for score, seats in histogram.items()))
    total: Number = sum(score * seats for score, seats in counts)
    return {
        "mean": _ratio(total, sum(seats for _, seats in counts)),
        "distribution": {json.dumps(score): seats for score, seats in counts},
    }


def _expected_win_rate(totals: Mapping[str, int], games: int) -> float:
    """The first player's win rate if no seat had an advantage: the mean of winners / players
    over the games (a shared victory counts for every tied seat, as it does for the first)."""
    shares = sorted(
        (int(name.split(":")[1]), value)
        for name, value in totals.items()
        if name.startswith("players:") and name.endswith(":winners")
    )
    return _ratio(sum(winners / players for players, winners in shares), games)


def _ratio(part: Number, whole: Number) -> float:
    return part / whole if whole else 0.0


def _number(text: str) -> Number:
    # HINCRBYFLOAT writes a whole number without a decimal point: it reads back as an int.
    try:
        return int(text)
    except ValueError:
        return float(text)
