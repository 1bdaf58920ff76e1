"""``Game.apply``, the one template every game's moves go through: the state it is given is never
changed (the service keeps it in its cache, and a replay keeps every state along a record), each
state counts its events, and once the game is over no move follows, said in the game's words."""

from __future__ import annotations

import json
import random

import pytest

from domain import get_game
from domain.errors import GameFinishedError
from domain.scoresheet.demo import demo_options
from tests.domain.test_replay_speed_equivalence import PLAYOUTS, _plain


@pytest.mark.parametrize("name", sorted(PLAYOUTS))
def test_apply_leaves_the_state_it_is_given_as_it_was(name: str) -> None:
    game_name, players, seed, raw_options, limit = PLAYOUTS[name]
    game = get_game(game_name)
    state = game.new_game(players, seed, game.options(raw_options, players))
    rng = random.Random(seed)
    for count in range(1, min(limit, 120) + 1):
        if game.result(state) is not None:
            break
        before = json.dumps(_plain(state), sort_keys=True)
        after = game.apply(state, rng.choice(game.legal_moves(state)))
        assert json.dumps(_plain(state), sort_keys=True) == before
        assert after is not state
        assert (state.version, after.version) == (count - 1, count)
        state = after


@pytest.mark.parametrize(
    ("game_name", "said"),
    [
        ("mada", "the game is over: no move can follow its end"),
        ("sifaka", "the game is over: no move can follow its end"),
        ("madcala", "the game is over: no move can follow its end"),
        ("scoresheet", "the game has ended: nothing more is written on its sheet"),
    ],
)
def test_no_move_follows_the_end(game_name: str, said: str) -> None:
    game = get_game(game_name)
    players = game.min_players if game_name != "scoresheet" else 2
    options = (
        demo_options(players, random.Random(7).randrange) if game_name == "scoresheet" else {}
    )
    state = game.new_game(players, 7, game.options(options, players))
    rng = random.Random(7)
    while game.result(state) is None:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    move = {"type": "end"} if game_name == "scoresheet" else {"type": "anything"}
    with pytest.raises(GameFinishedError) as refused:
        game.apply(state, move)
    assert str(refused.value) == said
