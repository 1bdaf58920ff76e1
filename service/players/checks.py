"""Whether a change of the roster may be made: a name must be one some finished game has (404
otherwise), and two names that sat in one finished game are two people (409, naming the game).

Read from the statistics' index of names (``service.stats.names``): linear in the games of the
side with fewer, never in the whole history.
"""

from __future__ import annotations

from domain.roster import Roster, joined_player, moving
from service.errors import NotFoundError, PlayedTogetherError
from service.stats.names import games_of_name, games_with
from service.store.connection import StoreClient


def known_name(client: StoreClient, prefix: str, name: str) -> None:
    """NotFoundError unless some finished game has ``name`` as written."""
    if not games_of_name(client, prefix, name):
        raise NotFoundError(
            f"no finished game has a player named {name!r}: only a name played under can count"
            " as another (names are matched as written, accents and capitals included)",
            {"name": name},
        )


def never_together(client: StoreClient, prefix: str, roster: Roster, name: str, other: str) -> None:
    """PlayedTogetherError if a name that joining ``name`` to ``other`` moves sat in one
    finished game with a name of the player it joins."""
    moved = set(moving(roster, name))
    staying = set(roster.names_of(joined_player(roster, name, other))) - moved
    if not staying:
        return
    games = {one: games_of_name(client, prefix, one) for one in moved | staying}
    # Scan the side with fewer games: each of its games is looked at once.
    scanned, against = sorted((moved, staying), key=lambda side: sum(games[one] for one in side))
    for one in sorted(scanned):
        for game in games_with(client, prefix, one):
            met = sorted(set(game.names) & against)
            if met:
                first, second = (one, met[0]) if one in moved else (met[0], one)
                raise PlayedTogetherError(first, second, game.game_id, game.game, game.finished_at)
