"""Statistics you can query: filters, head to head and ratings, against independent computations.

Games are the random Mada playouts of test_stats.py, each given its own ``finished_at`` (days
either side of month and year ends), counted in a shuffled order as archive jobs would. The
figures are checked against sums made here in plain Python over the games the filter keeps, and
the ratings against OpenSkill applied here to the games' results in the order they finished (a
tie by the update averaged over its orders).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from datetime import date, datetime
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import redis
from flask.testing import FlaskClient
from openskill.models import PlackettLuce

from service.stats.counting import count_many
from service.stats.game_figures import figures_of
from service.stats.keys import StatsKeys
from service.stats.periods import DayFilter, periods_between
from service.stats.ratings import writing as ratings_module
from service.stats.ratings.model import RatedGame
from service.stats.ratings.ties import rate_with_ties
from service.stats.reading import StatsFilter, game_stats, player_stats, versus_stats
from service.stats.rebuild import rebuild_stats
from service.store.connection import StoreClient
from tests.conftest import make_app
from tests.finished_games import Played, play
from tests.support.stats import (
    NAMES,
    approx_json,
    archive,
    count,
    every_stats_key,
    expected_game_stats,
    expected_player,
)

FINISHED_AT = [
    "2024-12-31T23:59:59.999Z",
    "2025-01-01T00:00:00.000Z",
    "2025-01-15T09:30:00.000Z",
    "2025-01-31T18:00:00.000Z",
    "2025-02-01T08:00:00.000Z",
    "2025-03-15T12:00:00.000Z",
    "2025-12-31T23:00:00.000Z",
    "2026-01-01T00:00:01.000Z",
]


@pytest.fixture
def real_redis(store_redis: StoreClient) -> StoreClient:
    """This module's tests run on the plain Redis, then on the cluster (tests/conftest.py)."""
    return store_redis


def finished(played: Played, finished_at: str) -> Played:
    return dataclasses.replace(
        played, record=dataclasses.replace(played.record, finished_at=finished_at)
    )


def dated_games(count_: int = 24, seed: int = 2026) -> list[Played]:
    """Games of 2 to 5 of NAMES, finished on the days of FINISHED_AT (some at the same moment,
    so that the id breaks the tie), listed in the order they finished."""
    rng = random.Random(seed)
    games = []
    for number in range(count_):
        players = rng.sample(NAMES, rng.randint(2, 5))
        played = play(100 + number, players, first_player=rng.randrange(len(players)))
        games.append(finished(played, FINISHED_AT[number % len(FINISHED_AT)]))
    return sorted(games, key=finish_key)


def finish_key(played: Played) -> tuple[datetime, str]:
    assert played.record.finished_at is not None
    return datetime.fromisoformat(played.record.finished_at), played.record.id


def count_shuffled(client: redis.Redis, prefix: str, games: list[Played], seed: int = 7) -> None:
    """Count the games in another order than they finished: many are archived late."""
    shuffled = list(games)
    random.Random(seed).shuffle(shuffled)
    for played in shuffled:
        assert count(client, prefix, played) is True


def day_of(played: Played) -> date:
    assert played.record.finished_at is not None
    return datetime.fromisoformat(played.record.finished_at).date()


def kept(
    games: list[Played],
    players: int | None = None,
    player: str | None = None,
    since: date | None = None,
    until: date | None = None,
) -> list[Played]:
    """The games a filter keeps, told here from the records alone."""
    return [
        g
        for g in games
        if (players is None or len(g.record.players) == players)
        and (player is None or player in g.record.players)
        and (since is None or day_of(g) >= since)
        and (until is None or day_of(g) <= until)
    ]


FILTERS: list[dict[str, Any]] = [
    {"players": 3},
    {"player": "Ana"},
    {"player": "Zoé: the 2nd", "players": 4},
    {"since": date(2025, 1, 1), "until": date(2025, 12, 31)},
    {"since": date(2025, 1, 15)},
    {"until": date(2025, 1, 31)},
    {"since": date(2024, 12, 31), "until": date(2025, 2, 1)},
    {"since": date(2025, 1, 16), "until": date(2025, 3, 14)},
    {"players": 2, "player": "Ben", "since": date(2025, 1, 1), "until": date(2026, 1, 1)},
    {"since": date(2030, 1, 1)},
]


def stats_filter(players: Any = None, player: Any = None, since: Any = None, until: Any = None):
    return StatsFilter(players=players, player=player, days=DayFilter(since, until))


def test_ranges_are_covered_by_whole_years_months_and_days_each_day_once() -> None:
    def days_of(period: str) -> set[date]:
        if period.startswith("Y"):
            first, last = date(int(period[1:]), 1, 1), date(int(period[1:]), 12, 31)
        elif period.startswith("M"):
            year, month = map(int, period[1:].split("-"))
            first = date(year, month, 1)
            last = date(year + month // 12, month % 12 + 1, 1).replace(day=1)
            last = date.fromordinal(last.toordinal() - 1)
        else:
            first = last = date.fromisoformat(period[1:])
        return {date.fromordinal(n) for n in range(first.toordinal(), last.toordinal() + 1)}

    rng = random.Random(1)
    for _ in range(200):
        since = date.fromordinal(date(2023, 1, 1).toordinal() + rng.randrange(900))
        until = date.fromordinal(since.toordinal() + rng.randrange(800))
        periods = periods_between(since, until)
        covered = [day for period in periods for day in days_of(period)]
        assert len(covered) == len(set(covered))
        assert set(covered) == days_of(f"D{since}") | {
            date.fromordinal(n) for n in range(since.toordinal(), until.toordinal() + 1)
        }
        # A year's range is at most ~70 buckets, whatever it holds.
        assert len(periods) <= 75
    assert periods_between(date(2025, 1, 1), date(2025, 12, 31)) == ["Y2025"]
    assert periods_between(date(2025, 2, 1), date(2025, 2, 28)) == ["M2025-02"]
    assert periods_between(date(2025, 2, 2), date(2025, 2, 1)) == []


@pytest.mark.parametrize("query", FILTERS)
def test_filtered_game_figures_match_a_plain_sum_of_the_games_kept(
    real_redis: redis.Redis, key_prefix: str, query: dict[str, Any]
) -> None:
    games = dated_games()
    count_shuffled(real_redis, key_prefix, games)
    expected = expected_game_stats(kept(games, **query))
    assert game_stats(real_redis, key_prefix, "mada", stats_filter(**query)) == approx_json(
        expected
    )


@pytest.mark.parametrize("query", [q for q in FILTERS if "player" not in q])
def test_filtered_player_figures_match_a_plain_sum(
    real_redis: redis.Redis, key_prefix: str, query: dict[str, Any]
) -> None:
    games = dated_games()
    count_shuffled(real_redis, key_prefix, games)
    for name in NAMES:
        figures = player_stats(real_redis, key_prefix, name, stats_filter(**query))
        assert figures == approx_json(expected_player(kept(games, **query), name))


def expected_versus(games: list[Played], a: str, b: str) -> dict[str, Any]:
    met = [g for g in games if a in g.record.players and b in g.record.players]
    wins = {a: 0, b: 0}
    for g in met:
        for name in (a, b):
            wins[name] += g.record.players.index(name) in g.record.result["winners"]
    by_game = {"mada": {"games": len(met), "wins": dict(wins)}} if met else {}
    return {"players": [a, b], "games": len(met), "wins": wins, "by_game": by_game}


@pytest.mark.parametrize("query", [{}, *(q for q in FILTERS if "player" not in q)])
def test_head_to_head_matches_a_plain_count(
    real_redis: redis.Redis, key_prefix: str, query: dict[str, Any]
) -> None:
    games = dated_games()
    count_shuffled(real_redis, key_prefix, games)
    for a in NAMES:
        for b in NAMES:
            if a != b:
                found = versus_stats(real_redis, key_prefix, a, b, stats_filter(**query))
                assert found == expected_versus(kept(games, **query), a, b)
    # A game of another kind: nothing in Mada's games.
    empty = versus_stats(real_redis, key_prefix, "Ana", "Ben", stats_filter(), "sifaka")
    assert empty == {"players": ["Ana", "Ben"], "games": 0, "wins": {"Ana": 0, "Ben": 0},
                     "by_game": {}}  # fmt: skip


# --- ratings -----------------------------------------------------------------------------------


def expected_ratings(games: list[Played]) -> tuple[dict[str, list[float]], dict[str, list]]:
    """OpenSkill applied here, game by game in finish order: each player's [mu, sigma, games]
    at the end, and their history (game id, mu, sigma) after each of their games."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    played: dict[str, int] = {}
    history: dict[str, list] = {}
    for g in sorted(games, key=finish_key):
        result = g.record.result
        assert result is not None
        winners, scores = result["winners"], result["scores"]
        below = sorted({s for seat, s in enumerate(scores) if seat not in winners}, reverse=True)
        ranks = [1 if seat in winners else 2 + below.index(s) for seat, s in enumerate(scores)]
        teams = [[ratings.get(name) or model.rating()] for name in g.record.players]
        if len(set(ranks)) < len(ranks):
            # A tie: the update averaged over its orders (tests/service/test_rating_ties.py
            # holds it to the tie properties), which OpenSkill does not offer.
            skills = [[(one.mu, one.sigma) for one in team] for team in teams]
            rated = [[model.rating(mu=mu, sigma=sigma) for mu, sigma in team]
                     for team in rate_with_ties(model, skills, ranks)]  # fmt: skip
        else:
            rated = model.rate(teams, ranks=ranks)
        for name, [after] in zip(g.record.players, rated, strict=True):
            ratings[name] = after
            played[name] = played.get(name, 0) + 1
            history.setdefault(name, []).append((g.record.id, after.mu, after.sigma))
    final = {name: [r.mu, r.sigma, played[name]] for name, r in ratings.items()}
    return final, history


def board_of(http: FlaskClient, limit: int = 2) -> list[dict[str, Any]]:
    """Every page of /ratings/mada, followed by its cursors."""
    rows: list[dict[str, Any]] = []
    cursor = ""
    while True:
        response = http.get(f"/ratings/mada?limit={limit}&cursor={cursor}")
        assert response.status_code == 200, response.json
        rows += response.json["ratings"]
        cursor = response.json["next_cursor"]
        if cursor is None:
            return rows


@pytest.fixture
def http(real_redis: redis.Redis, key_prefix: str, tmp_path: Path) -> FlaskClient:
    return make_app(real_redis, key_prefix, DATA_DIR=str(tmp_path)).test_client()


def test_ratings_are_openskill_in_the_order_games_finished_whatever_the_archive_order(
    http: FlaskClient, real_redis: redis.Redis, key_prefix: str
) -> None:
    games = dated_games()
    # Shuffled: most games are archived after some that finished after them.
    count_shuffled(real_redis, key_prefix, games)
    final, history = expected_ratings(games)
    board = board_of(http)
    assert [row["player"] for row in board] == sorted(
        final, key=lambda name: final[name][0] - 3 * final[name][1], reverse=True
    )
    for row in board:
        mu, sigma, played = final[row["player"]]
        # The same floats: the same model, the same inputs, in the same order.
        assert (row["mu"], row["sigma"], row["games"]) == (mu, sigma, played)
        assert row["rating"] == mu - 3 * sigma
    for name in NAMES:
        body = http.get(f"/players/{name}/stats").json
        mu, sigma, played = final[name]
        assert body["ratings"] == {
            "mada": {"rating": mu - 3 * sigma, "mu": mu, "sigma": sigma, "games": played}
        }
        points = http.get(f"/players/{name}/ratings/mada/history").json["history"]
        assert [(p["game_id"], p["mu"], p["sigma"]) for p in points] == history[name]
        assert [p["games"] for p in points] == list(range(1, played + 1))
        finished_ats = [p["finished_at"] for p in points]
        assert finished_ats == sorted(finished_ats)


def test_a_game_archived_late_leaves_the_ratings_of_finish_order(
    http: FlaskClient, real_redis: redis.Redis, key_prefix: str
) -> None:
    a = finished(play(301, ["Ana", "Ben", "Caro"]), "2025-01-01T10:00:00.000Z")
    b = finished(play(302, ["Ben", "Caro", "Dan"]), "2025-01-01T11:00:00.000Z")
    c = finished(play(303, ["Ana", "Dan"]), "2025-01-02T11:00:00.000Z")
    in_order = make_app(real_redis, key_prefix + "in-order:").test_client()
    for played in (a, b, c):
        count(real_redis, key_prefix + "in-order:", played)
    # B, which finished after A, is archived first; then C, then A.
    for played in (b, c, a):
        count(real_redis, key_prefix, played)
    assert board_of(http) == board_of(in_order)
    for name in ("Ana", "Ben", "Caro", "Dan"):
        path = f"/players/{name}/ratings/mada/history"
        assert http.get(path).json == in_order.get(path).json
    assert len(http.get("/players/Ben/ratings/mada/history").json["history"]) == 2


def test_rebuild_gives_identical_figures_and_ratings(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    games = dated_games(16)
    archive(games, tmp_path)
    count_shuffled(real_redis, key_prefix, games, seed=3)
    live = every_stats_key(real_redis, key_prefix)
    assert any(":ratings:mada:board" in key for key in live)
    assert rebuild_stats(real_redis, key_prefix, tmp_path) == 16
    # Every key, ratings included, float for float.
    assert every_stats_key(real_redis, key_prefix) == live


def test_a_job_interrupted_between_figures_and_ratings_then_rerun_counts_once(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    games = dated_games(6)
    for played in games:
        count(real_redis, key_prefix, played)
    whole = every_stats_key(real_redis, key_prefix)
    for key in real_redis.scan_iter(match=f"{key_prefix}*"):
        real_redis.delete(key)

    failing = mock.patch.object(ratings_module, "rate_game", side_effect=ConnectionError)
    for played in games:
        with failing, pytest.raises(ConnectionError):
            count(real_redis, key_prefix, played)
    # The figures are in, the ratings not: the job's next run rates each game, once.
    assert game_stats(real_redis, key_prefix, "mada")["games"] == 6
    for played in games:
        assert count(real_redis, key_prefix, played) is False
        assert count(real_redis, key_prefix, played) is False
    assert every_stats_key(real_redis, key_prefix) == whole


# --- over HTTP ---------------------------------------------------------------------------------


def test_filters_over_http(http: FlaskClient, real_redis: redis.Redis, key_prefix: str) -> None:
    games = dated_games()
    count_shuffled(real_redis, key_prefix, games)
    query = "players=3&since=2025-01-01&until=2025-12-31"
    response = http.get(f"/stats/mada?{query}")
    assert response.status_code == 200
    wanted = kept(games, players=3, since=date(2025, 1, 1), until=date(2025, 12, 31))
    figures = response.json
    assert figures.pop("filters") == {"players": 3, "since": "2025-01-01", "until": "2025-12-31"}
    assert figures == approx_json(expected_game_stats(wanted))

    body = http.get("/players/Ana/stats?until=2025-01-31").json
    assert body.pop("ratings").keys() == {"mada"}
    assert body.pop("filters") == {"until": "2025-01-31"}
    assert body.pop("names") == ["Ana"]
    assert body == approx_json(expected_player(kept(games, until=date(2025, 1, 31)), "Ana"))

    versus = http.get("/players/Ana/versus/Ben?game=mada&since=2025-02-01")
    assert versus.status_code == 200
    head_to_head = versus.json
    assert head_to_head.pop("filters") == {"game": "mada", "since": "2025-02-01"}
    assert head_to_head == expected_versus(kept(games, since=date(2025, 2, 1)), "Ana", "Ben")


def test_a_player_whose_name_holds_a_slash_is_reachable_by_every_player_route(
    http: FlaskClient, real_redis: redis.Redis, key_prefix: str
) -> None:
    # Names may hold "/", even first; a client percent-encodes it, and the server decodes it back
    # before routing, as every WSGI server does.
    games = [
        finished(play(seed, ["A/B", "/C"]), f"2025-03-0{seed}T10:00:00Z") for seed in (1, 2, 3)
    ]
    count_shuffled(real_redis, key_prefix, games)

    for name in ("A%2FB", "%2FC"):
        body = http.get(f"/players/{name}/stats").json
        assert body["ratings"].keys() == {"mada"}, body
        assert body["games"] == 3
        history = http.get(f"/players/{name}/ratings/mada/history")
        assert history.status_code == 200, history.json
        assert len(history.json["history"]) == 3
    assert http.get("/players/%2FC/stats").json["player"] == "/C"
    versus = http.get("/players/A%2FB/versus/%2FC")
    assert versus.status_code == 200, versus.json
    assert versus.json == {**expected_versus(games, "A/B", "/C"), "filters": {}}
    reverse = http.get("/players/%2FC/versus/A%2FB")
    assert reverse.status_code == 200, reverse.json
    assert reverse.json == {**expected_versus(games, "/C", "A/B"), "filters": {}}
    # Not a name: nothing between the slashes.
    assert http.get("/players//stats").status_code == 404


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/stats/mada?since=2025-13-01", "since"),
        ("/stats/mada?since=2025-02-30", "since"),
        ("/stats/mada?until=25-01-01", "until"),
        ("/stats/mada?until=2025-01-01T00:00:00", "until"),
        ("/stats/mada?since=2025-03-01&until=2025-02-01", "since"),
        ("/stats/mada?players=0", "players"),
        ("/stats/mada?players=abc", "players"),
        ("/stats/mada?players=21", "players"),
        ("/stats/mada?player=", "player"),
        ("/players/Ana/stats?players=-1", "players"),
        ("/players/Ana/stats?since=yesterday", "since"),
        ("/players/Ana/versus/Ben?game=chess", "game"),
        ("/players/Ana/versus/Ana", "b"),
        ("/players/Ana/versus/Ben?until=2025-1-1", "until"),
        ("/ratings/mada?limit=0", "limit"),
        ("/ratings/mada?cursor=abc", "cursor"),
    ],
)
def test_a_malformed_filter_is_a_400_naming_it(http: FlaskClient, path: str, field: str) -> None:
    response = http.get(path)
    assert response.status_code == 400, response.json
    error = response.json["error"]
    assert error["code"] == "invalid_request"
    assert field in error["details"] or field in error["message"], error


@pytest.mark.parametrize(
    "path", ["/stats/chess?players=2", "/ratings/chess", "/players/Ana/ratings/chess/history"]
)
def test_a_game_named_in_the_path_that_does_not_exist_is_not_found(
    http: FlaskClient, path: str
) -> None:
    response = http.get(path)
    assert response.status_code == 404
    assert response.json["error"]["code"] == "not_found"


def test_nothing_rated_yet(http: FlaskClient) -> None:
    assert http.get("/ratings/sifaka").json == {"ratings": [], "next_cursor": None}
    assert http.get("/players/Ana/ratings/mada/history").json == {
        "player": "Ana",
        "game": "mada",
        "history": [],
    }


def test_counting_in_batches_gives_the_figures_and_ratings_of_one_game_at_a_time(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    games = dated_games()
    count_shuffled(real_redis, key_prefix + "one:", games)
    shuffled = list(games)
    random.Random(7).shuffle(shuffled)
    figures = [figures_of(g.record, g.bodies, g.states) for g in shuffled]
    # Batches that overlap in time: games of a later batch finished before some already rated.
    many = key_prefix + "many:"
    assert count_many(real_redis, many, figures[:5]) == 5
    assert count_many(real_redis, many, figures[3:10]) == 5
    assert count_many(real_redis, many, figures) == len(games) - 10
    assert count_many(real_redis, many, figures) == 0

    def under(prefix: str) -> dict[str, Any]:
        dump = every_stats_key(real_redis, prefix)
        return {key.removeprefix(prefix): value for key, value in dump.items()}

    assert under(many) == under(key_prefix + "one:")
    assert under(many)["{stats}:ratings:mada:board"]


def test_equal_ratings_are_listed_by_name_ascending_across_pages(
    http: FlaskClient, real_redis: redis.Redis, key_prefix: str
) -> None:
    keys = StatsKeys(key_prefix)
    at = "2025-01-01T00:00:00.000Z"
    # A shared victory leaves both players equal; so does the same result between strangers.
    for game_id, players, ranks in [
        ("g1", ("Zoé", "Ana"), (1, 1)),
        ("g2", ("Dan", "Caro"), (1, 2)),
        ("g3", ("Ben", "Eve"), (1, 2)),
    ]:
        ratings_module.rate_game(
            real_redis, keys, RatedGame("mada", game_id, at, players, ranks)
        )
    board = board_of(http, limit=1)
    assert [row["player"] for row in board] == ["Ben", "Dan", "Ana", "Zoé", "Caro", "Eve"]
    ratings = [row["rating"] for row in board]
    assert ratings == sorted(ratings, reverse=True)
    assert ratings[0] == ratings[1] and ratings[2] == ratings[3] and ratings[4] == ratings[5]


def test_the_buckets_of_all_player_counts_hold_the_sum_over_player_counts(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    """Game buckets (a key per bucket), head to head and a player's own figures (a field per
    bucket): the figures of ``all`` are those of every player count added up."""
    count_shuffled(real_redis, key_prefix, dated_games())
    dump = every_stats_key(real_redis, key_prefix)
    sums: dict[str, Counter[str]] = {}
    every_count: dict[str, Counter[str]] = {}
    for key, fields in dump.items():
        suffix = key.removeprefix(f"{key_prefix}{{stats}}:")
        if suffix.startswith("fig:"):
            family, game, count_, rest = suffix.split(":", 3)
            target = every_count if count_ == "all" else sums
            bucket = target.setdefault(f"{family}:{game}:{rest}", Counter())
            bucket.update({name: float(value) for name, value in fields.items()})
        elif suffix.startswith(("vs:", "own:")):
            for name, value in fields.items():
                game, count_, rest = name.split(":", 2)
                target = every_count if count_ == "all" else sums
                target.setdefault(suffix, Counter())[f"{game}:{rest}"] += float(value)
    assert every_count == sums
    assert {bucket.split(":")[0] for bucket in sums} == {"fig", "vs", "own"}
