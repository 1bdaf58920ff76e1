"""One test per rule of the score sheet (spec/scoresheet.md), on the game object itself: the game
is not registered until the service takes titles (issue 29)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from domain import game_names, get_game
from domain.errors import (
    GameFinishedError,
    IllegalMoveError,
    InvalidEventError,
    InvalidOptionsError,
)
from domain.scoresheet import SCORESHEET, ScoresheetState, numbers, title_key
from domain.viewers import PUBLIC, RECORDER, seat

GAME = SCORESHEET
NAMES = ["Ana", "Ben", "Caro", "Dan"]


def start(players: int = 3, seed: int = 0, **options: Any) -> ScoresheetState:
    options.setdefault("title", "Carcassonne")
    return GAME.new_game(players, seed, GAME.options(options, players))


def play(state: ScoresheetState, *events: dict[str, Any]) -> ScoresheetState:
    for event in events:
        state = GAME.apply(state, event)
    return state


def score(player: int, points: Any) -> dict[str, Any]:
    return {"type": "score", "player": player, "points": points}


def round_of(*points: Any) -> dict[str, Any]:
    return {"type": "round", "points": list(points)}


def end(**fields: Any) -> dict[str, Any]:
    return {"type": "end", **fields}


def refused_option(players: int = 3, **options: Any) -> InvalidOptionsError:
    with pytest.raises(InvalidOptionsError) as caught:
        GAME.options(options, players)
    return caught.value


def illegal(state: ScoresheetState, event: dict[str, Any]) -> str:
    with pytest.raises(IllegalMoveError) as caught:
        GAME.apply(state, event)
    return caught.value.message


def malformed(state: ScoresheetState, event: dict[str, Any]) -> InvalidEventError:
    with pytest.raises(InvalidEventError) as caught:
        GAME.apply(state, event)
    return caught.value


# The game ---------------------------------------------------------------------------------------
def test_the_score_sheet_is_a_game_like_any_other() -> None:
    assert "scoresheet" in game_names()
    assert get_game("scoresheet") is GAME
    assert (GAME.name, GAME.rules_version) == ("scoresheet", "scoresheet/1")


# Options ----------------------------------------------------------------------------------------
def test_options_the_title_is_a_must_and_the_defaults_are_filled_in() -> None:
    assert GAME.options({"title": "Carcassonne"}, 2) == {
        "title": "Carcassonne",
        "scoring": "highest",
        "cooperative": False,
    }
    assert refused_option().details == {"title": "required"}


def test_options_are_idempotent_and_keep_bgg_id_and_teams_when_given() -> None:
    raw = {"title": "Tichu", "bgg_id": 215, "scoring": "highest", "teams": [[0, 2], [1, 3]]}
    once = GAME.options(raw, 4)
    assert once == {**raw, "cooperative": False}
    assert GAME.options(once, 4) == once


@pytest.mark.parametrize("players", [1, 2, 20])
def test_options_one_to_twenty_players(players: int) -> None:
    assert start(players).totals == (0,) * players


@pytest.mark.parametrize("players", [0, 21, -1])
def test_options_refuse_fewer_than_one_or_more_than_twenty_players(players: int) -> None:
    assert "players" in refused_option(players, title="Go").details


@pytest.mark.parametrize(
    ("title", "words"),
    [
        ("", "1 to 100 characters"),
        ("x" * 101, "1 to 100 characters"),
        ("   ", "not blank"),
        ("Cat\nan", "no control characters"),
        ("Tab\tle", "no control characters"),
        (12, "a string"),
        (None, "a string"),
        ("!!!", "a letter or a digit"),
        ("???", "a letter or a digit"),
        ("🎲", "a letter or a digit"),
    ],
)
def test_options_refuse_a_title_that_does_not_fit_with_its_words(title: Any, words: str) -> None:
    assert refused_option(title=title).details == {"title": words}


def test_options_a_title_of_100_characters_and_any_script_is_taken() -> None:
    assert start(title="y" * 100).title == "y" * 100
    assert start(title="Ébène 大富豪").key == "ebene-大富豪"


@pytest.mark.parametrize("bgg_id", [0, -5, "822", 1.5, True, None, 2**63])
def test_options_refuse_a_bgg_id_that_is_not_a_positive_integer(bgg_id: Any) -> None:
    assert refused_option(title="Go", bgg_id=bgg_id).details == {"bgg_id": "a positive integer"}


def test_options_bgg_id_is_kept_in_the_state() -> None:
    assert start(title="Carcassonne", bgg_id=822).bgg_id == 822
    assert start().bgg_id is None


@pytest.mark.parametrize("scoring", ["high", "", None, 1, "HIGHEST"])
def test_options_refuse_a_scoring_that_is_not_highest_lowest_or_none(scoring: Any) -> None:
    assert "scoring" in refused_option(title="Go", scoring=scoring).details


@pytest.mark.parametrize("cooperative", ["yes", 1, 0, None])
def test_options_refuse_a_cooperative_that_is_not_a_boolean(cooperative: Any) -> None:
    assert "cooperative" in refused_option(title="Go", cooperative=cooperative).details


@pytest.mark.parametrize(
    ("teams", "words"),
    [
        ([[0, 1, 2, 3]], "at least two teams"),
        ([[0, 1], [2]], "leave out seats [3]"),
        ([[0, 1], [1, 2, 3]], "more than once"),
        ([[0, 1], [2, 3, 4]], "seats [4]"),
        ([[0, 1], [], [2, 3]], "a list of at least two teams"),
        ([[0, 1], ["2", 3]], "a list of at least two teams"),
        ([[0, True], [2, 3]], "a list of at least two teams"),
        ("0,1|2,3", "a list of at least two teams"),
        ([], "at least two teams"),
    ],
)
def test_options_refuse_teams_unless_every_seat_is_in_exactly_one_of_two_or_more(
    teams: Any, words: str
) -> None:
    error = refused_option(4, title="Tichu", teams=teams)
    assert list(error.details) == ["teams"] and words in error.message


def test_options_a_game_of_one_player_cannot_have_teams() -> None:
    assert "teams" in refused_option(1, title="Solitaire", teams=[[0]]).details


def test_options_teams_may_be_named_and_are_shown_by_their_names() -> None:
    options = {"title": "Codenames", "teams": [[0, 2], [1, 3]], "team_names": ["Red", "Blue"]}
    assert GAME.options(options, 4)["team_names"] == ["Red", "Blue"]
    shown = GAME.view(start(4, teams=[[0, 2], [1, 3]], team_names=["Red", "Blue"]), RECORDER)
    assert shown["team_names"] == ["Red", "Blue"]


def test_options_teams_without_names_are_team_1_team_2_and_no_teams_no_names() -> None:
    assert GAME.view(start(4, teams=[[0], [1, 2], [3]]), RECORDER)["team_names"] == [
        "Team 1", "Team 2", "Team 3",
    ]  # fmt: skip
    assert GAME.view(start(4), RECORDER)["team_names"] is None


@pytest.mark.parametrize(
    ("names", "words"),
    [
        (["Red"], "one name per team (2)"),
        (["Red", "Blue", "Green"], "one name per team (2)"),
        (["Red", "Red"], "more than once"),
        (["Red", ""], "one name per team"),
        (["Red", "   "], "one name per team"),
        (["Red", "x" * 41], "1 to 40 characters"),
        (["Red", "Bl\nue"], "one name per team"),
        (["Red", 2], "one name per team"),
        ("Red,Blue", "one name per team"),
    ],
)
def test_options_refuse_team_names_unless_one_distinct_name_per_team(
    names: Any, words: str
) -> None:
    error = refused_option(4, title="Codenames", teams=[[0, 2], [1, 3]], team_names=names)
    assert list(error.details) == ["team_names"] and words in error.message


def test_options_team_names_without_teams_are_refused() -> None:
    error = refused_option(4, title="Codenames", team_names=["Red", "Blue"])
    assert list(error.details) == ["team_names"] and "give teams too" in error.message


def test_options_chance_is_refused_a_score_sheet_has_no_chance() -> None:
    error = refused_option(title="Go", chance="seeded")
    assert list(error.details) == ["chance"] and "no chance" in error.message


@pytest.mark.parametrize("name", ["first_player", "catalog", "Title", "rounds"])
def test_options_any_other_option_is_refused_naming_it(name: str) -> None:
    assert refused_option(title="Go", **{name: 1}).details == {name: "unknown option"}


def test_options_must_be_an_object() -> None:
    with pytest.raises(InvalidOptionsError):
        GAME.options(["title"], 2)  # type: ignore[arg-type]


def test_the_seed_decides_nothing_and_must_be_a_64_bit_unsigned_integer() -> None:
    assert start(seed=0) == start(seed=2**64 - 1) == start(seed=12345)
    for seed in (-1, 2**64, "7"):
        with pytest.raises(InvalidOptionsError):
            GAME.new_game(2, seed, {"title": "Go"})  # type: ignore[arg-type]


def test_new_game_checks_the_options_again() -> None:
    with pytest.raises(InvalidOptionsError):
        GAME.new_game(2, 0, {"title": ""})


# The title's key --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("title", "key"),
    [
        ("7 Wonders: Duel", "7-wonders-duel"),
        ("Café International", "cafe-international"),
        ("7 Wonders Duel", "7-wonders-duel"),
        ("  Carcassonne  ", "carcassonne"),
        ("CARCASSONNE", "carcassonne"),
        ("Ticket to Ride — Europe!", "ticket-to-ride-europe"),
        ("Mädchen & Ölfässer", "madchen-olfasser"),
        ("\uff2d\uff41\uff44\uff41", "mada"),
        ("ﬁve", "five"),
        ("Straße", "strasse"),
        ("Καρκασόν", "καρκασον"),
        ("将棋", "将棋"),
        ("大富豪", "大富豪"),
        ("스플렌더", "스플렌더"),
        ("스플렌더: Pokémon (Splendor: Pokémon)", "스플렌더-pokemon-splendor-pokemon"),
        ("ΚΑΡΚΑΣΟΝ", "καρκασον"),
        ("a__b--c", "a-b-c"),
        ("-x-", "x"),
        # Every combining mark (Unicode's category M), not only those of a combining class.
        ("Sky\ufe0fjo", "skyjo"),
        ("Ca\u0903fe", "cafe"),
        ("1\u20e3 Night", "1-night"),
    ],
)
def test_the_key_is_the_title_case_folded_without_accents_in_any_script_runs_of_others_one_dash(
    title: str, key: str
) -> None:
    assert title_key(title) == key


def test_the_key_of_a_title_is_in_the_state_and_a_title_with_an_empty_key_is_refused() -> None:
    assert start(title="7 Wonders: Duel").key == "7-wonders-duel"
    assert title_key("¿¡…?!") == ""
    assert refused_option(title="¿¡…?!").details == {"title": "a letter or a digit"}


def test_the_key_of_a_game_with_rules_is_that_game_s_name() -> None:
    assert start(title="MADA").key == "mada"
    assert start(title="Madcala!").key == "madcala"


# Numbers ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "milli"),
    [
        (12, 12000),
        (-3, -3000),
        (0, 0),
        (12.5, 12500),
        (0.1, 100),
        (-0.125, -125),
        (2.0, 2000),
        (-0.0, 0),
        (10**9, 10**12),
        (-(10**9), -(10**12)),
        (999999999.999, 999999999999),
        (1000.0, 10**6),
    ],
)
def test_numbers_an_integer_or_a_decimal_of_at_most_3_decimals_within_10_to_the_9(
    value: Any, milli: int
) -> None:
    assert numbers.parse(value, "points") == milli


@pytest.mark.parametrize(
    "value",
    ["12", "1e3", True, False, None, [1], {"n": 1}, 0.0001, 1.2345, 10**9 + 1, 1e10, 1e-5,
     float("nan"), float("inf"), -1000000000.5, Decimal("1.5")],
)  # fmt: skip
def test_numbers_anything_else_is_refused_as_malformed(value: Any) -> None:
    state = start()
    error = malformed(state, score(0, value))
    assert error.details == {"points": numbers.WHAT}
    assert not numbers.is_number(value)


def test_numbers_a_parsed_1e3_cannot_be_told_from_1000_so_the_literal_is_for_the_reader() -> None:
    assert json.loads("1e3") == 1000.0 and numbers.is_number(json.loads("1e3"))
    assert not numbers.is_plain_literal("1e3") and not numbers.is_plain_literal("1E-2")
    assert numbers.is_plain_literal("12.5") and numbers.is_plain_literal("-3")
    # A reader that keeps the literal can refuse it.
    with pytest.raises(ValueError):
        json.loads("1e3", parse_float=lambda text: _plain(text))


def _plain(text: str) -> float:
    if not numbers.is_plain_literal(text):
        raise ValueError(text)
    return float(text)


def test_numbers_totals_are_exact_0_1_plus_0_2_is_0_3() -> None:
    state = play(start(), score(0, 0.1), score(0, 0.2), round_of(0.7, None, 0.3))
    shown = GAME.view(state, RECORDER)["totals"]
    assert shown == [1, 0, 0.3]
    assert json.dumps(shown) == "[1, 0, 0.3]"
    state = play(start(), *[score(1, 0.1) for _ in range(10)])
    assert GAME.view(state, RECORDER)["totals"][1] == 1


def test_numbers_are_written_in_their_shortest_form() -> None:
    assert numbers.to_json(2000) == 2 and isinstance(numbers.to_json(2000), int)
    assert numbers.to_json(4500) == 4.5 and json.dumps(numbers.to_json(4500)) == "4.5"
    assert json.dumps(numbers.to_json(-125)) == "-0.125"
    assert json.dumps(numbers.to_json(999999999999999)) == "999999999999.999"
    assert (
        numbers.text(4500) == "4.5" and numbers.text(-3000) == "-3" and numbers.text(1) == "0.001"
    )
    assert numbers.written(2.0) == 2 and isinstance(numbers.written(2.0), int)
    assert numbers.written(4.50) == 4.5 and numbers.written("x") == "x"


def test_numbers_an_event_is_written_with_its_numbers_in_shortest_form() -> None:
    from domain.scoresheet import written_event

    assert written_event(score(0, 2.0)) == score(0, 2)
    assert isinstance(written_event(score(0, 2.0))["points"], int)
    assert written_event(round_of(4.5, None, -0.0, 3)) == round_of(4.5, None, 0, 3)
    assert json.dumps(written_event(round_of(2.0, 0.25))["points"]) == "[2, 0.25]"
    assert written_event(end(ranks=[1, 2])) == end(ranks=[1, 2])
    assert written_event(score(0, "x")) == score(0, "x")
    # Written, the event is the same move.
    state = start()
    for event in (score(1, 2.0), round_of(0.1, None, 7.0)):
        assert GAME.apply(state, written_event(event)) == GAME.apply(state, event)


def test_numbers_a_total_is_kept_within_10_to_the_12() -> None:
    state = play(start(), *[score(0, 10**9) for _ in range(1000)])
    assert GAME.view(state, RECORDER)["totals"][0] == 10**12
    assert "10^12" in illegal(state, score(0, 0.001))
    assert "10^12" in illegal(state, round_of(1, 0, 0))


# Events: score and round ------------------------------------------------------------------------
def test_score_adds_points_to_one_seat() -> None:
    state = play(start(), score(1, 12), score(1, -3), score(2, 4.5))
    assert GAME.view(state, RECORDER)["totals"] == [0, 9, 4.5]
    assert state.rounds == 0 and state.version == 3


def test_score_names_a_seat_of_the_game() -> None:
    for player in (3, -1, True, "0", None):
        assert "player" in malformed(start(), score(player, 1)).details


def test_score_has_player_and_points_and_nothing_else() -> None:
    assert malformed(start(), {"type": "score", "player": 0}).details == {"points": "required"}
    extra = {"type": "score", "player": 0, "points": 1, "round": 2}
    assert malformed(start(), extra).details == {"round": "unknown field"}


def test_round_adds_one_number_or_null_per_seat_and_counts_a_round() -> None:
    state = play(start(), round_of(5, None, -2), round_of(None, None, None), round_of(1, 1.5, 0))
    assert GAME.view(state, RECORDER)["totals"] == [6, 1.5, -2]
    assert GAME.view(state, RECORDER)["rounds"] == 3


@pytest.mark.parametrize(
    "points", [[1, 2], [1, 2, 3, 4], [], "1,2,3", [1, "2", 3], [1, 2, True], [1, 2, 1e-4]]
)
def test_round_points_must_be_one_number_or_null_per_seat(points: Any) -> None:
    assert "points" in malformed(start(), {"type": "round", "points": points}).details


@pytest.mark.parametrize("event", [score(0, 1), round_of(1, 2, 3)])
def test_score_and_round_are_refused_with_scoring_none(event: dict[str, Any]) -> None:
    assert "scoring 'none'" in illegal(start(scoring="none"), event)


@pytest.mark.parametrize("event", [score(0, 1), round_of(1, 2, 3), end()])
def test_nothing_is_accepted_once_the_game_has_ended(event: dict[str, Any]) -> None:
    with pytest.raises(GameFinishedError):
        GAME.apply(play(start(), end()), event)


def test_an_unknown_event_type_is_malformed() -> None:
    for kind in ("play", "retract", None):
        assert "type" in malformed(start(), {"type": kind}).details


def test_apply_never_changes_the_state_it_is_given() -> None:
    before = start()
    copy = start()
    play(before, score(0, 5), round_of(1, 2, 3), end())
    assert before == copy


# The end: ranks by the totals -------------------------------------------------------------------
def test_end_ranks_by_totals_highest_first_ties_share_a_rank_and_the_next_skips() -> None:
    state = play(start(4), round_of(10, 7, 7, 3), end())
    assert GAME.result(state) == {
        "winners": [0],
        "ranks": [1, 2, 2, 4],
        "scores": [10, 7, 7, 3],
        "outcome": None,
    }


def test_end_ranks_tied_for_first_are_all_winners() -> None:
    result = GAME.result(play(start(4), round_of(9, 9, 1, 9), end()))
    assert result is not None
    assert result["ranks"] == [1, 1, 4, 1] and result["winners"] == [0, 1, 3]


def test_end_with_no_points_at_all_ranks_everyone_first() -> None:
    result = GAME.result(play(start(3), end()))
    assert result == {
        "winners": [0, 1, 2],
        "ranks": [1, 1, 1],
        "scores": [None, None, None],
        "outcome": None,
    }


def test_end_lowest_the_lowest_total_wins() -> None:
    state = play(start(4, scoring="lowest"), round_of(10, 7, 7, 3), score(3, 0.5), end())
    result = GAME.result(state)
    assert result is not None
    assert result["ranks"] == [4, 2, 2, 1] and result["winners"] == [3]
    assert result["scores"] == [10, 7, 7, 3.5]


def test_end_ranks_by_exact_totals() -> None:
    state = play(start(2), score(0, 0.1), score(0, 0.2), score(1, 0.3), end())
    assert GAME.result(state) == {
        "winners": [0, 1],
        "ranks": [1, 1],
        "scores": [0.3, 0.3],
        "outcome": None,
    }


def test_end_of_a_game_of_one_player() -> None:
    state = play(start(1, title="Onirim"), score(0, 42), end())
    assert GAME.result(state) == {"winners": [0], "ranks": [1], "scores": [42], "outcome": None}


# The end: teams ---------------------------------------------------------------------------------
def test_end_teams_are_ranked_by_team_totals_and_members_carry_the_team_s_rank() -> None:
    state = start(4, title="Tichu", teams=[[0, 2], [1, 3]])
    state = play(state, round_of(100, 20, -25, 5), end())
    # Team [0, 2]: 75; team [1, 3]: 25.
    assert GAME.view(state, RECORDER)["team_totals"] == [75, 25]
    assert GAME.result(state) == {
        "winners": [0, 2],
        "ranks": [1, 2, 1, 2],
        "scores": [100, 20, -25, 5],
        "outcome": None,
    }


def test_end_teams_tied_share_a_rank_and_the_next_team_skips() -> None:
    state = start(5, teams=[[0], [1, 2], [3, 4]], scoring="lowest")
    result = GAME.result(play(state, round_of(4, 2, 2, 1, 1), end()))
    assert result is not None
    # Team totals 4, 4, 2: lowest first.
    assert result["ranks"] == [2, 2, 2, 1, 1] and result["winners"] == [3, 4]


def test_end_teams_members_show_their_own_totals() -> None:
    state = play(start(4, teams=[[0, 1], [2, 3]]), score(0, 3), score(1, 4))
    shown = GAME.view(state, RECORDER)
    assert shown["totals"] == [3, 4, 0, 0] and shown["team_totals"] == [7, 0]


# The end: ranks given ---------------------------------------------------------------------------
def test_end_ranks_override_the_totals() -> None:
    state = play(start(3), round_of(5, 5, 1), end(ranks=[2, 1, 3]))
    result = GAME.result(state)
    assert result is not None
    assert result["ranks"] == [2, 1, 3] and result["winners"] == [1]
    assert result["scores"] == [5, 5, 1]


def test_end_ranks_with_ties_shared() -> None:
    result = GAME.result(play(start(4), end(ranks=[1, 2, 2, 4])))
    assert result is not None and result["winners"] == [0]
    result = GAME.result(play(start(4), end(ranks=[1, 1, 3, 3])))
    assert result is not None and result["winners"] == [0, 1]


def test_end_ranks_of_a_team_s_members_are_the_team_s() -> None:
    state = start(4, teams=[[0, 2], [1, 3]])
    result = GAME.result(play(state, end(ranks=[2, 1, 2, 1])))
    assert result is not None and result["winners"] == [1, 3]


@pytest.mark.parametrize(
    ("ranks", "words"),
    [
        ([1, 2], "3 ranks, got 2"),
        ([1, 2, 3, 4], "3 ranks, got 4"),
        ([1, 3, 3], "not standings"),
        ([0, 1, 2], "not standings"),
        ([2, 2, 3], "not standings"),
        ([1, 1, 2], "not standings"),
        ([1, 2, 4], "not standings"),
    ],
)
def test_end_illegal_ranks_that_do_not_fit_say_why(ranks: list[int], words: str) -> None:
    assert words in illegal(start(3), end(ranks=ranks))


def test_end_illegal_ranks_that_split_a_team() -> None:
    state = start(4, teams=[[0, 2], [1, 3]])
    assert "split the team of seats [0, 2]" in illegal(state, end(ranks=[1, 2, 2, 2]))


def test_end_illegal_ranks_of_teams_are_the_teams_standings() -> None:
    # Two teams are ranked 1 and 2, not 1 and 3.
    state = start(4, teams=[[0, 2], [1, 3]])
    assert "not standings of the teams" in illegal(state, end(ranks=[1, 3, 1, 3]))


@pytest.mark.parametrize("ranks", ["1,2,3", [1, "2", 3], [1.0, 2, 3], [1, None, 2], 1])
def test_end_ranks_that_are_not_a_list_of_integers_are_malformed(ranks: Any) -> None:
    assert "ranks" in malformed(start(3), end(ranks=ranks)).details


# The end: winners given -------------------------------------------------------------------------
def test_end_winners_the_others_share_the_next_rank() -> None:
    result = GAME.result(play(start(4), round_of(1, 2, 3, 4), end(winners=[0])))
    assert result == {
        "winners": [0],
        "ranks": [1, 2, 2, 2],
        "scores": [1, 2, 3, 4],
        "outcome": None,
    }


def test_end_winners_tied_the_others_rank_after_them() -> None:
    result = GAME.result(play(start(4), end(winners=[3, 1])))
    assert result is not None
    assert result["ranks"] == [3, 1, 3, 1] and result["winners"] == [1, 3]


def test_end_winners_a_whole_team() -> None:
    result = GAME.result(play(start(4, teams=[[0, 2], [1, 3]]), end(winners=[1, 3])))
    assert result is not None and result["ranks"] == [2, 1, 2, 1]


def test_end_winners_every_seat() -> None:
    result = GAME.result(play(start(2), end(winners=[0, 1])))
    assert result is not None and result["ranks"] == [1, 1]


@pytest.mark.parametrize(
    ("winners", "words"),
    [
        ([3], "seats [3] out of range"),
        ([-1], "seats [-1] out of range"),
        ([0, 0], "more than once"),
    ],
)
def test_end_illegal_winners_that_do_not_fit_say_why(winners: list[int], words: str) -> None:
    assert words in illegal(start(3), end(winners=winners))


def test_end_illegal_winners_that_split_a_team() -> None:
    state = start(4, teams=[[0, 2], [1, 3]])
    assert "split the team of seats [0, 2]" in illegal(state, end(winners=[0]))


@pytest.mark.parametrize("winners", [0, "0", [True], [0.0]])
def test_end_winners_that_are_not_a_list_of_seats_are_malformed(winners: Any) -> None:
    assert "winners" in malformed(start(3), end(winners=winners)).details


def test_end_illegal_both_ranks_and_winners() -> None:
    assert "not both" in illegal(start(3), end(ranks=[1, 2, 3], winners=[0]))


# The end: scoring none --------------------------------------------------------------------------
def test_end_scoring_none_needs_ranks_or_winners() -> None:
    state = start(3, scoring="none")
    assert "ranks or its winners" in illegal(state, end())
    result = GAME.result(play(state, end(winners=[2])))
    assert result == {
        "winners": [2],
        "ranks": [2, 2, 1],
        "scores": [None, None, None],
        "outcome": None,
    }
    result = GAME.result(play(state, end(ranks=[1, 3, 1])))
    assert result is not None and result["winners"] == [0, 2]


# The end: cooperative ---------------------------------------------------------------------------
def test_end_cooperative_won_every_seat_wins_and_is_ranked_1() -> None:
    state = play(start(3, title="Pandemic", cooperative=True), score(0, 3), end(outcome="won"))
    assert GAME.result(state) == {
        "winners": [0, 1, 2],
        "ranks": [1, 1, 1],
        "scores": [3, None, None],
        "outcome": "won",
    }


def test_end_cooperative_lost_no_seat_wins_and_every_seat_is_ranked_1() -> None:
    state = play(start(3, cooperative=True, scoring="none"), end(outcome="lost"))
    assert GAME.result(state) == {
        "winners": [],
        "ranks": [1, 1, 1],
        "scores": [None, None, None],
        "outcome": "lost",
    }


def test_end_illegal_cooperative_without_outcome() -> None:
    assert "needs its outcome" in illegal(start(3, cooperative=True), end())


@pytest.mark.parametrize("fields", [{"ranks": [1, 2, 3]}, {"winners": [0]}])
def test_end_illegal_cooperative_with_ranks_or_winners(fields: dict[str, Any]) -> None:
    state = start(3, cooperative=True)
    assert "takes no ranks or winners" in illegal(state, end(**fields, outcome="won"))
    assert "takes no ranks or winners" in illegal(state, end(**fields))


def test_end_illegal_outcome_in_a_game_that_is_not_cooperative() -> None:
    assert "only a cooperative game" in illegal(start(3), end(outcome="won"))


@pytest.mark.parametrize("outcome", ["win", "WON", True, 1])
def test_end_an_outcome_other_than_won_or_lost_is_malformed(outcome: Any) -> None:
    state = start(3, cooperative=True)
    assert malformed(state, end(outcome=outcome)).details == {"outcome": "'won' or 'lost'"}


def test_end_takes_no_other_field() -> None:
    assert malformed(start(3), end(loser=1)).details == {"loser": "unknown field"}


# The end: no winner ----------------------------------------------------------------------------
def test_end_with_no_winners_is_a_game_nobody_won_and_no_one_is_ranked() -> None:
    state = play(start(3), score(0, 12), end(winners=[]))
    assert state.finished
    assert GAME.result(state) == {
        "winners": [],
        "ranks": None,
        "scores": [12, None, None],
        "outcome": None,
    }


def test_end_with_no_winners_in_a_game_without_points_or_with_teams() -> None:
    for state in (start(3, scoring="none"), start(4, teams=[[0, 2], [1, 3]])):
        result = GAME.result(play(state, end(winners=[])))
        assert result is not None and result["winners"] == [] and result["ranks"] is None


def test_end_with_no_winners_and_ranks_is_refused_as_both() -> None:
    assert "not both" in illegal(start(3), end(ranks=[1, 2, 3], winners=[]))


def test_end_with_no_winners_in_a_cooperative_game_is_refused_it_needs_its_outcome() -> None:
    state = start(3, cooperative=True)
    assert "takes no ranks or winners" in illegal(state, end(winners=[]))


def test_end_with_no_winners_is_said_in_words() -> None:
    assert GAME.describe(end(winners=[]), NAMES[:3]) == "The game ends: no winner"


def test_legal_moves_do_not_list_an_end_with_no_winner() -> None:
    assert GAME.legal_moves(start(2)) == [{"type": "end"}]
    assert GAME.legal_moves(start(2, scoring="none")) == [
        {"type": "end", "winners": [0]},
        {"type": "end", "winners": [1]},
    ]


# Scores never written --------------------------------------------------------------------------
def test_a_score_never_written_is_null_not_zero() -> None:
    state = play(start(4), score(0, 5), score(1, 0), round_of(3, None, None, None), end())
    result = GAME.result(state)
    assert result is not None and result["scores"] == [8, 0, None, None]


def test_a_game_without_points_has_every_score_null() -> None:
    result = GAME.result(play(start(3, scoring="none"), end(ranks=[1, 2, 3])))
    assert result is not None and result["scores"] == [None, None, None]


def test_a_cooperative_game_with_nothing_written_has_every_score_null() -> None:
    state = play(start(2, cooperative=True), round_of(None, None), end(outcome="won"))
    result = GAME.result(state)
    assert result is not None and result["scores"] == [None, None]


def test_state_entered_counts_the_numbers_written_for_each_seat_and_totals_stay_numbers() -> None:
    state = start(3)
    assert GAME.view(state, RECORDER)["entered"] == [0, 0, 0]
    state = play(state, score(0, 0), round_of(2, None, 0), round_of(None, None, 1), score(0, 3))
    shown = GAME.view(state, RECORDER)
    assert shown["entered"] == [3, 0, 2]
    assert shown["totals"] == [5, 0, 1]


def test_end_ranks_by_totals_a_seat_with_no_number_ranks_after_every_seat_with_one() -> None:
    # Highest wins, with negative totals: a seat never written is not a 0 above them.
    state = play(start(4), round_of(-3, None, -7, None), end())
    result = GAME.result(state)
    assert result is not None
    assert result["ranks"] == [1, 3, 2, 3] and result["winners"] == [0]
    # Lowest wins: a seat never written does not win with a 0.
    state = play(start(3, scoring="lowest"), round_of(10, 4, None), end())
    result = GAME.result(state)
    assert result is not None
    assert result["ranks"] == [2, 1, 3] and result["winners"] == [1]


def test_end_ranks_by_totals_a_team_with_no_number_ranks_after_every_team_with_one() -> None:
    state = start(4, scoring="lowest", teams=[[0, 2], [1, 3]])
    result = GAME.result(play(state, score(0, 6), end()))
    assert result is not None and result["ranks"] == [1, 2, 1, 2]


# The state --------------------------------------------------------------------------------------
def test_state_has_every_must_field() -> None:
    state = start(2, title="7 Wonders: Duel", bgg_id=173346)
    shown = GAME.view(state, RECORDER)
    assert {
        name: shown[name]
        for name in ("title", "key", "bgg_id", "scoring", "cooperative", "teams", "totals",
                      "rounds", "finished", "result")
    } == {
        "title": "7 Wonders: Duel", "key": "7-wonders-duel", "bgg_id": 173346,
        "scoring": "highest", "cooperative": False, "teams": None, "totals": [0, 0],
        "rounds": 0, "finished": False, "result": None,
    }  # fmt: skip
    assert GAME.result(state) is None and shown["status"] == "active"


def test_state_once_finished_carries_the_result_the_game_resource_carries() -> None:
    state = play(start(2), score(0, 1), end())
    shown = GAME.view(state, RECORDER)
    assert shown["finished"] is True and shown["status"] == "finished"
    assert shown["result"] == GAME.result(state)


def test_state_teams_are_shown_as_given() -> None:
    shown = GAME.view(start(4, teams=[[3, 0], [1, 2]]), RECORDER)
    assert shown["teams"] == [[3, 0], [1, 2]] and shown["team_totals"] == [0, 0]


def test_state_nothing_is_hidden_every_viewer_sees_everything() -> None:
    state = play(start(3), score(0, 1), round_of(1, None, 2))
    shown = GAME.view(state, RECORDER)
    for viewer in (PUBLIC, seat(0), seat(2)):
        assert GAME.view(state, viewer) == shown
    for event in (score(0, 1), round_of(1, None, 2), end(ranks=[1, 2, 3])):
        assert GAME.event_view(event, PUBLIC) == event


# Legal moves, free types and who acts -----------------------------------------------------------
def test_legal_moves_with_points_one_end() -> None:
    assert GAME.legal_moves(start(3)) == [{"type": "end"}]
    assert GAME.legal_moves(start(3, scoring="lowest")) == [{"type": "end"}]


def test_legal_moves_with_scoring_none_one_end_per_seat_winning() -> None:
    assert GAME.legal_moves(start(3, scoring="none")) == [
        {"type": "end", "winners": [0]},
        {"type": "end", "winners": [1]},
        {"type": "end", "winners": [2]},
    ]


def test_legal_moves_with_scoring_none_and_teams_one_end_per_team_winning() -> None:
    state = start(4, scoring="none", teams=[[0, 2], [1, 3]])
    assert GAME.legal_moves(state) == [
        {"type": "end", "winners": [0, 2]},
        {"type": "end", "winners": [1, 3]},
    ]


def test_legal_moves_of_a_cooperative_game_the_two_outcomes() -> None:
    for scoring in ("highest", "none"):
        assert GAME.legal_moves(start(3, cooperative=True, scoring=scoring)) == [
            {"type": "end", "outcome": "won"},
            {"type": "end", "outcome": "lost"},
        ]


def test_legal_moves_are_each_accepted_and_none_once_finished() -> None:
    for options in ({}, {"scoring": "none"}, {"cooperative": True}, {"teams": [[0], [1, 2]]}):
        state = start(3, **options)
        for move in GAME.legal_moves(state):
            finished = GAME.apply(state, move)
            assert GAME.result(finished) is not None
            assert GAME.legal_moves(finished) == []


def test_legal_free_types_score_and_round_none_with_scoring_none() -> None:
    assert GAME.free_types(start(), RECORDER) == ["score", "round"]
    assert GAME.free_types(start(cooperative=True), RECORDER) == ["score", "round"]
    assert GAME.free_types(start(scoring="none"), RECORDER) == []
    assert GAME.free_types(play(start(), end()), RECORDER) == []


def test_legal_free_types_a_seat_may_score_for_itself_the_public_nothing() -> None:
    assert GAME.free_types(start(), seat(1)) == ["score"]
    assert GAME.free_types(start(), PUBLIC) == []
    assert GAME.free_types(start(scoring="none"), seat(1)) == []


def test_to_act_no_seat_s_decision_is_awaited() -> None:
    state = start(3)
    assert GAME.to_act(state) is None
    assert GAME.to_act(play(state, score(0, 1))) is None
    # So a seat is listed no moves: the ends are the recorder's.
    assert GAME.legal_for(state, seat(0)) == [] and GAME.legal_for(state, PUBLIC) == []
    assert GAME.legal_for(state, RECORDER) == [{"type": "end"}]


def test_other_games_have_no_free_types() -> None:
    from domain import get_game

    mada = get_game("mada")
    assert mada.free_types(mada.new_game(2, 1, mada.options({}, 2)), RECORDER) == []


# Words ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("event", "words"),
    [
        (score(0, 12), "Ana scores 12"),
        (score(1, -3), "Ben scores -3"),
        (score(2, 4.50), "Caro scores 4.5"),
        (score(0, 2.0), "Ana scores 2"),
        (round_of(5, None, 0.125, -1), "Round: Ana 5, Ben —, Caro 0.125, Dan -1"),
        (end(), "The game ends: the totals decide"),
        (end(winners=[0]), "The game ends: Ana wins"),
        (end(winners=[0, 2, 3]), "The game ends: Ana, Caro and Dan win"),
        (end(ranks=[1, 2, 2, 4]), "The game ends: Ana 1st, Ben 2nd, Caro 2nd, Dan 4th"),
        (end(outcome="won"), "The game ends: the table wins"),
        (end(outcome="lost"), "The game ends: the table loses"),
    ],
)
def test_describe_says_the_moves_in_plain_words(event: dict[str, Any], words: str) -> None:
    assert GAME.describe(event, NAMES) == words


def test_describe_a_round_numbered_by_a_caller_that_counts_rounds() -> None:
    from domain.scoresheet.display import describe_round

    assert describe_round(round_of(5, None), NAMES[:2], 3) == "Round 3: Ana 5, Ben —"


def test_describe_a_malformed_move_still_says_something() -> None:
    assert GAME.describe(score(9, "x"), NAMES) == "seat 9 scores x"
    assert GAME.describe({"type": "round"}, NAMES) == "Round"


# Statistics -------------------------------------------------------------------------------------
def test_the_length_of_a_score_sheet_is_its_number_of_rounds() -> None:
    events = [round_of(1, 2, 3), score(0, 1), round_of(1, 2, 3), end()]
    states = []
    state = start()
    for event in events:
        state = GAME.apply(state, event)
        states.append(state)
    assert GAME.stats_counters(events, states) == {"rounds": 2}
    assert GAME.length_counters == ("rounds",)


def test_end_a_field_given_as_null_is_taken_as_left_out() -> None:
    result = GAME.result(play(start(2), score(1, 3), end(ranks=None, winners=None, outcome=None)))
    assert result is not None and result["winners"] == [1]
    assert "needs its outcome" in illegal(start(2, cooperative=True), end(outcome=None))


# Who is rated ----------------------------------------------------------------------------------
def test_a_game_with_no_winner_is_counted_and_not_rated() -> None:
    assert GAME.rating_teams(play(start(3), end(winners=[]))) is None
    assert GAME.rating_teams(play(start(3), end(winners=[0]))) == ((0,), (1,), (2,))


def test_a_cooperative_game_or_a_game_of_one_player_is_not_rated() -> None:
    assert GAME.rating_teams(play(start(3, cooperative=True), end(outcome="won"))) is None
    assert GAME.rating_teams(play(start(1), end())) is None
    assert GAME.rating_teams(play(start(4, teams=[[0, 1], [2, 3]]), end())) == ((0, 1), (2, 3))


# Options: where it was played and a note ---------------------------------------------------------
def test_options_keep_a_location_and_a_comment_when_given() -> None:
    raw = {"title": "Azul", "location": "Ann's", "comment": "Ben's first game\nrematch soon"}
    assert GAME.options(raw, 2) == {**raw, "scoring": "highest", "cooperative": False}
    assert GAME.options({"title": "Azul", "comment": ""}, 2)["comment"] == ""
    assert GAME.options({"title": "Azul", "location": "x" * 200, "comment": "y" * 2000}, 2)


@pytest.mark.parametrize(
    ("field", "value"),
    [("location", ""), ("location", "x" * 201), ("location", 3), ("comment", "y" * 2001),
     ("comment", None)],
)  # fmt: skip
def test_options_refuse_a_location_or_comment_past_its_length(field: str, value: Any) -> None:
    assert field in refused_option(title="Azul", **{field: value}).details


def test_eight_players_have_eight_colours_of_their_own() -> None:
    colours = GAME.seat_colours(8)
    assert len(colours) == 8 and len(set(colours)) == 8
    # A game of rules keeps the colours it had for its seats.
    assert GAME.seat_colours(5) == colours[:5]
