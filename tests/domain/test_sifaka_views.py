"""What each viewer sees of a game of Sifaka: one test per rule of the contract's views, then
random games checking every viewer's view, event and legal moves after every event.

The contract: until the game is over, the card in each seat's hand (its holder sees it), the
draw pile's order, the order of the counter piles and the value of every counter taken (its taker
sees it) are hidden; so is the value of a counter lying face down on the board, from every seat.
A seat's view gives ``hands`` with its own entry and null for the others, its own counters with
their values and the others' with ``"value": null``, and ``scores`` null for the other seats; the
public view does the same for every seat. ``deal.card``, ``move.draw`` and ``move.counter`` are
hidden from all but the event's player.

The views expected here are computed by the tests themselves, from the recorder's view, not by
the domain.
"""

from __future__ import annotations

import random
from collections import Counter as Tally
from dataclasses import replace
from typing import Any

import pytest

from domain.errors import IllegalMoveError
from domain.sifaka import Sifaka, SifakaState
from domain.viewers import PUBLIC, RECORDER, Viewer, seat
from tests.support.sifaka import (
    CATALOG,
    COUNTERS,
    EVENT_LIMIT,
    SMALL_CATALOG,
    act,
    choose,
    grid,
    moving,
    table,
)

GAME = Sifaka()
# The contract's hidden event fields, written out independently of the domain.
PRIVATE_FIELDS = {"deal": ("card",), "move": ("draw", "counter")}
# What only the recorder sees of the piles (and of the counters lying face down).
PILES = ("draw_pile", "counter_piles", "unseen", "unseen_counters")


def viewers(players: int) -> list[Viewer]:
    return [PUBLIC, *(seat(k) for k in range(players))]


def projection(full: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """The recorder's view as ``viewer`` (a seat or the public) may see it: the other seats'
    cards, counter values and scores are null, and no pile and no value of a counter lying on the
    board shows. (Once the game is over the service reads as the recorder: nothing here depends
    on whether it is.)"""

    def own(k: int) -> bool:
        return viewer.kind == "seat" and viewer.seat == k

    shown = {name: value for name, value in full.items() if name not in PILES}
    shown["boxes"] = [
        {name: value for name, value in box.items() if name != "counter_value"}
        for box in full["boxes"]
    ]
    shown["hands"] = [card if own(k) else None for k, card in enumerate(full["hands"])]
    shown["counters"] = [
        [{"colour": c["colour"], "value": c["value"] if own(k) else None} for c in counters]
        for k, counters in enumerate(full["counters"])
    ]
    shown["scores"] = [score if own(k) else None for k, score in enumerate(full["scores"])]
    return shown


def expected_event_view(event: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """The event as the contract lets ``viewer`` see it."""
    hidden = [name for name in PRIVATE_FIELDS.get(event["type"], ()) if name in event]
    if not hidden or viewer.sees_all or (viewer.kind == "seat" and viewer.seat == event["player"]):
        return event
    return {**{k: v for k, v in event.items() if k not in hidden}, "hidden": hidden}


def three_seats_with_counters(chance: str = "seeded") -> SifakaState:
    """Seat 1 to move; seat 0 holds card 5, seat 2 card 6; each seat took counters."""
    return table(
        3,
        board=grid(". . r"),
        pawns=[(0, 0, "E"), (9, 9, "N"), (8, 8, "N")],
        hands=[5, None, 6],
        draw=[8, 1],
        taken=[[("red", 4)], [("green", 1), ("yellow", 3)], [("red", 3), ("green", 2)]],
        lying={(2, 0): ("red", None if chance == "observed" else 3)},
        counter_piles=[[1, 1], [2], [3, 4]] if chance == "observed" else None,
        turn=1,
        chance=chance,
    )


# --- the views -----------------------------------------------------------------------------------


def test_seat_view_shows_own_card_and_null_for_others() -> None:
    state = three_seats_with_counters()
    assert GAME.view(state, RECORDER)["hands"] == [5, None, 6]
    assert GAME.view(state, seat(0))["hands"] == [5, None, None]
    assert GAME.view(state, seat(1))["hands"] == [None, None, None]
    assert GAME.view(state, seat(2))["hands"] == [None, None, 6]
    assert GAME.view(state, PUBLIC)["hands"] == [None, None, None]
    # Whether a seat holds a card shows at the table, whoever looks.
    for viewer in (RECORDER, *viewers(3)):
        assert GAME.view(state, viewer)["hand_sizes"] == [1, 0, 1]


def test_counter_values_shown_to_their_taker_only() -> None:
    state = three_seats_with_counters()
    red4, red3 = {"colour": "red", "value": 4}, {"colour": "red", "value": 3}
    green1, yellow3 = {"colour": "green", "value": 1}, {"colour": "yellow", "value": 3}
    green2 = {"colour": "green", "value": 2}

    def hidden(*colours: str) -> list[dict[str, Any]]:
        return [{"colour": colour, "value": None} for colour in colours]

    assert GAME.view(state, RECORDER)["counters"] == [[red4], [green1, yellow3], [red3, green2]]
    assert GAME.view(state, seat(0))["counters"] == [
        [red4],
        hidden("green", "yellow"),
        hidden("red", "green"),
    ]
    assert GAME.view(state, seat(1))["counters"] == [
        hidden("red"),
        [green1, yellow3],
        hidden("red", "green"),
    ]
    assert GAME.view(state, PUBLIC)["counters"] == [
        hidden("red"),
        hidden("green", "yellow"),
        hidden("red", "green"),
    ]


def test_scores_null_for_other_seats_and_all_null_in_public() -> None:
    state = three_seats_with_counters()
    assert GAME.view(state, RECORDER)["scores"] == [4, 4, 5]
    assert GAME.view(state, seat(0))["scores"] == [4, None, None]
    assert GAME.view(state, seat(2))["scores"] == [None, None, 5]
    assert GAME.view(state, PUBLIC)["scores"] == [None, None, None]


def test_counter_lying_on_the_board_hides_its_value() -> None:
    state = three_seats_with_counters()
    lying = {"x": 2, "y": 0, "kind": "mango", "mango": "red", "counter": True}
    assert {**lying, "counter_value": 3} in GAME.view(state, RECORDER)["boxes"]
    for viewer in viewers(3):
        assert lying in GAME.view(state, viewer)["boxes"]
    # Observed, nobody knows it until it is taken: the recorder's view has no value either.
    observed = three_seats_with_counters("observed")
    assert lying in GAME.view(observed, RECORDER)["boxes"]


@pytest.mark.parametrize("chance", ["seeded", "observed"])
def test_piles_shown_to_the_recorder_only(chance: str) -> None:
    state = three_seats_with_counters(chance)
    full = GAME.view(state, RECORDER)
    assert sum(name in full for name in PILES) == 2
    for viewer in viewers(3):
        shown = GAME.view(state, viewer)
        assert not any(name in shown for name in PILES)
        # How many cards and counters are left shows at the table.
        assert shown["draw_pile_size"] == full["draw_pile_size"] == 2
        assert shown["counters_left"] == full["counters_left"]


def test_views_depend_on_the_viewer_not_on_whether_the_game_is_over() -> None:
    # The service reads a finished game as the recorder; the views themselves do not change.
    state = three_seats_with_counters()
    over = replace(state, finished=True)
    for viewer in (RECORDER, *viewers(3)):
        on, ended = GAME.view(state, viewer), GAME.view(over, viewer)
        for name in ("status", "current_player", "phase", "winners"):
            del on[name], ended[name]
        assert on == ended


def test_deal_card_draw_and_counter_hidden_from_other_seats() -> None:
    deal = {"type": "deal", "player": 1, "card": 17}
    move = {"type": "move", "player": 1, "turns": [1], "draw": 5, "counter": 4}
    draw_only = {"type": "move", "player": 1, "turns": [], "draw": 5}
    for event in (deal, move, draw_only):
        assert GAME.event_view(event, RECORDER) == event
        assert GAME.event_view(event, seat(1)) == event
    for viewer in (PUBLIC, seat(0), seat(2)):
        assert GAME.event_view(deal, viewer) == {"type": "deal", "player": 1, "hidden": ["card"]}
        assert GAME.event_view(move, viewer) == {
            "type": "move",
            "player": 1,
            "turns": [1],
            "hidden": ["draw", "counter"],
        }
        assert GAME.event_view(draw_only, viewer) == {
            "type": "move",
            "player": 1,
            "turns": [],
            "hidden": ["draw"],
        }
        # A place and a seeded move name nothing hidden.
        for shown in (
            {"type": "place", "player": 1, "x": 0, "y": 0, "rotation": 90},
            {"type": "move", "player": 1, "turns": []},
        ):
            assert GAME.event_view(shown, viewer) == shown


# --- the moves offered to a seat -----------------------------------------------------------------


@pytest.mark.parametrize("chance", ["seeded", "observed"])
def test_seat_legal_moves_only_when_its_decision_is_awaited(chance: str) -> None:
    state = three_seats_with_counters(chance)  # seat 1 to move
    assert GAME.legal_moves(state)
    assert GAME.legal_for(state, RECORDER) == GAME.legal_moves(state)
    assert GAME.legal_for(state, seat(1))
    for viewer in (PUBLIC, seat(0), seat(2)):
        assert GAME.legal_for(state, viewer) == []
    over = replace(state, finished=True)
    for viewer in (RECORDER, *viewers(3)):
        assert GAME.legal_for(over, viewer) == []


def test_seeded_seat_legal_moves_are_the_recorders() -> None:
    state = moving(". r", (0, 0, "E"), lying={(1, 0): ("red", 4)}, hands=[None, 6])
    assert (
        GAME.legal_for(state, seat(0))
        == GAME.legal_moves(state)
        == [{"type": "move", "player": 0, "turns": []}]
    )


@pytest.mark.parametrize("chance", ["seeded", "observed"])
def test_seat_place_moves_name_only_its_own_card(chance: str) -> None:
    def placing(hands: list[int | None]) -> SifakaState:
        return table(3, board=grid("."), hands=hands, phase="place", chance=chance, draw=[8])

    state = placing([4, 1, 3])
    moves = GAME.legal_for(state, seat(0))
    assert moves == GAME.legal_moves(state)
    assert all(set(move) <= {"type", "player", "x", "y", "rotation"} for move in moves)
    # Card 4 is symmetric: two rotations per anchor. The other seats' cards change nothing.
    assert {move["rotation"] for move in moves} == {0, 90}
    assert GAME.legal_for(placing([4, 7, None]), seat(0)) == moves


def test_observed_seat_legal_moves_offer_what_the_seat_cannot_rule_out() -> None:
    # Seat 0 hops onto a yellow counter face down. Unseen: that counter (a 2) and cards 1 and 8.
    # Seat 0 took a yellow 2 itself; seat 1 took a yellow 3 and holds card 7; seat 2 holds card 6.
    state = table(
        3,
        board=grid(". y"),
        pawns=[(0, 0, "E"), (9, 9, "N"), (8, 8, "N")],
        hands=[None, 7, 6],
        draw=[8, 1],
        taken=[[("yellow", 2)], [("yellow", 3)], []],
        lying={(1, 0): ("yellow", None)},
        counter_piles=[[1, 1], [2], [3, 4]],
        chance="observed",
    )

    def offered(moves: list[dict[str, Any]]) -> list[tuple[int, int]]:
        return [(move["counter"], move["draw"]) for move in moves]

    recorder = offered(GAME.legal_moves(state))
    assert recorder == [(2, 1), (2, 8)]
    # Offered only those, seat 0 would learn that seat 1's counter is a 3 and which cards the
    # others hold: it is offered every value and card it cannot rule out (its own yellow 2 it
    # can), in the same order as the recorder's.
    seat_moves = GAME.legal_for(state, seat(0))
    assert offered(seat_moves) == [(value, card) for value in (2, 3) for card in (1, 6, 7, 8)]
    # The reducer still checks the real unseen cards and values: a card held elsewhere, or a
    # value taken elsewhere, is refused.
    for move in seat_moves:
        if (move["counter"], move["draw"]) in recorder:
            GAME.apply(state, move)
        else:
            with pytest.raises(IllegalMoveError):
                GAME.apply(state, move)


def test_observed_seat_deals_offer_every_card_the_seat_has_not_seen() -> None:
    state = GAME.new_game(3, 0, {"chance": "observed", "catalog": CATALOG})
    state = act(state, "deal", 0, card=3)
    assert [move["card"] for move in GAME.legal_moves(state)] == [1, 2, 4, 5, 6, 7, 8]
    # Seat 1 has not seen seat 0's card: telling it that card 3 is out would give it away.
    assert [move["card"] for move in GAME.legal_for(state, seat(1))] == list(range(1, 9))
    with pytest.raises(IllegalMoveError):
        act(state, "deal", 1, card=3)


def observed_table() -> SifakaState:
    """Seat 1 hops onto a red counter face down, then seat 0 (holding no card) onto another; red
    3 and 4 unseen, cards 5 and 8 to draw."""
    return table(
        board=grid(". r\n. r"),
        pawns=[(0, 1, "E"), (0, 0, "E")],
        hands=[None, None],
        draw=[5, 8],
        lying={(1, 0): ("red", None), (1, 1): ("red", None)},
        counter_piles=[[1, 1], [2], [3, 4]],
        turn=1,
        chance="observed",
    )


@pytest.mark.parametrize("differ", [{"counter": 4}, {"draw": 8}, {"counter": 4, "draw": 8}])
def test_observed_records_differing_in_seat_1s_secrets_look_alike_to_seat_0_and_the_public(
    differ: dict[str, Any],
) -> None:
    one = {"type": "move", "player": 1, "turns": [], "counter": 3, "draw": 5}
    other = {**one, **differ}
    a, b = GAME.apply(observed_table(), one), GAME.apply(observed_table(), other)
    # They do differ: for the recorder, for seat 1, and in the recorder's moves for seat 0 (what
    # is still unseen differs).
    assert GAME.view(a, RECORDER) != GAME.view(b, RECORDER)
    assert GAME.view(a, seat(1)) != GAME.view(b, seat(1))
    assert GAME.legal_moves(a) != GAME.legal_moves(b)
    for viewer in (seat(0), PUBLIC):
        assert GAME.view(a, viewer) == GAME.view(b, viewer)
        assert GAME.event_view(one, viewer) == GAME.event_view(other, viewer)
        assert GAME.legal_for(a, viewer) == GAME.legal_for(b, viewer)
    # Seat 0 is to act, and is offered the same values and cards either way.
    offered = [(move["counter"], move["draw"]) for move in GAME.legal_for(a, seat(0))]
    assert offered == [(value, card) for value in (3, 4) for card in (5, 8)]


# --- random games --------------------------------------------------------------------------------


def check_views(state: SifakaState) -> None:
    """Every viewer's view is the projection of the recorder's; only the seat to act has
    moves, which include the recorder's, and whatever else they offer is refused."""
    full = GAME.view(state, RECORDER)
    for viewer in viewers(state.players):
        assert GAME.view(state, viewer) == projection(full, viewer)
    to_act = GAME.to_act(state)
    assert GAME.legal_for(state, PUBLIC) == []
    for k in range(state.players):
        moves = GAME.legal_for(state, seat(k))
        if k != to_act:
            assert moves == []
            continue
        recorder = GAME.legal_moves(state)
        assert [move for move in moves if move in recorder] == recorder
        for move in moves:
            if move not in recorder:
                with pytest.raises(IllegalMoveError):
                    GAME.apply(state, move)
        if state.observed:
            check_offers_follow_from_the_seats_view(state, k, moves, recorder)


def check_offers_follow_from_the_seats_view(
    state: SifakaState, k: int, moves: list[dict[str, Any]], recorder: list[dict[str, Any]]
) -> None:
    """The cards and values offered to seat ``k`` are exactly those its own view cannot rule
    out: every card of the deck but its own and those face up on the table, every value of a
    colour's counters but those it took."""
    shown = GAME.view(state, seat(k))
    face_up = [placed["card"] for placed in shown["placements"]] + shown["discarded"]
    ruled_out = {card for card in (shown["hands"][k], *face_up) if card is not None}
    cards = [card for card in state.catalog.ids if card not in ruled_out]
    offered = [move.get("card", move.get("draw")) for move in moves]
    if any(card is not None for card in offered):
        assert list(dict.fromkeys(offered)) == cards
    values: dict[tuple[int, ...], set[int]] = {}
    for move in moves:
        if "counter" in move:
            values.setdefault(tuple(move["turns"]), set()).add(move["counter"])
    for turns, offered_values in values.items():
        # The colour of the counter the move ends on: the one the recorder's same move takes.
        same = next(m for m in recorder if tuple(m["turns"]) == turns)
        colour = GAME.apply(state, same).taken[k][-1].colour
        mine = [c["value"] for c in shown["counters"][k] if c["colour"] == colour]
        assert sorted(offered_values) == sorted(Tally(COUNTERS[colour]) - Tally(mine))


def check_outcomes_look_alike(state: SifakaState, legal: list[dict[str, Any]]) -> None:
    """Observed: moves that differ only in what chance brought (fields hidden from the other
    seats) leave every other viewer the same view, event and moves while the game is on."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for move in legal:
        groups.setdefault(repr(GAME.event_view(move, PUBLIC)), []).append(move)
    for moves in groups.values():
        if len(moves) < 2:
            continue
        after = [GAME.apply(state, move) for move in moves]
        if after[0].finished:
            continue  # the service shows a finished game to everyone as the recorder sees it
        others = [v for v in viewers(state.players) if not v.is_seat(state.turn)]
        for viewer in others:
            seen = [
                (
                    GAME.view(next_state, viewer),
                    GAME.event_view(move, viewer),
                    GAME.legal_for(next_state, viewer),
                )
                for next_state, move in zip(after, moves, strict=True)
            ]
            assert all(item == seen[0] for item in seen), viewer


@pytest.mark.parametrize("chance", ["seeded", "observed"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(("seed", "small_deck"), [(4, False), (5, False), (6, True)])
def test_random_game_shows_every_viewer_exactly_what_it_may_see(
    players: int, chance: str, seed: int, small_deck: bool
) -> None:
    rng = random.Random(seed)
    raw: dict[str, Any] = {"chance": chance, "first_player": seed % players}
    if small_deck:
        raw["catalog"] = SMALL_CATALOG
    state = GAME.new_game(players, seed, GAME.options(raw, players))
    check_views(state)
    events = 0
    while not state.finished:
        assert events < EVENT_LIMIT, "the game does not end"
        legal = GAME.legal_moves(state)
        if state.observed:
            check_outcomes_look_alike(state, legal)
        event = choose(state, legal, rng)
        state, events = GAME.apply(state, event), events + 1
        for viewer in (RECORDER, *viewers(players)):
            assert GAME.event_view(event, viewer) == expected_event_view(event, viewer)
        check_views(state)
