"""The grid of spec/sifaka.md: directions, 2x2 footprints, rotations turning boxes and arrows."""

from __future__ import annotations

import pytest

from domain.sifaka.catalog import Box, Card, parse_box
from domain.sifaka.geometry import (
    ahead,
    anchors_over,
    footprint,
    reading_order,
    rotate_quad,
    turned,
)


def card(*specs: str) -> Card:
    top_left, top_right, bottom_left, bottom_right = (parse_box(spec) for spec in specs)
    return Card(1, (top_left, top_right, bottom_left, bottom_right))


def specs(boxes: tuple[Box, ...]) -> list[str]:
    return [box.spec for box in boxes]


@pytest.mark.parametrize(
    ("facing", "expected"), [("N", (5, 6)), ("E", (6, 7)), ("S", (5, 8)), ("W", (4, 7))]
)
def test_x_grows_to_the_east_and_y_to_the_south(facing: str, expected: tuple[int, int]) -> None:
    assert ahead((5, 7), facing) == expected


def test_a_card_covers_the_two_by_two_square_below_and_right_of_its_anchor() -> None:
    assert footprint(3, -2) == ((3, -2), (4, -2), (3, -1), (4, -1))


def test_the_anchors_over_a_square_are_the_four_cards_that_would_cover_it() -> None:
    anchors = anchors_over((0, 0))
    assert anchors == ((-1, -1), (0, -1), (-1, 0), (0, 0))
    assert all((0, 0) in footprint(*anchor) for anchor in anchors)


def test_reading_order_is_by_row_from_the_north_then_by_column() -> None:
    squares = [(2, 0), (0, 1), (-1, 0), (5, -3)]
    assert sorted(squares, key=reading_order) == [(5, -3), (-1, 0), (2, 0), (0, 1)]


@pytest.mark.parametrize(
    ("rotation", "expected"),
    [(0, "NESW"), (90, "ESWN"), (180, "SWNE"), (270, "WNES")],
)
def test_arrows_turn_clockwise_with_the_card(rotation: int, expected: str) -> None:
    assert "".join(turned(direction, rotation) for direction in "NESW") == expected


@pytest.mark.parametrize(
    ("rotation", "expected"),
    [(0, "abcd"), (90, "cadb"), (180, "dcba"), (270, "bdac")],
)
def test_a_quarter_turn_takes_each_corner_to_the_next_clockwise(
    rotation: int, expected: str
) -> None:
    # a b        c a        d c        b d
    # c d   90:  d b  180:  b a  270:  a c
    assert "".join(rotate_quad(("a", "b", "c", "d"), rotation)) == expected


# One test per rotation of a card with arrows: the boxes move with the card and the arrows turn.
CARD_WITH_ARROWS = card("arrow:N", "palms:2", "mango:red", "arrow:E")


def test_rotation_0_lays_a_card_as_the_catalog_lists_it() -> None:
    assert specs(CARD_WITH_ARROWS.face(0)) == ["arrow:N", "palms:2", "mango:red", "arrow:E"]


def test_rotation_90_turns_the_card_and_its_arrows_a_quarter_clockwise() -> None:
    # N 2      r N
    # r E  ->  S 2   (N became E at top-right; E became S at bottom-right)
    assert specs(CARD_WITH_ARROWS.face(90)) == ["mango:red", "arrow:E", "arrow:S", "palms:2"]


def test_rotation_180_turns_the_card_and_its_arrows_half_round() -> None:
    assert specs(CARD_WITH_ARROWS.face(180)) == ["arrow:W", "mango:red", "palms:2", "arrow:S"]


def test_rotation_270_turns_the_card_and_its_arrows_three_quarters_clockwise() -> None:
    # N 2      2 N
    # r E  ->  W r   (E became N at top-right; N became W at bottom-left)
    assert specs(CARD_WITH_ARROWS.face(270)) == ["palms:2", "arrow:N", "arrow:W", "mango:red"]


def test_an_n_arrow_on_a_card_rotated_90_points_e() -> None:
    lone = card("arrow:N", "blank", "blank", "blank")
    assert specs(lone.face(90)) == ["blank", "arrow:E", "blank", "blank"]


def test_rotations_laying_the_same_boxes_count_once() -> None:
    assert card("blank", "blank", "blank", "blank").rotations == (0,)
    assert card("palms:1", "palms:2", "palms:2", "palms:1").rotations == (0, 90)
    # Four arrows turning round: every rotation lays the same boxes.
    assert card("arrow:W", "arrow:N", "arrow:S", "arrow:E").rotations == (0,)
    assert CARD_WITH_ARROWS.rotations == (0, 90, 180, 270)
