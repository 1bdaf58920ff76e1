"""The generator's test vectors (spec/determinism.md); a seeded Mada deal computed independently."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.mada import Mada
from domain.rng import SplitMix64
from domain.viewers import RECORDER

MASK = 2**64 - 1


def test_splitmix64_first_outputs_from_seed_zero() -> None:
    rng = SplitMix64(0)
    outputs = []
    for _ in range(3):
        value, rng = rng.next()
        outputs.append(value)
    assert outputs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


@pytest.mark.parametrize(
    ("seed", "expected"),
    [(42, [0, 9, 5, 8, 6, 4, 7, 2, 1, 3]), (2026, [5, 0, 9, 2, 4, 7, 3, 6, 8, 1])],
)
def test_shuffle_vectors(seed: int, expected: list[int]) -> None:
    shuffled, _ = SplitMix64(seed).shuffled(list(range(10)))
    assert list(shuffled) == expected


def test_generator_is_an_immutable_value() -> None:
    rng = SplitMix64(7)
    first, _ = rng.next()
    again, _ = rng.next()
    assert first == again


# --- an independent seeded deal ------------------------------------------------------------------


def _outputs(seed: int) -> Iterator[int]:
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def _fisher_yates(items: list[object], seed: int) -> list[object]:
    out = list(items)
    outputs = _outputs(seed)
    for i in range(len(out) - 1, 0, -1):
        j = next(outputs) % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _canonical_deck() -> list[object]:
    cactus = [value for value in range(1, 14) for _ in range(5 if value <= 8 else 4)]
    return [*cactus, *["lemur"] * 4, *["double_lemur"] * 3, *["scorpion"] * 3]


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("seed", [0, 1, 42, 2026, 2**64 - 1])
def test_seeded_deal_matches_an_independent_shuffle_and_deal(players: int, seed: int) -> None:
    game = Mada()
    state = game.new_game(players, seed, game.options({}, players))
    shown = game.view(state, RECORDER)

    deck = _fisher_yates(_canonical_deck(), seed)
    dealt = [deck[seat : 3 * players : players] for seat in range(players)]
    assert shown["draw_pile"] == deck[3 * players :]
    for seat, cards in enumerate(dealt):
        if "scorpion" not in cards:
            assert shown["hands"][seat] == cards
    # What left the hands went to the discard: dealt Scorpions and the cards that went with them.
    held = sorted(map(str, (card for hand in shown["hands"] for card in hand)))
    gone = sorted(map(str, shown["discard"]))
    assert sorted(held + gone) == sorted(map(str, (card for cards in dealt for card in cards)))


def test_canonical_deck_is_seventy_cards() -> None:
    assert len(_canonical_deck()) == 70
    assert Mada().new_game(2, 0, {}).catalog.deck == tuple(_canonical_deck())
