"""Ties are rated as ties: the four properties the contract names, over every game of 2 to 8
players (or teams), random tie patterns, equal and unequal starting ratings; a game without a
tie rated by OpenSkill's Plackett-Luce exactly; and a tie for first through the archive job on
the real Redis server, rebuilt to the same ratings.

The properties are checked through ``service.stats.ratings.model.replay``, the one place the
model is applied, for the live updates and the rebuild alike."""

from __future__ import annotations

from pathlib import Path

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from service.stats.ratings.model import RatedGame, Rating, conservative, replay
from service.stats.ratings.ties import rate_with_ties
from service.stats.rebuild import rebuild_stats
from tests.support.api import append, create
from tests.support.stats import every_stats_key
from tests.support.workers import drain

NEW: Rating = (PlackettLuce().mu, PlackettLuce().sigma, 0)


def rate(start: list[Rating], ranks: list[int], team_size: int = 1) -> list[tuple[float, float]]:
    """Seat ``i`` (player ``p<i>``, rated ``start[i]``) after one game of ``ranks``, one rank per
    unit: each seat alone, or teams of ``team_size`` seats side by side."""
    players = tuple(f"p{seat}" for seat in range(len(start)))
    teams = tuple(
        tuple(range(first, first + team_size)) for first in range(0, len(start), team_size)
    )
    seat_ranks = tuple(ranks[seat // team_size] for seat in range(len(start)))
    game = RatedGame("azul", "g1", "2026-01-02T10:00:00Z", players, seat_ranks,
                     teams if team_size > 1 else ())  # fmt: skip
    _, after = replay([game], dict(zip(players, start, strict=True)))
    return [after[player][:2] for player in players]


def competition_ranks(places: list[int]) -> list[int]:
    """Ranks as a game's result gives them: 1 plus how many did better, ties sharing a rank."""
    return [1 + sum(other < place for other in places) for place in places]


# A game: how many units (seats or teams), each unit's place (equal places tie) and team size.
units = st.integers(min_value=2, max_value=8)
team_sizes = st.sampled_from([1, 1, 2, 3])
ratings = st.tuples(
    st.floats(min_value=0.0, max_value=50.0), st.floats(min_value=0.5, max_value=25 / 3), st.just(3)
)


@st.composite
def tie_patterns(draw: st.DrawFn, min_tied_first: int = 0) -> list[int]:
    """Ranks of 2 to 8 units with random ties (at least ``min_tied_first`` sharing rank 1)."""
    count = draw(units)
    places = draw(st.lists(st.integers(0, count - 1), min_size=count, max_size=count))
    if min_tied_first:
        first = min(places)
        for unit in range(min(min_tied_first, count)):
            places[unit] = first
    return competition_ranks(places)


@settings(max_examples=150, deadline=None)
@given(tie_patterns(), team_sizes, ratings)
def test_two_players_who_tie_after_starting_equal_keep_equal_ratings(
    ranks: list[int], team_size: int, rating: Rating
) -> None:
    after = rate([rating] * (len(ranks) * team_size), ranks, team_size)
    for seat, seat_after in enumerate(after):
        for other, other_after in enumerate(after):
            if ranks[seat // team_size] == ranks[other // team_size]:
                assert seat_after == other_after


@settings(max_examples=150, deadline=None)
@given(units, team_sizes, ratings)
def test_a_tie_between_equally_rated_players_leaves_both_mu_unchanged(
    count: int, team_size: int, rating: Rating
) -> None:
    after = rate([rating] * (count * team_size), [1] * count, team_size)
    # Unchanged but for a float's last bits (a sum of terms that cancel, near mu 0), which
    # OpenSkill's own Plackett-Luce leaves too.
    assert [mu for mu, _ in after] == pytest.approx([rating[0]] * (count * team_size), abs=1e-12)


@settings(max_examples=300, deadline=None)
@given(tie_patterns(min_tied_first=2), team_sizes)
def test_a_player_below_a_tie_for_first_never_ends_above_the_winners(
    ranks: list[int], team_size: int
) -> None:
    after = rate([NEW] * (len(ranks) * team_size), ranks, team_size)
    winners = [after[seat] for seat in range(len(after)) if ranks[seat // team_size] == 1]
    below = [after[seat] for seat in range(len(after)) if ranks[seat // team_size] > 1]
    for mu, sigma in below:
        for winner_mu, winner_sigma in winners:
            assert mu <= winner_mu
            assert conservative(mu, sigma) <= conservative(winner_mu, winner_sigma)


@settings(max_examples=150, deadline=None)
@given(tie_patterns(min_tied_first=2), team_sizes, st.data())
def test_the_seat_order_of_tied_players_changes_nothing(
    ranks: list[int], team_size: int, data: st.DataObject
) -> None:
    start = data.draw(st.lists(ratings, min_size=len(ranks) * team_size,
                               max_size=len(ranks) * team_size))  # fmt: skip
    # The units reseated: each tie's units in another order, the others where they were.
    order = list(range(len(ranks)))
    for rank in set(ranks):
        tied = [unit for unit in order if ranks[unit] == rank]
        for place, unit in zip(tied, data.draw(st.permutations(tied)), strict=True):
            order[place] = unit
    reseated = [start[unit * team_size + member] for unit in order for member in range(team_size)]
    before = rate(start, ranks, team_size)
    after = rate(reseated, [ranks[unit] for unit in order], team_size)
    assert after == [before[unit * team_size + member] for unit in order
                     for member in range(team_size)]  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(units, team_sizes, st.data())
def test_a_game_without_a_tie_is_rated_by_plackett_luce_exactly(
    count: int, team_size: int, data: st.DataObject
) -> None:
    ranks = data.draw(st.permutations(range(1, count + 1)))
    start = data.draw(st.lists(ratings, min_size=count * team_size, max_size=count * team_size))
    model = PlackettLuce()
    teams = [
        [model.rating(mu=mu, sigma=sigma) for mu, sigma, _ in start[first : first + team_size]]
        for first in range(0, len(start), team_size)
    ]
    rated = model.rate(teams, ranks=list(ranks))
    expected = [(one.mu, one.sigma) for team in rated for one in team]
    assert rate(start, list(ranks), team_size) == expected


@settings(max_examples=100, deadline=None)
@given(units, team_sizes, st.data())
def test_the_tie_update_is_plackett_luces_own_when_nothing_ties(
    count: int, team_size: int, data: st.DataObject
) -> None:
    """The averaged update with one order to average over is Plackett-Luce's update: the same
    terms, summed in another order (so equal but for the last bits)."""
    ranks = list(data.draw(st.permutations(range(1, count + 1))))
    start = data.draw(st.lists(ratings, min_size=count * team_size, max_size=count * team_size))
    units = [[(mu, sigma) for mu, sigma, _ in start[first : first + team_size]]
             for first in range(0, len(start), team_size)]  # fmt: skip
    averaged = [skill for unit in rate_with_ties(PlackettLuce(), units, ranks) for skill in unit]
    exact = rate(start, ranks, team_size)
    assert [value for skill in averaged for value in skill] == pytest.approx(
        [value for skill in exact for value in skill], rel=1e-12, abs=1e-12
    )


# --- through the archive job, on the real Redis server ------------------------------------------


def test_a_tie_for_first_keeps_the_joint_winners_above_the_third_and_the_rebuild_agrees(
    app: Flask, client: FlaskClient, real_redis: redis.Redis, key_prefix: str, archive_dir: Path
) -> None:
    players = ["Ana", "Ben", "Chloé", "Dan"]
    game = create(client, game="scoresheet", players=players, options={"title": "Azul"})
    assert append(client, game, {"type": "round", "points": [67, 67, 58, 40]}).status_code == 201
    assert append(client, game, {"type": "end"}).status_code == 201
    drain(app)
    board = client.get("/ratings/azul").json["ratings"]
    assert [row["player"] for row in board] == players
    ana, ben, chloe, _ = board
    assert (ana["mu"], ana["sigma"]) == (ben["mu"], ben["sigma"])
    assert ben["rating"] > chloe["rating"] and ben["mu"] > chloe["mu"]
    live = every_stats_key(real_redis, key_prefix)
    assert rebuild_stats(real_redis, key_prefix, archive_dir) == 1
    assert every_stats_key(real_redis, key_prefix) == live
    assert client.get("/ratings/azul").json["ratings"] == board
