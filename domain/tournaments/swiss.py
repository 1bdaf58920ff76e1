"""Swiss pairing for games of two: one maximum-weight matching over the players still in.

The players stand in the order of the standings (round 1: all level, so the seed's draw). With an
odd number the lowest placed of those with the fewest byes sits out. The others are paired by a
maximum-weight perfect matching whose weights rank every possible pairing by, in this order:
  1. the fewest rematches (a pair that met k times costs k), so a rematch happens only when no
     pairing of the whole round avoids it;
  2. the least mixing of points: the sum over tables of (groups apart)², where the groups are the
     distinct point totals, so players meet within their group and those left over meet the
     nearest group;
  3. the fewest tables of two players due the same seat (both due to play first, or both
     second: one of them would not alternate);
  4. the closest places: the sum of (places apart)², which pairs 1-2, 3-4, ... (leaders meet).
Each criterion's weight exceeds what the ones after it can add up to over a whole round, so the
matching's optimum is the lexicographic optimum.

networkx's matching (Edmonds' blossom algorithm) takes integer weights and nodes numbered by
place, so it computes exactly and in the same order on any machine. It weighs the pairs that
have not met first, and every pair only when those cannot seat everyone. Up to 100 players it
weighs every pair that has not met at once; beyond, to stay under a second at 256 players, those
a few places apart first, widening the window while they cannot seat everyone: rematches are
still avoided exactly, and the points are mixed as little as within the window.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import networkx as nx

from domain.tournaments.meetings import (
    FirstSeats,
    first_seats,
    meetings,
    pair_key,
    seat_due,
    who_plays_first,
)
from domain.tournaments.model import Pairing, PlayedRound, Table
from domain.tournaments.points import byes_had, standings

# Up to this many players the matching weighs every pair at once (about 0.15 s at 100 players).
EVERY_PAIR_UP_TO = 100
# Beyond, it first weighs the pairs at most (rounds played / 2 + WINDOW_MARGIN) places apart
# (_first_window) that have not met, which nearly always seat everyone. If they do not, the
# window doubles until they do, or until it holds every pair, rematches included.
WINDOW_MARGIN = 6


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
    seats_so_far = first_seats(history)
    pairs = _matched_pairs(order, points, history, seats_so_far)
    tables = tuple(
        Table(who_plays_first(order[i], order[j], number, seats_so_far))
        for number, (i, j) in enumerate(pairs, start=1)
    )
    return Pairing(tables=tables, byes=byes)


def _matched_pairs(
    order: Sequence[str],
    points: dict[str, Fraction],
    history: Sequence[PlayedRound],
    seats_so_far: FirstSeats,
) -> list[tuple[int, int]]:
    """Pairs of places (i < j), sorted by the higher place: the best pairing of the round."""
    count = len(order)
    if count == 0:
        return []
    met = meetings(history)
    totals = sorted({points[name] for name in order}, reverse=True)
    group = [totals.index(points[name]) for name in order]
    due = [seat_due(name, seats_so_far) for name in order]

    def criteria(i: int, j: int) -> tuple[int, int, int, int]:
        """What a table of places i < j costs, criterion by criterion, most important first."""
        return (
            met[pair_key(order[i], order[j])],
            (group[i] - group[j]) ** 2,
            1 if due[i] != 0 and due[i] == due[j] else 0,
            (j - i) ** 2,
        )

    window = count - 1 if count <= EVERY_PAIR_UP_TO else _first_window(len(history))
    while True:
        # Only pairs that have not met: if they seat everyone, that is the best pairing of the
        # window (the best has no rematch then), found over fewer pairs.
        pairs = _best_matching(count, window, criteria, rematches=False)
        if pairs is not None:
            return pairs
        if window >= count - 1:
            break
        window = min(window * 2, count - 1)
    every_pair = _best_matching(count, count - 1, criteria, rematches=True)
    assert every_pair is not None  # every pair weighed: someone can always sit with anyone
    return every_pair


def _first_window(played: int) -> int:
    """A window of w places holds 2w players around each one (w above, w below), and a player
    has met at most one a round: played // 2 + WINDOW_MARGIN leaves at least 12 new ones."""
    return played // 2 + WINDOW_MARGIN


def _best_matching(
    count: int,
    window: int,
    criteria: Callable[[int, int], tuple[int, ...]],
    rematches: bool,
) -> list[tuple[int, int]] | None:
    """The perfect matching of places 0..count-1 (count even) whose criteria, summed over its
    tables, are the least in lexicographic order, over pairs at most ``window`` places apart
    (and, unless ``rematches``, that have not met; the first criterion counts meetings). None
    if those pairs cannot seat everyone."""
    edges = {
        (i, j): criteria(i, j)
        for i in range(count)
        for j in range(i + 1, min(count, i + window + 1))
    }
    if not rematches:
        edges = {pair: values for pair, values in edges.items() if values[0] == 0}
    if not edges:
        return None
    costs = _lexicographic_costs(edges, tables=count // 2)
    ceiling = max(costs.values()) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(count))
    for (i, j), value in costs.items():
        graph.add_edge(i, j, weight=ceiling - value)
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matched) * 2 < count:
        return None
    return sorted((min(a, b), max(a, b)) for a, b in matched)


def _lexicographic_costs(
    edges: dict[tuple[int, int], tuple[int, ...]], tables: int
) -> dict[tuple[int, int], int]:
    """One integer per pair, such that a pairing's total orders pairings as their criteria's
    totals do, lexicographically: each criterion's unit outweighs the most every later criterion
    can add up over a round's tables. Bounds from the pairs at hand keep the numbers small, and
    the matching is faster on smaller numbers."""
    size = len(next(iter(edges.values())))
    units = [0] * size
    most_after = 0
    for k in reversed(range(size)):
        units[k] = most_after + 1
        most_after += tables * max(values[k] for values in edges.values()) * units[k]
    return {
        pair: sum(unit * value for unit, value in zip(units, values, strict=True))
        for pair, values in edges.items()
    }
