"""A tournament as its log tells it: the events it is made of, and the tournament they add up to.

The events, in the order they happen (each with ``type`` and ``at``, server time):

- ``created``: the name, the game and its options, the format (and the pods' ``table_size``),
  the players in the order given, the rounds asked for and planned, the seed, its salt and
  commitment, and the SHA-256 of the organiser's token (never the token);
- ``round_paired``: the round's number, its tables (each ``{"table", "players", "game"}``: the
  players in seat order and the id of the game made for it) and its byes;
- ``withdrawn``: a player who is not paired again.

A table's result is not copied into the log: it is its game's record, read when it is needed,
so that the standings follow the games (a game reopened by a retraction included).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from service.store.damage import DamagedRecordError


@dataclass(frozen=True)
class PairedTable:
    table: int
    players: tuple[str, ...]
    game: str

    def as_json(self) -> dict[str, Any]:
        return {"table": self.table, "players": list(self.players), "game": self.game}


@dataclass(frozen=True)
class PairedRound:
    round: int
    tables: tuple[PairedTable, ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class Withdrawal:
    player: str
    # How many rounds were paired when the player withdrew.
    after_round: int


@dataclass(frozen=True)
class Tournament:
    """A tournament as its log adds up: what ``created`` said, and what happened since."""

    id: str
    created: dict[str, Any]
    rounds: tuple[PairedRound, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    # How many events the log holds: an append names it, so that two writers never both write.
    length: int = 1
    game_ids: tuple[str, ...] = field(default=())

    @property
    def players(self) -> list[str]:
        players: list[str] = self.created["players"]
        return players

    @property
    def withdrawn(self) -> list[str]:
        return [withdrawal.player for withdrawal in self.withdrawals]

    @property
    def rounds_planned(self) -> int:
        planned: int = self.created["rounds_planned"]
        return planned

    @property
    def table_size(self) -> tuple[int, int]:
        least, most = self.created["table_size"]
        return least, most


def read_log(tournament_id: str, stored: list[str]) -> Tournament | None:
    """The tournament the ``stored`` events make (None for an empty log); DamagedRecordError for
    an event that does not decode."""
    if not stored:
        return None
    events = [_decoded(tournament_id, seq, text) for seq, text in enumerate(stored, start=1)]
    if events[0].get("type") != "created":
        raise DamagedRecordError(
            tournament_id, ["event 1 is not the tournament's creation"], {"seq": 1}
        )
    rounds: list[PairedRound] = []
    withdrawals: list[Withdrawal] = []
    try:
        for event in events[1:]:
            if event["type"] == "round_paired":
                tables = tuple(
                    PairedTable(table["table"], tuple(table["players"]), table["game"])
                    for table in event["tables"]
                )
                rounds.append(PairedRound(event["round"], tables, tuple(event["byes"])))
            elif event["type"] == "withdrawn":
                withdrawals.append(Withdrawal(event["player"], len(rounds)))
    except (KeyError, TypeError) as error:
        raise DamagedRecordError(
            tournament_id, [f"an event lacks a field: {error}"], {"seq": len(events)}
        ) from None
    return Tournament(
        id=tournament_id,
        created=events[0],
        rounds=tuple(rounds),
        withdrawals=tuple(withdrawals),
        length=len(events),
        game_ids=tuple(table.game for paired in rounds for table in paired.tables),
    )


def _decoded(tournament_id: str, seq: int, text: str) -> dict[str, Any]:
    try:
        event = json.loads(text)
    except ValueError:
        event = None
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise DamagedRecordError(tournament_id, [f"event {seq} does not decode"], {"seq": seq})
    return event
