"""A play's id in its app (BG Stats' uuid, BoardGameGeek's id) cannot be squatted (api.md,
"Bringing history in"): a play whose id a game here holds already is counted in ``already`` only
when that game is the one this play makes; else it is listed in ``differs`` with the game that
holds the id, never silently dropped. On the real Redis."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.service.test_history_imports import game_of, group, import_backup
from tests.support.history import bgg_xml


def post_bgg(client: FlaskClient, xml: bytes) -> dict[str, object]:
    response = client.post("/imports/bgg", data=xml, content_type="application/xml")
    assert response.status_code == 200, response.json
    answer: dict[str, object] = response.json
    return answer


REAL = {"id": 4242, "date": "2020-06-01", "name": "Azul",
        "players": [{"name": "Ann", "score": "50", "win": True}, {"name": "Ben", "score": "41"}]}
SQUAT = {**REAL, "players": [{"name": "Mallory", "score": "99", "win": True}]}  # fmt: skip


def test_a_bgg_play_whose_id_was_squatted_by_another_play_is_listed_as_differing(
    client: FlaskClient,
) -> None:
    squatted = post_bgg(client, bgg_xml([SQUAT]))
    assert squatted["imported"] == 1
    real = post_bgg(client, bgg_xml([REAL]))
    assert real == {
        "imported": 0,
        "already": 0,
        "differs": [{"uuid": "4242", "game": squatted["games"][0]}],  # type: ignore[index]
        "skipped": [],
        "games": [],
    }
    # The very play imported again is already here, and differs from nothing.
    again = post_bgg(client, bgg_xml([SQUAT]))
    assert again["already"] == 1 and again["differs"] == []


def test_two_plays_of_one_id_in_one_file_import_the_first_and_list_the_second_as_differing(
    client: FlaskClient,
) -> None:
    later = {**REAL, "date": "2020-06-02"}
    answer = post_bgg(client, bgg_xml([SQUAT, later]))
    assert answer["imported"] == 1 and answer["already"] == 0
    games: list[str] = answer["games"]  # type: ignore[assignment]
    assert answer["differs"] == [{"uuid": "4242", "game": games[0]}]
    assert game_of(client, games[0])["players"] == ["Mallory"]


def test_a_bg_stats_play_whose_uuid_was_squatted_is_listed_as_differing(
    client: FlaskClient,
) -> None:
    squat, p = group()
    azul = squat.game("Azul")
    squat.play(azul, "2021-01-01 20:00:00", [(p["Dee"], "1", True)], uuid="the-uuid")
    squatted = import_backup(client, squat.export())
    real, p = group()
    azul = real.game("Azul")
    real.play(
        azul, "2021-01-01 20:00:00", [(p["Ann"], "5", True), (p["Ben"], "3", False)],
        uuid="the-uuid",
    )  # fmt: skip
    real.play(azul, "2021-01-02 20:00:00", [(p["Ann"], "2", True)], uuid="the-uuid")
    answer = import_backup(client, real.export())
    assert answer["imported"] == 0 and answer["already"] == 0
    assert answer["differs"] == [{"uuid": "the-uuid", "game": squatted["games"][0]}] * 2
    again = import_backup(client, squat.export())
    assert again["already"] == 1 and again["differs"] == []


def test_a_play_edited_in_the_app_since_its_import_is_listed_as_differing(
    client: FlaskClient,
) -> None:
    first = post_bgg(client, bgg_xml([REAL]))
    edited = {**REAL, "players": [{"name": "Ann", "score": "51", "win": True}, REAL["players"][1]]}
    answer = post_bgg(client, bgg_xml([edited]))
    assert answer["differs"] == [{"uuid": "4242", "game": first["games"][0]}]  # type: ignore[index]
    moved = post_bgg(client, bgg_xml([{**REAL, "date": "2020-06-03"}]))
    assert moved["already"] == 0 and len(moved["differs"]) == 1  # type: ignore[arg-type]


def test_the_openapi_document_describes_the_differing_plays(client: FlaskClient) -> None:
    document = client.get("/openapi.json").json
    for path in ("/imports/bgstats", "/imports/bgg"):
        answer = document["paths"][path]["post"]["responses"]["200"]["content"]
        name = answer["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
        differs = document["components"]["schemas"][name]["properties"]["differs"]
        item = differs["items"]["$ref"].rsplit("/", 1)[-1]
        assert set(document["components"]["schemas"][item]["properties"]) == {"uuid", "game"}
