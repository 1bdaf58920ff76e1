"""GET /health tells the truth about the archive work, on real Redis: it counts only the workers
alive now (a recent heartbeat: a worker killed with -9 leaves its registration behind), counts a
finished game that the archive job refused or failed as a game not counted, and says
``degraded`` rather than ``ok`` while a finished game waits with no worker to count it, or will
not be counted at all."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import redis
from flask import Flask
from flask.testing import FlaskClient

from service.store.queue import ALIVE_SECONDS
from tests.support.api import create, play_to_the_end
from tests.support.records import tamper
from tests.support.workers import REPO, drain


def finished_game(client: FlaskClient, seed: int = 0) -> dict[str, Any]:
    game = create(client, players=["Ana", "Ben"], seed=seed)
    play_to_the_end(client, game, seed=seed)
    return game


def health(client: FlaskClient) -> dict[str, Any]:
    response = client.get("/health")
    assert response.status_code == 200, response.json
    body: dict[str, Any] = response.json
    return body


def wait_for(what: str, check: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"not within {seconds} s: {what}"
        time.sleep(0.2)


def test_a_worker_killed_with_kill_9_is_no_longer_counted(
    client: FlaskClient, redis_url: str, key_prefix: str, archive_dir: Path
) -> None:
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "TABLETAPE_KEY_PREFIX": key_prefix,
        "ARCHIVE_DIR": str(archive_dir),
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "cli", "worker"],
        env=env, cwd=REPO, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        wait_for("the worker counted", lambda: health(client)["queue"]["archive"]["workers"], 60)
        assert health(client)["status"] == "ok"
    finally:
        os.killpg(worker.pid, signal.SIGKILL)  # no goodbye: its registration stays behind
        worker.wait()
    killed = time.monotonic()
    wait_for(
        "the killed worker no longer counted",
        lambda: health(client)["queue"]["archive"]["workers"] == 0,
        ALIVE_SECONDS + 10,
    )
    assert time.monotonic() - killed >= 1  # its heartbeat was recent when it was killed
    # A game that finishes now waits with no worker to count it: not "ok".
    finished_game(client)
    said = health(client)
    assert said["status"] == "degraded" and said["finished_games_to_count"] == 1
    assert "no archive worker runs" in said["queue"]["archive"]["note"]


def test_a_game_the_archive_job_refused_is_counted_as_not_counted(
    app: Flask, client: FlaskClient, real_redis: redis.Redis, key_prefix: str
) -> None:
    game = finished_game(client, seed=5)
    events = client.get(f"/games/{game['id']}/events").json["events"]
    target = next(event for event in events if event["type"] == "play")
    tamper(real_redis, key_prefix, game["id"], target["seq"], note="edited")
    sound = finished_game(client, seed=6)
    drain(app)  # archives the sound game, refuses the tampered one
    assert client.get(f"/games/{sound['id']}").json["status"] == "archived"
    said = health(client)
    assert said["finished_games_to_count"] == 1
    assert said["queue"]["archive"]["refused"] == 1
    assert said["status"] == "degraded"
    assert "audit" in said["queue"]["archive"]["note"]


def test_a_game_whose_archive_job_failed_is_counted_until_it_is_archived(
    app: Flask, client: FlaskClient, archive_dir: Path
) -> None:
    # The archive folder cannot be made (a file is in its way): every attempt of the job fails.
    archive_dir.parent.mkdir(parents=True, exist_ok=True)
    archive_dir.write_text("not a folder")
    game = finished_game(client)
    drain(app)
    said = health(client)
    assert said["finished_games_to_count"] == 1 and said["queue"]["archive"]["failed"] == 1
    assert said["status"] == "degraded"
    # Mended, and the game enqueued again (as a worker's start does): it is counted, and the
    # failure of its earlier job no longer is.
    archive_dir.unlink()
    app.extensions["tabletape.queue"].enqueue(game["id"])
    drain(app)
    assert client.get(f"/games/{game['id']}").json["status"] == "archived"
    said = health(client)
    assert said["finished_games_to_count"] == 0 and said["queue"]["archive"]["failed"] == 0
    assert said["status"] == "ok"
