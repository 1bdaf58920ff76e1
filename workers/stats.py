"""Statistics of finished games: Redis projections, counted once per game, rebuilt from the archive.

The archive job counts each game as it archives it (``count_game``); ``rebuild_stats`` recomputes
every figure from the archive files alone and swaps them in, so both paths give identical figures.
Nothing here knows a game's rules: the figures come from ``Game.result``, ``first_player`` and
``stats_counters``, so a new game gets its statistics without code here.

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
import logging
import math
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

from domain import get_game
from domain.errors import TabletapeError
from service.archive import Archive, events_of, read_document
from service.audit import Audit, replay_record
from service.chain import LEGACY_FORMAT
from service.connection import StoreClient
from service.store import GameRecord

log = logging.getLogger(__name__)

# The hash tag every statistics key carries; a rebuild writes under ``{stats}rebuild-<hex>``.
LIVE_ROOT = "{stats}"

Number = int | float
Progress = Callable[[list[Path]], Iterable[Path]]


class StatsError(Exception):
    """A game that cannot be counted: unfinished, unreplayable, or scored with a non-number."""


# --- what one game adds (pure) -----------------------------------------------------------------


@dataclass
class PlayFigures:
    """One player's share of one game: plays (seats held), wins, and the sum of their scores."""

    games: int = 0
    wins: int = 0
    score: Number = 0


@dataclass(frozen=True)
class GameFigures:
    """What one finished game adds to the statistics of its game and of its players."""

    game_id: str
    game: str
    # Increments of the fields of ``game:<game>`` (see the module's docstring).
    totals: dict[str, int]
    # Increments of the score histogram: score as JSON -> seats.
    scores: dict[str, int]
    # Player name -> their plays, wins and score in this game.
    plays: dict[str, PlayFigures] = field(default_factory=dict)


def replay_states(header: Mapping[str, Any], bodies: Sequence[Mapping[str, Any]]) -> list[Any]:
    """The state after each move: ``states[i]`` follows ``bodies[i]`` (the audit's replay)."""
    return _replayed(header, bodies).states


def _replayed(header: Mapping[str, Any], bodies: Sequence[Mapping[str, Any]]) -> Audit:
    audit = replay_record(dict(header), [dict(body) for body in bodies])
    if not audit.ok:
        raise StatsError(audit.problems[0])
    return audit


def figures_of(
    record: GameRecord, bodies: Sequence[Mapping[str, Any]], states: Sequence[Any]
) -> GameFigures:
    """What one finished game adds: read from its replay (``states``), never from the stored
    result, so that the figures are a function of the header and the events alone."""
    game = get_game(record.game)
    final = states[-1] if states else game.start(record.header)
    result = game.result(final)
    if result is None:
        raise StatsError(f"game {record.id} is not finished: only finished games are counted")
    seats = len(record.players)
    winners = set(result["winners"])
    scores = [_checked_score(record.id, score) for score in result["scores"]]
    first = game.first_player(final)

    totals = {
        "games": 1,
        "events": len(bodies),
        "first:wins": int(first in winners),
        # Per player count, for the win rate a seat would have if no seat had an advantage.
        f"players:{seats}:games": 1,
        f"players:{seats}:winners": len(winners),
    }
    for seat in range(seats):
        totals[f"seat:{seat}:games"] = 1
        totals[f"seat:{seat}:wins"] = int(seat in winners)
    for name, value in game.stats_counters(bodies, states).items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise StatsError(f"{game.name} counter {name!r} must be an integer, got {value!r}")
        totals[f"counter:{name}"] = value

    histogram: dict[str, int] = {}
    plays: dict[str, PlayFigures] = {}
    for seat, (player, score) in enumerate(zip(record.players, scores, strict=True)):
        key = json.dumps(score)
        histogram[key] = histogram.get(key, 0) + 1
        play = plays.setdefault(player, PlayFigures())
        play.games += 1
        play.wins += int(seat in winners)
        play.score += score
    return GameFigures(record.id, record.game, totals, histogram, plays)


def _checked_score(game_id: str, score: Any) -> Number:
    # Checked before the script runs: HINCRBYFLOAT would refuse an infinity halfway through it.
    if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
        raise StatsError(f"game {game_id} has a score that is not a finite number: {score!r}")
    return score


# --- counting in Redis -------------------------------------------------------------------------


class StatsKeys:
    """The names of the statistics keys under one root: the live one, or a rebuild's."""

    def __init__(self, prefix: str, root: str = LIVE_ROOT) -> None:
        self.base = f"{prefix}{root}"
        self.counted = f"{self.base}:counted"
        self.index = f"{self.base}:index"

    def key(self, suffix: str) -> str:
        return f"{self.base}:{suffix}"


def _game(name: str) -> str:
    return f"game:{name}"


def _scores(name: str) -> str:
    return f"game:{name}:scores"


def _game_players(name: str) -> str:
    return f"game:{name}:players"


def _player(name: str) -> str:
    return f"player:{name}"


# Adds one game's figures unless its id is already in the counted set: the guard and the increments
# are one script, so a crash or a second run can never count a game twice, nor half of it.
# KEYS: counted set, index set, then the figure hashes. ARGV: the game id, the suffixes of the
# figure hashes (for the index), then quadruples (hash number in KEYS, "i" or "f", field, amount).
_COUNT_SCRIPT = """
if redis.call('SADD', KEYS[1], ARGV[1]) == 0 then return 0 end
for k = 3, #KEYS do
    redis.call('SADD', KEYS[2], ARGV[k - 1])
end
for i = #KEYS, #ARGV, 4 do
    local key = KEYS[tonumber(ARGV[i])]
    if ARGV[i + 1] == 'f' then
        redis.call('HINCRBYFLOAT', key, ARGV[i + 2], ARGV[i + 3])
    else
        redis.call('HINCRBY', key, ARGV[i + 2], ARGV[i + 3])
    end
end
return 1
"""


def count_game(
    client: StoreClient,
    prefix: str,
    record: GameRecord,
    bodies: Sequence[Mapping[str, Any]],
    states: Sequence[Any],
) -> bool:
    """Add a finished game's figures once; False if it was counted already."""
    return _count(client, StatsKeys(prefix), figures_of(record, bodies, states))


def _count(client: StoreClient, keys: StatsKeys, figures: GameFigures) -> bool:
    # (suffix, op, field, amount); op "i" is HINCRBY, "f" HINCRBYFLOAT (score sums only).
    increments: list[tuple[str, str, str, str]] = []
    for total, increment in figures.totals.items():
        increments.append((_game(figures.game), "i", total, str(increment)))
    for score, seats in figures.scores.items():
        increments.append((_scores(figures.game), "i", score, str(seats)))
    for player, play in figures.plays.items():
        for suffix, name in (
            (_game_players(figures.game), player),
            (_player(player), figures.game),
        ):
            increments.append((suffix, "i", f"games:{name}", str(play.games)))
            increments.append((suffix, "i", f"wins:{name}", str(play.wins)))
            increments.append((suffix, "f", f"score:{name}", repr(play.score)))
    suffixes = list(dict.fromkeys(suffix for suffix, *_ in increments))
    position = {suffix: number for number, suffix in enumerate(suffixes, start=3)}
    args = [figures.game_id, *suffixes]
    for suffix, op, field_name, amount in increments:
        args += [str(position[suffix]), op, field_name, amount]
    script = client.register_script(_COUNT_SCRIPT)
    counted = script(keys=[keys.counted, keys.index, *map(keys.key, suffixes)], args=args)
    return bool(counted)


# --- reading: the API's JSON -------------------------------------------------------------------


def game_stats(client: StoreClient, prefix: str, game_name: str) -> dict[str, Any]:
    """The statistics of one game (UnknownGameError if no game has that name); zeros before any
    game of it finished."""
    game = get_game(game_name)
    keys = StatsKeys(prefix)
    # One transaction: the three hashes are read as one count left them.
    with client.pipeline(transaction=True) as pipe:
        pipe.hgetall(keys.key(_game(game_name)))
        pipe.hgetall(keys.key(_scores(game_name)))
        pipe.hgetall(keys.key(_game_players(game_name)))
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
    by_game = _plays_of(client.hgetall(StatsKeys(prefix).key(_player(name))))
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


# --- rebuilding from the archive ---------------------------------------------------------------


def rebuild_stats(
    client: StoreClient, prefix: str, archive_dir: str | Path, progress: Progress | None = None
) -> int:
    """Recompute every figure from the archive files alone, then swap them in for the live ones
    in one MULTI; the number of games counted. ``progress`` wraps the list of files (a bar)."""
    archive = Archive(archive_dir)
    rebuilt = StatsKeys(prefix, f"{LIVE_ROOT}rebuild-{uuid.uuid4().hex}")
    paths = list(archive)
    try:
        for path in progress(paths) if progress is not None else paths:
            _count(client, rebuilt, _figures_of_file(path))
        return _swap_in(client, archive, StatsKeys(prefix), rebuilt)
    finally:
        # After a swap nothing is left there; after a failure, the live figures stay untouched.
        _drop(client, rebuilt)


def _figures_of_file(path: Path, document: dict[str, Any] | None = None) -> GameFigures:
    """The figures of one archive file; a file that cannot be read or replayed is named."""
    try:
        if document is None:
            document = read_document(path)
        record = _record_of(document)
        # Only the moves left standing count, as when the archive job counted the game.
        replayed = _replayed(record.header, [event.body for event in events_of(document)])
        return figures_of(record, replayed.standing, replayed.states)
    # ValueError: a file that is not gzip'd JSON; OSError: one that cannot be read.
    except (TabletapeError, StatsError, KeyError, TypeError, ValueError, OSError) as error:
        message = error.message if isinstance(error, TabletapeError) else str(error)
        raise StatsError(f"{path}: cannot be counted: {message}") from error


def _record_of(document: Mapping[str, Any]) -> GameRecord:
    return GameRecord(
        id=document["id"],
        game=document["game"],
        players=document["players"],
        seed=document["seed"],
        seed_salt=document.get("seed_salt"),
        seed_commitment=document.get("seed_commitment"),
        options=document["options"],
        rules_version=document["rules_version"],
        record_format=document.get("record_format", LEGACY_FORMAT),
        created_at=document["created_at"],
        version=document["version"],
        status="archived",
        head_hash=document["head_hash"],
        token_sha256="",
        seat_tokens_sha256=[],
        finished_at=document.get("finished_at"),
        result=document.get("result"),
    )


def _swap_in(client: StoreClient, archive: Archive, live: StatsKeys, rebuilt: StatsKeys) -> int:
    """Replace the live figures by the rebuilt ones, atomically. A game the archive job counted
    while the rebuild ran is counted into the rebuild first (WATCH catches one counted meanwhile);
    a game counted live without an archive file is dropped: the archive is the truth."""
    looked_up: set[str] = set()
    while True:
        with client.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(live.counted, live.index)
                # SDIFF and RENAME as raw commands: redis-py's cluster pipeline refuses their
                # helpers, made for keys in several slots; here every key is in {stats}'s one.
                late = set(pipe.execute_command("SDIFF", live.counted, rebuilt.counted))
                late -= looked_up
                if late:
                    pipe.unwatch()
                    _count_late(client, archive, rebuilt, sorted(late))
                    looked_up |= late
                    continue
                old: set[str] = pipe.smembers(live.index)
                new: set[str] = pipe.smembers(rebuilt.index)
                games = int(pipe.scard(rebuilt.counted))
                pipe.multi()
                if old - new:
                    pipe.delete(*(live.key(suffix) for suffix in old - new))
                for suffix in sorted(new):
                    pipe.execute_command("RENAME", rebuilt.key(suffix), live.key(suffix))
                if games:
                    pipe.execute_command("RENAME", rebuilt.counted, live.counted)
                    pipe.execute_command("RENAME", rebuilt.index, live.index)
                else:
                    pipe.delete(live.counted, live.index)
                pipe.execute()
                return games
            except redis.WatchError:
                continue


def _count_late(
    client: StoreClient, archive: Archive, rebuilt: StatsKeys, game_ids: list[str]
) -> None:
    for game_id in game_ids:
        document = archive.read(game_id)
        if document is None:
            log.warning(
                "game %s is counted but not in the archive: the rebuild leaves it out", game_id
            )
            continue
        _count(client, rebuilt, _figures_of_file(archive.path(game_id), document))


def _drop(client: StoreClient, keys: StatsKeys) -> None:
    suffixes = client.smembers(keys.index)
    client.delete(keys.counted, keys.index, *(keys.key(suffix) for suffix in suffixes))
