"""Random games of Tally played to the end, with the game's invariants checked after every event.

Hypothesis draws the seed, the first player and which legal move each turn takes (an index into
``legal_moves``), so a failure shrinks to a short game. After every event: each of the 15 cards is
in a hand, the deck or on the tally exactly once; a replay from scratch gives the same state; every
view is JSON of the declared shape and hides what it should; and ``apply`` accepts exactly the
legal moves among every body that could be written for that state.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import jsonschema_rs
from hypothesis import given, settings
from hypothesis import strategies as st

import tests.games.tally  # noqa: F401  (registers the game until tests/conftest.py does)
from domain.errors import IllegalMoveError
from domain.viewers import PUBLIC, RECORDER, seat
from tests.games.tally import Tally, TallyState

GAME = Tally()
# The deck written out here, independently of the game: three of each value from 1 to 5.
EVERY_CARD = Counter({1: 3, 2: 3, 3: 3, 4: 3, 5: 3})
# Eight cards at least sum to 15 (1+1+1+2+2+2+3+3): no game lasts longer.
MOST_PLAYS = 8
STATE = jsonschema_rs.validator_for(dict(GAME.state_schema))
PLAY = jsonschema_rs.validator_for(dict(GAME.event_schemas["play"]))


# Every body that could be written for any state: each player, each value.
EVERY_BODY = [{"type": "play", "player": player, "card": card}
              for player in (0, 1) for card in range(1, 6)]  # fmt: skip


def check_invariants(state: TallyState) -> None:
    shown = GAME.view(state, RECORDER)
    assert json.loads(json.dumps(shown)) == shown
    everywhere = Counter(shown["deck"]) + Counter(shown["played"])
    for hand in shown["hands"]:
        everywhere.update(hand)
    assert everywhere == EVERY_CARD
    assert shown["tally"] == sum(shown["played"])
    assert shown["deck_size"] == len(shown["deck"])
    for viewer in (RECORDER, PUBLIC, seat(0), seat(1)):
        errors = [str(error) for error in STATE.iter_errors(GAME.view(state, viewer))]
        assert not errors, errors
    public = GAME.view(state, PUBLIC)
    assert public["hands"] == [None, None] and "deck" not in public
    # Everything else is public: the public sees what the recorder sees, less hands and deck.
    assert {name: value for name, value in shown.items() if name not in ("hands", "deck")} == {
        name: value for name, value in public.items() if name != "hands"
    }
    for index in (0, 1):
        own = GAME.view(state, seat(index))
        assert own["hands"][index] == shown["hands"][index]
        assert own["hands"][1 - index] is None and "deck" not in own
    if shown["status"] == "active":
        assert shown["tally"] < 15 and GAME.result(state) is None
        assert len(shown["hands"][shown["current_player"]]) == 2


def check_moves(state: TallyState) -> None:
    """Every legal move is accepted; every other body that could be written is refused."""
    legal = GAME.legal_moves(state)
    keys = {json.dumps(move, sort_keys=True) for move in legal}
    assert len(keys) == len(legal), "a move listed twice"
    for body in EVERY_BODY:
        if json.dumps(body, sort_keys=True) in keys:
            assert PLAY.is_valid(body)
            GAME.apply(state, body)
        else:
            try:
                GAME.apply(state, body)
            except IllegalMoveError:
                continue
            raise AssertionError(f"{body} was accepted but is not among {legal}")


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    first_player=st.sampled_from([0, 1]),
    picks=st.lists(st.integers(0, 1), min_size=MOST_PLAYS, max_size=MOST_PLAYS),
)
def test_random_games_end_with_every_card_accounted_for_and_replay_to_the_same_state(
    seed: int, first_player: int, picks: list[int]
) -> None:
    options = GAME.options({"first_player": first_player}, 2)
    state = GAME.new_game(2, seed, options)
    events: list[dict[str, Any]] = []
    states = [state]
    check_invariants(state)
    for pick in picks:
        legal = GAME.legal_moves(state)
        if not legal:
            break
        check_moves(state)
        move = legal[pick % len(legal)]
        state = GAME.apply(state, move)
        events.append(move)
        states.append(state)
        check_invariants(state)
        assert GAME.replay(2, seed, options, events) == state
    result = GAME.result(state)
    assert result is not None, f"no end after {MOST_PLAYS} plays"
    tally, last = sum(state.played), events[-1]["player"]
    assert tally >= 15
    # Exactly 15: the last player wins; past 15: the other one does.
    assert result["winners"] == [last if tally == 15 else 1 - last]
    assert result["scores"] == [int(index in result["winners"]) for index in (0, 1)]
    assert events[0]["player"] == first_player == GAME.first_player(state)
    assert GAME.stats_counters(events, states[1:]) == {"plays": len(events)}
    assert GAME.legal_moves(state) == [] and GAME.to_act(state) is None
