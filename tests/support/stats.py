"""The statistics' tests' helpers: games counted as the archive job counts them, and the figures
expected."""

from __future__ import annotations

from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
import redis

from service.stats.counting import count_game
from service.store.archive import Archive, archive_document
from tests.finished_games import GAME, Played

NAMES = ["Ana", "Ben", "Caro", "Dan", "Zoé: the 2nd"]


def count(client: redis.Redis, prefix: str, played: Played) -> bool:
    return count_game(client, prefix, played.record, played.bodies, played.states)


def rate(part: float, whole: float) -> float:
    return part / whole if whole else 0.0


def expected_game_stats(games: list[Played]) -> dict[str, Any]:
    """The figures of ``games``, counted here from the records and the final states."""
    players: dict[str, Counter[str]] = defaultdict(Counter)
    histogram: Counter[int] = Counter()
    seats = max((len(g.record.players) for g in games), default=0)
    wins_by_seat, games_by_seat = [0] * seats, [0] * seats
    first_wins = 0
    winner_share = 0.0
    rounds = tried = lost = 0
    for game in games:
        result = GAME.result(game.states[-1])
        assert result == game.record.result
        winners = result["winners"]
        for seat, (name, score) in enumerate(
            zip(game.record.players, result["scores"], strict=True)
        ):
            players[name].update(games=1, wins=seat in winners, score=score)
            histogram[score] += 1
            games_by_seat[seat] += 1
            wins_by_seat[seat] += seat in winners
        first_wins += game.record.options["first_player"] in winners
        winner_share += len(winners) / len(game.record.players)
        rounds += game.states[-1].round
        tried += sum(body["type"] == "try_luck" for body in game.bodies)
        lost += GAME.stats_counters(game.bodies, game.states)["try_luck_lost"]
    n = len(games)
    names = sorted(players)
    return {
        "game": "mada",
        "games": n,
        "wins": {name: players[name]["wins"] for name in names},
        "win_rate": {name: players[name]["wins"] / players[name]["games"] for name in names},
        "players": {
            name: {
                "games": players[name]["games"],
                "wins": players[name]["wins"],
                "win_rate": players[name]["wins"] / players[name]["games"],
                "mean_score": players[name]["score"] / players[name]["games"],
            }
            for name in names
        },
        "scores": {
            "mean": rate(sum(s * c for s, c in histogram.items()), histogram.total()),
            "distribution": {str(score): histogram[score] for score in sorted(histogram)},
        },
        "length": {
            "mean_events": rate(sum(len(g.events) for g in games), n),
            "mean_rounds": rate(rounds, n),
        },
        "seat_advantage": {
            "first_player_wins": first_wins,
            "first_player_win_rate": rate(first_wins, n),
            "expected_win_rate": rate(winner_share, n),
            "wins_by_seat": wins_by_seat,
            "games_by_seat": games_by_seat,
        },
        "extras": {"rounds_per_game": rate(rounds, n), "try_luck_loss_rate": rate(lost, tried)},
    }


def approx_json(value: Any) -> Any:
    """Floats compared to the last few bits: the module sums in another order than this file."""
    if isinstance(value, dict):
        return {key: approx_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [approx_json(item) for item in value]
    if isinstance(value, float):
        return pytest.approx(value, rel=1e-12)
    return value


def every_stats_key(client: redis.Redis, prefix: str) -> dict[str, Any]:
    """Every statistics key under the prefix with its whole content."""
    dump: dict[str, Any] = {}
    for key in sorted(client.scan_iter(match=f"{prefix}{{stats}}*", count=1000)):
        if key.endswith((":counting", ":recounting", ":roster")):
            # How the figures were counted (and under which roster), not a figure: a rebuild
            # marks it.
            continue
        kind = client.type(key)
        if kind == "hash":
            dump[key] = client.hgetall(key)
        elif kind == "zset":
            dump[key] = client.zrange(key, 0, -1, withscores=True)
        else:
            dump[key] = sorted(client.smembers(key))
    return dump


def expected_player(games: list[Played], name: str) -> dict[str, Any]:
    mine = [
        (seat in g.record.result["winners"], g.record.result["scores"][seat])
        for g in games
        for seat, player in enumerate(g.record.players)
        if player == name and g.record.result is not None
    ]
    wins, scores = sum(won for won, _ in mine), sum(score for _, score in mine)
    figures = {"games": len(mine), "wins": wins, "win_rate": rate(wins, len(mine))}
    mada = {**figures, "mean_score": rate(scores, len(mine))}
    # Across all games, no mean score: one game's points and another's have none together.
    return {"player": name, **figures, "by_game": {"mada": mada} if mine else {}}


def archive(played: list[Played], directory: Path) -> None:
    for game in played:
        Archive(directory).write(archive_document(game.record, game.events))
