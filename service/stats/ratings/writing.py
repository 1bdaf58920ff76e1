"""Ratings in Redis: each finished game rated once, in the order the games finished.

The order matters: a rating update depends on the ratings before it. The archive jobs of two
games may run in either order, so a game is put in its place by its ``finished_at`` (then id),
and when it lands before games already rated, those are rated again after it, from the inputs
each game keeps (``service.stats.keys`` lists the keys). The update is computed in Python
(``service.stats.ratings.model.replay``, the same for the live updates and the rebuild) and
written in one MULTI under WATCH of the game's order: two workers never interleave, a conflict
is retried, and a game already in the order is never rated twice.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import redis

from service.stats.keys import (
    StatsKeys,
    board_suffix,
    current_suffix,
    games_suffix,
    order_suffix,
    played_suffix,
    rating_suffixes,
)
from service.stats.ratings.model import (
    RatedGame,
    Rating,
    Replayed,
    conservative,
    finish_order,
    replay,
)
from service.store.connection import StoreClient


def board_score(mu: float, sigma: float) -> float:
    """A player's score on the board: the rating negated (``service.stats.keys``: best first)."""
    return -conservative(mu, sigma)


def rate_game(client: StoreClient, keys: StatsKeys, game: RatedGame) -> bool:
    """Rate one finished game in its place in the finish order; False if it was rated already."""
    return bool(rate_games(client, keys, [game]))


def rate_games(client: StoreClient, keys: StatsKeys, games: Sequence[RatedGame]) -> int:
    """Rate finished games of one game type, each in its place in the finish order, in one
    MULTI (the benchmark's fill sends hundreds at once); how many were not rated already."""
    if not games:
        return 0
    order_key = keys.key(order_suffix(games[0].game))
    while True:
        with client.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(order_key)
                found = pipe.zmscore(order_key, [game.game_id for game in games])
                new = {
                    game.game_id: game for game, at in zip(games, found, strict=True) if at is None
                }
                if not new:
                    pipe.unwatch()
                    return 0
                fresh = sorted(new.values(), key=lambda one: one.order)
                later = _rated_after(pipe, keys, fresh[0])
                start = _ratings_before(pipe, keys, fresh, later)
                in_order = sorted([*fresh, *(old for old, _ in later)], key=lambda one: one.order)
                replayed, ratings = replay(in_order, start)
                pipe.multi()
                write_replayed(pipe, keys, fresh[0].game, replayed, ratings)
                pipe.execute()
                return len(fresh)
            except redis.WatchError:
                continue


def unrate_game(client: StoreClient, keys: StatsKeys, game_name: str, game_id: str) -> bool:
    """Take a rated game out of the finish order (a retraction undid its finish): the games
    rated after it are rated again without it, so the ratings are those a rebuild without it
    gives; False if it was not rated. In one MULTI under WATCH of the order, as ``rate_games``."""
    order_key = keys.key(order_suffix(game_name))
    games_key = keys.key(games_suffix(game_name))
    while True:
        with client.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(order_key)
                raw = pipe.hget(games_key, game_id)
                if pipe.zscore(order_key, game_id) is None or raw is None:
                    pipe.unwatch()
                    return False
                kept = json.loads(raw)
                players = tuple(kept["players"])
                removed = RatedGame.kept(game_name, game_id, kept)
                later = _rated_after(pipe, keys, removed)
                # Its players start where they stood before it; the others where they stood
                # before their first game after it (nothing before that changes).
                start = {
                    player: _rating(rating)
                    for player, rating in zip(players, kept["before"], strict=True)
                }
                for rated, before in later:
                    for player, rating in zip(rated.players, before, strict=True):
                        start.setdefault(player, rating)
                replayed, ratings = replay([rated for rated, _ in later], start)
                last_of_its_kind = pipe.zcard(order_key) == 1
                pipe.multi()
                write_replayed(pipe, keys, game_name, replayed, ratings)
                pipe.zrem(order_key, game_id)
                pipe.hdel(games_key, game_id)
                played_later = {player for rated, _ in later for player in rated.players}
                for player in players:
                    pipe.zrem(keys.key(played_suffix(game_name, player)), game_id)
                    if player in played_later:
                        continue
                    # Their latest game is gone: their rating is the one they had before it, or
                    # none at all for a player it was the only game of.
                    mu, sigma, games = start[player]
                    if games == 0:
                        pipe.hdel(keys.key(current_suffix(game_name)), player)
                        pipe.zrem(keys.key(board_suffix(game_name)), player)
                        # Their list of rated games is gone: the index names it no more.
                        pipe.srem(keys.index, played_suffix(game_name, player))
                    else:
                        pipe.hset(
                            keys.key(current_suffix(game_name)),
                            player,
                            json.dumps([mu, sigma, games]),
                        )
                        pipe.zadd(
                            keys.key(board_suffix(game_name)), {player: board_score(mu, sigma)}
                        )
                if last_of_its_kind:
                    pipe.srem(keys.index, *rating_suffixes(game_name))
                pipe.execute()
                return True
            except redis.WatchError:
                continue


def _rated_after(
    pipe: Any, keys: StatsKeys, game: RatedGame
) -> list[tuple[RatedGame, list[Rating]]]:
    """The games already rated that finished after ``game``, in order, each with the ratings
    its players had before it."""
    score = finish_order(game.finished_at)
    candidates = pipe.zrangebyscore(
        keys.key(order_suffix(game.game)), score, "+inf", withscores=True
    )
    ids = [game_id for game_id, at in candidates if (int(at), game_id) > (score, game.game_id)]
    if not ids:
        return []
    found = pipe.hmget(keys.key(games_suffix(game.game)), ids)
    later = []
    for game_id, raw in zip(ids, found, strict=True):
        kept = json.loads(raw)
        rated = RatedGame.kept(game.game, game_id, kept)
        later.append((rated, [_rating(values) for values in kept["before"]]))
    return later


def _ratings_before(
    pipe: Any,
    keys: StatsKeys,
    fresh: Sequence[RatedGame],
    later: list[tuple[RatedGame, list[Rating]]],
) -> dict[str, Rating]:
    """Every rating the replay from the first of ``fresh`` on starts from. Nothing in the order
    changes before it: a player's rating there is the ``before`` of their first rated game after
    it, or, if they have none, their current rating (their latest game is before it)."""
    start: dict[str, Rating] = {}
    for rated, before in later:
        for player, rating in zip(rated.players, before, strict=True):
            start.setdefault(player, rating)
    missing = sorted({player for game in fresh for player in game.players} - set(start))
    if missing:
        found = pipe.hmget(keys.key(current_suffix(fresh[0].game)), missing)
        for player, raw in zip(missing, found, strict=True):
            if raw is not None:
                start[player] = _rating(json.loads(raw))
    return start


def write_replayed(
    pipe: Any,
    keys: StatsKeys,
    game_name: str,
    replayed: Sequence[Replayed],
    ratings: Mapping[str, Rating],
) -> None:
    """Queue the writes of rated games (new or rated again) and of the ratings they leave."""
    order, board = order_suffix(game_name), board_suffix(game_name)
    games, current = games_suffix(game_name), current_suffix(game_name)
    if not replayed:
        return
    at = {one.game.game_id: finish_order(one.game.finished_at) for one in replayed}
    pipe.zadd(keys.key(order), at)
    pipe.hset(keys.key(games), mapping={one.game.game_id: _kept_json(one) for one in replayed})
    played_by: dict[str, list[str]] = {}
    for one in replayed:
        for player in one.game.players:
            played_by.setdefault(player, []).append(one.game.game_id)
    touched = sorted(played_by)
    pipe.hset(
        keys.key(current),
        mapping={player: json.dumps(list(ratings[player])) for player in touched},
    )
    pipe.zadd(
        keys.key(board),
        {player: board_score(ratings[player][0], ratings[player][1]) for player in touched},
    )
    for player, ids in played_by.items():
        pipe.zadd(
            keys.key(played_suffix(game_name, player)), {game_id: at[game_id] for game_id in ids}
        )
    # The rebuild's swap renames exactly the keys the index names.
    pipe.sadd(
        keys.index,
        *rating_suffixes(game_name),
        *(played_suffix(game_name, player) for player in touched),
    )


def _kept_json(one: Replayed) -> str:
    return json.dumps(
        {
            "finished_at": one.game.finished_at,
            "players": list(one.game.players),
            "ranks": list(one.game.ranks),
            **({"teams": [list(team) for team in one.game.teams]} if one.game.teams else {}),
            "before": [list(rating) for rating in one.before],
            "after": [list(rating) for rating in one.after],
        },
        ensure_ascii=False,
    )


def _rating(values: Sequence[Any]) -> Rating:
    mu, sigma, games = values
    return float(mu), float(sigma), int(games)


def rebuild_ratings(
    pipe_factory: Any, keys: StatsKeys, games: Iterable[RatedGame], chunk: int = 500
) -> None:
    """Rate every game anew from nothing, each game type in finish order, into ``keys``
    (a rebuild's root, which nobody else writes): the same replay as the live updates."""
    by_game: dict[str, list[RatedGame]] = {}
    for game in games:
        by_game.setdefault(game.game, []).append(game)
    for game_name, rated in sorted(by_game.items()):
        replayed, _ = replay(sorted(rated, key=lambda one: one.order), {})
        # Written in chunks, each with the ratings as they stand after its last game.
        ratings: dict[str, Rating] = {}
        for first in range(0, len(replayed), chunk):
            part = replayed[first : first + chunk]
            for one in part:
                ratings.update(zip(one.game.players, one.after, strict=True))
            with pipe_factory() as pipe:
                write_replayed(pipe, keys, game_name, part, ratings)
                pipe.execute()
