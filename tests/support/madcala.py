"""Madcala's tables and moves written out for the tests, and its playouts' invariants."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

from domain.chance import DrawPile
from domain.madcala import Madcala, MadcalaState
from domain.madcala.catalog import DEFAULT_CATALOG, commoner_order
from domain.madcala.state import PlusOne, Space
from domain.viewers import PUBLIC, RECORDER

GAME = Madcala()


def check_invariants(state: MadcalaState) -> None:
    shown = GAME.view(state, RECORDER)
    assert json.loads(json.dumps(shown)) == shown
    for seat in range(2):
        on_board = sum(space["normal"][seat] for space in shown["spaces"])
        on_cards = sum(card["shards"] for card in shown["plus_ones"][seat])
        assert on_board + shown["reserves"][seat] + on_cards == 16
        assert sum(space["doubler"][seat] for space in shown["spaces"]) == 1
        assert 0 <= shown["health"][seat] <= shown["max_health"][seat]
        assert all(space["normal"][seat] >= 0 for space in shown["spaces"])
        for card in shown["plus_ones"][seat]:
            if card["kind"] == "corrupted":
                assert card["face_up"] == (card["shards"] > 0)
            else:
                assert card["shards"] == 0
    unseen = shown.get("commoner_deck", shown.get("commoner_unseen"))
    everywhere = Counter(unseen) + Counter(shown["commoner_discard"])
    for hand in shown["hands"]:
        everywhere.update(hand)
    assert everywhere == Counter(state.catalog.commoners[card].id for card in state.catalog.deck)
    assert len(unseen) == shown["commoner_deck_size"]
    if shown["status"] == "active":
        assert len(shown["hands"][1 - shown["current_player"]]) <= 2
        assert shown["winners"] == [] and GAME.result(state) is None
    public = GAME.view(state, PUBLIC)
    assert public["hands"] == [None, None] and "commoner_deck" not in public
    assert "commoner_unseen" not in public
    assert public["hand_sizes"] == [len(hand) for hand in shown["hands"]]


def sower(rng: random.Random, legal: list[dict[str, Any]], keen: float) -> dict[str, Any]:
    """A random policy that moves and ends its turn with probability ``keen`` when it may.

    Uniform play pays Shards off the board for Plus-Ones and Commoners faster than effects bring
    them back, so its spaces rarely hold more than a few Shards; a keener sower builds the piles
    that laps and landings on the Home need."""
    core = [body for body in legal if body["type"] in ("move", "end_turn")]
    if core and rng.random() < keen:
        return rng.choice(core)
    return rng.choice(legal)


GAME = Madcala()


NAMES = [entry["id"] for entry in DEFAULT_CATALOG["commoners"]]


def start(seed: int = 7, **options: Any) -> MadcalaState:
    return GAME.new_game(2, seed, GAME.options({"first_player": 0, **options}, 2))


def table(
    cells: dict[int, tuple[int, int]] | None = None,
    doublers: tuple[int, int] = (0, 6),
    *,
    current: int = 0,
    turn: int = 2,
    moved: bool = False,
    hands: tuple[list[str], list[str]] = ([], []),
    deck: list[str] | None = None,
    discard: list[str] = (),  # type: ignore[assignment]
    health: tuple[int, int] = (25, 25),
    face_down: tuple[str, ...] = (),
    shards: dict[str, int] | None = None,
    chance: str = "seeded",
    **options: Any,
) -> MadcalaState:
    """A duel under way with exactly these Shards (``cells``: space -> normal Shards of seat 0
    and seat 1; None keeps the setup's), Doublers, cards (deck top first) and health. Reserves
    hold each seat's other normal Shards, so that 16 are accounted for."""
    state = start(chance=chance, **options)
    spaces = state.spaces
    if cells is not None:
        spaces = tuple(
            Space(cells.get(index, (0, 0)), (doublers[0] == index, doublers[1] == index))
            for index in range(12)
        )
    index = state.catalog.commoner_index
    plus_ones = tuple(
        tuple(
            PlusOne(
                card.card,
                card.card.id not in face_down
                and (not card.card.corrupted or (shards or {}).get(card.card.id, card.shards) > 0),
                (shards or {}).get(card.card.id, card.shards),
            )
            for card in cards
        )
        for cards in state.plus_ones
    )
    reserves = tuple(
        16 - sum(cell.normal[seat] for cell in spaces) - sum(card.shards for card in cards)
        for seat, cards in enumerate(plus_ones)
    )
    assert min(reserves) >= 0, reserves
    observed = chance == "observed"
    deck_cards = tuple(index[name] for name in (deck if deck is not None else NAMES[:10]))
    if observed:
        deck_cards = tuple(sorted(deck_cards))
    return replace(
        state,
        spaces=spaces,
        reserves=(reserves[0], reserves[1]),
        plus_ones=(plus_ones[0], plus_ones[1]),
        hands=(tuple(index[n] for n in hands[0]), tuple(index[n] for n in hands[1])),
        deck=DrawPile(deck_cards, observed, commoner_order),
        discard=tuple(index[name] for name in discard),
        health=health,
        current=current,
        turn=turn,
        moved=moved,
    )


def act(state: MadcalaState, kind: str, player: int | None = None, **fields: Any) -> MadcalaState:
    seat = state.current if player is None else player
    return GAME.apply(state, {"type": kind, "player": seat, **fields})


def full(state: MadcalaState) -> dict[str, Any]:
    return GAME.view(state, RECORDER)


def card(state: MadcalaState, seat: int, card_id: str) -> dict[str, Any]:
    return next(c for c in full(state)["plus_ones"][seat] if c["id"] == card_id)
