"""The snapshot codec: every state of random games of every registered game comes back equal from
its JSON data, and data that names anything but the game's own values is refused."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import orjson
import pytest

import domain
from domain.errors import InvalidOptionsError
from domain.game import Game
from domain.snapshot_codec import UndecodableState, decode_state, encode_state
from tests.support.games import completed_options, random_move


def chance_modes(game: Game[Any], players: int) -> list[dict[str, Any]]:
    """The creation options of each chance mode the game takes (its defaults at least)."""
    found = [completed_options(game, players)]
    with contextlib.suppress(InvalidOptionsError):
        found.append(completed_options(game, players, chance="observed"))
    return found


def playout(game: Game[Any], seed: int, options: dict[str, Any], players: int) -> list[Any]:
    """The states of one random game, the start first (at most 300 moves)."""
    chooser = random.Random(seed)
    state = game.new_game(players, seed, options)
    states = [state]
    while game.result(state) is None and len(states) <= 300:
        move = random_move(game, state, players, chooser)
        if move is None:
            break
        state = game.apply(state, move)
        states.append(state)
    return states


@pytest.mark.parametrize("name", domain.game_names())
def test_every_state_of_random_games_decodes_to_itself(name: str) -> None:
    game = domain.get_game(name)
    for seed in (1, 2):
        players = random.Random(seed).randint(game.min_players, game.max_players)
        for options in chance_modes(game, players):
            states = playout(game, seed, options, players)
            assert len(states) > 1
            start = states[0]
            for state in states:
                # Through bytes, as the store keeps it; with and without the start's fields.
                data = orjson.loads(orjson.dumps(encode_state(game, state, start)))
                assert decode_state(game, data, start) == state
                whole = orjson.loads(orjson.dumps(encode_state(game, state)))
                assert decode_state(game, whole) == state


def test_the_fields_the_header_made_are_written_as_references_to_the_start() -> None:
    game = domain.get_game("madcala")
    states = playout(game, 3, game.options({}, 2), 2)
    data = encode_state(game, states[-1], states[0])
    assert data["fields"]["catalog"] == {"$start": "catalog"}
    assert decode_state(game, data, states[0]).catalog is states[0].catalog


@pytest.mark.parametrize(
    "data",
    [
        "garbage",
        {"$class": "builtins:eval", "fields": {}},
        {"$class": "os:system", "fields": {}},
        {"$fn": "subprocess:run"},
        # Another game's class: only the game's own package and the shared values are named.
        {"$class": "domain.mada.state:Pending", "fields": {"kind": "deal", "player": 0}},
        {"$class": "domain.madcala.state:Space", "fields": {"nope": 1}},
        {"$class": "domain.madcala.state:Space"},
        {"$start": "catalog"},
        {"no": "tag"},
        {"$dict": [[1]]},
    ],
)
def test_data_naming_anything_else_is_refused(data: Any) -> None:
    game = domain.get_game("madcala")
    start = game.new_game(2, 1, game.options({}, 2))
    with pytest.raises(UndecodableState):
        decode_state(game, data, start)


@pytest.mark.parametrize("name", domain.game_names())
@pytest.mark.parametrize("wrong", ["7", {"$float": "nan"}, {"$float": "inf"}, 1.5, None, True])
def test_a_field_that_is_not_of_its_declared_type_is_refused(name: str, wrong: Any) -> None:
    """A string or a NaN where the state's class declares an integer: not a state of the game."""
    game = domain.get_game(name)
    start = game.new_game(game.min_players, 3, completed_options(game, game.min_players))
    data = orjson.loads(orjson.dumps(encode_state(game, start)))
    fields = data["fields"]
    field = next(key for key, value in fields.items() if type(value) is int)
    assert decode_state(game, data) == start
    fields[field] = wrong
    with pytest.raises(UndecodableState, match=field):
        decode_state(game, data)
