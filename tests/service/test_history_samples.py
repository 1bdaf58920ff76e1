"""Real BG Stats backups (anonymized, in tests/samples/history/) imported whole on the real
Redis: every play imported or passed over (``ignored``), none skipped, and a second import finds
every one already here."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.history import Backup
from tests.support.workers import drain

SAMPLES = Path(__file__).parent.parent / "samples" / "history"


@pytest.mark.parametrize(
    ("sample", "plays", "ignored"),
    [("bgstats-1-null-scores-traitors.json", 79, 0),
     ("bgstats-2-sums-no-points-ignored.json", 217, 11),
     ("bgstats-3-korean-title-seats-sums.json", 218, 0),
     ("bgstats-4-decimal-comma-no-winner.json", 596, 0)],
)  # fmt: skip
def test_a_real_backup_comes_in_whole_once(
    client: FlaskClient, sample: str, plays: int, ignored: int
) -> None:
    body = (SAMPLES / sample).read_bytes()
    headers = {"Content-Type": "application/json"}
    first = client.post("/imports/bgstats", data=body, headers=headers).json
    assert first["skipped"] == []
    assert first["imported"] + ignored == plays
    again = client.post("/imports/bgstats", data=body, headers=headers).json
    assert again["imported"] == 0 and again["already"] == first["imported"]
    assert again["differs"] == [] and again["skipped"] == []


def test_a_real_boardgamegeek_page_of_namesakes_comes_in_whole_once(client: FlaskClient) -> None:
    body = (SAMPLES / "bgg-1-namesakes-no-winner.xml").read_bytes()
    headers = {"Content-Type": "application/xml"}
    first = client.post("/imports/bgg", data=body, headers=headers).json
    assert first["skipped"] == [] and first["imported"] == 100
    again = client.post("/imports/bgg", data=body, headers=headers).json
    assert again["imported"] == 0 and again["already"] == 100 and again["differs"] == []
    # The app's "Anonymous player" (here Player 2) twice or more in one play: two people.
    names = [client.get(f"/games/{game_id}").json["players"] for game_id in first["games"]]
    assert any("Player 2 (2)" in players for players in names)


def test_the_korean_title_is_counted_under_its_key_of_hangul_syllables(
    app: Flask, client: FlaskClient
) -> None:
    body = (SAMPLES / "bgstats-3-korean-title-seats-sums.json").read_bytes()
    client.post("/imports/bgstats", data=body, headers={"Content-Type": "application/json"})
    drain(app)
    titles = {row["key"]: row for row in client.get("/titles").json["titles"]}
    assert titles["스플렌더-pokemon-splendor-pokemon"]["games"] == 2


def test_a_play_keeps_where_it_was_played_and_its_comment(client: FlaskClient) -> None:
    backup = Backup()
    ann, ben = backup.player("Ann"), backup.player("Ben")
    azul = backup.game("Azul")
    backup.play(azul, "2025-03-01 20:00:00", [(ann, "40", True), (ben, "31", False)])
    backup.play(azul, "2025-03-02 20:00:00", [(ann, "41", True), (ben, "31", False)])
    export = backup.export()
    export["plays"][0]["comments"] = "  Ann's first win  "
    # A note longer than a score sheet holds is cut to its 2,000 characters, never the play lost.
    export["plays"][1]["comments"] = "x" * 2500
    answer = client.post("/imports/bgstats", json=export).json
    first, second = (client.get(f"/games/{game_id}").json["options"] for game_id in answer["games"])
    assert first["location"] == "Home" and first["comment"] == "Ann's first win"
    assert second["comment"] == "x" * 2000

    xml = (
        b'<plays username="group"><play id="9" date="2025-03-01" location="Club night">'
        b'<item name="Azul" objectid="230802"/><comments>Close game</comments><players>'
        b'<player name="Ann" score="40" win="1"/><player name="Ben" score="31" win="0"/>'
        b"</players></play></plays>"
    )
    answer = client.post("/imports/bgg", data=xml, content_type="application/xml").json
    options = client.get(f"/games/{answer['games'][0]}").json["options"]
    assert options["location"] == "Club night" and options["comment"] == "Close game"
