"""An outside client's check of a finished game, from its public reads alone.

Written from the record format's description, as a client in another code base would write it:
it imports nothing of Tabletape. Given ``GET /games/{id}`` and ``GET /games/{id}/events`` of a
finished game (read without any token), it recomputes the seed commitment and the whole hash
chain, and returns the head hash it arrives at.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_finished_game(game: dict[str, Any], events: list[dict[str, Any]]) -> str:
    """The head hash of the chain, once every link and the commitment are checked; raises
    AssertionError naming the first thing that does not hold."""
    assert game["status"] in ("finished", "archived"), "only a finished game shows its seed"
    commitment = sha256(canonical({"salt": game["seed_salt"], "seed": game["seed"]}))
    assert commitment == game["seed_commitment"], "the seed does not match its commitment"
    header = {
        "game": game["game"],
        "players": game["players"],
        "options": game["options"],
        "rules_version": game["rules_version"],
        "seed_commitment": game["seed_commitment"],
    }
    previous = sha256(canonical(header))
    for seq, event in enumerate(events, start=1):
        assert event["seq"] == seq, f"event {seq} is missing"
        hashed = {name: value for name, value in event.items() if name not in ("hash", "void")}
        previous_then = previous
        previous = sha256(previous_then + canonical(hashed))
        assert previous == event["hash"], f"event {seq} does not match its hash"
    return previous
