"""Mada's tables and moves written out for the tests, and its playouts' decks."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from domain.chance import DrawPile
from domain.mada import Mada, MadaState
from domain.mada.catalog import Card, card_order

GAME = Mada()


DEFAULT_DECK = Counter(
    {**{value: 5 if value <= 8 else 4 for value in range(1, 14)}, "lemur": 4, "double_lemur": 3}
    | {"scorpion": 3}
)


# Twelve Cactus cards and nothing else: draw piles run out, players pass, and games jam.
SMALL_CATALOG = {
    "cactus": [{"value": value, "count": 2, "pears": value} for value in range(1, 7)],
    "lemur": 0,
    "double_lemur": 0,
    "scorpion": 0,
}


SMALL_DECK = Counter({value: 2 for value in range(1, 7)})


EVENT_LIMIT = 2000


GAME = Mada()


def table(
    players: int = 2,
    *,
    hands: list[list[Card]] | None = None,
    piles: list[list[Card]] | None = None,
    draw: list[Card] | None = None,
    discard: list[Card] | None = None,
    set_aside: list[list[int]] | None = None,
    turn: int = 0,
    chance: str = "seeded",
) -> MadaState:
    """A game under way with exactly these cards (draw pile top first); ``turn`` is to act."""
    start = GAME.new_game(players, 5, {"chance": chance})
    observed = chance == "observed"
    draw_cards = tuple(draw if draw is not None else [1, 2, 3, 4, 5, 6])
    if observed:
        draw_cards = tuple(sorted(draw_cards, key=card_order))
    return replace(
        start,
        draw_pile=DrawPile(draw_cards, observed, card_order),
        hands=tuple(tuple(hand) for hand in hands or [[]] * players),
        piles=tuple(tuple(pile) for pile in piles or [[]] * players),
        set_aside=tuple(tuple(cards) for cards in set_aside or [[]] * players),
        discard=tuple(discard or []),
        turn=turn,
        pending=None,
        in_setup=False,
    )


def move(state: MadaState, kind: str, player: int, **fields: Any) -> MadaState:
    return GAME.apply(state, {"type": kind, "player": player, **fields})


def observed(players: int, *deals: list[Card], **options: Any) -> MadaState:
    """An observed game after these deals, one per seat from seat 0."""
    state = GAME.new_game(players, 0, {"chance": "observed", **options})
    for seat, cards in enumerate(deals):
        state = move(state, "deal", seat, cards=cards)
    return state


def lost_round(players: int = 3, **setup: Any) -> MadaState:
    """Seat 0 tries its luck and draws a 2 onto its 5: the round is lost."""
    setup.setdefault("hands", [[]] * players)
    return move(table(players, draw=[2, 13, 13], **setup), "try_luck", 0)
