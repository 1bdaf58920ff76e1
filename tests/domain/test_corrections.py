"""Retractions and abandonments, for every game: the fold of the moves left standing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain import game_names, get_game
from domain.corrections import fold, standing_moves, voided
from domain.errors import GameFinishedError, IllegalMoveError, InvalidEventError
from domain.viewers import RECORDER

RETRACT = {"type": "retract"}
ABANDON = {"type": "abandon"}
# Small games that end quickly (Madcala's health is an option).
OPTIONS: dict[str, dict[str, Any]] = {"mada": {}, "madcala": {"health": 5}, "sifaka": {}}


def new(name: str, seed: int = 1) -> tuple[Any, Any]:
    game = get_game(name)
    players = game.min_players
    return game, game.new_game(players, seed, game.options(OPTIONS[name], players))


def test_a_retraction_voids_the_latest_standing_move() -> None:
    events = [{"type": "a"}, {"type": "b"}, RETRACT]
    assert voided(events) == [False, True, False]
    assert standing_moves(events) == [{"type": "a"}]


def test_a_second_retraction_voids_the_move_before() -> None:
    events = [{"type": "a"}, {"type": "b"}, RETRACT, RETRACT, {"type": "c"}]
    assert voided(events) == [True, True, False, False, False]
    assert standing_moves(events) == [{"type": "c"}]


@pytest.mark.parametrize("name", ["mada", "madcala", "sifaka"])
def test_a_retraction_never_goes_past_the_first_move(name: str) -> None:
    game, start = new(name)
    first = game.legal_moves(start)[0]
    assert fold(game, start, [first, RETRACT]).moves == []
    with pytest.raises(IllegalMoveError, match="no move left"):
        fold(game, start, [first, RETRACT, RETRACT])


def test_a_retraction_has_no_other_field() -> None:
    game, start = new("mada")
    with pytest.raises(InvalidEventError):
        fold(game, start, [game.legal_moves(start)[0], {"type": "retract", "player": 0}])


def _played_to_the_end(name: str, seed: int) -> tuple[Any, list[dict[str, Any]]]:
    game, state = new(name, seed=seed)
    chooser = random.Random(seed)
    moves = []
    while game.result(state) is None:
        moves.append(chooser.choice(game.legal_moves(state)))
        state = game.apply(state, moves[-1])
    return state, moves


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_a_retraction_after_the_last_move_reopens_the_game(name: str) -> None:
    finished, moves = _played_to_the_end(name, seed=3)
    game, start = new(name, seed=3)
    reopened = fold(game, start, [*moves, RETRACT])
    assert game.result(reopened.state) is None
    # The state before the last move, whose draws come out again as if it had never been made.
    assert reopened.state == fold(game, start, moves[:-1]).state
    assert fold(game, start, [*moves, RETRACT, moves[-1]]).state == finished


def test_an_abandoned_game_takes_nothing_more() -> None:
    game, start = new("mada", seed=4)
    first = game.legal_moves(start)[0]
    abandoned = fold(game, start, [first, ABANDON])
    assert abandoned.abandoned and abandoned.state == game.apply(start, first)
    for later in (RETRACT, ABANDON, game.legal_moves(abandoned.state)[0]):
        with pytest.raises(GameFinishedError):
            fold(game, start, [first, ABANDON, later])


def test_a_game_may_be_abandoned_before_its_first_move() -> None:
    game, start = new("madcala", seed=4)
    assert fold(game, start, [ABANDON]).abandoned


def test_a_finished_game_cannot_be_abandoned() -> None:
    _, moves = _played_to_the_end("mada", seed=5)
    game, start = new("mada", seed=5)
    with pytest.raises(GameFinishedError):
        fold(game, start, [*moves, ABANDON])


def test_an_abandonment_has_no_other_field() -> None:
    game, start = new("mada")
    with pytest.raises(InvalidEventError):
        fold(game, start, [{"type": "abandon", "reason": "rain"}])


@pytest.mark.parametrize("name", sorted(OPTIONS))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_game_with_retractions_equals_the_game_without_the_voided_moves(
    name: str, seed: int
) -> None:
    assert name in game_names()
    game, start = new(name, seed)
    chooser = random.Random(seed)
    record: list[dict[str, Any]] = []
    stack = [start]
    while game.result(stack[-1]) is None and len(record) < 3000:
        if len(stack) > 1 and chooser.random() < 0.15:
            record.append(RETRACT)
            stack.pop()
        else:
            move = chooser.choice(game.legal_moves(stack[-1]))
            record.append(move)
            stack.append(game.apply(stack[-1], move))
        # At every step: the fold equals the same seed replayed with the standing moves only.
        _, fresh = new(name, seed)
        clean = game.replay(game.min_players, seed, game.options(OPTIONS[name], game.min_players),
                            standing_moves(record))  # fmt: skip
        folded = fold(game, fresh, record).state
        assert game.view(folded, RECORDER) == game.view(clean, RECORDER)
    assert record.count(RETRACT) > 0
