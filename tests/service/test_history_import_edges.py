"""The edges of the history imports (api.md, "Bringing history in"): dates from year 1 on, a
BoardGameGeek id that is no id, a body sent under the wrong type, a killed import's claim. On the
real Redis."""

from __future__ import annotations

from typing import Any
from unittest import mock

import redis
from flask.testing import FlaskClient

from service.games.records import Records
from service.store.indexes import CLAIM_SECONDS
from tests.service.test_history_imports import game_of, group, import_backup
from tests.support.api import assert_error
from tests.support.history import bgg_xml


def post_bgg(client: FlaskClient, plays: list[dict[str, Any]]) -> dict[str, Any]:
    response = client.post("/imports/bgg", data=bgg_xml(plays), content_type="application/xml")
    assert response.status_code == 200, response.json
    answer: dict[str, Any] = response.json
    return answer


ANN_WINS = [{"name": "Ann", "score": "5", "win": True}]


def test_a_play_of_year_1_is_a_play_of_that_day(client: FlaskClient) -> None:
    year_1 = {"id": 1, "date": "0001-01-01", "name": "Azul", "players": ANN_WINS}
    answer = post_bgg(client, [year_1])
    assert answer["imported"] == 1, answer
    game = game_of(client, answer["games"][0])
    assert game["created_at"] == "0001-01-01T12:00:00.000Z"
    backup, p = group()
    azul = backup.game("Azul")
    backup.play(azul, "0001-01-02 20:00:00", [(p["Ann"], "5", True)])
    answer = import_backup(client, backup.export())
    assert answer["imported"] == 1, answer
    assert game_of(client, answer["games"][0])["created_at"] == "0001-01-02T20:00:00.000Z"


def test_a_reason_quotes_a_date_as_the_file_wrote_it(client: FlaskClient) -> None:
    answer = post_bgg(client, [
        {"id": 2, "date": "9999-12-31", "length": 999_999, "name": "Azul", "players": ANN_WINS},
    ])  # fmt: skip
    assert "after 9999-12-31," in answer["skipped"][0]["reason"], answer
    backup, p = group()
    azul = backup.game("Azul")
    backup.play(azul, "9999-12-31 23:00:00", [(p["Ann"], "5", True)], minutes=100_000)
    answer = import_backup(client, backup.export())
    assert "after 9999-12-31 23:00:00," in answer["skipped"][0]["reason"], answer


def test_a_bg_stats_bgg_id_past_12_digits_is_left_out_and_the_play_imported(
    client: FlaskClient,
) -> None:
    backup, p = group()
    for bgg_id in (230802, 10**13, 2**63 + 1, -5):
        title = backup.game(f"Title {bgg_id}", bgg_id=bgg_id)
        backup.play(title, "2021-01-01 20:00:00", [(p["Ann"], "5", True)])
    answer = import_backup(client, backup.export())
    assert answer["imported"] == 4 and answer["skipped"] == [], answer
    ids = {
        game["options"]["title"]: game["options"].get("bgg_id")
        for game in (game_of(client, game_id) for game_id in answer["games"])
    }
    assert ids == {
        "Title 230802": 230802, f"Title {10**13}": None, f"Title {2**63 + 1}": None,
        "Title -5": None,
    }  # fmt: skip


def test_a_bgg_import_sent_as_text_is_told_to_send_xml(client: FlaskClient) -> None:
    xml = bgg_xml([{"id": 3, "date": "2020-01-01", "name": "Azul", "players": ANN_WINS}])
    response = client.post("/imports/bgg", data=xml, content_type="text/plain")
    details = assert_error(response, 400, "invalid_request")
    message = response.json["error"]["message"]
    assert "XML" in message and "application/xml" in message and "JSON" not in message
    assert details == {"Content-Type": "application/xml or text/xml"}
    # The backup's import takes JSON, and says so.
    response = client.post("/imports/bgstats", data=b"{}", content_type="text/plain")
    assert "application/json" in response.json["error"]["message"]
    assert client.get("/games").json["games"] == []


def test_the_claim_of_a_killed_import_holds_its_play_a_minute(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str
) -> None:
    """The import is killed after claiming its play and before making its game: its claim
    stands no more than a minute, the time the docs give."""
    leases: list[int] = []

    def killed(records: Records, document: dict[str, Any], **_: Any) -> Any:
        leases.append(real_redis.ttl(f"{key_prefix}imports:bgg:4"))
        raise redis.exceptions.ConnectionError("the import is killed here")

    with mock.patch.object(Records, "import_record", killed):
        post_bgg_refused = client.post(
            "/imports/bgg",
            data=bgg_xml([{"id": 4, "date": "2020-01-01", "name": "Azul", "players": ANN_WINS}]),
            content_type="application/xml",
        )
    assert post_bgg_refused.status_code == 503
    assert CLAIM_SECONDS == 60 and 0 < leases[0] <= 60, leases
