"""One test per rule of Mada's rulebook and per ruling of spec/mada.md.

Most tests set a table up directly (``table``: exact hands, piles, draw pile, discard) and make one
move, so each states its situation plainly. Observed games (``observed``) script exact deals.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from domain.errors import (
    GameFinishedError,
    IllegalMoveError,
    InvalidEventError,
    InvalidOptionsError,
)
from domain.mada import MadaState
from domain.mada.catalog import DEFAULT_CATALOG
from domain.mada.state import Pending
from domain.viewers import RECORDER
from tests.support.mada import GAME, lost_round, move, observed, table

L, DL, S = "lemur", "double_lemur", "scorpion"


def full(state: MadaState) -> dict[str, Any]:
    return GAME.view(state, RECORDER)


# --- components and catalog ---------------------------------------------------------------------


def test_default_catalog_is_the_projects_ruling_of_seventy_cards() -> None:
    counts = Counter(GAME.new_game(2, 0, {}).catalog.deck)
    assert sum(counts.values()) == 70
    assert [counts[value] for value in range(1, 14)] == [5] * 8 + [4] * 5
    assert (counts[L], counts[DL], counts[S]) == (4, 3, 3)
    pears = {entry["value"]: entry["pears"] for entry in DEFAULT_CATALOG["cactus"]}
    assert [pears[value] for value in range(1, 14)] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6]


def test_canonical_order_is_cactus_by_value_then_lemurs_double_lemurs_scorpions() -> None:
    deck = GAME.new_game(2, 0, {}).catalog.deck
    assert list(deck[:5]) == [1] * 5
    assert list(deck[56:60]) == [13] * 4
    assert list(deck[60:]) == [L] * 4 + [DL] * 3 + [S] * 3


def test_custom_catalog_is_the_deck_dealt() -> None:
    catalog = {
        "cactus": [{"value": 9, "count": 2, "pears": 7}, {"value": 2, "count": 5, "pears": 0}],
        "lemur": 1,
        "double_lemur": 0,
        "scorpion": 0,
    }
    options = GAME.options({"catalog": catalog}, 2)
    state = GAME.new_game(2, 3, options)
    assert state.catalog.deck == (2, 2, 2, 2, 2, 9, 9, L)
    assert options["catalog"]["cactus"][0]["value"] == 2  # normalized: sorted by value
    assert state.catalog.pears_of(9) == 7


def test_card_outside_a_custom_catalog_is_an_invalid_event() -> None:
    catalog = {
        "cactus": [{"value": 2, "count": 5, "pears": 1}, {"value": 3, "count": 5, "pears": 1}],
        "lemur": 0,
        "double_lemur": 0,
        "scorpion": 0,
    }
    state = GAME.new_game(2, 3, {"catalog": catalog})
    with pytest.raises(InvalidEventError) as error:
        move(state, "play", 0, card=13)
    assert "card" in error.value.details


@pytest.mark.parametrize(
    ("catalog", "fragment"),
    [
        ([], "must be an object"),
        ({"cactus": [], "lemur": 4, "double_lemur": 3}, "missing 'scorpion'"),
        (
            {"cactus": [], "lemur": 4, "double_lemur": 3, "scorpion": 3, "joker": 1},
            "unknown 'joker'",
        ),
        (
            {
                "cactus": [{"value": 14, "count": 5, "pears": 1}],
                "lemur": 4,
                "double_lemur": 3,
                "scorpion": 3,
            },
            "cactus[0].value must be an integer from 1 to 13",
        ),
        (
            {
                "cactus": [{"value": 1, "count": 21, "pears": 1}],
                "lemur": 4,
                "double_lemur": 3,
                "scorpion": 3,
            },
            "cactus[0].count must be an integer from 0 to 20",
        ),
        (
            {
                "cactus": [{"value": 1, "count": True, "pears": 1}],
                "lemur": 4,
                "double_lemur": 3,
                "scorpion": 3,
            },
            "cactus[0].count",
        ),
        (
            {
                "cactus": [
                    {"value": 1, "count": 5, "pears": 1},
                    {"value": 1, "count": 5, "pears": 1},
                ],
                "lemur": 4,
                "double_lemur": 3,
                "scorpion": 3,
            },
            "more than once",
        ),
        (
            {"cactus": [{"value": 1, "count": 5}], "lemur": 4, "double_lemur": 3, "scorpion": 3},
            "exactly value, count and pears",
        ),
        (
            {
                "cactus": [{"value": 1, "count": 5, "pears": 1}],
                "lemur": -1,
                "double_lemur": 3,
                "scorpion": 3,
            },
            "lemur must be an integer from 0 to 20",
        ),
        (
            {
                "cactus": [{"value": 1, "count": 5, "pears": 1}],
                "lemur": 1,
                "double_lemur": 0,
                "scorpion": 0,
            },
            "holds 6 cards, but 3 players need at least 10",
        ),
    ],
)
def test_invalid_custom_catalog_is_rejected_with_a_catalog_detail(
    catalog: Any, fragment: str
) -> None:
    with pytest.raises(InvalidOptionsError) as error:
        GAME.options({"catalog": catalog}, 3)
    assert fragment in error.value.message
    assert set(error.value.details) == {"catalog"}


def test_deck_of_exactly_a_deal_and_one_card_is_enough() -> None:
    catalog = {
        "cactus": [{"value": 1, "count": 3, "pears": 1}, {"value": 2, "count": 4, "pears": 1}],
        "lemur": 0,
        "double_lemur": 0,
        "scorpion": 0,
    }
    assert GAME.options({"catalog": catalog}, 2)["catalog"]["cactus"][1]["count"] == 4


@pytest.mark.parametrize(
    ("catalog", "why"),
    [
        # The example: no Cactus card at all, so no round can ever end.
        ({"cactus": [], "lemur": 0, "double_lemur": 1, "scorpion": 9}, "at least two values"),
        # Cactus cards of one value: none is ever lower than a pile's top.
        ({"cactus": [{"value": 7, "count": 20, "pears": 4}], "lemur": 4, "double_lemur": 3,
          "scorpion": 3}, "at least two values (this one has: 7)"),
        # A value listed with no card counts for nothing.
        ({"cactus": [{"value": 7, "count": 20, "pears": 4}, {"value": 3, "count": 0, "pears": 2}],
          "lemur": 0, "double_lemur": 0, "scorpion": 0}, "at least two values"),
        # Two values, but not five cards to set aside and one to reveal.
        ({"cactus": [{"value": 1, "count": 2, "pears": 1}, {"value": 2, "count": 3, "pears": 1}],
          "lemur": 4, "double_lemur": 0, "scorpion": 0}, "at least 6 Cactus cards"),
    ],
)  # fmt: skip
def test_a_catalog_with_which_no_game_can_end_is_refused(catalog: Any, why: str) -> None:
    with pytest.raises(InvalidOptionsError) as error:
        GAME.options({"catalog": catalog}, 2)
    assert "can never end" in error.value.message and why in error.value.message
    assert set(error.value.details) == {"catalog"}


# --- options ------------------------------------------------------------------------------------


def test_options_fill_defaults_and_leave_out_an_absent_catalog() -> None:
    assert GAME.options({}, 3) == {"first_player": 0, "chance": "seeded"}


def test_unknown_options_are_each_named() -> None:
    with pytest.raises(InvalidOptionsError) as error:
        GAME.options({"first_player": 1, "colour": "red", "speed": 2}, 3)
    assert error.value.details == {"colour": "unknown option", "speed": "unknown option"}


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"first_player": 3}, "first_player"),
        ({"first_player": -1}, "first_player"),
        ({"first_player": True}, "first_player"),
        ({"first_player": "0"}, "first_player"),
        ({"chance": "dice"}, "chance"),
    ],
)
def test_option_values_out_of_range_are_rejected(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidOptionsError) as error:
        GAME.options(raw, 3)
    assert field in error.value.details


@pytest.mark.parametrize("players", [1, 6])
def test_mada_is_for_two_to_five_players(players: int) -> None:
    with pytest.raises(InvalidOptionsError, match="2 to 5 players"):
        GAME.options({}, players)


def test_seed_outside_sixty_four_bits_is_rejected() -> None:
    with pytest.raises(InvalidOptionsError):
        GAME.new_game(2, 2**64, {})


def test_first_player_acts_first() -> None:
    state = GAME.new_game(4, 0, {"first_player": 2})
    assert state.pending is None  # seed 0 deals no Scorpion to 4 players
    assert full(state)["current_player"] == 2


# --- setup --------------------------------------------------------------------------------------


def test_observed_setup_waits_for_one_deal_per_seat_in_seat_order() -> None:
    state = GAME.new_game(3, 0, {"chance": "observed", "first_player": 1})
    assert full(state)["pending"] == {"kind": "deal", "player": 0}
    state = move(state, "deal", 0, cards=[1, 2, 3])
    assert full(state)["pending"] == {"kind": "deal", "player": 1}
    assert full(state)["current_player"] == 1
    with pytest.raises(IllegalMoveError, match="it is seat 1's turn"):
        move(state, "deal", 2, cards=[1, 2, 3])
    state = move(move(state, "deal", 1, cards=[4, 5, 6]), "deal", 2, cards=[7, 8, 9])
    assert full(state)["hands"] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    assert full(state)["pending"] is None
    assert full(state)["current_player"] == 1


def test_deal_event_in_a_seeded_game_is_invalid() -> None:
    with pytest.raises(InvalidEventError):
        move(GAME.new_game(2, 0, {}), "deal", 0, cards=[1, 2, 3])


def test_deal_needs_exactly_three_cards() -> None:
    with pytest.raises(InvalidEventError):
        move(GAME.new_game(2, 0, {"chance": "observed"}), "deal", 0, cards=[1, 2])


def test_deal_after_the_setup_is_refused() -> None:
    with pytest.raises(IllegalMoveError, match="must play, draw or try their luck"):
        move(observed(2, [1, 2, 3], [4, 5, 6]), "deal", 0, cards=[1, 2, 3])


def test_dealt_scorpion_goes_to_the_discard_with_a_chosen_hand_card() -> None:
    state = observed(2, [5, S, 9], [1, 2, 3])
    assert full(state)["pending"] == {"kind": "scorpion_discard", "player": 0}
    assert full(state)["discard"] == [S]
    state = move(state, "scorpion_discard", 0, card=9)
    assert full(state)["discard"] == [S, 9]
    assert full(state)["hands"] == [[5], [1, 2, 3]]
    assert full(state)["pending"] is None


def test_dealt_scorpions_resolve_seat_by_seat_from_seat_zero() -> None:
    state = observed(3, [1, 2, 3], [4, S, 6], [S, 7, 8], first_player=2)
    # Seat 1 resolves first; seat 2's Scorpion waits in its hand, the only time a hand shows one.
    assert full(state)["pending"] == {"kind": "scorpion_discard", "player": 1}
    assert S in full(state)["hands"][2]
    state = move(state, "scorpion_discard", 1, card=6)
    assert full(state)["pending"] == {"kind": "scorpion_discard", "player": 2}
    state = move(state, "scorpion_discard", 2, card=8)
    assert full(state)["discard"] == [S, 6, S, 8]
    assert full(state)["current_player"] == 2


def test_two_dealt_scorpions_resolve_one_at_a_time() -> None:
    # A Scorpion never counts as a hand card: the first takes the 5, the second goes alone.
    state = observed(2, [S, 5, S], [1, 2, 3])
    assert full(state)["discard"] == [S, 5, S]
    assert full(state)["hands"][0] == []
    assert full(state)["pending"] is None


def test_nobody_draws_replacements_for_dealt_scorpions() -> None:
    state = observed(2, [S, 5, 5], [1, 2, 3])
    assert full(state)["hands"][0] == [5]
    assert full(state)["draw_pile_size"] == 70 - 6


def test_seeded_dealt_scorpion_waits_for_its_holder_before_any_turn() -> None:
    state = GAME.new_game(3, 42, {})  # seed 42 deals seat 1 a Scorpion and two different cards
    assert full(state)["pending"] == {"kind": "scorpion_discard", "player": 1}
    assert full(state)["discard"] == [S]
    assert GAME.legal_moves(state) == [
        {"type": "scorpion_discard", "player": 1, "card": 5},
        {"type": "scorpion_discard", "player": 1, "card": 8},
    ]


# --- a turn -------------------------------------------------------------------------------------


def test_played_card_goes_on_the_personal_pile() -> None:
    state = move(table(hands=[[4, 8], []], piles=[[3], []]), "play", 0, card=8)
    assert full(state)["piles"][0] == [3, 8]
    assert full(state)["hands"][0] == [4]


def test_equal_value_may_be_played() -> None:
    state = move(table(hands=[[7], []], piles=[[7], []]), "play", 0, card=7)
    assert full(state)["piles"][0] == [7, 7]


def test_cactus_below_the_top_may_not_be_played() -> None:
    with pytest.raises(IllegalMoveError) as error:
        move(table(hands=[[4], []], piles=[[7], []]), "play", 0, card=4)
    assert error.value.message == (
        "seat 0 cannot play 4 on 7:"
        " a Cactus card must be equal to or higher than the top of the pile"
    )


def test_any_value_may_be_played_on_an_empty_pile() -> None:
    state = move(table(hands=[[1], []]), "play", 0, card=1)
    assert full(state)["piles"][0] == [1]


def test_any_value_may_be_played_on_a_lemur() -> None:
    state = move(table(hands=[[1], []], piles=[[12, L], []]), "play", 0, card=1)
    assert full(state)["piles"][0] == [12, L, 1]


@pytest.mark.parametrize("special", [L, DL])
def test_lemur_and_double_lemur_may_always_be_played(special: str) -> None:
    state = table(hands=[[special], []], piles=[[13], [2]])
    state = move(state, "play", 0, card=special, **({"target": 1} if special == DL else {}))
    assert full(state)["hands"][0] == []


def test_card_not_in_hand_may_not_be_played() -> None:
    with pytest.raises(IllegalMoveError, match="not in their hand"):
        move(table(hands=[[4], []]), "play", 0, card=5)


@pytest.mark.parametrize("card", [0, 14, "joker", True, 7.0, None, [7]])
def test_card_that_is_no_card_of_the_catalog_is_an_invalid_event(card: Any) -> None:
    with pytest.raises(InvalidEventError) as error:
        move(table(hands=[[7], []]), "play", 0, card=card)
    assert "card" in error.value.details


def test_draw_takes_the_top_card_into_the_hand() -> None:
    state = move(table(hands=[[4], []], draw=[9, 2]), "draw", 0)
    assert full(state)["hands"][0] == [4, 9]
    assert full(state)["draw_pile"] == [2]


def test_draw_is_refused_with_three_cards_in_hand() -> None:
    with pytest.raises(IllegalMoveError, match="the hand limit is 3"):
        move(table(hands=[[1, 2, 3], []]), "draw", 0)


def test_try_luck_puts_the_drawn_card_straight_on_the_pile() -> None:
    state = move(table(hands=[[4], []], piles=[[5], []], draw=[9, 2]), "try_luck", 0)
    assert full(state)["piles"][0] == [5, 9]
    assert full(state)["hands"][0] == [4]
    assert full(state)["current_player"] == 1


def test_try_luck_is_allowed_with_three_cards_in_hand() -> None:
    state = move(table(hands=[[1, 2, 3], []], draw=[9]), "try_luck", 0)
    assert full(state)["piles"][0] == [9]


def test_turn_passes_to_the_left() -> None:
    state = table(3, hands=[[1], [2], [3]], turn=2)
    assert full(move(state, "play", 2, card=3))["current_player"] == 0


def test_wrong_player_is_refused_naming_whose_turn_it_is() -> None:
    with pytest.raises(IllegalMoveError, match="it is seat 0's turn to play, draw or try"):
        move(table(hands=[[1], [2]]), "play", 1, card=2)


def test_seeded_draw_naming_a_card_is_an_invalid_event() -> None:
    for kind in ("draw", "try_luck"):
        with pytest.raises(InvalidEventError) as error:
            move(table(), kind, 0, card=5)
        assert error.value.details == {"card": "not allowed in seeded mode"}


def test_observed_draw_without_the_card_is_an_invalid_event() -> None:
    with pytest.raises(InvalidEventError) as error:
        move(table(chance="observed"), "draw", 0)
    assert error.value.details == {"card": "required"}


def test_unknown_field_is_an_invalid_event() -> None:
    with pytest.raises(InvalidEventError) as error:
        move(table(hands=[[1], []]), "play", 0, card=1, face="up")
    assert error.value.details == {"face": "unknown field"}


@pytest.mark.parametrize(
    "event",
    [
        {"type": "pass", "player": 0},
        {"player": 0},
        {"type": "draw"},
        {"type": "draw", "player": 2},
        {"type": "draw", "player": "0"},
        ["draw", 0],
    ],
)
def test_malformed_event_is_invalid(event: Any) -> None:
    with pytest.raises(InvalidEventError):
        GAME.apply(table(), event)


def test_malformed_event_is_invalid_before_whose_turn_is_judged() -> None:
    with pytest.raises(InvalidEventError):
        move(table(), "draw", 1, card=5)


def test_move_on_a_finished_game_raises_game_finished() -> None:
    with pytest.raises(GameFinishedError):
        move(replace(table(hands=[[1], []]), finished=True), "play", 0, card=1)


def test_awaited_decision_comes_before_any_turn_move() -> None:
    state = move(table(hands=[[4, 6], []], draw=[S]), "draw", 0)
    with pytest.raises(IllegalMoveError, match="with the Scorpion"):
        move(state, "play", 0, card=4)


def test_apply_leaves_the_state_it_was_given_unchanged() -> None:
    state = table(hands=[[4], []], draw=[9, 2])
    before = full(state)
    move(state, "draw", 0)
    assert full(state) == before


# --- Lemur --------------------------------------------------------------------------------------


def test_lemur_drags_the_top_card_to_the_bottom() -> None:
    state = move(table(hands=[[L], []], piles=[[3, 8], []]), "play", 0, card=L)
    assert full(state)["piles"][0] == [8, L, 3]


def test_lemur_drags_equal_cards_together() -> None:
    state = move(table(hands=[[L], []], piles=[[2, 5, 7, 7], []]), "play", 0, card=L)
    assert full(state)["piles"][0] == [7, 7, L, 2, 5]


def test_lemur_drags_a_top_lemur_alone() -> None:
    # [4, L, L] comes from a Lemur on an empty pile, a 4 on it, then a Lemur dragging the 4.
    state = move(table(hands=[[L], []], piles=[[4, L, L], []]), "play", 0, card=L)
    assert full(state)["piles"][0] == [L, L, 4, L]


def test_lemur_stops_dragging_at_a_different_card() -> None:
    state = move(table(hands=[[L], []], piles=[[7, L, 7], []]), "play", 0, card=L)
    assert full(state)["piles"][0] == [7, L, 7, L]


def test_lemur_on_an_empty_pile_lies_on_top() -> None:
    state = move(table(hands=[[L], []]), "play", 0, card=L)
    assert full(state)["piles"][0] == [L]


def test_lemur_from_try_luck_drags_too() -> None:
    state = move(table(hands=[[], []], piles=[[6, 9], []], draw=[L]), "try_luck", 0)
    assert full(state)["piles"][0] == [9, L, 6]
    assert full(state)["round"] == 1


# --- Double Lemur -------------------------------------------------------------------------------


def test_double_lemur_swaps_piles_with_chosen_target() -> None:
    state = table(3, hands=[[DL], [], []], piles=[[1, 2], [3], [4, 5, 6]])
    state = move(state, "play", 0, card=DL, target=2)
    assert full(state)["piles"] == [[4, 5, 6], [3], [1, 2]]


def test_double_lemur_goes_to_the_general_discard() -> None:
    state = move(table(hands=[[DL], []], discard=[3]), "play", 0, card=DL)
    assert full(state)["discard"] == [3, DL]


def test_double_lemur_with_two_players_swaps_with_the_opponent_by_default() -> None:
    state = move(table(hands=[[DL], []], piles=[[1], [9]]), "play", 0, card=DL)
    assert full(state)["piles"] == [[9], [1]]


def test_double_lemur_needs_a_target_with_three_players() -> None:
    with pytest.raises(InvalidEventError) as error:
        move(table(3, hands=[[DL], [], []]), "play", 0, card=DL)
    assert "target" in error.value.details


def test_double_lemur_cannot_target_its_player() -> None:
    with pytest.raises(IllegalMoveError, match="another player"):
        move(table(3, hands=[[DL], [], []]), "play", 0, card=DL, target=0)


def test_target_with_any_card_but_a_double_lemur_is_an_invalid_event() -> None:
    with pytest.raises(InvalidEventError) as error:
        move(table(3, hands=[[5], [], []]), "play", 0, card=5, target=1)
    assert "target" in error.value.details


def test_double_lemur_from_try_luck_waits_for_target_with_three_players() -> None:
    state = table(3, hands=[[], [], []], piles=[[1], [2], [3]], draw=[DL, 4])
    state = move(state, "try_luck", 0)
    assert full(state)["pending"] == {"kind": "choose_target", "player": 0}
    assert full(state)["discard"] == [DL]
    with pytest.raises(IllegalMoveError, match="another player"):
        move(state, "choose_target", 0, target=0)
    state = move(state, "choose_target", 0, target=1)
    assert full(state)["piles"] == [[2], [1], [3]]
    assert full(state)["current_player"] == 1


def test_double_lemur_from_try_luck_swaps_with_the_opponent_with_two_players() -> None:
    state = table(hands=[[], []], piles=[[1], [2]], draw=[DL, 4])
    state = move(state, "try_luck", 0)
    assert full(state)["piles"] == [[2], [1]]
    assert full(state)["pending"] is None
    assert full(state)["current_player"] == 1


# --- Scorpion -----------------------------------------------------------------------------------


def test_drawn_scorpion_goes_to_the_discard_with_a_chosen_hand_card() -> None:
    state = move(table(hands=[[4, 6], []], discard=[1], draw=[S, 2]), "draw", 0)
    assert full(state)["pending"] == {"kind": "scorpion_discard", "player": 0}
    state = move(state, "scorpion_discard", 0, card=6)
    assert full(state)["discard"] == [1, S, 6]
    assert full(state)["hands"][0] == [4]
    assert full(state)["current_player"] == 1


def test_scorpion_from_try_luck_discards_a_hand_card_and_the_player_is_safe() -> None:
    state = table(hands=[[3, 5, 9], []], piles=[[12], []], draw=[S, 2])
    state = move(state, "try_luck", 0)
    state = move(state, "scorpion_discard", 0, card=3)
    assert full(state)["discard"] == [S, 3]
    assert full(state)["piles"][0] == [12]
    assert full(state)["round"] == 1


def test_scorpion_with_an_empty_hand_goes_alone() -> None:
    state = move(table(hands=[[], []], draw=[S, 2]), "try_luck", 0)
    assert full(state)["discard"] == [S]
    assert full(state)["pending"] is None
    assert full(state)["current_player"] == 1


def test_scorpion_discard_is_skipped_when_the_hand_holds_only_identical_cards() -> None:
    state = move(table(hands=[[8, 8], []], draw=[S, 2]), "draw", 0)
    assert full(state)["discard"] == [S, 8]
    assert full(state)["hands"][0] == [8]
    assert full(state)["pending"] is None


def test_scorpion_discard_must_be_a_hand_card() -> None:
    state = move(table(hands=[[4, 6], []], draw=[S]), "draw", 0)
    with pytest.raises(IllegalMoveError, match="must be one of their hand cards"):
        move(state, "scorpion_discard", 0, card=7)
    with pytest.raises(IllegalMoveError, match="must be one of their hand cards"):
        move(state, "scorpion_discard", 0, card=S)


# --- running out of cards -----------------------------------------------------------------------


def test_reshuffle_gathers_discard_then_each_pile_but_its_top_in_seat_order() -> None:
    state = table(
        3,
        hands=[[], [], []],
        piles=[[1, 2, 4], [5], [6, 7, 8]],
        discard=[3, DL, 9],
        draw=[],
    )
    gathered = [3, DL, 9, 1, 2, 6, 7]
    shuffled, rng = state.rng.shuffled(gathered)
    after = move(state, "draw", 0)
    assert full(after)["hands"][0] == [shuffled[0]]
    assert full(after)["draw_pile"] == list(shuffled[1:])
    assert full(after)["piles"] == [[4], [5], [8]]
    assert full(after)["discard"] == []
    assert after.rng == rng


def test_reshuffle_waits_until_a_card_must_be_drawn() -> None:
    state = move(table(hands=[[], []], piles=[[1, 2], []], discard=[3], draw=[5]), "draw", 0)
    assert full(state)["draw_pile_size"] == 0
    assert full(state)["discard"] == [3]
    assert full(state)["piles"][0] == [1, 2]


def test_set_aside_cards_are_never_reshuffled() -> None:
    state = table(hands=[[], []], piles=[[1, 2], []], set_aside=[[9], [10]], draw=[])
    state = move(state, "draw", 0)
    assert full(state)["set_aside"] == [[9], [10]]
    assert full(state)["hands"][0] == [1]


def test_observed_reshuffle_is_no_event_and_draws_must_be_gathered_cards() -> None:
    state = table(hands=[[], []], piles=[[1, 2], []], discard=[L], draw=[], chance="observed")
    with pytest.raises(IllegalMoveError, match="once the discards are reshuffled"):
        move(state, "draw", 0, card=9)
    state = move(state, "draw", 0, card=L)
    assert full(state)["unseen"] == [1]
    assert full(state)["piles"][0] == [2]
    assert full(state)["version"] == 1


def test_draw_and_try_luck_are_refused_when_nothing_can_be_drawn() -> None:
    state = table(hands=[[], [3]], piles=[[9], [4]], draw=[])
    for kind in ("draw", "try_luck"):
        with pytest.raises(IllegalMoveError, match="no card can be drawn"):
            move(state, kind, 0)


def test_player_without_an_allowed_move_passes() -> None:
    state = table(3, hands=[[4, 5], [3], [6]], piles=[[], [9], []], draw=[])
    state = move(state, "play", 0, card=4)
    assert full(state)["current_player"] == 2


def test_game_ends_scored_as_it_stands_when_nobody_can_move() -> None:
    state = table(hands=[[9, 5], [2, 3]], piles=[[], [8]], set_aside=[[3], [10, 11]], draw=[])
    state = move(state, "play", 0, card=9)
    assert full(state)["status"] == "finished"
    assert full(state)["current_player"] is None
    assert GAME.result(state) == {"winners": [1], "scores": [2, 11]}
    assert GAME.legal_moves(state) == []


# --- end of a round -----------------------------------------------------------------------------


def test_cactus_lower_than_the_top_from_try_luck_loses_the_round() -> None:
    state = lost_round(piles=[[5], [1], [1]])
    assert full(state)["round"] == 2
    assert full(state)["set_aside"] == [[], [1], [1]]


def test_other_players_set_aside_their_top_card() -> None:
    state = lost_round(piles=[[5], [3, 8], [4]])
    assert full(state)["set_aside"] == [[], [8], [4]]


def test_top_lemur_is_not_set_aside_and_goes_to_the_discard() -> None:
    state = lost_round(piles=[[5], [3, L], [4]])
    assert full(state)["set_aside"] == [[], [], [4]]
    assert full(state)["discard"][-2:] == [3, L]


def test_empty_pile_sets_aside_nothing() -> None:
    state = lost_round(piles=[[5], [], [4]])
    assert full(state)["set_aside"] == [[], [], [4]]


def test_piles_go_to_the_discard_in_seat_order_with_the_losing_card() -> None:
    state = lost_round(piles=[[4, 5], [1, 2, 3], [6, 7]], discard=[DL])
    assert full(state)["discard"] == [DL, 4, 5, 2, 1, 2, 6]
    assert full(state)["piles"] == [[], [], []]


def test_loser_discards_chosen_hand_cards_in_the_order_listed() -> None:
    state = lost_round(hands=[[9, 1, 9], [6], []], piles=[[5], [], []])
    assert full(state)["pending"] == {"kind": "round_discard", "player": 0}
    state = move(state, "round_discard", 0, cards=[9, 1])
    assert full(state)["hands"] == [[9], [6], []]
    assert full(state)["discard"][-2:] == [9, 1]


def test_loser_may_keep_every_hand_card() -> None:
    state = lost_round(hands=[[9, 1], [], []], piles=[[5], [], []])
    state = move(state, "round_discard", 0, cards=[])
    assert full(state)["hands"][0] == [9, 1]


def test_loser_discards_only_cards_from_their_hand() -> None:
    state = lost_round(hands=[[9, 1], [], []], piles=[[5], [], []])
    with pytest.raises(IllegalMoveError, match="only cards from their hand"):
        move(state, "round_discard", 0, cards=[9, 9])


def test_loser_with_an_empty_hand_has_no_discard_to_make() -> None:
    state = lost_round(piles=[[5], [], []])
    assert full(state)["pending"] is None


def test_other_players_keep_their_hands() -> None:
    state = lost_round(hands=[[], [1, 2, 3], [4]], piles=[[5], [], []])
    assert full(state)["hands"] == [[], [1, 2, 3], [4]]


def test_seat_left_of_the_loser_starts_the_next_round() -> None:
    state = lost_round(hands=[[7], [], []], piles=[[5], [], []])
    state = move(state, "round_discard", 0, cards=[7])
    assert full(state)["current_player"] == 1
    last_seat_loses = move(table(3, piles=[[], [], [5]], draw=[2, 13], turn=2), "try_luck", 2)
    assert full(last_seat_loses)["current_player"] == 0


def test_round_counts_up_as_soon_as_a_round_ends() -> None:
    state = lost_round(hands=[[7], [], []], piles=[[5], [], []])
    assert full(state)["round"] == 2  # already, while the loser's discard is awaited


def test_fifth_card_set_aside_ends_the_game_at_once() -> None:
    state = lost_round(hands=[[7], [], []], piles=[[5], [9], []], set_aside=[[], [1, 1, 1, 1], []])
    shown = full(state)
    assert shown["status"] == "finished"
    assert shown["pending"] is None  # no round_discard, no next round
    assert shown["round"] == 1
    assert shown["set_aside"][1] == [1, 1, 1, 1, 9]
    assert GAME.result(state) == {"winners": [1], "scores": [0, 9, 0]}


def test_score_is_the_pears_on_the_cards_set_aside() -> None:
    state = lost_round(piles=[[5], [13], [2]], set_aside=[[1, 1, 1, 1], [1, 1, 1, 3], [4, 4, 4, 4]])
    # 1+1+1+1 / 1+1+1+2 and 6 for the 13 / 2+2+2+2 and 1 for the 2
    assert GAME.result(state) == {"winners": [1], "scores": [4, 11, 9]}


def test_highest_score_wins() -> None:
    state = lost_round(piles=[[5], [13], [1]], set_aside=[[13] * 4, [1] * 4, [2] * 4])
    assert GAME.result(state) == {"winners": [0], "scores": [24, 10, 5]}


def test_tied_seats_share_the_victory() -> None:
    state = lost_round(piles=[[5], [12], [11]], set_aside=[[], [1, 1, 1, 1], [1, 1, 1, 1]])
    assert GAME.result(state) == {"winners": [1, 2], "scores": [0, 10, 10]}


# --- observed mode ------------------------------------------------------------------------------


def test_observed_draw_takes_the_card_seen() -> None:
    state = observed(2, [1, 2, 3], [4, 5, 6])
    state = move(state, "try_luck", 0, card=12)
    assert full(state)["piles"][0] == [12]
    assert Counter(full(state)["unseen"])[12] == 3


def test_fifth_lemur_is_rejected_in_observed_mode() -> None:
    state = observed(2, [L, L, 1], [L, L, 2])
    with pytest.raises(IllegalMoveError, match="no such card is left in the draw pile"):
        move(state, "try_luck", 0, card=L)
    with pytest.raises(IllegalMoveError, match="more copies than the deck still holds"):
        observed(2, [L, L, L], [L, L, 2])


# --- views (what each viewer may see: test_mada_views.py) ---------------------------------------

MUST_FIELDS = {
    "version",
    "status",
    "round",
    "current_player",
    "pending",
    "hands",
    "piles",
    "set_aside",
    "scores",
    "draw_pile_size",
    "discard",
    "winners",
}


def test_full_view_has_every_must_field_and_the_seeded_draw_pile() -> None:
    state = GAME.new_game(2, 0, {})
    shown = full(state)
    assert set(shown) >= MUST_FIELDS
    assert shown["draw_pile_size"] == len(shown["draw_pile"]) == 64
    assert shown["version"] == 0 and shown["status"] == "active" and shown["round"] == 1
    assert shown["winners"] == []
    assert json.loads(json.dumps(shown)) == shown


def test_version_counts_the_events_applied() -> None:
    state = observed(2, [1, 2, 3], [4, 5, 6])
    assert full(move(state, "play", 0, card=1))["version"] == 3


def test_current_player_is_the_seat_whose_decision_is_awaited() -> None:
    state = table(3, hands=[[], [], []], piles=[[1], [2], [3]], draw=[DL], turn=1)
    state = move(state, "try_luck", 1)
    assert full(state)["current_player"] == 1
    assert full(state)["pending"] == {"kind": "choose_target", "player": 1}


def test_result_is_none_while_the_game_is_on() -> None:
    assert GAME.result(table()) is None


# --- legal moves --------------------------------------------------------------------------------


def test_legal_moves_of_a_turn_list_plays_then_draws_then_try_luck() -> None:
    state = table(3, hands=[[9, DL, 2], [], []], piles=[[5], [], []], draw=[1])
    assert GAME.legal_moves(state) == [
        {"type": "play", "player": 0, "card": 9},
        {"type": "play", "player": 0, "card": DL, "target": 1},
        {"type": "play", "player": 0, "card": DL, "target": 2},
        {"type": "try_luck", "player": 0},
    ]


def test_legal_moves_list_each_distinct_card_an_observed_draw_may_reveal() -> None:
    state = table(hands=[[], []], draw=[L, 4, 4, 1], chance="observed")
    assert GAME.legal_moves(state) == [
        {"type": kind, "player": 0, "card": card}
        for kind in ("draw", "try_luck")
        for card in (1, 4, L)
    ]


def test_legal_deals_are_every_three_card_multiset_still_unseen() -> None:
    catalog = {
        "cactus": [{"value": 1, "count": 2, "pears": 1}, {"value": 2, "count": 5, "pears": 1}],
        "lemur": 1,
        "double_lemur": 0,
        "scorpion": 0,
    }
    state = GAME.new_game(2, 0, {"chance": "observed", "catalog": catalog})
    assert [body["cards"] for body in GAME.legal_moves(state)] == [
        [1, 1, 2],
        [1, 1, L],
        [1, 2, 2],
        [1, 2, L],
        [2, 2, 2],
        [2, 2, L],
    ]


def test_legal_round_discards_are_every_sub_multiset_of_the_hand() -> None:
    state = lost_round(hands=[[9, 1, 9], [], []], piles=[[5], [], []])
    assert [body["cards"] for body in GAME.legal_moves(state)] == [
        [],
        [1],
        [9],
        [1, 9],
        [9, 9],
        [1, 9, 9],
    ]


def test_every_listed_move_is_accepted() -> None:
    state = table(3, hands=[[9, DL, L], [], []], piles=[[5], [1], [2]], draw=[S, 3])
    for body in GAME.legal_moves(state):
        GAME.apply(state, body)


def test_pending_state_is_rebuilt_by_replay() -> None:
    state = observed(2, [5, S, 9], [1, 2, 3])
    assert state.pending == Pending("scorpion_discard", 0)
    events = [
        {"type": "deal", "player": 0, "cards": [5, S, 9]},
        {"type": "deal", "player": 1, "cards": [1, 2, 3]},
    ]
    assert GAME.replay(2, 0, {"chance": "observed"}, events) == state
