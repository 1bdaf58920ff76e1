"""The ratings as the API and the pages read them: a game's leaderboard, a player's ratings and
their history, as the contract's JSON.

``service.stats.ratings.writing`` writes them, once per finished game, in the order games
finished; the API only reads them, here. Where each lies is ``service.stats.keys``.
"""

from __future__ import annotations

import json
from typing import Any

from service.stats.keys import StatsKeys, board_suffix, current_suffix, games_suffix, played_suffix
from service.stats.ratings.model import Rating, conservative
from service.stats.reading import stats_games
from service.stats.titles import rules_for
from service.store.connection import StoreClient


def rating_json(rating: Rating) -> dict[str, Any]:
    mu, sigma, games = rating
    return {"rating": conservative(mu, sigma), "mu": mu, "sigma": sigma, "games": games}


def leaderboard(
    client: StoreClient, prefix: str, game_name: str, limit: int, offset: int
) -> tuple[list[dict[str, Any]], int | None]:
    """One page of a game's ratings, best first (equal ratings by name, ascending), and the
    offset of the next page (None after the last). UnknownGameError for no such game."""
    rules_for(client, prefix, game_name)
    keys = StatsKeys(prefix)
    board = keys.key(board_suffix(game_name))
    with client.pipeline(transaction=True) as pipe:
        pipe.zrange(board, offset, offset + limit - 1)
        pipe.zcard(board)
        names, total = pipe.execute()
    ratings = _ratings_of(client, keys, game_name, names)
    page = [{"player": name, **rating_json(ratings[name])} for name in names if name in ratings]
    following = offset + limit
    return page, following if following < total else None


def player_ratings(client: StoreClient, prefix: str, name: str) -> dict[str, dict[str, Any]]:
    """The player's current rating in each game they have been rated in."""
    keys = StatsKeys(prefix)
    games = stats_games(client, prefix)
    with client.pipeline(transaction=True) as pipe:
        for game in games:
            pipe.hget(keys.key(current_suffix(game)), name)
        found = pipe.execute()
    return {
        game: rating_json(_rating(raw))
        for game, raw in zip(games, found, strict=True)
        if raw is not None
    }


def rating_history(
    client: StoreClient, prefix: str, name: str, game_name: str
) -> list[dict[str, Any]]:
    """The player's rating after each of their games of ``game_name``, in finish order."""
    rules_for(client, prefix, game_name)
    keys = StatsKeys(prefix)
    ids: list[str] = client.zrange(keys.key(played_suffix(game_name, name)), 0, -1)
    if not ids:
        return []
    history = []
    for game_id, raw in zip(ids, client.hmget(keys.key(games_suffix(game_name)), ids), strict=True):
        if raw is None:
            continue
        rated = json.loads(raw)
        # The player's last seat: a name holds one seat per game, by the contract.
        seat = len(rated["players"]) - 1 - rated["players"][::-1].index(name)
        history.append(
            {"finished_at": rated["finished_at"], "game_id": game_id}
            | rating_json(_rating_of_list(rated["after"][seat]))
        )
    return history


def _ratings_of(
    client: StoreClient, keys: StatsKeys, game_name: str, names: list[str]
) -> dict[str, Rating]:
    if not names:
        return {}
    found = client.hmget(keys.key(current_suffix(game_name)), names)
    return {name: _rating(raw) for name, raw in zip(names, found, strict=True) if raw is not None}


def _rating(raw: str) -> Rating:
    return _rating_of_list(json.loads(raw))


def _rating_of_list(values: list[Any]) -> Rating:
    mu, sigma, games = values
    return float(mu), float(sigma), int(games)
