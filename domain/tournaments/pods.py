"""Pods: tables of several players (3 to 5, say), as many rounds as planned.

Sizes: the fewest tables that seat everyone within [least, most], as even as can be. Players go
to the tables in the order of the standings (leaders together: equal points sit together), then
swaps of two players of equal points between tables lower the repeated meetings while any swap
does; last, each table's seats are drawn from the seed ("seats", the round).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from domain.tournaments.draws import generator
from domain.tournaments.meetings import meetings, pair_key
from domain.tournaments.model import Pairing, PlayedRound, Table, TournamentError
from domain.tournaments.points import standings


def pod_sizes(players: int, least: int, most: int) -> tuple[int, ...]:
    if least < 2 or most < least:
        raise TournamentError(f"tables of {least} to {most} players cannot be")
    tables = -(-players // most)  # the fewest tables of at most `most`
    if players < least or tables * least > players:
        raise TournamentError(
            f"{players} players cannot sit at tables of {least} to {most}"
            if least != most
            else f"{players} players cannot sit at tables of {least}"
        )
    base, extra = divmod(players, tables)
    return (base + 1,) * extra + (base,) * (tables - extra)


def pair_pods(
    players: Sequence[str],
    active: Sequence[str],
    history: Sequence[PlayedRound],
    seed: int,
    table_size: tuple[int, int],
) -> Pairing:
    least, most = table_size
    still_in = set(active)
    table = standings(players, history, seed)
    order = [s.player for s in table if s.player in still_in]
    points = {s.player: s.points for s in table}
    sizes = pod_sizes(len(order), least, most)
    groups: list[list[str]] = []
    start = 0
    for size in sizes:
        groups.append(order[start : start + size])
        start += size
    _fewer_repeats(groups, points, meetings(history))
    rng = generator(seed, "seats", len(history) + 1)
    tables = []
    for group in groups:
        seats, rng = rng.shuffled(group)
        tables.append(Table(seats))
    return Pairing(tables=tuple(tables), byes=())


def _repeats(group: Sequence[str], met: Counter[tuple[str, str]]) -> int:
    return sum(met[pair_key(a, b)] for i, a in enumerate(group) for b in group[i + 1 :])


def _fewer_repeats(
    groups: list[list[str]], points: dict[str, Fraction], met: Counter[tuple[str, str]]
) -> None:
    """Swap two players of equal points at different tables, in place, while a swap lowers the
    repeated meetings of the two tables. The tables were filled in the order of the standings,
    so players of equal points sit at neighbouring tables, and a swap mixes no points. Each swap
    lowers the round's total of repeats, so it ends."""
    if not met:
        return
    improved = True
    while improved:
        improved = False
        for k, upper in enumerate(groups):
            for lower in groups[k + 1 :]:
                if min(points[name] for name in upper) > max(points[name] for name in lower):
                    break  # every later table stands lower still: no equal points there
                improved |= _swap_if_fewer(upper, lower, points, met)


def _swap_if_fewer(
    upper: list[str],
    lower: list[str],
    points: dict[str, Fraction],
    met: Counter[tuple[str, str]],
) -> bool:
    swapped = False
    for i in range(len(upper)):
        for j in range(len(lower)):
            if points[upper[i]] != points[lower[j]]:
                continue
            before = _repeats(upper, met) + _repeats(lower, met)
            upper[i], lower[j] = lower[j], upper[i]
            if _repeats(upper, met) + _repeats(lower, met) < before:
                swapped = True
            else:
                upper[i], lower[j] = lower[j], upper[i]
    return swapped
