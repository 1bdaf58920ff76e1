"""The draws a tournament needs, each from its own generator derived from the tournament's seed.

A draw for one purpose ("standings", "round robin", the seats of round 3, ...) never consumes
numbers another purpose would use, so a draw added later changes no earlier one. The generator
is the project's SplitMix64 (domain/rng.py), seeded with the first 8 bytes (big-endian) of
SHA-256 of the text "<seed>:<purpose>:<round>": plain enough to redo in any language.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

from domain.rng import SplitMix64
from domain.tournaments.model import TournamentError

T = TypeVar("T")


SEEDS = 2**64  # a seed is an unsigned 64-bit integer, as a game's (spec: determinism)


def generator(seed: int, purpose: str, round_number: int = 0) -> SplitMix64:
    if not 0 <= seed < SEEDS:
        raise TournamentError(f"a seed is a whole number from 0 to 2**64 - 1, not {seed}")
    text = f"{seed}:{purpose}:{round_number}".encode()
    return SplitMix64(int.from_bytes(hashlib.sha256(text).digest()[:8], "big"))


def drawn(seed: int, purpose: str, items: Sequence[T], round_number: int = 0) -> tuple[T, ...]:
    """``items`` in the order the purpose's draw gives them (Fisher-Yates of the given order)."""
    order, _ = generator(seed, purpose, round_number).shuffled(items)
    return order
