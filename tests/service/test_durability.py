"""DURABILITY=fsync: an append is acknowledged only once it is on disk, so a Redis killed with -9
under appends loses none that were acknowledged; and the service refuses to start in that mode on
a store that would not fsync each write.

Each test runs a redis-server of its own (Debian's, as .ci/run installs it) on a loopback port, with
its AOF in the test's folder, so that it can be killed and started again on the same files.
"""

from __future__ import annotations

import random
import signal
import threading
import time
from pathlib import Path

import pytest
import redis

from domain import get_game
from service.app import build_services
from service.config import load_config
from service.store.durability import DurabilityError
from service.store.embedded import EmbeddedRedis
from tests.aof_redis import aof_redis
from tests.served import free_port

MADA = get_game("mada")


def settings(port: int, tmp_path: Path, durability: str) -> dict[str, object]:
    return load_config(
        {
            "REDIS_URL": f"redis://127.0.0.1:{port}/0",
            "DURABILITY": durability,
            "DATA_DIR": str(tmp_path),
            "RATE_LIMIT": "",
        }
    )


def test_fsync_mode_refuses_a_store_that_does_not_fsync_each_write(tmp_path: Path) -> None:
    port = free_port()
    with aof_redis(tmp_path / "redis", port, "everysec"):
        with pytest.raises(DurabilityError, match="appendfsync always"):
            build_services(settings(port, tmp_path, "fsync"))
        # The default mode takes it as it is.
        build_services(settings(port, tmp_path, "everysec"))


def test_an_unknown_durability_is_refused(tmp_path: Path) -> None:
    port = free_port()
    with (
        aof_redis(tmp_path / "redis", port, "always"),
        pytest.raises(DurabilityError, match="everysec, fsync"),
    ):
        build_services(settings(port, tmp_path, "sometimes"))


def test_no_acknowledged_append_is_lost_to_a_kill_9_in_fsync_mode(tmp_path: Path) -> None:
    port = free_port()
    folder = tmp_path / "redis"
    acknowledged: list[tuple[str, int]] = []
    lock = threading.Lock()
    with aof_redis(folder, port, "always") as server:
        services = build_services(settings(port, tmp_path, "fsync"))
        stop = threading.Event()

        def record(seed: int) -> None:
            created, tokens = services.games.create("mada", ["Ana", "Ben"], seed, {})
            state = MADA.new_game(2, created.seed, created.options)
            chooser = random.Random(seed)
            while not stop.is_set() and MADA.result(state) is None:
                move = chooser.choice(MADA.legal_moves(state))
                try:
                    answer = services.games.append(created.id, tokens.recorder, move)
                except Exception:
                    return  # the store is gone: nothing more is acknowledged
                with lock:
                    acknowledged.append((created.id, answer.version))
                state = MADA.apply(state, move)

        threads = [threading.Thread(target=record, args=(seed,)) for seed in range(4)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 10
        while len(acknowledged) < 200 and time.monotonic() < deadline:
            time.sleep(0.01)
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        stop.set()
        for thread in threads:
            thread.join(10)
    assert len(acknowledged) >= 200
    with aof_redis(folder, port, "always"):
        client = redis.Redis(port=port, decode_responses=True)
        prefix = load_config()["KEY_PREFIX"]
        lost = [
            (game_id, seq)
            for game_id, seq in acknowledged
            if not client.xrange(f"{prefix}{{{game_id}}}:events", f"0-{seq}", f"0-{seq}")
        ]
        assert lost == []


def test_the_embedded_redis_is_set_to_fsync_each_write_in_fsync_mode(tmp_path: Path) -> None:
    config = load_config({"REDIS_URL": None, "DURABILITY": "fsync", "DATA_DIR": str(tmp_path)})
    embedded = EmbeddedRedis(tmp_path)
    url = embedded.start()
    try:
        services = build_services(config)
        assert services.client.config_get("appendfsync") == {"appendfsync": "always"}
        # And the service runs: an append is acknowledged.
        created, tokens = services.games.create("mada", ["Ana", "Ben"], 1, {})
        move = MADA.legal_moves(MADA.new_game(2, created.seed, created.options))[0]
        assert services.games.append(created.id, tokens.recorder, move).version == 1
        assert url == embedded.url
    finally:
        embedded.stop()
