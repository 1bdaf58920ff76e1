"""`tabletape import --bgstats FILE` and `--bgg FILE`: a group's history brought in from the
command line, against the service's store, with a progress bar."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask

from tests.support.history import Backup, bgg_xml
from tests.support.workers import run_cli, worker_env


@pytest.fixture
def env(redis_url: str, key_prefix: str, tmp_path: Path, app: Flask) -> dict[str, str]:
    # ``app`` (on the same prefix) cleans the prefix's keys up after the test.
    return worker_env(redis_url, key_prefix, tmp_path / "archive")


def test_a_backup_is_imported_from_the_command_line_once(
    env: dict[str, str], tmp_path: Path, app: Flask
) -> None:
    backup = Backup()
    ann, ben = backup.player("Ann"), backup.player("Ben")
    azul = backup.game("Azul")
    backup.play(azul, "2021-01-01 20:00:00", [(ann, "5", True), (ben, "3", False)])
    backup.play(azul, "2021-01-02 20:00:00", [(ann, "x", True), (ben, "3", False)])
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(backup.export()))
    done = run_cli(env, "import", "--bgstats", str(path), "--name", "Ann=Anna")
    assert done.returncode == 0, done.stderr
    assert "1 imported, 0 already here, 0 differing, 1 skipped" in done.stdout
    assert "importing plays" in done.stderr and "is not a number" in done.stderr
    games = app.test_client().get("/games?game=scoresheet").json["games"]
    assert [game["players"] for game in games] == [["Anna", "Ben"]]
    again = run_cli(env, "import", "--bgstats", str(path), "--name", "Ann=Anna")
    assert "0 imported, 1 already here, 0 differing, 1 skipped" in again.stdout
    # Without the names, the play makes another game than the one holding its uuid: said so.
    unmapped = run_cli(env, "import", "--bgstats", str(path))
    assert "0 imported, 0 already here, 1 differing, 1 skipped" in unmapped.stdout
    assert f"differs {backup.plays[0]['uuid']}: game {games[0]['id']}" in unmapped.stderr


def test_boardgamegeek_plays_are_imported_from_the_command_line(
    env: dict[str, str], tmp_path: Path
) -> None:
    path = tmp_path / "plays.xml"
    players = [{"name": "Ann", "score": "9", "win": True}, {"name": "Ben", "score": "4"}]
    path.write_bytes(bgg_xml([{"id": 7, "date": "2020-01-01", "name": "Azul", "players": players}]))
    done = run_cli(env, "import", "--bgg", str(path))
    assert done.returncode == 0, done.stderr
    assert "1 imported, 0 already here, 0 differing, 0 skipped" in done.stdout


def test_several_pages_of_boardgamegeek_plays_are_one_import_from_the_command_line(
    env: dict[str, str]
) -> None:
    # Four monthly pages of one member who logs only the game (the first page empty): each
    # play the page owner's, quantity counted, 60 games in all.
    samples = Path(__file__).parent.parent / "samples" / "history"
    pages = [str(samples / f"bgg-3-pages-{month}.xml")
             for month in ("2025-09", "2025-10", "2026-02", "2026-06")]  # fmt: skip
    done = run_cli(env, "import", "--bgg", *pages)
    assert done.returncode == 0, done.stderr
    assert "60 imported, 0 already here, 0 differing, 0 skipped" in done.stdout
    again = run_cli(env, "import", "--bgg", *pages)
    assert "0 imported, 60 already here, 0 differing, 0 skipped" in again.stdout


def test_a_file_that_is_not_a_backup_is_named(env: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text('{"plays": []}')
    done = run_cli(env, "import", "--bgstats", str(path))
    assert done.returncode == 1 and "players, games and plays" in done.stderr
