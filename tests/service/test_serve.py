"""`tabletape serve`: gunicorn in front of the app, on an embedded Redis when REDIS_URL is unset."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def request(url: str, body: dict[str, object] | None = None) -> tuple[int, dict[str, object]]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as response:
        return response.status, json.loads(response.read())


def test_serve_runs_gunicorn_on_an_embedded_redis_and_stops_it(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "TABLETAPE_REDIS_URL")}
    env["TABLETAPE_DATA_DIR"] = str(tmp_path)
    server = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "1"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                status, health = request(f"{base}/health")
                break
            except OSError:
                assert server.poll() is None, server.stdout.read()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.1)
        assert status == 200 and health["status"] == "ok"
        status, game = request(f"{base}/games", {"game": "mada", "players": ["Ana", "Ben"]})
        assert status == 201 and game["status"] == "active"
        assert (tmp_path / "redis.sock").exists()
    finally:
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=30)
    assert server.returncode == 0, output
    assert "gunicorn" in output.lower()
    assert not (tmp_path / "redis.sock").exists(), "the embedded Redis was left running"
