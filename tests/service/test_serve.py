"""`tabletape serve`: gunicorn in front of the app, on an embedded Redis when REDIS_URL is unset."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.served import free_port, serve_refused, serving


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
            [sys.executable, "-m", "cli", "worker", "--burst"],
            env={**env, "TABLETAPE_DATA_DIR": str(tmp_path)},
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert worker.returncode == 0, worker.stderr
        assert request(url)[1]["status"] == "archived"
        assert list((tmp_path / "archive").glob(f"*/{game['id']}.json.gz"))
    assert "gunicorn" in served.log().lower()
    assert not (tmp_path / "redis.sock").exists(), "the embedded Redis was left running"


def test_serve_alone_archives_and_counts_a_finished_game_within_seconds(tmp_path: Path) -> None:
    """The README's first command is the whole service: `tabletape serve` runs the archive
    worker itself, so a finished game reaches the statistics and the ratings with no second
    command."""
    with serving(tmp_path, "--workers", "1", "--worker") as served:
        _, game = request(f"{served.base}/games", {"game": "mada", "players": ["Ana", "Ben"]})
        url = f"{served.base}/games/{game['id']}"
        assert workers_of(tmp_path), "serve runs no archive worker"
        while moves := request(f"{url}/legal", token=game["token"])[1]["moves"]:
            assert request(f"{url}/events", moves[-1], token=game["token"])[0] == 201
        deadline = time.monotonic() + 30
        while request(url)[1]["status"] != "archived":
            assert time.monotonic() < deadline, "not archived within 30 s"
            time.sleep(0.2)
        assert request(f"{served.base}/stats/mada")[1]["games"] == 1
        ratings = request(f"{served.base}/ratings/mada")[1]["ratings"]
        assert {row["player"] for row in ratings} == {"Ana", "Ben"}
        assert request(f"{served.base}/health")[1]["queue"]["archive"]["waiting"] == 0
    # The worker stopped with the server: nothing of it is left running.
    assert workers_of(tmp_path) == []


def workers_of(data_dir: Path) -> list[int]:
    """The processes running `tabletape worker` on ``data_dir`` (read from /proc)."""
    found = []
    for process in Path("/proc").iterdir():
        try:
            command = (process / "cmdline").read_bytes().split(b"\0")
            environment = (process / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        ours = f"TABLETAPE_DATA_DIR={data_dir}".encode() in environment
        if ours and b"cli" in command and b"worker" in command:
            found.append(int(process.name))
    return found


def test_health_and_the_statistics_say_what_waits_to_be_counted(tmp_path: Path) -> None:
    """Served with --no-worker and no worker started: the finished game waits, and /health and
    the statistics page say so, and how to count it."""
    with serving(tmp_path, "--workers", "1") as served:
        _, game = request(f"{served.base}/games", {"game": "mada", "players": ["Ana", "Ben"]})
        url = f"{served.base}/games/{game['id']}"
        while moves := request(f"{url}/legal", token=game["token"])[1]["moves"]:
            assert request(f"{url}/events", moves[-1], token=game["token"])[0] == 201
        _, health = request(f"{served.base}/health")
        assert health["status"] == "degraded" and health["finished_games_to_count"] == 1
        assert "tabletape worker" in health["queue"]["archive"]["note"]
        with urllib.request.urlopen(f"{served.base}/stats/mada/view", timeout=5) as page:
            text = page.read().decode()
        assert "1 finished game is waiting to be counted" in text


def test_serve_in_fsync_mode_on_a_store_that_cannot_fsync_exits_at_once_saying_why(
    tmp_path: Path, redis_url: str, plain_redis: redis.Redis, key_prefix: str
) -> None:
    """DURABILITY=fsync on the tests' Redis, which does not fsync each write (the machine's runs
    without its AOF, the embedded one with appendfsync everysec; left as it is): the command
    exits within seconds, non-zero, with the reason on one line; its port stays free and no
    archive worker is left behind (not workers hanging behind a master that holds the port)."""
    config = {**plain_redis.config_get("appendonly"), **plain_redis.config_get("appendfsync")}
    if config["appendonly"] == "yes" and config["appendfsync"] == "always":
        pytest.skip(f"this Redis fsyncs each write ({config}): nothing to refuse")
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "TABLETAPE_REDIS_URL")},
        "REDIS_URL": redis_url,
        "TABLETAPE_DURABILITY": "fsync",
        "TABLETAPE_DATA_DIR": str(tmp_path),
        "TABLETAPE_KEY_PREFIX": key_prefix,
    }
    returncode, stdout, stderr = serve_refused(env, port=port, seconds=15)
    assert returncode != 0
    reason = [line for line in stderr.splitlines() if "DURABILITY=fsync" in line]
    assert len(reason) == 1 and "appendfsync always" in reason[0], stderr
    assert "Traceback" not in stderr + stdout
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", port))  # free
    assert workers_of(tmp_path) == []


def test_serve_in_fsync_mode_sets_its_embedded_redis_to_fsync_each_write(tmp_path: Path) -> None:
    # Its own Redis is set as the mode needs (in the master, before the workers start, which
    # find it so): the service starts and answers.
    with serving(tmp_path, "--workers", "1", DURABILITY="fsync") as served:
        status, health = request(f"{served.base}/health")
        assert status == 200 and health["status"] == "ok"
        embedded = redis.Redis(unix_socket_path=str(tmp_path / "redis.sock"))
        assert embedded.config_get("appendfsync") == {"appendfsync": "always"}
        embedded.close()


def test_each_serve_has_a_control_socket_of_its_own_in_its_data_folder(tmp_path: Path) -> None:
    # gunicorn's default is one in the home folder, which every server of the machine would share.
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    with serving(first, "--workers", "1") as one, serving(second, "--workers", "1") as other:
        for served, folder in ((one, first), (other, second)):
            assert (folder / "gunicorn.ctl").is_socket()
            assert f"Control socket listening at {folder / 'gunicorn.ctl'}" in served.log()


def test_a_worker_in_fsync_mode_on_a_store_that_cannot_fsync_says_why_in_one_line(
    tmp_path: Path, redis_url: str, plain_redis: redis.Redis, key_prefix: str
) -> None:
    config = {**plain_redis.config_get("appendonly"), **plain_redis.config_get("appendfsync")}
    if config["appendonly"] == "yes" and config["appendfsync"] == "always":
        pytest.skip(f"this Redis fsyncs each write ({config}): nothing to refuse")
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "TABLETAPE_REDIS_URL")},
        "REDIS_URL": redis_url,
        "TABLETAPE_DURABILITY": "fsync",
        "TABLETAPE_DATA_DIR": str(tmp_path),
        "TABLETAPE_KEY_PREFIX": key_prefix,
    }
    run = subprocess.run(
        [sys.executable, "-m", "cli", "worker", "--burst"],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode != 0
    assert "Traceback" not in run.stderr, run.stderr
    assert run.stderr.count("\n") == 1 and "DURABILITY=fsync" in run.stderr, run.stderr
