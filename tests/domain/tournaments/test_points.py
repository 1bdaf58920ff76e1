"""Points per placing and the standings (spec: "Points from each game's result", "Standings")."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from domain.tournaments import (
    PlayedRound,
    Table,
    TableOutcome,
    TournamentError,
    standings,
    table_points,
)


def test_a_win_is_1_and_a_last_place_0_whatever_the_tables_size() -> None:
    assert table_points(TableOutcome((1, 2)), 2) == (1, 0)
    assert table_points(TableOutcome((2, 1, 3)), 3) == (F(1, 2), 1, 0)
    assert table_points(TableOutcome((1, 2, 3, 4, 5)), 5) == (1, F(3, 4), F(1, 2), F(1, 4), 0)


def test_a_shared_rank_takes_half_of_the_others_sharing_it() -> None:
    assert table_points(TableOutcome((1, 1)), 2) == (F(1, 2), F(1, 2))
    # Four players, two share second: each has one below and half of one sharing: 1.5 / 3.
    assert table_points(TableOutcome((1, 2, 2, 4)), 4) == (1, F(1, 2), F(1, 2), 0)
    assert table_points(TableOutcome((1, 1, 3)), 3) == (F(3, 4), F(3, 4), 0)


def test_no_winner_is_half_each() -> None:
    assert table_points(TableOutcome(None), 4) == (F(1, 2),) * 4


def test_an_abandoned_table_is_lost_by_everyone_at_it() -> None:
    assert table_points(TableOutcome((1, 2, 3), abandoned=True), 3) == (0, 0, 0)


def test_ranks_that_do_not_fit_the_table_are_refused_in_words() -> None:
    with pytest.raises(TournamentError, match="3 players has 2 ranks"):
        table_points(TableOutcome((1, 2)), 3)


def test_a_bye_is_a_point_and_neither_a_game_nor_a_win() -> None:
    history = [
        PlayedRound((Table(("Ana", "Ben")),), (TableOutcome((2, 1)),), byes=("Caro",)),
    ]
    by_name = {s.player: s for s in standings(["Ana", "Ben", "Caro"], history, seed=1)}
    assert (by_name["Caro"].points, by_name["Caro"].games, by_name["Caro"].wins) == (1, 0, 0)
    assert (by_name["Ben"].points, by_name["Ben"].games, by_name["Ben"].wins) == (1, 1, 1)
