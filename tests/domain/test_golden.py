"""Whole games stored as files (tests/golden/<game>-*.json) and replayed, for every game.

Each file is an export (``game, players, seed, options, rules_version, events``) plus ``expected``:
the full state and result after the last event. A change of rules that replays one of them
differently must bump ``rules_version`` (spec/determinism.md) and regenerate the files:
``python -m tests.domain.test_golden``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from domain import get_game
from domain.viewers import RECORDER

GOLDEN = Path(__file__).resolve().parent.parent / "golden"

# name: (player names, seed, options); the game is the name's first word, and each game is played
# by random.Random(seed) over its legal moves.
RECORDS: dict[str, tuple[list[str], int, dict[str, Any]]] = {
    "mada-seeded-3p": (["Ana", "Ben", "Caro"], 2026, {"first_player": 1}),
    "mada-observed-2p": (["Ana", "Ben"], 42, {"chance": "observed"}),
    "mada-seeded-5p": (["Ana", "Ben", "Caro", "Dan", "Eli"], 7, {}),
    "madcala-seeded": (["Ana", "Ben"], 2026, {"health": 7, "guests": ["cheshire_cat", "hatter"]}),
    "madcala-observed": (["Ana", "Ben"], 42, {"chance": "observed", "health": 6}),
    "sifaka-seeded-3p": (["Ana", "Ben", "Caro"], 2026, {"first_player": 1}),
    "sifaka-observed-2p": (["Ana", "Ben"], 42, {"chance": "observed", "facing": ["E", "W"]}),
    "sifaka-seeded-4p": (["Ana", "Ben", "Caro", "Dan"], 7, {}),
}


def record(name: str, players: list[str], seed: int, raw_options: dict[str, Any]) -> dict[str, Any]:
    game = get_game(name.split("-")[0])
    options = game.options(raw_options, len(players))
    state = game.new_game(len(players), seed, options)
    rng = random.Random(seed)
    events = []
    while game.result(state) is None:
        event = rng.choice(game.legal_moves(state))
        state = game.apply(state, event)
        events.append(event)
    return {
        "game": game.name,
        "players": players,
        "seed": seed,
        "options": options,
        "rules_version": game.rules_version,
        "events": events,
        "expected": {"state": game.view(state, RECORDER), "result": game.result(state)},
    }


def test_every_record_has_its_golden_file() -> None:
    assert sorted(path.stem for path in GOLDEN.glob("*.json")) == sorted(RECORDS)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_golden_game_replays_to_its_recorded_end(name: str) -> None:
    stored = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    game = get_game(stored["game"])
    assert stored["rules_version"] == game.rules_version
    players = len(stored["players"])
    state = game.replay(players, stored["seed"], stored["options"], stored["events"])
    assert game.view(state, RECORDER) == stored["expected"]["state"]
    assert game.result(state) == stored["expected"]["result"]


if __name__ == "__main__":
    for name, (players, seed, options) in RECORDS.items():
        text = json.dumps(record(name, players, seed, options), indent=1)
        (GOLDEN / f"{name}.json").write_text(text + "\n", encoding="utf-8")
