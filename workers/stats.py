"""Statistics of finished games: Redis projections, counted once per game, rebuilt from the archive.

The archive job counts the games it archives (``count_many``: one or an import's many at once, each
guarded on its own; ``count_game`` is one game's, from its replay); ``rebuild_stats`` recomputes
every figure from the archive files alone and swaps them in, so both paths give identical figures.
Nothing here knows a game's rules: the figures come from ``Game.result``, ``first_player`` and
``stats_counters``, so a new game gets its statistics without code here.

Where the figures lie, and how the API reads them, is ``service.stats.figures`` (the read model).
"""

from __future__ import annotations

import json
import logging
import math
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import redis

from domain import get_game
from domain.errors import TabletapeError
from domain.game import Teams, Title
from service.stats.figures import (
    ALL_COUNTS,
    LIVE_ROOT,
    SECTIONS,
    TITLES_SUFFIX,
    YEARS_SUFFIX,
    Number,
    PlayFigures,
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
    title_suffix,
)
from service.stats.periods import finished_day, periods_of
from service.store.archive import Archive, events_of, read_document
from service.store.audit import Audit, replay_record
from service.store.chain import LEGACY_FORMAT
from service.store.connection import StoreClient, server_of
from service.store.records import GameRecord
from workers import ratings

log = logging.getLogger(__name__)

Progress = Callable[[list[Path]], Iterable[Path]]


class StatsError(Exception):
    """A game that cannot be counted: unfinished, unreplayable, or scored with a non-number."""


# --- what one game adds (pure) -----------------------------------------------------------------


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
    # The game as the filters, head to head and ratings see it: names in seat order, the
    # winning seats, each seat's score, and when it finished.
    players: tuple[str, ...] = ()
    winners: tuple[int, ...] = ()
    seat_scores: tuple[Number, ...] = ()
    finished_at: str = ""
    # How the seats ranked (1 best, shared ties): the result's ``ranks``, else its winners
    # first and then by score (``ratings.ranks_of``) when left empty.
    ranks: tuple[int, ...] = ()
    # Who is rated together (``Game.rating_teams``): each seat alone when empty; None for a
    # game counted but not rated (a cooperative one).
    teams: Teams | None = ()
    # The title the game was recorded as, for a game of a title (a score sheet), and the game
    # whose rules recorded it (its figures are read with them).
    title: Title | None = None
    rules: str = ""

    @property
    def day(self) -> date:
        return finished_day(self.finished_at)


def rated_game_of(figures: GameFigures) -> ratings.RatedGame | None:
    """What the ratings take of a finished game's figures; None for a game not rated (one its
    game does not rate, or a game of one player: a rating ranks players against each other)."""
    if figures.teams is None or (not figures.teams and len(figures.players) < 2):
        return None
    alone = all(len(team) == 1 for team in figures.teams)
    return ratings.RatedGame(
        game=figures.game,
        game_id=figures.game_id,
        finished_at=figures.finished_at,
        players=figures.players,
        ranks=figures.ranks or ratings.ranks_of(figures.winners, figures.seat_scores),
        teams=() if alone else figures.teams,
    )


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

    # The games, and the games each seat held, are told by players:<n>:games (see
    # service.stats.figures); a win count is written only when there is a win.
    totals = {
        "events": len(bodies),
        # Per player count, for the win rate a seat would have if no seat had an advantage.
        f"players:{seats}:games": 1,
        f"players:{seats}:winners": len(winners),
    }
    if first in winners:
        totals["first:wins"] = 1
    for seat in sorted(winners):
        totals[f"seat:{seat}:wins"] = 1
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
    if not record.finished_at:
        raise StatsError(f"game {record.id} has no finished_at: its day cannot be told")
    try:
        finished_day(record.finished_at)
    except ValueError as error:
        raise StatsError(
            f"game {record.id} has a finished_at that is not a date: {error}"
        ) from None
    return GameFigures(
        record.id,
        game.stats_key(record.options),
        totals,
        histogram,
        plays,
        players=tuple(record.players),
        winners=tuple(sorted(winners)),
        seat_scores=tuple(scores),
        finished_at=record.finished_at,
        ranks=tuple(result.get("ranks") or ()),
        teams=game.rating_teams(final),
        title=game.title(record.options),
        rules=game.name,
    )


def _checked_score(game_id: str, score: Any) -> Number:
    # Checked before the script runs: HINCRBYFLOAT would refuse an infinity halfway through it.
    if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
        raise StatsError(f"game {game_id} has a score that is not a finite number: {score!r}")
    return score


# --- counting in Redis -------------------------------------------------------------------------


# Adds one game's figures unless its id is already in the counted set: the guard and the increments
# are one script, so a crash or a second run can never count a game twice, nor half of it. The same
# script withdraws a game's figures (a retraction undid its finish) with ARGV[3] 'withdraw' and the
# amounts negated: only if the game is in the counted set, and a field brought to 0 is deleted, so
# that the figures are those of a store that never counted the game.
# KEYS: counted set, index set, then the figure hashes (their suffixes go to the index). ARGV: the
# game id, then the groups as JSON (one argument: far cheaper to send than hundreds): a group is
# [the hashes' numbers in KEYS, [[op, field, amount], ...]], each increment added to every hash of
# the group: op "i" a count, "n" a whole score, "f" a float one, "s" a value set (a title's
# spelling, kept per game: withdrawn, it is deleted). A game adds the same figures to
# many buckets: sent once, not per bucket.
_COUNT_SCRIPT = """
-- Decoded before the first write: a script that fails midway keeps what it wrote.
local groups = cjson.decode(ARGV[2])
local withdraw = ARGV[3] == 'withdraw'
if withdraw then
    if redis.call('SREM', KEYS[1], ARGV[1]) == 0 then return 0 end
elseif redis.call('SADD', KEYS[1], ARGV[1]) == 0 then
    return 0
end
local suffix_at = #KEYS[2] - #'index' + 1
local suffixes = {}
for k = 3, #KEYS do
    suffixes[#suffixes + 1] = string.sub(KEYS[k], suffix_at)
end
-- One SADD for them all: a command per key costs more than the work it does.
redis.call('SADD', KEYS[2], unpack(suffixes))
for _, group in ipairs(groups) do
    for _, number in ipairs(group[1]) do
        local key = KEYS[number]
        for _, increment in ipairs(group[2]) do
            local op, name, amount = increment[1], increment[2], increment[3]
            local now
            if op == 's' then
                -- A value kept per game (a title's spelling): set, or deleted on withdrawal.
                if withdraw then
                    redis.call('HDEL', key, name)
                else
                    redis.call('HSET', key, name, amount)
                end
            elseif op == 'f' then
                now = redis.call('HINCRBYFLOAT', key, name, amount)
            elseif op == 'n' then
                -- A whole score: as an integer, unless a float score made the sum a float
                -- (HINCRBY then refuses, changing nothing).
                now = redis.pcall('HINCRBY', key, name, amount)
                if type(now) == 'table' and now.err then
                    now = redis.call('HINCRBYFLOAT', key, name, amount)
                end
            else
                now = redis.call('HINCRBY', key, name, amount)
            end
            if withdraw and op ~= 's' and tonumber(now) == 0 then
                redis.call('HDEL', key, name)
            end
        end
    end
end
if withdraw then
    -- A hash emptied is gone: the index names it no more, as if it had never been counted.
    for k = 3, #KEYS do
        if redis.call('EXISTS', KEYS[k]) == 0 then
            redis.call('SREM', KEYS[2], suffixes[k - 2])
        end
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
    """Add a finished game's figures once, and rate it once (``workers.ratings``); False if its
    figures were counted already. Each of the two steps is atomic and guarded on its own, so a
    job killed between them and run again completes the second and repeats neither."""
    return count_figures(client, prefix, figures_of(record, bodies, states))


def count_figures(client: StoreClient, prefix: str, figures: GameFigures) -> bool:
    """``count_game`` once the game's figures are known (the benchmark feeds it made-up ones)."""
    keys = StatsKeys(prefix)
    counted = _count(client, keys, figures)
    rated = rated_game_of(figures)
    if rated is not None:
        ratings.rate_game(client, keys, rated)
    return counted


def withdraw_figures(client: StoreClient, prefix: str, figures: GameFigures) -> bool:
    """Take a counted game's figures out of the statistics and its result out of the ratings
    (the games rated after it are rated again); False if its figures were not counted. The undo
    of ``count_figures``, guarded as it is: run twice, it withdraws once."""
    keys = StatsKeys(prefix)
    hashes, args = _count_call(keys, figures, withdraw=True)
    withdrawn = bool(client.register_script(_COUNT_SCRIPT)(keys=hashes, args=args))
    ratings.unrate_game(client, keys, figures.game, figures.game_id)
    return withdrawn


def count_many(client: StoreClient, prefix: str, batch: Sequence[GameFigures]) -> int:
    """``count_figures`` for many games in two round trips (how the archive job counts what it
    archived, and how the benchmark fills its projections): their figures
    (``count_many_figures``), then their ratings in one MULTI per game type
    (``workers.ratings.rate_games``). The number of games whose figures were not counted
    already."""
    counted = count_many_figures(client, prefix, batch)
    rate_many(client, prefix, batch)
    return counted


def count_many_figures(client: StoreClient, prefix: str, batch: Sequence[GameFigures]) -> int:
    """The figures of many games in one pipeline, each game still its own guarded script call."""
    keys = StatsKeys(prefix)
    # Every statistics key is in {stats}'s slot: on a cluster, one node takes the whole batch.
    server = server_of(client, keys.counted)
    script = server.register_script(_COUNT_SCRIPT)
    with server.pipeline(transaction=False) as pipe:
        for figures in batch:
            hashes, args = _count_call(keys, figures)
            script(keys=hashes, args=args, client=pipe)
        return sum(map(bool, pipe.execute()))


def rate_many(client: StoreClient, prefix: str, batch: Sequence[GameFigures]) -> None:
    """The ratings of many games, one MULTI per game type; a game rated already is left alone."""
    keys = StatsKeys(prefix)
    by_game: dict[str, list[ratings.RatedGame]] = {}
    for figures in batch:
        rated = rated_game_of(figures)
        if rated is not None:
            by_game.setdefault(figures.game, []).append(rated)
    for rated in by_game.values():
        ratings.rate_games(client, keys, rated)


# (op, field, amount); op "i" is HINCRBY, "f" HINCRBYFLOAT, "n" HINCRBY unless the sum is a
# float already (score sums only).
Increment = tuple[str, str, str]
# The same increments, added to each of these hashes (by suffix).
Group = tuple[list[str], list[Increment]]


def _count(client: StoreClient, keys: StatsKeys, figures: GameFigures) -> bool:
    hashes, args = _count_call(keys, figures)
    return bool(client.register_script(_COUNT_SCRIPT)(keys=hashes, args=args))


def _count_call(
    keys: StatsKeys, figures: GameFigures, *, withdraw: bool = False
) -> tuple[list[str], list[str]]:
    """The KEYS and ARGV of the count script for one game (to withdraw it: the amounts negated)."""
    groups = [*_figure_groups(figures), *_pair_groups(figures)]
    for player, play in figures.plays.items():
        groups.append(([player_suffix(player)], _play_increments(figures.game, play)))
        groups.append(([own_suffix(player)], _own_increments(figures, play)))
    groups.append(([YEARS_SUFFIX], [("i", str(figures.day.year), "1")]))
    if figures.title is not None:
        groups += _title_groups(figures, figures.title)
    suffixes = list(dict.fromkeys(suffix for hashes, _ in groups for suffix in hashes))
    position = {suffix: number for number, suffix in enumerate(suffixes, start=3)}
    encoded = [
        (
            [position[suffix] for suffix in hashes],
            [_negated(one) for one in increments] if withdraw else increments,
        )
        for hashes, increments in groups
    ]
    args = [figures.game_id, json.dumps(encoded, ensure_ascii=False)]
    if withdraw:
        args.append("withdraw")
    return [keys.counted, keys.index, *map(keys.key, suffixes)], args


def _negated(increment: Increment) -> Increment:
    op, name, amount = increment
    if op == "s":
        return increment
    return op, name, repr(-float(amount)) if op == "f" else str(-int(amount))


def _title_groups(figures: GameFigures, title: Title) -> list[Group]:
    """A game of a title: one more game of its key, and its spelling kept under its id."""
    kept = {
        "title": title.name,
        "bgg_id": title.bgg_id,
        "finished_at": figures.finished_at,
        "rules": figures.rules,
    }
    return [
        ([TITLES_SUFFIX], [("i", title.key, "1")]),
        ([title_suffix(title.key)], [("s", figures.game_id, json.dumps(kept, ensure_ascii=False))]),
    ]


def _figure_groups(figures: GameFigures) -> list[Group]:
    """The game's totals, score histogram and plays, each added to the game's all-time hash, to
    its bucket of each period (its day, month, year) for its player count and for all counts,
    and to the same buckets (its player count's) of each of its players (the games that player
    played in)."""
    seats = len(figures.players)
    periods = periods_of(figures.day)
    plays: list[Increment] = []
    for player, play in figures.plays.items():
        plays += _play_increments(player, play)
    increments = {
        "totals": [("i", total, str(amount)) for total, amount in figures.totals.items()],
        "scores": [("i", score, str(seats_)) for score, seats_ in figures.scores.items()],
        "players": plays,
    }
    all_time = {
        "totals": game_suffix(figures.game),
        "scores": scores_suffix(figures.game),
        "players": game_players_suffix(figures.game),
    }
    groups: list[Group] = []
    for section in SECTIONS:
        hashes = [all_time[section]]
        for period in periods:
            hashes.append(bucket_suffix(figures.game, seats, period, section))
            hashes.append(bucket_suffix(figures.game, ALL_COUNTS, period, section))
            hashes += [
                player_bucket_suffix(figures.game, seats, period, section, player)
                for player in figures.plays
            ]
        groups.append((hashes, increments[section]))
    return groups


def _play_increments(name: str, play: PlayFigures) -> list[Increment]:
    increments = [("i", f"games:{name}", str(play.games))]
    if play.wins:
        increments.append(("i", f"wins:{name}", str(play.wins)))
    # A whole score is added as an integer ("n"): cheaper than a float, and exact.
    score_op = "n" if isinstance(play.score, int) else "f"
    increments.append((score_op, f"score:{name}", repr(play.score)))
    return increments


def _own_increments(figures: GameFigures, play: PlayFigures) -> list[Increment]:
    """A player's own figures in their ``own`` hash, per period, for the game's player count
    and for all counts: the ``games``, ``wins`` and ``score`` of ``_play_increments``."""
    increments: list[Increment] = []
    for period in periods_of(figures.day):
        for count in (len(figures.players), ALL_COUNTS):
            for op, kind, amount in _play_increments("", play):
                field_name = pair_field(figures.game, count, period, kind.removesuffix(":"))
                increments.append((op, field_name, amount))
    return increments


def _pair_groups(figures: GameFigures) -> list[Group]:
    """Head to head: per pair of names in the game, one game in each period, and each one's
    win."""
    won = {figures.players[seat] for seat in figures.winners}
    names = sorted(set(figures.players))
    seats = len(figures.players)
    groups: list[Group] = []
    for first, a in enumerate(names):
        for b in names[first + 1 :]:
            increments: list[Increment] = []
            for period in periods_of(figures.day):
                for count in (seats, ALL_COUNTS):
                    increments.append(("i", pair_field(figures.game, count, period, "games"), "1"))
                    for number, name in enumerate((a, b)):
                        if name in won:
                            field_name = pair_field(figures.game, count, period, f"wins:{number}")
                            increments.append(("i", field_name, "1"))
            groups.append(([pair_suffix(a, b)], increments))
    return groups


# --- rebuilding from the archive ---------------------------------------------------------------


def rebuild_stats(
    client: StoreClient,
    prefix: str,
    archive_dir: str | Path,
    progress: Progress | None = None,
    skipped: Callable[[str], None] | None = None,
) -> int:
    """Recompute every figure from the archive files alone, then swap them in for the live ones
    in one MULTI; the number of games counted. ``progress`` wraps the list of files (a bar).

    A file that cannot be counted (unreadable, a move the rules refuse, a time that is no date)
    is left out and named, with its reason, to ``skipped`` (default: the log): one bad file
    never stops the others from being counted."""
    archive = Archive(archive_dir)
    rebuilt = StatsKeys(prefix, f"{LIVE_ROOT}rebuild-{uuid.uuid4().hex}")
    paths = list(archive)
    rated: list[ratings.RatedGame] = []
    say = skipped or _log_skipped
    try:
        for path in progress(paths) if progress is not None else paths:
            try:
                figures = figures_of_file(path)
            except StatsError as error:
                say(str(error))
                continue
            _count(client, rebuilt, figures)
            one = rated_game_of(figures)
            if one is not None:
                rated.append(one)
        # The ratings once every game is known: each game type replayed in finish order.
        ratings.rebuild_ratings(lambda: client.pipeline(transaction=False), rebuilt, rated)
        return _swap_in(client, archive, StatsKeys(prefix), rebuilt, say)
    finally:
        # After a swap nothing is left there; after a failure, the live figures stay untouched.
        _drop(client, rebuilt)


def _log_skipped(reason: str) -> None:
    log.warning("stats rebuild: %s; the file is left out", reason)


def figures_of_file(path: Path, document: dict[str, Any] | None = None) -> GameFigures:
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


def _swap_in(
    client: StoreClient,
    archive: Archive,
    live: StatsKeys,
    rebuilt: StatsKeys,
    skipped: Callable[[str], None],
) -> int:
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
                    _count_late(client, archive, rebuilt, sorted(late), skipped)
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
    client: StoreClient,
    archive: Archive,
    rebuilt: StatsKeys,
    game_ids: list[str],
    skipped: Callable[[str], None],
) -> None:
    for game_id in game_ids:
        document = archive.read(game_id)
        if document is None:
            log.warning(
                "game %s is counted but not in the archive: the rebuild leaves it out", game_id
            )
            continue
        try:
            figures = figures_of_file(archive.path(game_id), document)
        except StatsError as error:
            skipped(str(error))
            continue
        _count(client, rebuilt, figures)
        rated = rated_game_of(figures)
        if rated is not None:
            ratings.rate_game(client, rebuilt, rated)


def _drop(client: StoreClient, keys: StatsKeys) -> None:
    suffixes = client.smembers(keys.index)
    client.delete(keys.counted, keys.index, *(keys.key(suffix) for suffix in suffixes))
