"""Sifaka's moves in words (``display.describe``): what a person at the table sees, never raw data.

A Terrain card is named by its face (its mango, palm trees and arrows, the words of the recorder's
card picker), never by its number; a tile's place is said from the huts at the board's centre,
never as coordinates; what the viewer may not see is said without its value. Random games check
that no move of a whole game is worded with a coordinate or a card's number.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from domain.sifaka import Sifaka
from domain.sifaka.catalog import DEFAULT, parse_box
from domain.sifaka.display import card_words, from_huts, pictured_faces
from domain.sifaka.state import STARTING_SLOTS
from tests.support.games import random_move
from tests.support.sifaka import SMALL_CATALOG

GAME = Sifaka()
PLAYERS = ["Ana", "Ben", "Caro"]
# Raw data in words: a coordinate "(1, -1)", a card's number "card 17", any list or object.
COORDINATE = re.compile(r"\(\s*-?\d+\s*,\s*-?\d+\s*\)")
CARD_NUMBER = re.compile(r"card\s+#?\d", re.IGNORECASE)
RAW = re.compile(r"[\[\]{}]")


def said(event: dict[str, Any], options: dict[str, Any] | None = None) -> str:
    return GAME.describe(event, PLAYERS, options)


# --- a card is named by its features ------------------------------------------------------------


def test_a_dealt_card_is_named_by_its_features_never_its_number() -> None:
    # Card 26 is palms:3, mango:yellow, arrow:N, blank.
    assert said({"type": "deal", "player": 0, "card": 26}) == (
        "Ana is dealt a Terrain card with a yellow mango, 3 palms in one box and an arrow north"
    )


def test_a_drawn_card_is_named_by_its_features_never_its_number() -> None:
    # Card 17 is palms:2, palms:2, arrow:E, palms:1.
    words = said({"type": "move", "player": 1, "turns": [2], "counter": 3, "draw": 17})
    assert words == (
        "Ben moves the sifaka, turning at the 2nd step, takes a counter worth 3 and draws"
        " a Terrain card with 5 palms over 3 boxes and an arrow east"
    )


@pytest.mark.parametrize(
    ("boxes", "words"),
    [
        (["palms:1", "arrow:N", "arrow:N", "arrow:W"], "1 palm, 2 arrows north and an arrow west"),
        (["blank", "blank", "mango:green", "palms:3"], "a green mango and 3 palms in one box"),
        (["blank", "palms:1", "palms:2", "mango:green"], "a green mango and 3 palms over 2 boxes"),
        (["arrow:S", "blank", "blank", "arrow:E"], "an arrow east and an arrow south"),
    ],
)  # fmt: skip
def test_a_card_is_named_by_its_mango_palms_and_arrows(boxes: list[str], words: str) -> None:
    options = GAME.options({"catalog": {"cards": [{"id": 1, "boxes": boxes}]}}, 2)
    assert said({"type": "deal", "player": 0, "card": 1}, options) == (
        f"Ana is dealt a Terrain card with {words}"
    )


def test_a_card_with_nothing_on_it_is_a_blank_card() -> None:
    assert card_words([parse_box("blank")] * 4) == "a blank Terrain card"


def test_a_card_of_a_deck_of_its_own_is_named_from_that_deck() -> None:
    # Id 7 is, in the small deck, red and green mangoes; in the default deck another card.
    small = GAME.options({"catalog": SMALL_CATALOG}, 2)
    assert said({"type": "deal", "player": 0, "card": 7}, small) == (
        "Ana is dealt a Terrain card with a red mango, a green mango, 1 palm and an arrow west"
    )
    assert "red mango" not in said({"type": "deal", "player": 0, "card": 7})


def test_the_default_deck_is_told_apart_at_least_as_well_as_by_the_pickers_words() -> None:
    # The picker's words (sifaka-touch.js cardWords) of the face it pictures: mangoes, arrows in
    # order, palms together; cards that are one tile turned are one picture there, said alike here.
    def pickers(card_id: int) -> tuple[Any, ...]:
        boxes = pictured_faces(DEFAULT)[card_id]
        return (
            tuple(box.colour for box in boxes if box.kind == "mango"),
            tuple(box.arrow for box in boxes if box.kind == "arrow"),
            sum(box.palms for box in boxes if box.kind == "palms"),
        )

    def tile(card_id: int) -> frozenset[Any]:
        return frozenset(DEFAULT.by_id[card_id].faces)

    words = {
        card_id: said({"type": "deal", "player": 0, "card": card_id}) for card_id in DEFAULT.ids
    }
    for one in DEFAULT.ids:
        for other in DEFAULT.ids:
            if tile(one) == tile(other):
                assert words[one] == words[other], (one, other)
            elif pickers(one) != pickers(other):
                assert words[one] != words[other], (one, other)
    # 48 cards, 44 ways: 2 and 39, 31 and 36 are one tile each; 2 and 28, 23 and 44 differ only
    # in where their boxes lie on the face.
    assert len(set(words.values())) == 44


def test_a_card_is_said_as_the_picker_pictures_its_tile() -> None:
    # Card 39 is card 2 turned half round: the picker shows them as one picture, card 2's, whose
    # arrow points west; a move says 39 so too, not by its own printed arrow (east).
    assert DEFAULT.by_id[39].face(180) == DEFAULT.by_id[2].boxes
    for card_id in (2, 39):
        assert said({"type": "deal", "player": 0, "card": card_id}) == (
            "Ana is dealt a Terrain card with a green mango, 4 palms over 2 boxes and an arrow west"
        )


# --- a placement names its place from the huts --------------------------------------------------


def test_a_placement_names_its_place_from_the_huts_never_coordinates() -> None:
    place = {"type": "place", "player": 0, "x": 4, "y": 0, "rotation": 90}
    assert said(place) == "Ana places the tile 1 square north and 3 east of the huts, facing east"
    place = {"type": "place", "player": 2, "x": -3, "y": 3, "rotation": 180}
    assert said(place) == (
        "Caro places the tile 2 squares south and 4 west of the huts, facing south"
    )


def test_the_starting_slots_lie_two_squares_from_the_huts_each_way() -> None:
    # Anchored (1, -1), (3, 1), (1, 3), (-1, 1): the huts' block slid 2 squares each way; north
    # is where y is smaller, up on the page.
    assert [from_huts(x, y) for x, y in STARTING_SLOTS] == [
        "2 squares north of the huts",
        "2 squares east of the huts",
        "2 squares south of the huts",
        "2 squares west of the huts",
    ]


def test_a_tile_on_the_four_huts_is_on_the_huts() -> None:
    assert from_huts(1, 1) == "on the huts"
    assert from_huts(2, 1) == "1 square east of the huts"


def test_a_discard_says_the_tile_fits_nowhere() -> None:
    assert said({"type": "place", "player": 1}) == "Ben discards the tile (it fits nowhere)"


# --- a hidden card or counter is said without its value -----------------------------------------


def test_a_hidden_card_is_said_without_its_value() -> None:
    assert said({"type": "deal", "player": 0, "hidden": ["card"]}) == "Ana is dealt a Terrain card"
    assert said({"type": "move", "player": 1, "hidden": ["draw", "counter"]}) == (
        "Ben moves the sifaka, takes a counter and draws a Terrain card"
    )


# --- whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize("chance", ["seeded", "observed"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_move_of_a_random_game_is_worded_with_a_coordinate_or_a_cards_number(
    chance: str, seed: int
) -> None:
    chooser = random.Random(seed)
    players = 2 + seed % 3
    options = GAME.options({"chance": chance}, players)
    state = GAME.new_game(players, seed, options)
    worded = 0
    while (move := random_move(GAME, state, players, chooser)) is not None:
        for words in (said(move, options), said(move)):
            assert not COORDINATE.search(words), words
            assert not CARD_NUMBER.search(words), words
            assert not RAW.search(words), words
        state = GAME.apply(state, move)
        worded += 1
    assert state.finished and worded > 40
