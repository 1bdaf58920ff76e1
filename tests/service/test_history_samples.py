"""Real BG Stats backups (anonymized, in tests/samples/history/) imported whole on the real
Redis: every play imported or passed over (``ignored``), none skipped, and a second import finds
every one already here."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

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
