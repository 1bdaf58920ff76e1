"""Who counts as whom: the roster of names and people, as a fold of its changes (pure).

The records keep the names as they were written ("Chloe", "Chloé", "chloe.b"); the statistics
count people. A roster maps a name to its **player**, the name the person is counted under; a
name it does not map is its own player. There are no chains: every name points at its player
directly, so a name's player is one look-up (``player_of``).

Two changes make every roster, kept as a log in the order they were made:

- joined: ``name`` counts as ``other``'s player from now on, and the names that counted as
  ``name`` come along (``joined``);
- parted: ``name`` counts as itself again (``parted``).

``folded`` replays a log from nothing: the projection the service keeps is checked against it, and
a rebuild of the statistics reads it. Nothing here reads a clock or a store: times are given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class RosterChange:
    """One change of the roster: at ``at`` (ISO time), ``name`` counts as ``player`` from then
    on, or as itself again when ``player`` is None."""

    at: str
    name: str
    player: str | None


@dataclass(frozen=True)
class Roster:
    """Name -> its player, for the names that count as another (a name absent counts as
    itself). Never a chain, never a name mapped to itself."""

    players: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def player_of(self, name: str) -> str:
        return self.players.get(name, name)

    def names_of(self, player: str) -> list[str]:
        """The player first, then every other name that counts as them, sorted."""
        return [player, *sorted(name for name, of in self.players.items() if of == player)]

    def same_person(self, a: str, b: str) -> bool:
        return self.player_of(a) == self.player_of(b)


def _roster(players: Mapping[str, str]) -> Roster:
    # A name mapped to itself is a name counted as itself: left out, so that equal rosters are
    # equal maps.
    return Roster(MappingProxyType({name: of for name, of in players.items() if name != of}))


def moving(roster: Roster, name: str) -> list[str]:
    """The names a join of ``name`` moves: ``name`` and the names that count as it."""
    return [name, *sorted(other for other, of in roster.players.items() if of == name)]


def joined_player(roster: Roster, name: str, other: str) -> str:
    """The player ``name`` counts as once joined to ``other``: ``other``'s player, or ``other``
    itself when that player is ``name`` (``other`` counted as ``name``: ``name`` now counts as
    ``other``, which becomes the player of them all)."""
    player = roster.player_of(other)
    return other if player == name else player


def joined(roster: Roster, name: str, other: str) -> Roster:
    """``name`` counts as ``other`` from now on, and so does every name that counted as
    ``name`` (no chains)."""
    if name == other:
        return roster
    player = joined_player(roster, name, other)
    brought = set(moving(roster, name))
    players = {one: player if one in brought else of for one, of in roster.players.items()}
    players[name] = player
    return _roster(players)


def parted(roster: Roster, name: str) -> Roster:
    """``name`` counts as itself again; the names that counted as it still do."""
    players = dict(roster.players)
    players.pop(name, None)
    return _roster(players)


def applied(roster: Roster, change: RosterChange) -> Roster:
    """The roster after one change."""
    if change.player is None:
        return parted(roster, change.name)
    return joined(roster, change.name, change.player)


def folded(changes: Iterable[RosterChange]) -> Roster:
    """The roster a log of changes leaves, replayed from nothing in the order given."""
    roster = Roster()
    for change in changes:
        roster = applied(roster, change)
    return roster
