"""Bringing a group's history in (api.md, "Bringing history in"): BG Stats backups and
BoardGameGeek's plays, made in the tests in the apps' shapes, imported over HTTP on the real
Redis: each play a finished score sheet with its own dates, known by its id and never imported
twice, an unreadable play skipped with its reason, XML with entities refused, a body over the
limit refused with the limit named."""

from __future__ import annotations

import json
import threading
from typing import Any
from unittest import mock

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.imports import history as history_module
from service.store import queue as queue_module
from service.store.queue import games_of_job
from tests.support.api import append, assert_error, create
from tests.support.history import Backup, bgg_xml, random_backup
from tests.support.workers import drain
from workers import archive as archive_module
from workers.queues import reconcile


def import_backup(client: FlaskClient, body: dict[str, Any], **headers: str) -> dict[str, Any]:
    response = client.post("/imports/bgstats", json=body, headers=headers)
    assert response.status_code == 200, response.json
    answer: dict[str, Any] = response.json
    return answer


def game_of(client: FlaskClient, game_id: str) -> dict[str, Any]:
    body: dict[str, Any] = client.get(f"/games/{game_id}").json
    return body


def imported_games(client: FlaskClient, answer: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The games an import made, by the title and date of their play."""
    games = [game_of(client, game_id) for game_id in answer["games"]]
    return {(g["options"]["title"], g["created_at"]): g for g in games}  # type: ignore[misc]


def group() -> tuple[Backup, dict[str, int]]:
    backup = Backup()
    people = {name: backup.player(name) for name in ("Ann", "Ben", "Cyd", "Dee")}
    return backup, people


def test_each_play_becomes_a_finished_score_sheet_with_its_own_dates(client: FlaskClient) -> None:
    backup, p = group()
    azul = backup.game("Azul", bgg_id=230802)
    golf = backup.game("Golf", highest_wins=False)
    backup.play(
        azul,
        "2021-03-04 20:15:00",
        [(p["Ann"], "49", True, 2), (p["Ben"], "12.5", False, 1)],
        minutes=45,
    )
    backup.play(golf, "2021-03-05 19:00:00", [(p["Cyd"], "30", True), (p["Dee"], "-3", False)])
    answer = import_backup(client, backup.export())
    assert answer["imported"] == 2 and answer["already"] == 0 and answer["skipped"] == []
    games = imported_games(client, answer)
    first = games[("Azul", "2021-03-04T20:15:00.000Z")]
    assert first["game"] == "scoresheet" and first["status"] == "finished"
    # In seatOrder: Ben sat first.
    assert first["players"] == ["Ben", "Ann"]
    assert first["options"] == {
        "title": "Azul",
        "bgg_id": 230802,
        "scoring": "highest",
        "cooperative": False,
        "location": "Home",  # the play's location in the backup
    }
    assert first["finished_at"] == "2021-03-04T21:00:00.000Z"
    assert first["result"]["scores"] == [12.5, 49] and first["result"]["ranks"] == [2, 1]
    # Golf: the lowest wins, and the winner marked is the lowest here too (-3 is Dee's)... but
    # the app marks Cyd: the marked winner ranks 1, whatever the totals.
    golf_game = games[("Golf", "2021-03-05T19:00:00.000Z")]
    assert golf_game["options"]["scoring"] == "lowest"
    assert golf_game["result"]["ranks"] == [1, 2] and golf_game["result"]["winners"] == [0]
    events = client.get(f"/games/{first['id']}/events").json["events"]
    assert [e["type"] for e in events] == ["score", "score", "end"]
    assert {e["at"] for e in events} == {"2021-03-04T20:15:00.000Z"}
    assert client.get(f"/games/{first['id']}/audit").json["ok"] is True


def test_ties_and_no_winner_marked_are_ranked_by_the_totals(client: FlaskClient) -> None:
    backup, p = group()
    azul = backup.game("Azul")
    # Two winners marked (a shared win), the others by their totals.
    scores = [("Ann", "40", True), ("Ben", "40", True), ("Cyd", "10", False), ("Dee", "30", False)]
    backup.play(azul, "2021-01-01 20:00:00", [(p[name], *rest) for name, *rest in scores])
    # No winner marked: the totals decide, equal totals sharing a rank; "" is no score.
    scores = [("Ann", "7", False), ("Ben", "9", False), ("Cyd", "9", False), ("Dee", "", False)]
    backup.play(azul, "2021-01-02 20:00:00", [(p[name], *rest) for name, *rest in scores])
    answer = import_backup(client, backup.export())
    games = imported_games(client, answer)
    shared = games[("Azul", "2021-01-01T20:00:00.000Z")]["result"]
    assert shared["ranks"] == [1, 1, 4, 3] and shared["winners"] == [0, 1]
    by_totals = games[("Azul", "2021-01-02T20:00:00.000Z")]
    assert by_totals["result"]["ranks"] == [3, 1, 1, 4]
    events = client.get(f"/games/{by_totals['id']}/events").json["events"]
    assert [e.get("player") for e in events if e["type"] == "score"] == [0, 1, 2]


def test_a_play_with_no_winner_marked_and_no_number_written_ended_with_no_winner(
    client: FlaskClient,
) -> None:
    backup, p = group()
    azul = backup.game("Azul")
    hanabi = backup.game("Hanabi", no_points=True)
    # Nothing written, no winner marked: nobody won (not a tie that everyone wins).
    backup.play(azul, "2021-02-01 20:00:00", [(p["Ann"], "", False), (p["Ben"], "", False)])
    # Every number a 0, as some apps fill the field: nobody won either.
    backup.play(azul, "2021-02-02 20:00:00", [(p["Ann"], "0", False), (p["Ben"], "0", False)])
    # A game without points and no winner marked.
    backup.play(hanabi, "2021-02-03 20:00:00", [(p["Ann"], "", False), (p["Ben"], "", False)])
    answer = import_backup(client, backup.export())
    assert answer["imported"] == 3 and answer["skipped"] == [], answer
    games = imported_games(client, answer)
    blank = games[("Azul", "2021-02-01T20:00:00.000Z")]
    assert blank["result"] == {
        "winners": [], "ranks": None, "scores": [None, None], "outcome": None
    }  # fmt: skip
    # A number never written makes no score event.
    events = client.get(f"/games/{blank['id']}/events").json["events"]
    assert [(e["type"], e.get("winners")) for e in events] == [("end", [])]
    zeros = games[("Azul", "2021-02-02T20:00:00.000Z")]["result"]
    assert zeros["winners"] == [] and zeros["ranks"] is None and zeros["scores"] == [0, 0]
    no_points = games[("Hanabi", "2021-02-03T20:00:00.000Z")]["result"]
    assert no_points["winners"] == [] and no_points["ranks"] is None
    assert no_points["scores"] == [None, None]


def test_a_player_with_no_number_written_ranks_after_every_player_with_one(
    client: FlaskClient,
) -> None:
    backup, p = group()
    golf = backup.game("Golf", highest_wins=False)
    # The lowest wins and no winner is marked: Ben, with nothing written, does not win with a 0.
    scores = [(p["Ann"], "5", False), (p["Ben"], "", False), (p["Cyd"], "7", False)]
    backup.play(golf, "2021-02-04 20:00:00", scores)
    # A winner marked, and no number written for anyone: the winner ranks 1, the others next.
    backup.play(golf, "2021-02-05 20:00:00", [(p["Ann"], "", False), (p["Ben"], "", True)])
    answer = import_backup(client, backup.export())
    games = imported_games(client, answer)
    by_totals = games[("Golf", "2021-02-04T20:00:00.000Z")]["result"]
    assert by_totals["ranks"] == [1, 3, 2] and by_totals["winners"] == [0]
    assert by_totals["scores"] == [5, None, 7]
    marked = games[("Golf", "2021-02-05T20:00:00.000Z")]["result"]
    assert marked["ranks"] == [2, 1] and marked["scores"] == [None, None]


def test_a_bgg_play_with_no_winner_and_no_score_ended_with_no_winner(client: FlaskClient) -> None:
    xml = bgg_xml([{"id": "7001", "date": "2021-02-06", "name": "Azul",
                    "players": [{"name": "Ann"}, {"name": "Ben"}]}])  # fmt: skip
    response = client.post("/imports/bgg", data=xml, content_type="application/xml")
    assert response.status_code == 200 and response.json["imported"] == 1, response.json
    result = game_of(client, response.json["games"][0])["result"]
    assert result["winners"] == [] and result["ranks"] is None
    assert result["scores"] == [None, None]


def test_teams_are_ranked_as_one_and_cooperative_plays_are_won_or_lost(client: FlaskClient) -> None:
    backup, p = group()
    codenames = backup.game("Codenames", no_points=True)
    pandemic = backup.game("Pandemic", cooperative=True, no_points=True)
    backup.play(codenames, "2022-02-02 20:00:00",
                [(p["Ann"], "", True, 0, "Red"), (p["Ben"], "", False, 0, "Blue"),
                 (p["Cyd"], "", True, 0, "Red"), (p["Dee"], "", False, 0, "Blue")],
                uses_teams=True)  # fmt: skip
    backup.play(pandemic, "2022-02-03 20:00:00", [(p["Ann"], "", True), (p["Ben"], "", True)])
    backup.play(pandemic, "2022-02-04 20:00:00", [(p["Ann"], "3", False), (p["Ben"], "", False)])
    answer = import_backup(client, backup.export())
    assert answer["imported"] == 3, answer
    games = imported_games(client, answer)
    teams = games[("Codenames", "2022-02-02T20:00:00.000Z")]
    assert teams["options"]["teams"] == [[0, 2], [1, 3]] and teams["options"]["scoring"] == "none"
    assert teams["result"]["ranks"] == [1, 2, 1, 2]
    won = games[("Pandemic", "2022-02-03T20:00:00.000Z")]["result"]
    lost = games[("Pandemic", "2022-02-04T20:00:00.000Z")]
    assert won["outcome"] == "won" and won["winners"] == [0, 1]
    assert lost["result"]["outcome"] == "lost" and lost["result"]["winners"] == []
    # A game without points takes no score, whatever its strings hold.
    events = client.get(f"/games/{lost['id']}/events").json["events"]
    assert [e["type"] for e in events] == ["end"]


def test_a_cooperative_play_in_teams_keeps_its_teams(client: FlaskClient) -> None:
    backup, p = group()
    pandemic = backup.game("Pandemic", cooperative=True, no_points=True)
    backup.play(pandemic, "2022-02-05 20:00:00",
                [(p["Ann"], "", True, 0, "Red"), (p["Ben"], "", True, 0, "Blue"),
                 (p["Cyd"], "", True, 0, "Red"), (p["Dee"], "", True, 0, "Blue")],
                uses_teams=True)  # fmt: skip
    answer = import_backup(client, backup.export())
    assert answer["imported"] == 1, answer
    game = imported_games(client, answer)[("Pandemic", "2022-02-05T20:00:00.000Z")]
    assert game["options"]["teams"] == [[0, 2], [1, 3]] and game["options"]["cooperative"]
    assert game["result"]["outcome"] == "won" and game["result"]["winners"] == [0, 1, 2, 3]


def test_a_title_is_spelt_as_its_latest_play_whatever_the_order_it_is_counted_in(
    app: Flask, client: FlaskClient
) -> None:
    # The latest play is recorded here first; older plays are imported, and counted, after it.
    options = {"title": "AZUL!", "bgg_id": 230802}
    latest = create(client, game="scoresheet", players=["Ann", "Ben"], options=options)
    append(client, latest, {"type": "round", "points": [5, 3]})
    append(client, latest, {"type": "end"})
    drain(app)
    backup, p = group()
    older = backup.game("Azul")
    backup.play(older, "2021-01-01 20:00:00", [(p["Ann"], "5", True), (p["Ben"], "3", False)])
    backup.play(older, "2020-01-01 20:00:00", [(p["Ann"], "5", True), (p["Ben"], "3", False)])
    answer = import_backup(client, backup.export())
    assert answer["imported"] == 2, answer
    drain(app)
    titles = client.get("/titles").json["titles"]
    assert [(t["key"], t["games"]) for t in titles] == [("azul", 3)]
    assert titles[0]["title"] == "AZUL!" and titles[0]["bgg_id"] == 230802
    finished = client.get(f"/games/{latest['id']}").json["finished_at"]
    assert titles[0]["last_played"] == finished[:10]
    # A game whose bggId is 0 has none.
    games = imported_games(client, answer)
    assert "bgg_id" not in games[("Azul", "2020-01-01T20:00:00.000Z")]["options"]


def test_a_game_without_points_takes_no_score_whatever_its_strings_hold(
    client: FlaskClient,
) -> None:
    backup, p = group()
    hanabi = backup.game("Hanabi", no_points=True)
    backup.play(hanabi, "2022-02-06 20:00:00", [(p["Ann"], "abc", True), (p["Ben"], "x", False)])
    answer = import_backup(client, backup.export())
    assert answer["imported"] == 1 and answer["skipped"] == [], answer
    events = client.get(f"/games/{answer['games'][0]}/events").json["events"]
    assert [e["type"] for e in events] == ["end"]


def test_ignored_plays_pass_silently_and_an_unreadable_play_is_skipped_with_its_reason(
    client: FlaskClient,
) -> None:
    backup, p = group()
    azul = backup.game("Azul")
    backup.play(
        azul, "2021-01-01 20:00:00", [(p["Ann"], "5", True), (p["Ben"], "3", False)], ignored=True
    )
    bad = backup.play(
        azul, "2021-01-02 20:00:00", [(p["Ann"], "five", True), (p["Ben"], "3", False)]
    )
    no_game = backup.play(99, "2021-01-03 20:00:00", [(p["Ann"], "5", True)])
    future = backup.play(azul, "2999-01-01 20:00:00", [(p["Ann"], "5", True)])
    good = backup.play(azul, "2021-01-04 20:00:00", [(p["Ann"], "5", True), (p["Ben"], "3", False)])
    answer = import_backup(client, backup.export())
    assert answer["imported"] == 1 and answer["already"] == 0
    reasons = {one["uuid"]: one["reason"] for one in answer["skipped"]}
    assert set(reasons) == {bad, no_game, future}
    assert "'five' is not a number" in reasons[bad]
    assert "gameRefId 99" in reasons[no_game]
    assert "in the future" in reasons[future]
    assert good not in reasons
    # Nothing half-written: one game in all.
    assert client.get("/games?game=scoresheet").json["games"][0]["id"] == answer["games"][0]
    assert len(client.get("/games?game=scoresheet").json["games"]) == 1


def test_a_play_that_would_end_past_the_calendar_is_skipped_with_its_reason(
    client: FlaskClient,
) -> None:
    backup, p = group()
    azul = backup.game("Azul")
    far = backup.play(azul, "9999-12-31 23:00:00", [(p["Ann"], "5", True)], minutes=100_000)
    backup.play(azul, "2021-01-04 20:00:00", [(p["Ann"], "5", True), (p["Ben"], "3", False)])
    answer = import_backup(client, backup.export())
    assert answer["imported"] == 1
    assert [one["uuid"] for one in answer["skipped"]] == [far]
    assert "calendar" in answer["skipped"][0]["reason"]


def test_a_number_with_an_exponent_outside_the_plays_refuses_nothing(client: FlaskClient) -> None:
    """Another app's file is read as JSON is: its numbers may have exponents (Python writes
    0.00001 as 1e-05), in fields the import never reads."""
    backup, p = group()
    azul = backup.game("Azul")
    backup.play(azul, "2021-01-04 20:00:00", [(p["Ann"], "5", True), (p["Ben"], "3", False)])
    export = backup.export()
    export["locations"][0]["latitude"] = 0.00001
    body = json.dumps(export)
    assert "1e-05" in body
    response = client.post("/imports/bgstats", data=body, content_type="application/json")
    assert response.status_code == 200, response.json
    assert response.json["imported"] == 1


def test_a_backup_imported_twice_imports_nothing_the_second_time(client: FlaskClient) -> None:
    backup, p = group()
    azul = backup.game("Azul")
    for day in range(1, 6):
        backup.play(
            azul, f"2021-01-0{day} 20:00:00", [(p["Ann"], str(day), True), (p["Ben"], "0", False)]
        )
    first = import_backup(client, backup.export())
    assert first["imported"] == 5
    again = import_backup(client, backup.export())
    assert again == {"imported": 0, "already": 5, "differs": [], "skipped": [], "games": []}
    # Mapped names make other records: each play is known by its uuid all the same, and listed
    # with the game that holds it, never made twice.
    mapped = import_backup(client, {"export": backup.export(), "names": {"Ann": "Anna"}})
    assert mapped["imported"] == 0 and mapped["already"] == 0
    assert sorted(one["game"] for one in mapped["differs"]) == sorted(first["games"])
    assert len(client.get("/games?game=scoresheet").json["games"]) == 5


def test_two_imports_of_one_backup_at_once_make_each_play_once(app: Flask) -> None:
    backup, p = group()
    azul = backup.game("Azul")
    for day in range(1, 10):
        backup.play(
            azul, f"2021-02-0{day} 20:00:00", [(p["Ann"], str(day), True), (p["Ben"], "0", False)]
        )
    answers: list[dict[str, Any]] = []

    def run() -> None:
        answers.append(import_backup(app.test_client(), backup.export()))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(a["imported"] for a in answers) == 9
    assert sum(a["already"] for a in answers) == 9
    assert len(app.test_client().get("/games?game=scoresheet").json["games"]) == 9


def test_names_are_mapped_to_the_names_here(client: FlaskClient) -> None:
    backup, p = group()
    azul = backup.game("Azul")
    backup.play(azul, "2021-01-01 20:00:00", [(p["Ann"], "5", True), (p["Ben"], "3", False)])
    answer = import_backup(
        client, {"export": backup.export(), "names": {"Ann": "Anna B.", "Ben": "Benoît"}}
    )
    assert game_of(client, answer["games"][0])["players"] == ["Anna B.", "Benoît"]


def test_a_play_whose_mapped_names_meet_is_skipped(client: FlaskClient) -> None:
    backup, p = group()
    azul = backup.game("Azul")
    play = backup.play(azul, "2021-01-01 20:00:00", [(p["Ann"], "5", True), (p["Ben"], "3", False)])
    answer = import_backup(client, {"export": backup.export(), "names": {"Ben": "Ann"}})
    assert answer["imported"] == 0
    assert (
        answer["skipped"][0]["uuid"] == play
        and "Ann more than once" in answer["skipped"][0]["reason"]
    )


def test_a_body_that_is_not_a_backup_is_a_400(client: FlaskClient) -> None:
    assert_error(client.post("/imports/bgstats", json={"plays": []}), 400, "invalid_request")
    assert_error(client.post("/imports/bgstats", json=[1]), 400, "invalid_request")
    answer = client.post("/imports/bgstats", json={"export": Backup().export(), "names": {"a": 1}})
    assert_error(answer, 400, "invalid_request")


def test_a_backup_over_the_limit_is_refused_with_the_limit_named(app: Flask) -> None:
    app.config["HISTORY_MAX_BYTES"] = 4096
    client = app.test_client()
    backup, p = group()
    azul = backup.game("Azul")
    for day in range(1, 30):
        backup.play(azul, "2021-01-01 20:00:00", [(p["Ann"], str(day), True)])
    response = client.post("/imports/bgstats", json=backup.export())
    assert_error(response, 413, "too_large")
    assert "4096 bytes" in response.json["error"]["message"]
    xml = bgg_xml([{"id": n, "date": "2021-01-01", "name": "Azul", "players": [{"name": "Ann"}]}
                   for n in range(40)])  # fmt: skip
    response = client.post("/imports/bgg", data=xml, content_type="application/xml")
    assert_error(response, 413, "too_large")
    assert "4096 bytes" in response.json["error"]["message"]


def test_imports_need_the_write_key_when_the_service_sets_one(app: Flask) -> None:
    app.config["WRITE_KEY"] = "sesame"
    client = app.test_client()
    export = Backup().export()
    assert_error(client.post("/imports/bgstats", json=export), 401, "unauthorized")
    assert_error(
        client.post("/imports/bgg", data=b"<plays/>", content_type="text/xml"), 401, "unauthorized"
    )
    answer = import_backup(client, export, Authorization="Bearer sesame")
    assert answer == {"imported": 0, "already": 0, "differs": [], "skipped": [], "games": []}


def test_boardgamegeek_plays_are_imported_by_their_id(client: FlaskClient) -> None:
    xml = bgg_xml([
        {"id": 101, "date": "2020-06-01", "length": 40, "name": "Azul", "objectid": 230802,
         "players": [{"name": "Ann", "score": "50", "win": True, "startposition": "2"},
                     {"name": "Ben", "score": "61", "startposition": "1"}]},
        {"id": 102, "date": "2020-06-02", "name": "Hanabi", "objectid": 98778,
         "players": [{"name": "Ann", "win": True}, {"name": "Ben"}]},
        {"id": 103, "date": "2020-06-03", "name": "Azul", "incomplete": 1,
         "players": [{"name": "Ann", "score": "12"}]},
    ])  # fmt: skip
    response = client.post("/imports/bgg", data=xml, content_type="application/xml")
    assert response.status_code == 200, response.json
    answer = response.json
    assert answer["imported"] == 2
    assert answer["skipped"] == [
        {"uuid": "103", "reason": "incomplete: BoardGameGeek marks the play incomplete"}
    ]
    games = imported_games(client, answer)
    azul = games[("Azul", "2020-06-01T12:00:00.000Z")]
    assert azul["players"] == ["Ben", "Ann"] and azul["options"]["bgg_id"] == 230802
    assert azul["finished_at"] == "2020-06-01T12:40:00.000Z"
    # The marked winner ranks 1, whatever the totals.
    assert azul["result"]["ranks"] == [2, 1]
    hanabi = games[("Hanabi", "2020-06-02T12:00:00.000Z")]
    assert hanabi["options"]["scoring"] == "none" and hanabi["result"]["winners"] == [0]
    again = client.post("/imports/bgg", data=xml, content_type="text/xml").json
    assert again["imported"] == 0 and again["already"] == 2


ENTITIES = b"""<?xml version="1.0"?>
<!DOCTYPE plays [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
<plays><play id="1" date="2020-01-01"><item name="&lol2;" objectid="1"/>
<players><player name="Ann" win="1"/></players></play></plays>"""

EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE plays [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<plays><play id="1" date="2020-01-01"><item name="&secret;" objectid="1"/></play></plays>"""


@pytest.mark.parametrize("xml", [ENTITIES, EXTERNAL], ids=["entities", "external"])
def test_xml_with_a_dtd_or_entities_is_refused_never_expanded(
    client: FlaskClient, xml: bytes
) -> None:
    response = client.post("/imports/bgg", data=xml, content_type="application/xml")
    assert_error(response, 400, "invalid_request")
    assert "DTD or entities" in response.json["error"]["message"]
    assert client.get("/games?game=scoresheet").json["games"] == []


def test_a_bgg_play_that_would_end_past_the_calendar_is_skipped_with_its_reason(
    client: FlaskClient,
) -> None:
    xml = bgg_xml([
        {"id": 7, "date": "9999-12-31", "length": 999_999, "name": "Azul",
         "players": [{"name": "Ann", "win": True}]},
        {"id": 8, "date": "2020-06-01", "name": "Azul", "players": [{"name": "Ann", "win": True}]},
    ])  # fmt: skip
    answer = client.post("/imports/bgg", data=xml, content_type="application/xml").json
    assert answer["imported"] == 1
    assert [one["uuid"] for one in answer["skipped"]] == ["7"]
    assert "calendar" in answer["skipped"][0]["reason"]


def test_a_bgg_objectid_too_long_to_be_an_id_is_no_id(client: FlaskClient) -> None:
    xml = bgg_xml([
        {"id": 9, "date": "2020-06-01", "name": "Azul", "objectid": "9" * 5000,
         "players": [{"name": "Ann", "win": True}]},
    ])  # fmt: skip
    answer = client.post("/imports/bgg", data=xml, content_type="application/xml").json
    assert answer["imported"] == 1, answer
    game = client.get(f"/games/{answer['games'][0]}").json
    assert "bgg_id" not in game["options"]


def test_xml_in_an_encoding_not_known_is_a_400(client: FlaskClient) -> None:
    response = client.post(
        "/imports/bgg",
        data=b'<?xml version="1.0" encoding="foo"?><plays/>',
        content_type="application/xml",
    )
    assert_error(response, 400, "invalid_request")
    assert "foo" in response.json["error"]["message"]


def test_xml_that_is_not_plays_is_a_400(client: FlaskClient) -> None:
    assert_error(
        client.post("/imports/bgg", data=b"<plays>", content_type="text/xml"),
        400,
        "invalid_request",
    )
    assert_error(
        client.post("/imports/bgg", data=b"<games/>", content_type="text/xml"),
        400,
        "invalid_request",
    )


def test_imported_plays_are_archived_and_counted_on_their_own_day(
    app: Flask, client: FlaskClient
) -> None:
    backup, p = group()
    azul = backup.game("Azul")
    backup.play(azul, "2019-07-14 20:00:00", [(p["Ann"], "5", True), (p["Ben"], "3", False)])
    backup.play(azul, "2020-07-14 20:00:00", [(p["Ann"], "5", False), (p["Ben"], "8", True)])
    import_backup(client, backup.export())
    drain(app)
    stats = client.get("/stats/azul?since=2019-07-14&until=2019-07-14")
    assert stats.json["games"] == 1
    assert client.get("/stats/azul").json["games"] == 2


def ratings_of(client: FlaskClient, key: str) -> dict[str, tuple[float, float, int]]:
    """The ratings of a title (``/ratings/{key}``)."""
    response = client.get(f"/ratings/{key}?limit=100")
    assert response.status_code == 200, response.json
    return {r["player"]: (r["mu"], r["sigma"], r["games"]) for r in response.json["ratings"]}


def flat(ratings: dict[str, tuple[float, float, int]]) -> dict[str, float]:
    return {
        f"{name} {n}": value for name, rating in ratings.items() for n, value in enumerate(rating)
    }


def expected_ratings(
    client: FlaskClient, game_ids: list[str]
) -> dict[str, tuple[float, float, int]]:
    """The ratings of the games, rated one by one in the order they were played."""
    from service.stats.ratings.model import RatedGame, replay

    games = [game_of(client, game_id) for game_id in game_ids]
    rated = sorted(
        (
            RatedGame(
                "azul", g["id"], g["finished_at"], tuple(g["players"]), tuple(g["result"]["ranks"])
            )
            for g in games
        ),
        key=lambda one: one.order,
    )
    _, ratings = replay(rated, {})
    return ratings


def test_plays_are_rated_in_the_order_they_were_played_whatever_the_order_they_come_in(
    app: Flask, client: FlaskClient, real_redis: Any, tmp_path: Any
) -> None:
    from tests.conftest import make_app

    backup = random_backup(plays=24, titles=1, names=5, seed=3)
    whole = import_backup(client, backup.export())
    assert whole["imported"] == 24
    drain(app)
    in_order = ratings_of(client, "title-01")
    assert flat(in_order) == pytest.approx(flat(expected_ratings(client, whole["games"])))
    # Elsewhere, the later half first, rated; then the earlier half, which lands before it.
    prefix = f"{app.config['KEY_PREFIX']}other:"
    other = make_app(
        real_redis, prefix, DATA_DIR=str(tmp_path / "o"), ARCHIVE_DIR=str(tmp_path / "oa")
    )
    try:
        later, earlier = Backup(), Backup()
        for part in (later, earlier):
            part.players, part.games = backup.players, backup.games
        later.plays, earlier.plays = backup.plays[12:][::-1], backup.plays[:12][::-1]
        for part in (later, earlier):
            import_backup(other.test_client(), part.export())
            drain(other)
        assert flat(ratings_of(other.test_client(), "title-01")) == pytest.approx(flat(in_order))
    finally:
        keys = list(real_redis.scan_iter(match=f"{prefix}*", count=1000))
        if keys:
            real_redis.delete(*keys)


def test_a_finished_game_offers_add_to_bg_stats_with_a_stable_id(client: FlaskClient) -> None:
    import json
    import re
    from html import unescape
    from urllib.parse import unquote

    backup, p = group()
    golf = backup.game("Golf", bgg_id=42, highest_wins=False)
    backup.play(
        golf, "2021-03-05 19:00:00", [(p["Cyd"], "30", False), (p["Dee"], "-3.5", True)], minutes=50
    )
    game_id = import_backup(client, backup.export())["games"][0]
    page = client.get(f"/games/{game_id}/view").get_data(as_text=True)
    found = re.search(r'id="add-to-bgstats" href="([^"]+)"', page)
    assert found is not None
    link = unescape(found.group(1))
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = json.loads(unquote(link.split("data=", 1)[1]))
    assert data["sourceName"] == "Tabletape" and data["sourcePlayId"] == game_id
    assert data["playDate"] == "2021-03-05 19:00:00" and data["durationMin"] == 50
    assert data["game"] | {"sourceGameId": None} == {
        "name": "Golf", "bggId": 42, "highestWins": False, "noPoints": False,
        "sourceGameId": None,
    }  # fmt: skip
    assert [(pl["name"], pl["score"], pl["winner"]) for pl in data["players"]] == [
        ("Cyd", 30, False), ("Dee", -3.5, True),
    ]  # fmt: skip


@pytest.fixture
def three_games_a_job(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jobs of three games, so that a small backup makes several."""
    monkeypatch.setattr(history_module, "GAMES_PER_JOB", 3)
    monkeypatch.setattr(queue_module, "GAMES_PER_JOB", 3)


@pytest.mark.usefixtures("three_games_a_job")
def test_an_import_is_counted_by_jobs_of_many_games_each_game_once(
    app: Flask, client: FlaskClient
) -> None:
    backup = random_backup(plays=7, titles=2, names=5, seed=5)
    answer = import_backup(client, backup.export())
    queue = app.extensions["tabletape.queue"].queue
    assert sorted(map(games_of_job, queue.get_job_ids())) == [1, 3, 3]
    # /health counts the games waiting, not the jobs.
    assert client.get("/health").json["finished_games_to_count"] == 7
    assert client.get("/health").json["queue"]["archive"]["waiting"] == 7
    drain(app)
    assert client.get("/health").json["finished_games_to_count"] == 0
    assert {game_of(client, game_id)["status"] for game_id in answer["games"]} == {"archived"}
    counted = [client.get(f"/stats/{key}").json["games"] for key in ("title-01", "title-02")]
    assert sum(counted) == 7
    # The same games enqueued again (a reconcile, a retry) count nothing twice.
    app.extensions["tabletape.queue"].enqueue_many(answer["games"])
    drain(app)
    again = [client.get(f"/stats/{key}").json["games"] for key in ("title-01", "title-02")]
    assert again == counted


@pytest.mark.usefixtures("three_games_a_job")
def test_a_failed_job_of_many_games_is_told_per_game_and_reconciled_one_game_a_job(
    app: Flask, client: FlaskClient
) -> None:
    answer = import_backup(client, random_backup(plays=3, titles=1, names=5, seed=6).export())
    with mock.patch.object(archive_module, "_archive_many", side_effect=OSError("disk full")):
        drain(app)  # the job and its three retries fail
    health = client.get("/health").json
    assert health["queue"]["archive"]["failed"] == 3 and health["finished_games_to_count"] == 3
    services = app.extensions["tabletape"]
    assert reconcile(services.store, app.extensions["tabletape.queue"]) == 3
    health = client.get("/health").json
    assert health["queue"]["archive"]["failed"] == 0 and health["finished_games_to_count"] == 3
    drain(app)
    assert client.get("/health").json["finished_games_to_count"] == 0
    assert {game_of(client, game_id)["status"] for game_id in answer["games"]} == {"archived"}


def test_a_play_whose_title_holds_a_lone_surrogate_is_skipped_as_the_command_line_skips_it(
    client: FlaskClient,
) -> None:
    backup, people = group()
    ann, ben = people["Ann"], people["Ben"]
    azul, broken = backup.game("Azul"), backup.game("Carcassonne \ud800")
    backup.play(azul, "2021-01-01 20:00:00", [(ann, "5", True), (ben, "3", False)])
    cut = backup.play(broken, "2021-01-02 20:00:00", [(ann, "5", True), (ben, "3", False)])
    # As the app writes it: the surrogate as the JSON escape \ud800, which orjson refuses.
    body = json.dumps(backup.export()).encode()
    assert b"\\ud800" in body
    response = client.post("/imports/bgstats", data=body, content_type="application/json")
    assert response.status_code == 200, response.json
    assert response.json["imported"] == 1
    [skipped] = response.json["skipped"]
    assert skipped["uuid"] == cut and "lone surrogate" in skipped["reason"]


def test_a_play_whose_uuid_holds_a_lone_surrogate_is_skipped_not_a_500(
    client: FlaskClient,
) -> None:
    backup, people = group()
    azul = backup.game("Azul")
    scores = [(people["Ann"], "5", True), (people["Ben"], "3", False)]
    backup.play(azul, "2021-01-01 20:00:00", scores, uuid="play-\ud800")
    backup.play(azul, "2021-01-02 20:00:00", scores)
    body = json.dumps(backup.export()).encode()
    response = client.post("/imports/bgstats", data=body, content_type="application/json")
    assert response.status_code == 200, response.json
    assert response.json["imported"] == 1
    [skipped] = response.json["skipped"]
    assert skipped["uuid"] is None and "lone surrogate" in skipped["reason"]


def test_add_to_bg_stats_sends_no_score_for_a_player_never_scored(client: FlaskClient) -> None:
    from service.pages.bgstats import play_data
    from service.store.records import GameRecord

    game = create(client, game="scoresheet", players=["Ann", "Ben"], options={"title": "Azul"})
    append(client, game, {"type": "score", "player": 0, "points": 7})
    append(client, game, {"type": "end", "winners": []})
    body = client.get(f"/games/{game['id']}").json
    record = GameRecord(
        id=game["id"], game="scoresheet", players=["Ann", "Ben"], seed=0, seed_salt=None,
        seed_commitment=None, options=body["options"], rules_version="scoresheet/1",
        record_format=2, created_at=body["created_at"], version=body["version"],
        status="finished", head_hash="", token_sha256="", seat_tokens_sha256=[],
        result=body["result"], finished_at=body["finished_at"],
    )  # fmt: skip
    data = play_data(record)
    assert data is not None
    ann, ben = data["players"]
    assert ann["score"] == 7 and "score" not in ben
    assert not ann["winner"] and not ben["winner"] and "rank" not in ann
