"""The names of a game's figures read as the people they count as: the one place the statistics
look a name up in the roster (``domain.roster``, kept by ``service.players``).

Every statistic, rating and head to head is counted under the person: a game's figures are read
through the roster as they are counted (``service.stats.counting``) and rebuilt
(``service.stats.rebuild``), and when the roster changes every figure is counted again from the
archive (``workers.roster``). The records are never rewritten: ``GameFigures.names`` keeps the
names as written, which the index of names (``service.stats.names``) counts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from domain.roster import Roster
from service.stats.game_figures import GameFigures, PlayFigures


def under_people(figures: GameFigures, roster: Roster) -> GameFigures:
    """``figures`` with each name replaced by its player: the seats keep their order, and two
    names of one person in one game (joined after it was played) count as that person seated
    twice, as a name written twice does."""
    if not roster.players:
        return figures
    names = figures.names or figures.players
    players = tuple(roster.player_of(name) for name in names)
    plays: dict[str, PlayFigures] = {}
    for name, play in figures.plays.items():
        person = plays.setdefault(roster.player_of(name), PlayFigures())
        person.games += play.games
        person.wins += play.wins
        person.score += play.score
        person.unscored += play.unscored
    return dataclasses.replace(figures, players=players, plays=plays, names=names)


def all_under_people(batch: Sequence[GameFigures], roster: Roster) -> list[GameFigures]:
    return [under_people(figures, roster) for figures in batch]
