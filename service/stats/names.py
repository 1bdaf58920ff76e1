"""The names as the records wrote them, read from the statistics' index of names
(``service.stats.keys``: ``names``, ``name:<name>``), which the count keeps beside the figures.

The figures count people (``service.stats.people``); the roster (``service.players``) needs the
names themselves: which names exist (a name no finished game has cannot be joined), how many games
each has (the picker shows them), and the games a name sat in (two names of one game are two
people).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from service.stats.keys import NAMES_SUFFIX, StatsKeys, name_suffix
from service.store.connection import StoreClient


@dataclass(frozen=True)
class NamedGame:
    """A finished game as the index of names keeps it: its id, what it counts under (a game or a
    title's key), when it finished, and its names as written."""

    game_id: str
    game: str
    finished_at: str
    names: tuple[str, ...]


def played_names(client: StoreClient, prefix: str) -> dict[str, int]:
    """Every name some finished game has, as written -> how many finished games it is in."""
    found = client.hgetall(StatsKeys(prefix).key(NAMES_SUFFIX))
    return {name: int(games) for name, games in found.items() if int(games) > 0}


def games_of_name(client: StoreClient, prefix: str, name: str) -> int:
    """How many finished games have ``name`` as written (0: none)."""
    found = client.hget(StatsKeys(prefix).key(NAMES_SUFFIX), name)
    return int(found or 0)


def games_with(client: StoreClient, prefix: str, name: str) -> Iterator[NamedGame]:
    """The finished games that have ``name`` as written, a page of the index at a time."""
    key = StatsKeys(prefix).key(name_suffix(name))
    for game_id, raw in client.hscan_iter(key, count=500):
        kept = json.loads(raw)
        yield NamedGame(game_id, kept["game"], kept["finished_at"], tuple(kept["names"]))
