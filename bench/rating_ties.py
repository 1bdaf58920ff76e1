"""How candidate updates for a game with tied ranks keep the four tie properties of the ratings.

    .venv/bin/python -m bench.rating_ties [--games N] [--seed S]

The properties (docs/workers-and-statistics.md, "How ties are rated, and why"):
  P1 two players who tie after starting equal keep equal ratings;
  P2 a tie between equally rated players (the whole game tied) leaves every mu unchanged;
  P3 a player ranked below a tie for first never ends above the players tied first (mu, nor
     mu - 3 sigma) when all started equal;
  P4 the seat order of tied players changes nothing.
Random games of 2 to 8 units (players, or teams of 2 or 3), random tie patterns, equal and
unequal starting ratings. A property is counted broken when it fails beyond 1e-9 (a real break),
and, apart, when it fails only in a float's last bits. Also: the Azul example (67, 67, 58, 40,
everyone new), the time of a game of 8 tied players, and
how far the chosen update is from running Plackett-Luce once per order.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import time
from collections.abc import Callable, Sequence

from openskill.models import (
    BradleyTerryFull,
    BradleyTerryPart,
    PlackettLuce,
    ThurstoneMostellerFull,
    ThurstoneMostellerPart,
)

from service.stats.ratings.ties import Skill, rate_with_ties

# An update: every unit's players' (mu, sigma) before, ranks per unit -> the same after.
Update = Callable[[Sequence[Sequence[Skill]], Sequence[int]], list[list[Skill]]]
ROUNDING = 1e-9


def openskill_update(model: object) -> Update:
    def update(units: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
        teams = [[model.rating(mu=mu, sigma=sigma) for mu, sigma in unit] for unit in units]  # type: ignore[attr-defined]
        rated = model.rate(teams, ranks=list(ranks))  # type: ignore[attr-defined]
        return [[(one.mu, one.sigma) for one in team] for team in rated]

    return update


def every_order_update(units: Sequence[Sequence[Skill]], ranks: Sequence[int]) -> list[list[Skill]]:
    """Plackett-Luce's rate, run once per order of the ties, mu and sigma averaged: the
    definition, in k! runs (only for ties of up to 6)."""
    plain = openskill_update(PlackettLuce())
    ties = [
        [unit for unit, rank in enumerate(ranks) if rank == place] for place in sorted(set(ranks))
    ]
    runs = []
    for orders in itertools.product(*(itertools.permutations(tie) for tie in ties)):
        broken = list(ranks)
        for place, order in enumerate(orders):
            for offset, unit in enumerate(order):
                broken[unit] = place * 100 + offset
        runs.append(plain(units, broken))
    return [
        [
            (
                math.fsum(run[unit][player][0] for run in runs) / len(runs),
                math.fsum(run[unit][player][1] for run in runs) / len(runs),
            )
            for player in range(len(units[unit]))
        ]
        for unit in range(len(units))
    ]


CANDIDATES: dict[str, Update] = {
    "PlackettLuce (OpenSkill 6.2 as is)": openskill_update(PlackettLuce()),
    "ThurstoneMostellerFull": openskill_update(ThurstoneMostellerFull()),
    "ThurstoneMostellerPart": openskill_update(ThurstoneMostellerPart()),
    "BradleyTerryFull": openskill_update(BradleyTerryFull()),
    "BradleyTerryPart": openskill_update(BradleyTerryPart()),
    "PL averaged over orders, k! runs": every_order_update,
    "PL averaged over orders (chosen)": lambda units, ranks: rate_with_ties(
        PlackettLuce(), units, ranks
    ),
}


def random_game(
    rng: random.Random, equal: bool, tied_first: bool
) -> tuple[list[list[Skill]], list[int]]:
    count, size = rng.randint(2, 8), rng.choice([1, 1, 2, 3])
    places = [rng.randrange(count) for _ in range(count)]
    if tied_first:
        places[1] = places[0] = min(places)
    ranks = [1 + sum(other < place for other in places) for place in places]
    same = (rng.uniform(0, 50), rng.uniform(0.5, 25 / 3))
    units = [
        [same if equal else (rng.uniform(0, 50), rng.uniform(0.5, 25 / 3)) for _ in range(size)]
        for _ in range(count)
    ]
    return units, ranks


def worst(pairs: list[tuple[float, float]]) -> float:
    return max((abs(a - b) for a, b in pairs), default=0.0)


def breaks(update: Update, rng: random.Random, games: int, max_tie: int) -> dict[str, list[int]]:
    """Per property: [games broken beyond rounding, games broken in the last bits only, games]."""
    found = {name: [0, 0, 0] for name in ("P1", "P2", "P3", "P4")}

    def tally(name: str, gap: float) -> None:
        found[name][2] += 1
        if gap > ROUNDING:
            found[name][0] += 1
        elif gap > 0:
            found[name][1] += 1

    def small(ranks: Sequence[int]) -> bool:
        return max(ranks.count(rank) for rank in ranks) <= max_tie

    for _ in range(games):
        units, ranks = random_game(rng, equal=True, tied_first=False)
        if small(ranks):
            after = update(units, ranks)
            tally("P1", max((worst(list(zip(after[a][0], after[b][0], strict=True)))
                             for a in range(len(units)) for b in range(len(units))
                             if ranks[a] == ranks[b]), default=0.0))  # fmt: skip
        units, _ = random_game(rng, equal=True, tied_first=False)
        if len(units) <= max_tie:
            after = update(units, [1] * len(units))
            tally("P2", worst([(one[0], units[0][0][0]) for unit in after for one in unit]))
        units, ranks = random_game(rng, equal=True, tied_first=True)
        units = [[(25.0, 25 / 3)] * len(unit) for unit in units]
        if small(ranks):
            after = update(units, ranks)
            scores = [(mu, mu - 3 * sigma) for mu, sigma in (unit[0] for unit in after)]
            winners = [scores[unit] for unit in range(len(units)) if ranks[unit] == 1]
            below = [scores[unit] for unit in range(len(units)) if ranks[unit] > 1]
            gap = max((max(b[0] - w[0], b[1] - w[1]) for b in below for w in winners), default=0.0)
            tally("P3", max(gap, 0.0))
        units, ranks = random_game(rng, equal=False, tied_first=True)
        if small(ranks):
            order = list(range(len(units)))
            for rank in sorted(set(ranks)):
                tied = [unit for unit in order if ranks[unit] == rank]
                for place, unit in zip(tied, rng.sample(tied, len(tied)), strict=True):
                    order[place] = unit
            before = update(units, ranks)
            after = update([units[unit] for unit in order], [ranks[unit] for unit in order])
            pairs = [(x, y) for seat, unit in enumerate(order)
                     for one, two in zip(after[seat], before[unit], strict=True)
                     for x, y in zip(one, two, strict=True)]  # fmt: skip
            tally("P4", worst(pairs))
    return found


def azul(update: Update) -> str:
    units = [[(25.0, 25 / 3)] for _ in range(4)]
    after = update(units, [1, 1, 3, 4])
    return ", ".join(f"{mu:.2f}/{mu - 3 * sigma:.2f}" for mu, sigma in (unit[0] for unit in after))


def eight_tied_ms(update: Update) -> float:
    units = [[(20.0 + seat, 6.0)] for seat in range(8)]
    start = time.perf_counter()
    update(units, [1] * 8)
    return (time.perf_counter() - start) * 1000


def gap_to_every_order(rng: random.Random, games: int) -> tuple[float, float]:
    """The largest difference of the chosen update from the k! runs' average (ties of up to 5),
    in mu and in sigma: the chosen one averages Plackett-Luce's terms, so mu is the same and
    sigma comes from the averaged variance factor rather than an average of sigmas."""
    mu_gap = sigma_gap = 0.0
    for _ in range(games):
        units, ranks = random_game(rng, equal=False, tied_first=True)
        if max(ranks.count(rank) for rank in ranks) > 5:
            continue
        chosen = rate_with_ties(PlackettLuce(), units, ranks)
        runs = every_order_update(units, ranks)
        for one, two in zip(chosen, runs, strict=True):
            for (mu, sigma), (run_mu, run_sigma) in zip(one, two, strict=True):
                mu_gap, sigma_gap = (
                    max(mu_gap, abs(mu - run_mu)),
                    max(sigma_gap, abs(sigma - run_sigma)),
                )
    return mu_gap, sigma_gap


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="random games per property")
    parser.add_argument("--seed", type=int, default=37)
    args = parser.parse_args()
    print(f"{args.games} random games per property; broken beyond {ROUNDING} (last bits only)")
    print("Azul 67, 67, 58, 40 from new: mu/rating of the 4 seats; a game of 8 all tied")
    untied = openskill_update(PlackettLuce())
    reference = azul(lambda units, _: untied(units, [1, 2, 3, 4]))
    print(f"  untied [1, 2, 3, 4] Plackett-Luce for reference: {reference}")
    for name, update in CANDIDATES.items():
        brute = "k! runs" in name
        found = breaks(update, random.Random(args.seed), args.games, max_tie=6 if brute else 8)
        cells = "  ".join(f"{p} {b}({last})/{n}" for p, (b, last, n) in found.items())
        timing = "skipped (8! orders)" if brute else f"{eight_tied_ms(update):.1f} ms"
        print(f"{name}\n  {cells}\n  Azul: {azul(update)}\n  8 tied: {timing}")
    mu_gap, sigma_gap = gap_to_every_order(random.Random(args.seed), args.games)
    print(f"chosen vs k! runs, largest gap: mu {mu_gap:.1e}, sigma {sigma_gap:.1e}")


if __name__ == "__main__":
    main()
