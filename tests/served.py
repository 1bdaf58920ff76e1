"""`tabletape serve` run as a user runs it, for the tests that need a real server process: gunicorn
and its workers in front of the app (tests/service/test_serve.py, test_stream.py,
test_followers.py)."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# How long the server may take to answer /health, then to stop once asked.
START_SECONDS = 30
STOP_SECONDS = 60


def serve_refused(
    env: dict[str, str], *args: str, port: int = 0, seconds: float = 30
) -> tuple[int, str, str]:
    """`tabletape serve` that must refuse to start: its exit code, stdout and stderr. Run in a
    session of its own, so that should it start serving after all, it is stopped with every
    process it started and the test fails saying so."""
    server = subprocess.Popen(
        [sys.executable, "-m", "cli", "serve", "--port", str(port or free_port()), *args],
        env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        stdout, stderr = server.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        stdout, stderr = server.communicate()
        raise AssertionError(f"serve started where it must refuse to: {stderr}") from None
    return server.returncode, stdout, stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Served:
    port: int
    # The server's output: gunicorn's log and the access log.
    log_path: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def log(self) -> str:
        return self.log_path.read_text()


@contextmanager
def serving(
    data_dir: Path,
    *options: str,
    redis_url: str | None = None,
    key_prefix: str | None = None,
    **settings: str,
) -> Iterator[Served]:
    """`tabletape serve` with the command-line ``options`` and the settings ``settings`` (names
    without TABLETAPE_), its data and its log (serve.log) in ``data_dir``; on ``redis_url``, else
    on the embedded Redis it starts there. No rate limit: tests record faster than any person.

    Yields once /health answers. On leaving, SIGTERM: the server must exit 0, with no traceback
    in its log. The log is printed (less the streams' access lines), for pytest to show when the
    test fails."""
    port = free_port()
    # The archive worker only where a test asks for it: most serve the API alone, with their
    # finished games staying finished.
    if "--worker" not in options:
        options = ("--no-worker", *options)
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "TABLETAPE_REDIS_URL", "TABLETAPE_STREAM_LIMIT")}  # fmt: skip
    if redis_url is not None:
        env["REDIS_URL"] = redis_url
    if key_prefix is not None:
        env["TABLETAPE_KEY_PREFIX"] = key_prefix
    env["TABLETAPE_DATA_DIR"] = str(data_dir)
    env["TABLETAPE_RATE_LIMIT"] = ""
    env.update({f"TABLETAPE_{name}": value for name, value in settings.items()})
    # A file, not a pipe: the access log of hundreds of streams would fill a pipe no one reads.
    served = Served(port, data_dir / "serve.log")
    with served.log_path.open("w") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "cli", "serve", "--port", str(port), *options],
            env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    try:
        _wait_for_health(server, served)
        yield served
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=STOP_SECONDS)
        output = served.log()
        print("\n".join(line for line in output.splitlines() if " /stream " not in line))
    assert server.returncode == 0, output
    assert "Traceback" not in output, output


def _wait_for_health(server: subprocess.Popen[bytes], served: Served) -> None:
    deadline = time.monotonic() + START_SECONDS
    while True:
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=5)
        try:
            connection.request("GET", "/health")
            if connection.getresponse().status == 200:
                return
        except (OSError, http.client.HTTPException):
            pass  # not listening yet
        finally:
            connection.close()
        assert server.poll() is None, served.log()
        assert time.monotonic() < deadline, "the server did not come up"
        time.sleep(0.1)
