"""Corrections, for every game: ``retract`` voids the latest move still standing; ``abandon`` sets
an unfinished game aside.

The record stays append-only: a retraction is an event of its own and the voided move stays
stored. The state is the fold of the moves left standing, so a seeded game replays its draws as if
a voided move had never been made. A retraction after the game's last move reopens it (the
recorder fixing a mis-tapped end). An abandonment ends a game without a result: nothing may follow
it, and it changes no state. No game module knows about either.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from domain.errors import GameFinishedError, IllegalMoveError, InvalidEventError
from domain.game import Game

S = TypeVar("S")

RETRACT = "retract"
ABANDON = "abandon"


def is_retract(event: Mapping[str, Any]) -> bool:
    return event.get("type") == RETRACT


def is_abandon(event: Mapping[str, Any]) -> bool:
    return event.get("type") == ABANDON


def is_correction(event: Mapping[str, Any]) -> bool:
    """A retraction or an abandonment: events of every game, which no game's rules apply."""
    return event.get("type") in (RETRACT, ABANDON)


# Corrections in words, the same for every game (the moves' own words are each game's).
CORRECTION_WORDS = {RETRACT: "the last move taken back", ABANDON: "the game abandoned"}


def check_abandon(event: Mapping[str, Any]) -> None:
    """An abandonment is ``{"type": "abandon"}`` alone."""
    _check_alone(event)


def _check_alone(event: Mapping[str, Any]) -> None:
    extra = sorted(name for name in event if name != "type")
    if extra:
        raise InvalidEventError(
            f"a {event['type']} event has no other fields: {', '.join(extra)}",
            {name: "unknown field" for name in extra},
        )


def check_retract(event: Mapping[str, Any], standing: int) -> None:
    """A retraction is ``{"type": "retract"}`` alone, and needs a move still standing."""
    _check_alone(event)
    if standing == 0:
        raise IllegalMoveError(
            "there is no move left to retract: a retraction never goes past the first move"
        )


def voided(events: Sequence[Mapping[str, Any]]) -> list[bool]:
    """For each event, whether a later retraction voids it (retractions themselves stand)."""
    void = [False] * len(events)
    standing: list[int] = []
    for position, event in enumerate(events):
        if is_retract(event):
            if standing:
                void[standing.pop()] = True
        elif not is_abandon(event):
            standing.append(position)
    return void


def standing_moves(events: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The moves left standing, in order: what the game's state folds."""
    void = voided(events)
    return [
        e for e, is_void in zip(events, void, strict=True) if not is_void and not is_correction(e)
    ]


class Fold(Generic[S]):
    """The moves left standing and the state after each, kept as events come one at a time.

    A retraction pops the state its move made: the state before it is a value that already holds
    the generator's position, so nothing is replayed and seeded draws come out as if the voided
    move had never been made. On a finished game it voids the last move and the game goes on.
    """

    def __init__(self, game: Game[S], start: S) -> None:
        self.game = game
        self.moves: list[Mapping[str, Any]] = []
        # ``states[i + 1]`` follows ``moves[i]``; ``states[0]`` is the start.
        self.states: list[S] = [start]
        # Set aside without a result: nothing may follow.
        self.abandoned = False

    @property
    def state(self) -> S:
        return self.states[-1]

    def add(self, event: Mapping[str, Any]) -> None:
        if self.abandoned:
            raise GameFinishedError("the game was abandoned: nothing more may be recorded")
        if is_abandon(event):
            check_abandon(event)
            if self.game.result(self.state) is not None:
                raise GameFinishedError("a finished game cannot be abandoned: it has its result")
            self.abandoned = True
        elif is_retract(event):
            check_retract(event, len(self.moves))
            self.moves.pop()
            self.states.pop()
        else:
            self.states.append(self.game.apply(self.state, event))
            self.moves.append(event)


def fold(game: Game[S], start: S, events: Iterable[Mapping[str, Any]]) -> Fold[S]:
    """Fold ``events`` (moves and retractions) from ``start``."""
    folded = Fold(game, start)
    for event in events:
        folded.add(event)
    return folded
