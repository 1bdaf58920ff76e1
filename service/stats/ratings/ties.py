"""A game with tied ranks, rated by OpenSkill's Plackett-Luce update averaged over the orders its
ties could have been broken in (docs/workers-and-statistics.md, "How ties are rated, and why").

OpenSkill 6.2's own ``PlackettLuce`` rates a tie so that, from equal ratings, the third of ranks
[1, 1, 3, 4] ends above the two tied first. Here a tie is instead every order of the tied units
taken as equally likely, and the update is Plackett-Luce's, term by term, averaged over those
orders. A game without ties is one order: the same terms as ``PlackettLuce().rate`` (which
``service.stats.ratings.model`` still calls for it, so those ratings stay its floats exactly).

Plackett-Luce (Weng and Lin 2011, algorithm 4) moves unit ``i`` by sums over every unit ``q``
placed at or above it, each term depending on ``C_q``, the strength of ``q`` and of every unit
placed below ``q``. Averaged over the orders of a tie of ``k`` units, ``q``'s place in its tie is
any of the ``k`` alike, and the tied units after it any subset of the others of that size
alike: so the average is over ``k * 2**(k - 1)`` (place, subset) pairs, not ``k!`` orders
(8 tied: 1,024 terms per unit, not 40,320 orders). Ties below and above do not change ``C_q``.

Pure and deterministic: every sum is ``math.fsum`` (exactly rounded, so the same in any seat
order: tied units reseated get the same floats), subsets come from ``itertools.combinations``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

from openskill.models import PlackettLuce

# A player's (mu, sigma).
Skill = tuple[float, float]


def rate_with_ties(
    model: PlackettLuce, units: Sequence[Sequence[Skill]], ranks: Sequence[int]
) -> list[list[Skill]]:
    """Every unit's players after the game, as ``model.rate`` returns them (its ``tau``, ``beta``,
    ``kappa`` and default ``gamma``, no weights, no margin), ties averaged over their orders."""
    # The model's dynamics first, as rate does: every sigma widened by tau.
    players = [
        [(mu, math.sqrt(sigma * sigma + model.tau**2)) for mu, sigma in unit] for unit in units
    ]
    team_mu = [math.fsum(mu for mu, _ in unit) for unit in players]
    team_variance = [math.fsum(sigma * sigma for _, sigma in unit) for unit in players]
    c = math.sqrt(math.fsum(variance + model.beta**2 for variance in team_variance))
    strength = [math.exp(mu / c) for mu in team_mu]

    omega_terms: list[list[float]] = [[] for _ in units]
    delta_terms: list[list[float]] = [[] for _ in units]
    places = sorted(set(ranks))
    for place in places:
        tie = [unit for unit, rank in enumerate(ranks) if rank == place]
        below = [unit for unit, rank in enumerate(ranks) if rank > place]
        strength_below = math.fsum(strength[unit] for unit in below)
        for q in tie:
            others = [unit for unit in tie if unit != q]
            for after_count in range(len(tie)):
                # q at one of the tie's places (each 1/k), these tied units after it (each
                # subset of that size alike).
                weight = 1 / (len(tie) * math.comb(len(tie) - 1, after_count))
                for after in itertools.combinations(others, after_count):
                    c_q = math.fsum([strength[q], *(strength[unit] for unit in after),
                                     strength_below])  # fmt: skip
                    for unit in (q, *after, *below):
                        share = strength[unit] / c_q
                        won = 1.0 if unit == q else 0.0
                        omega_terms[unit].append(weight * (won - share))
                        delta_terms[unit].append(weight * share * (1 - share))

    rated = []
    for unit, unit_players in enumerate(players):
        variance = team_variance[unit]
        omega = math.fsum(omega_terms[unit]) * variance / c
        # OpenSkill's default gamma: the team's sigma over c.
        delta = math.fsum(delta_terms[unit]) * variance / c**2 * (math.sqrt(variance) / c)
        rated.append(
            [
                (
                    mu + sigma**2 / variance * omega,
                    sigma * math.sqrt(max(1 - sigma**2 / variance * delta, model.kappa)),
                )
                for mu, sigma in unit_players
            ]
        )
    return rated
