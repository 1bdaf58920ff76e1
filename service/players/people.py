"""People as the pages show them: who a name counts as, the names a person plays under, and the
people a person could be the same as (the "Same person as…" picker of a player's page).

Read from the roster (``store``) and the index of names as written (``service.stats.names``).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.roster import Roster
from service.stats.names import games_with, played_names
from service.store.connection import StoreClient


@dataclass(frozen=True)
class Person:
    """A person as a picker offers them: the name they are counted under, their other names,
    and their finished games under any of them."""

    player: str
    others: tuple[str, ...]
    games: int


def people(client: StoreClient, prefix: str, roster: Roster) -> list[Person]:
    """Every person with a finished game, most games first, then by name."""
    games: dict[str, int] = {}
    for name, played in played_names(client, prefix).items():
        player = roster.player_of(name)
        games[player] = games.get(player, 0) + played
    return [
        Person(player, tuple(roster.names_of(player)[1:]), played)
        for player, played in sorted(games.items(), key=lambda item: (-item[1], item[0]))
    ]


def could_be(client: StoreClient, prefix: str, roster: Roster, player: str) -> list[Person]:
    """The people ``player`` could be the same person as: every other person none of whose
    names sat at a finished game with one of ``player``'s (two people of one game are two
    people), most games first. Linear in ``player``'s games and in the names known."""
    own = roster.names_of(player)
    met: set[str] = set()
    for name in own:
        for game in games_with(client, prefix, name):
            met.update(game.names)
    return [
        person
        for person in people(client, prefix, roster)
        if person.player != player and met.isdisjoint((person.player, *person.others))
    ]


def known_names(client: StoreClient, prefix: str) -> list[str]:
    """Every name a finished game has, as written, sorted: what the forms suggest (a name that
    counts as another is known too, and recording it counts it as that person)."""
    return sorted(played_names(client, prefix))
