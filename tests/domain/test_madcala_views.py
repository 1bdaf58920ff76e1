"""What each viewer of a duel of Madcala may know while it is on: one test per rule of the contract.

Hidden until the game is over: each seat's hand of Commoners (its holder sees it) and the Commoner
deck's order (in observed mode, the unseen cards, which would tell the other hand); the Commoners
an event draws (``drawn``) from all but the seat that drew them. A seat is told its legal moves
only when its decision is awaited, and in observed mode as it could list them itself.

The random playouts check every view against a projection the test computes itself from the
recorder's view, and that a seat's view and moves stay the same when the cards it cannot see are
dealt otherwise.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from domain.chance import DrawPile
from domain.errors import IllegalMoveError
from domain.madcala import MadcalaState
from domain.madcala.catalog import commoner_order
from domain.viewers import PUBLIC, RECORDER, Viewer, seat
from tests.support.madcala import GAME, act, check_invariants, sower, table

VIEWERS = (PUBLIC, seat(0), seat(1))
HIDDEN_STATE = ("commoner_deck", "commoner_unseen")


def projected(whole: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """The recorder's view less what ``viewer`` may not see, worked out here, not by the game."""
    shown = {name: value for name, value in whole.items() if name not in HIDDEN_STATE}
    shown["hands"] = [
        hand if viewer.is_seat(holder) else None for holder, hand in enumerate(whole["hands"])
    ]
    return shown


def event_as_seen(event: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    if "drawn" not in event or viewer.sees_all or viewer.is_seat(event["player"]):
        return event
    return {
        **{name: value for name, value in event.items() if name != "drawn"},
        "hidden": ["drawn"],
    }


def names(state: MadcalaState, cards: tuple[int, ...]) -> list[str]:
    return [state.catalog.commoners[card].id for card in cards]


def redealt(state: MadcalaState, viewer: int) -> MadcalaState:
    """``state`` with the Commoners ``viewer`` cannot see dealt otherwise: the same counts in the
    deck and the other hand, from the same cards taken in the reverse order."""
    other = 1 - viewer
    pool = [*state.deck.cards, *state.hands[other]][::-1]
    size = len(state.deck)
    deck = tuple(pool[:size])
    if state.observed:
        deck = tuple(sorted(deck, key=commoner_order))
    hands = list(state.hands)
    hands[other] = tuple(pool[size:])
    return replace(
        state,
        deck=DrawPile(deck, state.observed, commoner_order),
        hands=(hands[0], hands[1]),
    )


# --- state views -------------------------------------------------------------------------------


@pytest.mark.parametrize("chance", ["seeded", "observed"])
def test_seat_view_shows_own_commoners_and_null_for_the_other(chance: str) -> None:
    state = table(hands=(["cook"], ["dodo", "pat"]), chance=chance)
    assert GAME.view(state, seat(0))["hands"] == [["cook"], None]
    assert GAME.view(state, seat(1))["hands"] == [None, ["dodo", "pat"]]
    assert GAME.view(state, RECORDER)["hands"] == [["cook"], ["dodo", "pat"]]


@pytest.mark.parametrize("chance", ["seeded", "observed"])
def test_public_view_hides_both_hands_and_the_deck(chance: str) -> None:
    state = table(hands=(["cook"], ["dodo", "pat"]), chance=chance)
    public = GAME.view(state, PUBLIC)
    assert public["hands"] == [None, None]
    assert not set(HIDDEN_STATE) & public.keys()
    assert public["commoner_deck_size"] == 10


@pytest.mark.parametrize("chance", ["seeded", "observed"])
def test_seat_views_give_neither_the_deck_order_nor_the_unseen_commoners(chance: str) -> None:
    state = table(hands=(["cook"], ["dodo", "pat"]), chance=chance)
    whole = GAME.view(state, RECORDER)
    assert whole["commoner_unseen" if chance == "observed" else "commoner_deck"]
    for viewer in (seat(0), seat(1)):
        assert not set(HIDDEN_STATE) & GAME.view(state, viewer).keys()


def test_every_view_gives_hand_sizes() -> None:
    state = table(hands=(["cook"], ["dodo", "pat"]))
    for viewer in (RECORDER, *VIEWERS):
        assert GAME.view(state, viewer)["hand_sizes"] == [1, 2]


def test_a_seat_view_differs_from_the_recorders_only_in_what_it_hides() -> None:
    state = table(hands=(["cook"], ["dodo", "pat"]), discard=["bill"], chance="observed")
    whole = GAME.view(state, RECORDER)
    for viewer in VIEWERS:
        assert GAME.view(state, viewer) == projected(whole, viewer)


# --- event views -------------------------------------------------------------------------------


def test_drawn_commoners_hidden_from_the_other_seat() -> None:
    state = table(chance="observed", deck=["cook", "dodo", "pat"])
    event = {"type": "buy_commoner", "player": 0, "pay": [1, 1, 2], "drawn": ["pat"]}
    GAME.apply(state, event)
    assert GAME.event_view(event, seat(0)) == event == GAME.event_view(event, RECORDER)
    for viewer in (seat(1), PUBLIC):
        assert GAME.event_view(event, viewer) == {
            "type": "buy_commoner", "player": 0, "pay": [1, 1, 2], "hidden": ["drawn"],
        }  # fmt: skip


def test_every_event_that_can_draw_hides_drawn_and_only_drawn() -> None:
    # The events documented as carrying drawn are those whose effects may draw a Commoner.
    drawing = {kind for kind, fields in GAME.event_fields.items() if "drawn" in fields}
    assert drawing == {"move", "plus_one", "buy_commoner", "commoner"}
    assert GAME.private_event_fields == dict.fromkeys(drawing, ("drawn",))


def test_events_without_drawn_are_seen_whole() -> None:
    move = {"type": "move", "player": 0, "space": 1}
    end = {"type": "end_turn", "player": 1, "discard": ["cook"]}
    for viewer in VIEWERS:
        assert GAME.event_view(move, viewer) == move
        assert GAME.event_view(end, viewer) == end


# --- legal moves -------------------------------------------------------------------------------


def test_seat_legal_moves_only_when_its_decision_is_awaited() -> None:
    state = table(hands=(["cook"], ["dodo"]))
    assert GAME.to_act(state) == 0
    assert GAME.legal_for(state, seat(0)) == GAME.legal_moves(state) != []
    assert GAME.legal_for(state, seat(1)) == []
    assert GAME.legal_for(state, PUBLIC) == []
    assert GAME.legal_for(state, RECORDER) == GAME.legal_moves(state)
    over = act(table({3: (1, 0)}, health=(25, 1)), "move", space=3)  # lands on damage
    assert over.finished and GAME.to_act(over) is None
    assert [GAME.legal_for(over, viewer) for viewer in VIEWERS] == [[], [], []]


def test_observed_seat_legal_moves_offer_what_the_seat_cannot_rule_out() -> None:
    state = table(chance="observed", deck=["cook", "dodo"], hands=(["bill"], ["pat", "cook"]))
    buys = [m["drawn"] for m in GAME.legal_moves(state) if m["type"] == "buy_commoner"]
    assert buys[:2] == [["cook"], ["dodo"]] and ["pat"] not in buys
    # Seat 0 cannot tell the unseen from seat 1's hand: it is offered every one, once each.
    mine = [m for m in GAME.legal_for(state, seat(0)) if m["type"] == "buy_commoner"]
    assert [m["drawn"] for m in mine[:3]] == [["cook"], ["dodo"], ["pat"]]
    # The rules still draw from the unseen: the Commoner in fact in seat 1's hand is refused.
    GAME.apply(state, mine[0])
    with pytest.raises(IllegalMoveError, match="not possible"):
        GAME.apply(state, mine[2])


def test_observed_seat_legal_moves_name_a_further_draw_from_what_the_seat_cannot_rule_out() -> None:
    # A Doubler landing last on draw_commoner (space 3) draws twice.
    state = table({1: (1, 0)}, doublers=(1, 6), chance="observed", deck=["cook", "dodo"],
                  hands=([], ["pat"]))  # fmt: skip
    recorder = [m["drawn"] for m in GAME.legal_moves(state) if m.get("space") == 1]
    assert recorder == [["cook", "dodo"], ["dodo", "cook"]]
    mine = [m["drawn"] for m in GAME.legal_for(state, seat(0)) if m.get("space") == 1]
    assert mine == [["cook", "dodo"], ["dodo", "cook"], ["pat", "cook"]]


def test_observed_seat_legal_moves_draw_a_rebuilt_deck_from_the_public_discard() -> None:
    # One card left unseen: the second draw rebuilds the deck from the discard, known to all.
    state = table({1: (1, 0)}, doublers=(1, 6), chance="observed", deck=["cook"],
                  hands=([], ["dodo"]), discard=["pat"])  # fmt: skip
    mine = [m for m in GAME.legal_for(state, seat(0)) if m.get("space") == 1]
    assert [m["drawn"] for m in mine] == [["cook", "pat"], ["dodo", "pat"]]
    GAME.apply(state, mine[0])
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, mine[1])


def test_seeded_seat_legal_moves_are_the_recorders_and_name_no_drawn_card() -> None:
    state = table({1: (1, 0)}, doublers=(1, 6), hands=(["cook"], ["dodo"]))
    mine = GAME.legal_for(state, seat(0))
    assert mine == GAME.legal_moves(state)
    assert not any("drawn" in body for body in mine)


@pytest.mark.parametrize("chance", ["seeded", "observed"])
def test_seat_legal_moves_name_only_its_own_commoners_in_hand(chance: str) -> None:
    state = table({2: (2, 0)}, hands=(["bill", "cook", "mouse"], ["dodo", "pat"]), moved=True,
                  chance=chance)  # fmt: skip
    mine = GAME.legal_for(state, seat(0))
    played = {m["card"] for m in mine if m["type"] == "commoner"}
    discarded = {card for m in mine if m["type"] == "end_turn" for card in m["discard"]}
    assert played == discarded == {"bill", "cook", "mouse"}


# --- indistinguishability ----------------------------------------------------------------------


def test_records_differing_only_in_seat_1s_draw_look_the_same_to_seat_0_and_public() -> None:
    options = GAME.options({"chance": "observed", "first_player": 1}, 2)
    start = GAME.new_game(2, 5, options)
    first, second = (entry.id for entry in start.catalog.commoners[:2])

    def record(drawn: str) -> list[dict[str, Any]]:
        return [
            {"type": "buy_commoner", "player": 1, "pay": [7, 7, 8], "drawn": [drawn]},
            # Lands on seat 0's heal, at full health: nothing drawn.
            {"type": "move", "player": 1, "space": 11},
            {"type": "end_turn", "player": 1, "discard": []},
        ]

    states = []
    for events in (record(first), record(second)):
        state, seen = start, []
        for event in events:
            state = GAME.apply(state, event)
            seen.append(
                (
                    [GAME.view(state, viewer) for viewer in (seat(0), PUBLIC)],
                    [GAME.event_view(event, viewer) for viewer in (seat(0), PUBLIC)],
                    GAME.legal_for(state, seat(0)),
                )
            )
        states.append((state, seen))
    (one, seen_one), (other, seen_other) = states
    assert seen_one == seen_other
    assert GAME.view(one, seat(1)) != GAME.view(other, seat(1))
    assert GAME.to_act(one) == 0 and GAME.legal_for(one, seat(0)) == GAME.legal_for(other, seat(0))


# --- random playouts ---------------------------------------------------------------------------


def check_what_each_viewer_sees(state: MadcalaState, event: dict[str, Any] | None) -> None:
    whole = GAME.view(state, RECORDER)
    to_act = GAME.to_act(state)
    for viewer in VIEWERS:
        assert GAME.view(state, viewer) == projected(whole, viewer), viewer
        if event is not None:
            assert GAME.event_view(event, viewer) == event_as_seen(event, viewer), viewer
    assert GAME.legal_for(state, PUBLIC) == []
    for index in range(2):
        mine = GAME.legal_for(state, seat(index))
        if index != to_act:
            assert mine == []
            continue
        assert mine
        # Nothing listed names a Commoner outside what the seat holds or cannot rule out (or
        # the public discard an empty deck is rebuilt from).
        own = set(names(state, state.hands[index]))
        drawable = (*state.deck.cards, *state.hands[1 - index]) if state.deck else state.discard
        for body in mine:
            if body["type"] == "commoner":
                assert body["card"] in own
            assert set(body.get("discard", ())) <= own
            if body.get("drawn"):
                assert body["drawn"][0] in names(state, drawable)
        # The seat's view and moves stay the same however the cards it cannot see are dealt.
        other = redealt(state, index)
        assert GAME.view(other, seat(index)) == GAME.view(state, seat(index))
        assert GAME.legal_for(other, seat(index)) == mine


@pytest.mark.parametrize("chance", ["seeded", "observed"])
@pytest.mark.parametrize("seed", range(4))
def test_every_view_is_the_recorders_less_what_that_viewer_may_not_see(
    chance: str, seed: int
) -> None:
    rng = random.Random(seed)
    state = GAME.new_game(2, seed, GAME.options({"chance": chance, "health": 5 + seed}, 2))
    check_what_each_viewer_sees(state, None)
    kinds: Counter[str] = Counter()
    while not state.finished:
        event = sower(rng, GAME.legal_moves(state), 0.6)
        state = GAME.apply(state, event)
        kinds[event["type"]] += 1
        kinds["drawn"] += "drawn" in event
        check_invariants(state)
        check_what_each_viewer_sees(state, event)
    assert kinds["move"] and kinds["end_turn"]
    assert bool(kinds["drawn"]) == (chance == "observed")
    # Once over, the service reads as the recorder: every hand is shown.
    assert all(hand is not None for hand in GAME.view(state, RECORDER)["hands"])
