"""Fixtures shared by every test: a real Redis server, fakeredis, a Redis Cluster, and apps.

The real Redis is the one TABLETAPE_TEST_REDIS_URL (or REDIS_URL) names; without either, the suite
starts the embedded Redis itself, so Redis tests always run and never skip.

The cluster is three masters on loopback ports, started once for the session when a test first
asks for it (``redis_cluster``, from tests/redis_cluster.py: redis-server and redis-cli must be
installed; .ci/run installs them). The suites of the store, the API, the archive and the
statistics run on both: their modules make ``real_redis`` the parametrized ``store_redis``.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fakeredis
import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service import create_app
from service.plugins import load_games
from service.store.connection import StoreClient, close, connect
from service.store.embedded import EmbeddedRedis
from tests.redis_cluster import LocalCluster

# The suite's own game, Tally (tests/games/tally/), is found as a game from another package is:
# TABLETAPE_GAMES names its module, for this process and the servers and workers it starts (which
# find `tests` on PYTHONPATH). Every test that goes over the registered games goes over it too.
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.environ["TABLETAPE_GAMES"] = "tests.games.tally"
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [ROOT, os.environ.get("PYTHONPATH")]))
load_games(os.environ["TABLETAPE_GAMES"])


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = os.environ.get("TABLETAPE_TEST_REDIS_URL") or os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    with EmbeddedRedis(tmp_path_factory.mktemp("redis")) as embedded_url:
        yield embedded_url


@pytest.fixture(autouse=True)
def feeds_stopped() -> Iterator[None]:
    """After each test, the live games' readers it started (service/api/fanout.py) are gone: one
    lingers up to a blocking read once its last follower leaves, and must not outlive the
    test's Redis client."""
    yield
    deadline = time.monotonic() + 5
    for thread in threading.enumerate():
        if thread.name.startswith("feed "):
            thread.join(max(0.0, deadline - time.monotonic()))


@pytest.fixture
def key_prefix() -> str:
    return f"test-{uuid.uuid4().hex[:12]}:"


@pytest.fixture
def plain_redis(redis_url: str, key_prefix: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    yield client
    # Leave the server as we found it: the tests' keys all carry this test's prefix.
    keys = list(client.scan_iter(match=f"{key_prefix}*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
def real_redis(plain_redis: redis.Redis) -> redis.Redis:
    """The real Redis of a test: the plain server, unless its module runs on both (see
    ``store_redis``)."""
    return plain_redis


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    cluster = LocalCluster(tmp_path_factory.mktemp("cluster")).start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def cluster_redis(
    redis_cluster: LocalCluster, redis_url: str, key_prefix: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[StoreClient]:
    """A client of the cluster, made as the service makes it (from the URL of one node)."""
    # The environment names this store, and RQ's queue on the plain Redis (RQ does not run on a
    # cluster), as a deployment's would: apps built here find their queue there, and the archive
    # jobs that a test runs in this process find the store there, as a worker would.
    monkeypatch.setenv("TABLETAPE_REDIS_URL", redis_cluster.url)
    monkeypatch.setenv("TABLETAPE_QUEUE_REDIS_URL", redis_url)
    client = connect(redis_cluster.url, decode_responses=True)
    yield client
    keys = list(client.scan_iter(match=f"{key_prefix}*", count=1000))
    if keys:
        client.delete(*keys)
    close(client)


@pytest.fixture(params=["redis", "cluster"])
def store_redis(request: pytest.FixtureRequest) -> StoreClient:
    """The store's Redis: once the plain server, once the cluster."""
    client: StoreClient = request.getfixturevalue(
        "plain_redis" if request.param == "redis" else "cluster_redis"
    )
    return client


@pytest.fixture
def store_url(store_redis: StoreClient, request: pytest.FixtureRequest) -> str:
    """The URL of ``store_redis``: what a worker or a command is given as REDIS_URL."""
    if isinstance(store_redis, redis.Redis):
        url: str = request.getfixturevalue("redis_url")
    else:
        url = request.getfixturevalue("redis_cluster").url
    return url


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
def archive_dir(tmp_path: Path) -> Path:
    return tmp_path / "archive"


@pytest.fixture
def app_config() -> dict[str, Any]:
    """Settings a module gives its apps beyond the suite's (override it in the module)."""
    return {}


@pytest.fixture
def app(
    real_redis: redis.Redis,
    key_prefix: str,
    tmp_path: Path,
    archive_dir: Path,
    app_config: dict[str, Any],
) -> Flask:
    """The service on the test's Redis and prefix, its data and archive in the test's folder."""
    return make_app(
        real_redis, key_prefix, DATA_DIR=str(tmp_path), ARCHIVE_DIR=str(archive_dir), **app_config
    )


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
