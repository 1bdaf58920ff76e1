"""Fixtures shared by every test: a real Redis server, fakeredis, and apps on either.

The real Redis is the one TABLETAPE_TEST_REDIS_URL (or REDIS_URL) names; without either, the suite
starts the embedded Redis itself, so Redis tests always run and never skip.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import fakeredis
import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.embedded import EmbeddedRedis


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = os.environ.get("TABLETAPE_TEST_REDIS_URL") or os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    with EmbeddedRedis(tmp_path_factory.mktemp("redis")) as embedded_url:
        yield embedded_url


@pytest.fixture
def key_prefix() -> str:
    return f"test-{uuid.uuid4().hex[:12]}:"


@pytest.fixture
def real_redis(redis_url: str, key_prefix: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    yield client
    # Leave the server as we found it: the tests' keys all carry this test's prefix.
    keys = list(client.scan_iter(match=f"{key_prefix}*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
def fake_redis() -> redis.Redis:
    return fakeredis.FakeRedis(decode_responses=True)


@pytest.fixture(params=["fakeredis", "redis"])
def any_redis(request: pytest.FixtureRequest) -> redis.Redis:
    """Contract tests run once on fakeredis and once on the real server."""
    name = "fake_redis" if request.param == "fakeredis" else "real_redis"
    client: redis.Redis = request.getfixturevalue(name)
    return client


def make_app(client: redis.Redis, key_prefix: str, **config: Any) -> Flask:
    # Tests send requests faster than any person: rate limits are tested on their own.
    config = {"RATE_LIMIT": "", **config}
    app = create_app({"REDIS_CLIENT": client, "KEY_PREFIX": key_prefix, **config})
    app.testing = True
    return app


@pytest.fixture
def app(real_redis: redis.Redis, key_prefix: str, tmp_path: Any) -> Flask:
    return make_app(real_redis, key_prefix, DATA_DIR=str(tmp_path))


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
