"""Each game's declared shapes (``event_schemas``, ``state_schema``, ``options_schema``) hold for
what the game produces and takes: every legal move, every event as each viewer reads it, every
view of every viewer along random games (seeded and observed), and the options as completed.

The API's OpenAPI document is built from these shapes, so a client generated from it reads every
answer. Random games are the same on every run (fixed seeds).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import jsonschema_rs
import pytest

from domain import game_names, get_game
from domain.errors import InvalidOptionsError
from domain.game import Game
from domain.mada.catalog import DEFAULT_CATALOG as MADA_CATALOG
from domain.madcala.catalog import DEFAULT_CATALOG as MADCALA_CATALOG
from domain.sifaka.catalog import DEFAULT_CATALOG as SIFAKA_CATALOG
from domain.viewers import PUBLIC, RECORDER, Viewer, seat
from tests.support.games import options_of

# (game, players, options, most moves): small Madcala health, so that random duels end.
GAMES = [
    ("mada", 2, {}, 400),
    ("mada", 5, {"chance": "observed", "first_player": 4}, 400),
    ("madcala", 2, {"health": 3}, 400),
    ("madcala", 2, {"health": 4, "chance": "observed", "guests": ["jabberwock", "alice"]}, 400),
    ("sifaka", 2, {"chance": "observed"}, 400),
    ("sifaka", 4, {"first_player": 3}, 400),
    ("scoresheet", 4, {"title": "Azul"}, 60),
    ("scoresheet", 4, {"title": "Codenames", "teams": [[0, 2], [1, 3]], "scoring": "none"}, 10),
]

CATALOGS = {"mada": MADA_CATALOG, "madcala": MADCALA_CATALOG, "sifaka": SIFAKA_CATALOG}


def validator(schema: Mapping[str, Any]) -> jsonschema_rs.Validator:
    return jsonschema_rs.validator_for(dict(schema))


def assert_valid(schema: Mapping[str, Any], value: Any, what: str) -> None:
    errors = [str(error) for error in validator(schema).iter_errors(value)]
    assert not errors, f"{what}: {errors[:3]}\n{value}"


def viewers(players: int) -> Iterator[Viewer]:
    yield RECORDER
    yield PUBLIC
    yield from (seat(index) for index in range(players))


def playout(game: Game[Any], players: int, options: dict[str, Any], limit: int) -> Iterator[Any]:
    """The states of one random game, and the event that led to each (None for the first)."""
    chooser = random.Random(players)
    state = game.new_game(players, 7, game.options(options, players))
    yield None, state
    for _ in range(limit):
        moves = game.legal_moves(state)
        free = game.free_types(state, RECORDER)
        if free and chooser.random() < 0.9:
            moves = [game.free_move(state, chooser.choice(free), chooser.randrange)]
        if not moves:
            return
        event = chooser.choice(moves)
        state = game.apply(state, event)
        yield event, state


@pytest.mark.parametrize(("name", "players", "options", "limit"), GAMES)
def test_every_move_event_and_view_of_a_random_game_has_its_shape(
    name: str, players: int, options: dict[str, Any], limit: int
) -> None:
    game = get_game(name)
    state_schema = validator(game.state_schema)
    events = {kind: validator(schema) for kind, schema in game.event_schemas.items()}
    finished = False
    for event, state in playout(game, players, options, limit):
        for viewer in viewers(players):
            shown = game.view(state, viewer)
            if not state_schema.is_valid(shown):
                assert_valid(game.state_schema, shown, f"{name}'s view for {viewer}")
            for move in game.legal_for(state, viewer):
                if not events[move["type"]].is_valid(move):
                    assert_valid(game.event_schemas[move["type"]], move, f"a legal {name} move")
            if event is not None:
                read = game.event_view(event, viewer)
                hidden = read.pop("hidden", [])
                assert set(hidden) <= set(game.private_event_fields.get(event["type"], ()))
                # What a viewer reads of an event is the event less its hidden fields.
                assert read == {k: v for k, v in event.items() if k not in hidden}
        if event is not None:
            assert events[event["type"]].is_valid(event), event
        finished = game.result(state) is not None
    assert finished, f"the random game of {name} did not end in {limit} moves"


@pytest.mark.parametrize("name", game_names())
def test_the_options_as_completed_have_the_shape_of_the_options(name: str) -> None:
    game = get_game(name)
    for players in range(game.min_players, game.max_players + 1):
        schema = game.options_schema(players)
        # The shipped games take a catalog and observed chance; the suite's Tally takes neither.
        more = ({"catalog": CATALOGS[name]}, {"chance": "observed"}) if name in CATALOGS else ()
        for extra in ({}, *more):
            given = options_of(name, **extra)
            assert_valid(schema, given, f"{name}'s options {given}")
            assert_valid(schema, game.options(given, players), f"{name}'s completed options")


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("mada", {"first_player": 2}),
        ("mada", {"chance": "at random"}),
        ("mada", {"catalog": {**MADA_CATALOG, "lemur": 21}}),
        ("madcala", {"guests": ["alice", "alice"]}),
        ("madcala", {"guests": ["alice", "nobody"]}),
        ("madcala", {"layout": ["heal"] * 5}),
        ("madcala", {"health": 0}),
        ("sifaka", {"facing": ["N"]}),
        ("sifaka", {"catalog": {"cards": [{"id": 1, "boxes": ["palms:4"] * 4}]}}),
        ("sifaka", {"first_player": 2}),
    ],
)
def test_options_the_game_refuses_are_outside_the_shape(name: str, options: Any) -> None:
    game = get_game(name)
    assert not validator(game.options_schema(2)).is_valid(options)
    with pytest.raises(InvalidOptionsError):
        game.options(options, 2)


@pytest.mark.parametrize("name", game_names())
def test_every_event_type_has_a_shape_and_its_fields_a_description(name: str) -> None:
    game = get_game(name)
    assert set(game.event_schemas) == set(game.event_fields)
    for kind, schema in game.event_schemas.items():
        variants = schema.get("oneOf", [schema])
        fields = {field for variant in variants for field in variant["properties"]}
        assert fields - {"type"} == set(game.event_fields[kind]), kind
        for variant in variants:
            assert variant["properties"]["type"] == {"type": "string", "enum": [kind]}
            assert variant["additionalProperties"] is False
        assert set(game.private_event_fields.get(kind, ())) <= fields
