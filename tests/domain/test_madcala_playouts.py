"""Random duels of Madcala played to the end, with the game's invariants checked after every event.

Moves are chosen uniformly among ``legal_moves`` by a ``random.Random`` with a fixed seed, so each
game is the same on every run. After every event: each seat's 16 normal Shards are on the board, in
its reserve or on its Corrupted cards, and its one Doubler is on the board; health is within
0..max; every Commoner is in the deck, the discard or a hand; a replay from scratch gives the same
state; the views are JSON and the public one hides hands and deck; and every body ``legal_moves``
lists is accepted, while some that the rules forbid are not.

Random play is slow to kill at 25 health: damage and healing nearly balance when nobody aims, so
most games here use the ``health`` option; a few play at full health under a cap on their length.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from domain.errors import IllegalMoveError, InvalidEventError
from domain.madcala import MadcalaState
from domain.madcala.catalog import EFFECTS
from domain.viewers import RECORDER
from tests.support.madcala import GAME, check_invariants, sower

EVENT_LIMIT = 40_000


def forbidden(state: MadcalaState) -> list[dict[str, Any]]:
    """Bodies the rules forbid now, whatever the table."""
    seat, other = state.current, 1 - state.current
    first = state.catalog.commoners[0]
    missing = next((e for e in EFFECTS if e not in first.effects), None)
    bodies: list[dict[str, Any]] = [
        {"type": "move", "player": other, "space": 6 * other + 1},
        {"type": "end_turn", "player": other, "discard": []},
        {"type": "move", "player": seat, "space": 6 * other + 2},
        {"type": "commoner", "player": seat, "card": first.id}
        if 0 not in state.hands[seat]
        else {"type": "commoner", "player": seat, "card": first.id, "effects": [missing]},
    ]
    if state.moved:
        bodies.append({"type": "move", "player": seat, "space": 6 * seat})
    else:
        bodies.append({"type": "end_turn", "player": seat, "discard": []})
    if state.turn == 1:
        card = state.plus_ones[seat][-1].card.id
        bodies.append({"type": "plus_one", "player": seat, "card": card})
    return bodies


def play_out(
    seed: int, options: dict[str, Any], *, check_every_event: bool, try_every_body: bool
) -> tuple[MadcalaState, list[dict[str, Any]]]:
    rng = random.Random(seed)
    checked = GAME.options(options, 2)
    state = GAME.new_game(2, seed, checked)
    events: list[dict[str, Any]] = []
    check_invariants(state)
    while not state.finished:
        assert len(events) < EVENT_LIMIT, "the game does not end"
        legal = GAME.legal_moves(state)
        assert legal, "an active game must await some move"
        keys = [json.dumps(body, sort_keys=True) for body in legal]
        assert len(set(keys)) == len(keys), "legal_moves lists a move twice"
        if try_every_body:
            assert GAME.legal_moves(state) == legal
            for body in legal:
                GAME.apply(state, body)
            for body in forbidden(state):
                with pytest.raises((IllegalMoveError, InvalidEventError)):
                    GAME.apply(state, body)
        event = rng.choice(legal)
        state = GAME.apply(state, event)
        events.append(event)
        if check_every_event:
            check_invariants(state)
            assert GAME.replay(2, seed, checked, events) == state
    check_invariants(state)
    assert GAME.replay(2, seed, checked, events) == state
    assert GAME.legal_moves(state) == []
    result = GAME.result(state)
    assert result is not None and result["winners"] and result["draw"] is False
    assert result["scores"] == list(state.health) and min(state.health) == 0
    assert GAME.view(state, RECORDER)["version"] == len(events)
    return state, events


@pytest.mark.parametrize("chance", ["seeded", "observed"])
@pytest.mark.parametrize("seed", range(6))
def test_random_short_duel_keeps_every_invariant_to_the_end(chance: str, seed: int) -> None:
    guests = ["alice", "hatter", "red_queen", "cheshire_cat", "white_rabbit", "jabberwock"]
    options = {
        "chance": chance,
        "health": 3 + seed % 4,
        "guests": [guests[seed], guests[-1 - seed]],
    }
    state, _ = play_out(seed, options, check_every_event=True, try_every_body=seed < 3)
    assert state.finished


@pytest.mark.parametrize(("chance", "seed"), [("seeded", 1), ("seeded", 2), ("observed", 1)])
def test_random_duel_at_full_health_ends_within_the_cap(chance: str, seed: int) -> None:
    state, events = play_out(seed, {"chance": chance}, check_every_event=False,
                             try_every_body=False)  # fmt: skip
    assert state.finished and max(state.max_health) == 25
    assert len(events) < EVENT_LIMIT


def test_random_duels_on_a_custom_catalog_with_a_layout_keep_every_invariant() -> None:
    catalog = {
        "guests": [
            {"id": "g1", "health": 5, "plus_ones": [
                {"id": "p1", "kind": "refreshable", "cost": 1, "effects": ["strike_shard"] * 2},
                {"id": "p2", "kind": "corrupted", "shards": 4, "to": "any_own_space",
                 "effects": ["refresh_plus_one", "damage"]},
            ]},
            {"id": "g2", "health": 6, "plus_ones": [
                {"id": "p3", "kind": "refreshable", "cost": 4,
                 "effects": ["gather_shards", "extra_turn", "strike_plus_one", "damage"]},
            ]},
        ],
        "commoners": [
            {"id": "c1", "effects": ["damage", "draw_commoner"], "count": 2},
            {"id": "c2", "effects": ["refresh_plus_one", "strike_plus_one", "strike_shard"]},
        ],
    }  # fmt: skip
    layout = ["damage", "draw_commoner", "refresh_plus_one", "heal", "add_shard"]
    for seed in range(4):
        options = {"catalog": catalog, "layout": layout, "chance": ["seeded", "observed"][seed % 2]}
        play_out(seed, options, check_every_event=True, try_every_body=seed < 2)


def test_random_duels_go_through_the_rules_corners() -> None:
    """The playouts above are worth something only if random play reaches the rare rules."""
    seen: Counter[str] = Counter()
    winners: Counter[int] = Counter()
    for seed in range(14):
        rng = random.Random(seed)
        options = {"health": 6, "chance": "observed" if seed % 3 == 2 else "seeded"}
        state = GAME.new_game(2, seed, GAME.options(options, 2))
        while not state.finished:
            event = sower(rng, GAME.legal_moves(state), 0.95 if seed % 2 else 0.4)
            before, state = state, GAME.apply(state, event)
            kind, seat = event["type"], event["player"]
            if kind == "move" and event["space"] is None:
                seen["fallback"] += 1
            elif kind == "move":
                taken = before.spaces[event["space"]]
                seen["lap"] += sum(taken.normal) + sum(taken.doubler) >= 12
                seen["both doublers"] += all(taken.doubler)
                seen["mixed order"] += "order" in event
                seen["home"] += "home_space" in event
                seen["doubler on home"] += state.extra_turns > before.extra_turns
            elif kind == "end_turn":
                seen["hand limit"] += bool(event["discard"])
                seen["extra turn taken"] += state.current == before.current
            elif kind == "plus_one":
                spent = [not c.face_up and c.card.corrupted for c in state.plus_ones[seat]]
                seen["corrupted spent"] += spent != [
                    not c.face_up and c.card.corrupted for c in before.plus_ones[seat]
                ]
            seen["discard rebuilt"] += (
                not before.deck
                and bool(before.discard)
                and (len(state.deck) > 0 or len(state.discard) < len(before.discard))
            )
        result = GAME.result(state)
        assert result is not None
        winners.update(result["winners"])
    corners = ("fallback", "lap", "both doublers", "mixed order", "home", "doubler on home",
               "hand limit", "extra turn taken", "corrupted spent", "discard rebuilt")  # fmt: skip
    assert {corner: seen[corner] > 0 for corner in corners} == dict.fromkeys(corners, True), seen
    assert winners[0] and winners[1]


def test_a_whole_random_duel_plays_out_fast() -> None:
    import time

    begun = time.perf_counter()
    _, events = play_out(11, {"health": 8}, check_every_event=False, try_every_body=False)
    assert time.perf_counter() - begun < 1.0, f"{len(events)} events"
