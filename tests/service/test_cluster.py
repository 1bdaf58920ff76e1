"""The service on a Redis Cluster of three masters (tests/conftest.py's ``redis_cluster``).

The suites of the store, the API, the archive jobs and the statistics run on the cluster as well
as on a plain Redis (their modules parametrize ``real_redis``); this module tests what only a
cluster has: finding out that REDIS_URL names one, games spread over the masters, one slot for
the keys that one step touches, live streams read from the node that serves the game, RQ on a
plain Redis beside it, and the commands.
"""

from __future__ import annotations

import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from redis.cluster import RedisCluster
from redis.exceptions import ClusterDownError, SlotNotCoveredError, TryAgainError

from service.app import build_services
from service.config import load_config
from service.stats.keys import LIVE_ROOT, StatsKeys
from service.store.connection import StoreClient, close, connect
from service.store.events import EventStore
from service.store.records import Appended, Conflict, EventWrite
from tests.conftest import make_app
from tests.redis_cluster import LocalCluster
from tests.support.api import append, create, legal, play_to_the_end
from tests.support.records import BY_THE_RECORDER, record
from tests.support.streams import Follower, stream_url
from tests.support.workers import run_cli, worker_env


@pytest.fixture
def real_redis(cluster_redis: StoreClient) -> StoreClient:
    """Every app of this module runs on the cluster."""
    return cluster_redis


def owner_port(cluster: RedisCluster, key: str) -> int:
    """The port of the master that serves ``key``'s slot."""
    port: int = cluster.get_node_from_key(key).port
    return port


def test_redis_url_may_name_any_node_of_the_cluster_or_a_plain_redis(
    redis_cluster: LocalCluster, redis_url: str
) -> None:
    for port in redis_cluster.ports:
        client = connect(f"redis://127.0.0.1:{port}", decode_responses=True)
        assert isinstance(client, RedisCluster)
        assert {node.port for node in client.get_primaries()} == set(redis_cluster.ports)
        close(client)
    plain = connect(redis_url, decode_responses=True)
    assert isinstance(plain, redis.Redis)
    close(plain)


def test_a_topology_refresh_never_closes_a_connection_another_thread_has_taken(
    redis_cluster: LocalCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The service bounds each node's pool (REDIS_CONNECTIONS). When a node fails, redis-py reads
    # the topology again and closes each pool's idle connections (disconnect_free_connections):
    # it lists them, then closes them. A request thread that takes one in between must not have
    # it closed under it (a failover then answered 500 with "'NoneType' object has no attribute
    # 'readline'"). The other thread is made to take it exactly there.
    client = connect(redis_cluster.url, max_connections=2, decode_responses=True)
    node = client.get_redis_connection(client.get_primaries()[0])
    node.ping()  # one idle, connected connection in the pool
    pool = node.connection_pool
    idle = pool.get_connection()
    pool.release(idle)
    events: list[str] = []
    closing = idle.disconnect
    monkeypatch.setattr(idle, "disconnect", lambda *a, **k: (events.append("closed"), closing()))

    def take() -> None:
        connection = pool.get_connection()
        events.append("taken")
        pool.release(connection)

    taker = threading.Thread(target=take)

    def listed_then(connection: Any, *args: Any, **kwargs: Any) -> bool:
        # Between listing an idle connection and closing it: the other thread takes one.
        if not taker.is_alive() and not events:
            taker.start()
            taker.join(0.5)
        return True

    monkeypatch.setattr(pool, "_should_update_connection", listed_then)
    try:
        pool.disconnect_free_connections()
        taker.join(5)
        assert events == ["closed", "taken"], "a connection was closed while a thread held it"
    finally:
        close(client)


def test_the_app_finds_out_by_itself_that_redis_url_names_a_cluster(
    cluster_redis: StoreClient, key_prefix: str, tmp_path: Path
) -> None:
    # No client given: the service connects from the environment (REDIS_URL names one node).
    services = build_services(load_config({"KEY_PREFIX": key_prefix, "DATA_DIR": str(tmp_path)}))
    assert isinstance(services.client, RedisCluster)
    record, _ = services.games.create("mada", ["Ana", "Ben"], 1, {})
    assert services.games.get(record.id).id == record.id
    close(services.client)


def test_games_spread_over_all_three_masters(
    client: FlaskClient, cluster_redis: RedisCluster, redis_cluster: LocalCluster, key_prefix: str
) -> None:
    games = [create(client, seed=seed) for seed in range(30)]
    holders: Counter[int] = Counter()
    for port in redis_cluster.ports:
        with redis_cluster.node(port) as node:
            holders[port] = sum(1 for _ in node.scan_iter(match=f"{key_prefix}{{*}}:header"))
    assert sum(holders.values()) == 30
    assert all(holders[port] > 0 for port in redis_cluster.ports), holders
    # Read back and listed, wherever each lives.
    listed = client.get("/games?limit=100").json["games"]
    assert {game["id"] for game in games} == {game["id"] for game in listed}
    for game in games[:3]:
        assert client.get(f"/games/{game['id']}").json["version"] == 0


def test_the_keys_one_step_touches_share_a_slot(cluster_redis: RedisCluster) -> None:
    store = EventStore(cluster_redis, prefix="tt:")
    game_keys = [store.keys.header("g1"), store.keys.events("g1"),
                 store.keys.idempotency("g1", "key-1", "seat0")]  # fmt: skip
    assert len({cluster_redis.keyslot(key) for key in game_keys}) == 1
    # The live statistics and a rebuild's: the count script and the rebuild's swap span both.
    live, rebuilt = StatsKeys("tt:"), StatsKeys("tt:", f"{LIVE_ROOT}rebuild-0123")
    stats_keys = [live.counted, live.index, live.key("game:mada"), live.key("player:Ana"),
                  rebuilt.counted, rebuilt.index, rebuilt.key("game:mada:scores")]  # fmt: skip
    assert len({cluster_redis.keyslot(key) for key in stats_keys}) == 1


def test_a_live_stream_reads_from_the_node_that_serves_its_game(
    app: Flask, client: FlaskClient, cluster_redis: RedisCluster, redis_cluster: LocalCluster
) -> None:
    store: EventStore = app.extensions["tabletape"].store
    # A game on each master.
    by_master: dict[int, dict[str, Any]] = {}
    for seed in range(100):
        game = create(client, seed=seed)
        by_master.setdefault(owner_port(cluster_redis, store.keys.events(game["id"])), game)
        if len(by_master) == len(redis_cluster.ports):
            break
    assert set(by_master) == set(redis_cluster.ports)
    unaimed = store.blocking_client()
    try:
        for port, game in by_master.items():
            reader = store.blocking_client(game["id"])
            try:
                assert reader.connection_pool.connection_kwargs["port"] == port
                assert store.wait_events(game["id"], 0, 50, client=reader) == []
                append(client, game, legal(client, game)[0])
                assert [e.seq for e in store.wait_events(game["id"], 0, 50, client=reader)] == [1]
                # A reader made for no game in particular is pointed at the right node.
                assert [e.seq for e in store.wait_events(game["id"], 0, 50, client=unaimed)] == [1]
                assert unaimed.connection_pool.connection_kwargs["port"] == port
            finally:
                reader.connection_pool.disconnect()
    finally:
        unaimed.connection_pool.disconnect()
    # And through the API: a game followed live to its end.
    game = create(client, seed=7)
    follower = Follower(app, stream_url(game))
    follower.start()
    assert follower.started_streaming.wait(10)
    answers = play_to_the_end(client, game, seed=7)
    follower.finish()
    assert [int(m["id"]) for m in follower.moves()] == [a["seq"] for a in answers]
    assert follower.received[-1]["event"] == "end"


def test_rq_needs_a_plain_redis_beside_a_cluster(
    cluster_redis: StoreClient, key_prefix: str
) -> None:
    with pytest.raises(ValueError, match="QUEUE_REDIS_URL"):
        make_app(cluster_redis, key_prefix, QUEUE_REDIS_URL=None)


def test_simulate_and_replay_work_on_a_cluster(
    client: FlaskClient, redis_cluster: LocalCluster, key_prefix: str, tmp_path: Path
) -> None:
    # The environment names the cluster and the queue's plain Redis (see cluster_redis).
    env = worker_env(redis_cluster.url, key_prefix, tmp_path / "archive")
    done = run_cli(env, "simulate", "mada", "-n", "2", "--seed", "5")
    assert done.returncode == 0, done.stderr
    ids = [line.split()[0] for line in done.stdout.splitlines() if line.strip()]
    assert len(ids) == 2
    for game_id in ids:
        assert client.get(f"/games/{game_id}").json["status"] == "finished"
    shown = run_cli(env, "replay", ids[0])
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(f"game {ids[0]}: mada (")
    assert "result: " in shown.stdout


@pytest.mark.parametrize(
    "failure",
    [
        ClusterDownError("CLUSTERDOWN The cluster is down"),
        TryAgainError("TRYAGAIN slot moving"),
        SlotNotCoveredError("no node serves slot 42"),
    ],
    ids=["cluster_down", "try_again", "slot_not_covered"],
)
def test_a_cluster_that_cannot_serve_now_is_a_503_with_retry_after(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch, failure: Exception
) -> None:
    def fails(*args: object, **kwargs: object) -> None:
        raise failure

    monkeypatch.setattr(app.extensions["tabletape"].store, "get", fails)
    answer = client.get("/games/0123456789abcdef")
    assert answer.status_code == 503 and answer.json["error"]["code"] == "unavailable"
    assert int(answer.headers["Retry-After"]) > 0


def test_appends_go_on_while_a_game_s_slot_moves_to_another_master(tmp_path: Path) -> None:
    """Live resharding: while a slot migrates, its keys already moved are reached with ASK (and
    ASKING on the node they moved to); once it has moved, with MOVED. Appends are served all
    along, acknowledged once each."""
    cluster = LocalCluster(tmp_path / "resharded").start()
    client = connect(cluster.url, decode_responses=True)
    try:
        assert isinstance(client, RedisCluster)
        store = EventStore(client, "t:")
        game_id = "resharded-game"
        assert store.create(record(game_id))
        draw = {"canonical_body": '{"type":"draw"}', "at": "t", "result": None, **BY_THE_RECORDER}
        first = store.get(game_id).head_hash  # type: ignore[union-attr]
        assert store.append(
            game_id, EventWrite(expected_version=0, expected_head=first, hash="h1", **draw)
        ) == (Appended(1))

        slot = client.keyslot(f"t:{{{game_id}}}:header")
        source = owner_port(client, f"t:{{{game_id}}}:header")
        target = next(port for port in cluster.ports if port != source)
        ids = {
            port: cluster.node(port).execute_command("CLUSTER", "MYID") for port in cluster.ports
        }
        cluster.node(target).execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", ids[source])
        cluster.node(source).execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", ids[target])
        keys = cluster.node(source).execute_command("CLUSTER", "GETKEYSINSLOT", slot, 100)
        cluster.node(source).execute_command(
            "MIGRATE", "127.0.0.1", target, "", 0, 5000, "KEYS", *keys
        )
        # Mid-migration: the source answers ASK for the moved keys.
        on_h1 = {"expected_head": "h1", "hash": "h2", **draw}
        assert store.append(game_id, EventWrite(expected_version=1, **on_h1)) == Appended(2)
        assert store.append(game_id, EventWrite(expected_version=1, **on_h1)) == Conflict(2)

        for port in cluster.ports:
            cluster.node(port).execute_command("CLUSTER", "SETSLOT", slot, "NODE", ids[target])
        # Moved: the source answers MOVED, and the client learns the new map.
        on_h2 = {"expected_head": "h2", "hash": "h3", **draw}
        assert store.append(game_id, EventWrite(expected_version=2, **on_h2)) == Appended(3)
        assert owner_port(client, f"t:{{{game_id}}}:header") == target
        assert [event.seq for event in store.events(game_id)] == [1, 2, 3]
        assert store.get(game_id).version == 3  # type: ignore[union-attr]
    finally:
        close(client)
        cluster.stop()
