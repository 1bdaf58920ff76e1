"""How long the tournament rules take to pair a round of a large event (issue 41).

    .venv/bin/python -m bench.tournament_pairing [--repeats N] [--seed S]

A Swiss of 256 players and pods of 200 (tables of 3 to 5, and of 4), each in an early and a late
round, after a history played out by the rules themselves: each table's result drawn from the
players' hidden strengths (the stronger usually ahead, an upset now and then, a draw or no
winner at times), so points spread as in a real event and the late rounds are the hard ones.
The figure is the median over the repeats of `pair_round` for the next round, in wall-clock
seconds (the target's measure) and in this process's CPU seconds (steadier on a shared machine;
the ratio is of CPU seconds). The baseline, in
the same run and on the same history, is what any pairing must do anyway: the standings (every
table's points, the opponents' points, one sort) and a shuffle of the same players by the
project's generator. The product's target: a round paired within a second.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence

from domain.rng import SplitMix64
from domain.tournaments import (
    Pairing,
    PlayedRound,
    TableOutcome,
    pair_round,
    standings,
)

TARGET_SECONDS = 1.0


def strength_outcome(
    players: Sequence[str], strength: dict[str, float], chance: random.Random
) -> TableOutcome:
    """Ranks drawn from hidden strengths (a noisy sort), with a rare draw or no winner."""
    roll = chance.random()
    if roll < 0.04:
        return TableOutcome(None)
    performance = [strength[name] + chance.gauss(0, 1.0) for name in players]
    if roll < 0.12 and len(players) == 2:
        return TableOutcome((1, 1))
    order = sorted(range(len(players)), key=lambda seat: -performance[seat])
    ranks = [0] * len(players)
    for place, seat in enumerate(order, start=1):
        ranks[seat] = place
    return TableOutcome(tuple(ranks))


def history_of(
    format: str, count: int, rounds: int, seed: int, table_size: tuple[int, int]
) -> tuple[list[str], list[PlayedRound]]:
    players = [f"Player {i:03d}" for i in range(count)]
    chance = random.Random(seed)
    strength = {name: chance.gauss(0, 1.0) for name in players}
    history: list[PlayedRound] = []
    for _ in range(rounds):
        pairing = pair_round(format, players, [], history, seed, table_size)
        outcomes = tuple(strength_outcome(t.players, strength, chance) for t in pairing.tables)
        history.append(PlayedRound(pairing.tables, outcomes, pairing.byes))
    return players, history


def median_seconds(work: Callable[[], object], repeats: int) -> tuple[float, float]:
    """The median wall-clock seconds and the median CPU seconds of this process: on a machine
    shared with other work the second is the steadier figure."""
    wall, cpu = [], []
    for _ in range(repeats):
        began, began_cpu = time.perf_counter(), time.process_time()
        work()
        wall.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
    return statistics.median(wall), statistics.median(cpu)


def measure_one(
    label: str,
    format: str,
    count: int,
    played: int,
    table_size: tuple[int, int],
    seed: int,
    repeats: int,
) -> dict[str, object]:
    players, history = history_of(format, count, played, seed, table_size)
    pairing: list[Pairing] = []

    def pair() -> None:
        pairing.append(pair_round(format, players, [], history, seed, table_size))

    def baseline() -> None:
        standings(players, history, seed)
        SplitMix64(seed).shuffled(players)

    paired, paired_cpu = median_seconds(pair, repeats)
    base, base_cpu = median_seconds(baseline, repeats)
    met = {
        frozenset((a, b))
        for one in history
        for t in one.tables
        for i, a in enumerate(t.players)
        for b in t.players[i + 1 :]
    }
    rematches = sum(
        1
        for t in pairing[-1].tables
        for i, a in enumerate(t.players)
        for b in t.players[i + 1 :]
        if frozenset((a, b)) in met
    )
    return {
        "what": label,
        "round": played + 1,
        "seconds": paired,
        "cpu_seconds": paired_cpu,
        "baseline_seconds": base,
        "baseline_cpu_seconds": base_cpu,
        "ratio": paired_cpu / base_cpu,
        "within_target": paired <= TARGET_SECONDS,
        "repeated_pairs": rematches,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=41)
    args = parser.parse_args()
    cases = [
        ("Swiss of 256", "swiss", 256, 3, (2, 2)),
        ("Swiss of 256", "swiss", 256, 11, (2, 2)),
        ("Swiss of 256", "swiss", 256, 19, (2, 2)),
        ("pods of 200 at 3 to 5", "pods", 200, 3, (3, 5)),
        ("pods of 200 at 3 to 5", "pods", 200, 11, (3, 5)),
        ("pods of 200 at 4", "pods", 200, 11, (4, 4)),
        ("round robin of 256", "round_robin", 256, 200, (2, 2)),
    ]
    print(f"median of {args.repeats}; baseline: standings + a shuffle of the same players")
    print(f"load average at the start: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    print(
        f"{'what':<24}{'round':>6}{'wall s':>8}{'CPU s':>8}{'base CPU s':>12}{'ratio':>8}"
        "  target 1 s (wall)"
    )
    for label, format, count, played, size in cases:
        row = measure_one(label, format, count, played, size, args.seed, args.repeats)
        print(
            f"{label:<24}{row['round']:>6}{row['seconds']:>8.3f}{row['cpu_seconds']:>8.3f}"
            f"{row['baseline_cpu_seconds']:>12.4f}{row['ratio']:>8.1f}"
            f"  {'met' if row['within_target'] else 'MISSED'}"
            f" ({row['repeated_pairs']} repeated pairs)"
        )


if __name__ == "__main__":
    main()
