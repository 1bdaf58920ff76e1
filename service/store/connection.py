"""Connections to the store's Redis: one plain server, or a Redis Cluster.

REDIS_URL may name a plain Redis or any node of a cluster: ``connect`` asks the server (INFO
cluster's ``cluster_enabled``) and answers redis-py's ``RedisCluster`` or its plain client. The
rest of the service uses the client it gets as one Redis: every command names its keys, and the
keys that one script, MULTI or WATCH touches share a hash tag (one slot), so redis-py routes them
alike on either. What a cluster needs done differently is done here, and only here:

- a blocking read (XREAD BLOCK) on a connection of its own must go to the node that serves the
  key's slot (``blocking_client``, ``aim``);
- a write acknowledged to a client must be on a replica before it is acknowledged, or a failover
  could lose it: Redis replicates asynchronously. ``acknowledged_writes`` runs such a script on
  one connection to the slot's master and sends WAIT on that same connection (WAIT waits for
  what its own connection wrote), when that master has replicas;
- RQ needs a plain Redis (``same_server`` refuses a cluster);
- a bounded pool must not close a connection in use when redis-py reads the topology again
  (``BoundedPool``).
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Sequence
from queue import Empty
from typing import Any, Protocol

import redis
from redis.cluster import RedisCluster
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MovedError,
    NoScriptError,
    RedisClusterException,
    TryAgainError,
)

log = logging.getLogger(__name__)

# What the store's client is: the service holds either behind this one name.
StoreClient = redis.Redis | RedisCluster

# The errors that say the store cannot serve now, and that a client may retry: the contract's 503
# unavailable. A cluster adds ClusterDownError: its state is "fail" while a master is down and no
# replica has taken over yet (MasterDownError is one of them); TryAgainError, while a slot moves;
# and redis-py's own cluster errors (no node serves a slot), which are not RedisErrors at all.
STORE_UNAVAILABLE: tuple[type[Exception], ...] = (
    redis.ConnectionError,
    redis.TimeoutError,
    ClusterDownError,
    TryAgainError,
    RedisClusterException,
)

# How long an acknowledged write waits for a replica to confirm it (WAIT's timeout), by default.
DEFAULT_REPLICA_WAIT_MS = 1000

# A write refused before it ran (the slot moved, the cluster is failing over) is sent again after
# these pauses, in seconds: together about as long as a replica takes to be promoted.
_REFUSED_WRITE_PAUSES = (0.1, 0.2, 0.4, 0.8)

# How long a master's count of replicas is trusted, in seconds, before it is asked again.
_REPLICAS_KNOWN_FOR = 2.0


class ReplicaNotConfirmedError(redis.TimeoutError):
    """A write ran on its master, but no replica confirmed it within the wait: it is not
    acknowledged (a failover now could lose it). A TimeoutError: the store's 503."""


def connect(url: str, max_connections: int | None = None, **options: Any) -> StoreClient:
    """A client of the Redis that ``url`` names: RedisCluster if it is a node of a cluster (any
    node: the client finds the others), else the plain client. ``options`` go to either.

    With ``max_connections``, the client holds at most that many connections (per node of a
    cluster), and a command that finds them all busy waits for one (a BlockingConnectionPool):
    under gevent, thousands of requests at once would otherwise open a connection each."""
    if max_connections is not None:
        options = {**options, "max_connections": max_connections,
                   "connection_pool_class": BoundedPool}  # fmt: skip
    plain = _plain_client(url, **options)
    if not _cluster_enabled(plain):
        return plain
    plain.close()
    return RedisCluster.from_url(url, **options)


class BoundedPool(redis.BlockingConnectionPool):
    """redis-py's BlockingConnectionPool, made safe for a cluster's topology refresh.

    When a node fails, RedisCluster reads the topology again and closes the idle connections of
    the nodes' pools (``disconnect_free_connections``). redis-py's blocking pool lists its idle
    connections and then closes them, while ``get_connection`` takes one from the queue without
    the lock the listing holds: a request thread could take a connection between the two and
    have it closed under it, mid-reply (an AttributeError or ValueError deep in redis-py, a 500).
    Here the idle connections are taken out of the queue while they are closed, so no one else
    can take them meanwhile; whoever waits for one gets it once they are back."""

    def disconnect_free_connections(self, moving_address_src: str | None = None) -> None:
        with self._lock:
            # The queue is last in, first out: put back in reverse, it is as it was.
            taken = []
            while True:
                try:
                    taken.append(self.pool.get_nowait())
                except Empty:
                    break
            try:
                for connection in taken:
                    if connection is not None and self._should_update_connection(
                        connection, "connected_address", moving_address_src
                    ):
                        connection.disconnect()
            finally:
                for connection in reversed(taken):
                    self.pool.put_nowait(connection)


def _plain_client(url: str, connection_pool_class: Any = None, **options: Any) -> redis.Redis:
    if connection_pool_class is None:
        return redis.Redis.from_url(url, **options)
    return redis.Redis(connection_pool=connection_pool_class.from_url(url, **options))


def _cluster_enabled(client: redis.Redis) -> bool:
    try:
        return bool(client.info("cluster").get("cluster_enabled"))
    except redis.ConnectionError as error:
        # The service must know which client to use before it serves anything.
        raise redis.ConnectionError(
            f"cannot tell whether REDIS_URL names a cluster: the server cannot be reached ({error})"
        ) from error


def close(client: StoreClient) -> None:
    """Close every connection ``client`` holds. A client made on a pool of its own (a cluster's
    client of each node, ``same_server``'s) leaves that pool open on ``close()``."""
    servers = (
        [node.redis_connection for node in client.get_nodes() if node.redis_connection]
        if isinstance(client, RedisCluster)
        else [client]
    )
    client.close()
    for server in servers:
        server.connection_pool.disconnect()


def same_server(client: StoreClient, **options: Any) -> redis.Redis:
    """A plain client of the server ``client`` talks to, with ``options`` changed (RQ's
    connection: it does not decode responses). A cluster has no one server: ValueError."""
    if isinstance(client, RedisCluster):
        raise ValueError(
            "REDIS_URL names a Redis Cluster, and RQ needs a plain Redis: set QUEUE_REDIS_URL"
        )
    pool = client.connection_pool
    kwargs = {**pool.connection_kwargs, **options}
    return redis.Redis(connection_pool=type(pool)(connection_class=pool.connection_class, **kwargs))


# --- blocking reads ----------------------------------------------------------------------------


def blocking_client(client: StoreClient, key: str, name: str | None = None) -> redis.Redis:
    """A client with a single connection of its own, to the server that holds ``key``: for long
    waits that must not hold the shared pool's connections; ``name``: its connection's name
    (CLIENT SETNAME), else the shared pool's. Its owner closes it with
    ``reader.connection_pool.disconnect()``."""
    return redis.Redis(connection_pool=_own_pool(server_of(client, key), name))


def aim(reader: redis.Redis, client: StoreClient, key: str) -> None:
    """Point ``reader`` (from ``blocking_client``) at the node that serves ``key`` now, if it
    talks to another: it was made for another key, or the slot moved since (a failover)."""
    if not isinstance(client, RedisCluster):
        return
    server = server_of(client, key)
    wanted = server.connection_pool.connection_kwargs
    current = reader.connection_pool.connection_kwargs
    if (current.get("host"), current.get("port")) != (wanted.get("host"), wanted.get("port")):
        name = current.get("client_name")
        previous, reader.connection_pool = reader.connection_pool, _own_pool(server, name)
        previous.disconnect()


def server_of(client: StoreClient, key: str) -> redis.Redis:
    """The plain client of the server holding ``key``: a cluster's node for its slot (a cluster
    client refuses to pipeline scripts; keys of one slot can go to that node in one pipeline)."""
    if isinstance(client, RedisCluster):
        return client.get_redis_connection(client.get_node_from_key(key))
    return client


def _own_pool(server: redis.Redis, name: str | None = None) -> redis.ConnectionPool:
    pool = server.connection_pool
    options = {**pool.connection_kwargs, **({"client_name": name} if name else {})}
    return redis.ConnectionPool(
        connection_class=pool.connection_class, max_connections=1, **options
    )


# --- acknowledged writes -----------------------------------------------------------------------


class WriteScript(Protocol):
    """A Lua script that writes, called as ``script(keys=[...], args=[...])``."""

    def __call__(self, keys: Sequence[str], args: Sequence[Any]) -> Any: ...


class AcknowledgedWrites(Protocol):
    """Makes the scripts whose writes are acknowledged to clients (see ``acknowledged_writes``)."""

    def script(self, source: str) -> WriteScript: ...


def acknowledged_writes(client: StoreClient, replica_wait_ms: int) -> AcknowledgedWrites:
    """The maker of scripts whose writes are acknowledged to clients. On a plain Redis, redis-py's
    own scripts. On a cluster, scripts that reply once a replica of the slot's master has the
    write too, if it has replicas (``replica_wait_ms`` 0 switches the wait off). A script's keys
    share one slot."""
    if isinstance(client, RedisCluster):
        return _ClusterWrites(client, replica_wait_ms)
    return _PlainWrites(client)


class _PlainWrites:
    """A script sent as EVALSHA straight to the client's ``execute_command`` (redis-py's own
    script objects take three calls more and copy the arguments on every call), and loaded
    again when the server has lost it (a restart, a SCRIPT FLUSH), as redis-py does."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client

    def script(self, source: str) -> WriteScript:
        client, loaded = self.client, self.client.register_script(source)

        def run(keys: Sequence[str], args: Sequence[Any]) -> Any:
            try:
                return client.execute_command("EVALSHA", loaded.sha, len(keys), *keys, *args)
            except NoScriptError:
                loaded.sha = client.script_load(source)
                return client.execute_command("EVALSHA", loaded.sha, len(keys), *keys, *args)

        return run


class _ClusterWrites:
    """A script runs on a connection to its slot's master taken from redis-py's pool of that
    node, with WAIT pipelined after it on the same connection: one round trip.

    Whether the master has replicas, it says itself (INFO replication's connected_slaves, asked
    again every few seconds): redis-py's map of the cluster is no guide, since CLUSTER SLOTS
    leaves out a replica until it has acknowledged some data, and the map is read again only
    after an error.

    A script is never sent twice when it may have run once: a connection lost or timed out
    after it was sent raises (the client retries with its Idempotency-Key, which the append
    script recognises), where redis-py's own retries would send it again. It is sent again only
    when Redis refused it before running it: MOVED (the slot has another master now),
    CLUSTERDOWN, TRYAGAIN (a slot being moved holds some of the keys on each side), NOSCRIPT,
    or ASK (the slot is being moved, and the keys are on the node it moves to already: the script
    goes there, after ASKING, as Redis Cluster's live resharding asks of a client).
    """

    def __init__(self, cluster: RedisCluster, replica_wait_ms: int) -> None:
        self.cluster = cluster
        self.replica_wait_ms = replica_wait_ms
        # Master node name -> (its replicas, when it said so); shared by the scripts.
        self._replicas: dict[str, tuple[int, float]] = {}

    def script(self, source: str) -> WriteScript:
        sha = hashlib.sha1(source.encode()).hexdigest()

        def run(keys: Sequence[str], args: Sequence[Any]) -> Any:
            return self._run(source, sha, keys, args)

        return run

    def _run(self, source: str, sha: str, keys: Sequence[str], args: Sequence[Any]) -> Any:
        slot = self.cluster.keyslot(keys[0])
        pauses = iter(_REFUSED_WRITE_PAUSES)
        asked: AskError | None = None
        while True:
            if asked is not None:
                node = self.cluster.nodes_manager.get_node(asked.host, asked.port)
            else:
                shard = self.cluster.nodes_manager.slots_cache.get(slot)
                # The slot's master comes first.
                node = shard[0] if shard else None
            if node is None:
                self._refresh()
                _pause_or_raise(pauses, ClusterDownError(f"no node serves slot {slot}"))
                asked = None
                continue
            master = self.cluster.get_redis_connection(node)
            try:
                wait = self.replica_wait_ms > 0 and self._replicas_of(node.name, master) > 0
                with master.pipeline(transaction=False) as pipe:
                    if asked is not None:
                        pipe.execute_command("ASKING")
                    pipe.evalsha(sha, len(keys), *keys, *args)
                    if wait:
                        pipe.execute_command("WAIT", 1, self.replica_wait_ms)
                    replies = pipe.execute(raise_on_error=False)
            except (redis.ConnectionError, redis.TimeoutError):
                # It may have run: raise, and let the next call find the new master.
                self._refresh()
                raise
            if asked is not None:
                replies = replies[1:]
            reply, asked = replies[0], None
            if isinstance(reply, NoScriptError):
                # A node's script cache is its own (a promoted replica starts without it).
                master.script_load(source)
                continue
            if isinstance(reply, MovedError | ClusterDownError | TryAgainError):
                self._refresh()
                _pause_or_raise(pauses, reply)
                continue
            if isinstance(reply, AskError):
                # Once only per step: the node asked for runs it, or refuses it before running it.
                asked = reply
                _pause_or_raise(pauses, reply, pause=False)
                continue
            if isinstance(reply, Exception):
                raise reply
            if wait and int(replies[1]) < 1:
                # The replica may be gone: the master is asked again before the next write.
                self._replicas.pop(node.name, None)
                raise ReplicaNotConfirmedError(
                    f"no replica confirmed the write within {self.replica_wait_ms} ms"
                )
            return reply

    def _replicas_of(self, name: str, master: redis.Redis) -> int:
        known = self._replicas.get(name)
        if known is None or time.monotonic() - known[1] > _REPLICAS_KNOWN_FOR:
            replicas = int(master.info("replication").get("connected_slaves", 0))
            known = self._replicas[name] = (replicas, time.monotonic())
        return known[0]

    def _refresh(self) -> None:
        """Read the cluster's topology again; if no node answers, the next call tries again."""
        self._replicas.clear()
        try:
            self.cluster.nodes_manager.initialize()
        except (redis.RedisError, RedisClusterException) as error:
            log.warning("the cluster's topology could not be read: %s", error)


def _pause_or_raise(pauses: Any, error: Exception, *, pause: bool = True) -> None:
    """Sleep the next of ``pauses`` (or only use it up, without ``pause``); once they are all
    used, raise ``error``."""
    length = next(pauses, None)
    if length is None:
        raise error
    if pause:
        time.sleep(length)
