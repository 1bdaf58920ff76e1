"""`tabletape verify` of a tournament's export: every round paired again from the seed, every
table's record checked as a game's is, the standings counted again; a change to any of them is
refused in a sentence that says what."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.signing.keys import make_key
from tests.service.test_signed_records import current_vkey, verify
from tests.support.api import append
from tests.support.tournaments import (
    by_strength,
    create_tournament,
    organiser,
    pair,
    play_round,
    table_game,
)
from tests.support.workers import REPO

NAMES = ["Ana", "Ben", "Caro", "Dan", "Eve"]


@pytest.fixture
def app_config(tmp_path: Path) -> dict[str, Any]:
    """The service signs its games' heads with a key in the test's folder."""
    path = tmp_path / "keys" / "signing.key"
    make_key(path, "tabletape.test")
    return {"SIGNING_KEY": str(path), "SIGNER_NAME": "tabletape.test"}


@pytest.fixture
def exported(client: FlaskClient) -> dict[str, Any]:
    """A Swiss of 5 over 3 rounds (a bye each round), one table of round 2 abandoned."""
    tournament = create_tournament(client, players=NAMES, rounds=3, seed=11)
    decide = by_strength(NAMES)
    for number in range(3):
        paired = pair(client, tournament)
        if number == 1:
            first, *others = paired["tables"]
            assert append(client, table_game(first), {"type": "abandon"}).status_code == 201
            play_round(client, {**paired, "tables": others}, decide)
        else:
            play_round(client, paired, decide)
    response = client.get(f"/tournaments/{tournament['id']}/export")
    assert response.status_code == 200, response.json
    document: dict[str, Any] = response.json
    assert document["status"] == "finished"
    return document


def test_an_export_holds_whole(
    client: FlaskClient, exported: dict[str, Any], tmp_path: Path
) -> None:
    code, said = verify(tmp_path, exported, "--key", current_vkey(client))
    assert code == 0, said
    assert ": holds: " in said and "3 rounds paired again" in said and "6 tables" in said


def test_verify_run_as_a_command_says_it_holds(exported: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "cli", "verify", str(path)], cwd=REPO,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "holds" in done.stdout and "Traceback" not in done.stderr


def test_a_changed_table_result_is_refused(
    client: FlaskClient, exported: dict[str, Any], tmp_path: Path
) -> None:
    changed = copy.deepcopy(exported)
    table = changed["rounds"][0]["tables"][0]
    table["result"]["ranks"] = list(reversed(table["result"]["ranks"]))
    table["result"]["points"] = list(reversed(table["result"]["points"]))
    code, said = verify(tmp_path, changed, "--key", current_vkey(client))
    assert code == 1
    assert "REFUSED" in said and "round 1, table 1" in said and "result was changed" in said


def test_a_changed_table_record_is_refused(
    client: FlaskClient, exported: dict[str, Any], tmp_path: Path
) -> None:
    changed = copy.deepcopy(exported)
    record = changed["rounds"][2]["tables"][0]["record"]
    end = record["events"][-1]
    end["ranks"] = list(reversed(end["ranks"]))
    code, said = verify(tmp_path, changed, "--key", current_vkey(client))
    assert code == 1
    assert "round 3, table 1" in said and "record does not hold" in said


def test_changed_standings_are_refused(
    client: FlaskClient, exported: dict[str, Any], tmp_path: Path
) -> None:
    changed = copy.deepcopy(exported)
    changed["standings"][0], changed["standings"][-1] = (
        changed["standings"][-1], changed["standings"][0]
    )  # fmt: skip
    code, said = verify(tmp_path, changed, "--key", current_vkey(client))
    assert code == 1 and "standings are not those" in said


def test_a_round_paired_otherwise_is_refused(
    client: FlaskClient, exported: dict[str, Any], tmp_path: Path
) -> None:
    changed = copy.deepcopy(exported)
    paired = changed["rounds"][1]
    bye = paired["byes"][0]
    table = paired["tables"][-1]
    # The player who sat out takes a seat, and a seated player sits out instead.
    paired["byes"], table["players"][0] = [table["players"][0]], bye
    code, said = verify(tmp_path, changed, "--key", current_vkey(client))
    assert code == 1 and "round 2's tables are not those" in said


def test_a_changed_seed_is_refused(
    client: FlaskClient, exported: dict[str, Any], tmp_path: Path
) -> None:
    changed = {**exported, "seed": exported["seed"] + 1}
    code, said = verify(tmp_path, changed)
    assert code == 1 and "seed commitment" in said


def test_an_export_paired_by_other_rules_is_said_so(
    exported: dict[str, Any], tmp_path: Path
) -> None:
    code, said = verify(tmp_path, {**exported, "rules_version": "0"})
    assert code == 1 and "paired by rules '0'" in said


def test_an_export_of_a_tournament_not_over_is_said_so(client: FlaskClient, tmp_path: Path) -> None:
    tournament = create_tournament(client, players=NAMES[:2], rounds=1)
    pair(client, tournament)
    document = client.get(f"/tournaments/{tournament['id']}/export",
                          headers=organiser(tournament)).json  # fmt: skip
    code, said = verify(tmp_path, document)
    assert code == 1 and "not over" in said
