"""The embedded Redis: starts on a socket in its data folder, keeps its AOF, stops cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import redis

from service.store.embedded import EmbeddedRedis


def test_embedded_redis_starts_and_stops_leaving_no_process(tmp_path: Path) -> None:
    embedded = EmbeddedRedis(tmp_path)
    url = embedded.start()
    assert url == f"unix://{tmp_path.resolve() / 'redis.sock'}"
    assert redis.Redis.from_url(url).ping()
    pid = embedded.process.pid  # type: ignore[union-attr]
    embedded.stop()
    assert not _alive(pid)
    assert not embedded.running()


def test_embedded_redis_keeps_its_data_across_restarts(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path) as url:
        redis.Redis.from_url(url).set("kept", "yes")
    assert list(tmp_path.glob("appendonly*"))
    with EmbeddedRedis(tmp_path) as url:
        assert redis.Redis.from_url(url).get("kept") == b"yes"


def test_embedded_redis_dies_with_a_killed_parent(tmp_path: Path) -> None:
    # The parent is killed outright (no atexit): the kernel's parent-death signal stops Redis.
    script = (
        "import sys, time; from service.store.embedded import EmbeddedRedis;"
        f"e = EmbeddedRedis({str(tmp_path)!r}); e.start(); print(e.process.pid, flush=True);"
        "time.sleep(60)"
    )
    with subprocess.Popen(
        [sys.executable, "-c", script], stdout=subprocess.PIPE, text=True
    ) as parent:
        assert parent.stdout is not None
        redis_pid = int(parent.stdout.readline())
        assert _alive(redis_pid)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 10
    while _alive(redis_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(redis_pid)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0): look at its state.
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split()[2]
    except FileNotFoundError:
        return False
    return state != "Z"
