"""Random games of Mada played to the end, with the game's invariants checked after every event.

Moves are chosen uniformly among ``legal_moves`` by a ``random.Random`` with a fixed seed, so each
game is the same on every run. After every event: each card of the catalog is somewhere exactly
once, scores are the pears set aside, a replay from scratch gives the same state, and ``apply``
accepts exactly the legal moves among every body that could be written for that state.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import permutations
from typing import Any

import pytest

from domain.errors import IllegalMoveError, InvalidEventError
from domain.mada import MadaState
from domain.viewers import PUBLIC, RECORDER
from tests.support.mada import DEFAULT_DECK, EVENT_LIMIT, GAME, SMALL_CATALOG, SMALL_DECK

CARDS: list[Any] = [*range(1, 14), "lemur", "double_lemur", "scorpion"]
# Pears by value under the default catalog, written out independently of the domain.
PEARS = {value: min(6, (value + 1) // 2) for value in range(1, 14)}
SMALL_PEARS = {value: value for value in range(1, 7)}


def canonical(body: dict[str, Any], players: int) -> str:
    """One key per move: the order of the cards in a deal or a round_discard, and a two-player
    Double Lemur's implicit target, do not make another move."""
    body = dict(body)
    if body.get("type") in ("deal", "round_discard") and isinstance(body.get("cards"), list):
        body["cards"] = sorted(body["cards"], key=str)
    if body.get("card") == "double_lemur" and body.get("type") == "play" and players == 2:
        body.setdefault("target", 1 - body["player"])
    return json.dumps(body, sort_keys=True)


def candidates(state: MadaState, legal: list[dict[str, Any]], rng: random.Random) -> list[Any]:
    """Every body that could be written for this state: each type, card, target and player."""
    players = state.players
    seats = range(players)
    bodies: list[dict[str, Any]] = []
    for player in seats:
        for card in CARDS:
            bodies.append({"type": "play", "player": player, "card": card})
            bodies.extend(
                {"type": "play", "player": player, "card": card, "target": target}
                for target in seats
            )
            bodies.append({"type": "scorpion_discard", "player": player, "card": card})
            bodies.append({"type": "round_discard", "player": player, "cards": [card]})
            for kind in ("draw", "try_luck"):
                bodies.append({"type": kind, "player": player, "card": card})
        for kind in ("draw", "try_luck"):
            bodies.append({"type": kind, "player": player})
        bodies.extend({"type": "choose_target", "player": player, "target": t} for t in seats)
        bodies.append({"type": "round_discard", "player": player, "cards": []})
        hand = list(state.hands[player])
        for size in (2, 3, 4):
            for cards in permutations([*hand, *hand[:1]], size):
                bodies.append({"type": "round_discard", "player": player, "cards": list(cards)})
        # Deals: the legal ones and a sample of other triples (all 16**3 would be slow).
        for _ in range(12):
            cards = [rng.choice(CARDS) for _ in range(3)]
            bodies.append({"type": "deal", "player": player, "cards": cards})
    bodies.extend(legal)
    return bodies


def check_accepts_exactly_the_legal_moves(
    state: MadaState, legal: list[dict[str, Any]], rng: random.Random
) -> None:
    keys = [canonical(body, state.players) for body in legal]
    assert len(set(keys)) == len(keys), "legal_moves lists a move twice"
    allowed = set(keys)
    for body in candidates(state, legal, rng):
        if canonical(body, state.players) in allowed:
            GAME.apply(state, body)
        else:
            with pytest.raises((IllegalMoveError, InvalidEventError)):
                GAME.apply(state, body)


def check_invariants(state: MadaState, deck: Counter[Any], pears: dict[int, int]) -> None:
    shown = GAME.view(state, RECORDER)
    assert json.loads(json.dumps(shown)) == shown
    everywhere: Counter[Any] = Counter(shown["discard"])
    for cards in (*shown["hands"], *shown["piles"], *shown["set_aside"]):
        everywhere.update(cards)
    everywhere.update(shown["draw_pile"] if "draw_pile" in shown else shown["unseen"])
    assert everywhere == deck
    assert shown["scores"] == [sum(pears[card] for card in cards) for cards in shown["set_aside"]]
    assert all(len(hand) <= 3 for hand in shown["hands"])
    assert all(card != "scorpion" for pile in shown["piles"] for card in pile)
    assert all(isinstance(card, int) for cards in shown["set_aside"] for card in cards)
    assert max(shown["set_aside_counts"]) <= 5
    public = GAME.view(state, PUBLIC)
    assert public["hands"] == [None] * state.players
    assert "draw_pile" not in public and "unseen" not in public
    assert public["set_aside"] == shown["set_aside"] and public["scores"] == shown["scores"]
    if shown["status"] == "active":
        assert shown["winners"] == [] and GAME.result(state) is None


def play_out(
    players: int, chance: str, seed: int, *, every_candidate: bool, small_deck: bool = False
) -> MadaState:
    rng = random.Random(seed)
    raw: dict[str, Any] = {"chance": chance, "first_player": seed % players}
    if small_deck:
        raw["catalog"] = SMALL_CATALOG
    deck, pears = (SMALL_DECK, SMALL_PEARS) if small_deck else (DEFAULT_DECK, PEARS)
    options = GAME.options(raw, players)
    state = GAME.new_game(players, seed, options)
    events: list[dict[str, Any]] = []
    check_invariants(state, deck, pears)
    while not state.finished:
        assert len(events) < EVENT_LIMIT, "the game does not end"
        legal = GAME.legal_moves(state)
        assert legal, "an active game must await some move"
        assert GAME.legal_moves(state) == legal
        if every_candidate:
            check_accepts_exactly_the_legal_moves(state, legal, rng)
        else:
            for body in legal:
                GAME.apply(state, body)
        event = rng.choice(legal)
        state = GAME.apply(state, event)
        events.append(event)
        check_invariants(state, deck, pears)
        replayed = GAME.replay(players, seed, options, events)
        assert replayed == state
        assert GAME.view(replayed, RECORDER) == GAME.view(state, RECORDER)
    assert GAME.legal_moves(state) == []
    result = GAME.result(state)
    assert result is not None and result["winners"]
    assert GAME.view(state, RECORDER)["version"] == len(events)
    return state


@pytest.mark.parametrize("chance", ["seeded", "observed"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_game_keeps_every_invariant_to_the_end(players: int, chance: str, seed: int) -> None:
    state = play_out(players, chance, seed, every_candidate=seed <= 2)
    assert state.finished


@pytest.mark.parametrize("chance", ["seeded", "observed"])
@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_game_on_a_small_deck_keeps_every_invariant_to_the_end(
    players: int, chance: str, seed: int
) -> None:
    state = play_out(players, chance, seed, every_candidate=seed <= 2, small_deck=True)
    assert state.finished


def test_small_deck_playouts_reshuffle_pass_and_jam() -> None:
    reshuffles = passes = jammed = 0
    for seed in range(30):
        for players in (2, 3):
            rng = random.Random(seed)
            state = GAME.new_game(players, seed, {"catalog": SMALL_CATALOG})
            while not state.finished:
                event = rng.choice(GAME.legal_moves(state))
                before, state = state, GAME.apply(state, event)
                reshuffles += event["type"] in ("draw", "try_luck") and not before.draw_pile
                passes += (
                    before.pending is None
                    and state.pending is None
                    and state.round == before.round
                    and state.turn != (before.turn + 1) % players
                )
            jammed += max(len(cards) for cards in state.set_aside) < 5
    assert reshuffles > 0 and passes > 0 and jammed > 0


def test_playouts_reach_both_endings_and_every_pending_kind() -> None:
    """The random games above are worth something only if they go through the rules' corners."""
    kinds: set[str] = set()
    ended_by_fifth_card = 0
    for seed in range(40):
        for players in (2, 3, 4, 5):
            rng = random.Random(seed)
            state = GAME.new_game(players, seed, {"chance": "seeded"})
            while not state.finished:
                if state.pending is not None:
                    kinds.add(state.pending.kind)
                state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
            ended_by_fifth_card += max(len(cards) for cards in state.set_aside) == 5
    assert kinds == {"scorpion_discard", "choose_target", "round_discard"}
    assert ended_by_fifth_card > 0
