"""What each viewer of a game of Mada may see: the recorder, one seat, the public.

Hidden until the game is over: each hand (its holder sees it) and the draw pile's order; the cards
dealt to a seat and, in observed mode, the card it drew (from everyone but that seat). Everything
else was seen by the whole table and is shown to all. The moves offered to a seat name no card it
cannot see. Random games check every viewer after every event against a projection this file
computes itself from the recorder's view.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest

from domain.errors import IllegalMoveError
from domain.mada import MadaState
from domain.viewers import PUBLIC, RECORDER, Viewer, seat
from tests.support.mada import (
    DEFAULT_DECK,
    EVENT_LIMIT,
    GAME,
    SMALL_CATALOG,
    SMALL_DECK,
    lost_round,
    move,
    observed,
    table,
)

L, DL, S = "lemur", "double_lemur", "scorpion"
# What the contract hides in an event from all but its player: type -> field.
SECRET_FIELD = {"deal": "cards", "draw": "card"}


def viewers(players: int) -> list[Viewer]:
    return [PUBLIC, *(seat(k) for k in range(players))]


def projected(full: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """The recorder's view less what ``viewer`` may not know, written out here, not by the game."""
    shown = {name: value for name, value in full.items() if name not in ("draw_pile", "unseen")}
    shown["hands"] = [hand if viewer == seat(k) else None for k, hand in enumerate(full["hands"])]
    return shown


def event_as_seen(event: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    secret = SECRET_FIELD.get(event["type"])
    if secret is None or secret not in event or viewer in (RECORDER, seat(event["player"])):
        return event
    return {**{name: value for name, value in event.items() if name != secret}, "hidden": [secret]}


def cards_named(move: dict[str, Any]) -> list[Any]:
    return [move["card"]] if "card" in move else list(move.get("cards", []))


# --- views --------------------------------------------------------------------------------------


def test_seat_view_shows_own_hand_and_null_for_others() -> None:
    state = table(3, hands=[[4, 6], [L], [9, 9, 1]], draw=[1, 2])
    shown = GAME.view(state, seat(1))
    assert shown["hands"] == [None, [L], None]
    assert shown["hand_sizes"] == [2, 1, 3]
    assert "draw_pile" not in shown and "unseen" not in shown
    assert shown["draw_pile_size"] == 2


def test_public_view_hides_every_hand_and_the_draw_pile() -> None:
    for state in (
        table(hands=[[4, 6], [L]], draw=[1, 2]),
        table(hands=[[4, 6], [L]], draw=[1, 2], chance="observed"),
    ):
        shown = GAME.view(state, PUBLIC)
        assert shown["hands"] == [None, None]
        assert shown["hand_sizes"] == [2, 1]
        assert "draw_pile" not in shown and "unseen" not in shown
        assert shown["draw_pile_size"] == 2


def test_recorder_view_shows_every_hand_and_the_draw_pile() -> None:
    seeded = GAME.view(table(hands=[[4, 6], [L]], draw=[2, 1]), RECORDER)
    assert seeded["hands"] == [[4, 6], [L]] and seeded["draw_pile"] == [2, 1]
    unseen = GAME.view(table(hands=[[4], []], draw=[2, 1], chance="observed"), RECORDER)
    assert unseen["hands"] == [[4], []] and unseen["unseen"] == [1, 2]


def test_set_aside_and_scores_are_shown_to_everyone() -> None:
    state = table(3, hands=[[], [], []], set_aside=[[9], [], [1, 13]])
    for viewer in (RECORDER, *viewers(3)):
        shown = GAME.view(state, viewer)
        assert shown["set_aside"] == [[9], [], [1, 13]]
        assert shown["set_aside_counts"] == [1, 0, 2]
        assert shown["scores"] == [5, 0, 7]


def test_piles_and_discard_are_shown_to_everyone_bottom_to_top() -> None:
    state = table(hands=[[], []], piles=[[1, 5], [L, 2]], discard=[S, 7])
    for viewer in (RECORDER, *viewers(2)):
        shown = GAME.view(state, viewer)
        assert shown["piles"] == [[1, 5], [L, 2]] and shown["discard"] == [S, 7]


def test_public_view_of_a_finished_game_shows_scores_and_winners_but_no_hand() -> None:
    state = lost_round(piles=[[5], [13], [1]], set_aside=[[13] * 4, [1] * 4, [2] * 4])
    shown = GAME.view(state, PUBLIC)
    assert shown["status"] == "finished"
    assert shown["scores"] == [24, 10, 5]
    assert shown["set_aside"][1] == [1, 1, 1, 1, 13]
    assert shown["winners"] == [0]
    assert shown["hands"] == [None, None, None]


# --- events -------------------------------------------------------------------------------------


def test_deal_cards_are_hidden_from_other_seats() -> None:
    deal = {"type": "deal", "player": 1, "cards": [4, L, 9]}
    assert GAME.event_view(deal, RECORDER) == deal
    assert GAME.event_view(deal, seat(1)) == deal
    for viewer in (PUBLIC, seat(0), seat(2)):
        assert GAME.event_view(deal, viewer) == {"type": "deal", "player": 1, "hidden": ["cards"]}


def test_observed_draw_card_hidden_from_other_seats() -> None:
    draw = {"type": "draw", "player": 0, "card": 12}
    assert GAME.event_view(draw, RECORDER) == draw
    assert GAME.event_view(draw, seat(0)) == draw
    for viewer in (PUBLIC, seat(1)):
        assert GAME.event_view(draw, viewer) == {"type": "draw", "player": 0, "hidden": ["card"]}


def test_seeded_draw_has_no_card_to_hide() -> None:
    draw = {"type": "draw", "player": 0}
    for viewer in (RECORDER, *viewers(2)):
        assert GAME.event_view(draw, viewer) == draw


def test_cards_played_tried_and_discarded_stay_shown() -> None:
    shown = [
        {"type": "play", "player": 0, "card": DL, "target": 1},
        {"type": "try_luck", "player": 0, "card": 7},
        {"type": "scorpion_discard", "player": 0, "card": 3},
        {"type": "choose_target", "player": 0, "target": 1},
        {"type": "round_discard", "player": 0, "cards": [9, 1]},
    ]
    for event in shown:
        for viewer in viewers(2):
            assert GAME.event_view(event, viewer) == event


# --- legal moves --------------------------------------------------------------------------------


def test_seat_legal_moves_only_when_its_decision_is_awaited() -> None:
    state = table(3, hands=[[], [9], []], piles=[[], [5], []], draw=[1], turn=1)
    assert GAME.to_act(state) == 1
    assert GAME.legal_for(state, RECORDER) == GAME.legal_moves(state)
    assert GAME.legal_for(state, seat(1)) == GAME.legal_moves(state) != []
    for viewer in (PUBLIC, seat(0), seat(2)):
        assert GAME.legal_for(state, viewer) == []
    # A pending decision is awaited from its seat, whoever's turn it was.
    pending = observed(2, [5, S, 9], [1, 2, 3])
    assert GAME.to_act(pending) == 0
    assert GAME.legal_for(pending, seat(0)) == GAME.legal_moves(pending) != []
    assert GAME.legal_for(pending, seat(1)) == []


def test_nobody_has_a_legal_move_once_the_game_is_over() -> None:
    state = lost_round(piles=[[5], [13], [1]], set_aside=[[13] * 4, [1] * 4, [2] * 4])
    assert GAME.to_act(state) is None
    for viewer in (RECORDER, *viewers(3)):
        assert GAME.legal_for(state, viewer) == []


def test_observed_seat_legal_moves_offer_what_the_seat_cannot_rule_out() -> None:
    # Seat 0 sees neither the other hands nor the draw pile: a 7 or a Lemur could be face down.
    state = table(3, hands=[[], [L], [7, 7]], draw=[1, 4, 4], chance="observed")
    offered = GAME.legal_for(state, seat(0))
    assert offered == [
        {"type": kind, "player": 0, "card": card}
        for kind in ("draw", "try_luck")
        for card in (1, 4, 7, L)
    ]
    assert [body["card"] for body in GAME.legal_moves(state)] == [1, 4, 1, 4]
    # The same table with the other hands and the draw pile exchanged offers seat 0 the same.
    swapped = table(3, hands=[[], [1], [4, 4]], draw=[7, 7, L], chance="observed")
    assert GAME.legal_for(swapped, seat(0)) == offered
    # The reducer still knows where the cards are: drawing one that is in a hand is refused.
    with pytest.raises(IllegalMoveError, match="no such card is left in the draw pile"):
        move(state, "draw", 0, card=7)


def test_observed_seat_deals_are_drawn_from_the_cards_it_has_not_seen() -> None:
    catalog = {
        "cactus": [{"value": 1, "count": 1, "pears": 1}, {"value": 2, "count": 6, "pears": 1}],
        "lemur": 1,
        "double_lemur": 0,
        "scorpion": 0,
    }
    first = GAME.new_game(2, 0, {"chance": "observed", "catalog": catalog})
    state = move(first, "deal", 0, cards=[1, 2, L])
    # Seat 1 did not see seat 0's deal: it is offered every deal the whole deck allows.
    deals = [body["cards"] for body in GAME.legal_for(state, seat(1))]
    assert deals == [body["cards"] for body in GAME.legal_moves(first)]
    assert deals == [[1, 2, 2], [1, 2, L], [2, 2, 2], [2, 2, L]]
    assert [body["cards"] for body in GAME.legal_moves(state)] == [[2, 2, 2]]
    with pytest.raises(IllegalMoveError, match="more copies than the deck still holds"):
        move(state, "deal", 1, cards=[1, 2, 2])


def test_seeded_seat_legal_moves_are_the_recorders_and_name_only_its_own_cards() -> None:
    state = table(3, hands=[[9, DL], [4], [L]], piles=[[5], [], []], draw=[1, 2], turn=0)
    offered = GAME.legal_for(state, seat(0))
    assert offered == GAME.legal_moves(state)
    assert {card for body in offered for card in cards_named(body)} == {9, DL}


def test_observed_seat_views_cannot_tell_which_card_another_seat_was_dealt() -> None:
    # One copy each of 6 and 7: the recorder's legal draws tell which of them seat 1 holds.
    catalog = {
        "cactus": [
            {"value": value, "count": 1 if value in (6, 7) else 2, "pears": 1}
            for value in range(1, 14)
        ],
        "lemur": 0,
        "double_lemur": 0,
        "scorpion": 0,
    }

    def record(secret: int) -> list[dict[str, Any]]:
        return [
            {"type": "deal", "player": 0, "cards": [1, 2, 3]},
            {"type": "deal", "player": 1, "cards": [4, 5, secret]},
            {"type": "deal", "player": 2, "cards": [8, 9, 10]},
            {"type": "play", "player": 0, "card": 1},
            {"type": "play", "player": 1, "card": 4},
            {"type": "play", "player": 2, "card": 8},
            {"type": "draw", "player": 0, "card": 11},
            {"type": "draw", "player": 1, "card": 12},
            {"type": "play", "player": 2, "card": 9},
        ]

    options = GAME.options({"chance": "observed", "catalog": catalog}, 3)
    states = {secret: GAME.new_game(3, 0, options) for secret in (6, 7)}
    recorder_draws_differ = False
    for six, seven in zip(record(6), record(7), strict=True):
        for viewer in (PUBLIC, seat(0), seat(2)):
            assert GAME.event_view(six, viewer) == GAME.event_view(seven, viewer)
        states = {6: GAME.apply(states[6], six), 7: GAME.apply(states[7], seven)}
        for viewer in (PUBLIC, seat(0), seat(2)):
            assert GAME.view(states[6], viewer) == GAME.view(states[7], viewer)
            assert GAME.legal_for(states[6], viewer) == GAME.legal_for(states[7], viewer)
        recorder_draws_differ |= GAME.legal_moves(states[6]) != GAME.legal_moves(states[7])
    assert GAME.to_act(states[6]) == 0 and GAME.legal_for(states[6], seat(0))
    assert recorder_draws_differ, "the test is worth something only if the recorder can tell"


# --- random games -------------------------------------------------------------------------------


def not_seen_by(shown: dict[str, Any], viewer: Viewer, deck: Counter[Any]) -> Counter[Any]:
    """The deck less every card ``viewer``'s view shows: what could be face down for it."""
    seen: Counter[Any] = Counter(shown["discard"])
    for cards in (*shown["piles"], *shown["set_aside"], shown["hands"][viewer.seat]):
        seen.update(cards)
    return deck - seen


def key(cards: list[Any]) -> tuple[str, ...]:
    return tuple(sorted(map(str, cards)))


def check_offer_follows_from_the_seat_view(
    state: MadaState, viewer: Viewer, offered: list[dict[str, Any]], deck: Counter[Any]
) -> None:
    """An observed seat's chance outcomes are those its own view leaves open, nothing finer."""
    shown = GAME.view(state, viewer)
    if not shown["draw_pile_size"]:
        return  # a reshuffle draws from the discards and piles, which everyone sees
    face_down = not_seen_by(shown, viewer, deck)
    if shown["pending"] is not None and shown["pending"]["kind"] == "deal":
        deals = {key(body["cards"]) for body in offered}
        assert deals == {key(list(cards)) for cards in combinations(face_down.elements(), 3)}
    elif shown["pending"] is None:
        drawn = {body["card"] for body in offered if body["type"] in ("draw", "try_luck")}
        assert drawn == set(face_down)


def check_every_viewer(state: MadaState, event: dict[str, Any] | None, deck: Counter[Any]) -> None:
    full = GAME.view(state, RECORDER)
    actor = GAME.to_act(state)
    recorder_moves = GAME.legal_moves(state)
    for viewer in viewers(state.players):
        assert GAME.view(state, viewer) == projected(full, viewer)
        if event is not None:
            assert GAME.event_view(event, viewer) == event_as_seen(event, viewer)
        offered = GAME.legal_for(state, viewer)
        if viewer.seat is None or viewer.seat != actor:
            assert offered == []
            continue
        assert offered
        if not state.observed:
            assert offered == recorder_moves
            continue
        check_offer_follows_from_the_seat_view(state, viewer, offered, deck)
        # The seat is offered every real outcome, and any other it is offered (a card that is in
        # fact in another hand) is refused by the reducer.
        assert all(body in offered for body in recorder_moves)
        for body in offered:
            if body not in recorder_moves:
                with pytest.raises(IllegalMoveError):
                    GAME.apply(state, body)


def play_watching_every_viewer(
    players: int, chance: str, seed: int, *, small_deck: bool = False
) -> None:
    rng = random.Random(seed)
    raw: dict[str, Any] = {"chance": chance, "first_player": seed % players}
    if small_deck:
        raw["catalog"] = SMALL_CATALOG
    deck = SMALL_DECK if small_deck else DEFAULT_DECK
    state = GAME.new_game(players, seed, GAME.options(raw, players))
    check_every_viewer(state, None, deck)
    events = 0
    while not state.finished:
        assert events < EVENT_LIMIT, "the game does not end"
        event = rng.choice(GAME.legal_moves(state))
        state = GAME.apply(state, event)
        events += 1
        check_every_viewer(state, event, deck)


@pytest.mark.parametrize("chance", ["seeded", "observed"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_viewer_sees_the_recorders_view_less_what_it_may_not_know(
    players: int, chance: str, seed: int
) -> None:
    play_watching_every_viewer(players, chance, seed)


@pytest.mark.parametrize("chance", ["seeded", "observed"])
@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_viewer_sees_what_it_may_through_reshuffles_on_a_small_deck(
    players: int, chance: str, seed: int
) -> None:
    play_watching_every_viewer(players, chance, seed, small_deck=True)
