"""Counting a finished game's figures in Redis, once per game, and withdrawing them when a
retraction undoes its finish; each counted game is also rated (``service.stats.ratings.writing``).

The archive job counts the games it archives (``count_many``: one or an import's many at once,
each guarded on its own; ``count_game`` is one game's, from its replay). What a game adds is
``service.stats.game_figures``; here it becomes increments of the hashes ``service.stats.keys``
names, sent to one guarded script (``lua/count.lua``), so a crash or a second run never counts a
game twice, nor half of it. The ratings are called through their module (``ratings.rate_games``),
where the tests replace them to stop a job between its count and its rating.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import orjson
from redis.commands.core import Script

from domain.game import Title
from service.players.store import current, roster_of
from service.stats.game_figures import GameFigures, PlayFigures, figures_of
from service.stats.keys import (
    ALL_COUNTS,
    NAMES_SUFFIX,
    SECTIONS,
    TITLES_SUFFIX,
    YEARS_SUFFIX,
    StatsKeys,
    bucket_suffix,
    game_players_suffix,
    game_suffix,
    name_suffix,
    own_suffix,
    pair_field,
    pair_suffix,
    player_bucket_suffix,
    player_suffix,
    scores_suffix,
    title_suffix,
)
from service.stats.people import all_under_people, under_people
from service.stats.periods import periods_of
from service.stats.ratings import writing as ratings
from service.stats.ratings.model import RatedGame, rated_game_of
from service.store.connection import StoreClient, server_of
from service.store.records import GameRecord
from service.store.scripts import lua_source


def count_game(
    client: StoreClient,
    prefix: str,
    record: GameRecord,
    bodies: Sequence[Mapping[str, Any]],
    states: Sequence[Any],
) -> bool:
    """Add a finished game's figures once, and rate it once (``service.stats.ratings.writing``);
    False if its figures were counted already. Each of the two steps is atomic and guarded on its
    own, so a job killed between them and run again completes the second and repeats neither."""
    return count_figures(client, prefix, figures_of(record, bodies, states))


def count_figures(client: StoreClient, prefix: str, figures: GameFigures) -> bool:
    """``count_game`` once the game's figures are known (the benchmark feeds it made-up ones)."""
    keys = StatsKeys(prefix)
    figures = under_people(figures, roster_of(client, prefix))
    counted = add_figures(client, keys, figures)
    rated = rated_game_of(figures)
    if rated is not None:
        ratings.rate_game(client, keys, rated)
    return counted


def withdraw_figures(client: StoreClient, prefix: str, figures: GameFigures) -> bool:
    """Take a counted game's figures out of the statistics and its result out of the ratings
    (the games rated after it are rated again); False if its figures were not counted. The undo
    of ``count_figures``, guarded as it is: run twice, it withdraws once."""
    keys = StatsKeys(prefix)
    # Under the roster of now: if it changed since the game was counted, the recount it asked
    # for (``workers.roster``) counts everything again anyway.
    figures = under_people(figures, roster_of(client, prefix))
    hashes, args = _count_call(keys, figures, withdraw=True)
    withdrawn = bool(_count_script(client)(keys=hashes, args=args))
    ratings.unrate_game(client, keys, figures.game, figures.game_id)
    return withdrawn


def count_many(client: StoreClient, prefix: str, batch: Sequence[GameFigures]) -> int:
    """``count_figures`` for many games in two round trips (how the archive job counts what it
    archived, and how the benchmark fills its projections): their figures
    (``count_many_figures``), then their ratings in one MULTI per game type
    (``service.stats.ratings.writing.rate_games``). The number of games whose figures were not
    counted already."""
    # The names read as the people they count as, once for the batch.
    batch = all_under_people(batch, roster_of(client, prefix))
    counted = count_many_figures(client, prefix, batch)
    rate_many(client, prefix, batch)
    return counted


def roster_version(client: StoreClient, prefix: str) -> int:
    """The version of the roster the counts read now: a job that counted while it changed asks
    for a recount (``workers.archive``)."""
    return current(client, prefix).version


def recount_due(client: StoreClient, prefix: str) -> None:
    """Mark the figures as counted under no known roster, so that the next recount
    (``rebuild.recount_for_roster``) counts them all again, even one that thinks them up to date:
    games were counted under a roster read before it changed."""
    client.delete(StatsKeys(prefix).roster)


def count_many_figures(client: StoreClient, prefix: str, batch: Sequence[GameFigures]) -> int:
    """The figures of many games in one pipeline, each game still its own guarded script call."""
    keys = StatsKeys(prefix)
    # Every statistics key is in {stats}'s slot: on a cluster, one node takes the whole batch.
    server = server_of(client, keys.counted)
    script = _count_script(server)
    with server.pipeline(transaction=False) as pipe:
        for figures in batch:
            hashes, args = _count_call(keys, figures)
            script(keys=hashes, args=args, client=pipe)
        return sum(map(bool, pipe.execute()))


def rate_many(client: StoreClient, prefix: str, batch: Sequence[GameFigures]) -> None:
    """The ratings of many games, one MULTI per game type; a game rated already is left alone."""
    keys = StatsKeys(prefix)
    by_game: dict[str, list[RatedGame]] = {}
    for figures in batch:
        rated = rated_game_of(figures)
        if rated is not None:
            by_game.setdefault(figures.game, []).append(rated)
    # Each game type's ratings are keys of their own, watched on their own: rated side by side,
    # so that an import's job of a hundred games over dozens of titles waits on Redis for the
    # titles' round trips once, not once a title.
    with ThreadPoolExecutor(_TITLES_AT_ONCE, thread_name_prefix="rate") as titles_at_once:
        list(titles_at_once.map(lambda rated: ratings.rate_games(client, keys, rated),
                                by_game.values()))  # fmt: skip


# How many game types' ratings of one batch are written at once (``rate_many``).
_TITLES_AT_ONCE = 8

# (op, field, amount); op "i" is HINCRBY, "f" HINCRBYFLOAT, "n" HINCRBY unless the sum is a
# float already (score sums only).
Increment = tuple[str, str, str]
# The same increments, added to each of these hashes (by suffix).
Group = tuple[list[str], list[Increment]]


def _count_script(client: StoreClient) -> Script:
    """The count script (``lua/count.lua``: the guard and the increments of one game, in one
    step), registered on ``client``."""
    return client.register_script(lua_source(__package__, "count"))


def add_figures(client: StoreClient, keys: StatsKeys, figures: GameFigures) -> bool:
    """Add one game's figures under ``keys`` (the live root or a rebuild's), unless counted
    already: the count script alone, no rating."""
    hashes, args = _count_call(keys, figures)
    return bool(_count_script(client)(keys=hashes, args=args))


def _count_call(
    keys: StatsKeys, figures: GameFigures, *, withdraw: bool = False
) -> tuple[list[str], list[str]]:
    """The KEYS and ARGV of the count script for one game (to withdraw it: the amounts negated)."""
    groups = [*_figure_groups(figures), *_pair_groups(figures)]
    for player, play in figures.plays.items():
        groups.append(([player_suffix(player)], _play_increments(figures.game, play)))
        groups.append(([own_suffix(player)], _own_increments(figures, play)))
    groups.append(([YEARS_SUFFIX], [("i", str(figures.day.year), "1")]))
    groups += _name_groups(figures)
    if figures.title is not None:
        groups += _title_groups(figures, figures.title)
    # A group that adds nothing (the score histogram of a game without points) names no key:
    # the index must name only keys that exist, for the rebuild renames each one it names.
    groups = [(hashes, increments) for hashes, increments in groups if increments]
    suffixes = list(dict.fromkeys(suffix for hashes, _ in groups for suffix in hashes))
    position = {suffix: number for number, suffix in enumerate(suffixes, start=3)}
    encoded = [
        (
            [position[suffix] for suffix in hashes],
            [_negated(one) for one in increments] if withdraw else increments,
        )
        for hashes, increments in groups
    ]
    # orjson: the script decodes the same groups from it (UTF-8, as json.dumps(ensure_ascii=False)
    # gives them) at a fraction of json's cost, for a few hundred increments a game.
    args = [figures.game_id, orjson.dumps(encoded).decode()]
    if withdraw:
        args.append("withdraw")
    return [keys.counted, keys.index, *map(keys.key, suffixes)], args


def _negated(increment: Increment) -> Increment:
    op, name, amount = increment
    if op == "s":
        return increment
    return op, name, repr(-float(amount)) if op == "f" else str(-int(amount))


def _title_groups(figures: GameFigures, title: Title) -> list[Group]:
    """A game of a title: one more game of its key, and its spelling kept under its id."""
    kept = {
        "title": title.name,
        "bgg_id": title.bgg_id,
        "finished_at": figures.finished_at,
        "rules": figures.rules,
    }
    return [
        ([TITLES_SUFFIX], [("i", title.key, "1")]),
        ([title_suffix(title.key)], [("s", figures.game_id, json.dumps(kept, ensure_ascii=False))]),
    ]


def _name_groups(figures: GameFigures) -> list[Group]:
    """The names as the record wrote them (not the people they count as): one more game of
    each, and the game kept under each (``service.stats.names``)."""
    names = list(dict.fromkeys(figures.names or figures.players))
    kept = json.dumps(
        {"game": figures.game, "finished_at": figures.finished_at, "names": names},
        ensure_ascii=False,
    )
    return [
        ([NAMES_SUFFIX], [("i", name, "1") for name in names]),
        *(([name_suffix(name)], [("s", figures.game_id, kept)]) for name in names),
    ]


def _figure_groups(figures: GameFigures) -> list[Group]:
    """The game's totals, score histogram and plays, each added to the game's all-time hash, to
    its bucket of each period (its day, month, year) for its player count and for all counts,
    and to the same buckets (its player count's) of each of its players (the games that player
    played in)."""
    seats = len(figures.players)
    periods = periods_of(figures.day)
    plays: list[Increment] = []
    for player, play in figures.plays.items():
        plays += _play_increments(player, play)
    increments = {
        "totals": [("i", total, str(amount)) for total, amount in figures.totals.items()],
        "scores": [("i", score, str(seats_)) for score, seats_ in figures.scores.items()],
        "players": plays,
    }
    all_time = {
        "totals": game_suffix(figures.game),
        "scores": scores_suffix(figures.game),
        "players": game_players_suffix(figures.game),
    }
    groups: list[Group] = []
    for section in SECTIONS:
        hashes = [all_time[section]]
        for period in periods:
            hashes.append(bucket_suffix(figures.game, seats, period, section))
            hashes.append(bucket_suffix(figures.game, ALL_COUNTS, period, section))
            hashes += [
                player_bucket_suffix(figures.game, seats, period, section, player)
                for player in figures.plays
            ]
        groups.append((hashes, increments[section]))
    return groups


def _play_increments(name: str, play: PlayFigures) -> list[Increment]:
    increments = [("i", f"games:{name}", str(play.games))]
    if play.wins:
        increments.append(("i", f"wins:{name}", str(play.wins)))
    # The plays no number was written for: what a mean score leaves out. Written only when
    # some are, as the wins (a game with rules never has any).
    if play.unscored:
        increments.append(("i", f"unscored:{name}", str(play.unscored)))
    if play.scored:
        # A whole score is added as an integer ("n"): cheaper than a float, and exact.
        score_op = "n" if isinstance(play.score, int) else "f"
        increments.append((score_op, f"score:{name}", repr(play.score)))
    return increments


def _own_increments(figures: GameFigures, play: PlayFigures) -> list[Increment]:
    """A player's own figures in their ``own`` hash, per period, for the game's player count
    and for all counts: the ``games``, ``wins``, ``unscored`` and ``score`` of
    ``_play_increments``."""
    # The kinds told once, not once per period and count (the archive job builds these for
    # every player of a hundred games a job).
    kinds = [
        (op, kind.removesuffix(":"), amount) for op, kind, amount in _play_increments("", play)
    ]
    increments: list[Increment] = []
    for period in periods_of(figures.day):
        for count in (len(figures.players), ALL_COUNTS):
            for op, kind, amount in kinds:
                increments.append((op, pair_field(figures.game, count, period, kind), amount))
    return increments


def _pair_groups(figures: GameFigures) -> list[Group]:
    """Head to head: per pair of names in the game, one game in each period, and each one's
    win."""
    won = {figures.players[seat] for seat in figures.winners}
    names = sorted(set(figures.players))
    seats = len(figures.players)
    # The fields of each period and count, the same for every pair: named once.
    fields = [
        (
            pair_field(figures.game, count, period, "games"),
            (
                pair_field(figures.game, count, period, "wins:0"),
                pair_field(figures.game, count, period, "wins:1"),
            ),
        )
        for period in periods_of(figures.day)
        for count in (seats, ALL_COUNTS)
    ]
    groups: list[Group] = []
    for first, a in enumerate(names):
        for b in names[first + 1 :]:
            increments: list[Increment] = []
            for games, wins in fields:
                increments.append(("i", games, "1"))
                for number, name in enumerate((a, b)):
                    if name in won:
                        increments.append(("i", wins[number], "1"))
            groups.append(([pair_suffix(a, b)], increments))
    return groups
