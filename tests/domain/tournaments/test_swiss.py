"""Swiss pairing, one test per sentence of the contract's "Swiss" rule, and whole events."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.tournaments import (
    Pairing,
    PlayedRound,
    Table,
    TableOutcome,
    pair_round,
    standings,
    swiss,
)
from tests.domain.tournaments.helpers import met_counts, names, play_out, seated


def seat_due(name: str, history: Sequence[PlayedRound]) -> int:
    """1 if due to play first (fewer firsts than seconds, or as many and second last time),
    -1 if due second, 0 before any game: computed here from the tables, apart from the code."""
    seats = [t.players.index(name) for one in history for t in one.tables if name in t.players]
    if not seats:
        return 0
    firsts, seconds = seats.count(0), seats.count(1)
    if firsts != seconds:
        return 1 if firsts < seconds else -1
    return 1 if seats[-1] == 1 else -1


def won_by_first(*tables: tuple[str, str], byes: tuple[str, ...] = ()) -> PlayedRound:
    return PlayedRound(tuple(Table(t) for t in tables), (TableOutcome((1, 2)),) * len(tables), byes)


def pairs_of(pairing: Pairing) -> set[frozenset[str]]:
    return {frozenset(t.players) for t in pairing.tables}


def test_round_one_is_a_draw_of_the_seed() -> None:
    players = names(8)
    first = pair_round("swiss", players, [], [], seed=1)
    assert pair_round("swiss", players, [], [], seed=1) == first
    others = {pair_round("swiss", players, [], [], seed=s) for s in range(2, 12)}
    assert any(pairs_of(other) != pairs_of(first) for other in others)


def test_players_meet_within_their_group_of_equal_points() -> None:
    a, b, c, d, e, f, g, h = names(8)
    history = [won_by_first((a, b), (c, d), (e, f), (g, h))]
    # Winners a, c, e, g (1 point) and losers b, d, f, h (0 points): two groups of four.
    pairing = pair_round("swiss", [a, b, c, d, e, f, g, h], [], history, seed=3)
    winners = {a, c, e, g}
    for pair in pairs_of(pairing):
        assert len(pair & winners) in (0, 2)


def test_a_player_left_over_meets_the_nearest_group() -> None:
    a, b, c, d, e, f = names(6)
    history = [
        won_by_first((a, b), (c, d), (e, f)),
        won_by_first((a, c), (b, e), (d, f)),
    ]
    # Points: a 2 alone; b, c, d, e 1; f 0. a has met b and c: a meets d or e, of the group
    # next to it, not f two groups down.
    pairing = pair_round("swiss", [a, b, c, d, e, f], [], history, seed=5)
    (table_of_a,) = [pair for pair in pairs_of(pairing) if a in pair]
    assert table_of_a in (frozenset((a, d)), frozenset((a, e)))


def test_no_rematch_where_the_whole_round_can_avoid_it() -> None:
    a, b, c, d = names(4)
    history = [won_by_first((a, b), (c, d)), won_by_first((a, c), (b, d))]
    # a has 2 points, b and c 1, d 0. a has met b and c: the one pairing without a rematch
    # sends a two groups down to d, and b meets c. No rematch outweighs mixed points.
    pairing = pair_round("swiss", [a, b, c, d], [], history, seed=1)
    assert pairs_of(pairing) == {frozenset((a, d)), frozenset((b, c))}


def test_a_rematch_happens_only_when_no_pairing_avoids_it() -> None:
    a, b, c, d = names(4)
    history = [
        won_by_first((a, b), (c, d)),
        won_by_first((a, c), (b, d)),
        won_by_first((a, d), (b, c)),
    ]
    # Everyone has met everyone once: the round still pairs everyone, each a second time.
    pairing = pair_round("swiss", [a, b, c, d], [], history, seed=1)
    assert sorted(seated(pairing)) == sorted([a, b, c, d]) and pairing.byes == ()
    assert all(met_counts(history)[frozenset(t.players)] == 1 for t in pairing.tables)


def test_when_every_pairing_repeats_those_who_met_least_meet_again() -> None:
    a, b, c, d = names(4)
    history = [
        won_by_first((a, b), (c, d)),
        won_by_first((a, c), (b, d)),
        won_by_first((a, d), (b, c)),
        won_by_first((a, b), (c, d)),
    ]
    # a-b and c-d have met twice, the others once: round 5 pairs a third meeting to no one.
    pairing = pair_round("swiss", [a, b, c, d], [], history, seed=1)
    assert all(met_counts(history)[frozenset(t.players)] == 1 for t in pairing.tables)


def test_with_an_odd_number_the_lowest_placed_without_a_bye_sits_out() -> None:
    a, b, c, d, e = names(5)
    history = [won_by_first((a, b), (c, d), byes=(e,))]
    # Standings: e (bye), a, c on 1 point; b, d on 0. The last placed, b or d, has no bye.
    table = standings([a, b, c, d, e], history, seed=9)
    lowest = table[-1].player
    assert lowest in (b, d)
    pairing = pair_round("swiss", [a, b, c, d, e], [], history, seed=9)
    assert pairing.byes == (lowest,)


def test_a_bye_goes_again_only_once_everyone_has_had_one() -> None:
    for count in (3, 5, 7):
        players = names(count)
        history = play_out("swiss", players, rounds=count + 1, seed=4, results_seed=count)
        byes = Counter(name for one in history for name in one.byes)
        for done in range(1, len(history) + 1):
            so_far = Counter(name for one in history[:done] for name in one.byes)
            assert max(so_far.values()) - min(so_far[name] for name in players) <= 1
        assert sum(byes.values()) == count + 1


def test_who_plays_first_alternates() -> None:
    a, b, c, d = names(4)
    tables = (Table((a, b)), Table((c, d)))
    history = [PlayedRound(tables, (TableOutcome((1, 2)), TableOutcome((2, 1))), ())]
    # a and d won: a played first, d second; b and c lost: b played second, c first.
    pairing = pair_round("swiss", [a, b, c, d], [], history, seed=1)
    assert {t.players for t in pairing.tables} == {(d, a), (b, c)}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**64 - 1), count=st.integers(4, 16))
def test_a_player_due_a_seat_gets_it_unless_both_are_due_the_same(seed: int, count: int) -> None:
    players = names(count)
    history = play_out("swiss", players, rounds=5, seed=seed, results_seed=seed % 1000)
    for done in range(1, len(history)):
        before = history[:done]
        for table in history[done].tables:
            first, second = table.players
            due_first, due_second = seat_due(first, before), seat_due(second, before)
            if due_first != due_second:
                assert due_first > due_second  # the one due to play first plays first


def test_a_withdrawn_player_is_not_paired_again() -> None:
    players = names(6)
    history = play_out("swiss", players, rounds=2, seed=2)
    pairing = pair_round("swiss", players, [players[0]], history, seed=2)
    assert players[0] not in seated(pairing)
    assert len(pairing.byes) == 1  # five left: one sits out


def test_swiss_of_8_over_4_rounds_has_no_rematch_and_everyone_plays_each_round() -> None:
    players = names(8)
    history = play_out("swiss", players, rounds=4, seed=8)
    assert max(met_counts(history).values()) == 1
    for one in history:
        assert sorted(seated(Pairing(one.tables, one.byes))) == sorted(players)
        assert one.byes == ()


def test_swiss_of_7_gives_four_byes_to_four_players() -> None:
    players = names(7)
    history = play_out("swiss", players, rounds=4, seed=7, results_seed=1)
    byes = [name for one in history for name in one.byes]
    assert len(byes) == 4 and len(set(byes)) == 4
    assert max(met_counts(history).values()) == 1


# Properties: the pairing is the best the whole round allows, checked against every pairing.


def every_pairing(players: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, other in enumerate(rest):
        for more in every_pairing(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *more]


def group_distance(pairs: Sequence[tuple[str, str]], group: dict[str, int]) -> int:
    return sum((group[a] - group[b]) ** 2 for a, b in pairs)


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=10),
    rounds=st.integers(min_value=0, max_value=8),
    seed=st.integers(min_value=0, max_value=2**64 - 1),
    results=st.integers(min_value=0, max_value=1000),
)
def test_rematches_then_mixed_points_then_seat_clashes_are_the_fewest_any_pairing_allows(
    count: int, rounds: int, seed: int, results: int
) -> None:
    players = names(count)
    history = play_out("swiss", players, rounds, seed, results)
    pairing = pair_round("swiss", players, [], history, seed)
    assert sorted(seated(pairing)) == sorted(players)
    assert len(pairing.byes) == count % 2
    met = met_counts(history)
    table = standings(players, history, seed)
    totals = sorted({s.points for s in table}, reverse=True)
    group = {s.player: totals.index(s.points) for s in table}
    paired = [name for name in players if name not in pairing.byes]
    chosen = [(t.players[0], t.players[1]) for t in pairing.tables]

    def rank(pairs: Sequence[tuple[str, str]]) -> tuple[int, int, int]:
        return (
            sum(met[frozenset(p)] for p in pairs),
            group_distance(pairs, group),
            sum(1 for a, b in pairs if seat_due(a, history) == seat_due(b, history) != 0),
        )

    assert rank(chosen) == min(rank(other) for other in every_pairing(paired))


@settings(max_examples=30, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=40),
    rounds=st.integers(min_value=0, max_value=6),
    seed=st.integers(min_value=0, max_value=2**64 - 1),
)
def test_the_same_inputs_give_the_same_tables(count: int, rounds: int, seed: int) -> None:
    players = names(count)
    history = play_out("swiss", players, rounds, seed)
    once = pair_round("swiss", players, [], history, seed)
    assert pair_round("swiss", list(players), [], list(history), seed) == once


@settings(max_examples=6, deadline=None)
@given(
    count=st.integers(min_value=101, max_value=160),
    rounds=st.integers(min_value=1, max_value=9),
    seed=st.integers(min_value=0, max_value=2**64 - 1),
)
def test_a_large_rounds_window_pairs_as_well_as_weighing_every_pair(
    count: int, rounds: int, seed: int
) -> None:
    players = names(count)
    history = play_out("swiss", players, rounds, seed, seed % 1000)
    windowed = pair_round("swiss", players, [], history, seed)
    with patch.object(swiss, "EVERY_PAIR_UP_TO", count):
        whole = pair_round("swiss", players, [], history, seed)
    met = met_counts(history)
    table = standings(players, history, seed)
    totals = sorted({s.points for s in table}, reverse=True)
    group = {s.player: totals.index(s.points) for s in table}

    def cost(pairing: Pairing) -> tuple[int, int]:
        pairs = [(t.players[0], t.players[1]) for t in pairing.tables]
        return (sum(met[frozenset(p)] for p in pairs), group_distance(pairs, group))

    assert windowed.byes == whole.byes
    assert cost(windowed) == cost(whole)
