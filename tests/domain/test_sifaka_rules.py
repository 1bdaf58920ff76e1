"""One test per rule of Sifaka's rulebook and per ruling of spec/sifaka.md.

Most tests set a table up directly (``table``: a board drawn as text, pawns, hands, piles and
counters) and make one move, so each states its situation plainly. Boards are drawn one token a
box: ``.`` blank, ``1`` ``2`` ``3`` palms, ``^ > v <`` arrows N E S W, ``g y r`` mangos, ``#`` no
box; the top-left token is at ``origin``.
"""

from __future__ import annotations

from collections import Counter as Tally
from dataclasses import replace
from typing import Any

import pytest

from domain import get_game
from domain.errors import (
    GameFinishedError,
    IllegalMoveError,
    InvalidEventError,
    InvalidOptionsError,
)
from domain.rng import SplitMix64
from domain.sifaka import SifakaState
from domain.sifaka.catalog import DEFAULT_CATALOG, normalize_catalog
from domain.sifaka.state import Counter, Lying, Pawn, Placement
from domain.viewers import PUBLIC, RECORDER
from tests.support.sifaka import (
    CATALOG,
    GAME,
    HUT_SQUARE,
    act,
    grid,
    moving,
    pawn,
    table,
)


def full(state: SifakaState) -> dict[str, Any]:
    return GAME.view(state, RECORDER)


def box_at(state: SifakaState, x: int, y: int) -> str | None:
    found = [square.box.spec for square in state.board if (square.x, square.y) == (x, y)]
    return found[0] if found else None


# --- components and the default deck -------------------------------------------------------------


def test_default_deck_has_exactly_the_composition_of_the_ruling() -> None:
    cards = DEFAULT_CATALOG["cards"]
    boxes = Tally(box for card in cards for box in card["boxes"])
    assert len(cards) == 48
    assert [card["id"] for card in cards] == list(range(1, 49))
    assert boxes == {
        "mango:green": 15,
        "mango:yellow": 9,
        "mango:red": 6,
        "palms:1": 40,
        "palms:2": 32,
        "palms:3": 16,
        "arrow:N": 12,
        "arrow:E": 12,
        "arrow:S": 12,
        "arrow:W": 12,
        "blank": 26,
    }
    assert all(sum(box.startswith("mango") for box in card["boxes"]) <= 1 for card in cards)


def test_default_deck_is_labelled_as_the_projects_own_and_passes_its_own_checks() -> None:
    assert "not the printed cards" in DEFAULT_CATALOG["name"]
    assert normalize_catalog(DEFAULT_CATALOG) == DEFAULT_CATALOG
    assert full(GAME.new_game(2, 0, {}))["deck"] == DEFAULT_CATALOG["name"]


def test_thirty_mango_counters_as_the_rulebook_gives() -> None:
    shown = full(GAME.new_game(2, 0, {}))
    assert list(shown["counter_piles"]) == ["green", "yellow", "red"]
    assert sorted(shown["counter_piles"]["green"]) == [1] * 10 + [2] * 5
    assert sorted(shown["counter_piles"]["yellow"]) == [2] * 6 + [3] * 3
    assert sorted(shown["counter_piles"]["red"]) == [3] * 4 + [4] * 2


def test_custom_catalog_is_the_deck_dealt() -> None:
    options = GAME.options({"catalog": CATALOG}, 2)
    state = GAME.new_game(2, 3, options)
    shown = full(state)
    assert sorted(shown["draw_pile"] + shown["hands"]) == list(range(1, 9))
    assert shown["deck"] == "test deck"
    assert options["catalog"] == CATALOG


def test_a_catalog_needs_no_name() -> None:
    state = GAME.new_game(2, 3, {"catalog": {"cards": CATALOG["cards"][:3]}})
    assert full(state)["deck"] is None


@pytest.mark.parametrize(
    ("catalog", "fragment"),
    [
        ([], "must be an object"),
        ({"name": "x"}, "missing 'cards'"),
        ({"cards": [], "joker": 1}, "unknown 'joker'"),
        ({"cards": []}, "cards must be a list of 1 to 100 cards"),
        ({"cards": [{"id": 1, "boxes": ["blank"] * 4}] * 101}, "1 to 100 cards"),
        ({"name": "", "cards": [{"id": 1, "boxes": ["blank"] * 4}]}, "name must be a string"),
        ({"cards": [{"id": 1}]}, "cards[0] must be an object with exactly id and boxes"),
        ({"cards": [{"id": 0, "boxes": ["blank"] * 4}]}, "cards[0].id must be an integer"),
        ({"cards": [{"id": True, "boxes": ["blank"] * 4}]}, "cards[0].id must be an integer"),
        ({"cards": [{"id": 1, "boxes": ["blank"] * 3}]}, "cards[0].boxes must be a list of 4"),
        (
            {"cards": [{"id": 1, "boxes": ["blank", "palms:4", "blank", "blank"]}]},
            "cards[0].boxes[1]: 'palms:4' is no box",
        ),
        (
            {"cards": [{"id": 1, "boxes": ["blank", "blank", "arrow:NE", "blank"]}]},
            "cards[0].boxes[2]",
        ),
        (
            {"cards": [{"id": 1, "boxes": ["blank", "blank", "blank", "mango:blue"]}]},
            "cards[0].boxes[3]",
        ),
        (
            {"cards": [{"id": 1, "boxes": ["blank", "blank", "blank", {"kind": "blank"}]}]},
            "cards[0].boxes[3]",
        ),
        (
            {"cards": [{"id": 4, "boxes": ["blank"] * 4}, {"id": 4, "boxes": ["blank"] * 4}]},
            "gives the id(s) [4] to more than one card",
        ),
    ],
)
def test_invalid_catalog_is_rejected_with_a_catalog_detail(catalog: Any, fragment: str) -> None:
    with pytest.raises(InvalidOptionsError) as error:
        GAME.options({"catalog": catalog}, 3)
    assert fragment in error.value.message
    assert set(error.value.details) == {"catalog"}


# --- options ------------------------------------------------------------------------------------


def test_options_fill_defaults_and_leave_out_an_absent_catalog() -> None:
    assert GAME.options({}, 3) == {
        "first_player": 0,
        "chance": "seeded",
        "facing": ["N", "E", "S"],
    }
    assert GAME.options({}, 2)["facing"] == ["N", "S"]


def test_unknown_options_are_each_named() -> None:
    with pytest.raises(InvalidOptionsError) as error:
        GAME.options({"first_player": 1, "colour": "red", "speed": 2}, 3)
    assert error.value.details == {"colour": "unknown option", "speed": "unknown option"}


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"first_player": 3}, "first_player"),
        ({"first_player": True}, "first_player"),
        ({"chance": "dice"}, "chance"),
        ({"facing": ["N", "E"]}, "facing"),
        ({"facing": ["N", "E", "X"]}, "facing"),
        ({"facing": "NES"}, "facing"),
    ],
)
def test_option_values_out_of_range_are_rejected(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidOptionsError) as error:
        GAME.options(raw, 3)
    assert field in error.value.details


@pytest.mark.parametrize("players", [1, 5])
def test_sifaka_is_for_two_to_four_players(players: int) -> None:
    with pytest.raises(InvalidOptionsError, match="2 to 4 players"):
        GAME.options({}, players)


def test_seed_outside_sixty_four_bits_is_rejected() -> None:
    with pytest.raises(InvalidOptionsError):
        GAME.new_game(2, 2**64, {})


def test_the_game_is_registered_with_its_rules_version() -> None:
    game = get_game("sifaka")
    assert (game.name, game.rules_version) == ("sifaka", "sifaka/1")
    assert (game.min_players, game.max_players) == (2, 4)
    assert set(game.event_fields) == {"deal", "place", "move"}


# --- setup --------------------------------------------------------------------------------------


def test_hut_cards_form_a_four_by_four_square_with_the_huts_at_their_inner_corners() -> None:
    boxes = full(GAME.new_game(4, 0, {}))["boxes"]
    assert [(box["x"], box["y"]) for box in boxes] == [(x, y) for y in range(4) for x in range(4)]
    huts = {(box["x"], box["y"]): box["hut"] for box in boxes if box["kind"] == "hut"}
    assert huts == {(1, 1): "red", (2, 1): "blue", (2, 2): "yellow", (1, 2): "green"}
    assert all(box["kind"] == "blank" for box in boxes if (box["x"], box["y"]) not in huts)


@pytest.mark.parametrize(
    ("players", "colours"),
    [
        (2, ["red", "yellow"]),
        (3, ["red", "blue", "yellow"]),
        (4, ["red", "blue", "yellow", "green"]),
    ],
)
def test_seats_take_colours_in_order_and_two_players_sit_opposite(
    players: int, colours: list[str]
) -> None:
    assert full(GAME.new_game(players, 0, {}))["colours"] == colours


def test_sifakas_start_on_their_huts_facing_the_default_ways() -> None:
    assert full(GAME.new_game(4, 0, {}))["pawns"] == [
        {"x": 1, "y": 1, "facing": "N"},
        {"x": 2, "y": 1, "facing": "E"},
        {"x": 2, "y": 2, "facing": "S"},
        {"x": 1, "y": 2, "facing": "W"},
    ]
    assert full(GAME.new_game(2, 0, {}))["pawns"] == [
        {"x": 1, "y": 1, "facing": "N"},
        {"x": 2, "y": 2, "facing": "S"},
    ]


def test_option_facing_points_each_sifaka_as_its_player_wants() -> None:
    pawns = full(GAME.new_game(2, 0, {"facing": ["W", "E"]}))["pawns"]
    assert [pawn["facing"] for pawn in pawns] == ["W", "E"]


def test_seeded_setup_shuffles_the_deck_then_each_colour_then_deals_from_seat_zero() -> None:
    seed = 2026
    rng = SplitMix64(seed)
    deck, rng = rng.shuffled(list(range(1, 49)))
    green, rng = rng.shuffled([1] * 10 + [2] * 5)
    yellow, rng = rng.shuffled([2] * 6 + [3] * 3)
    red, rng = rng.shuffled([3] * 4 + [4] * 2)
    state = GAME.new_game(3, seed, {"first_player": 2})
    shown = full(state)
    assert shown["hands"] == list(deck[:3])
    assert shown["draw_pile"] == list(deck[3:])
    assert shown["counter_piles"] == {
        "green": list(green),
        "yellow": list(yellow),
        "red": list(red),
    }
    assert state.rng == rng


def test_first_player_starts_by_placing_and_play_goes_to_the_left() -> None:
    state = GAME.new_game(3, 0, {"first_player": 2})
    assert (full(state)["current_player"], full(state)["phase"]) == (2, "place")
    state = GAME.apply(state, GAME.legal_moves(state)[0])
    assert (full(state)["current_player"], full(state)["phase"]) == (2, "move")
    state = GAME.apply(state, GAME.legal_moves(state)[0])
    assert (full(state)["current_player"], full(state)["phase"]) == (0, "place")


def test_observed_setup_waits_for_one_deal_per_seat_in_seat_order() -> None:
    state = GAME.new_game(3, 0, {"chance": "observed", "first_player": 1})
    assert (full(state)["phase"], full(state)["current_player"]) == ("deal", 0)
    assert state.rng == SplitMix64(0)  # the table shuffles: the generator is not used
    state = act(state, "deal", 0, card=17)
    with pytest.raises(IllegalMoveError, match="it is seat 1's turn"):
        act(state, "deal", 2, card=3)
    with pytest.raises(IllegalMoveError, match="not among the cards still unseen"):
        act(state, "deal", 1, card=17)
    state = act(act(state, "deal", 1, card=4), "deal", 2, card=48)
    assert full(state)["hands"] == [17, 4, 48]
    assert full(state)["draw_pile_size"] == 45
    assert (full(state)["phase"], full(state)["current_player"]) == ("place", 1)


def test_deal_event_in_a_seeded_game_is_invalid() -> None:
    with pytest.raises(InvalidEventError):
        act(GAME.new_game(2, 0, {}), "deal", 0, card=1)


@pytest.mark.parametrize("card", [0, 49, True, "1", None, [1]])
def test_a_card_that_is_no_card_of_the_catalog_is_an_invalid_event(card: Any) -> None:
    with pytest.raises(InvalidEventError) as error:
        act(GAME.new_game(2, 0, {"chance": "observed"}), "deal", 0, card=card)
    assert "card" in error.value.details


# --- placing a Terrain card ----------------------------------------------------------------------


def placing(card: int, **kwargs: Any) -> SifakaState:
    return table(hands=[card, None], phase="place", **kwargs)


def test_a_card_must_cover_at_least_one_box_already_on_the_table() -> None:
    with pytest.raises(IllegalMoveError, match="must cover at least one box"):
        act(placing(1), "place", 0, x=4, y=0, rotation=0)


def test_a_card_overlapping_the_table_replaces_the_boxes_it_covers() -> None:
    state = act(placing(1), "place", 0, x=3, y=3, rotation=0)
    assert [box_at(state, x, y) for x, y in ((3, 3), (4, 3), (3, 4), (4, 4))] == [
        "palms:1",
        "arrow:N",
        "mango:green",
        "blank",
    ]
    assert len(state.board) == 16 + 3
    assert full(state)["placements"][-1] == {"player": 0, "card": 1, "x": 3, "y": 3, "rotation": 0}
    assert (full(state)["hands"][0], full(state)["phase"]) == (None, "move")


def test_a_card_may_cover_boxes_of_several_cards_at_once() -> None:
    # (1, 1) to (2, 2): one box of each Hut card, the four huts.
    state = act(placing(4), "place", 0, x=1, y=1, rotation=0)
    assert [box_at(state, x, y) for x, y in ((1, 1), (2, 1), (1, 2), (2, 2))] == [
        "palms:1",
        "palms:2",
        "palms:2",
        "palms:1",
    ]
    assert len(state.board) == 16


def test_a_card_may_cover_a_whole_card() -> None:
    state = act(placing(3), "place", 0, x=0, y=0, rotation=90)
    assert [box_at(state, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))] == [
        "palms:3",
        "mango:red",
        "mango:yellow",
        "palms:2",
    ]


def test_a_card_is_laid_turned_as_the_event_says() -> None:
    state = act(placing(1), "place", 0, x=3, y=3, rotation=180)
    # palms:1 arrow:N / mango blank, half round: blank mango / arrow:S palms:1
    assert [box_at(state, x, y) for x, y in ((3, 3), (4, 3), (3, 4), (4, 4))] == [
        "blank",
        "mango:green",
        "arrow:S",
        "palms:1",
    ]


def test_rotation_defaults_to_zero() -> None:
    assert act(placing(1), "place", 0, x=3, y=3) == act(
        placing(1), "place", 0, x=3, y=3, rotation=0
    )


def test_a_card_may_not_be_placed_on_a_pawns_box() -> None:
    state = placing(2, pawns=[(2, 2, "N"), (9, 9, "N")])
    with pytest.raises(IllegalMoveError, match=r"the box \[2, 2\] holds a pawn"):
        act(state, "place", 0, x=1, y=1, rotation=0)
    act(state, "place", 0, x=0, y=0, rotation=0)


def test_a_card_may_not_be_placed_on_a_counters_box() -> None:
    state = placing(2, lying={(3, 0): ("red", 4)})
    with pytest.raises(IllegalMoveError, match=r"the box \[3, 0\] holds a counter"):
        act(state, "place", 0, x=3, y=-1, rotation=0)


def test_a_mango_box_without_a_counter_may_be_covered() -> None:
    board = grid(HUT_SQUARE) | grid("g", origin=(3, 0))
    state = act(placing(2, board=board), "place", 0, x=3, y=-1, rotation=0)
    assert box_at(state, 3, 0) == "blank"


def test_a_counter_is_laid_on_each_mango_box_from_the_top_of_its_colours_pile() -> None:
    state = placing(3, counter_piles=[[2, 1], [3, 2], [4, 3]])
    state = act(state, "place", 0, x=3, y=3, rotation=0)
    assert full(state)["counter_piles"] == {"green": [2, 1], "yellow": [2], "red": [3]}
    assert [(item.x, item.y, item.counter) for item in state.lying] == [
        (3, 3, Counter("red", 4)),
        (4, 4, Counter("yellow", 3)),
    ]
    assert [box.get("counter") for box in full(state)["boxes"] if box["kind"] == "mango"] == [
        True,
        True,
    ]


def test_no_counter_is_laid_once_its_colours_pile_is_empty() -> None:
    state = act(placing(7, counter_piles=[[1], [], []]), "place", 0, x=3, y=3, rotation=0)
    # Two green mango boxes, one green counter left: the first box in footprint order gets it.
    assert [(item.x, item.y) for item in state.lying] == [(3, 3)]
    assert full(state)["counters_left"] == {"green": 0, "yellow": 0, "red": 0}


def test_observed_counters_are_laid_face_down_with_no_value() -> None:
    state = placing(3, chance="observed")
    state = act(state, "place", 0, x=3, y=3, rotation=0)
    assert [item.counter for item in state.lying] == [Counter("red", None), Counter("yellow", None)]
    assert full(state)["counters_left"] == {"green": 15, "yellow": 8, "red": 5}
    assert "counter_value" not in str(full(state)["boxes"])


def test_a_card_that_fits_nowhere_is_discarded_with_a_place_without_position() -> None:
    # One box, with a pawn on it: every card touching it would cover the pawn.
    state = placing(1, board=grid("."), pawns=[(0, 0, "N"), (0, 0, "N")])
    assert GAME.legal_moves(state) == [{"type": "place", "player": 0}]
    with pytest.raises(IllegalMoveError, match="holds a pawn"):
        act(state, "place", 0, x=0, y=0, rotation=0)
    state = act(state, "place", 0)
    assert full(state)["discarded"] == [1]
    assert (full(state)["hands"][0], full(state)["phase"]) == (None, "move")
    assert len(state.board) == 1


def test_a_card_that_fits_somewhere_may_not_be_discarded() -> None:
    with pytest.raises(IllegalMoveError, match=r"it fits at \[-1, -1\]"):
        act(placing(1), "place", 0)


@pytest.mark.parametrize(
    ("fields", "detail"),
    [
        ({"x": 1}, "y"),
        ({"y": 1, "rotation": 90}, "x"),
        ({"rotation": 90}, "x"),
        ({"x": 1, "y": 1, "rotation": 45}, "rotation"),
        ({"x": 1, "y": 1, "rotation": "90"}, "rotation"),
        ({"x": True, "y": 1}, "x"),
        ({"x": 1, "y": 1.0}, "y"),
        ({"x": 10**6, "y": 1}, "x"),
        ({"x": 1, "y": 1, "card": 1}, "card"),
    ],
)
def test_malformed_place_events_are_invalid(fields: dict[str, Any], detail: str) -> None:
    with pytest.raises(InvalidEventError) as error:
        act(placing(1), "place", 0, **fields)
    assert detail in error.value.details


# --- the starting slots (a ruling) ---------------------------------------------------------------


def test_the_first_card_must_go_into_a_starting_slot() -> None:
    state = GAME.new_game(2, 0, {})
    with pytest.raises(IllegalMoveError, match="must go into a starting slot"):
        act(state, "place", 0, x=0, y=-1, rotation=0)
    assert sorted((move["x"], move["y"]) for move in GAME.legal_moves(state)) == sorted(
        [(1, -1), (3, 1), (1, 3), (-1, 1)] * 4
    )


def test_each_of_the_first_four_cards_fills_a_slot_no_card_has_filled_yet() -> None:
    state = GAME.new_game(2, 0, {"facing": ["S", "N"]})
    filled: list[tuple[int, int]] = []
    for slot in [(3, 1), (-1, 1), (1, 3), (1, -1)]:
        anchors = {(move["x"], move["y"]) for move in GAME.legal_moves(state)}
        assert slot in anchors and not anchors & set(filled)
        for other in filled:
            with pytest.raises(IllegalMoveError):
                act(state, "place", state.turn, x=other[0], y=other[1], rotation=0)
        state = act(state, "place", state.turn, x=slot[0], y=slot[1], rotation=90)
        filled.append(slot)
        state = act(state, "move", state.turn, turns=[])
    assert [slot["filled"] for slot in full(state)["starting_slots"]] == [True] * 4
    # The fifth card follows the usual rule: anywhere it covers a box, off the slots too.
    assert len(GAME.legal_moves(state)) > 4 * 4
    state = act(state, "place", state.turn, x=-1, y=-1, rotation=0)
    assert len(full(state)["placements"]) == 5


def test_a_filled_slot_takes_no_second_card_among_the_first_four() -> None:
    state = table(hands=[2, 2], phase="place", first_cards_done=False)
    state = act(state, "place", 0, x=3, y=1)
    state = replace(state, turn=1, phase="place")
    with pytest.raises(IllegalMoveError, match="must go into a starting slot no card has filled"):
        act(state, "place", 1, x=3, y=1)


def test_a_slot_with_a_pawn_in_it_is_skipped() -> None:
    state = table(
        hands=[2, None],
        phase="place",
        first_cards_done=False,
        pawns=[(1, 0, "N"), (2, 2, "S")],  # red has hopped into the north slot's half
    )
    anchors = {(move["x"], move["y"]) for move in GAME.legal_moves(state)}
    assert anchors == {(3, 1), (1, 3), (-1, 1)}
    with pytest.raises(IllegalMoveError, match="holds a pawn"):
        act(state, "place", 0, x=1, y=-1, rotation=0)


def test_with_no_free_slot_left_a_first_card_follows_the_usual_rule() -> None:
    # Three slots filled; the fourth (north) has a pawn in it.
    state = replace(
        table(hands=[2, None], phase="place", first_cards_done=False, pawns=[(1, 0, "N")] * 2),
        placements=(Placement(0, 2, 3, 1, 0), Placement(1, 2, 1, 3, 0), Placement(0, 2, -1, 1, 0)),
        slots_filled=(False, True, True, True),
    )
    moves = GAME.legal_moves(state)
    assert len(moves) > 4
    state = act(state, "place", 0, x=2, y=2, rotation=0)
    assert full(state)["starting_slots"][0]["filled"] is False


# --- moving the sifaka (the ruling on the movement rule) -----------------------------------------


def test_the_sifaka_hops_onto_the_box_ahead_and_stops_on_a_blank() -> None:
    state = act(moving(". . .", (0, 0, "E")), "move", 0)
    assert pawn(state, 0) == (1, 0, "E")
    assert full(state)["boxes_moved"] == [1, 0]


def test_a_sifaka_with_no_box_ahead_stays_where_it_is() -> None:
    state = act(moving(". . .", (2, 0, "E")), "move", 0, turns=[])
    assert pawn(state, 0) == (2, 0, "E")
    assert full(state)["boxes_moved"] == [0, 0]


def test_a_hop_off_the_edge_takes_no_turns() -> None:
    with pytest.raises(IllegalMoveError, match="no box lies straight ahead"):
        act(moving(". . .", (2, 0, "E")), "move", 0, turns=[1])


def test_palms_carry_the_sifaka_that_many_boxes_further_straight_ahead() -> None:
    state = act(moving(". 2 . . .", (0, 0, "E")), "move", 0)
    assert pawn(state, 0) == (3, 0, "E")
    assert full(state)["boxes_moved"] == [3, 0]


def test_palms_entered_on_the_way_add_no_steps() -> None:
    state = act(moving(". 1 3 . .", (0, 0, "E")), "move", 0)
    assert pawn(state, 0) == (2, 0, "E")


def test_palms_are_stopped_by_the_edge_of_the_board() -> None:
    state = act(moving(". 3 .", (0, 0, "E")), "move", 0)
    assert pawn(state, 0) == (2, 0, "E")
    assert full(state)["boxes_moved"] == [2, 0]


def test_a_sifaka_stopped_by_the_edge_cannot_turn_at_the_steps_it_did_not_take() -> None:
    state = moving(
        """
        . 3 v #
        # # . #
        """,
        (0, 0, "E"),
    )
    with pytest.raises(IllegalMoveError, match="no box lies ahead at step 2"):
        act(state, "move", 0, turns=[2])


def test_palms_go_over_a_gap_nowhere_a_missing_box_ends_the_steps() -> None:
    state = act(moving(". 3 . # .", (0, 0, "E")), "move", 0)
    assert pawn(state, 0) == (2, 0, "E")


def test_landing_on_an_arrow_turns_the_sifaka_to_face_it_and_stops() -> None:
    state = act(
        moving(
            """
            . v .
            # . #
            """,
            (0, 0, "E"),
        ),
        "move",
        0,
    )
    assert pawn(state, 0) == (1, 0, "S")


def test_the_forced_turn_on_the_landing_arrow_takes_no_turns_field() -> None:
    with pytest.raises(IllegalMoveError, match="hops onto an arrow"):
        act(moving(". v .", (0, 0, "E")), "move", 0, turns=[1])


def test_landing_on_a_blank_or_a_mango_or_a_hut_stops_the_sifaka() -> None:
    for board in (". . .", ". g ."):
        assert pawn(act(moving(board, (0, 0, "E")), "move", 0), 0) == (1, 0, "E")
    hut_square = GAME.new_game(2, 0, {"facing": ["E", "N"]})
    state = replace(hut_square, phase="move", pawns=(Pawn(0, 1, "E"), Pawn(3, 3, "N")))
    assert pawn(act(state, "move", 0), 0) == (1, 1, "E")  # onto the red hut


PATH_WITH_ARROWS = """
    . 3 v . .
    # # . # #
    # # > . #
"""


def test_the_sifaka_may_turn_on_an_arrow_it_enters_while_going_its_palms() -> None:
    state = moving(PATH_WITH_ARROWS, (0, 0, "E"))
    assert pawn(act(state, "move", 0, turns=[]), 0) == (4, 0, "E")
    assert pawn(act(state, "move", 0, turns=[1]), 0) == (2, 2, "S")


def test_the_sifaka_may_turn_on_every_arrow_it_enters_or_on_some() -> None:
    run = moving(
        """
        . 3 v # #
        # # > . .
        # # . # #
        """,
        (0, 0, "E"),
    )
    assert pawn(act(run, "move", 0, turns=[1, 2]), 0) == (3, 1, "E")
    assert pawn(act(run, "move", 0, turns=[1]), 0) == (2, 2, "S")
    assert pawn(act(run, "move", 0, turns=[]), 0) == (2, 0, "E")


def test_a_sifaka_turns_only_on_an_arrow() -> None:
    with pytest.raises(IllegalMoveError, match="step 2 enters a blank box"):
        act(moving(PATH_WITH_ARROWS, (0, 0, "E")), "move", 0, turns=[2])


def test_an_arrow_pointing_the_way_the_sifaka_faces_is_no_turn() -> None:
    with pytest.raises(IllegalMoveError, match="already faces"):
        act(moving(". 2 > .", (0, 0, "E")), "move", 0, turns=[1])


def test_a_sifaka_on_n_palms_cannot_turn_after_step_n() -> None:
    with pytest.raises(IllegalMoveError, match="cannot turn at step 3"):
        act(moving(". 2 . . v", (0, 0, "E")), "move", 0, turns=[3])


@pytest.mark.parametrize("turns", [[2, 1], [1, 1], [0], [4], ["1"], 1, [True]])
def test_malformed_turns_are_invalid(turns: Any) -> None:
    with pytest.raises(InvalidEventError) as error:
        act(moving(PATH_WITH_ARROWS, (0, 0, "E")), "move", 0, turns=turns)
    assert "turns" in error.value.details


def test_pawns_may_share_a_box() -> None:
    state = table(board=grid(". ."), pawns=[(0, 0, "E"), (1, 0, "N")])
    assert pawn(act(state, "move", 0), 0) == (1, 0, "E")


def test_the_sifaka_takes_the_counter_where_its_move_ends() -> None:
    state = moving(". 1 g", (0, 0, "E"), lying={(2, 0): ("green", 2)})
    state = act(state, "move", 0)
    assert pawn(state, 0) == (2, 0, "E")
    assert full(state)["counters"] == [[{"colour": "green", "value": 2}], []]
    assert state.lying == ()
    assert full(state)["scores"] == [2, 0]


def test_a_counter_passed_over_stays_on_the_board() -> None:
    state = moving(". 2 g .", (0, 0, "E"), lying={(2, 0): ("green", 2)})
    state = act(state, "move", 0)
    assert pawn(state, 0) == (3, 0, "E")
    assert full(state)["counters"] == [[], []]
    assert len(state.lying) == 1


def test_a_counter_is_taken_after_a_hop_onto_its_box() -> None:
    state = act(moving(". r", (0, 0, "E"), lying={(1, 0): ("red", 4)}), "move", 0)
    assert full(state)["counters"][0] == [{"colour": "red", "value": 4}]


def test_an_observed_move_ending_on_a_counter_names_its_value() -> None:
    state = moving(
        ". y",
        (0, 0, "E"),
        chance="observed",
        lying={(1, 0): ("yellow", None)},
        counter_piles=[[1, 2], [2, 3, 3], [4]],
        draw=[],
    )
    with pytest.raises(InvalidEventError) as error:
        act(state, "move", 0)
    assert "counter" in error.value.details
    with pytest.raises(IllegalMoveError, match="no yellow counter of value 4"):
        act(state, "move", 0, counter=4)
    state = act(state, "move", 0, counter=3)
    assert full(state)["counters"][0] == [{"colour": "yellow", "value": 3}]
    assert full(state)["unseen_counters"]["yellow"] == [2, 3]


def test_an_observed_move_ending_on_no_counter_names_none() -> None:
    state = moving(". .", (0, 0, "E"), chance="observed", draw=[])
    with pytest.raises(IllegalMoveError, match="no counter lies on"):
        act(state, "move", 0, counter=1)


def test_a_seeded_move_names_no_counter_and_no_draw() -> None:
    for field, value in (("counter", 2), ("draw", 5)):
        with pytest.raises(InvalidEventError) as error:
            act(moving(". g", (0, 0, "E")), "move", 0, **{field: value})
        assert field in error.value.details


def test_the_move_follows_the_place() -> None:
    with pytest.raises(IllegalMoveError, match="must place their Terrain card"):
        act(placing(1), "move", 0)
    with pytest.raises(IllegalMoveError, match="must move their sifaka"):
        act(moving(". .", (0, 0, "E"), hands=[1, None]), "place", 0, x=0, y=0)
    with pytest.raises(IllegalMoveError, match="it is seat 0's turn"):
        act(moving(". .", (0, 0, "E")), "move", 1)


# --- drawing and the end -------------------------------------------------------------------------


def test_the_player_draws_a_card_after_the_move() -> None:
    state = act(moving(". .", (0, 0, "E"), hands=[None, 6], draw=[5, 8]), "move", 0)
    shown = full(state)
    assert (shown["hands"], shown["draw_pile"]) == ([5, 6], [8])
    assert (shown["current_player"], shown["phase"]) == (1, "place")


def test_an_observed_move_names_the_card_drawn() -> None:
    state = moving(". .", (0, 0, "E"), hands=[None, 6], draw=[5, 8], chance="observed")
    with pytest.raises(InvalidEventError) as error:
        act(state, "move", 0)
    assert "draw" in error.value.details
    with pytest.raises(IllegalMoveError, match="card 6 cannot be drawn"):
        act(state, "move", 0, draw=6)
    state = act(state, "move", 0, draw=8)
    assert (full(state)["hands"], full(state)["unseen"]) == ([8, 6], [5])


def test_an_observed_move_names_no_draw_once_the_pile_is_empty() -> None:
    state = moving(". .", (0, 0, "E"), hands=[None, 6], draw=[], chance="observed")
    with pytest.raises(IllegalMoveError, match="the draw pile is empty"):
        act(state, "move", 0, draw=5)


def test_the_game_ends_after_the_turn_in_which_the_last_drawn_card_is_placed() -> None:
    state = table(hands=[None, 6], draw=[5], pawns=[(0, 0, "N"), (3, 3, "S")])
    state = act(state, "move", 0)  # seat 0 draws the last card
    assert full(state)["draw_pile_size"] == 0 and full(state)["hands"] == [5, 6]
    state = act(act(state, "place", 1, x=3, y=-1), "move", 1)  # seat 1's last card
    assert full(state)["status"] == "active"
    state = act(state, "place", 0, x=-1, y=3)
    assert full(state)["status"] == "active"  # the turn is played whole: the move too
    state = act(state, "move", 0)
    shown = full(state)
    assert (shown["status"], shown["current_player"], shown["phase"]) == ("finished", None, None)
    assert GAME.legal_moves(state) == []
    with pytest.raises(GameFinishedError):
        act(state, "move", 1)


def test_players_without_a_card_skip_the_placing_and_still_move() -> None:
    # Two cards for four players: seats 2 and 3 are dealt none; seat 1 holds the last card drawn.
    catalog = {"cards": CATALOG["cards"][:2]}
    state = GAME.new_game(4, 0, {"catalog": catalog, "first_player": 2})
    assert full(state)["hand_sizes"] == [1, 1, 0, 0]
    assert (full(state)["current_player"], full(state)["phase"]) == (2, "move")
    state = act(act(state, "move", 2), "move", 3)
    assert (full(state)["current_player"], full(state)["phase"]) == (0, "place")
    state = GAME.apply(state, GAME.legal_moves(state)[0])
    state = act(state, "move", 0)
    assert full(state)["status"] == "active"
    state = act(GAME.apply(state, GAME.legal_moves(state)[0]), "move", 1)
    assert full(state)["status"] == "finished"
    assert full(state)["turns_played"] == 4


def test_a_card_dealt_to_the_last_seat_may_empty_the_pile_at_setup() -> None:
    catalog = {"cards": CATALOG["cards"][:1]}
    state = GAME.new_game(2, 0, {"catalog": catalog, "first_player": 1, "chance": "observed"})
    state = act(state, "deal", 0, card=1)
    # The pile is empty: seat 1 is dealt nothing and the game starts.
    assert (full(state)["phase"], full(state)["current_player"]) == ("move", 1)
    state = act(state, "move", 1)
    for _ in range(2):  # seat 0 places the last card drawn, then moves
        state = GAME.apply(state, GAME.legal_moves(state)[0])
    assert full(state)["status"] == "finished"


# --- the final count -----------------------------------------------------------------------------


def finished(*taken: list[tuple[str, int]]) -> SifakaState:
    return replace(table(len(taken), taken=list(taken)), finished=True)


def test_the_score_is_the_points_of_the_counters_taken() -> None:
    state = finished([("green", 1), ("red", 4), ("yellow", 2)], [("red", 3)])
    assert GAME.result(state) == {"winners": [0], "scores": [7, 3]}


def test_a_tie_on_points_goes_to_the_player_with_more_counters() -> None:
    state = finished([("yellow", 3)], [("green", 1), ("green", 2)])
    assert GAME.result(state) == {"winners": [1], "scores": [3, 3]}


def test_then_to_the_player_with_more_red_counters() -> None:
    state = finished([("yellow", 2), ("green", 2)], [("red", 3), ("green", 1)])
    assert GAME.result(state) == {"winners": [1], "scores": [4, 4]}


def test_then_to_the_player_with_more_yellow_counters() -> None:
    state = finished([("green", 2), ("green", 1)], [("yellow", 2), ("green", 1)])
    assert GAME.result(state) == {"winners": [1], "scores": [3, 3]}


def test_then_green_counters_which_can_no_longer_differ() -> None:
    # Same points, same number of counters, same red and yellow: the green ones are as many too
    # (they are the rest), so this last tie-break of the rulebook never decides.
    state = finished([("green", 2), ("yellow", 2)], [("yellow", 3), ("green", 1)])
    assert GAME.result(state) == {"winners": [0, 1], "scores": [4, 4]}


def test_a_tie_that_survives_every_tie_break_is_shared() -> None:
    state = finished([("red", 3)], [("red", 3)], [("green", 1)])
    assert GAME.result(state) == {"winners": [0, 1], "scores": [3, 3, 1]}
    assert GAME.result(finished([], [])) == {"winners": [0, 1], "scores": [0, 0]}


def test_no_result_before_the_end() -> None:
    state = GAME.new_game(2, 0, {})
    assert GAME.result(state) is None and full(state)["winners"] == []


# --- views ---------------------------------------------------------------------------------------


def test_full_state_has_every_must_field() -> None:
    shown = full(GAME.new_game(3, 0, {}))
    for name in ("version", "status", "current_player", "phase", "boxes", "pawns", "hands",
                 "draw_pile_size", "counters", "scores", "winners"):  # fmt: skip
        assert name in shown


def test_the_public_view_hides_counter_values_the_hand_card_and_the_piles() -> None:
    state = moving(". g", (0, 0, "E"), lying={(1, 0): ("green", 2)}, hands=[None, 6], draw=[5])
    state = act(state, "move", 0)
    state = act(state, "place", 1, x=-1, y=-1)  # the test deck's card 6: no mango
    state = replace(state, lying=(Lying(0, 0, Counter("red", 4)),))
    public = GAME.view(state, PUBLIC)
    assert public["counters"] == [[{"colour": "green", "value": None}], []]
    assert public["scores"] == [None, None]
    assert public["hands"] == [None, None] and public["hand_sizes"] == [1, 0]
    for hidden in ("draw_pile", "unseen", "counter_piles", "unseen_counters"):
        assert hidden not in public
    assert "counter_value" not in str(public)
    assert {"x": 0, "y": 0, "kind": "blank", "counter": True} in public["boxes"]
    assert "counter_value" in str(full(state)["boxes"])


def test_values_and_scores_show_to_the_recorder_once_the_game_is_over() -> None:
    # The service reads a finished game as the recorder: everyone sees this then.
    shown = full(replace(finished([("red", 4)], [("green", 1)]), hands=(None, 6)))
    assert shown["counters"] == [
        [{"colour": "red", "value": 4}],
        [{"colour": "green", "value": 1}],
    ]
    assert shown["scores"] == [4, 1] and shown["hands"] == [None, 6]
    assert shown["winners"] == [0]


# --- legal moves ---------------------------------------------------------------------------------


def test_legal_placements_list_each_position_and_distinct_rotation_once() -> None:
    state = table(board=grid("."), hands=[2, None], phase="place")
    assert GAME.legal_moves(state) == [
        {"type": "place", "player": 0, "x": x, "y": y, "rotation": 0}
        for x, y in ((-1, -1), (0, -1), (-1, 0), (0, 0))
    ]
    symmetric = table(board=grid("."), hands=[4, None], phase="place")
    assert [(m["x"], m["y"], m["rotation"]) for m in GAME.legal_moves(symmetric)][:2] == [
        (-1, -1, 0),
        (-1, -1, 90),
    ]
    # 180 lays the same boxes as 0: accepted, as the same placement.
    assert act(symmetric, "place", 0, x=0, y=0, rotation=180) == act(
        symmetric, "place", 0, x=0, y=0, rotation=0
    )


def test_legal_moves_list_every_distinct_movement_choice() -> None:
    state = moving(
        """
        . 3 v # #
        # # > . .
        # # . # #
        """,
        (0, 0, "E"),
    )
    assert [move["turns"] for move in GAME.legal_moves(state)] == [[], [1], [1, 2]]


def test_observed_legal_moves_name_each_counter_value_and_each_card_to_draw() -> None:
    state = moving(
        ". r",
        (0, 0, "E"),
        chance="observed",
        lying={(1, 0): ("red", None)},
        counter_piles=[[1], [2], [3, 4, 4]],
        draw=[8, 5],
    )
    assert GAME.legal_moves(state) == [
        {"type": "move", "player": 0, "turns": [], "counter": value, "draw": card}
        for value in (3, 4)
        for card in (5, 8)
    ]


def test_legal_deals_are_the_unseen_cards_in_catalog_order() -> None:
    state = GAME.new_game(2, 0, {"chance": "observed", "catalog": CATALOG})
    state = act(state, "deal", 0, card=3)
    assert [move["card"] for move in GAME.legal_moves(state)] == [1, 2, 4, 5, 6, 7, 8]


# --- statistics ----------------------------------------------------------------------------------


def test_statistics_count_turns_boxes_moved_and_counters_by_colour() -> None:
    events = [{"type": "place"}, {"type": "move"}, {"type": "move"}]
    state = replace(
        finished([("red", 4), ("green", 1)], [("green", 2)]), moved=(5, 2), turns_played=2
    )
    counters = GAME.stats_counters(events, [state, state, state])
    assert counters == {
        "turns": 2,
        "boxes_moved": 7,
        "counters_green": 2,
        "counters_yellow": 0,
        "counters_red": 1,
    }
    assert GAME.length_counters == ("turns",)
    summary = GAME.stats_summary({**counters, "turns": 4}, 2)
    assert summary == {
        "turns_per_game": 2.0,
        "boxes_moved_per_game": 3.5,
        "boxes_moved_per_turn": 7 / 4,
        "counters_per_game": 1.5,
        "counters_green_per_game": 1.0,
        "counters_yellow_per_game": 0.0,
        "counters_red_per_game": 0.5,
    }
    assert set(GAME.stats_summary({}, 0).values()) == {0.0}
