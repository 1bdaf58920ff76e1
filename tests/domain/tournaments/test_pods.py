"""Pods: tables of several players, as even as can be, equal points together, few repeats."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.tournaments import (
    Pairing,
    PlayedRound,
    TableOutcome,
    TournamentError,
    pair_round,
    pod_sizes,
    standings,
)
from tests.domain.tournaments.helpers import met_counts, names, play_out, seated


@pytest.mark.parametrize(
    ("players", "least", "most", "sizes"),
    [(10, 3, 5, (5, 5)), (10, 3, 4, (4, 3, 3)), (11, 3, 4, (4, 4, 3)), (5, 3, 5, (5,))],
)
def test_the_fewest_tables_that_seat_everyone_as_even_as_can_be(
    players: int, least: int, most: int, sizes: tuple[int, ...]
) -> None:
    assert pod_sizes(players, least, most) == sizes


def test_ten_players_at_tables_of_exactly_four_cannot_be() -> None:
    with pytest.raises(TournamentError, match="10 players cannot sit at tables of 4"):
        pod_sizes(10, 4, 4)
    with pytest.raises(TournamentError):
        pod_sizes(2, 3, 5)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 256), st.integers(2, 6), st.integers(0, 3))
def test_table_sizes_are_within_range_seat_everyone_and_differ_by_one_at_most(
    players: int, least: int, spread: int
) -> None:
    most = least + spread
    try:
        sizes = pod_sizes(players, least, most)
    except TournamentError:
        # Impossible only when even the fewest tables of `most` need more than there are.
        assert -(-players // most) * least > players
        return
    assert sum(sizes) == players
    assert all(least <= size <= most for size in sizes)
    assert max(sizes) - min(sizes) <= 1
    assert len(sizes) == -(-players // most)


def test_pods_of_10_at_3_to_5_over_4_rounds() -> None:
    players = names(10)
    history = play_out("pods", players, rounds=4, seed=10, table_size=(3, 5))
    for one in history:
        assert [len(t.players) for t in one.tables] == [5, 5]
        assert sorted(seated(Pairing(one.tables, one.byes))) == sorted(players)
        assert one.byes == ()


def test_players_of_equal_points_sit_together_the_leaders_first() -> None:
    players = names(12)
    history = play_out("pods", players, rounds=2, seed=3, table_size=(4, 4))
    pairing = pair_round("pods", players, [], history, seed=3, table_size=(4, 4))
    points = {s.player: s.points for s in standings(players, history, seed=3)}
    tables = [sorted((points[name] for name in t.players), reverse=True) for t in pairing.tables]
    # No one at a table has fewer points than anyone at a later table.
    for upper, lower in pairwise(tables):
        assert upper[-1] >= lower[0]


def test_players_of_equal_points_change_tables_to_avoid_meeting_again() -> None:
    # Round 1 all level: 8 players at 2 tables of 4; results in which everyone ties, so all
    # stay level, and round 2 can seat everyone with new players but for the unavoidable.
    players = names(8)
    first = pair_round("pods", players, [], [], seed=1, table_size=(4, 4))
    history = [PlayedRound(first.tables, (TableOutcome(None),) * 2, ())]
    second = pair_round("pods", players, [], history, seed=1, table_size=(4, 4))
    met = met_counts([*history, PlayedRound(second.tables, (TableOutcome(None),) * 2, ())])
    # Two tables of 4 from two earlier tables of 4: at best 2 + 2 at each, 2 repeated pairs each.
    assert sum(count - 1 for count in met.values()) == 4


def test_seats_at_each_table_are_drawn_from_the_seed() -> None:
    players = names(10)
    seatings = {
        tuple(t.players for t in pair_round("pods", players, [], [], s, (3, 5)).tables)
        for s in range(6)
    }
    assert len(seatings) > 1


def test_too_few_players_still_in_for_the_tables_is_refused_in_words() -> None:
    players = names(6)
    with pytest.raises(TournamentError, match="cannot sit"):
        pair_round("pods", players, players[:4], [], seed=1, table_size=(3, 5))


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(3, 30),
    least=st.integers(3, 4),
    rounds=st.integers(1, 4),
    seed=st.integers(0, 2**64 - 1),
)
def test_everyone_still_in_is_seated_once_within_the_table_size_and_the_same_inputs_agree(
    count: int, least: int, rounds: int, seed: int
) -> None:
    players = names(count)
    size = (least, 5)
    try:
        pod_sizes(count, *size)
    except TournamentError:
        return
    history = play_out("pods", players, rounds, seed, seed % 97, size)
    for one in history:
        assert Counter(seated(Pairing(one.tables, one.byes))) == Counter(players)
        assert all(least <= len(t.players) <= 5 for t in one.tables)
    again = play_out("pods", list(players), rounds, seed, seed % 97, size)
    assert again == history


@settings(max_examples=25, deadline=None)
@given(count=st.integers(6, 40), rounds=st.integers(1, 5), seed=st.integers(0, 2**64 - 1))
def test_no_swap_of_two_players_of_equal_points_would_lower_the_repeats(
    count: int, rounds: int, seed: int
) -> None:
    players = names(count)
    history = play_out("pods", players, rounds, seed, seed % 89, (3, 5))
    pairing = pair_round("pods", players, [], history, seed, (3, 5))
    met = met_counts(history)
    points = {s.player: s.points for s in standings(players, history, seed)}

    def repeats(table: Sequence[str]) -> int:
        return sum(met[frozenset((a, b))] for i, a in enumerate(table) for b in table[i + 1 :])

    tables = [list(t.players) for t in pairing.tables]
    for k, upper in enumerate(tables):
        for lower in tables[k + 1 :]:
            for a in upper:
                for b in lower:
                    if points[a] != points[b]:
                        continue
                    swapped_upper = [b if name == a else name for name in upper]
                    swapped_lower = [a if name == b else name for name in lower]
                    assert repeats(swapped_upper) + repeats(swapped_lower) >= repeats(
                        upper
                    ) + repeats(lower)
