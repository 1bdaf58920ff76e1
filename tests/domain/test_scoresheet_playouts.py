"""Random score sheets played to the end, with the game's invariants checked after every move.

Hypothesis draws the table (players, scoring, cooperative, teams), the moves (``score`` and
``round`` with exact decimals, retractions among them) and how the game ends. After every event:
each total is the exact sum of the standing points (summed here with ``decimal.Decimal``,
independently of the game's thousandths); each seat's ``entered`` counts the numbers written for
it; ``rounds`` counts the standing rounds; a replay of the
standing moves from the start equals the live state (``domain.corrections.Fold``: a retraction
leaves the state as if its move had never been made); every view is JSON of the declared shape,
the same for every viewer. At the end: a seat with nothing written has a null score; ranks are
standings (none in a game ended with no winner), and where the totals made them, a better total
always ranks better, equal totals share a rank and a unit with nothing written ranks after every
unit with a number; a retraction of the end reopens
the game.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import jsonschema_rs
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.corrections import Fold, fold, standing_moves
from domain.scoresheet import SCORESHEET, ScoresheetState
from domain.snapshot_codec import decode_state, encode_state
from domain.viewers import PUBLIC, RECORDER, seat

GAME = SCORESHEET
STATE = jsonschema_rs.validator_for(dict(GAME.state_schema))
EVENTS = {
    kind: jsonschema_rs.validator_for(dict(schema)) for kind, schema in GAME.event_schemas.items()
}
RETRACT = {"type": "retract"}


def options_validator(players: int) -> Any:
    return jsonschema_rs.validator_for(dict(GAME.options_schema(players)))


def number_strategy() -> st.SearchStrategy[Any]:
    """A JSON number as a parsed body brings it: an int, or a float of at most 3 decimals."""
    small = st.decimals(min_value=-1000, max_value=1000, places=3)
    large = st.decimals(min_value=-(10**9), max_value=10**9, places=3)
    # Integral floats too (2.0), which are written as integers.
    whole = st.integers(-(10**6), 10**6).map(float)
    return st.one_of(st.integers(-50, 50), small.map(_as_json), large.map(_as_json), whole)


def _as_json(value: int | Decimal) -> Any:
    if isinstance(value, int):
        return value
    return int(value) if value == value.to_integral_value() else float(value)


@st.composite
def tables(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    players = draw(st.integers(1, 8))
    options: dict[str, Any] = {"title": draw(st.sampled_from(["Carcassonne", "Café", "7 Wonders"]))}
    options["scoring"] = draw(st.sampled_from(["highest", "lowest", "none"]))
    options["cooperative"] = draw(st.booleans())
    if players >= 2 and draw(st.booleans()):
        count = draw(st.integers(2, players))
        labels = draw(st.permutations([*range(count), *draw(
            st.lists(st.integers(0, count - 1), min_size=players - count, max_size=players - count)
        )]))  # fmt: skip
        options["teams"] = [
            [s for s in range(players) if labels[s] == team] for team in range(count)
        ]
    return players, options


@st.composite
def moves(draw: st.DrawFn, players: int, has_points: bool) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(0, 14))):
        kind = draw(st.sampled_from(["score", "round", "retract"] if has_points else ["retract"]))
        if kind == "score":
            events.append({"type": "score", "player": draw(st.integers(0, players - 1)),
                           "points": draw(number_strategy())})  # fmt: skip
        elif kind == "round":
            row = draw(st.lists(st.one_of(st.none(), number_strategy()),
                                min_size=players, max_size=players))  # fmt: skip
            events.append({"type": "round", "points": row})
        else:
            events.append(RETRACT)
    return events


def ending(draw: st.DrawFn, state: ScoresheetState) -> dict[str, Any]:
    """An end the rules accept for this table: derived, ranks, winners or an outcome."""
    if state.cooperative:
        return {"type": "end", "outcome": draw(st.sampled_from(["won", "lost"]))}
    units = state.units()
    ways = ["ranks", "winners", "no winner"] + (["totals"] if state.has_points else [])
    way = draw(st.sampled_from(ways))
    if way == "totals":
        return {"type": "end"}
    if way == "no winner":
        return {"type": "end", "winners": []}
    if way == "winners":
        won = draw(st.lists(st.sampled_from(range(len(units))), min_size=1, unique=True))
        return {"type": "end", "winners": sorted(s for index in won for s in units[index])}
    # Standings from random scores of the units.
    values = draw(st.lists(st.integers(0, 3), min_size=len(units), max_size=len(units)))
    unit_ranks = [1 + sum(other > value for other in values) for value in values]
    ranks = [0] * state.players
    for unit, rank in zip(units, unit_ranks, strict=True):
        for s in unit:
            ranks[s] = rank
    return {"type": "end", "ranks": ranks}


def is_standing(ranks: list[int]) -> bool:
    """Competition ranks, written out here apart from the game's: sorted, each rank is one more
    than its position's count of strictly better ones (1, 2, 2, 4)."""
    ordered = sorted(ranks)
    return all(rank == ordered.index(rank) + 1 for rank in ordered)


def numbers_written(players: int, standing: list[Any]) -> list[int]:
    """Each seat's count of the numbers written for it: its scores, and its non-null points in
    the rounds."""
    written = [0] * players
    for event in standing:
        if event["type"] == "score":
            written[event["player"]] += 1
        elif event["type"] == "round":
            for s, points in enumerate(event["points"]):
                written[s] += points is not None
    return written


def exact_totals(players: int, standing: list[Any]) -> list[Decimal]:
    totals = [Decimal(0)] * players
    for event in standing:
        if event["type"] == "score":
            totals[event["player"]] += Decimal(repr(event["points"]))
        elif event["type"] == "round":
            for s, points in enumerate(event["points"]):
                if points is not None:
                    totals[s] += Decimal(repr(points))
    return totals


def check_invariants(folded: Fold[ScoresheetState], record: list[dict[str, Any]], players: int,
                     seed: int, options: dict[str, Any]) -> None:  # fmt: skip
    state = folded.state
    # A snapshot of the state decodes to the state.
    start = folded.states[0]
    assert decode_state(GAME, encode_state(GAME, state, start), start) == state
    standing = standing_moves(record)
    assert list(folded.moves) == standing
    # The state as if the voided moves had never been made.
    assert GAME.replay(players, seed, options, standing) == state
    assert state.version == len(standing)
    shown = GAME.view(state, RECORDER)
    assert json.loads(json.dumps(shown)) == shown
    errors = [str(error) for error in STATE.iter_errors(shown)]
    assert not errors, errors
    for viewer in (PUBLIC, seat(0), seat(players - 1)):
        assert GAME.view(state, viewer) == shown
    exact = exact_totals(players, standing)
    assert [Decimal(repr(total)) for total in shown["totals"]] == exact
    # Shortest form: an int when integral, else a decimal without trailing zeros.
    for total, value in zip(shown["totals"], exact, strict=True):
        assert isinstance(total, int) == (value == value.to_integral_value())
        assert json.dumps(total) == (str(int(value)) if isinstance(total, int)
                                     else format(value.normalize(), "f"))  # fmt: skip
    if state.teams is not None:
        assert [Decimal(repr(t)) for t in shown["team_totals"]] == [
            sum((exact[s] for s in team), Decimal(0)) for team in state.teams
        ]
    assert shown["rounds"] == sum(event["type"] == "round" for event in standing)
    assert shown["entered"] == numbers_written(players, standing)
    if shown["result"] is not None:
        for s, count in enumerate(shown["entered"]):
            assert (shown["result"]["scores"][s] is None) == (count == 0)
    for event in standing:
        assert EVENTS[event["type"]].is_valid(event), event


def check_result(
    state: ScoresheetState, end: dict[str, Any], exact: list[Decimal], written: list[int]
) -> None:
    result = GAME.result(state)
    assert result is not None and GAME.view(state, RECORDER)["result"] == result
    assert [
        None if score is None else Decimal(repr(score)) for score in result["scores"]
    ] == [total if count else None for total, count in zip(exact, written, strict=True)]
    ranks, winners = result["ranks"], result["winners"]
    if end.get("winners") == []:
        # Ended with no winner: nobody wins, no one is ranked.
        assert winners == [] and ranks is None and result["outcome"] is None
        return
    assert len(ranks) == state.players
    assert winners == [s for s in range(state.players) if ranks[s] == 1] or state.cooperative
    units = state.units()
    for unit in units:
        assert len({ranks[s] for s in unit}) == 1
    unit_ranks = [ranks[unit[0]] for unit in units]
    assert is_standing(unit_ranks)
    if state.cooperative:
        assert ranks == [1] * state.players and result["outcome"] == end["outcome"]
        assert winners == (list(range(state.players)) if end["outcome"] == "won" else [])
        return
    assert result["outcome"] is None
    if "ranks" in end:
        assert ranks == end["ranks"]
    elif "winners" in end:
        assert winners == end["winners"]
        assert len({rank for rank in ranks if rank != 1}) <= 1
    else:
        sign = 1 if state.scoring == "highest" else -1
        # A unit with nothing written for any seat has no value: it ranks after every number.
        values = [
            sign * sum((exact[s] for s in unit), Decimal(0))
            if any(written[s] for s in unit) else None
            for unit in units
        ]  # fmt: skip
        for a, va in zip(unit_ranks, values, strict=True):
            for b, vb in zip(unit_ranks, values, strict=True):
                better = va is not None and (vb is None or va > vb)
                assert (a < b) == better


@settings(max_examples=300, deadline=None)
@given(table=tables(), seed=st.integers(0, 2**64 - 1), data=st.data())
def test_random_score_sheets_keep_exact_totals_replay_and_end_with_standings(
    table: tuple[int, dict[str, Any]], seed: int, data: st.DataObject
) -> None:
    players, raw = table
    options = GAME.options(raw, players)
    assert options_validator(players).is_valid(raw) and options_validator(players).is_valid(options)
    assert GAME.options(options, players) == options
    start = GAME.new_game(players, seed, options)
    folded = fold(GAME, start, [])
    record: list[dict[str, Any]] = []
    for event in data.draw(moves(players, start.has_points)):
        if event is RETRACT and not folded.moves:
            continue
        folded.add(event)
        record.append(event)
        check_invariants(folded, record, players, seed, options)
    end = ending(data.draw, folded.state)
    folded.add(end)
    record.append(end)
    check_invariants(folded, record, players, seed, options)
    finished = folded.state
    standing = standing_moves(record)
    check_result(
        finished, end, exact_totals(players, standing), numbers_written(players, standing)
    )
    assert GAME.legal_moves(finished) == [] and GAME.free_types(finished, RECORDER) == []
    assert GAME.to_act(finished) is None
    # A retraction of the end reopens the game as it stood before it.
    folded.add(RETRACT)
    record.append(RETRACT)
    check_invariants(folded, record, players, seed, options)
    assert (
        GAME.result(folded.state) is None and folded.state == fold(GAME, start, record[:-2]).state
    )
    assert GAME.legal_moves(folded.state) != []


@settings(max_examples=100, deadline=None)
@given(table=tables(), data=st.data())
def test_every_listed_move_is_accepted_and_ends_the_game(
    table: tuple[int, dict[str, Any]], data: st.DataObject
) -> None:
    players, raw = table
    state = GAME.new_game(players, 0, GAME.options(raw, players))
    for event in data.draw(moves(players, state.has_points)):
        if event is not RETRACT:
            state = GAME.apply(state, event)
    for move in GAME.legal_moves(state):
        assert EVENTS["end"].is_valid(move)
        assert GAME.result(GAME.apply(state, move)) is not None
    free = GAME.free_types(state, RECORDER)
    assert free == (["score", "round"] if state.has_points else [])
