"""Statistics of finished games: counted once, equal to an independent count, rebuilt identically.

Games are random playouts of Mada with the domain; their records are made by hand, finished, with
the result the final state gives. The figures the projections show are checked against figures
counted here from the same games without the module's help.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

import pytest
import redis
from click.testing import CliRunner
from flask.testing import FlaskClient

from cli.stats import stats as stats_command
from service.stats.api import stats as stats_blueprint
from service.stats.counting import count_game
from service.stats.game_figures import StatsError, figures_of, replay_states
from service.stats.keys import StatsKeys
from service.stats.reading import game_stats, player_stats
from service.stats.rebuild import COUNTING, rebuild_stats, recount_when_counted_otherwise
from service.store.archive import Archive, archive_document
from service.store.connection import StoreClient
from tests.conftest import make_app
from tests.finished_games import GAME, Played, play
from tests.support.stats import (
    NAMES,
    approx_json,
    archive,
    count,
    every_stats_key,
    expected_game_stats,
    expected_player,
)


@pytest.fixture
def real_redis(store_redis: StoreClient) -> StoreClient:
    """This module's tests run on the plain Redis, then on the cluster (tests/conftest.py)."""
    return store_redis


def some_games(count: int = 8) -> list[Played]:
    """Games of 2 to 5 players, seated in varied orders, with varied first players."""
    rng = random.Random(2025)
    games = []
    for seed in range(count):
        players = rng.sample(NAMES, rng.randint(2, 5))
        games.append(play(seed, players, first_player=rng.randrange(len(players))))
    return games


# --- counting ----------------------------------------------------------------------------------


def test_a_game_counted_twice_is_counted_once(real_redis: redis.Redis, key_prefix: str) -> None:
    played = play(1, ["Ana", "Ben", "Caro"])
    assert count(real_redis, key_prefix, played) is True
    once = every_stats_key(real_redis, key_prefix)
    assert count(real_redis, key_prefix, played) is False
    assert every_stats_key(real_redis, key_prefix) == once
    assert game_stats(real_redis, key_prefix, "mada")["games"] == 1


def test_archive_jobs_racing_on_one_game_count_it_once(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    played = play(2, ["Ana", "Ben"])
    outcomes: list[bool] = []
    start = threading.Barrier(8)

    def archive_job() -> None:
        start.wait()
        outcomes.append(count(real_redis, key_prefix, played))

    threads = [threading.Thread(target=archive_job) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == [False] * 7 + [True]
    assert game_stats(real_redis, key_prefix, "mada")["games"] == 1


def test_an_unfinished_game_is_not_counted(real_redis: redis.Redis, key_prefix: str) -> None:
    played = play(3, ["Ana", "Ben"])
    with pytest.raises(StatsError, match="not finished"):
        count_game(real_redis, key_prefix, played.record, played.bodies[:-1], played.states[:-1])
    assert every_stats_key(real_redis, key_prefix) == {}


def test_replay_states_follow_each_event() -> None:
    played = play(4, ["Ana", "Ben", "Caro"], chance="observed")
    assert replay_states(played.record.header, played.bodies) == played.states


def test_figures_of_one_game_are_what_it_adds() -> None:
    played = play(5, ["Ana", "Ben", "Caro"], first_player=1)
    result = played.record.result
    assert result is not None
    figures = figures_of(played.record, played.bodies, played.states)
    # One game of three players (its games and its seats' are read from it); wins only if won.
    assert figures.totals["players:3:games"] == 1
    assert figures.totals["events"] == len(played.events)
    assert figures.totals["players:3:winners"] == len(result["winners"])
    assert figures.totals.get("first:wins", 0) == int(1 in result["winners"])
    assert [figures.totals.get(f"seat:{seat}:wins", 0) for seat in range(3)] == [
        int(seat in result["winners"]) for seat in range(3)
    ]
    assert figures.totals["counter:rounds"] == played.states[-1].round
    assert sum(figures.scores.values()) == 3
    assert {name: play.score for name, play in figures.plays.items()} == dict(
        zip(played.record.players, result["scores"], strict=True)
    )


# --- the figures -------------------------------------------------------------------------------


def test_game_figures_match_an_independent_count(real_redis: redis.Redis, key_prefix: str) -> None:
    games = some_games()
    for played in games:
        count(real_redis, key_prefix, played)
    assert game_stats(real_redis, key_prefix, "mada") == approx_json(expected_game_stats(games))


def test_player_figures_match_an_independent_count(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    games = some_games()
    for played in games:
        count(real_redis, key_prefix, played)
    for name in NAMES:
        assert player_stats(real_redis, key_prefix, name) == approx_json(
            expected_player(games, name)
        )


def test_a_shared_victory_is_a_win_for_every_tied_seat(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    tied = next(
        played
        for seed in range(200)
        if len((played := play(seed, ["Ana", "Ben", "Caro"])).record.result["winners"]) > 1
    )
    count(real_redis, key_prefix, tied)
    figures = game_stats(real_redis, key_prefix, "mada")
    winners = tied.record.result["winners"]
    assert figures["wins"] == {
        name: int(seat in winners)
        for seat, name in sorted(enumerate(tied.record.players), key=lambda p: p[1])
    }
    assert figures["seat_advantage"]["wins_by_seat"] == [int(s in winners) for s in range(3)]
    assert figures["seat_advantage"]["expected_win_rate"] == pytest.approx(len(winners) / 3)
    assert sum(figures["wins"].values()) == len(winners)


def test_seat_advantage_compares_the_first_player_with_an_even_chance(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    games = [play(seed, ["Ana", "Ben"], first_player=seed % 2) for seed in range(10)]
    for played in games:
        count(real_redis, key_prefix, played)
    first_wins = sum(g.record.options["first_player"] in g.record.result["winners"] for g in games)
    share = sum(len(g.record.result["winners"]) / 2 for g in games) / 10
    advantage = game_stats(real_redis, key_prefix, "mada")["seat_advantage"]
    assert advantage["first_player_wins"] == first_wins
    assert advantage["first_player_win_rate"] == first_wins / 10
    assert advantage["expected_win_rate"] == pytest.approx(share)
    assert advantage["games_by_seat"] == [10, 10]


def test_mada_adds_rounds_and_how_often_try_luck_loses(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    games = [play(seed, ["Ana", "Ben", "Caro"], chance="observed") for seed in range(5)]
    for played in games:
        count(real_redis, key_prefix, played)
    figures = game_stats(real_redis, key_prefix, "mada")
    rounds = sum(g.states[-1].round for g in games)
    # Observed try_luck names its card: it lost if a Cactus card came up below the pile's top.
    tried = lost = 0
    for g in games:
        before = [GAME.new_game(3, g.record.seed, g.record.options), *g.states[:-1]]
        for index, body in enumerate(g.bodies):
            if body["type"] == "try_luck":
                pile = before[index].piles[body["player"]]
                top = pile[-1] if pile else None
                tried += 1
                lost += (
                    isinstance(body["card"], int) and isinstance(top, int) and top > body["card"]
                )
    assert tried and lost
    assert figures["extras"] == {
        "rounds_per_game": pytest.approx(rounds / 5),
        "try_luck_loss_rate": pytest.approx(lost / tried),
    }
    assert figures["length"]["mean_rounds"] == pytest.approx(rounds / 5)


def test_a_game_without_finished_games_has_zeros(real_redis: redis.Redis, key_prefix: str) -> None:
    assert game_stats(real_redis, key_prefix, "mada") == {
        "game": "mada",
        "games": 0,
        "wins": {},
        "win_rate": {},
        "players": {},
        "scores": {"mean": 0.0, "distribution": {}},
        "length": {"mean_events": 0.0, "mean_rounds": 0.0},
        "seat_advantage": {
            "first_player_wins": 0,
            "first_player_win_rate": 0.0,
            "expected_win_rate": 0.0,
            "wins_by_seat": [],
            "games_by_seat": [],
        },
        "extras": {"rounds_per_game": 0.0, "try_luck_loss_rate": 0.0},
    }


# --- rebuilding from the archive ---------------------------------------------------------------


def test_rebuild_from_the_archive_gives_the_live_figures_exactly(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    games = some_games(10)
    archive(games, tmp_path)
    # Live, the games are counted in the order they finished; the rebuild reads them by id.
    for played in games:
        count(real_redis, key_prefix, played)
    live_game = game_stats(real_redis, key_prefix, "mada")
    live_players = {name: player_stats(real_redis, key_prefix, name) for name in NAMES}
    live_keys = every_stats_key(real_redis, key_prefix)

    seen: list[Path] = []

    def progress(paths: list[Path]) -> Any:
        seen.extend(paths)
        return iter(paths)

    assert rebuild_stats(real_redis, key_prefix, tmp_path, progress=progress) == 10
    assert len(seen) == 10
    assert game_stats(real_redis, key_prefix, "mada") == live_game
    assert {name: player_stats(real_redis, key_prefix, name) for name in NAMES} == live_players
    # The same keys, with the same contents, and nothing of the rebuild left behind.
    assert every_stats_key(real_redis, key_prefix) == live_keys


def test_rebuild_replaces_figures_the_archive_does_not_hold(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    games = some_games(4)
    archive(games[:2], tmp_path)
    for played in games:
        count(real_redis, key_prefix, played)
    real_redis.hset(f"{key_prefix}{{stats}}:player:Ghost", "games:mada", 99)
    real_redis.sadd(f"{key_prefix}{{stats}}:index", "player:Ghost")

    assert rebuild_stats(real_redis, key_prefix, tmp_path) == 2
    assert game_stats(real_redis, key_prefix, "mada") == approx_json(expected_game_stats(games[:2]))
    assert player_stats(real_redis, key_prefix, "Ghost")["games"] == 0
    # A game dropped by the rebuild may be counted again, since its figures are gone.
    assert count(real_redis, key_prefix, games[3]) is True


def test_a_game_counted_while_the_rebuild_runs_is_kept(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    games = some_games(5)
    archive(games[:4], tmp_path)

    def archive_job_meanwhile(paths: list[Path]) -> Any:
        for number, path in enumerate(paths):
            if number == 2:
                # The archive job writes the file, then counts the game: after the listing.
                archive(games[4:], tmp_path)
                count(real_redis, key_prefix, games[4])
            yield path

    assert rebuild_stats(real_redis, key_prefix, tmp_path, progress=archive_job_meanwhile) == 5
    assert game_stats(real_redis, key_prefix, "mada") == approx_json(expected_game_stats(games))


def test_rebuild_of_an_empty_archive_clears_the_figures(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    count(real_redis, key_prefix, play(6, ["Ana", "Ben"]))
    assert rebuild_stats(real_redis, key_prefix, tmp_path / "nothing here") == 0
    assert every_stats_key(real_redis, key_prefix) == {}
    assert game_stats(real_redis, key_prefix, "mada")["games"] == 0


def test_an_archive_file_that_cannot_be_counted_is_skipped_and_named_and_the_others_count(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    games = some_games(5)
    archive(games, tmp_path)
    broken = archive_document(games[1].record, games[1].events)
    broken["events"][0]["player"] = 7
    Archive(tmp_path).write(broken)
    untimely = archive_document(games[3].record, games[3].events)
    untimely["finished_at"] = "2025-02-30T25:61:61Z"
    Archive(tmp_path).write(untimely)

    skipped: list[str] = []
    assert rebuild_stats(real_redis, key_prefix, tmp_path, skipped=skipped.append) == 3
    assert len(skipped) == 2
    assert games[1].record.id in skipped[0] or games[1].record.id in skipped[1]
    assert any(games[3].record.id in line and "finished_at" in line for line in skipped)
    counted = [games[0], games[2], games[4]]
    assert game_stats(real_redis, key_prefix, "mada") == approx_json(expected_game_stats(counted))


def test_an_unreadable_archive_file_is_named(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    played = play(7, ["Ana", "Ben"])
    archive([played], tmp_path)
    path = Archive(tmp_path).path(played.record.id)
    path.write_bytes(b"not gzip")
    skipped: list[str] = []
    assert rebuild_stats(real_redis, key_prefix, tmp_path, skipped=skipped.append) == 0
    assert len(skipped) == 1 and played.record.id in skipped[0]
    assert every_stats_key(real_redis, key_prefix) == {}


def test_the_rebuild_command_says_which_files_it_skipped(
    store_url: str, real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    games = some_games(3)
    archive(games, tmp_path)
    untimely = archive_document(games[0].record, games[0].events)
    untimely["finished_at"] = "2025-13-45T99:99:99Z"
    Archive(tmp_path).write(untimely)
    env = {
        "TABLETAPE_REDIS_URL": store_url,
        "TABLETAPE_KEY_PREFIX": key_prefix,
        "TABLETAPE_ARCHIVE_DIR": str(tmp_path),
    }
    outcome = CliRunner().invoke(stats_command, ["rebuild"], env=env)
    assert outcome.exit_code == 0, outcome.output
    assert "2 finished games counted" in outcome.output
    assert f"skipped {Archive(tmp_path).path(games[0].record.id)}" in outcome.output
    assert "finished_at" in outcome.output
    assert game_stats(real_redis, key_prefix, "mada") == approx_json(expected_game_stats(games[1:]))


def test_the_rebuild_command_counts_the_archive(
    store_url: str, real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    games = some_games(3)
    archive(games, tmp_path)
    env = {
        "TABLETAPE_REDIS_URL": store_url,
        "TABLETAPE_KEY_PREFIX": key_prefix,
        "TABLETAPE_ARCHIVE_DIR": str(tmp_path),
    }
    outcome = CliRunner().invoke(stats_command, ["rebuild"], env=env)
    assert outcome.exit_code == 0, outcome.output
    assert "3 finished games counted" in outcome.output
    assert game_stats(real_redis, key_prefix, "mada") == approx_json(expected_game_stats(games))


# --- over HTTP ---------------------------------------------------------------------------------


@pytest.fixture
def http(real_redis: redis.Redis, key_prefix: str, tmp_path: Path) -> FlaskClient:
    app = make_app(real_redis, key_prefix, DATA_DIR=str(tmp_path))
    if "stats" not in app.blueprints:
        # Until service/app.py registers it.
        app.extensions["flask-smorest"]["apis"][""]["ext_obj"].register_blueprint(stats_blueprint)
    return app.test_client()


def test_get_stats_of_a_game(http: FlaskClient, real_redis: redis.Redis, key_prefix: str) -> None:
    games = some_games(4)
    for played in games:
        count(real_redis, key_prefix, played)
    response = http.get("/stats/mada")
    assert response.status_code == 200
    body = response.get_json()
    assert body.pop("filters") == {}
    assert body == approx_json(expected_game_stats(games))


def test_stats_of_an_unknown_game_are_not_found(http: FlaskClient) -> None:
    response = http.get("/stats/chess")
    assert response.status_code == 404
    error = response.get_json()["error"]
    assert error["code"] == "not_found"
    assert "chess" in error["message"]


def test_get_stats_of_a_player(http: FlaskClient, real_redis: redis.Redis, key_prefix: str) -> None:
    games = some_games(4)
    for played in games:
        count(real_redis, key_prefix, played)
    name = "Zoé: the 2nd"
    response = http.get(f"/players/{name}/stats")
    assert response.status_code == 200
    body = response.get_json()
    assert body.pop("ratings").keys() == {"mada"}
    assert body.pop("filters") == {}
    # The names that count as this player: theirs alone, until another is joined to it.
    assert body.pop("names") == [name]
    assert body == player_stats(real_redis, key_prefix, name)
    assert body["player"] == name


def test_a_player_without_finished_games_has_zeros(http: FlaskClient) -> None:
    response = http.get("/players/Nobody/stats")
    assert response.status_code == 200
    assert response.get_json() == {
        "player": "Nobody",
        "names": ["Nobody"],
        "games": 0,
        "wins": 0,
        "win_rate": 0.0,
        "by_game": {},
        "ratings": {},
        "filters": {},
    }


def test_the_openapi_document_describes_the_statistics(http: FlaskClient) -> None:
    document = http.get("/openapi.json").get_json()
    assert "/stats/{game}" in document["paths"]
    assert "/players/{name}/stats" in document["paths"]
    schemas = document["components"]["schemas"]
    assert {"GameStats", "PlayerStatsWithRatings", "SeatAdvantage", "Ratings", "Versus"} <= set(
        schemas
    )
    assert "404" in document["paths"]["/stats/{game}"]["get"]["responses"]


def test_figures_counted_by_an_earlier_version_are_counted_again_once(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    games = some_games(4)
    archive(games, tmp_path)
    for played in games:
        count(real_redis, key_prefix, played)
    rebuilt = game_stats(real_redis, key_prefix, "mada")
    # As an earlier version left them: counted its own way (here, one score more), unmarked.
    live = StatsKeys(key_prefix)
    real_redis.hincrby(live.key("game:mada:scores"), "999", 1)
    assert game_stats(real_redis, key_prefix, "mada") != rebuilt
    assert recount_when_counted_otherwise(real_redis, key_prefix, tmp_path) == 4
    assert game_stats(real_redis, key_prefix, "mada") == rebuilt
    assert real_redis.get(live.counting) == COUNTING
    # Counted as this code counts: the next worker's start leaves the figures alone.
    assert recount_when_counted_otherwise(real_redis, key_prefix, tmp_path) is None


def test_while_one_worker_counts_again_another_starting_leaves_it_to_it(
    real_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    archive(some_games(2), tmp_path)
    real_redis.set(StatsKeys(key_prefix).recounting, "another worker's lease", ex=60)
    assert recount_when_counted_otherwise(real_redis, key_prefix, tmp_path) is None
    assert real_redis.get(StatsKeys(key_prefix).counting) is None


def test_a_worker_starting_on_figures_of_an_earlier_version_counts_them_again(
    redis_url: str, plain_redis: redis.Redis, key_prefix: str, tmp_path: Path
) -> None:
    from cli.workers import worker as worker_command

    games = some_games(3)
    archive(games, tmp_path)
    for played in games:
        count(plain_redis, key_prefix, played)
    rebuilt = game_stats(plain_redis, key_prefix, "mada")
    plain_redis.hincrby(StatsKeys(key_prefix).key("game:mada:scores"), "999", 1)
    env = {
        "TABLETAPE_REDIS_URL": redis_url,
        "TABLETAPE_KEY_PREFIX": key_prefix,
        "TABLETAPE_ARCHIVE_DIR": str(tmp_path),
    }
    outcome = CliRunner().invoke(worker_command, ["--burst"], env=env)
    assert outcome.exit_code == 0, outcome.output
    assert game_stats(plain_redis, key_prefix, "mada") == rebuilt
