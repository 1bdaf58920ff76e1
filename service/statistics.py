"""The statistics' read model: where the figures lie in Redis, and the API's JSON of them.

The archive job writes them (``workers.stats``: counted once per finished game, rebuilt from the
archive); the API and the pages only read them, through this module, and so never import the
workers.

Keys, all under ``<prefix>{stats}`` (one hash tag: one script or one MULTI may touch them all, and
in a Redis Cluster they share a slot, on one master). A rebuild writes under
``<prefix>{stats}rebuild-<hex>``, whose hash tag is the same ``{stats}``: the count script, which
writes either root, and the rebuild's swap, which renames one root's keys onto the other's, each
touch one slot, so each stays one atomic step on a cluster too. The figures are small (a hash per
game, per player), and written once per finished game: one slot holds them well.

- ``:counted`` set: the ids of the games counted, the guard that admits each game once;
- ``:index`` set: the suffix of every figure key written, so that a rebuild knows what it replaces;
- ``:game:<game>`` hash: ``games``, ``events``, ``seat:<i>:games``, ``seat:<i>:wins``,
  ``first:wins``, ``players:<n>:games``, ``players:<n>:winners`` and ``counter:<name>``;
- ``:game:<game>:scores`` hash: a score (as JSON) -> how many seats ended a game with it;
- ``:game:<game>:players`` hash: ``games:<player>``, ``wins:<player>``, ``score:<player>``;
- ``:player:<player>`` hash: ``games:<game>``, ``wins:<game>``, ``score:<game>``.

Every figure is an integer summed with HINCRBY, exact in any order, so a rebuild that counts the
games in another order ends with the same figures. Score sums are the exception: HINCRBYFLOAT, so a
game may score in floats; integer scores (Mada's) stay exact, float ones are exact up to rounding.
A player seated twice in one game counts two plays.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain import get_game
from service.connection import StoreClient

# The hash tag every statistics key carries; a rebuild writes under ``{stats}rebuild-<hex>``.
LIVE_ROOT = "{stats}"

Number = int | float


@dataclass
class PlayFigures:
    """One player's share of one game: plays (seats held), wins, and the sum of their scores."""

    games: int = 0
    wins: int = 0
    score: Number = 0


class StatsKeys:
    """The names of the statistics keys under one root: the live one, or a rebuild's."""

    def __init__(self, prefix: str, root: str = LIVE_ROOT) -> None:
        self.base = f"{prefix}{root}"
        self.counted = f"{self.base}:counted"
        self.index = f"{self.base}:index"

    def key(self, suffix: str) -> str:
        return f"{self.base}:{suffix}"


def game_suffix(name: str) -> str:
    return f"game:{name}"


def scores_suffix(name: str) -> str:
    return f"game:{name}:scores"


def game_players_suffix(name: str) -> str:
    return f"game:{name}:players"


def player_suffix(name: str) -> str:
    return f"player:{name}"


def game_stats(client: StoreClient, prefix: str, game_name: str) -> dict[str, Any]:
    """The statistics of one game (UnknownGameError if no game has that name); zeros before any
    game of it finished."""
    game = get_game(game_name)
    keys = StatsKeys(prefix)
    # One transaction: the three hashes are read as one count left them.
    with client.pipeline(transaction=True) as pipe:
        pipe.hgetall(keys.key(game_suffix(game_name)))
        pipe.hgetall(keys.key(scores_suffix(game_name)))
        pipe.hgetall(keys.key(game_players_suffix(game_name)))
        totals_raw, scores_raw, players_raw = pipe.execute()
    totals = {name: int(value) for name, value in totals_raw.items()}
    games = totals.get("games", 0)
    plays = _plays_of(players_raw)
    counters = {
        name.removeprefix("counter:"): value
        for name, value in sorted(totals.items())
        if name.startswith("counter:")
    }
    seats = 1 + max(
        (int(name.split(":")[1]) for name in totals if name.startswith("seat:")), default=-1
    )
    return {
        "game": game_name,
        "games": games,
        "wins": {player: play.wins for player, play in plays.items()},
        "win_rate": {player: _ratio(play.wins, play.games) for player, play in plays.items()},
        "players": {player: _play_json(play) for player, play in plays.items()},
        "scores": _scores_json(scores_raw),
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
            "games_by_seat": [totals.get(f"seat:{seat}:games", 0) for seat in range(seats)],
        },
        "extras": game.stats_summary(counters, games),
    }


def player_stats(client: StoreClient, prefix: str, name: str) -> dict[str, Any]:
    """A player's statistics over every game; zeros for a name that never finished a game."""
    by_game = _plays_of(client.hgetall(StatsKeys(prefix).key(player_suffix(name))))
    overall = PlayFigures()
    for play in by_game.values():
        overall.games += play.games
        overall.wins += play.wins
        overall.score += play.score
    return {
        "player": name,
        **_play_json(overall),
        "by_game": {game: _play_json(play) for game, play in by_game.items()},
    }


def _plays_of(fields: Mapping[str, str]) -> dict[str, PlayFigures]:
    """``games:<name>``, ``wins:<name>``, ``score:<name>`` fields, gathered by name (sorted)."""
    plays: dict[str, PlayFigures] = {}
    for field_name, value in sorted(fields.items()):
        kind, _, name = field_name.partition(":")
        if kind in _PLAY_FIELDS:
            setattr(plays.setdefault(name, PlayFigures()), kind, _number(value))
    return plays


_PLAY_FIELDS = frozenset(("games", "wins", "score"))


def _play_json(play: PlayFigures) -> dict[str, Any]:
    return {
        "games": play.games,
        "wins": play.wins,
        "win_rate": _ratio(play.wins, play.games),
        "mean_score": _ratio(play.score, play.games),
    }


def _scores_json(histogram: Mapping[str, str]) -> dict[str, Any]:
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
