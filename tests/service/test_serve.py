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
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def request(url: str, body: object = None, token: str | None = None) -> tuple[int, dict[str, Any]]:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=5) as response:
        return response.status, json.loads(response.read())


def test_serve_runs_gunicorn_on_an_embedded_redis_that_a_worker_joins(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "TABLETAPE_REDIS_URL")}
    env["TABLETAPE_DATA_DIR"] = str(tmp_path)
    # The test records a game faster than any person: the rate limit is tested on its own.
    env["TABLETAPE_RATE_LIMIT"] = ""
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

        # Record the game to its end, then archive it with `tabletape worker`, which finds the
        # embedded Redis that `serve` started in the same data folder (no REDIS_URL either).
        url = f"{base}/games/{game['id']}"
        while moves := request(f"{url}/legal", token=game["token"])[1]["moves"]:
            assert request(f"{url}/events", moves[-1], token=game["token"])[0] == 201
        assert request(url)[1]["status"] == "finished"
        worker = subprocess.run(
            [sys.executable, "-m", "service.cli", "worker", "--burst"],
            env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert worker.returncode == 0, worker.stderr
        assert request(url)[1]["status"] == "archived"
        assert list((tmp_path / "archive").glob(f"*/{game['id']}.json.gz"))
    finally:
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=30)
    assert server.returncode == 0, output
    assert "gunicorn" in output.lower()
    assert not (tmp_path / "redis.sock").exists(), "the embedded Redis was left running"
