"""The grid of Sifaka (spec/sifaka.md, "The grid"): squares, directions, 2x2 cards and rotations.

Pure functions on plain values. ``x`` grows to the east and ``y`` to the south; a card covers the
2x2 square whose top-left box is its anchor, and its four boxes are listed
``(top-left, top-right, bottom-left, bottom-right)``, the footprint order used everywhere.
"""

from __future__ import annotations

from typing import Final, TypeVar

T = TypeVar("T")

Pos = tuple[int, int]
Quad = tuple[T, T, T, T]

NORTH: Final = "N"
EAST: Final = "E"
SOUTH: Final = "S"
WEST: Final = "W"
# Clockwise, so that a quarter turn clockwise is the next one.
DIRECTIONS: Final = (NORTH, EAST, SOUTH, WEST)
STEP: Final[dict[str, Pos]] = {NORTH: (0, -1), EAST: (1, 0), SOUTH: (0, 1), WEST: (-1, 0)}

# Degrees clockwise.
ROTATIONS: Final = (0, 90, 180, 270)


def ahead(pos: Pos, facing: str) -> Pos:
    """The square next to ``pos`` in the direction ``facing``."""
    dx, dy = STEP[facing]
    return pos[0] + dx, pos[1] + dy


def turned(direction: str, rotation: int) -> str:
    """``direction`` turned ``rotation`` degrees clockwise: N turned 90 is E."""
    return DIRECTIONS[(DIRECTIONS.index(direction) + rotation // 90) % 4]


def footprint(x: int, y: int) -> Quad[Pos]:
    """The squares a card anchored at ``(x, y)`` covers, in footprint order."""
    return (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)


def anchors_over(pos: Pos) -> Quad[Pos]:
    """The four anchors whose card would cover ``pos``, in reading order (by y, then x)."""
    x, y = pos
    return (x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)


def rotate_quad(items: Quad[T], rotation: int) -> Quad[T]:
    """Where a card's four things sit once the card turns ``rotation`` degrees clockwise.

    A quarter turn takes the top-left corner to the top-right, the top-right to the bottom-right,
    and so on: ``(a, b, c, d)`` (that is ``a b / c d``) becomes ``(c, a, d, b)`` (``c a / d b``).
    Only the places move here; what each thing shows (an arrow) turns with ``turned``.
    """
    for _ in range(rotation // 90 % 4):
        top_left, top_right, bottom_left, bottom_right = items
        items = (bottom_left, top_left, bottom_right, top_right)
    return items


def reading_order(pos: Pos) -> tuple[int, int]:
    """The sort key of squares everywhere (the board, counters, anchors): rows from the north."""
    return pos[1], pos[0]
