"""`tabletape serve` as a person runs it at a table (api.md, "Command line", the serve bullet): its
last lines say where to open it, on this machine and, listening beyond loopback, on the local
network; listening on loopback only, that the other phones cannot reach it and how to start it so
that they can; SIGTERM, or a terminal's Ctrl-C (SIGINT to every process of the server), stops it
within 5 s, answering a request in flight, with no traceback."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from service.network import local_network_address
from tests.served import REPO, free_port

# The contract's bound on a stop.
STOP_SECONDS = 5.0


class Server:
    """`tabletape serve` in a session of its own (as a terminal's foreground job), its output
    read line by line."""

    def __init__(self, data_dir: Path, *options: str) -> None:
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "TABLETAPE_REDIS_URL")}
        env.update(TABLETAPE_DATA_DIR=str(data_dir), TABLETAPE_RATE_LIMIT="")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cli", "serve", "--port", str(self.port), "--workers", "2",
             *options],
            env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True,
        )  # fmt: skip
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line.rstrip("\n"))

    def output(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, words: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while not any(words in line for line in self.lines):
            assert self.process.poll() is None, self.output()
            assert time.monotonic() < deadline, self.output()
            time.sleep(0.1)

    def stop(self, signum: signal.Signals, *, whole_group: bool = False) -> float:
        """Send ``signum`` (to every process of the server, as a terminal does, or to the
        command alone); the seconds it took to exit."""
        began = time.monotonic()
        if whole_group:
            os.killpg(self.process.pid, signum)
        else:
            self.process.send_signal(signum)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        took = time.monotonic() - began
        self._reader.join(timeout=5)
        return took

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self._reader.join(timeout=5)
        if self.process.stdout is not None:
            self.process.stdout.close()


@pytest.fixture
def started(tmp_path: Path) -> object:
    servers: list[Server] = []

    def start(*options: str) -> Server:
        server = Server(tmp_path, *options)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.kill()


def last_lines(server: Server) -> list[str]:
    """The lines after gunicorn's and the workers' own, up to the first request's log."""
    lines = [line for line in server.lines if "GET /health" not in line]
    return lines[-2:]


def test_on_loopback_it_says_where_to_open_it_and_that_other_phones_cannot(started) -> None:
    server = started("--no-worker")
    server.wait_for("Tabletape is ready")
    time.sleep(0.5)
    assert last_lines(server) == [
        f"Tabletape is ready. Open it on this machine: http://127.0.0.1:{server.port}/new",
        "Other phones cannot reach it: it listens on this machine only. For them to, start it"
        " with: tabletape serve --host 0.0.0.0",
    ]
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/new", timeout=5) as answer:
        assert answer.status == 200
    took = server.stop(signal.SIGTERM)
    assert server.process.returncode == 0, server.output()
    assert took < STOP_SECONDS, f"stopped in {took:.1f} s"
    assert "Traceback" not in server.output()


def test_beyond_loopback_it_names_the_local_networks_address_and_ctrl_c_stops_it(
    started,
) -> None:
    address = local_network_address()
    if address is None:
        pytest.skip("this machine has no address on a network")
    server = started("--host", "0.0.0.0", "--worker")
    server.wait_for("Tabletape is ready")
    time.sleep(0.5)
    assert last_lines(server) == [
        f"Tabletape is ready. Open it on this machine: http://127.0.0.1:{server.port}/new",
        "On the local network, for the other phones at the table:"
        f" http://{address}:{server.port}/new",
    ]
    # The network's address answers, and the links a page opened on this machine hands out name
    # it.
    with urllib.request.urlopen(f"http://{address}:{server.port}/health", timeout=5) as answer:
        assert answer.status == 200
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/new", timeout=5) as page:
        assert f'data-share-origin="http://{address}:{server.port}"' in page.read().decode()
    # A request in flight as Ctrl-C comes: its body is half sent; the rest follows the signal,
    # and it is answered all the same.
    body = b'{"text": "http://example.org/nights/2026-11-27/view"}'
    asking = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    asking.sendall(
        b"POST /qr HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Connection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body[:10]
    )
    time.sleep(0.3)
    stopping = threading.Thread(
        target=lambda: took.append(server.stop(signal.SIGINT, whole_group=True))
    )
    took: list[float] = []
    stopping.start()
    time.sleep(0.5)
    asking.sendall(body[10:])
    answer = b""
    while chunk := asking.recv(65536):
        answer += chunk
    asking.close()
    stopping.join(timeout=30)
    assert answer.startswith(b"HTTP/1.1 200"), answer[:200]
    assert b'"svg"' in answer
    assert server.process.returncode == 0, server.output()
    assert took and took[0] < STOP_SECONDS, f"stopped in {took} s"
    assert "Traceback" not in server.output(), server.output()
