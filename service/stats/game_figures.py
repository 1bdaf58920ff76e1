"""The figures of one finished game, pure: what the statistics count of it and what the ratings
rate, read from its replay. No Redis here: ``service.stats.counting`` writes what this tells.

This is the one place a game's result is read for the statistics: its winners and scores
(``Game.result``), its first player, its counters (``Game.stats_counters``), its player count, the
day it finished, its title and its teams. A ``null`` score (a score sheet's seat no number was
written for; every seat of a game without points) is no score: it adds nothing to a score sum nor to
the distribution, and is counted apart (``PlayFigures.unscored``) so that a mean divides by the
numbers written. A game nobody won (``winners: []``) is played, won by no one. Nothing here knows a
game's rules: a new game gets its statistics without code here. The figures come from the replay
(the header and the moves left standing), never from the stored result, so the live count and the
rebuild from the archive (``service.stats.rebuild``) read the same figures.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from domain import get_game
from domain.errors import TabletapeError
from domain.game import Teams, Title
from service.stats.periods import finished_day
from service.store.archive import events_of
from service.store.audit import Audit, replay_record
from service.store.chain import LEGACY_FORMAT
from service.store.records import GameRecord

Number = int | float


class StatsError(Exception):
    """A game that cannot be counted: unfinished, unreplayable, or scored with a non-number."""


@dataclass
class PlayFigures:
    """One player's share of one game (or of many): plays (seats held), wins, the sum of the
    numbers written for them, and the plays in which none was (a ``null`` score)."""

    games: int = 0
    wins: int = 0
    score: Number = 0
    # Counted as the plays with no number rather than those with one: a game with rules always
    # has them, so its figures carry no extra field, and those stored before this count read
    # right (an absent field reads 0).
    unscored: int = 0

    @property
    def scored(self) -> int:
        """The plays a number was written for: what a mean score divides by."""
        return self.games - self.unscored


@dataclass(frozen=True)
class GameFigures:
    """What one finished game adds to the statistics of its game and of its players."""

    game_id: str
    game: str
    # Increments of the fields of ``game:<game>`` (``service.stats.keys``).
    totals: dict[str, int]
    # Increments of the score histogram: score as JSON -> seats (the numbers written only).
    scores: dict[str, int]
    # Player name -> their plays, wins and score in this game.
    plays: dict[str, PlayFigures] = field(default_factory=dict)
    # The game as the filters, head to head and ratings see it: names in seat order, the
    # winning seats, each seat's score (None: no number written), and when it finished.
    players: tuple[str, ...] = ()
    winners: tuple[int, ...] = ()
    seat_scores: tuple[Number | None, ...] = ()
    finished_at: str = ""
    # How the seats ranked (1 best, shared ties): the result's ``ranks``, else its winners
    # first and then by score (``service.stats.ratings.model.ranks_of``) when left empty.
    ranks: tuple[int, ...] = ()
    # Who is rated together (``Game.rating_teams``): each seat alone when empty; None for a
    # game counted but not rated (a cooperative one).
    teams: Teams | None = ()
    # The title the game was recorded as, for a game of a title (a score sheet), and the game
    # whose rules recorded it (its figures are read with them).
    title: Title | None = None
    rules: str = ""
    # The names as the record wrote them, seat by seat. ``players`` and ``plays`` are the
    # people those names count as (``service.stats.people``: the same until names are joined).
    names: tuple[str, ...] = ()

    @property
    def day(self) -> date:
        return finished_day(self.finished_at)


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
    # service.stats.keys); a win count is written only when there is a win.
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
        play = plays.setdefault(player, PlayFigures())
        play.games += 1
        play.wins += int(seat in winners)
        if score is None:
            play.unscored += 1
            continue
        key = json.dumps(score)
        histogram[key] = histogram.get(key, 0) + 1
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
        names=tuple(record.players),
    )


def _checked_score(game_id: str, score: Any) -> Number | None:
    # Checked before the script runs: HINCRBYFLOAT would refuse an infinity halfway through it.
    # None is a score never written: no score, counted apart.
    if score is None:
        return None
    if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
        raise StatsError(f"game {game_id} has a score that is not a finite number: {score!r}")
    return score


def figures_of_archived(document: Mapping[str, Any], source: str) -> GameFigures:
    """The figures of a game as its archive file holds it; a document that cannot be replayed is
    a StatsError naming ``source`` (its file)."""
    try:
        record = _record_of(document)
        # Only the moves left standing count, as when the archive job counted the game.
        replayed = _replayed(record.header, [event.body for event in events_of(dict(document))])
        return figures_of(record, replayed.standing, replayed.states)
    except (TabletapeError, StatsError, KeyError, TypeError, ValueError) as error:
        message = error.message if isinstance(error, TabletapeError) else str(error)
        raise StatsError(f"{source}: cannot be counted: {message}") from error


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
