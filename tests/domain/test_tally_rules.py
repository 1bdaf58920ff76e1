"""One test per rule of Tally (tests/games/tally/rules.py), the game that lives only in the tests.

Most tests set a table up directly (``table``: exact hands, deck and cards played) and make one
move, so each states its situation plainly; the deal and the options go through ``new_game``.
"""

from __future__ import annotations

import re
from collections import Counter
from importlib import resources
from typing import Any

import pytest

import tests.games.tally  # noqa: F401  (registers the game until tests/conftest.py does)
from domain import game_names, get_game
from domain.errors import (
    GameFinishedError,
    IllegalMoveError,
    InvalidEventError,
    InvalidOptionsError,
)
from domain.rng import SplitMix64
from domain.viewers import PUBLIC, RECORDER, seat
from tests.games.tally import DECK, TALLY, Tally, TallyState

GAME = Tally()
PLAYERS = ["Ana", "Ben"]


def start(seed: int = 7, **options: Any) -> TallyState:
    return GAME.new_game(2, seed, GAME.options(options, 2))


def table(
    hands: tuple[tuple[int, ...], tuple[int, ...]],
    played: tuple[int, ...] = (),
    deck: tuple[int, ...] = (1, 2, 3),
    turn: int = 0,
) -> TallyState:
    return TallyState(first_player=0, deck=deck, hands=hands, played=played, turn=turn)


def play(player: int, card: int) -> dict[str, Any]:
    return {"type": "play", "player": player, "card": card}


# The game ---------------------------------------------------------------------------------------
def test_importing_the_package_registers_tally_under_its_name() -> None:
    assert "tally" in game_names()
    assert get_game("tally") is TALLY
    assert (TALLY.rules_version, TALLY.min_players, TALLY.max_players) == ("tally/1", 2, 2)


# The deal ---------------------------------------------------------------------------------------
def test_the_deck_is_fifteen_cards_three_of_each_value_from_1_to_5() -> None:
    state = start()
    everywhere = Counter(state.deck) + Counter(state.hands[0]) + Counter(state.hands[1])
    assert everywhere == Counter({1: 3, 2: 3, 3: 3, 4: 3, 5: 3})
    assert sum(everywhere.values()) == 15


def test_each_seat_is_dealt_two_cards_in_turn_from_the_seeded_shuffle() -> None:
    shuffled, _ = SplitMix64(2024).shuffled(DECK)
    state = start(2024)
    assert state.hands == ((shuffled[0], shuffled[2]), (shuffled[1], shuffled[3]))
    assert state.deck == shuffled[4:] and len(state.deck) == 11
    assert state.played == () and GAME.view(state, RECORDER)["tally"] == 0


def test_the_same_seed_deals_the_same_cards_and_other_seeds_deal_others() -> None:
    assert start(99) == start(99)
    assert GAME.view(start(99), RECORDER) == GAME.view(start(99), RECORDER)
    deals = {(start(seed).hands, start(seed).deck) for seed in range(20)}
    assert len(deals) > 15


def test_the_seed_must_be_a_64_bit_unsigned_integer() -> None:
    for seed in (-1, 2**64, "7", True):
        with pytest.raises(InvalidOptionsError):
            GAME.new_game(2, seed, {})  # type: ignore[arg-type]


# Turn order -------------------------------------------------------------------------------------
def test_seat_0_plays_first_unless_first_player_says_otherwise() -> None:
    assert GAME.to_act(start()) == 0
    assert GAME.to_act(start(first_player=1)) == 1
    assert GAME.first_player(start(first_player=1)) == 1
    assert GAME.view(start(first_player=1), PUBLIC)["current_player"] == 1


def test_turns_alternate_after_each_play() -> None:
    state = table(((1, 2), (1, 2)))
    state = GAME.apply(state, play(0, 1))
    assert GAME.to_act(state) == 1
    state = GAME.apply(state, play(1, 2))
    assert GAME.to_act(state) == 0


def test_a_player_cannot_play_out_of_turn() -> None:
    with pytest.raises(IllegalMoveError, match="seat 0's turn"):
        GAME.apply(table(((1, 2), (3, 4))), play(1, 3))


# Playing a card ---------------------------------------------------------------------------------
def test_a_card_must_come_from_the_players_hand() -> None:
    with pytest.raises(IllegalMoveError, match="from their hand"):
        GAME.apply(table(((1, 2), (5, 5))), play(0, 5))


def test_the_card_played_adds_to_the_tally_and_the_player_draws_the_next_card() -> None:
    state = GAME.apply(table(((1, 4), (2, 2)), played=(3,), deck=(5, 1)), play(0, 4))
    assert GAME.view(state, PUBLIC)["tally"] == 7
    assert GAME.view(state, PUBLIC)["played"] == [3, 4]
    assert state.hands == ((1, 5), (2, 2))
    assert state.deck == (1,)


def test_with_the_deck_empty_the_player_plays_and_draws_nothing() -> None:
    state = GAME.apply(table(((1, 4), (2, 2)), deck=()), play(0, 1))
    assert state.hands == ((4,), (2, 2))
    assert GAME.view(state, PUBLIC)["hand_sizes"] == [1, 2]


def test_the_legal_moves_are_each_value_in_the_hand_of_the_player_to_act_once() -> None:
    assert GAME.legal_moves(table(((3, 3), (1, 5)))) == [play(0, 3)]
    assert GAME.legal_moves(table(((3, 3), (5, 1)), turn=1)) == [play(1, 1), play(1, 5)]


# The end ----------------------------------------------------------------------------------------
def test_bringing_the_tally_to_exactly_15_wins() -> None:
    state = GAME.apply(table(((1, 2), (5, 4)), played=(5, 5), turn=1), play(1, 5))
    assert GAME.result(state) == {"winners": [1], "scores": [0, 1]}
    assert GAME.to_act(state) is None
    assert GAME.view(state, PUBLIC)["status"] == "finished"
    assert GAME.view(state, PUBLIC)["winners"] == [1]


def test_taking_the_tally_past_15_loses_and_the_other_player_wins() -> None:
    state = GAME.apply(table(((5, 2), (1, 1)), played=(5, 5, 1)), play(0, 5))
    assert GAME.view(state, PUBLIC)["tally"] == 16
    assert GAME.result(state) == {"winners": [1], "scores": [0, 1]}


def test_below_15_the_game_goes_on_without_a_result() -> None:
    state = GAME.apply(table(((4, 2), (1, 1)), played=(5, 5)), play(0, 4))
    assert GAME.result(state) is None
    assert GAME.view(state, PUBLIC)["winners"] == []
    assert GAME.view(state, PUBLIC)["status"] == "active"


def test_a_finished_game_refuses_every_move() -> None:
    state = GAME.apply(table(((5, 2), (1, 1)), played=(5, 5)), play(0, 5))
    assert GAME.legal_moves(state) == []
    for move in (play(1, 1), play(0, 2)):
        with pytest.raises(GameFinishedError):
            GAME.apply(state, move)


# Options and malformed events --------------------------------------------------------------------
def test_the_options_are_completed_with_first_player_0() -> None:
    assert GAME.options({}, 2) == {"first_player": 0}
    assert GAME.options({"first_player": 1}, 2) == {"first_player": 1}


@pytest.mark.parametrize(
    "raw",
    [{"first_player": 2}, {"first_player": -1}, {"first_player": True}, {"first_player": "1"},
     {"chance": "observed"}, {"catalog": {}}, ["first_player"]],
)  # fmt: skip
def test_options_outside_the_rules_are_refused(raw: Any) -> None:
    with pytest.raises(InvalidOptionsError):
        GAME.options(raw, 2)


@pytest.mark.parametrize("players", [1, 3, 5])
def test_tally_is_played_by_exactly_two(players: int) -> None:
    with pytest.raises(InvalidOptionsError, match="Tally is played by 2 players"):
        GAME.options({}, players)


@pytest.mark.parametrize(
    "event",
    [{"type": "draw", "player": 0}, {"type": "play", "player": 0},
     {"type": "play", "player": 0, "card": 6}, {"type": "play", "player": 0, "card": True},
     {"type": "play", "player": 2, "card": 1}, {"type": "play", "player": 0, "card": 1, "x": 1},
     "play"],
)  # fmt: skip
def test_malformed_events_are_invalid_whatever_the_table(event: Any) -> None:
    with pytest.raises(InvalidEventError):
        GAME.apply(table(((1, 2), (3, 4))), event)


# Who sees what ----------------------------------------------------------------------------------
def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_other() -> None:
    state = table(((1, 2), (3, 4)), deck=(5, 5))
    for index, other in ((0, 1), (1, 0)):
        shown = GAME.view(state, seat(index))
        assert shown["hands"][index] == list(state.hands[index])
        assert shown["hands"][other] is None
        assert shown["hand_sizes"] == [2, 2] and "deck" not in shown


def test_the_public_sees_no_hand_and_no_deck() -> None:
    shown = GAME.view(table(((1, 2), (3, 4)), played=(2,), deck=(5, 5)), PUBLIC)
    assert shown["hands"] == [None, None] and "deck" not in shown
    assert (shown["hand_sizes"], shown["deck_size"], shown["tally"]) == ([2, 2], 2, 2)


def test_the_recorder_sees_every_hand_and_the_deck_in_order() -> None:
    shown = GAME.view(table(((1, 2), (3, 4)), deck=(5, 1, 4)), RECORDER)
    assert shown["hands"] == [[1, 2], [3, 4]]
    assert shown["deck"] == [5, 1, 4]


def test_only_the_player_to_act_and_the_recorder_are_offered_moves() -> None:
    state = table(((1, 2), (3, 4)))
    assert GAME.legal_for(state, seat(0)) == [play(0, 1), play(0, 2)]
    assert GAME.legal_for(state, seat(1)) == []
    assert GAME.legal_for(state, PUBLIC) == []
    assert GAME.legal_for(state, RECORDER) == [play(0, 1), play(0, 2)]


# What the statistics and the pages read ---------------------------------------------------------
def test_a_game_counts_its_plays_and_their_number_is_its_length() -> None:
    events = [play(0, 1), {"type": "retract"}, play(1, 2)]
    assert GAME.stats_counters(events, []) == {"plays": 2}
    assert GAME.length_counters == ("plays",)


def test_a_move_is_described_in_words_with_the_players_name() -> None:
    assert GAME.describe(play(0, 4), PLAYERS) == "Ana plays a 4"
    assert GAME.describe(play(1, 1), PLAYERS) == "Ben plays a 1"
    assert "plays" not in GAME.describe({"type": "retract"}, PLAYERS)


def test_the_pages_hooks_name_the_renderer_the_colours_and_the_catalog() -> None:
    assets = resources.files(GAME.browser_assets or "")
    # The drawing is a module the pages import: it exports ``draw``.
    drawing = (assets / "tally.js").read_text(encoding="utf-8")
    assert re.search(r"^export \{[^}]*\bdraw\b", drawing, re.M)
    colours = GAME.seat_colours(2)
    assert len(colours) == 2 and len(set(colours)) == 2
    assert all(colour.startswith("#") for colour in colours)
    assert GAME.catalog_view(start())["values"] == [1, 2, 3, 4, 5]
    assert GAME.option_fields() == [] and dict(GAME.chance_fields) == {}
