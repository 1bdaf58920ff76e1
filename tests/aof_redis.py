"""A redis-server of its own (Debian's), with its AOF in a folder, on a loopback port: for the
durability test and benchmark, which kill it and start it again on the same files."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis


@contextmanager
def aof_redis(folder: Path, port: int, appendfsync: str) -> Iterator[subprocess.Popen[bytes]]:
    """A redis-server with ``appendonly yes`` and ``appendfsync`` as given; killed on leaving."""
    executable = shutil.which("redis-server")
    if executable is None:
        raise RuntimeError("this needs Debian's redis-server: apt-get install redis-server")
    folder.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [executable, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(folder),
         "--appendonly", "yes", "--appendfsync", appendfsync, "--save", "",
         "--daemonize", "no", "--logfile", str(folder / "redis.log")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    client = redis.Redis(port=port, socket_timeout=1)
    deadline = time.monotonic() + 10
    while True:
        try:
            if client.ping():
                break
        except redis.RedisError as error:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise RuntimeError(f"redis-server did not start: {folder / 'redis.log'}") from error
            time.sleep(0.05)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)
