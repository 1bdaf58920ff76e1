"""`tabletape import` never crashes on a file (api.md, "Bringing history in"): a file it cannot
read is one line naming the file and why, never a traceback, and a play that cannot be read is
skipped with its reason while the other plays go on, run as the command line runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.api import create, play_to_the_end
from tests.support.history import Backup
from tests.support.workers import run_cli, worker_env

# 100,000 lists, each in the one before: deeper than any reader's recursion goes.
NESTED = "[" * 100_000


@pytest.fixture
def env(redis_url: str, key_prefix: str, tmp_path: Path, app: Flask) -> dict[str, str]:
    # ``app`` (on the same prefix) cleans the prefix's keys up after the test.
    return worker_env(redis_url, key_prefix, tmp_path / "archive")


@pytest.mark.parametrize("option", [["--bgstats"], []], ids=["a backup", "records"])
def test_a_file_nested_too_deep_is_one_line_naming_it(
    env: dict[str, str], tmp_path: Path, option: list[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text(NESTED)
    done = run_cli(env, "import", *option, str(path))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    told = [line for line in done.stderr.splitlines() if str(path) in line]
    assert len(told) == 1 and "nested too deep" in told[0], done.stderr


def test_a_play_whose_title_holds_a_lone_surrogate_is_skipped_and_the_others_imported(
    env: dict[str, str], tmp_path: Path, app: Flask
) -> None:
    backup = Backup()
    ann, ben = backup.player("Ann"), backup.player("Ben")
    azul, broken = backup.game("Azul"), backup.game("Carcassonne \ud800")
    backup.play(azul, "2021-01-01 20:00:00", [(ann, "5", True), (ben, "3", False)])
    backup.play(broken, "2021-01-02 20:00:00", [(ann, "5", True), (ben, "3", False)])
    backup.play(azul, "2021-01-03 20:00:00", [(ann, "2", False), (ben, "3", True)])
    path = tmp_path / "backup.json"
    # As the app writes it: the surrogate as the JSON escape \ud800.
    path.write_text(json.dumps(backup.export()))
    assert "\\ud800" in path.read_text()
    done = run_cli(env, "import", "--bgstats", str(path))
    assert "Traceback" not in done.stderr
    assert done.returncode == 0, done.stderr
    assert "2 imported, 0 already here, 0 differing, 1 skipped" in done.stdout
    assert "surrogate" in done.stderr
    games = app.test_client().get("/games?game=scoresheet").json["games"]
    assert len(games) == 2
    again = run_cli(env, "import", "--bgstats", str(path))
    assert again.returncode == 0, again.stderr
    assert "0 imported, 2 already here, 0 differing, 1 skipped" in again.stdout


def test_a_record_holding_a_lone_surrogate_is_rejected_and_the_others_imported(
    env: dict[str, str], tmp_path: Path, client: FlaskClient, key_prefix: str, redis_url: str
) -> None:
    game = create(client, players=["Ana", "Ben"])
    play_to_the_end(client, game)
    exported = client.get(f"/games/{game['id']}/export").json
    broken = {**exported, "players": ["Ana \ud800", "Ben"]}
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(broken) + "\n" + json.dumps(exported) + "\n")
    # Into another store (another key prefix): the good record is new there.
    other = worker_env(redis_url, f"{key_prefix}other:", tmp_path / "archive")
    done = run_cli(other, "import", str(path))
    assert "Traceback" not in done.stderr
    assert done.returncode == 1
    assert done.stdout.count(": game ") == 1, done.stdout
    assert f"rejected {path}#1" in done.stderr and "surrogate" in done.stderr
