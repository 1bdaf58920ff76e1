"""Playing tournaments out in tests: results drawn by a seeded Random, rounds by the rules."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from domain.tournaments import Pairing, PlayedRound, TableOutcome, pair_round


def names(count: int) -> list[str]:
    return [f"Player {chr(ord('A') + i)}" if i < 26 else f"Player {i}" for i in range(count)]


def random_outcome(size: int, chance: random.Random) -> TableOutcome:
    roll = chance.random()
    if roll < 0.1:
        return TableOutcome(None)
    if roll < 0.15:
        return TableOutcome(tuple(range(1, size + 1)), abandoned=True)
    return TableOutcome(tuple(chance.randint(1, size) for _ in range(size)))


def played(pairing: Pairing, chance: random.Random) -> PlayedRound:
    outcomes = tuple(random_outcome(len(t.players), chance) for t in pairing.tables)
    return PlayedRound(pairing.tables, outcomes, pairing.byes)


def play_out(
    format: str,
    players: Sequence[str],
    rounds: int,
    seed: int,
    results_seed: int = 0,
    table_size: tuple[int, int] = (2, 2),
    withdrawn: Sequence[str] = (),
) -> list[PlayedRound]:
    chance = random.Random(results_seed)
    history: list[PlayedRound] = []
    for _ in range(rounds):
        pairing = pair_round(format, players, withdrawn, history, seed, table_size)
        history.append(played(pairing, chance))
    return history


def met_counts(history: Sequence[PlayedRound]) -> Counter[frozenset[str]]:
    return Counter(
        frozenset((a, b))
        for one in history
        for table in one.tables
        for i, a in enumerate(table.players)
        for b in table.players[i + 1 :]
    )


def seated(pairing: Pairing) -> list[str]:
    return [name for table in pairing.tables for name in table.players] + list(pairing.byes)
