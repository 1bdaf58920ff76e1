"""What a tournament's plan refuses, in words: unknown formats, rounds out of range, names."""

from __future__ import annotations

import pytest

from domain.tournaments import FORMATS, TournamentError, pair_round, rounds_planned, standings


def test_the_formats_are_swiss_round_robin_and_pods() -> None:
    assert FORMATS == ("swiss", "round_robin", "pods")
    with pytest.raises(TournamentError, match="'knockout' is not a format"):
        pair_round("knockout", ["Ana", "Ben"], [], [], seed=1)


@pytest.mark.parametrize("rounds", [None, 0, 21])
def test_swiss_and_pods_play_1_to_20_rounds(rounds: int | None) -> None:
    for format in ("swiss", "pods"):
        with pytest.raises(TournamentError, match="1 to 20 rounds"):
            rounds_planned(format, 8, rounds)
    assert rounds_planned("swiss", 8, 20) == 20


def test_a_tournament_needs_two_players_still_in() -> None:
    with pytest.raises(TournamentError, match="at least 2 players"):
        rounds_planned("swiss", 1, 3)
    with pytest.raises(TournamentError, match="fewer than 2 players are still in"):
        pair_round("swiss", ["Ana", "Ben", "Caro"], ["Ana", "Ben"], [], seed=1)


def test_a_withdrawal_of_someone_not_playing_is_refused() -> None:
    with pytest.raises(TournamentError, match="'Zed' withdrew but is not a player"):
        pair_round("swiss", ["Ana", "Ben", "Caro"], ["Zed"], [], seed=1)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_a_seed_is_an_unsigned_64_bit_number(seed: int) -> None:
    with pytest.raises(TournamentError, match="from 0 to 2\\*\\*64 - 1"):
        pair_round("swiss", ["Ana", "Ben"], [], [], seed=seed)
    with pytest.raises(TournamentError, match="from 0 to 2\\*\\*64 - 1"):
        standings(["Ana", "Ben"], [], seed=seed)
