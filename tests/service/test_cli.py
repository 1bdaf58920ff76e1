"""The `tabletape` command line: simulate, replay, and the help of every command.

simulate and replay run as real processes on the real Redis server, like `tabletape worker` in
test_archive.py; the help pages are read in-process, command by command.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from flask import Flask

from cli import main
from tests.support.api import bodies
from tests.support.workers import run_cli, worker_env


@pytest.fixture
def env(redis_url: str, key_prefix: str, tmp_path: Path) -> dict[str, str]:
    return worker_env(redis_url, key_prefix, tmp_path / "archive")


def simulated_ids(stdout: str) -> list[str]:
    return [line.split()[0] for line in stdout.splitlines() if line.strip()]


def test_simulate_records_complete_games_that_replay_prints_move_by_move(
    env: dict[str, str], app: Flask
) -> None:
    done = run_cli(env, "simulate", "mada", "-n", "3", "--seed", "7")
    assert done.returncode == 0, done.stderr
    ids = simulated_ids(done.stdout)
    assert len(ids) == 3
    assert "seed 7" in done.stderr
    client = app.test_client()
    for game_id in ids:
        record = client.get(f"/games/{game_id}").json
        assert record["status"] == "finished" and record["game"] == "mada"
        assert client.get(f"/games/{game_id}/audit").json["ok"] is True
    # Each finished game was queued for archiving, as an append through the API does.
    assert app.extensions["tabletape.queue"].waiting() == 3

    record = client.get(f"/games/{ids[0]}").json
    shown = run_cli(env, "replay", ids[0])
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0].startswith(f"game {ids[0]}: mada (mada/1), seed {record['seed']}")
    moves = [line for line in lines if re.match(r"\s*\d+  ", line)]
    assert [int(line.split()[0]) for line in moves] == list(range(1, record["version"] + 1))
    events = client.get(f"/games/{ids[0]}/events").json["events"]
    for line, event in zip(moves, events, strict=True):
        assert line.split()[1] == record["players"][event["player"]]
        assert line.split()[2] == event["type"]
    winners = [record["players"][seat] for seat in record["result"]["winners"]]
    assert lines[-1].startswith("result: ") and all(name in lines[-1] for name in winners)
    assert "next " in shown.stdout and "round 2" in shown.stdout


def test_simulate_makes_score_sheets_of_titles_to_their_end(
    env: dict[str, str], app: Flask
) -> None:
    done = run_cli(env, "simulate", "scoresheet", "-n", "6", "--seed", "5")
    assert done.returncode == 0, done.stderr
    client = app.test_client()
    titles = set()
    for game_id in simulated_ids(done.stdout):
        record = client.get(f"/games/{game_id}").json
        assert record["status"] == "finished" and record["game"] == "scoresheet"
        assert client.get(f"/games/{game_id}/audit").json["ok"] is True
        titles.add(record["options"]["title"])
        events = client.get(f"/games/{game_id}/events").json["events"]
        # Points written down before the end, as a score pad fills.
        assert events[-1]["type"] == "end"
        if record["options"].get("scoring", "highest") != "none":
            assert {"score", "round"} & {event["type"] for event in events}
    assert len(titles) > 1


def test_simulate_with_a_seed_records_the_same_games_again(env: dict[str, str], app: Flask) -> None:
    runs = [run_cli(env, "simulate", "sifaka", "-n", "2", "--players", "3", "--seed", "3")
            for _ in range(2)]  # fmt: skip
    assert all(run.returncode == 0 for run in runs), runs[0].stderr
    first, second = (simulated_ids(run.stdout) for run in runs)
    assert set(first).isdisjoint(second)
    client = app.test_client()
    for one, other in zip(first, second, strict=True):
        # The same games, each with a salt of its own (so another commitment to the same seed).
        exported, again = (client.get(f"/games/{game}/export").json for game in (one, other))
        assert exported["seed_salt"] != again["seed_salt"]
        # Each its own salt and times; the same game otherwise.
        own = ("seed_salt", "seed_commitment", "created_at", "finished_at", "events")
        assert {k: v for k, v in exported.items() if k not in own} == {
            k: v for k, v in again.items() if k not in own
        }
        assert bodies(exported) == bodies(again)
        assert len(exported["players"]) == 3


def test_simulate_reports_a_game_that_does_not_end_within_the_cap(env: dict[str, str]) -> None:
    done = run_cli(env, "simulate", "madcala", "-n", "1", "--seed", "1", "--max-events", "5")
    assert done.returncode == 1
    assert "NOT FINISHED: stopped after 5 moves" in done.stdout
    assert "1 of 1 games did not finish" in done.stderr


def test_simulate_refuses_a_player_count_the_game_does_not_allow(env: dict[str, str]) -> None:
    done = run_cli(env, "simulate", "madcala", "-n", "1", "--players", "3")
    assert done.returncode == 2
    assert "Madcala is played by 2 players" in done.stderr


def test_replay_of_an_unknown_game_says_so(env: dict[str, str]) -> None:
    done = run_cli(env, "replay", "nosuchgame")
    assert done.returncode == 1
    assert "no game with id 'nosuchgame'" in done.stderr


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = []
    for name, command in group.commands.items():
        found.append((*path, name))
        if isinstance(command, click.Group):
            found += _commands(command, (*path, name))
    return found


def test_tabletape_help_lists_and_explains_every_command(env: dict[str, str]) -> None:
    shown = run_cli(env, "--help")
    assert shown.returncode == 0, shown.stderr
    listed = shown.stdout.split("Commands:")[1]
    for name, command in main.commands.items():
        summary = command.get_short_help_str(limit=1000)
        assert re.search(rf"^\s+{name}\s+\S", listed, re.MULTILINE), name
        assert not summary.endswith("..."), f"the summary of {name} is cut short"
    assert {"serve", "worker", "replay", "simulate", "audit", "export", "import"} <= set(
        main.commands
    )


@pytest.mark.parametrize("command", _commands(main), ids=" ".join)
def test_each_command_has_a_help_page(command: tuple[str, ...]) -> None:
    result = CliRunner().invoke(main, [*command, "--help"], prog_name="tabletape")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"Usage: tabletape {' '.join(command)} ")
    description = result.output.split("\n\n")[1].strip()
    assert len(description) > 20, f"`tabletape {' '.join(command)} --help` explains nothing"


def test_replay_folds_retractions_and_marks_the_voided_moves(
    env: dict[str, str], app: Flask
) -> None:
    client = app.test_client()
    game = client.post("/games", json={"game": "mada", "players": ["Ana", "Ben"], "seed": 4}).json
    headers = {"Authorization": f"Bearer {game['token']}"}
    url = f"/games/{game['id']}"

    def first_legal() -> dict:
        return client.get(f"{url}/legal", headers=headers).json["moves"][0]

    for body in (first_legal(), {"type": "retract"}, first_legal()):
        assert client.post(f"{url}/events", json=body, headers=headers).status_code == 201
    shown = run_cli(env, "replay", game["id"])
    assert shown.returncode == 0, shown.stderr
    assert "refuse" not in shown.stderr
    moves = [line for line in shown.stdout.splitlines() if re.match(r"\s*\d+  ", line)]
    assert len(moves) == 3
    assert "(voided)" in moves[0] and "retract" in moves[1] and "(voided)" not in moves[2]


def test_simulate_draws_its_players_from_the_names_given(env: dict[str, str], app: Flask) -> None:
    names = ["Kim", "Lou", "Max", "Noor"]
    done = run_cli(env, "simulate", "mada", "-n", "4", "--seed", "5", "--names", ",".join(names))
    assert done.returncode == 0, done.stderr
    client = app.test_client()
    seated = [client.get(f"/games/{game}").json["players"] for game in simulated_ids(done.stdout)]
    assert all(set(players) <= set(names) for players in seated)
    assert len({name for players in seated for name in players}) > 2
    too_few = run_cli(env, "simulate", "mada", "-n", "1", "--players", "3", "--names", "Kim,Lou")
    assert too_few.returncode == 2 and "--names" in too_few.stderr


def test_serve_on_a_port_in_use_says_so_and_names_the_option(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "cli", "serve", "--port", str(port),
             "--no-worker"],
            env={**os.environ, "TABLETAPE_DATA_DIR": str(tmp_path)},
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert done.returncode == 1
    assert f"127.0.0.1:{port}" in done.stderr and "--port" in done.stderr
    assert "Traceback" not in done.stderr
