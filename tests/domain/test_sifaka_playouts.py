"""Random games of Sifaka played to the end, with the game's invariants checked after every event.

Moves are drawn from ``legal_moves`` by a ``random.Random`` with a fixed seed, so each game is the
same on every run; placements lean towards the box ahead of the player's sifaka (a uniform choice
leaves most sifakas facing off the board, and few counters taken). After every event: the 30
counters and every card are each somewhere exactly once, scores are the counters taken, every
pawn stands on a box, a replay from scratch gives the same state, every legal move is accepted
and, in some games, every other body that could be written is refused.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest

from domain.errors import IllegalMoveError, InvalidEventError
from domain.sifaka import Sifaka, SifakaState
from domain.viewers import PUBLIC, RECORDER
from tests.support.sifaka import COUNTERS, EVENT_LIMIT, SMALL_CATALOG, choose

GAME = Sifaka()


def key(state: SifakaState, body: dict[str, Any]) -> str:
    """One key per move: rotations laying the same boxes are one placement."""
    body = dict(body)
    if body.get("type") == "place" and "x" in body:
        held = state.hands[body["player"]]
        card = state.catalog.by_id[held] if held is not None else None
        rotation = body.get("rotation", 0)
        if card is not None and rotation in (0, 90, 180, 270):
            face = card.face(rotation)
            body["rotation"] = next(r for r in card.rotations if card.face(r) == face)
    if body.get("type") == "move":
        body.setdefault("turns", [])
    return json.dumps(body, sort_keys=True)


def candidates(state: SifakaState, legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every body that could be written for this state, near enough to the board."""
    seat = state.turn
    bodies: list[dict[str, Any]] = list(legal)
    xs = [square.x for square in state.board]
    ys = [square.y for square in state.board]
    for player in range(state.players):
        bodies.append({"type": "place", "player": player})
        if state.observed:
            bodies.extend(
                {"type": "deal", "player": player, "card": card} for card in state.catalog.ids
            )
    for x in range(min(xs) - 2, max(xs) + 2):
        for y in range(min(ys) - 2, max(ys) + 2):
            for rotation in (0, 90, 180, 270):
                bodies.append(
                    {"type": "place", "player": seat, "x": x, "y": y, "rotation": rotation}
                )
    steps = [list(turns) for size in range(4) for turns in combinations((1, 2, 3), size)]
    extras: list[dict[str, Any]] = [{}]
    if state.observed:
        # No card, two unseen ones, and one seen already (a hand's, or one placed).
        unseen = list(state.draw_pile.distinct()[:2])
        seen = [card for card in state.catalog.ids if card not in state.draw_pile.cards][:1]
        extras = [
            {k: v for k, v in (("counter", value), ("draw", card)) if v is not None}
            for value in (None, 1, 3, 4)
            for card in [None, *unseen, *seen]
        ]
    for player in (seat, (seat + 1) % state.players):
        for turns in steps:
            bodies.extend(
                {"type": "move", "player": player, "turns": turns, **extra} for extra in extras
            )
    return bodies


def check_accepts_exactly_the_legal_moves(state: SifakaState, legal: list[dict[str, Any]]) -> None:
    allowed = {key(state, body) for body in legal}
    for body in candidates(state, legal):
        if key(state, body) in allowed:
            GAME.apply(state, body)
        else:
            with pytest.raises((IllegalMoveError, InvalidEventError)):
                GAME.apply(state, body)


def check_invariants(state: SifakaState, deck: list[int]) -> None:
    shown = GAME.view(state, RECORDER)
    assert json.loads(json.dumps(shown)) == shown
    observed = shown["chance"] == "observed"
    # Every square once, in reading order; every pawn on a box.
    squares = [(box["x"], box["y"]) for box in shown["boxes"]]
    assert squares == sorted(set(squares), key=lambda square: (square[1], square[0]))
    for pawn in shown["pawns"]:
        assert (pawn["x"], pawn["y"]) in squares
    # Counters lie only on mango boxes of their colour (a box shows its own colour).
    lying = [box for box in shown["boxes"] if box.get("counter")]
    assert all(box["kind"] == "mango" for box in lying)
    # The 30 counters: in the piles, on the board, or taken; values as the rulebook gives them.
    taken = [counter for counters in shown["counters"] for counter in counters]
    for colour, values in COUNTERS.items():
        here = [box for box in lying if box["mango"] == colour]
        took = [c["value"] for c in taken if c["colour"] == colour]
        assert shown["counters_left"][colour] + len(here) + len(took) == len(values)
        if observed:
            unseen = shown["unseen_counters"][colour]
            assert Counter(unseen) + Counter(took) == Counter(values)
            assert len(unseen) == shown["counters_left"][colour] + len(here)
        else:
            pile = shown["counter_piles"][colour]
            assert len(pile) == shown["counters_left"][colour]
            assert Counter(pile) + Counter(took) + Counter(b["counter_value"] for b in here) == (
                Counter(values)
            )
    # Scores are the counters' points; every card is somewhere exactly once.
    assert shown["scores"] == [sum(c["value"] for c in counters) for counters in shown["counters"]]
    cards = Counter(shown["unseen"] if observed else shown["draw_pile"])
    cards.update(card for card in shown["hands"] if card is not None)
    cards.update(placed["card"] for placed in shown["placements"])
    cards.update(shown["discarded"])
    assert cards == Counter(deck)
    assert shown["draw_pile_size"] == len(shown["unseen"] if observed else shown["draw_pile"])
    # The public view hides the cards in hand, the piles and the values (test_sifaka_views
    # checks every viewer's view whole).
    public = GAME.view(state, PUBLIC)
    for hidden in ("draw_pile", "unseen", "counter_piles", "unseen_counters"):
        assert hidden not in public
    assert "counter_value" not in json.dumps(public)
    assert set(public["hands"]) <= {None} and set(public["scores"]) == {None}
    assert {c["value"] for counters in public["counters"] for c in counters} <= {None}
    if shown["status"] == "active":
        assert shown["winners"] == [] and GAME.result(state) is None


def play_out(
    players: int, chance: str, seed: int, *, every_candidate: bool, small_deck: bool = False
) -> tuple[SifakaState, list[dict[str, Any]]]:
    rng = random.Random(seed)
    raw: dict[str, Any] = {"chance": chance, "first_player": seed % players}
    if small_deck:
        raw["catalog"] = SMALL_CATALOG
    options = GAME.options(raw, players)
    state = GAME.new_game(players, seed, options)
    deck = list(state.catalog.ids)
    events: list[dict[str, Any]] = []
    check_invariants(state, deck)
    while not state.finished:
        assert len(events) < EVENT_LIMIT, "the game does not end"
        legal = GAME.legal_moves(state)
        assert legal, "an active game must await some move"
        assert GAME.legal_moves(state) == legal
        keys = [key(state, body) for body in legal]
        assert len(set(keys)) == len(keys), "legal_moves lists a move twice"
        if every_candidate:
            check_accepts_exactly_the_legal_moves(state, legal)
        else:
            for body in legal:
                GAME.apply(state, body)
        event = choose(state, legal, rng)
        state = GAME.apply(state, event)
        events.append(event)
        check_invariants(state, deck)
        replayed = GAME.replay(players, seed, options, events)
        assert replayed == state
        assert GAME.view(replayed, RECORDER) == GAME.view(state, RECORDER)
    assert GAME.legal_moves(state) == []
    result = GAME.result(state)
    assert result is not None and result["winners"]
    assert result["scores"] == GAME.view(state, RECORDER)["scores"]
    assert GAME.view(state, RECORDER)["version"] == len(events)
    return state, events


@pytest.mark.parametrize("chance", ["seeded", "observed"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_game_keeps_every_invariant_to_the_end(players: int, chance: str, seed: int) -> None:
    state, events = play_out(players, chance, seed, every_candidate=seed == 1)
    # Every card is placed (or discarded): the game ends once the last one drawn is down.
    placed = len(state.placements) + len(state.discarded)
    assert placed == 48
    assert sum(event["type"] == "move" for event in events) == state.turns_played == 48


@pytest.mark.parametrize("chance", ["seeded", "observed"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_random_game_on_a_small_deck_keeps_every_invariant_to_the_end(
    players: int, chance: str, seed: int
) -> None:
    state, _ = play_out(players, chance, seed, every_candidate=True, small_deck=True)
    # The game ends once the last card drawn (the last one dealt) is down: with three cards and
    # four players a seat is dealt none and only moves; a seat after the last dealt in turn
    # order may still hold its card then.
    held = sum(card is not None for card in state.hands)
    assert len(state.placements) + len(state.discarded) + held == 3
    assert state.hands[state.last_holder or 0] is None


def test_playouts_go_through_the_rules_corners() -> None:
    """The random games above are worth something only if they reach the rules' corners."""
    seen: Counter[str] = Counter()
    for seed in range(12):
        for players in (2, 3, 4):
            rng = random.Random(seed)
            state = GAME.new_game(players, seed, {"chance": "seeded"})
            while not state.finished:
                legal = GAME.legal_moves(state)
                event = choose(state, legal, rng)
                before, state = state, GAME.apply(state, event)
                if event["type"] == "move":
                    seat = event["player"]
                    seen["turned on the way"] += bool(event["turns"])
                    seen["a choice of turns"] += len(legal) > 1
                    seen["stayed"] += before.moved[seat] == state.moved[seat]
                    seen["went 4 boxes"] += state.moved[seat] - before.moved[seat] == 4
                    seen["took a counter"] += len(state.taken[seat]) > len(before.taken[seat])
                    seen["turned on landing"] += (
                        before.moved[seat] + 1 == state.moved[seat]
                        and before.pawns[seat].facing != state.pawns[seat].facing
                    )
            result = GAME.result(state)
            assert result is not None
            seen["shared win"] += len(result["winners"]) > 1
            seen["colour piles emptied"] += sum(len(pile) == 0 for pile in state.counter_piles)
    for corner in (
        "turned on the way",
        "a choice of turns",
        "stayed",
        "went 4 boxes",
        "took a counter",
        "turned on landing",
        "shared win",
    ):
        assert seen[corner] > 0, corner
