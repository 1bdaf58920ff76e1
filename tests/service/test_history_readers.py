"""The readers of other apps' files, rule by rule (api.md, Bringing history in): pure functions
from the parsed file to plays or skip reasons, and the record a play becomes."""

from __future__ import annotations

import json
import time
from datetime import datetime
from typing import Any

import pytest

from domain.history import Play, Seat, record_of
from service.imports import bgg
from service.imports.backup_file import read_backup
from service.imports.bgstats import NotABackup
from service.imports.plays import Skipped, Unreadable, read_score
from tests.support.history import Backup, bgg_xml


@pytest.mark.parametrize(
    ("text", "number"),
    [("49", 49), ("12.5", 12.5), ("-3", -3), ("12.50", 12.5), (" 7 ", 7), ("+5", 5),
     ("0.125", 0.125), ("", None), (None, None), (8, 8)],
)  # fmt: skip
def test_a_score_is_a_string_that_reads_as_a_number(text: Any, number: Any) -> None:
    assert read_score(text, "Ann") == number


@pytest.mark.parametrize(
    ("text", "number"),
    [("21,7", 21.7), ("20,1", 20.1), ("66-11-12", 43), ("10 + 5 + 3", 18), ("-32+8", -24),
     ("24-12", 12), ("10+10+15", 35), ("0.1+0.2", 0.3), ("1,5 + 2.25", 3.75),
     ("+".join(["3"] * 22), 66)],
)  # fmt: skip
def test_a_score_written_with_a_decimal_comma_or_as_a_sum_is_its_number(
    text: str, number: Any
) -> None:
    assert read_score(text, "Ann") == number


def test_a_long_sum_is_read_in_linear_time() -> None:
    started = time.perf_counter()
    assert read_score("1+" * 100_000 + "1", "Ann") == 100_001
    with pytest.raises(Unreadable, match="Ann's score"):
        read_score("1 +" * 100_000 + " x", "Ann")
    assert time.perf_counter() - started < 2


@pytest.mark.parametrize(
    "text",
    ["five", "1e3", "1.2345", "2000000000", "NaN", True, "1,2,3", "5+", "+-5", "3 4", "1*2",
     "1.0005+1", "999999999+2", "1,"],
)  # fmt: skip
def test_any_other_score_makes_the_play_a_problem(text: Any) -> None:
    with pytest.raises(Unreadable, match="Ann's score"):
        read_score(text, "Ann")


def read(backup: Backup, names: dict[str, str] | None = None) -> list[Play | Skipped]:
    return list(read_backup(json.dumps(backup.export()).encode(), names))


def test_the_tables_may_come_after_the_plays_in_the_file() -> None:
    backup = Backup()
    ann, bob = backup.player("Ann"), backup.player("Bob")
    backup.play(backup.game("Azul"), "2021-01-01 20:00:00", [(ann, "5", True), (bob, "3", False)])
    export = backup.export()
    plays_first = {"plays": export.pop("plays"), **export}
    wrapped_names_last = {"export": plays_first, "names": {"Ann": "Anna"}}
    read_first = list(read_backup(json.dumps(plays_first).encode()))
    assert read_first == read(backup) and isinstance(read_first[0], Play)
    assert read_first[0].title == "Azul" and [seat.name for seat in read_first[0].seats] == [
        "Ann", "Bob"
    ]  # fmt: skip
    (renamed,) = read_backup(json.dumps(wrapped_names_last).encode())
    assert isinstance(renamed, Play) and renamed.seats[0].name == "Anna"


@pytest.mark.parametrize(
    ("body", "told"),
    [
        (b'{"players": [], "games": [], "plays": [{"uuid": "a"}', "not JSON"),
        (b'{"players": [], "games": [], "plays": [NaN]}', "not JSON"),
        (b'{"players": [], "games": [], "plays": []} {}', "not JSON"),
        (b'{"players": [], "games": [], "plays": ["\xff"]}', "not JSON"),
        (b'{"players": [], "games": {}, "plays": []}', "games is missing or not a list"),
        (b'{"export": [], "names": {}}', "the export is a JSON object"),
        (b'{"export": {"players": [], "games": [], "plays": []}, "names": {"a": 1}}', "names"),
        (b"[" * 2000 + b"]" * 2000, "nested too deep"),
    ],
    ids=["cut short", "NaN", "two documents", "not UTF-8", "games an object", "export a list",
         "a name not a string", "too deep"],
)  # fmt: skip
def test_a_file_that_is_not_a_backup_is_said_so_before_any_play(body: bytes, told: str) -> None:
    with pytest.raises(NotABackup, match=told):
        read_backup(body)


def test_seats_follow_seat_order_only_when_distinct_and_not_all_zero() -> None:
    backup = Backup()
    a, b, c = backup.player("A"), backup.player("B"), backup.player("C")
    game = backup.game("Azul")
    backup.play(
        game, "2021-01-01 20:00:00", [(a, "1", False, 3), (b, "2", False, 1), (c, "3", True, 2)]
    )
    backup.play(
        game, "2021-01-01 21:00:00", [(a, "1", False, 0), (b, "2", False, 0), (c, "3", True, 0)]
    )
    backup.play(
        game, "2021-01-01 22:00:00", [(a, "1", False, 1), (b, "2", False, 1), (c, "3", True, 2)]
    )
    plays = read(backup)
    assert [[seat.name for seat in play.seats] for play in plays if isinstance(play, Play)] == [
        ["B", "C", "A"], ["A", "B", "C"], ["A", "B", "C"],
    ]  # fmt: skip


def test_a_play_date_is_the_apps_local_time_taken_as_utc() -> None:
    backup = Backup()
    a = backup.player("A")
    game = backup.game("Azul")
    backup.play(game, "2021-01-01 20:15", [(a, "1", True)])
    backup.play(game, "2021-02-30 20:15:00", [(a, "1", True)])
    backup.play(game, "yesterday", [(a, "1", True)])
    first, bad_day, no_day = read(backup)
    assert isinstance(first, Play) and first.started == datetime(2021, 1, 1, 20, 15)
    assert isinstance(bad_day, Skipped) and "no day of the calendar" in bad_day.reason
    assert isinstance(no_day, Skipped) and "playDate 'yesterday'" in no_day.reason


def test_a_game_without_points_takes_no_score_and_ranks_its_winners_first() -> None:
    play = Play("bgstats", "x", "Codenames", None, "none", False, False,
                (Seat("A", None, False), Seat("B", None, True), Seat("C", None, False)),
                datetime(2021, 1, 1, 20), 15)  # fmt: skip
    document = record_of(play)
    assert [event["type"] for event in document["events"]] == ["end"]
    assert document["events"][-1]["ranks"] == [2, 1, 2]
    assert document["finished_at"] == "2021-01-01T20:15:00.000Z"


def test_the_lowest_total_is_best_where_the_lowest_wins() -> None:
    seats = (Seat("A", 30, False), Seat("B", -3, False), Seat("C", 12.5, False))
    play = Play("bgstats", "y", "Golf", 7, "lowest", False, False, seats, datetime(2021, 1, 1), 0)
    assert record_of(play)["events"][-1]["ranks"] == [3, 1, 2]


def test_two_plays_alike_are_two_records_and_one_play_is_always_the_same() -> None:
    seats = (Seat("A", 1, True),)
    one = Play(
        "bgstats", "u1", "Azul", None, "highest", False, False, seats, datetime(2021, 1, 1), 0
    )
    two = Play(
        "bgstats", "u2", "Azul", None, "highest", False, False, seats, datetime(2021, 1, 1), 0
    )
    assert record_of(one)["seed"] != record_of(two)["seed"]
    assert record_of(one) == record_of(one)


def test_a_title_the_score_sheet_refuses_is_a_reason() -> None:
    seats = (Seat("A", 1, True),)
    play = Play("bgg", "1", "!!!", None, "highest", False, False, seats, datetime(2021, 1, 1), 0)
    with pytest.raises(Unreadable, match="refused"):
        record_of(play)


def test_boardgamegeek_plays_keep_start_positions_only_when_all_given() -> None:
    found = bgg.read_plays(bgg_xml([
        {"id": 1, "date": "2020-01-01", "name": "Azul",
         "players": [{"name": "A", "startposition": "2"}, {"name": "B", "startposition": "1"}]},
        {"id": 2, "date": "2020-01-01", "name": "Azul",
         "players": [{"name": "A", "startposition": "2"}, {"name": "B"}]},
        {"id": 3, "date": "2020-13-01", "name": "Azul", "players": [{"name": "A"}]},
        {"id": 4, "date": "2020-01-01", "name": "Azul", "players": []},
    ]))  # fmt: skip
    first, second, bad_date, nobody = found
    assert isinstance(first, Play) and [s.name for s in first.seats] == ["B", "A"]
    assert isinstance(second, Play) and [s.name for s in second.seats] == ["A", "B"]
    assert isinstance(bad_date, Skipped) and bad_date.play_id == "3"
    # A play with no player is the page owner's (bgg_xml's <plays username="group">).
    assert isinstance(nobody, Play) and [s.name for s in nobody.seats] == ["group"]


LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE plays [
<!ENTITY lol "lol">
<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
]>
<plays>&lol2;</plays>"""


def test_a_billion_laughs_is_refused_before_any_expansion() -> None:
    with pytest.raises(bgg.NotPlaysXml, match="DTD or entities"):
        bgg.read_plays(LAUGHS)
    # A DTD alone, without an entity, is refused too.
    with pytest.raises(bgg.NotPlaysXml, match="DTD or entities"):
        bgg.read_plays(b'<?xml version="1.0"?><!DOCTYPE plays SYSTEM "plays.dtd"><plays/>')


def test_namesakes_of_one_play_are_different_people_numbered_in_that_play() -> None:
    backup = Backup()
    anonymous, ann = backup.player("Anonymous player"), backup.player(" Ann ")
    other = backup.player("Anonymous player")
    game = backup.game("Azul")
    backup.play(game, "2021-01-01 20:00:00",
                [(anonymous, "1", False), (ann, "2", True), (other, "3", False),
                 (anonymous, "4", False)])  # fmt: skip
    (play,) = read(backup)
    assert isinstance(play, Play)
    assert [seat.name for seat in play.seats] == [
        "Anonymous player", "Ann", "Anonymous player (2)", "Anonymous player (3)",
    ]  # fmt: skip
    (from_bgg,) = bgg.read_plays(bgg_xml([
        {"id": 1, "date": "2020-01-01", "name": "Azul",
         "players": [{"name": "Anonymous player"}, {"name": "Anonymous player", "win": True}]},
    ]))  # fmt: skip
    assert isinstance(from_bgg, Play)
    assert [seat.name for seat in from_bgg.seats] == ["Anonymous player", "Anonymous player (2)"]


def cooperative_play(winners: list[bool]) -> Play:
    seats = tuple(Seat(f"P{n}", None, won) for n, won in enumerate(winners))
    return Play("bgstats", "betrayal", "Betrayal at House on the Hill", None, "none", True,
                False, seats, datetime(2021, 1, 1), 0)  # fmt: skip


def test_a_traitors_cooperative_play_is_recorded_as_not_cooperative_with_its_winners() -> None:
    document = record_of(cooperative_play([False, True, False]))
    assert document["options"]["cooperative"] is False
    assert document["events"][-1]["ranks"] == [2, 1, 2]
    assert record_of(cooperative_play([True, True]))["events"][-1]["outcome"] == "won"
    assert record_of(cooperative_play([False, False]))["events"][-1]["outcome"] == "lost"


def test_one_team_for_everyone_is_no_teams() -> None:
    backup = Backup()
    a, b, c = backup.player("A"), backup.player("B"), backup.player("C")
    game = backup.game("Azul")
    backup.play(game, "2021-01-01 20:00:00",
                [(a, "1", False, 0, "1"), (b, "2", True, 0, "1")], uses_teams=True)
    backup.play(game, "2021-01-01 21:00:00",
                [(a, "1", False, 0, "1"), (b, "2", True, 0, "2"), (c, "3", False, 0, "1")],
                uses_teams=True)
    backup.play(game, "2021-01-01 22:00:00",
                [(a, "1", False, 0, "1"), (b, "2", True, 0, "2")])  # fmt: skip
    plays = [play for play in read(backup) if isinstance(play, Play)]
    one_team, two_teams, no_teams = (record_of(play)["options"] for play in plays)
    assert "teams" not in one_team and "teams" not in no_teams
    assert two_teams["teams"] == [[0, 2], [1]]
