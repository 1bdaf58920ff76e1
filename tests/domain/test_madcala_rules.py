"""One test per rule of Madcala's rulebook and per ruling of spec/madcala.md.

Most tests set a table up directly (``table``: exact Shards per space, Doublers, hands, deck,
health) and make one move, so each states its situation plainly. Seat 0 plays Alice and seat 1 the
Hatter unless a test says otherwise; the default layout puts, after each Home, add_shard, heal,
draw_commoner, damage, refresh_plus_one (spaces 1..5 and 7..11).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain import get_game
from domain.errors import (
    GameFinishedError,
    IllegalMoveError,
    InvalidEventError,
    InvalidOptionsError,
)
from domain.madcala import Madcala, MadcalaState
from domain.madcala.catalog import DEFAULT_CATALOG, EFFECTS
from domain.madcala.state import Space
from domain.rng import SplitMix64
from domain.viewers import PUBLIC
from tests.support.madcala import GAME, NAMES, act, card, full, start, table


def normals(state: MadcalaState, seat: int = 0) -> list[int]:
    return [cell.normal[seat] for cell in state.spaces]


def hand(state: MadcalaState, seat: int = 0) -> list[str]:
    return full(state)["hands"][seat]


def illegal(state: MadcalaState, kind: str, fragment: str, **fields: Any) -> None:
    with pytest.raises(IllegalMoveError) as error:
        act(state, kind, **fields)
    assert fragment in error.value.message, error.value.message


# --- components, default catalog, options -----------------------------------------------------


def test_default_catalog_is_the_projects_ruling_as_the_spec_shapes_it() -> None:
    catalog = DEFAULT_CATALOG
    assert "ruling" in catalog["label"] and "not the printed cards" in catalog["label"]
    assert [guest["name"] for guest in catalog["guests"]] == [
        "Alice", "The Hatter", "The Red Queen", "The Cheshire Cat", "The White Rabbit",
        "The Jabberwock",
    ]  # fmt: skip
    cards = [card for guest in catalog["guests"] for card in guest["plus_ones"]]
    assert all(
        guest["health"] == 25 and len(guest["plus_ones"]) == 3 for guest in catalog["guests"]
    )
    assert len(cards) == 18
    assert sum(card["kind"] == "corrupted" for card in cards) >= 3
    for card_ in cards:
        assert set(card_["effects"]) <= set(EFFECTS)
        if card_["kind"] == "refreshable":
            assert 1 <= card_["cost"] <= 4
        else:
            assert 1 <= card_["shards"] <= 4
            assert card_["to"] in ("home", "any_own_space", "reserve")
    assert len(catalog["commoners"]) == 35
    assert all(1 <= len(entry["effects"]) <= 2 for entry in catalog["commoners"])
    assert all(set(entry["effects"]) <= set(EFFECTS) for entry in catalog["commoners"])
    every = {effect for c in [*cards, *catalog["commoners"]] for effect in c["effects"]}
    assert every == set(EFFECTS), "the catalog uses every primitive of the rulebook"


def test_setup_puts_doublers_home_two_shards_on_each_other_space_the_rest_in_reserve() -> None:
    state = start()
    shown = full(state)
    assert shown["spaces"][0] == {"normal": [0, 0], "doubler": [True, False]}
    assert shown["spaces"][6] == {"normal": [0, 0], "doubler": [False, True]}
    assert [shown["spaces"][s]["normal"] for s in (1, 5, 7, 11)] == [[2, 0], [2, 0], [0, 2], [0, 2]]
    # Alice's Corrupted card holds 2 Shards, the Hatter's 3: taken from the 6 left in reserve.
    assert shown["reserves"] == [4, 3]
    assert card(state, 0, "alice_curiouser") == {
        "id": "alice_curiouser", "kind": "corrupted", "face_up": True, "shards": 2,
    }  # fmt: skip
    assert shown["health"] == shown["max_health"] == [25, 25]
    assert shown["hands"] == [[], []] and shown["commoner_deck_size"] == 35
    assert (shown["turn"], shown["moved"], shown["extra_turns"]) == (1, False, 0)


def test_health_option_sets_starting_and_maximum_health_of_both_seats() -> None:
    shown = full(start(health=6))
    assert shown["health"] == shown["max_health"] == [6, 6]


def test_default_layout_is_the_rulings_and_the_layout_option_reorders_both_sides() -> None:
    assert full(start())["layout"][:6] == [
        "home", "add_shard", "heal", "draw_commoner", "damage", "refresh_plus_one",
    ]  # fmt: skip
    layout = ["damage", "heal", "add_shard", "refresh_plus_one", "draw_commoner"]
    shown = full(start(layout=layout))
    assert shown["layout"] == ["home", *layout, "home", *layout]


def test_coin_flip_is_the_first_draw_then_the_deck_is_shuffled_in_catalog_order() -> None:
    for seed in range(6):
        state = GAME.new_game(2, seed, GAME.options({}, 2))
        first, rng = SplitMix64(seed).below(2)
        deck, _ = rng.shuffled(tuple(range(35)))
        assert state.first_player == state.current == first
        assert full(state)["commoner_deck"] == [NAMES[card] for card in deck]


def test_a_given_first_player_skips_the_coin_flip() -> None:
    state = GAME.new_game(2, 3, GAME.options({"first_player": 1}, 2))
    deck, _ = SplitMix64(3).shuffled(tuple(range(35)))
    assert state.current == 1
    assert full(state)["commoner_deck"] == [NAMES[card] for card in deck]


def test_options_fill_their_defaults_and_leave_an_absent_first_player_to_the_coin() -> None:
    assert GAME.options({}, 2) == {
        "guests": ["alice", "hatter"],
        "chance": "seeded",
        "layout": ["add_shard", "heal", "draw_commoner", "damage", "refresh_plus_one"],
    }
    options = GAME.options({"guests": ["jabberwock", "alice"], "health": 9}, 2)
    assert GAME.options(options, 2) == options
    assert full(GAME.new_game(2, 1, options))["guests"][0] == {
        "id": "jabberwock", "name": "The Jabberwock",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"first_player": 2}, "first_player"),
        ({"first_player": True}, "first_player"),
        ({"chance": "dice"}, "chance"),
        ({"guests": ["alice"]}, "guests"),
        ({"guests": ["alice", "alice"]}, "guests"),
        ({"guests": ["alice", "mad_hatter"]}, "guests"),
        ({"layout": ["heal", "heal", "damage", "add_shard", "draw_commoner"]}, "layout"),
        ({"layout": "add_shard"}, "layout"),
        ({"health": 0}, "health"),
        ({"health": 100}, "health"),
        ({"speed": 1}, "speed"),
    ],
)
def test_option_values_out_of_range_are_rejected_naming_the_option(
    raw: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidOptionsError) as error:
        GAME.options(raw, 2)
    assert field in error.value.details


@pytest.mark.parametrize("players", [1, 3])
def test_madcala_is_a_duel(players: int) -> None:
    with pytest.raises(InvalidOptionsError, match="2 players"):
        GAME.options({}, players)


SMALL_CATALOG: dict[str, Any] = {
    "label": "two printed Guests",
    "guests": [
        {"id": "g1", "health": 12, "plus_ones": [
            {"id": "p1", "kind": "refreshable", "cost": 1, "effects": ["damage"]},
        ]},
        {"id": "g2", "name": "Guest Two", "health": 15, "plus_ones": [
            {"id": "p2", "kind": "corrupted", "shards": 4, "to": "reserve", "effects": ["heal"]},
        ]},
    ],
    "commoners": [
        {"id": "c1", "effects": ["damage"], "count": 3},
        {"id": "c2", "name": "Card Two", "effects": ["heal", "damage"]},
    ],
}  # fmt: skip


def test_a_custom_catalog_is_validated_normalized_and_played_with() -> None:
    options = GAME.options({"catalog": SMALL_CATALOG}, 2)
    assert options["guests"] == ["g1", "g2"]
    assert options["catalog"]["commoners"][1]["count"] == 1  # defaults written out
    assert options["catalog"]["guests"][0]["name"] == "g1"
    assert GAME.options(options, 2) == options
    state = GAME.new_game(2, 4, options)
    shown = full(state)
    assert shown["catalog"] == "two printed Guests"
    assert shown["health"] == [12, 15]
    assert shown["reserves"] == [6, 2]
    assert sorted(shown["commoner_deck"]) == ["c1", "c1", "c1", "c2"]
    with pytest.raises(InvalidEventError):
        act(state, "commoner", card="dormouse")


def _catalog(**changes: Any) -> dict[str, Any]:
    guests = [dict(guest) for guest in SMALL_CATALOG["guests"]]
    return {**SMALL_CATALOG, "guests": guests, **changes}


@pytest.mark.parametrize(
    ("catalog", "fragment"),
    [
        ([], "catalog must be an object"),
        ({"guests": []}, "missing 'commoners'"),
        (_catalog(extra=1), "unknown 'extra'"),
        (_catalog(guests=SMALL_CATALOG["guests"][:1]), "guests must be a list of 2 to 12"),
        (_catalog(commoners=[]), "commoners must be a list of 1 to 100"),
        (_catalog(commoners=[{"id": "c", "effects": ["fly"]}]), "'fly', which is not one of"),
        (_catalog(commoners=[{"id": "c", "effects": []}]), "effects must be a list of 1 to 4"),
        (_catalog(commoners=[{"id": "c", "effects": ["heal"], "count": 11}]), "count must be"),
        (_catalog(commoners=[{"id": "g1", "effects": ["heal"]}]), "'g1'] more than once"),
        (_catalog(commoners=[{"id": "a b", "effects": ["heal"]}]), "letters, digits"),
        (
            _catalog(guests=[SMALL_CATALOG["guests"][0],
                             {"id": "g", "health": 0, "plus_ones": []}]),
            "guests[1].health must be an integer from 1 to 99",
        ),
        (
            _catalog(guests=[SMALL_CATALOG["guests"][0], {"id": "g", "health": 5, "plus_ones": [
                {"id": "x", "kind": "refreshable", "cost": 5, "effects": ["heal"]}]}]),
            "plus_ones[0].cost must be an integer from 1 to 4",
        ),
        (
            _catalog(guests=[SMALL_CATALOG["guests"][0], {"id": "g", "health": 5, "plus_ones": [
                {"id": "x", "kind": "corrupted", "shards": 2, "to": "sky", "effects": ["heal"]}]}]),
            "to must be one of home, any_own_space, reserve",
        ),
        (
            _catalog(guests=[SMALL_CATALOG["guests"][0], {"id": "g", "health": 5, "plus_ones": [
                {"id": f"x{i}", "kind": "corrupted", "shards": 4, "to": "home",
                 "effects": ["heal"]} for i in range(2)]}]),
            "hold 8 Shards; at most 6",
        ),
        (
            _catalog(guests=[SMALL_CATALOG["guests"][0], {"id": "g", "health": 5, "plus_ones": [
                {"id": "x", "kind": "joker", "effects": ["heal"]}]}]),
            "kind must be 'refreshable' or 'corrupted'",
        ),
        (
            _catalog(guests=[SMALL_CATALOG["guests"][0], {"id": "g", "health": 5, "plus_ones": [
                {"id": "x", "kind": "refreshable", "shards": 1, "effects": ["heal"]}]}]),
            "missing 'cost', unknown 'shards'",
        ),
    ],
)  # fmt: skip
def test_an_invalid_catalog_is_rejected_with_a_clear_catalog_error(
    catalog: Any, fragment: str
) -> None:
    with pytest.raises(InvalidOptionsError) as error:
        GAME.options({"catalog": catalog}, 2)
    assert fragment in error.value.message, error.value.message
    assert set(error.value.details) == {"catalog"}


# --- moving Shards: sowing -----------------------------------------------------------------------


def test_move_places_one_shard_per_space_clockwise_from_the_next_one() -> None:
    state = act(table({3: (2, 0)}), "move", space=3)
    assert normals(state)[:6] == [0, 0, 0, 0, 1, 1]
    assert full(state)["moved"] is True


def test_sowing_skips_the_opponents_home() -> None:
    state = act(table({5: (3, 0)}), "move", space=5)
    assert normals(state)[5:10] == [0, 0, 1, 1, 1]
    # The last lands on space 9, seat 1's draw_commoner: performed for the mover.
    assert len(hand(state, 0)) == 1


def test_seat_one_skips_seat_zeros_home_too() -> None:
    state = act(table({11: (0, 2)}, current=1, health=(25, 20)), "move", space=11)
    assert normals(state, 1)[:3] == [0, 1, 1]
    assert state.health == (25, 21)  # space 2: heal, for the mover


def test_crossing_back_places_on_the_movers_own_home() -> None:
    state = act(table({4: (8, 0)}), "move", space=4)
    # 5, 7..11, 0, 1: the last on space 1, add_shard, which adds one more to the Home.
    assert normals(state) == [2, 1, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1]
    assert state.reserves[0] == 16 - 8 - 2 - 1


def test_a_lap_round_the_board_comes_back_through_the_space_taken_from() -> None:
    state = act(table({1: (12, 0)}, health=(20, 25)), "move", space=1)
    # 2,3,4,5, 7,8,9,10,11, 0,1,2: 11 spaces a lap, the opponent's Home never.
    assert normals(state) == [1, 1, 2, 1, 1, 1, 0, 1, 1, 1, 1, 1]
    assert state.health == (21, 25)  # the last on space 2, heal


def test_a_space_holds_any_number_of_shards() -> None:
    state = act(table({1: (3, 0), 3: (0, 12)}), "move", space=1)
    assert state.spaces[3].normal == (1, 12)


def test_mixed_shards_are_placed_own_first_by_default() -> None:
    state = act(table({2: (2, 1)}), "move", space=2)
    assert [state.spaces[s].normal for s in (3, 4, 5)] == [(1, 0), (1, 0), (0, 1)]


def test_the_mover_orders_mixed_shards_with_order() -> None:
    state = act(table({2: (2, 1)}), "move", space=2, order=[1, 0, 0])
    assert [state.spaces[s].normal for s in (3, 4, 5)] == [(0, 1), (1, 0), (1, 0)]


@pytest.mark.parametrize(
    ("cells", "order", "fragment"),
    [
        ({2: (2, 1)}, [1, 1, 0], "2 x 0 and 1 x 1"),
        ({2: (2, 1)}, [0, 0], "2 x 0 and 1 x 1"),
        ({2: (3, 0)}, [0, 0, 0], "does not hold both players' normal Shards"),
    ],
)
def test_order_must_name_exactly_the_shards_taken(
    cells: dict[int, tuple[int, int]], order: list[int], fragment: str
) -> None:
    illegal(table(cells), "move", fragment, space=2, order=order)


def test_a_doubler_is_placed_last_and_its_space_acts_twice() -> None:
    state = act(table({2: (1, 0)}, doublers=(2, 6)), "move", space=2)
    assert state.spaces[3].normal == (1, 0) and state.spaces[4].doubler == (True, False)
    assert state.health == (25, 23) and state.damage_dealt == (2, 0)


def test_an_opponents_doubler_landing_last_also_doubles() -> None:
    state = act(table({2: (1, 0)}, doublers=(0, 2)), "move", space=2)
    assert state.spaces[4].doubler == (False, True)
    assert state.health == (25, 23)


def test_both_doublers_land_on_the_last_two_spaces_the_movers_last_by_default() -> None:
    layout = ["add_shard", "heal", "draw_commoner", "refresh_plus_one", "damage"]
    state = table({2: (1, 0)}, doublers=(2, 2), layout=layout)
    default = act(state, "move", space=2)
    assert default.spaces[4].doubler == (False, True) and default.spaces[5].doubler == (True, False)
    chosen = act(state, "move", space=2, last_doubler=1)
    assert chosen.spaces[4].doubler == (True, False) and chosen.spaces[5].doubler == (False, True)
    assert default.health == chosen.health == (25, 23)  # space 5 (damage) twice either way


def test_last_doubler_is_only_for_a_move_that_takes_both() -> None:
    illegal(table({2: (1, 0)}, doublers=(2, 6)), "move", "both Doublers", space=2, last_doubler=0)


def test_a_move_takes_from_the_movers_own_side_a_space_with_a_shard() -> None:
    state = table({2: (1, 0), 7: (3, 3)})
    illegal(state, "move", "seat 1's side", space=7)
    illegal(state, "move", "holds no Shard", space=3)
    moved = act(state, "move", space=2)
    illegal(moved, "move", "already moved Shards this turn", space=0)


def test_the_home_may_be_taken_from() -> None:
    state = act(table({0: (1, 0), 4: (1, 0)}), "move", space=0)
    assert state.spaces[0].empty
    assert state.spaces[1].normal == (1, 0) and state.spaces[2].doubler == (True, False)


# --- the Home ---------------------------------------------------------------------------------


def test_landing_on_the_home_performs_the_effect_of_a_chosen_space_of_ones_side() -> None:
    state = table({5: (6, 0)})  # 7, 8, 9, 10, 11, then own Home 0
    after = act(state, "move", space=5, home_space=4)
    assert after.spaces[0].normal == (1, 0)
    assert after.health == (25, 24)
    assert after.extra_turns == 0, "a normal Shard on the Home gives no extra turn"


def test_the_homes_space_must_be_chosen_and_be_another_space_of_ones_side() -> None:
    state = table({5: (6, 0)})
    illegal(state, "move", "give 'home_space'", space=5)
    illegal(state, "move", "home_space = 0 is not possible", space=5, home_space=0)
    illegal(state, "move", "home_space = 10 is not possible", space=5, home_space=10)
    illegal(table({3: (2, 0)}), "move", "only when the last Shard lands on your Home", space=3,
            home_space=4)  # fmt: skip


def test_a_doubler_landing_on_the_home_gives_an_extra_turn_instead_of_a_second_effect() -> None:
    state = act(table({5: (5, 0)}, doublers=(5, 6)), "move", space=5, home_space=4)
    assert state.spaces[0].doubler == (True, False)
    assert state.health == (25, 24)  # once, not twice
    assert state.extra_turns == 1
    again = act(state, "end_turn")
    assert (again.current, again.turn, again.extra_turns, again.moved) == (0, 3, 0, False)
    assert act(act(again, "move", space=0), "end_turn").current == 1


# --- the no-Shard fallback --------------------------------------------------------------------


def test_with_no_shard_on_ones_side_the_move_adds_to_the_home_and_the_two_spaces_after() -> None:
    state = table({8: (2, 3)}, doublers=(7, 6))
    assert GAME.legal_moves(state)[0] == {"type": "move", "player": 0, "space": None}
    after = act(state, "move", space=None)
    assert normals(after)[:4] == [1, 1, 1, 0]
    assert after.reserves[0] == state.reserves[0] - 3 and after.moved


def test_the_fallback_adds_only_what_the_reserve_holds() -> None:
    state = table({8: (12, 0)}, doublers=(7, 6))
    assert state.reserves[0] == 2
    after = act(state, "move", space=None)
    assert normals(after)[:3] == [1, 1, 0] and after.reserves[0] == 0


def test_the_fallback_is_only_for_a_side_without_shards() -> None:
    illegal(table({3: (0, 1)}, doublers=(7, 6)), "move", "only for a side with no Shard",
            space=None)  # fmt: skip


# --- the effects -------------------------------------------------------------------------------


def test_add_shard_moves_one_from_the_reserve_to_the_home() -> None:
    state = act(table(hands=(["pat"], [])), "commoner", card="pat")
    assert state.spaces[0].normal == (1, 0) and state.reserves[0] == 3


def test_add_shard_is_ignored_with_an_empty_reserve() -> None:
    state = table({1: (14, 0)}, hands=(["pat"], []))
    assert state.reserves[0] == 0
    assert act(state, "commoner", card="pat").spaces == state.spaces


def test_heal_adds_one_health_never_above_the_maximum() -> None:
    state = table(hands=(["dormouse", "pig_baby"], []), health=(24, 25))
    state = act(state, "commoner", card="dormouse")
    assert state.health == (25, 25)
    assert act(state, "commoner", card="pig_baby").health == (25, 25)


def test_draw_commoner_takes_the_top_card() -> None:
    state = act(table(hands=(["frog_footman"], []), deck=["cook", "dodo"]), "commoner",
                card="frog_footman")  # fmt: skip
    assert hand(state) == ["cook"] and full(state)["commoner_deck"] == ["dodo"]


def test_an_empty_deck_is_first_rebuilt_by_shuffling_the_discard() -> None:
    state = table(hands=(["frog_footman"], []), deck=[], discard=["cook", "dodo", "pat"])
    after = act(state, "commoner", card="frog_footman")
    shuffled, rng = state.rng.shuffled(tuple(state.catalog.commoner_index[n] for n in
                                             ("cook", "dodo", "pat")))  # fmt: skip
    names = [NAMES[card] for card in shuffled]
    assert hand(after) == names[:1] and full(after)["commoner_deck"] == names[1:]
    assert after.rng == rng
    assert full(after)["commoner_discard"] == ["frog_footman"]  # discarded after its effect


def test_draw_commoner_with_deck_and_discard_empty_draws_nothing() -> None:
    state = act(table(hands=(["frog_footman"], []), deck=[]), "commoner", card="frog_footman")
    assert hand(state) == [] and full(state)["commoner_discard"] == ["frog_footman"]


def test_damage_lowers_the_opponents_health_by_one() -> None:
    state = act(table(hands=(["tweedledum"], [])), "commoner", card="tweedledum")
    assert state.health == (25, 24) and state.damage_dealt == (1, 0)


def test_refresh_turns_ones_only_face_down_refreshable_card_up_by_default() -> None:
    state = table(hands=(["white_king"], []), face_down=("alice_eat_me",),
                  shards={"alice_curiouser": 0})  # fmt: skip
    after = act(state, "commoner", card="white_king")
    assert card(after, 0, "alice_eat_me")["face_up"] is True
    assert card(after, 0, "alice_curiouser")["face_up"] is False, "Corrupted cards never refresh"


def test_refresh_must_name_the_card_when_several_are_face_down() -> None:
    state = table(hands=(["white_king"], []), face_down=("alice_eat_me", "alice_drink_me"))
    illegal(state, "commoner", "give 'refresh'", card="white_king")
    illegal(state, "commoner", "refresh[0] = 'hatter_tea_time' is not possible", card="white_king",
            refresh=["hatter_tea_time"])  # fmt: skip
    after = act(state, "commoner", card="white_king", refresh=["alice_drink_me"])
    assert card(after, 0, "alice_drink_me")["face_up"] is True
    assert card(after, 0, "alice_eat_me")["face_up"] is False


def test_refresh_with_nothing_face_down_does_nothing_and_takes_no_choice() -> None:
    state = table(hands=(["white_king", "dodo"], []))
    assert act(state, "commoner", card="white_king").plus_ones == state.plus_ones
    illegal(state, "commoner", "more choices", card="white_king", refresh=["alice_eat_me"])


def test_a_doubled_refresh_turns_up_two_cards() -> None:
    state = table({3: (1, 0)}, doublers=(3, 6), face_down=("alice_eat_me", "alice_drink_me"))
    after = act(state, "move", space=3, refresh=["alice_eat_me", "alice_drink_me"])
    assert card(after, 0, "alice_eat_me")["face_up"] and card(after, 0, "alice_drink_me")["face_up"]
    illegal(state, "move", "needs more", space=3, refresh=["alice_eat_me"])
    illegal(state, "move", "refresh[1] = 'alice_eat_me' is not possible", space=3,
            refresh=["alice_eat_me", "alice_eat_me"])  # fmt: skip


def test_gather_shards_brings_all_ones_shards_doubler_included_home() -> None:
    state = table({1: (2, 1), 8: (3, 2), 11: (1, 0)}, doublers=(9, 9), hands=(["dodo"], []))
    after = act(state, "commoner", card="dodo")
    assert after.spaces[0] == Space((6, 0), (True, False))
    assert normals(after, 1) == normals(state, 1) and after.spaces[9].doubler == (False, True)


def test_extra_turn_gives_another_turn_after_this_one() -> None:
    state = act(table(hands=(["march_hare"], []), moved=True), "commoner", card="march_hare")
    assert state.extra_turns == 1
    state = act(state, "end_turn")
    assert (state.current, state.turn, state.extra_turns) == (0, 3, 0)


def test_extra_turns_add_up() -> None:
    state = table(hands=(["march_hare", "white_queen"], []), moved=True)
    state = act(act(state, "commoner", card="march_hare"), "commoner", card="white_queen")
    assert state.extra_turns == 2
    state = act(state, "end_turn")
    assert (state.current, state.extra_turns) == (0, 1)
    state = act(act(state, "move", space=1), "end_turn")
    assert (state.current, state.extra_turns) == (0, 0)
    assert act(act(state, "move", space=2), "end_turn").current == 1


def test_strike_shard_sends_a_chosen_normal_shard_back_to_its_owners_reserve() -> None:
    state = table(hands=(["bill"], []))
    after = act(state, "commoner", card="bill", strike=[{"space": 7, "seat": 1}])
    assert after.spaces[7].normal == (0, 1) and after.reserves[1] == state.reserves[1] + 1
    illegal(state, "commoner", "give 'strike'", card="bill")
    illegal(state, "commoner", "strike[0] = {'space': 6, 'seat': 1} is not possible",
            card="bill", strike=[{"space": 6, "seat": 1}])  # fmt: skip  # a Doubler only


def test_strike_shard_with_a_single_shard_on_the_board_takes_it_by_default() -> None:
    state = table({3: (0, 1)}, hands=(["bill"], []))
    assert act(state, "commoner", card="bill").spaces[3].empty


def test_strike_plus_one_turns_an_opponents_face_up_refreshable_card_down() -> None:
    state = table(hands=(["mouse"], []))
    illegal(state, "commoner", "give 'strike_card'", card="mouse")
    illegal(state, "commoner", "strike_card[0] = 'hatter_move_down' is not possible",
            card="mouse", strike_card=["hatter_move_down"])  # fmt: skip  # Corrupted
    after = act(state, "commoner", card="mouse", strike_card=["hatter_tea_time"])
    assert card(after, 1, "hatter_tea_time")["face_up"] is False
    only = table(hands=(["mouse"], []), face_down=("hatter_tea_time",))
    assert card(act(only, "commoner", card="mouse"), 1, "hatter_unbirthday")["face_up"] is False


# --- Plus-One cards -------------------------------------------------------------------------------


def test_a_refreshable_card_is_paid_from_named_spaces_performed_and_turned_face_down() -> None:
    state = table({1: (2, 0), 2: (2, 0), 8: (3, 0)})
    after = act(state, "plus_one", card="alice_eat_me", pay=[1, 1, 8])
    assert normals(after)[1:3] == [0, 2] and after.spaces[8].normal == (2, 0)
    assert after.reserves[0] == state.reserves[0] + 3
    assert after.health == (25, 23)
    assert card(after, 0, "alice_eat_me")["face_up"] is False
    illegal(after, "plus_one", "face down until refreshed", card="alice_eat_me", pay=[2, 2, 8])


@pytest.mark.parametrize(
    ("pay", "fragment"),
    [
        ([1, 1], "costs 3 normal Shard(s)"),
        ([1, 1, 1], "space 1 holds 2 of theirs, and pay takes 3"),
        ([0, 1, 2], "space 0 holds 0 of theirs"),  # the Doubler is never paid
        ([1, 2, 7], "space 7 holds 0 of theirs"),  # the opponent's Shards are not paid
    ],
)
def test_a_refreshable_card_is_paid_with_exactly_its_cost_in_ones_own_normal_shards(
    pay: list[int], fragment: str
) -> None:
    illegal(table(), "plus_one", fragment, card="alice_eat_me", pay=pay)


def test_a_corrupted_cards_shard_goes_home_and_the_card_is_spent_when_empty() -> None:
    state = act(table(), "plus_one", card="alice_curiouser")
    assert card(state, 0, "alice_curiouser") == {
        "id": "alice_curiouser", "kind": "corrupted", "face_up": True, "shards": 1,
    }  # fmt: skip
    assert state.spaces[0].normal == (1, 0) and len(hand(state)) == 1
    state = act(state, "plus_one", card="alice_curiouser")
    assert card(state, 0, "alice_curiouser")["face_up"] is False
    illegal(state, "plus_one", "spent", card="alice_curiouser")
    illegal(table(), "plus_one", "pay nothing", card="alice_curiouser", pay=[1])


def test_a_corrupted_cards_shard_may_go_to_the_reserve() -> None:
    state = table(guests=["red_queen", "hatter"])
    after = act(state, "plus_one", card="red_queen_card_guards")
    assert after.reserves[0] == state.reserves[0] + 1 and after.health == (25, 24)


def test_a_corrupted_cards_shard_may_go_to_a_chosen_space_of_ones_side() -> None:
    state = table(current=1)
    illegal(state, "plus_one", "give 'place'", card="hatter_move_down",
            strike=[{"space": 1, "seat": 0}])  # fmt: skip
    illegal(state, "plus_one", "place = 2 is not possible", card="hatter_move_down", place=2,
            strike=[{"space": 1, "seat": 0}])  # fmt: skip
    after = act(state, "plus_one", card="hatter_move_down", place=9,
                strike=[{"space": 1, "seat": 0}])  # fmt: skip
    assert after.spaces[9].normal == (0, 3) and after.spaces[1].normal == (1, 0)
    assert card(after, 1, "hatter_move_down")["shards"] == 2


def test_the_starting_player_cannot_use_a_plus_one_on_the_first_turn() -> None:
    state = start()
    illegal(state, "plus_one", "first turn", card="alice_curiouser")
    assert all(move["type"] != "plus_one" for move in GAME.legal_moves(state))
    state = act(act(state, "move", space=1), "end_turn")
    assert state.turn == 2 and state.current == 1
    state = act(state, "plus_one", card="hatter_unbirthday", pay=[7, 7])
    assert card(state, 1, "hatter_unbirthday")["face_up"] is False


def test_a_plus_one_performs_all_its_effects_in_any_order() -> None:
    state = table(health=(20, 25))
    after = act(state, "plus_one", card="alice_drink_me", pay=[1, 2],
                effects=["add_shard", "heal"])  # fmt: skip
    assert after.health == (21, 25) and after.spaces[0].normal == (1, 0)
    illegal(state, "plus_one", "performs all its effects", card="alice_drink_me", pay=[1, 2],
            effects=["heal"])  # fmt: skip


def test_only_ones_own_plus_one_cards_are_used() -> None:
    illegal(table(), "plus_one", "not one of seat 0's Plus-One cards", card="hatter_tea_time",
            pay=[1, 2, 3, 4])  # fmt: skip


def test_a_refresh_from_a_plus_one_cannot_turn_up_the_card_itself() -> None:
    state = table(guests=["white_rabbit", "hatter"])
    after = act(state, "plus_one", card="white_rabbit_pocket_watch", pay=[1, 2])
    assert card(after, 0, "white_rabbit_pocket_watch")["face_up"] is False


# --- Commoners ---------------------------------------------------------------------------------


def test_buying_a_commoner_pays_three_shards_and_draws_one() -> None:
    state = table(deck=["cook", "dodo"])
    after = act(state, "buy_commoner", pay=[1, 1, 2])
    assert hand(after) == ["cook"] and after.reserves[0] == state.reserves[0] + 3
    assert normals(after)[1:3] == [0, 1]
    with pytest.raises(InvalidEventError):
        act(state, "buy_commoner", pay=[1, 1])
    illegal(state, "buy_commoner", "space 7 holds 0 of theirs", pay=[1, 1, 7])
    illegal(table(deck=[]), "buy_commoner", "deck and the discard are both empty", pay=[1, 1, 2])


def test_a_commoner_performs_any_of_its_effects_in_any_order_then_is_discarded() -> None:
    state = table(hands=(["caterpillar"], []), health=(20, 25), face_down=("alice_eat_me",))
    every = act(state, "commoner", card="caterpillar")
    assert every.health == (21, 25) and card(every, 0, "alice_eat_me")["face_up"]
    some = act(state, "commoner", card="caterpillar", effects=["heal"])
    assert some.health == (21, 25) and not card(some, 0, "alice_eat_me")["face_up"]
    reordered = act(state, "commoner", card="caterpillar", effects=["heal", "refresh_plus_one"])
    assert reordered.health == every.health and reordered.plus_ones == every.plus_ones
    nothing = act(state, "commoner", card="caterpillar", effects=[])
    assert nothing.health == state.health
    for after in (every, some, nothing):
        assert hand(after) == [] and full(after)["commoner_discard"] == ["caterpillar"]


def test_a_commoners_effects_are_its_own_each_at_most_once() -> None:
    state = table(hands=(["caterpillar", "cook"], []))
    illegal(state, "commoner", "each at most once", card="caterpillar", effects=["damage"])
    illegal(state, "commoner", "each at most once", card="caterpillar", effects=["heal", "heal"])
    assert act(state, "commoner", card="cook", effects=["damage", "damage"]).health == (25, 23)
    illegal(state, "commoner", "not in their hand", card="dormouse")


def test_the_hand_is_brought_down_to_two_at_the_end_of_the_turn() -> None:
    state = table(hands=(["cook", "dodo", "pat", "cook"], []), moved=True)
    illegal(state, "end_turn", "must discard exactly 2", discard=[])
    illegal(state, "end_turn", "must discard exactly 2", discard=["cook"])
    illegal(state, "end_turn", "only discard cards from their hand", discard=["bill", "cook"])
    after = act(state, "end_turn", discard=["cook", "pat"])
    assert hand(after) == ["dodo", "cook"] and full(after)["commoner_discard"] == ["cook", "pat"]
    ends = [m["discard"] for m in GAME.legal_moves(state) if m["type"] == "end_turn"]
    assert sorted(map(sorted, ends)) == sorted(
        map(sorted, [["cook", "cook"], ["cook", "dodo"], ["cook", "pat"], ["dodo", "pat"]])
    )


def test_the_hand_may_exceed_two_during_the_turn_and_two_or_fewer_discard_nothing() -> None:
    state = table(hands=(["cook", "dodo"], []), deck=["pat"])
    state = act(state, "buy_commoner", pay=[1, 1, 2])
    assert len(hand(state)) == 3
    state = act(act(state, "commoner", card="pat"), "move", space=3)
    assert act(state, "end_turn").hands[0] == state.hands[0]


def test_end_turn_needs_the_move_first() -> None:
    illegal(table(), "end_turn", "the move is mandatory")


# --- the end ------------------------------------------------------------------------------------


def test_a_seat_at_zero_health_loses_at_once() -> None:
    state = act(table(hands=(["tweedledum"], []), health=(3, 1)), "commoner", card="tweedledum")
    assert state.finished and full(state)["winners"] == [0]
    assert GAME.result(state) == {"winners": [0], "scores": [3, 0], "draw": False}
    assert full(state)["current_player"] is None and GAME.legal_moves(state) == []
    with pytest.raises(GameFinishedError):
        act(state, "move", space=1)


def test_the_rest_of_the_event_is_not_performed_once_a_seat_is_at_zero() -> None:
    state = act(table(hands=(["cook"], []), health=(3, 1)), "commoner", card="cook")
    assert state.damage_dealt == (1, 0)
    doubled = act(table({2: (1, 0)}, doublers=(2, 6), health=(3, 1)), "move", space=2)
    assert doubled.finished and doubled.damage_dealt == (1, 0)
    # The Jabberwock's Eyes of Flame: damage, then strike_plus_one, which never comes.
    flame = table(guests=["jabberwock", "hatter"], health=(3, 1))
    illegal(flame, "plus_one", "more choices", card="jabberwock_eyes_of_flame",
            strike_card=["hatter_tea_time"])  # fmt: skip
    assert act(flame, "plus_one", card="jabberwock_eyes_of_flame").finished


def test_both_seats_at_zero_is_a_draw_where_both_win_and_both_lose() -> None:
    # No primitive of the rulebook hurts its own player, and the game ends as soon as one seat is
    # at 0: the double zero is judged on a table set up as it would stand.
    state = replace(table(health=(0, 0)), finished=True)
    assert GAME.result(state) == {"winners": [0, 1], "scores": [0, 0], "draw": True}
    assert full(state)["draw"] is True and full(state)["winners"] == [0, 1]


# --- events, turns and chance -----------------------------------------------------------------


def test_only_the_seat_whose_turn_it_is_acts() -> None:
    illegal(table(), "move", "it is seat 0's turn", player=1, space=7)


@pytest.mark.parametrize(
    "body",
    [
        "move",
        {"type": "fly", "player": 0},
        {"type": "move", "player": 0},
        {"type": "move", "player": 2, "space": 1},
        {"type": "move", "player": 0, "space": 12},
        {"type": "move", "player": 0, "space": "1"},
        {"type": "move", "player": 0, "space": 1, "colour": "red"},
        {"type": "move", "player": 0, "space": 1, "order": [0, 2]},
        {"type": "move", "player": 0, "space": 1, "last_doubler": True},
        {"type": "move", "player": 0, "space": 1, "drawn": ["cook"]},
        {"type": "move", "player": 0, "space": 1, "refresh": "alice_eat_me"},
        {"type": "move", "player": 0, "space": 1, "refresh": ["nobody"]},
        {"type": "move", "player": 0, "space": 1, "strike": []},
        {"type": "commoner", "player": 0, "card": "cook", "strike": [{"space": 1}]},
        {"type": "commoner", "player": 0, "card": "cook", "effects": ["fly"]},
        {"type": "commoner", "player": 0, "card": "alice_eat_me"},
        {"type": "plus_one", "player": 0, "card": "cook"},
        {"type": "plus_one", "player": 0, "card": "alice_eat_me", "pay": [1, -1]},
        {"type": "buy_commoner", "player": 0, "pay": [1, 2, 3, 4]},
        {"type": "end_turn", "player": 0, "discard": ["alice"]},
    ],
)
def test_malformed_events_are_invalid(body: Any) -> None:
    with pytest.raises(InvalidEventError):
        GAME.apply(table(), body)


def test_an_observed_game_names_each_commoner_drawn_among_the_unseen() -> None:
    state = table(chance="observed", deck=["cook", "dodo", "pat"])
    assert full(state)["commoner_unseen"] == ["cook", "dodo", "pat"]  # catalog order
    after = act(state, "buy_commoner", pay=[1, 1, 2], drawn=["pat"])
    assert hand(after) == ["pat"] and full(after)["commoner_unseen"] == ["cook", "dodo"]
    illegal(state, "buy_commoner", "give 'drawn'", pay=[1, 1, 2])
    illegal(state, "buy_commoner", "drawn[0] = 'bill' is not possible", pay=[1, 1, 2],
            drawn=["bill"])  # fmt: skip
    buys = [m for m in GAME.legal_moves(state) if m["type"] == "buy_commoner"]
    assert [m["drawn"] for m in buys[:3]] == [["cook"], ["dodo"], ["pat"]]


def test_an_observed_rebuilt_deck_is_the_discard_left_unseen() -> None:
    state = table(chance="observed", deck=[], discard=["dodo", "cook"], hands=(["oysters"], []))
    illegal(state, "commoner", "drawn[0] = 'pat' is not possible", card="oysters", drawn=["pat"])
    after = act(state, "commoner", card="oysters", drawn=["dodo"])
    assert hand(after) == ["dodo"] and full(after)["commoner_unseen"] == ["cook"]
    assert after.rng == state.rng, "the table shuffles: the generator is not used"


def test_a_seeded_game_does_not_take_drawn() -> None:
    with pytest.raises(InvalidEventError, match="seeded game draws its own"):
        act(table(), "buy_commoner", pay=[1, 1, 2], drawn=["cook"])


# --- views, legal moves, registry --------------------------------------------------------------


def test_full_state_has_every_must_field_and_the_public_one_hides_hands_and_deck() -> None:
    state = table(hands=(["cook"], ["dodo", "pat"]))
    shown = full(state)
    for name in ("version", "status", "current_player", "turn", "moved", "health", "max_health",
                 "spaces", "reserves", "hands", "plus_ones", "commoner_deck_size",
                 "commoner_discard", "extra_turns", "winners"):  # fmt: skip
        assert name in shown
    assert len(shown["spaces"]) == 12 and shown["hands"] == [["cook"], ["dodo", "pat"]]
    public = GAME.view(state, PUBLIC)
    assert public["hands"] == [None, None] and "commoner_deck" not in public
    assert public["hand_sizes"] == [1, 2] and public["commoner_deck_size"] == 10
    observed = GAME.view(table(chance="observed"), PUBLIC)
    assert "commoner_unseen" not in observed


def test_legal_moves_list_every_order_of_a_few_mixed_shards() -> None:
    moves = [m for m in GAME.legal_moves(table({2: (2, 1)})) if m.get("space") == 2]
    assert [m.get("order") for m in moves] == [None, [1, 0, 0], [0, 1, 0]]


def test_legal_moves_list_two_orders_when_they_explode_and_both_doublers() -> None:
    moves = [
        m for m in GAME.legal_moves(table({2: (8, 8)}, doublers=(2, 2))) if m.get("space") == 2
    ]
    assert [(m.get("order"), m.get("last_doubler")) for m in moves] == [
        (None, None), (None, 1), ([1] * 8 + [0] * 8, None), ([1] * 8 + [0] * 8, 1),
    ]  # fmt: skip
    for body in moves:
        GAME.apply(table({2: (8, 8)}, doublers=(2, 2)), body)


def test_legal_moves_list_each_home_choice() -> None:
    moves = GAME.legal_moves(table({5: (6, 0)}, health=(20, 25), face_down=("alice_eat_me",)))
    assert [m["home_space"] for m in moves if m.get("space") == 5] == [1, 2, 3, 4, 5]
    # At full health and with nothing face down, heal and refresh come to the same: listed once.
    moves = GAME.legal_moves(table({5: (6, 0)}))
    assert [m["home_space"] for m in moves if m.get("space") == 5] == [1, 2, 3, 4]


def test_legal_bodies_are_distinct_and_each_accepted() -> None:
    state = table({1: (3, 1), 2: (2, 2), 8: (4, 0)}, doublers=(1, 2), moved=False,
                  hands=(["bill", "caterpillar", "mouse", "cook"], []),
                  face_down=("alice_drink_me", "hatter_unbirthday"))  # fmt: skip
    moves = GAME.legal_moves(state)
    keys = [repr(sorted(m.items())) for m in moves]
    assert len(set(keys)) == len(keys)
    assert Counter(m["type"] for m in moves).keys() == {"move", "plus_one", "buy_commoner",
                                                        "commoner"}  # fmt: skip
    for body in moves:
        GAME.apply(state, body)


def test_madcala_is_registered() -> None:
    assert isinstance(get_game("madcala"), Madcala)
    assert (GAME.rules_version, GAME.min_players, GAME.max_players) == ("madcala/1", 2, 2)
    assert set(GAME.event_fields) == {"move", "plus_one", "buy_commoner", "commoner", "end_turn"}


# --- no body, however malformed, breaks the reducer --------------------------------------------

_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 14) | st.floats(allow_nan=False)
    | st.sampled_from(["cook", "alice_eat_me", "hatter_tea_time", "heal", "damage", "x"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["space", "seat", "x"]), inner, max_size=3),
    max_leaves=10,
)  # fmt: skip
_bodies = st.fixed_dictionaries(
    {"type": st.sampled_from(["move", "plus_one", "buy_commoner", "commoner", "end_turn", "x"])},
    optional={
        name: _values
        for name in ("player", "space", "order", "last_doubler", "home_space", "card", "pay",
                     "place", "effects", "refresh", "strike", "strike_card", "drawn", "discard")
    },
)  # fmt: skip


def _midgame(chance: str) -> MadcalaState:
    import random

    rng = random.Random(1)
    state = GAME.new_game(2, 1, GAME.options({"chance": chance}, 2))
    for _ in range(40):
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
    return state


_STATES = {chance: _midgame(chance) for chance in ("seeded", "observed")}


@settings(max_examples=400, deadline=None)
@given(body=_bodies | _values, chance=st.sampled_from(["seeded", "observed"]))
def test_any_body_is_applied_or_rejected_as_invalid_or_illegal(body: Any, chance: str) -> None:
    with contextlib.suppress(InvalidEventError, IllegalMoveError):
        GAME.apply(_STATES[chance], body)
