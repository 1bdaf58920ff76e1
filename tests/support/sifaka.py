"""Sifaka's tables, grids and moves written out for the tests, and its playouts' catalogs."""

from __future__ import annotations

import random
import textwrap
from dataclasses import replace
from typing import Any

from domain.chance import DrawPile
from domain.sifaka import Sifaka, SifakaState
from domain.sifaka.catalog import Box, parse_box
from domain.sifaka.geometry import Pos, ahead, footprint
from domain.sifaka.state import Counter, Lying, Pawn, Placement, Square

# The rulebook's counters, written out independently of the domain.
COUNTERS = {"green": [1] * 10 + [2] * 5, "yellow": [2] * 6 + [3] * 3, "red": [3] * 4 + [4] * 2}


EVENT_LIMIT = 1000


# Three cards for up to four players: seats dealt nothing, and a short game.
SMALL_CATALOG = {
    "cards": [
        {"id": 7, "boxes": ["mango:red", "palms:1", "arrow:W", "mango:green"]},
        {"id": 3, "boxes": ["palms:3", "arrow:S", "blank", "mango:yellow"]},
        {"id": 5, "boxes": ["arrow:E", "palms:2", "palms:1", "arrow:N"]},
    ]
}


def choose(state: SifakaState, legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    if legal[0]["type"] == "place" and rng.random() < 0.8:
        pawn = state.pawns[state.turn]
        target = ahead((pawn.x, pawn.y), pawn.facing)
        ahead_of_it = [m for m in legal if "x" in m and target in footprint(m["x"], m["y"])]
        if ahead_of_it:
            return rng.choice(ahead_of_it)
    return rng.choice(legal)


GAME = Sifaka()


TOKENS = {
    ".": "blank",
    "1": "palms:1",
    "2": "palms:2",
    "3": "palms:3",
    "^": "arrow:N",
    ">": "arrow:E",
    "v": "arrow:S",
    "<": "arrow:W",
    "g": "mango:green",
    "y": "mango:yellow",
    "r": "mango:red",
}


# A small deck for tests; ids say what each card is for.
CATALOG = {
    "name": "test deck",
    "cards": [
        {"id": 1, "boxes": ["palms:1", "arrow:N", "mango:green", "blank"]},
        {"id": 2, "boxes": ["blank", "blank", "blank", "blank"]},
        {"id": 3, "boxes": ["mango:red", "palms:2", "palms:3", "mango:yellow"]},
        {"id": 4, "boxes": ["palms:1", "palms:2", "palms:2", "palms:1"]},
        {"id": 5, "boxes": ["blank", "palms:1", "blank", "blank"]},
        {"id": 6, "boxes": ["blank", "blank", "palms:2", "blank"]},
        {"id": 7, "boxes": ["mango:green", "mango:green", "blank", "blank"]},
        {"id": 8, "boxes": ["arrow:E", "blank", "blank", "blank"]},
    ],
}


HUT_SQUARE = """
    . . . .
    . . . .
    . . . .
    . . . .
"""


def grid(text: str, origin: Pos = (0, 0)) -> dict[Pos, Box]:
    rows = [line.split() for line in textwrap.dedent(text).strip().splitlines()]
    return {
        (origin[0] + column, origin[1] + row): parse_box(TOKENS[token])
        for row, tokens in enumerate(rows)
        for column, token in enumerate(tokens)
        if token != "#"
    }


def table(
    players: int = 2,
    *,
    board: dict[Pos, Box] | None = None,
    pawns: list[tuple[int, int, str]] | None = None,
    hands: list[int | None] | None = None,
    draw: list[int] | None = None,
    lying: dict[Pos, tuple[str, int | None]] | None = None,
    taken: list[list[tuple[str, int]]] | None = None,
    counter_piles: list[list[int]] | None = None,
    turn: int = 0,
    phase: str = "move",
    chance: str = "seeded",
    first_cards_done: bool = True,
    catalog: dict[str, Any] | None = None,
) -> SifakaState:
    """A game under way exactly so (draw pile top first); ``turn`` is to act in ``phase``."""
    start = GAME.new_game(players, 7, {"chance": chance, "catalog": catalog or CATALOG})
    observed = chance == "observed"
    squares = board if board is not None else grid(HUT_SQUARE)
    cards = tuple(draw if draw is not None else [5, 6])
    if observed:
        cards = tuple(sorted(cards, key=start.catalog.order))
    state = replace(
        start,
        board=tuple(Square(x, y, box) for (x, y), box in sorted(squares.items(), key=_reading)),
        pawns=tuple(Pawn(*pawn) for pawn in pawns or [(9, 9, "N")] * players),
        hands=tuple(hands if hands is not None else [None] * players),
        draw_pile=DrawPile(cards, observed, start.catalog.order),
        lying=tuple(
            Lying(x, y, Counter(*counter))
            for (x, y), counter in sorted((lying or {}).items(), key=_reading)
        ),
        taken=tuple(
            tuple(Counter(*counter) for counter in counters) for counters in taken or [[]] * players
        ),
        turn=turn,
        phase=phase,
        last_holder=None,
    )
    if counter_piles is not None:
        state = replace(
            state,
            counter_piles=tuple(
                DrawPile(tuple(sorted(values) if observed else values), observed, int)
                for values in counter_piles
            ),
        )
    if first_cards_done:
        state = replace(
            state, placements=(Placement(0, 2, 99, 99, 0),) * 4, slots_filled=(True,) * 4
        )
    return state


def _reading(item: tuple[Pos, Any]) -> tuple[int, int]:
    return item[0][1], item[0][0]


def act(state: SifakaState, kind: str, player: int, **fields: Any) -> SifakaState:
    return GAME.apply(state, {"type": kind, "player": player, **fields})


def pawn(state: SifakaState, seat: int) -> tuple[int, int, str]:
    at = state.pawns[seat]
    return at.x, at.y, at.facing


def moving(board: str, at: tuple[int, int, str], **kwargs: Any) -> SifakaState:
    return table(board=grid(board), pawns=[at, (9, 9, "N")], **kwargs)
