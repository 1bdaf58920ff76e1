"""The preview of an import (``POST /imports/bgstats/preview``, ``/imports/bgg/preview``): what a
file would bring, read as its import reads it, with nothing written."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.service.test_history_imports import group, import_backup
from tests.support.api import assert_error
from tests.support.history import Backup


def preview(client: FlaskClient, body: dict[str, Any], **headers: str) -> dict[str, Any]:
    response = client.post("/imports/bgstats/preview", json=body, headers=headers)
    assert response.status_code == 200, response.json
    answer: dict[str, Any] = response.json
    return answer


def three_plays() -> tuple[Backup, dict[str, str]]:
    """Two plays of Azul and one of Golf by Ann, Ben and Cyd, one unreadable, one ignored."""
    backup, p = group()
    azul, golf = backup.game("Azul"), backup.game("Golf", highest_wins=False)
    ann, ben, cyd = p["Ann"], p["Ben"], p["Cyd"]
    plays = {
        "first": backup.play(azul, "2021-01-01 20:00:00", [(ann, "5", True), (ben, "3", False)]),
        "second": backup.play(azul, "2021-01-02 20:00:00", [(ann, "7", True), (cyd, "1", False)]),
        "golf": backup.play(golf, "2021-01-03 20:00:00", [(ben, "30", True), (ann, "41", False)]),
        "bad": backup.play(azul, "2021-01-04 20:00:00", [(ann, "five", True)]),
    }
    backup.play(golf, "2021-01-05 20:00:00", [(p["Dee"], "1", True)], ignored=True)
    return backup, plays


def test_a_preview_says_what_the_file_holds_and_writes_nothing(client: FlaskClient) -> None:
    backup, plays = three_plays()
    answer = preview(client, backup.export())
    assert answer["plays"] == 3 and answer["already"] == 0
    assert answer["titles"] == [{"title": "Azul", "plays": 2}, {"title": "Golf", "plays": 1}]
    assert answer["players"] == [
        {"name": "Ann", "plays": 3}, {"name": "Ben", "plays": 2}, {"name": "Cyd", "plays": 1}
    ]  # fmt: skip
    assert [one["uuid"] for one in answer["skipped"]] == [plays["bad"]]
    assert "'five' is not a number" in answer["skipped"][0]["reason"]
    # Nothing written: no game, and the import that follows brings every play in.
    assert client.get("/games").json["games"] == []
    assert import_backup(client, backup.export())["imported"] == 3


def test_a_preview_counts_the_plays_here_already_and_names_them_as_the_import_would(
    client: FlaskClient,
) -> None:
    backup, _ = three_plays()
    first_two = Backup(backup.players, backup.games, backup.plays[:2])
    assert import_backup(client, first_two.export())["imported"] == 2
    answer = preview(client, {"export": backup.export(), "names": {"Ann": "Anna"}})
    assert answer["plays"] == 3 and answer["already"] == 2
    assert answer["players"][0] == {"name": "Anna", "plays": 3}


def test_a_boardgamegeek_preview_reads_the_xml_as_its_import(client: FlaskClient) -> None:
    xml = b"""<plays username="ann">
      <play id="7" date="2020-06-01" quantity="2"><item name="Azul" objectid="230802"/>
        <players><player name="Ann" score="50" win="1"/><player name="Ben" score="4"/></players>
      </play>
      <play id="8" date="2020-06-02" incomplete="1"><item name="Azul" objectid="230802"/></play>
    </plays>"""
    response = client.post("/imports/bgg/preview", data=xml, content_type="application/xml")
    assert response.status_code == 200, response.json
    assert response.json == {
        "plays": 2, "already": 0, "titles": [{"title": "Azul", "plays": 2}],
        "players": [{"name": "Ann", "plays": 2}, {"name": "Ben", "plays": 2}],
        "skipped": [{"uuid": "8", "reason": "incomplete: BoardGameGeek marks the play incomplete"}],
    }  # fmt: skip
    assert client.get("/games").json["games"] == []


def test_a_preview_of_what_is_no_backup_is_a_400_and_needs_the_write_key(app: Flask) -> None:
    client = app.test_client()
    path = "/imports/bgstats/preview"
    cut_short = client.post(path, data=b'{"plays": [', content_type="application/json")
    assert_error(cut_short, 400, "invalid_request")
    app.config["WRITE_KEY"] = "sesame"
    assert_error(client.post(path, json=Backup().export()), 401, "unauthorized")
    answer = preview(client, Backup().export(), Authorization="Bearer sesame")
    assert answer == {"plays": 0, "already": 0, "titles": [], "players": [], "skipped": []}
