"""Round robin: every pair meets once (circle method; a bye with an odd number)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from domain.tournaments import Pairing, TournamentError, pair_round, rounds_planned
from tests.domain.tournaments.helpers import met_counts, names, play_out, seated


def test_a_round_robin_plans_n_minus_1_rounds_for_an_even_n_and_n_for_an_odd_one() -> None:
    assert rounds_planned("round_robin", 6, None) == 5
    assert rounds_planned("round_robin", 5, None) == 5
    assert rounds_planned("round_robin", 2, 9) == 1  # as many rounds as it needs, whatever asked


def test_a_round_robin_of_5_meets_every_pair_once_over_5_rounds_each_sitting_out_once() -> None:
    players = names(5)
    history = play_out("round_robin", players, rounds=5, seed=5)
    met = met_counts(history)
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(met.values()) == {1}
    assert sorted(name for one in history for name in one.byes) == sorted(players)
    for one in history:
        assert sorted(seated(Pairing(one.tables, one.byes))) == sorted(players)


@pytest.mark.parametrize("count", [2, 3, 4, 7, 8, 11, 16])
def test_every_pair_meets_once_whatever_the_number(count: int) -> None:
    players = names(count)
    history = play_out("round_robin", players, rounds_planned("round_robin", count, None), 1)
    met = met_counts(history)
    assert len(met) == count * (count - 1) // 2 and set(met.values()) == {1}


@pytest.mark.parametrize("count", [4, 5, 6, 9])
def test_who_plays_first_is_balanced(count: int) -> None:
    players = names(count)
    history = play_out("round_robin", players, rounds_planned("round_robin", count, None), 2)
    balance = Counter[str]()
    for one in history:
        for table in one.tables:
            balance[table.players[0]] += 1
            balance[table.players[1]] -= 1
    # An odd number plays an even number of games each: exactly half first.
    allowed = 0 if count % 2 == 1 else 1
    assert all(abs(balance[name]) <= allowed for name in players)


def test_the_seed_draws_the_order_of_players_once() -> None:
    players = names(6)
    first_rounds = {pair_round("round_robin", players, [], [], seed) for seed in range(8)}
    assert len(first_rounds) > 1
    assert pair_round("round_robin", players, [], [], 3) == pair_round(
        "round_robin", players, [], [], 3
    )


def test_a_withdrawn_players_opponent_sits_out_with_a_bye() -> None:
    players = names(6)
    history = play_out("round_robin", players, rounds=2, seed=4)
    pairing = pair_round("round_robin", players, [players[2]], history, seed=4)
    assert players[2] not in seated(pairing)
    assert len(pairing.tables) == 2 and len(pairing.byes) == 1


def test_no_round_after_the_last() -> None:
    players = names(4)
    history = play_out("round_robin", players, rounds=3, seed=1)
    with pytest.raises(TournamentError, match="3 rounds"):
        pair_round("round_robin", players, [], history, seed=1)
