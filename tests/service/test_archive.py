"""After the last move: archiving by RQ workers, recovery, audit, export and import.

On the real Redis server; at least one test runs `tabletape worker --burst` as a real process.
"""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from service.store.archive import Archive
from service.store.audit import replay_record
from service.store.connection import StoreClient
from service.store.queue import archive_job_id
from tests.conftest import make_app
from tests.support.api import assert_error, auth, create, new_record, play_to_the_end
from tests.support.records import tamper
from tests.support.workers import REPO, drain, run_cli, worker_env


@pytest.fixture
def real_redis(store_redis: StoreClient) -> StoreClient:
    """This module's tests run on the plain Redis, then on the cluster (tests/conftest.py)."""
    return store_redis


def finished_game(client: FlaskClient, seed: int = 0, players: int = 2) -> dict[str, Any]:
    game = create(client, players=["Ana", "Ben", "Caro", "Dan"][:players], seed=seed)
    play_to_the_end(client, game, seed=seed)
    return game


def games_counted(client: FlaskClient) -> int:
    count: int = client.get("/stats/mada").json["games"]
    return count


# Archiving ---------------------------------------------------------------------------------------
def test_a_real_worker_process_archives_a_finished_game(
    client: FlaskClient, store_url: str, key_prefix: str, archive_dir: Path
) -> None:
    game = finished_game(client)
    assert client.get(f"/games/{game['id']}").json["status"] == "finished"
    done = run_cli(worker_env(store_url, key_prefix, archive_dir), "worker", "--burst")
    assert done.returncode == 0, done.stderr
    record = client.get(f"/games/{game['id']}").json
    assert record["status"] == "archived"
    document = Archive(archive_dir).read(game["id"])
    assert document is not None
    replayed = replay_record(document, [
        {k: v for k, v in e.items() if k not in ("seq", "at", "hash")} for e in document["events"]
    ])  # fmt: skip
    assert replayed.ok and replayed.result == record["result"]
    assert document["head_hash"] == document["events"][-1]["hash"]
    assert client.get(f"/games/{game['id']}/audit").json["head_hash"] == document["head_hash"]
    assert games_counted(client) == 1


def test_the_archive_file_is_gzipped_json_written_whole(
    app: Flask, client: FlaskClient, archive_dir: Path
) -> None:
    game = finished_game(client)
    drain(app)
    path = Archive(archive_dir).path(game["id"])
    document = json.loads(gzip.decompress(path.read_bytes()))
    assert document["id"] == game["id"]
    assert {"game", "players", "seed", "options", "rules_version", "events", "head_hash",
            "result"} <= set(document)  # fmt: skip
    assert not list(path.parent.glob(".tmp-*")), "a temporary file was left behind"


def test_enqueueing_and_archiving_twice_counts_the_game_once(
    app: Flask, client: FlaskClient
) -> None:
    game = finished_game(client)
    drain(app)
    queue = app.extensions["tabletape.queue"]
    # Force a second run of the same job, as a crash and a recovery would.
    app.extensions["tabletape"].store.redis.hset(
        f"{app.config['KEY_PREFIX']}{{{game['id']}}}:header", "status", "finished"
    )
    queue.enqueue(game["id"])
    drain(app)
    assert client.get(f"/games/{game['id']}").json["status"] == "archived"
    assert games_counted(client) == 1


@pytest.mark.parametrize("hang_before", ["count", "rate", "mark"])
def test_a_worker_killed_mid_job_then_rerun_archives_and_counts_once(
    app: Flask, client: FlaskClient, store_url: str, key_prefix: str, archive_dir: Path,
    tmp_path: Path, hang_before: str,
) -> None:  # fmt: skip
    game = finished_game(client)
    queue = app.extensions["tabletape.queue"]
    queue.queue.empty()
    marker = tmp_path / "reached"
    queue.queue.enqueue(
        "tests.service.slow_jobs.archive_then_hang",
        game["id"],
        job_id=archive_job_id(key_prefix, game["id"]),
        hang_before=hang_before,
        marker=str(marker),
        **queue.job_args,
    )
    env = worker_env(store_url, key_prefix, archive_dir)
    worker = subprocess.Popen(
        [sys.executable, "-m", "cli", "worker", "--burst"],
        env=env, cwd=REPO, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert worker.poll() is None, "the worker ended before reaching the point"
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        os.killpg(worker.pid, signal.SIGKILL)  # the worker and its work horse, outright
        worker.wait()
    assert client.get(f"/games/{game['id']}").json["status"] == "finished"
    assert games_counted(client) == (0 if hang_before == "count" else 1)
    assert len(client.get("/ratings/mada").json["ratings"]) == (2 if hang_before == "mark" else 0)

    again = run_cli(env, "worker", "--burst")  # its start re-enqueues the unarchived game
    assert again.returncode == 0, again.stderr
    assert client.get(f"/games/{game['id']}").json["status"] == "archived"
    assert games_counted(client) == 1
    # Rated once: each of the two players has one game rated.
    rated = client.get("/ratings/mada").json["ratings"]
    assert sorted((row["player"], row["games"]) for row in rated) == [("Ana", 1), ("Ben", 1)]


def test_a_game_finished_while_no_worker_runs_is_archived_after_reconcile(
    app: Flask, client: FlaskClient, store_url: str, key_prefix: str, archive_dir: Path
) -> None:
    game = finished_game(client)
    # As if the API had died between the last append and the enqueue.
    app.extensions["tabletape.queue"].queue.empty()
    env = worker_env(store_url, key_prefix, archive_dir)
    reconciled = run_cli(env, "reconcile")
    assert reconciled.returncode == 0 and "1 games enqueued" in reconciled.stdout
    drain(app)
    assert client.get(f"/games/{game['id']}").json["status"] == "archived"


def test_reads_work_the_same_for_an_archived_game(app: Flask, client: FlaskClient) -> None:
    game = finished_game(client)
    before = {path: client.get(f"/games/{game['id']}/{path}").json
              for path in ("events", "state?at=5", "state", "export")}  # fmt: skip
    drain(app)
    for path, body in before.items():
        assert client.get(f"/games/{game['id']}/{path}").json == body
    assert client.get(f"/games/{game['id']}/audit").json["ok"] is True


def test_trimmed_games_are_read_from_the_archive(
    real_redis: redis.Redis, key_prefix: str, archive_dir: Path
) -> None:
    app = make_app(real_redis, key_prefix, ARCHIVE_DIR=str(archive_dir), ARCHIVE_TRIM=True)
    client = app.test_client()
    game = finished_game(client)
    before = {path: client.get(f"/games/{game['id']}/{path}").json
              for path in ("events", "state?at=7", "state", "export")}  # fmt: skip
    drain(app)
    assert not real_redis.exists(f"{key_prefix}{{{game['id']}}}:events")
    for path, body in before.items():
        assert client.get(f"/games/{game['id']}/{path}").json == body
    audit = client.get(f"/games/{game['id']}/audit").json
    assert audit["ok"] is True, audit


# Audit ---------------------------------------------------------------------------------------


def test_audit_of_a_sound_game_is_ok(client: FlaskClient) -> None:
    game = finished_game(client)
    audit = client.get(f"/games/{game['id']}/audit").json
    record = client.get(f"/games/{game['id']}").json
    assert audit == {"ok": True, "version": record["version"], "problems": [],
                     "head_hash": client.get(f"/games/{game['id']}/events").json["events"][-1][
                         "hash"]}  # fmt: skip


def test_a_tampered_event_is_detected_and_named(
    app: Flask, client: FlaskClient, real_redis: redis.Redis, key_prefix: str
) -> None:
    game = create(client, players=["Ana", "Ben"], seed=5)
    play_to_the_end(client, game, seed=5)
    events = client.get(f"/games/{game['id']}/events").json["events"]
    target = next(e for e in events if e["type"] == "play")
    tamper(real_redis, key_prefix, game["id"], target["seq"], note="edited")
    audit = client.get(f"/games/{game['id']}/audit").json
    assert audit["ok"] is False
    assert any(f"event {target['seq']}" in problem for problem in audit["problems"])
    # The archive job refuses it too, and the audit keeps saying why.
    drain(app)
    assert client.get(f"/games/{game['id']}").json["status"] == "finished"
    assert any("archive job refused" in p for p in client.get(
        f"/games/{game['id']}/audit").json["problems"])  # fmt: skip
    assert games_counted(client) == 0


def test_audit_command_exits_1_on_a_tampered_game(
    client: FlaskClient, real_redis: redis.Redis, store_url: str, key_prefix: str,
    archive_dir: Path,
) -> None:  # fmt: skip
    game = finished_game(client)
    env = worker_env(store_url, key_prefix, archive_dir)
    sound = run_cli(env, "audit", game["id"])
    assert sound.returncode == 0 and json.loads(sound.stdout)["ok"] is True
    second = client.get(f"/games/{game['id']}/events?from=2&limit=1").json["events"][0]
    tamper(real_redis, key_prefix, game["id"], 2, player=1 - second["player"])
    broken = run_cli(env, "audit", game["id"])
    assert broken.returncode == 1
    assert any("event 2" in p for p in json.loads(broken.stdout)["problems"])


def test_a_changed_archive_file_is_detected(
    app: Flask, client: FlaskClient, archive_dir: Path
) -> None:
    game = finished_game(client)
    drain(app)
    archive = Archive(archive_dir)
    document = archive.read(game["id"])
    assert document is not None
    document["result"] = {"winners": [0, 1], "scores": [99, 99]}
    archive.write(document)
    audit = client.get(f"/games/{game['id']}/audit").json
    assert audit["ok"] is False
    assert any("archive" in problem for problem in audit["problems"])


# Export and import ---------------------------------------------------------------------------
def test_an_unfinished_game_imports_as_active_and_can_go_on(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"])
    exported = client.get(f"/games/{game['id']}/export", headers=auth(game)).json
    copy = client.post("/games/import", json=new_record(exported)).json
    assert (copy["status"], copy["version"]) == ("active", 0)
    finished_copy = play_to_the_end(client, copy)
    assert finished_copy[-1]["state"]["status"] == "finished"


def test_a_corrupted_import_is_rejected_whole_naming_the_first_bad_event(
    client: FlaskClient,
) -> None:
    game = finished_game(client, seed=2)
    exported = client.get(f"/games/{game['id']}/export").json
    bad = 6
    exported["events"][bad - 1] = {**exported["events"][bad - 1], "player": 7}
    before = client.get("/games").json["games"]
    details = assert_error(client.post("/games/import", json=exported), 422, "illegal_move")
    assert details["event"] == bad
    assert client.get("/games").json["games"] == before


def test_a_malformed_import_is_400(client: FlaskClient) -> None:
    assert_error(client.post("/games/import", json={"game": "mada"}), 400, "invalid_request")


def test_import_command_takes_files_of_many_records_and_folders_and_rejects_bad_ones(
    client: FlaskClient, store_url: str, key_prefix: str, archive_dir: Path, tmp_path: Path
) -> None:
    exported = [
        client.get(f"/games/{finished_game(client, seed=seed)['id']}/export").json
        for seed in (8, 9, 10)
    ]
    folder = tmp_path / "backup"
    (folder / "older").mkdir(parents=True)
    (folder / "one.json").write_text(json.dumps(exported[0]))
    # A file of many records: a JSON list of them (JSON Lines, one per line, is read too).
    (folder / "older" / "two.jsonl").write_text("\n".join(json.dumps(e) for e in exported[1:]))
    broken = {**exported[0], "events": [{"type": "fly"}]}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([broken]))
    # Into another store (another key prefix): the records are new there.
    other = worker_env(store_url, f"{key_prefix}other:", archive_dir)
    done = run_cli(other, "import", str(folder), str(bad))
    assert done.returncode == 1
    assert done.stdout.count(": game ") == 3, done.stdout
    assert "rejected" in done.stderr and "bad.json" in done.stderr
    # Again: each of the three is refused as already imported, naming its game.
    again = run_cli(other, "import", str(folder))
    assert again.returncode == 1
    assert again.stderr.count("already_imported") == 3 or again.stderr.count("here already") == 3


def test_stats_rebuild_from_the_archive_equals_the_live_projections(
    app: Flask, client: FlaskClient, store_url: str, key_prefix: str, archive_dir: Path
) -> None:
    for seed in range(4):
        finished_game(client, seed=seed, players=2 + seed % 3)
    drain(app)
    live = client.get("/stats/mada").json
    players = {name: client.get(f"/players/{name}/stats").json for name in ("Ana", "Caro")}
    assert live["games"] == 4
    done = run_cli(worker_env(store_url, key_prefix, archive_dir), "stats", "rebuild")
    assert done.returncode == 0, done.stderr
    assert client.get("/stats/mada").json == live
    assert {name: client.get(f"/players/{name}/stats").json for name in players} == players


def test_an_import_completes_its_options_with_their_defaults(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"], options={"first_player": 1})
    exported = client.get(f"/games/{game['id']}/export", headers=auth(game)).json
    # A record written by hand may leave out the options it takes by default.
    exported["options"] = {"first_player": 1}
    copy = client.post("/games/import", json=new_record(exported))
    assert copy.status_code == 201
    assert copy.json["options"] == game["options"] == {"first_player": 1, "chance": "seeded"}


def test_export_all_writes_every_game_a_line_that_import_takes_elsewhere(
    client: FlaskClient, store_url: str, key_prefix: str, archive_dir: Path, tmp_path: Path
) -> None:
    games = [finished_game(client, seed=seed) for seed in (11, 12)]
    games.append(create(client, players=["Ana", "Ben"]))  # an active game moves too
    backup = tmp_path / "games.jsonl"
    done = run_cli(worker_env(store_url, key_prefix, archive_dir), "export", "--all", "-o",
                   str(backup))  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = backup.read_text().splitlines()
    assert len(lines) == 3
    assert {json.loads(line)["seed_commitment"] for line in lines} == {
        client.get(f"/games/{game['id']}", headers=auth(game)).json["seed_commitment"]
        for game in games
    }
    moved = run_cli(worker_env(store_url, f"{key_prefix}moved:", archive_dir), "import",
                    str(backup))  # fmt: skip
    assert moved.returncode == 0, moved.stderr
    assert moved.stdout.count(": game ") == 3


def test_a_finished_game_whose_finish_time_does_not_exist_is_refused_once_not_retried(
    app: Flask, client: FlaskClient, real_redis: redis.Redis, key_prefix: str,
    archive_dir: Path,
) -> None:  # fmt: skip
    from rq.registry import FailedJobRegistry

    game = finished_game(client, seed=3)
    real_redis.hset(f"{key_prefix}{{{game['id']}}}:header", "finished_at", "2025-02-30T10:00:00Z")
    drain(app)
    assert client.get(f"/games/{game['id']}").json["status"] == "finished"
    problems = client.get(f"/games/{game['id']}/audit").json["problems"]
    assert any("archive job refused" in p and "finished_at" in p for p in problems), problems
    assert not Archive(archive_dir).path(game["id"]).exists()
    queue = app.extensions["tabletape.queue"].queue
    assert FailedJobRegistry(queue=queue).count == 0
    assert games_counted(client) == 0
