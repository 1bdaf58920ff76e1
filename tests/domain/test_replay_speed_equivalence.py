"""The reducers' faster forms (issue #23) give the very states the plain code gave.

tests/golden checks each game's last state as the recorder sees it, for a few games. Here every
state along random playouts of each game, in both chance modes and at several player counts, is
compared whole (the generator, the order of the draw piles, everything the state holds) with a
digest taken from the code before the speed-ups. A change of rules that alters these digests must
bump ``rules_version`` (spec/determinism.md); regenerate them with
``python -m tests.domain.test_replay_speed_equivalence``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from domain import get_game
from domain.mada.state import with_changes as mada_with_changes
from domain.madcala.state import with_changes as madcala_with_changes
from domain.sifaka.state import with_changes as sifaka_with_changes

# name: (game, players, seed, options, events at most); each is played by random.Random(seed)
# over its legal moves, until it ends or has had that many events.
PLAYOUTS: dict[str, tuple[str, int, int, dict[str, Any], int]] = {
    "mada-seeded-2p": ("mada", 2, 101, {}, 400),
    "mada-seeded-4p": ("mada", 4, 102, {"first_player": 3}, 400),
    "mada-observed-3p": ("mada", 3, 103, {"chance": "observed"}, 400),
    "mada-observed-5p": ("mada", 5, 104, {"chance": "observed"}, 400),
    "mada-endless-4p": (
        "mada",
        4,
        105,
        {
            "catalog": {
                "cactus": [
                    {"value": 1, "count": 1, "pears": 1},
                    {"value": 7, "count": 20, "pears": 4},
                ],
                "lemur": 4,
                "double_lemur": 3,
                "scorpion": 3,
            }
        },
        400,
    ),
    "madcala-seeded": ("madcala", 2, 201, {}, 400),
    "madcala-hatter": ("madcala", 2, 202, {"guests": ["hatter", "cheshire_cat"]}, 400),
    "madcala-observed": ("madcala", 2, 203, {"chance": "observed", "health": 6}, 400),
    "sifaka-seeded-2p": ("sifaka", 2, 301, {}, 400),
    "sifaka-seeded-4p": ("sifaka", 4, 302, {"first_player": 2}, 400),
    "sifaka-observed-3p": ("sifaka", 3, 303, {"chance": "observed"}, 400),
    "sifaka-observed-4p": ("sifaka", 4, 304, {"chance": "observed"}, 400),
}

# Per playout: how many events it had, and the SHA-256 of every state along it (the start
# included), each written out by ``_plain``; taken from the code before the speed-ups.
DIGESTS: dict[str, tuple[int, str]] = {
    "mada-seeded-2p": (94, "44c20b3944a5c7ae25e34faf7938bdbd5885b55df171caf8898a76c414cc11e9"),
    "mada-seeded-4p": (61, "14bd0d5f7c1208ed5ee349695f1f75b3a872deb8d3e197b49b4ca6b7e4a3dcbb"),
    "mada-observed-3p": (70, "dd8bd967e36646a8b3ab8c8c1a90e428cf683bc461e25ff5638e21e1a3a7c3c1"),
    "mada-observed-5p": (103, "3dcc8389cf1b31ad7ba3095e47a897b490d642a34681fee89188049ed4ed3686"),
    "mada-endless-4p": (400, "71bf43d86f2fafc7f569c3ac4c41c8904328da3462875f2d364f8e1e0e824e2c"),
    "madcala-seeded": (400, "5db5b15953946e8e7b6ea6aafa167b91818d1e4298535938bb7f29c12bbe9002"),
    "madcala-hatter": (400, "2919b39b16d02257e2ccabae5a10b0cd8fe1c411c1608afd7f8f471be8050428"),
    "madcala-observed": (58, "c1d91731a3444f1ae5b7036247ce676879a26f12c5084089cd4d2a352ef63204"),
    "sifaka-seeded-2p": (96, "0c0859b3a6399a82f842ae810f2026e091f0f2c4341d1eaa624d57a52aca0c1b"),
    "sifaka-seeded-4p": (96, "d9e66b6d54be2ea335ad404304e1bb4311bdf10cfc24889bd1085edb50d92d89"),
    "sifaka-observed-3p": (99, "a7ba6074962157fcf8f95960604e37e51448b8c7526d20691471fae7f8946022"),
    "sifaka-observed-4p": (100, "83416fc1381ba5ea04138121db5233354b8c02f3be4ea8a6dba722d35f95256f"),
}


def _plain(value: Any) -> Any:
    """A state as plain JSON data, whole: each dataclass by its class and every field."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {
            field.name: _plain(getattr(value, field.name)) for field in dataclasses.fields(value)
        }
        return {"$class": type(value).__qualname__, **fields}
    if isinstance(value, tuple | list):
        return [type(value).__name__, [_plain(item) for item in value]]
    if isinstance(value, dict):
        return {"$dict": [[_plain(key), _plain(item)] for key, item in value.items()]}
    if isinstance(value, frozenset):
        return {"$frozenset": sorted(json.dumps(_plain(item)) for item in value)}
    if callable(value):
        return {"$fn": f"{value.__module__}:{value.__qualname__}"}
    assert value is None or isinstance(value, bool | int | str), value
    return value


def _states(name: str) -> Iterator[Any]:
    """The states of playout ``name``, from the start to its last event."""
    game_name, players, seed, raw_options, limit = PLAYOUTS[name]
    game = get_game(game_name)
    state = game.new_game(players, seed, game.options(raw_options, players))
    yield state
    rng = random.Random(seed)
    for _ in range(limit):
        if game.result(state) is not None:
            return
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        yield state


def digest(name: str) -> tuple[int, str]:
    hasher = hashlib.sha256()
    count = -1
    for state in _states(name):
        hasher.update(json.dumps(_plain(state), sort_keys=True).encode())
        hasher.update(b"\n")
        count += 1
    return count, hasher.hexdigest()


def test_every_game_is_played_out() -> None:
    assert {PLAYOUTS[name][0] for name in PLAYOUTS} == {"mada", "madcala", "sifaka"}
    assert sorted(DIGESTS) == sorted(PLAYOUTS)


@pytest.mark.parametrize("name", sorted(PLAYOUTS))
def test_every_state_of_a_playout_is_the_plain_codes(name: str) -> None:
    assert digest(name) == DIGESTS[name]


@pytest.mark.parametrize(
    ("game_name", "with_changes"),
    [
        ("mada", mada_with_changes),
        ("madcala", madcala_with_changes),
        ("sifaka", sifaka_with_changes),
    ],
)
def test_with_changes_is_dataclasses_replace(game_name: str, with_changes: Any) -> None:
    """Each field changed alone, and all at once, to another state's value: the same state as
    ``dataclasses.replace`` makes, sharing the unchanged fields' values as it does."""
    name = next(name for name in sorted(PLAYOUTS) if PLAYOUTS[name][0] == game_name)
    states = list(_states(name))
    early, late = states[1], states[-1]
    names = [field.name for field in dataclasses.fields(early)]
    for field in names:
        changed = {field: getattr(late, field)}
        fast, plain = with_changes(early, **changed), dataclasses.replace(early, **changed)
        assert type(fast) is type(plain)
        assert fast == plain
        assert all(getattr(fast, other) is getattr(plain, other) for other in names)
    everything = {field: getattr(late, field) for field in names}
    assert with_changes(early, **everything) == late
    assert with_changes(early) == early and with_changes(early) is not early
    with pytest.raises(AttributeError):
        with_changes(early, no_such_field=1)


if __name__ == "__main__":
    for name in PLAYOUTS:
        print(f"    {name!r}: {digest(name)!r},")
