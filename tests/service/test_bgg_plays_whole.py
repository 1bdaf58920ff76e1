"""BoardGameGeek's plays come in whole (api.md, "Bringing history in", issue 38): a play of
``quantity="N"`` is N games, ``nowinstats="1"`` a play with no winner, a play with no
``<player>`` the file owner's own, a player with a blank name named by their username, players
in ``startposition`` order when every one is a whole number. The real files of
tests/samples/history are imported with nothing lost. On the real Redis."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from domain.history import each_play
from service.imports import bgg
from service.imports.plays import Play, Skipped
from tests.service.test_history_imports import game_of

SAMPLES = Path(__file__).parent.parent / "samples" / "history"


def plays_xml(*plays: str, owner: str | None = "owner") -> bytes:
    """``<plays>`` as /xmlapi2/plays answers, of the ``<play>`` elements given, the page of
    ``owner`` (None: a file that names no owner)."""
    username = "" if owner is None else f' username="{owner}" userid="1"'
    body = "\n".join(plays)
    return f'<?xml version="1.0" encoding="utf-8"?>\n<plays{username}>\n{body}\n</plays>'.encode()


def play_xml(play_id: str, players: str = "", **attributes: str) -> str:
    """One ``<play>`` of Azul on 2021-03-04; ``players``: its ``<player>`` elements, if any."""
    extra = "".join(f' {name}="{value}"' for name, value in attributes.items())
    inside = f"<players>{players}</players>" if players else ""
    return (
        f'<play id="{play_id}" date="2021-03-04" length="30"{extra}>'
        f'<item name="Azul" objectid="230802"/>{inside}</play>'
    )


def post_bgg(client: FlaskClient, xml: bytes) -> dict[str, Any]:
    response = client.post("/imports/bgg", data=xml, content_type="application/xml")
    assert response.status_code == 200, response.json
    answer: dict[str, Any] = response.json
    return answer


ANN_BEN = '<player name="Ann" score="50" win="1"/><player name="Ben" score="41" win="0"/>'


def test_a_play_of_quantity_three_is_three_games_the_second_and_third_known_by_id_slash_k(
    client: FlaskClient,
) -> None:
    xml = plays_xml(play_xml("501", ANN_BEN, quantity="3"))
    found = bgg.read_plays(xml)
    # One record of three copies, each its own play once imported.
    assert len(found) == 1 and isinstance(found[0], Play) and found[0].copies == 3
    assert [one.play_id for one in each_play(found[0])] == ["501", "501/2", "501/3"]
    answer = post_bgg(client, xml)
    assert answer["imported"] == 3 and answer["skipped"] == [], answer
    results = [game_of(client, game)["result"] for game in answer["games"]]
    assert [result["winners"] for result in results] == [[0], [0], [0]]
    again = post_bgg(client, xml)
    assert (again["imported"], again["already"], again["differs"]) == (0, 3, [])


def test_an_incomplete_play_is_one_skip_whatever_its_quantity() -> None:
    found = bgg.read_plays(plays_xml(play_xml("502", ANN_BEN, quantity="4", incomplete="1")))
    assert len(found) == 1 and isinstance(found[0], Skipped) and found[0].play_id == "502"
    assert "incomplete" in found[0].reason


def test_a_play_kept_out_of_the_win_stats_ended_with_no_winner(client: FlaskClient) -> None:
    marked = '<player name="Ann" win="1"/><player name="Ben" win="0"/>'
    answer = post_bgg(client, plays_xml(play_xml("503", marked, nowinstats="1")))
    assert answer["imported"] == 1, answer
    assert game_of(client, answer["games"][0])["result"]["winners"] == []


def test_a_play_kept_out_of_the_win_stats_ended_with_no_winner_whatever_its_scores(
    client: FlaskClient,
) -> None:
    scored = '<player name="Ann" score="40" win="1"/><player name="Ben" score="31" win="0"/>'
    answer = post_bgg(client, plays_xml(play_xml("504", scored, nowinstats="1")))
    result = game_of(client, answer["games"][0])["result"]
    # The scores stand; the totals decide no winner.
    assert result["winners"] == [] and result["scores"] == [40, 31]


def test_a_play_without_players_is_the_file_owners_alone_with_no_winner(
    client: FlaskClient,
) -> None:
    answer = post_bgg(client, plays_xml(play_xml("504"), owner="Chloe"))
    assert answer["imported"] == 1, answer
    game = game_of(client, answer["games"][0])
    assert game["players"] == ["Chloe"] and game["result"]["winners"] == []


def test_a_play_without_players_in_a_file_naming_no_owner_is_skipped_saying_so() -> None:
    (found,) = bgg.read_plays(plays_xml(play_xml("505"), owner=None))
    assert isinstance(found, Skipped) and found.play_id == "505"
    assert "no players" in found.reason and "owner" in found.reason


def test_several_pages_in_one_body_keep_each_pages_owner() -> None:
    pages = (
        b"<plays>"
        + plays_xml(play_xml("506"), owner="Ann").split(b"?>", 1)[1]
        + plays_xml(play_xml("507"), owner="Ben").split(b"?>", 1)[1]
        + b"</plays>"
    )
    first, second = bgg.read_plays(pages)
    assert isinstance(first, Play) and [seat.name for seat in first.seats] == ["Ann"]
    assert isinstance(second, Play) and [seat.name for seat in second.seats] == ["Ben"]


def test_a_player_with_a_blank_name_is_named_by_their_username() -> None:
    players = '<player username="cyd77" name=" " win="1"/><player name="Ann"/>'
    (found,) = bgg.read_plays(plays_xml(play_xml("508", players)))
    assert isinstance(found, Play) and [seat.name for seat in found.seats] == ["cyd77", "Ann"]


def test_players_are_in_start_position_order_when_every_one_is_a_whole_number() -> None:
    shared = (
        '<player name="Ann" startposition="2"/><player name="Ben" startposition="1"/>'
        '<player name="Cyd" startposition="1"/>'
    )
    not_whole = '<player name="Ann" startposition="2"/><player name="Ben" startposition="1a"/>'
    in_order, as_written = bgg.read_plays(
        plays_xml(play_xml("509", shared), play_xml("510", not_whole))
    )
    assert isinstance(in_order, Play) and [s.name for s in in_order.seats] == ["Ben", "Cyd", "Ann"]
    assert isinstance(as_written, Play) and [s.name for s in as_written.seats] == ["Ann", "Ben"]


def pages_in_one(*files: str) -> bytes:
    """The ``<play>`` elements of several of BoardGameGeek's pages put in one ``<plays>`` (as
    api.md says several pages go), the first page's root kept."""
    texts = [(SAMPLES / name).read_text(encoding="utf-8") for name in files]
    root = re.search(r"<plays[^>]*>", texts[0])
    assert root is not None
    plays = [re.sub(r"(?s)^.*?<plays[^>]*>|</plays>\s*$", "", text) for text in texts]
    return ('<?xml version="1.0" encoding="utf-8"?>' + root.group() + "".join(plays)
            + "</plays>").encode()  # fmt: skip


def test_a_real_file_of_quantities_and_plays_without_players_is_imported_whole(
    client: FlaskClient,
) -> None:
    xml = (SAMPLES / "bgg-2-quantity-no-players.xml").read_bytes()
    assert xml.count(b"<play ") == 100
    answer = post_bgg(client, xml)
    assert (answer["imported"], answer["skipped"], answer["differs"]) == (120, [], []), answer
    again = post_bgg(client, xml)
    assert (again["imported"], again["already"], again["differs"]) == (0, 120, [])


def test_four_real_monthly_pages_of_an_owner_who_logs_only_the_game_are_one_import(
    client: FlaskClient,
) -> None:
    xml = pages_in_one(
        "bgg-3-pages-2025-09.xml",
        "bgg-3-pages-2025-10.xml",
        "bgg-3-pages-2026-02.xml",
        "bgg-3-pages-2026-06.xml",
    )
    assert xml.count(b"<play ") == 0 + 21 + 11 + 18
    answer = post_bgg(client, xml)
    assert (answer["imported"], answer["skipped"], answer["differs"]) == (60, [], []), answer
    again = post_bgg(client, xml)
    assert (again["imported"], again["already"], again["differs"]) == (0, 60, [])
