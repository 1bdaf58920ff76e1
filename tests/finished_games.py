"""Finished games of Mada made without the service: random playouts by the rules, recorded as the
store holds a game once it is over (record format 2, its hash chain, its result). The statistics'
tests count them, and the benchmark's figure 9 archives them."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from domain.mada import Mada, MadaState
from service.store.chain import FORMAT, event_hash, header_hash, seed_commitment
from service.store.records import GameRecord, StoredEvent

GAME = Mada()


@dataclass(frozen=True)
class Played:
    record: GameRecord
    events: list[StoredEvent]
    states: list[MadaState]

    @property
    def bodies(self) -> list[dict[str, Any]]:
        return [event.body for event in self.events]


def play(seed: int, players: list[str], first_player: int = 0, chance: str = "seeded") -> Played:
    """A random game of Mada to its end, recorded as the store would hold it once finished."""
    rng = random.Random(seed)
    options = GAME.options({"first_player": first_player, "chance": chance}, len(players))
    state = GAME.new_game(len(players), seed, options)
    header = {
        "game": "mada",
        "players": players,
        "seed": seed,
        "seed_salt": "5a" * 16,
        "seed_commitment": seed_commitment(seed, "5a" * 16),
        "options": options,
        "rules_version": GAME.rules_version,
    }
    previous = header_hash(header)
    events: list[StoredEvent] = []
    states: list[MadaState] = []
    while not state.finished:
        body = rng.choice(GAME.legal_moves(state))
        state = GAME.apply(state, body)
        seq, at = len(events) + 1, "2025-05-01T12:00:00Z"
        previous = event_hash(previous, seq, at, body)
        events.append(StoredEvent(seq, body, at, previous))
        states.append(state)
    record = GameRecord(
        id=hashlib.sha256(f"game {seed}".encode()).hexdigest()[:32],
        **header,
        created_at="2025-05-01T11:00:00Z",
        version=len(events),
        status="finished",
        record_format=FORMAT,
        head_hash=previous,
        token_sha256="0" * 64,
        seat_tokens_sha256=["0" * 64 for _ in players],
        finished_at="2025-05-01T12:00:00Z",
        result=GAME.result(state),
    )
    return Played(record, events, states)
