"""Titles in the statistics: a game of any title (a score sheet) counts as a game of its own.

A record counts under its statistics key (``Game.stats_key``): a game with rules under its name,
a score sheet under its title's key ("Azul" -> ``azul``), so ``/stats/azul`` and ``/ratings/azul``
read figures written like any game's. What the statistics must know of titles:

- which keys there are: the games with rules, the title keys counted (the ``titles`` hash of the
  statistics, ``service.stats.keys``), and the keys of titles not finished yet (the store's
  index ``games:titles``, written when a game of a title is created or imported): a title with no
  finished game is a game with zeros, and a key that is none of these is a 404 naming the closest;
- whose rules read a title's figures (the game that recorded it: its summary);
- the player counts a key's games can have: its rules' and a score sheet's (a score sheet
  of 20 players whose title names a game with rules counts as that game), which a ``players=``
  filter may name;
- the list of titles played (``GET /titles``): each with its games, the spelling and
  BoardGameGeek id of its latest game, and the day of that game.
"""

from __future__ import annotations

import difflib
import json
from datetime import UTC, datetime
from typing import Any

from domain import game_names, get_game
from domain.errors import UnknownGameError
from domain.game import Game
from service.stats.keys import StatsKeys, title_suffix
from service.stats.periods import finished_day
from service.stats.reading import counted_titles
from service.store.connection import StoreClient
from service.store.keys import Keys


def created_titles(client: StoreClient, prefix: str) -> dict[str, str]:
    """Title key -> the game recording it, for every title a game was created or imported
    under (finished or not)."""
    return dict(client.hgetall(Keys(prefix).index("titles")))


def rules_for(client: StoreClient, prefix: str, key: str) -> Game[Any]:
    """The rules whose figures a key's statistics are read with: the game of that name, or the
    game that records the title (a score sheet). UnknownGameError, naming the closest keys, for
    a key that is neither."""
    if key in game_names():
        return get_game(key)
    created = created_titles(client, prefix)
    if key in created:
        return get_game(created[key])
    kept = client.hvals(StatsKeys(prefix).key(title_suffix(key)))
    if kept:
        # Counted here (a rebuild from an archive brought in) though never created here.
        return get_game(json.loads(kept[0])["rules"])
    known = [*game_names(), *created, *counted_titles(client, prefix)]
    closest = difflib.get_close_matches(key, sorted(set(known)), n=3, cutoff=0.6)
    hint = f"; the closest: {', '.join(closest)}" if closest else ""
    raise UnknownGameError(
        f"no game or title with the key {key!r} has been recorded here{hint}",
        {"game": closest or "a game's name or a title's key"},
    )


def counts_played(rules: Game[Any]) -> range:
    """The player counts of the games a key read with ``rules`` may count: the rules' own, and
    those of every game that records titles, since a title's key may name a game with rules (a
    score sheet of 20 players whose title is that game's name counts as that game, though its
    rules seat 2 to 5)."""
    games = [rules, *(get_game(name) for name in game_names() if get_game(name).records_titles)]
    fewest = min(game.min_players for game in games)
    most = max(game.max_players for game in games)
    return range(fewest, most + 1)


def titles(client: StoreClient, prefix: str) -> list[dict[str, Any]]:
    """The titles with at least one finished game, most games first (then by key): each with
    the spelling and BoardGameGeek id of its latest game and that game's day."""
    counted = counted_titles(client, prefix)
    keys = StatsKeys(prefix)
    with client.pipeline(transaction=False) as pipe:
        for key in counted:
            pipe.hvals(keys.key(title_suffix(key)))
        kept_by_title = pipe.execute()
    found = []
    for (key, games), kept in zip(counted.items(), kept_by_title, strict=True):
        if not kept:
            continue
        latest = max((json.loads(one) for one in kept), key=lambda one: moment(one["finished_at"]))
        found.append(
            {
                "key": key,
                "title": latest["title"],
                "games": games,
                "bgg_id": latest["bgg_id"],
                "last_played": finished_day(latest["finished_at"]).isoformat(),
            }
        )
    return sorted(found, key=lambda title: (-title["games"], title["key"]))


def moment(finished_at: str) -> datetime:
    """A finish time as a moment, whatever way its offset is written (Z, +00:00)."""
    at = datetime.fromisoformat(finished_at)
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)
