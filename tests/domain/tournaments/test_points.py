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


def test_a_first_place_shared_or_not_is_a_win_and_no_winner_is_no_win() -> None:
    history = [
        PlayedRound(
            (Table(("Ana", "Ben", "Caro")), Table(("Dan", "Eve"))),
            (TableOutcome((1, 1, 3)), TableOutcome(None)),
            byes=(),
        )
    ]
    wins = {s.player: s.wins for s in standings(["Ana", "Ben", "Caro", "Dan", "Eve"], history, 2)}
    assert wins == {"Ana": 1, "Ben": 1, "Caro": 0, "Dan": 0, "Eve": 0}


def swiss_by_hand() -> tuple[list[str], list[PlayedRound]]:
    players = ["Ana", "Ben", "Caro", "Dan"]
    history = [
        PlayedRound(
            (Table(("Ana", "Ben")), Table(("Caro", "Dan"))),
            (TableOutcome((1, 2)), TableOutcome((1, 1))),  # Ana wins; Caro and Dan draw
            byes=(),
        ),
        PlayedRound(
            (Table(("Caro", "Ana")), Table(("Dan", "Ben"))),
            (TableOutcome((1, 2)), TableOutcome((1, 2))),  # Caro wins; Dan wins
            byes=(),
        ),
    ]
    return players, history


def test_standings_of_a_small_swiss_equal_the_hand_computed_table() -> None:
    players, history = swiss_by_hand()
    # Points: Ana 1 + 0, Ben 0 + 0, Caro ½ + 1, Dan ½ + 1.
    # Opponents' points: Caro: Dan 1.5 + Ana 1 = 2.5; Dan: Caro 1.5 + Ben 0 = 1.5;
    # Ana: Ben 0 + Caro 1.5 = 1.5; Ben: Ana 1 + Dan 1.5 = 2.5. A draw is a shared first: a win.
    rows = [
        (s.rank, s.player, s.points, s.opponents_points, s.wins, s.games)
        for s in standings(players, history, seed=3)
    ]
    assert rows == [
        (1, "Caro", F(3, 2), F(5, 2), 2, 2),
        (2, "Dan", F(3, 2), F(3, 2), 2, 2),
        (3, "Ana", 1, F(3, 2), 1, 2),
        (4, "Ben", 0, F(5, 2), 0, 2),
    ]


def test_standings_of_a_small_pods_event_equal_the_hand_computed_table() -> None:
    players = ["A", "B", "C", "D", "E", "F"]
    history = [
        PlayedRound(
            (Table(("A", "B", "C")), Table(("D", "E", "F"))),
            (TableOutcome((1, 2, 3)), TableOutcome((1, 1, 3))),
            byes=(),
        ),
        PlayedRound(
            (Table(("A", "D", "E")), Table(("B", "C", "F"))),
            (TableOutcome((2, 1, 3)), TableOutcome((1, 2, 3), abandoned=True)),
            byes=(),
        ),
    ]
    # Points: A 1 + ½, B ½ + 0, C 0 + 0, D ¾ + 1, E ¾ + 0, F 0 + 0 (abandoned: 0 each).
    # Opponents' points, table by table: A ½ + 2.5 = 3; B 1.5 + 0 = 1.5; C 2 + ½ = 2.5;
    # D ¾ + 2¼ = 3; E 1¾ + 3¼ = 5; F 2½ + ½ = 3 (the abandoned table's tablemates count).
    rows = [
        (s.rank, s.player, s.points, s.opponents_points, s.wins, s.games)
        for s in standings(players, history, seed=5)
    ]
    assert rows == [
        (1, "D", F(7, 4), 3, 2, 2),
        (2, "A", F(3, 2), 3, 1, 2),
        (3, "E", F(3, 4), 5, 1, 2),
        (4, "B", F(1, 2), F(3, 2), 0, 2),
        (5, "F", 0, 3, 0, 2),
        (6, "C", 0, F(5, 2), 0, 2),
    ]


def test_a_player_met_twice_counts_twice_in_opponents_points() -> None:
    round_ = PlayedRound((Table(("Ana", "Ben")),), (TableOutcome((1, 2)),), byes=("Caro",))
    by_name = {s.player: s for s in standings(["Ana", "Ben", "Caro"], [round_, round_], 1)}
    assert by_name["Ben"].opponents_points == 2 * by_name["Ana"].points == 4


def test_equal_points_are_ordered_by_opponents_points_then_wins() -> None:
    # Ana: a win and a loss (1 point, 1 win); Ben: two draws (1 point, 2 shared firsts).
    history = [
        PlayedRound(
            (Table(("Ana", "Caro")), Table(("Ben", "Dan"))),
            (TableOutcome((1, 2)), TableOutcome((1, 1))),
            byes=(),
        ),
        PlayedRound(
            (Table(("Ana", "Dan")), Table(("Ben", "Caro"))),
            (TableOutcome((2, 1)), TableOutcome((1, 1))),
            byes=(),
        ),
    ]
    table = standings(["Ana", "Ben", "Caro", "Dan"], history, seed=0)
    by_name = {s.player: s for s in table}
    assert by_name["Ana"].points == by_name["Ben"].points == 1
    assert by_name["Ana"].opponents_points == by_name["Ben"].opponents_points
    assert [s.player for s in table].index("Ben") < [s.player for s in table].index("Ana")


def test_the_seeds_draw_breaks_every_remaining_tie_and_no_rank_is_shared() -> None:
    players = [f"P{i}" for i in range(8)]
    orders = {tuple(s.player for s in standings(players, [], seed)) for seed in range(10)}
    assert len(orders) > 1
    for seed in range(10):
        assert [s.rank for s in standings(players, [], seed)] == list(range(1, 9))
        assert standings(players, [], seed) == standings(players, [], seed)


def test_a_withdrawn_player_keeps_their_points_and_stays_in_the_standings() -> None:
    players, history = swiss_by_hand()
    later = [*history, PlayedRound((Table(("Caro", "Dan")),), (TableOutcome((1, 2)),), ("Ben",))]
    # Ana withdrew after round 2: not paired, still standing with her 1 point.
    by_name = {s.player: s for s in standings(players, later, seed=3)}
    assert by_name["Ana"].points == 1 and by_name["Ana"].games == 2


def test_a_round_naming_someone_not_in_the_tournament_is_refused() -> None:
    history = [PlayedRound((Table(("Ana", "Zed")),), (TableOutcome((1, 2)),), byes=())]
    with pytest.raises(TournamentError, match="'Zed', not a player"):
        standings(["Ana", "Ben"], history, seed=1)


def test_a_round_seating_someone_twice_is_refused() -> None:
    history = [PlayedRound((Table(("Ana", "Ben")),), (TableOutcome((1, 2)),), byes=("Ana",))]
    with pytest.raises(TournamentError, match="round 1 seats 'Ana' twice"):
        standings(["Ana", "Ben"], history, seed=1)


def test_points_add_up_exactly_over_tables_of_every_size() -> None:
    # Thirds, quarters and halves in one event: no rounding anywhere.
    history = [
        PlayedRound(
            (Table(("A", "B", "C", "D")), Table(("E", "F", "G")), Table(("H", "I"))),
            (TableOutcome((1, 2, 3, 4)), TableOutcome((1, 2, 3)), TableOutcome((1, 1))),
            byes=(),
        ),
        PlayedRound(
            (Table(("A", "E", "H", "B", "F")), Table(("C", "G", "I", "D"))),
            (TableOutcome((5, 4, 3, 2, 1)), TableOutcome((2, 2, 2, 1))),
            byes=(),
        ),
    ]
    by_name = {s.player: s.points for s in standings(list("ABCDEFGHI"), history, seed=4)}
    assert by_name["A"] == 1 + 0
    assert by_name["B"] == F(2, 3) + F(3, 4)
    assert by_name["D"] == 0 + 1
    assert by_name["G"] == 0 + F(1, 3)
    assert by_name["H"] == F(1, 2) + F(1, 2)


def test_an_abandoned_table_is_a_game_played_and_its_tablemates_count_as_opponents() -> None:
    history = [
        PlayedRound(
            (Table(("Ana", "Ben")), Table(("Caro", "Dan"))),
            (TableOutcome((1, 2)), TableOutcome((2, 1))),
            byes=(),
        ),
        PlayedRound(
            (Table(("Ana", "Dan")), Table(("Ben", "Caro"))),
            (TableOutcome((1, 2), abandoned=True), TableOutcome((1, 2))),
            byes=(),
        ),
    ]
    by_name = {s.player: s for s in standings(["Ana", "Ben", "Caro", "Dan"], history, seed=6)}
    # Ana and Dan each won round 1 and lost the abandoned game: 1 point, 2 games, 1 win.
    assert (by_name["Ana"].points, by_name["Ana"].games, by_name["Ana"].wins) == (1, 2, 1)
    assert (by_name["Dan"].points, by_name["Dan"].games, by_name["Dan"].wins) == (1, 2, 1)
    # Ana's opponents: Ben (1 point, from round 2) and Dan (1 point) at the abandoned table.
    assert by_name["Ana"].opponents_points == 2
