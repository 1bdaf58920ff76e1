"""The rating model, pure: what a finished game's figures give the ratings, and OpenSkill's
Plackett-Luce applied to games in order (``replay``).

Plackett-Luce with its default parameters (a game with tied ranks: its update averaged over the
orders the ties could have been broken in, ``service.stats.ratings.ties``), one player per team,
or a game's teams as OpenSkill teams (a score sheet's: ``Game.rating_teams``); a game's ``result``
may give its ``ranks`` (a score sheet's, lowest-wins ones included). A game's ranks are its
winners first (rank 1, shared), then the other seats by score, higher first, equal scores sharing
a rank (every game scores so that more is better: its ``result``'s scores are points, pears or
health left).

``replay`` is the one place the model is applied, for the live updates and the rebuild alike
(``service.stats.ratings.writing``), so both give the same floats.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from openskill.models import PlackettLuce

from service.stats.game_figures import GameFigures, Number
from service.stats.ratings.ties import Skill, rate_with_ties

# A player's rating as kept: mu, sigma and the number of games rated.
Rating = tuple[float, float, int]


def conservative(mu: float, sigma: float) -> float:
    """The rating shown and ranked by: a skill the player very likely has at least."""
    return mu - 3 * sigma


@functools.cache
def model() -> PlackettLuce:
    """OpenSkill's Plackett-Luce with its default parameters: made when a game is first rated,
    not when the module is imported."""
    return PlackettLuce()


@dataclass(frozen=True)
class RatedGame:
    """What rating one game takes: who sat where, how each seat ranked, and when it ended."""

    game: str
    game_id: str
    finished_at: str
    players: tuple[str, ...]
    ranks: tuple[int, ...]
    # Seats rated as one team each (a score sheet's teams); empty: each seat alone.
    teams: tuple[tuple[int, ...], ...] = ()

    @property
    def units(self) -> tuple[tuple[int, ...], ...]:
        """The teams as rated: each seat alone unless the game had teams."""
        return self.teams or tuple((seat,) for seat in range(len(self.players)))

    @classmethod
    def kept(cls, game: str, game_id: str, kept: Mapping[str, Any]) -> RatedGame:
        """A rated game again from what the ratings keep of it (``_kept_json``)."""
        teams = tuple(tuple(team) for team in kept.get("teams") or ())
        players, ranks = tuple(kept["players"]), tuple(kept["ranks"])
        return cls(game, game_id, kept["finished_at"], players, ranks, teams)

    @property
    def order(self) -> tuple[int, str]:
        return finish_order(self.finished_at), self.game_id


def finish_order(finished_at: str) -> int:
    """``finished_at`` in whole microseconds since the epoch: exact as a sorted set's score."""
    moment = datetime.fromisoformat(finished_at)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta = moment - datetime(1970, 1, 1, tzinfo=UTC)
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def ranks_of(winners: Iterable[int], scores: Sequence[Number | None]) -> tuple[int, ...]:
    """Rank 1 for every winner; then the other seats by score, the highest first, equal scores
    sharing a rank; a seat no number was written for (None) after every seat with one, as a score
    sheet ranks a play brought in from another app."""
    won = set(winners)
    others = sorted(
        {score for seat, score in enumerate(scores) if seat not in won and score is not None},
        reverse=True,
    )
    first_after_winners = 2 if won else 1
    rank_of_score = {score: first_after_winners + place for place, score in enumerate(others)}
    unscored = first_after_winners + len(others)
    return tuple(
        1 if seat in won else unscored if score is None else rank_of_score[score]
        for seat, score in enumerate(scores)
    )


def rated_game_of(figures: GameFigures) -> RatedGame | None:
    """What the ratings take of a finished game's figures; None for a game not rated (one its
    game does not rate, a game of one player: a rating ranks players against each other, or a
    game nobody won, which no one lost to anyone either: never ranked by its scores)."""
    if figures.teams is None or (not figures.teams and len(figures.players) < 2):
        return None
    if not figures.winners and not figures.ranks:
        return None
    alone = all(len(team) == 1 for team in figures.teams)
    return RatedGame(
        game=figures.game,
        game_id=figures.game_id,
        finished_at=figures.finished_at,
        players=figures.players,
        ranks=figures.ranks or ranks_of(figures.winners, figures.seat_scores),
        teams=() if alone else figures.teams,
    )


def rate_units(units: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """Every unit's players' (mu, sigma) after one game: Plackett-Luce's own update when no two
    units tie (the contract wants its floats exactly), else its update averaged over the orders
    the ties could have been broken in, which keeps the joint winners above the third."""
    if len(set(ranks)) < len(ranks):
        return rate_with_ties(model(), units, ranks)
    teams = [[model().rating(mu=mu, sigma=sigma) for mu, sigma in unit] for unit in units]
    rated = model().rate(teams, ranks=list(ranks))
    return [[(rating.mu, rating.sigma) for rating in team] for team in rated]


@dataclass(frozen=True)
class Replayed:
    """One game rated: its players' ratings before and after it, seat by seat."""

    game: RatedGame
    before: list[Rating]
    after: list[Rating]


def replay(
    games: Iterable[RatedGame], start: Mapping[str, Rating]
) -> tuple[list[Replayed], dict[str, Rating]]:
    """Rate ``games`` in the order given, from the ratings ``start`` holds (a new player's
    default otherwise); every game rated, and the ratings after the last."""
    ratings = dict(start)
    replayed = []
    for game in games:
        new_player: Rating = (model().mu, model().sigma, 0)
        before = [ratings.get(player, new_player) for player in game.players]
        units = game.units
        rated = rate_units([[before[seat][:2] for seat in unit] for unit in units],
                           [game.ranks[unit[0]] for unit in units])  # fmt: skip
        after = list(before)
        for unit, team in zip(units, rated, strict=True):
            for seat, (mu, sigma) in zip(unit, team, strict=True):
                after[seat] = (mu, sigma, before[seat][2] + 1)
        for player, rating in zip(game.players, after, strict=True):
            ratings[player] = rating
        replayed.append(Replayed(game, before, after))
    return replayed, ratings
