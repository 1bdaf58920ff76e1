"""Swiss pairing for games of two: one maximum-weight matching over the players still in.

The players stand in the order of the standings (round 1: all level, so the seed's draw). With an
odd number the lowest placed of those with the fewest byes sits out. The others are paired by a
maximum-weight perfect matching whose weights rank every possible pairing by, in this order:
  1. the fewest rematches (a pair that met k times costs k), so a rematch happens only when no
     pairing of the whole round avoids it;
  2. the least mixing of points: the sum over tables of (groups apart)², where the groups are the
     distinct point totals, so players meet within their group and those left over meet the
     nearest group;
  3. the closest places: the sum of (places apart)², which pairs 1-2, 3-4, ... (leaders meet).
Each criterion's weight exceeds what the ones after it can add up to over a whole round, so the
matching's optimum is the lexicographic optimum.

networkx's matching (Edmonds' blossom algorithm) takes integer weights and nodes numbered by
place, so it computes exactly and in the same order on any machine. To stay well under a second
at 256 players it first matches over pairs at most WINDOW places apart; only if that leaves a
rematch does it solve the whole graph, so rematches are avoided exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import networkx as nx

from domain.tournaments.meetings import first_seats, meetings, pair_key, who_plays_first
from domain.tournaments.model import Pairing, PlayedRound, Table
from domain.tournaments.points import byes_had, standings

# Pairs further apart than this in the standings are considered only when the near ones leave a
# rematch: a player has at most 19 past opponents (20 rounds), so a window of 2 * rounds + 8
# almost always holds a pairing without rematch.
WINDOW_MARGIN = 8


def pair_swiss(
    players: Sequence[str],
    active: Sequence[str],
    history: Sequence[PlayedRound],
    seed: int,
) -> Pairing:
    table = standings(players, history, seed)
    still_in = set(active)
    order = [s.player for s in table if s.player in still_in]
    points = {s.player: s.points for s in table}
    byes: tuple[str, ...] = ()
    if len(order) % 2 == 1:
        had = byes_had(players, history)
        fewest = min(had[name] for name in order)
        sits_out = [name for name in order if had[name] == fewest][-1]
        byes = (sits_out,)
        order.remove(sits_out)
    pairs = _matched_pairs(order, points, history)
    seats_so_far = first_seats(history)
    tables = tuple(
        Table(who_plays_first(order[i], order[j], number, seats_so_far))
        for number, (i, j) in enumerate(pairs, start=1)
    )
    return Pairing(tables=tables, byes=byes)


def _matched_pairs(
    order: Sequence[str], points: dict[str, Fraction], history: Sequence[PlayedRound]
) -> list[tuple[int, int]]:
    """Pairs of places (i < j), sorted by the higher place: the best pairing of the round."""
    count = len(order)
    if count == 0:
        return []
    met = meetings(history)
    totals = sorted({points[name] for name in order}, reverse=True)
    group = [totals.index(points[name]) for name in order]
    # Bounds of each criterion over a whole round, so that each weight outranks the next ones.
    place_scale = (count // 2) * count * count + 1
    group_scale = place_scale * ((count // 2) * len(totals) ** 2 + 1)

    def cost(i: int, j: int) -> int:
        return (
            met[pair_key(order[i], order[j])] * group_scale
            + (group[i] - group[j]) ** 2 * place_scale
            + (j - i) ** 2
        )

    window = 2 * len(history) + WINDOW_MARGIN
    pairs = _best_matching(count, window, cost)
    if window < count - 1 and any(met[pair_key(order[i], order[j])] for i, j in pairs):
        pairs = _best_matching(count, count - 1, cost)
    return pairs


def _best_matching(
    count: int, window: int, cost: Callable[[int, int], int]
) -> list[tuple[int, int]]:
    """The perfect matching of places 0..count-1 of least total cost, over pairs at most
    ``window`` places apart."""
    costs = {
        (i, j): cost(i, j) for i in range(count) for j in range(i + 1, min(count, i + window + 1))
    }
    ceiling = max(costs.values()) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(count))
    for (i, j), value in costs.items():
        graph.add_edge(i, j, weight=ceiling - value)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in matched)
