"""The shapes of a score sheet's JSON (``domain.shapes``): its events, its state (the same for
every viewer) and its creation options. What the rules check beyond a shape (a total within
10^12, ranks that are standings, a team not split) is said in the descriptions.

JSON Schema cannot say "at most 3 decimals" of a number exactly for every tool (``multipleOf``
0.001 fails on binary floats in some), so a number's schema bounds it and says the rest.
"""

from __future__ import annotations

from typing import Any, Final

from domain.scoresheet.numbers import LIMIT, WHAT
from domain.scoresheet.options import TEAM_NAME_LENGTHS, TEXT_LENGTHS
from domain.scoresheet.state import OUTCOMES, SCORINGS
from domain.scoresheet.titles import TITLE_MAX
from domain.shapes import (
    Schema,
    array,
    boolean,
    described,
    event,
    integer,
    nullable,
    obj,
    one_of_values,
    string,
)

MAX_PLAYERS: Final = 20
SEAT: Final = integer(0, MAX_PLAYERS - 1)
SEATS: Final = array(SEAT)
NUMBER: Final = {"type": "number", "minimum": -LIMIT, "maximum": LIMIT, "description": WHAT}
TOTAL: Final = described({"type": "number"}, "exact, in shortest form (2, not 2.0)")
RANK: Final = integer(1, MAX_PLAYERS)


def per_seat(items: Schema) -> Schema:
    return array(items, 1, MAX_PLAYERS)


EVENT_SCHEMAS: Final[dict[str, Schema]] = {
    "score": event("score", {"player": SEAT, "points": NUMBER}),
    "round": event(
        "round",
        {"points": described(per_seat(nullable(NUMBER)), "one per seat; null for no points")},
    ),
    "end": event(
        "end",
        {},
        {
            "ranks": described(
                nullable(per_seat(RANK)), "one per seat, 1 best, ties shared (1, 2, 2, 4)"
            ),
            "winners": described(
                nullable(array(SEAT, 0, MAX_PLAYERS)),
                "seats; the others share the next rank; [] for a game that ended with no winner",
            ),
            "outcome": described(nullable(one_of_values(OUTCOMES)), "a cooperative game's"),
        },
    ),
}

TEAMS: Final = described(
    array(array(SEAT, 1), 2, MAX_PLAYERS),
    "each team a list of seats; every seat in exactly one team",
)
TEAM_NAME: Final = string(minLength=TEAM_NAME_LENGTHS[0], maxLength=TEAM_NAME_LENGTHS[1])
RESULT: Final = obj(
    {
        "winners": SEATS,
        "ranks": described(nullable(per_seat(RANK)), "null in a game that ended with no winner"),
        "scores": described(
            per_seat(nullable(TOTAL)), "each seat's total; null where no number was ever written"
        ),
        "outcome": nullable(one_of_values(OUTCOMES)),
    }
)

STATE_SCHEMA: Final = obj(
    {
        "version": integer(0, description="the moves it follows"),
        "status": one_of_values(["active", "finished"]),
        "players": integer(1, MAX_PLAYERS),
        "title": string(minLength=1, maxLength=TITLE_MAX),
        "key": string(pattern="^[a-z0-9]+(-[a-z0-9]+)*$"),
        "bgg_id": nullable(integer(1)),
        "scoring": one_of_values(SCORINGS),
        "cooperative": boolean(),
        "teams": nullable(TEAMS),
        "totals": described(per_seat(TOTAL), "each seat's own points"),
        "entered": described(
            per_seat(integer(0)), "each seat's count of numbers written for it (0: none, not a 0)"
        ),
        "team_names": described(
            nullable(array(TEAM_NAME, 2)),
            'each team\'s name ("Team 1"... unless named); null without teams',
        ),
        "team_totals": described(nullable(array(TOTAL, 2)), "each team's; null without teams"),
        "rounds": integer(0, description="the round events standing"),
        "finished": boolean(),
        "result": described(nullable(RESULT), "null until the end"),
    }
)


def options_schema(players: int) -> Schema:
    seat = integer(0, players - 1)
    options: dict[str, Any] = {
        "bgg_id": described(integer(1), "the game's BoardGameGeek id"),
        "scoring": described(
            one_of_values(SCORINGS),
            "highest (default): the highest total wins; lowest; none: the end says who won",
        ),
        "cooperative": described(boolean(), "the table wins or loses together (default false)"),
        "teams": described(
            array(array(seat, 1), 2, players),
            "each team a list of seats; every seat in exactly one team",
        ),
        "team_names": described(
            array(TEAM_NAME, 2, players), 'with teams: one name per team, distinct ("Red", "Blue")'
        ),
        "location": string(
            minLength=TEXT_LENGTHS["location"][0],
            maxLength=TEXT_LENGTHS["location"][1],
            description="where it was played",
        ),
        "comment": string(maxLength=TEXT_LENGTHS["comment"][1], description="a note on the game"),
    }
    title = string(
        minLength=1,
        maxLength=TITLE_MAX,
        description="the game played: not blank, no control characters",
    )
    return obj({"title": title}, options)
