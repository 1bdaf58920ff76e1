"""Players' names: one rule at every way in (creating a game, importing a record, other apps'
plays and the names mapped onto them, the filters that look a name up), and no list of names
costing more than linear time, however long the request makes it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.served import REPO
from tests.support.api import assert_error, auth, create, new_record
from tests.support.history import Backup

# Characters no name holds: a right-to-left override, a zero-width space, a byte order mark, a
# line separator, a soft hyphen, and (control characters) a newline and a NUL.
UNSEEN = ["\u202e", "\u200b", "\ufeff", "\u2028", "\u00ad", "\n", "\x00"]

# A request made in a process of its own, so that one that runs for hours (a quadratic check of
# 200,000 names) is stopped: the status and the error's message and details, as JSON.
ASK_ONCE = textwrap.dedent(
    """
    import json, sys
    import redis
    from tests.conftest import make_app

    url, prefix, path = sys.argv[1:]
    body = sys.stdin.buffer.read()
    app = make_app(redis.Redis.from_url(url, decode_responses=True), prefix)
    response = app.test_client().post(path, data=body, headers={"Content-Type": "application/json"})
    print(json.dumps([response.status_code, response.json]))
    """
)
# Linear work on 200,000 names is well under a second; the quadratic check took hours.
GENEROUS_SECONDS = 60


def asked_once(redis_url: str, key_prefix: str, path: str, body: str) -> tuple[int, Any]:
    try:
        done = subprocess.run(
            [sys.executable, "-c", ASK_ONCE, redis_url, key_prefix, path], input=body,
            cwd=REPO, capture_output=True, text=True, timeout=GENEROUS_SECONDS,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"{path} took over {GENEROUS_SECONDS} s to answer")
    assert done.returncode == 0, done.stderr
    status, answer = json.loads(done.stdout.splitlines()[-1])
    return status, answer


def many_names(count: int) -> list[str]:
    """``count`` names, one given twice: a check counting each name's repeats reads them all."""
    return [f"p{n}" for n in range(count - 1)] + ["p0"]


def test_a_record_of_200000_players_is_refused_for_its_size_at_once(
    redis_url: str, key_prefix: str
) -> None:
    body = json.dumps({"game": "scoresheet", "players": many_names(200_000), "seed": 1,
                       "options": {}, "events": []})  # fmt: skip
    status, answer = asked_once(redis_url, key_prefix, "/games/import", body)
    assert status == 400 and answer["error"]["code"] == "invalid_request", answer
    assert "at most 20 names" in json.dumps(answer["error"]["details"]["players"])


def test_a_play_of_300000_players_is_skipped_for_its_size_at_once(
    redis_url: str, key_prefix: str
) -> None:
    backup = Backup()
    title = backup.game("Azul")
    ann, ben = backup.player("Ann"), backup.player("Ben")
    play = backup.play(title, "2021-01-01 20:00:00", [(ann, "1", False), (ben, "2", True)])
    # The probe's play: 300,000 entries of the export's few players (5.4 MB).
    backup.plays[0]["playerScores"] = [{"playerRefId": n % 2 + 1} for n in range(300_000)]
    body = json.dumps(backup.export())
    status, answer = asked_once(redis_url, key_prefix, "/imports/bgstats", body)
    assert status == 200, answer
    assert answer["imported"] == 0
    assert answer["skipped"][0]["uuid"] == play
    assert "at most 20 players" in answer["skipped"][0]["reason"]


@pytest.mark.parametrize("unseen", UNSEEN)
def test_a_name_holding_an_unseen_character_is_refused_and_makes_no_game(
    client: FlaskClient, unseen: str
) -> None:
    before = client.get("/games").json["games"]
    response = client.post("/games", json={"game": "mada", "players": ["Ann", f"B{unseen}en"]})
    details = assert_error(response, 400, "invalid_request")
    assert "players" in details
    assert client.get("/games").json["games"] == before


def test_a_name_is_taken_in_nfc_and_found_by_either_spelling(client: FlaskClient) -> None:
    game = create(client, game="mada", players=["Zoe\u0308", "Ben"])
    assert game["players"] == ["Zo\u00eb", "Ben"]
    assert client.get(f"/games/{game['id']}").json["players"] == ["Zo\u00eb", "Ben"]
    for spelling in ("Zo\u00eb", "Zoe\u0308"):
        found = client.get("/games", query_string={"player": spelling}).json["games"]
        assert [listed["id"] for listed in found] == [game["id"]], spelling


def test_two_spellings_of_one_name_are_one_name_in_a_game(client: FlaskClient) -> None:
    response = client.post("/games", json={"game": "mada", "players": ["Zo\u00eb", "Zoe\u0308"]})
    details = assert_error(response, 400, "invalid_request")
    assert "Zo\u00eb" in str(details["players"])


def test_an_imported_record_takes_its_names_in_nfc_and_refuses_unseen_ones(
    client: FlaskClient,
) -> None:
    game = create(client, game="mada", players=["Ann", "Ben"])
    exported = client.get(f"/games/{game['id']}/export", headers=auth(game)).json
    hidden = new_record(exported)
    hidden["players"] = ["Ann", "\ufeffAnn"]
    assert_error(client.post("/games/import", json=hidden), 400, "invalid_request")
    spelt = new_record(exported)
    spelt["players"] = ["Zoe\u0308", "Ben"]
    response = client.post("/games/import", json=spelt)
    assert response.status_code == 201, response.json
    assert response.json["players"] == ["Zo\u00eb", "Ben"]


def test_imports_drop_unseen_characters_so_one_person_stays_one(client: FlaskClient) -> None:
    backup = Backup()
    title = backup.game("Azul")
    ann, ben = backup.player("Ann"), backup.player("Ben")
    marked, zoe = backup.player("\ufeffAnn\u200b"), backup.player("Zoe\u0308")
    blank = backup.player("\u202e\u200b")
    backup.play(title, "2021-01-01 20:00:00", [(ann, "5", True), (ben, "3", False)])
    backup.play(title, "2021-01-02 20:00:00", [(marked, "4", False), (zoe, "6", True)])
    skipped = backup.play(title, "2021-01-03 20:00:00", [(blank, "4", False), (ben, "6", True)])
    response = client.post("/imports/bgstats", json=backup.export())
    assert response.status_code == 200, response.json
    answer = response.json
    assert answer["imported"] == 2
    assert [entry["uuid"] for entry in answer["skipped"]] == [skipped]
    assert "blank" in answer["skipped"][0]["reason"]
    players = [client.get(f"/games/{gid}").json["players"] for gid in answer["games"]]
    assert players == [["Ann", "Ben"], ["Ann", "Zo\u00eb"]]


def test_the_names_mapped_onto_an_import_are_names_too(client: FlaskClient) -> None:
    backup = Backup()
    title = backup.game("Azul")
    ann, ben = backup.player("Ann"), backup.player("\ufeffBen")
    backup.play(title, "2021-01-01 20:00:00", [(ann, "5", True), (ben, "3", False)])
    names = {"Ann": "Zoe\u0308", "Ben": "Ben\u00ad"}
    response = client.post("/imports/bgstats", json={"export": backup.export(), "names": names})
    assert response.status_code == 200, response.json
    game = client.get(f"/games/{response.json['games'][0]}").json
    assert game["players"] == ["Zo\u00eb", "Ben"]
