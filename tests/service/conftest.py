"""Fixtures the service's tests share, beside the suite's own (tests/conftest.py)."""

from __future__ import annotations

import dataclasses

import pytest
import redis

from tests.finished_games import Played, play
from tests.support.stats import count
from tests.support.stats_pages import TABLES


@pytest.fixture
def games(real_redis: redis.Redis, key_prefix: str) -> list[Played]:
    """TABLES played to the end, counted and rated in the order they finished."""
    played = []
    for seed, (players, finished_at) in enumerate(TABLES):
        game = play(300 + seed, players)
        game = dataclasses.replace(
            game, record=dataclasses.replace(game.record, finished_at=finished_at)
        )
        assert count(real_redis, key_prefix, game) is True
        played.append(game)
    return played
