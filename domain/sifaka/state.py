"""The state of a game of Sifaka, the fixed layout of the table, and the questions about a state
that rules, legal moves and views share.

The board is the set of visible boxes, kept as a tuple sorted in reading order (by ``y``, then
``x``), never as a set; so are the counters lying on it. Lookups build a dict from that tuple.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter
from typing import Final, TypeVar

from domain.chance import DrawPile
from domain.copies import changer
from domain.errors import IllegalMoveError
from domain.rng import SplitMix64
from domain.sifaka.catalog import (
    ARROW,
    BLANK_BOX,
    GREEN,
    MANGO_COLOURS,
    PALMS,
    RED,
    YELLOW,
    Box,
    Catalog,
    hut,
)
from domain.sifaka.geometry import (
    EAST,
    NORTH,
    SOUTH,
    WEST,
    Pos,
    ahead,
    footprint,
    reading_order,
)

T = TypeVar("T")

# What the current player is to do (``phase``).
DEAL: Final = "deal"
PLACE: Final = "place"
MOVE: Final = "move"

BLUE: Final = "blue"
# Seats take colours in this order; with two players seat 1 is yellow, opposite red.
PAWN_COLOURS: Final = (RED, BLUE, YELLOW, GREEN)
DEFAULT_FACING: Final[Mapping[str, str]] = {RED: NORTH, BLUE: EAST, YELLOW: SOUTH, GREEN: WEST}

# A ruling (spec/sifaka.md, "Setup"): the Hut cards' anchors and the hut on each, facing inwards.
HUT_CARDS: Final[Mapping[str, Pos]] = {RED: (0, 0), BLUE: (2, 0), YELLOW: (2, 2), GREEN: (0, 2)}
HUTS: Final[Mapping[str, Pos]] = {RED: (1, 1), BLUE: (2, 1), YELLOW: (2, 2), GREEN: (1, 2)}

# A ruling: the anchors the first four Terrain cards fill, each half over the hut square.
STARTING_SLOTS: Final[tuple[Pos, ...]] = ((1, -1), (3, 1), (1, 3), (-1, 1))
FIRST_CARDS: Final = len(STARTING_SLOTS)


@dataclass(frozen=True, slots=True)
class Square:
    """A visible box and where it is."""

    x: int
    y: int
    box: Box


@dataclass(frozen=True, slots=True)
class Pawn:
    x: int
    y: int
    facing: str


@dataclass(frozen=True, slots=True)
class Counter:
    colour: str
    # None for a counter lying face down in an observed game: nobody has seen its value yet.
    value: int | None


@dataclass(frozen=True, slots=True)
class Lying:
    """A counter on the board (always on a mango box of its colour)."""

    x: int
    y: int
    counter: Counter


@dataclass(frozen=True, slots=True)
class Placement:
    player: int
    card: int
    x: int
    y: int
    rotation: int


@dataclass(frozen=True, slots=True)
class SifakaState:
    players: int
    first_player: int
    # Pawn colour per seat.
    colours: tuple[str, ...]
    catalog: Catalog
    rng: SplitMix64
    draw_pile: DrawPile[int]
    # Per mango colour (green, yellow, red): seeded, the counters still to lay, top first;
    # observed, every counter whose value nobody has seen (still to lay or lying face down).
    counter_piles: tuple[DrawPile[int], ...]
    board: tuple[Square, ...]
    lying: tuple[Lying, ...]
    pawns: tuple[Pawn, ...]
    # The Terrain card each seat holds, or None.
    hands: tuple[int | None, ...]
    # The counters each seat took, in the order taken.
    taken: tuple[tuple[Counter, ...], ...]
    # The seat to act: to be dealt to (observed setup), to place, or to move.
    turn: int
    phase: str
    placements: tuple[Placement, ...] = ()
    discarded: tuple[int, ...] = ()
    # Per starting slot (STARTING_SLOTS order): whether a card was placed at it.
    slots_filled: tuple[bool, ...] = (False,) * FIRST_CARDS
    # The seat that drew the last card of the pile, once the pile is empty.
    last_holder: int | None = None
    # Boxes each seat's sifaka went (the hop and every step).
    moved: tuple[int, ...] = ()
    turns_played: int = 0
    finished: bool = False
    version: int = 0

    @property
    def observed(self) -> bool:
        return self.draw_pile.observed


# ``dataclasses.replace`` for SifakaState, fast (``domain.copies``).
with_changes = changer(SifakaState)


def seat_colours(players: int) -> tuple[str, ...]:
    if players == 2:
        return RED, YELLOW
    return PAWN_COLOURS[:players]


def initial_board() -> tuple[Square, ...]:
    """The four Hut cards: a 4x4 square of blank boxes but for the four huts."""
    huts = {pos: colour for colour, pos in HUTS.items()}
    squares = [
        Square(x, y, hut(huts[(x, y)]) if (x, y) in huts else BLANK_BOX)
        for anchor in HUT_CARDS.values()
        for x, y in footprint(*anchor)
    ]
    return tuple(sorted(squares, key=lambda square: reading_order((square.x, square.y))))


def board_map(state: SifakaState) -> dict[Pos, Box]:
    return {(square.x, square.y): square.box for square in state.board}


# ``(x, y)`` and ``reading_order`` (``(y, x)``) of a square, a pawn or a counter lying, read in one
# step by the interpreter rather than by Python code per item (issue #23).
POSITION: Final = attrgetter("x", "y")
READING_ORDER: Final = attrgetter("y", "x")
_BOX: Final = attrgetter("box")


@dataclass(frozen=True, slots=True)
class _Indexed:
    """A board (the very tuple), the box at each of its squares, and each square's
    ``reading_order`` in the board's order (for binary search)."""

    board: tuple[Square, ...]
    lookup: Mapping[Pos, Box]
    order: list[tuple[int, int]]


def _indexed(board: tuple[Square, ...]) -> _Indexed:
    lookup = dict(zip(map(POSITION, board), map(_BOX, board), strict=True))
    return _Indexed(board, lookup, list(map(READING_ORDER, board)))


# The board last asked about, indexed. A replay asks about the same board two or three times per
# event, and a card placed changes four boxes of a hundred: indexing the board anew each time took a
# good part of a replay's time (issue #23). This only spares work, never decides anything: it is
# used only for that very tuple (held here, no other tuple can take its id), and it is never
# changed once kept.
_last: _Indexed = _indexed(())


def _index(board: tuple[Square, ...]) -> _Indexed:
    global _last
    last = _last
    if last.board is not board:
        last = _last = _indexed(board)
    return last


def board_lookup(board: tuple[Square, ...]) -> Mapping[Pos, Box]:
    """The box at each visible square of ``board`` (what ``board_map`` gives, not to be changed)."""
    return _index(board).lookup


def laid(board: tuple[Square, ...], squares: Iterable[Square]) -> tuple[Square, ...]:
    """``board`` with ``squares`` laid on it, each over the box where it lies (if any); still in
    reading order."""
    # The same tuple as sorting every square anew, but a card changes only four of them: each goes
    # in its place by binary search, and the new board's index is the old one changed at four
    # squares (issue #23).
    global _last
    old = _index(board)
    rows, lookup, order = list(board), dict(old.lookup), list(old.order)
    for square in squares:
        key = (square.y, square.x)
        at = bisect_left(order, key)
        if (square.x, square.y) in lookup:
            rows[at] = square
        else:
            rows.insert(at, square)
            order.insert(at, key)
        lookup[(square.x, square.y)] = square.box
    new_board = tuple(rows)
    _last = _Indexed(new_board, lookup, order)
    return new_board


def lying_map(state: SifakaState) -> dict[Pos, Counter]:
    return {(item.x, item.y): item.counter for item in state.lying}


def blocked(state: SifakaState) -> frozenset[Pos]:
    """The squares no card may cover: those of a pawn or a counter (only ever asked about)."""
    return frozenset(chain(map(POSITION, state.pawns), map(POSITION, state.lying)))


def current_player(state: SifakaState) -> int | None:
    return None if state.finished else state.turn


def colour_index(colour: str) -> int:
    return MANGO_COLOURS.index(colour)


def left_to_lay(state: SifakaState, colour: str) -> int:
    """How many counters of ``colour`` are still in their pile, to be laid on mango boxes."""
    pile = state.counter_piles[colour_index(colour)]
    if not state.observed:
        return len(pile)
    return len(pile) - sum(1 for item in state.lying if item.counter.colour == colour)


def scores(state: SifakaState) -> list[int]:
    return [sum(counter.value or 0 for counter in counters) for counters in state.taken]


def ranking_key(state: SifakaState, seat: int) -> tuple[int, ...]:
    """What the final count compares, most important first: points, counters, then red, yellow
    and green counters."""
    counters = state.taken[seat]
    colours = [counter.colour for counter in counters]
    return (
        sum(counter.value or 0 for counter in counters),
        len(counters),
        *(colours.count(colour) for colour in reversed(MANGO_COLOURS)),
    )


def winners(state: SifakaState) -> list[int]:
    """Every seat with the best ranking: a tie that survives every tie-break is shared."""
    if not state.finished:
        return []
    keys = [ranking_key(state, seat) for seat in range(state.players)]
    best = max(keys)
    return [seat for seat, key in enumerate(keys) if key == best]


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


# --- placing ------------------------------------------------------------------------------------


def open_slots(state: SifakaState, blocked: frozenset[Pos]) -> tuple[Pos, ...]:
    """The starting slots the next card must go into: while fewer than four cards are placed, the
    slots no card has filled yet and free of pawns and counters (none: the usual rule applies)."""
    if len(state.placements) >= FIRST_CARDS:
        return ()
    return tuple(
        slot
        for slot, filled in zip(STARTING_SLOTS, state.slots_filled, strict=True)
        if not filled and not any(square in blocked for square in footprint(*slot))
    )


def placement_problem(
    state: SifakaState, board: Mapping[Pos, Box], blocked: frozenset[Pos], x: int, y: int
) -> str | None:
    """Why no card may be placed at ``(x, y)`` now (any rotation alike), or None if one may."""
    squares = footprint(x, y)
    if not any(square in board for square in squares):
        return "a card must cover at least one box already on the table"
    for square in squares:
        if square in blocked:
            what = "a pawn" if any((p.x, p.y) == square for p in state.pawns) else "a counter"
            return (
                f"the box {list(square)} holds {what}:"
                " a card may not be placed on a box with a pawn or a Mango counter"
            )
    slots = open_slots(state, blocked)
    if slots and (x, y) not in slots:
        return (
            "each of the first four Terrain cards must go into a starting slot no card has filled"
            f" yet, here {', '.join(str(list(slot)) for slot in slots)}"
        )
    return None


# --- moving -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Walk:
    """Where a sifaka's move ends, the way it faces then, and how many boxes it went."""

    x: int
    y: int
    facing: str
    boxes: int


def walk(board: Mapping[Pos, Box], pawn: Pawn, turns: Sequence[int]) -> Walk:
    """The move of ``pawn`` turning at the steps ``turns`` (ascending step numbers); raises
    IllegalMoveError naming the rule when ``turns`` cannot be followed.

    The ruling of spec/sifaka.md: the sifaka hops onto the box straight ahead (none: it stays).
    Landing on n palms it goes n boxes further straight ahead, stopping early where no box lies
    ahead, and may turn on each arrow it enters; landing on an arrow it turns to face it and stops;
    on anything else it stops.
    """
    start = (pawn.x, pawn.y)
    first = ahead(start, pawn.facing)
    box = board.get(first)
    if box is None or box.kind != PALMS:
        if turns:
            if box is None:
                why = "no box lies straight ahead, so the sifaka stays where it is"
            elif box.kind == ARROW:
                why = "it hops onto an arrow, turns to face it and stops there"
            else:
                why = f"it hops onto a {box.kind} box and stops there"
            raise IllegalMoveError(f"the sifaka takes no steps to turn on: {why}")
        if box is None:
            return Walk(pawn.x, pawn.y, pawn.facing, 0)
        return Walk(*first, box.arrow if box.arrow is not None else pawn.facing, 1)
    steps = box.palms
    if turns and turns[-1] > steps:
        raise IllegalMoveError(
            f"the sifaka lands on {steps} palm tree(s): it goes {steps} step(s), so it cannot turn"
            f" at step {turns[-1]}"
        )
    position, facing, gone = first, pawn.facing, 1
    for step in range(1, steps + 1):
        following = ahead(position, facing)
        entered = board.get(following)
        if entered is None:
            later = [turn for turn in turns if turn >= step]
            if later:
                raise IllegalMoveError(
                    f"no box lies ahead at step {step}: the sifaka stops there and cannot turn at"
                    f" step {later[0]}"
                )
            break
        position, gone = following, gone + 1
        if step in turns:
            if entered.kind != ARROW or entered.arrow is None:
                raise IllegalMoveError(
                    f"step {step} enters a {entered.kind} box: a sifaka turns only on an arrow"
                )
            if entered.arrow == facing:
                raise IllegalMoveError(
                    f"the arrow entered at step {step} points {facing}, the way the sifaka already"
                    " faces: there is no turn to make"
                )
            facing = entered.arrow
    return Walk(*position, facing, gone)


def walk_choices(board: Mapping[Pos, Box], pawn: Pawn) -> list[tuple[tuple[int, ...], Walk]]:
    """Every distinct way the move of ``pawn`` can go: each list of steps where it really turns
    (to an arrow pointing elsewhere), with the walk it makes; fewest turns first, then by step."""
    start = (pawn.x, pawn.y)
    first = ahead(start, pawn.facing)
    box = board.get(first)
    if box is None:
        return [((), Walk(pawn.x, pawn.y, pawn.facing, 0))]
    if box.kind != PALMS:
        return [((), Walk(*first, box.arrow if box.arrow is not None else pawn.facing, 1))]
    found: list[tuple[tuple[int, ...], Walk]] = []

    def go(position: Pos, facing: str, step: int, turns: tuple[int, ...], gone: int) -> None:
        following = ahead(position, facing)
        entered = board.get(following)
        if step > box.palms or entered is None:
            found.append((turns, Walk(*position, facing, gone)))
            return
        go(following, facing, step + 1, turns, gone + 1)
        if entered.arrow is not None and entered.arrow != facing:
            go(following, entered.arrow, step + 1, (*turns, step), gone + 1)

    go(first, pawn.facing, 1, (), 1)
    return sorted(found, key=lambda choice: (len(choice[0]), choice[0]))
