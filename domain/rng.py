"""SplitMix64, the one source of chance in every game (see spec/determinism.md).

The generator is an immutable value: drawing returns the number and the advanced generator, so a
game state that holds one stays a pure value and replays byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN_GAMMA = 0x9E3779B97F4A7C15


@dataclass(frozen=True, slots=True)
class SplitMix64:
    state: int

    def next(self) -> tuple[int, SplitMix64]:
        state = (self.state + _GOLDEN_GAMMA) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), SplitMix64(state)

    def below(self, n: int) -> tuple[int, SplitMix64]:
        """A number in [0, n) by plain modulo, as the contract says (its small bias included)."""
        if n < 1:
            raise ValueError(f"below() needs n >= 1, got {n}")
        value, rng = self.next()
        return value % n, rng

    def shuffled(self, items: Sequence[T]) -> tuple[tuple[T, ...], SplitMix64]:
        """Fisher-Yates from the last index down, exactly as spec/determinism.md writes it."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng
