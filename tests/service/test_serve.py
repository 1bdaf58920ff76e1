"""`tabletape serve`: gunicorn in front of the app, on an embedded Redis when REDIS_URL is unset."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

from tests.served import serving


def request(url: str, body: object = None, token: str | None = None) -> tuple[int, dict[str, Any]]:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(url, data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=5) as response:
        return response.status, json.loads(response.read())


def test_serve_runs_gunicorn_on_an_embedded_redis_that_a_worker_joins(tmp_path: Path) -> None:
    with serving(tmp_path, "--workers", "1") as served:
        status, health = request(f"{served.base}/health")
        assert status == 200 and health["status"] == "ok"
        status, game = request(f"{served.base}/games", {"game": "mada", "players": ["Ana", "Ben"]})
        assert status == 201 and game["status"] == "active"
        assert (tmp_path / "redis.sock").exists()

        # Record the game to its end, then archive it with `tabletape worker`, which finds the
        # embedded Redis that `serve` started in the same data folder (no REDIS_URL either).
        url = f"{served.base}/games/{game['id']}"
        while moves := request(f"{url}/legal", token=game["token"])[1]["moves"]:
            assert request(f"{url}/events", moves[-1], token=game["token"])[0] == 201
        assert request(url)[1]["status"] == "finished"
        env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "TABLETAPE_REDIS_URL")}
        worker = subprocess.run(
            [sys.executable, "-m", "service.cli.main", "worker", "--burst"],
            env={**env, "TABLETAPE_DATA_DIR": str(tmp_path)},
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert worker.returncode == 0, worker.stderr
        assert request(url)[1]["status"] == "archived"
        assert list((tmp_path / "archive").glob(f"*/{game['id']}.json.gz"))
    assert "gunicorn" in served.log().lower()
    assert not (tmp_path / "redis.sock").exists(), "the embedded Redis was left running"
