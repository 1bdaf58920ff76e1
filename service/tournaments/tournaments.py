"""The tournaments' use cases: create one, read it with its tables' results and standings, pair
its next round (each table a game made as ``POST /games`` makes one), withdraw a player, export
it whole."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from typing import Any

from domain.tournaments import (
    RULES_VERSION,
    PlayedRound,
    Table,
    TableOutcome,
    TournamentError,
    pair_round,
    standings,
)
from service.errors import (
    ImpossiblePlanError,
    InvalidRequestError,
    NotFoundError,
    RoundInPlayError,
    TournamentOverError,
    UnauthorizedError,
    VersionConflictError,
)
from service.games import GameService, token_digest, utc_now
from service.store.chain import new_salt, seed_commitment
from service.store.records import GameRecord
from service.tournaments.log import PairedRound, Tournament, read_log
from service.tournaments.outcomes import result_json, standings_json, table_outcome
from service.tournaments.plan import Plan
from service.tournaments.store import TournamentStore


def table_token(organiser_token: str, round_number: int, table: int) -> str:
    """The recorder's token of a table's game, derived from the organiser's: whoever holds the
    organiser's token can show every table's links again (the store keeps digests only)."""
    message = f"tabletape tournament round {round_number} table {table}".encode()
    digest = hmac.new(organiser_token.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


@dataclass(frozen=True)
class Played:
    """A tournament with its tables' outcomes, read from their games (None: being played)."""

    tournament: Tournament
    outcomes: tuple[tuple[TableOutcome | None, ...], ...]

    @property
    def finished(self) -> bool:
        t = self.tournament
        return len(t.rounds) == t.rounds_planned and all(
            outcome is not None for outcomes in self.outcomes for outcome in outcomes
        )

    def history(self, *, whole_rounds: bool) -> list[PlayedRound]:
        """The rounds played as the pure rules take them: the rounds whose every table is over
        (``whole_rounds``: what a pairing stands on), else every table over so far (the
        standings as the games go)."""
        played = []
        for paired, outcomes in zip(self.tournament.rounds, self.outcomes, strict=True):
            over = [(t, o) for t, o in zip(paired.tables, outcomes, strict=True) if o is not None]
            if whole_rounds and len(over) < len(paired.tables):
                continue
            played.append(
                PlayedRound(
                    tables=tuple(Table(table.players) for table, _ in over),
                    outcomes=tuple(outcome for _, outcome in over),
                    byes=paired.byes,
                )
            )
        return played


class Tournaments:
    """The tournaments of one store, their tables the games of ``games``."""

    def __init__(self, store: TournamentStore, games: GameService) -> None:
        self.store = store
        self.games = games

    def create(
        self, name: str, players: list[str], seed: int | None, plan: Plan
    ) -> tuple[Tournament, str]:
        """A new tournament and its organiser's token (returned only here)."""
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
        salt = new_salt()
        token = secrets.token_urlsafe(24)
        created = {
            "type": "created",
            "at": utc_now(),
            "name": name,
            "game": plan.game,
            "options": plan.options,
            "format": plan.format,
            "table_size": list(plan.table_size),
            "players": players,
            "rounds": plan.rounds,
            "rounds_planned": plan.rounds_planned,
            # The pairing rules' version: a tournament is paired and checked by the rules it
            # began under.
            "rules_version": RULES_VERSION,
            "seed": seed,
            "seed_salt": salt,
            "seed_commitment": seed_commitment(seed, salt),
            "token_sha256": token_digest(token),
        }
        while True:
            tournament_id = secrets.token_hex(8)
            if self.store.create(tournament_id, created):
                return Tournament(tournament_id, created), token

    def get(self, tournament_id: str) -> Tournament:
        found = read_log(tournament_id, self.store.events(tournament_id))
        if found is None:
            raise NotFoundError(f"no tournament {tournament_id!r} here", {"id": tournament_id})
        return found

    def played(self, tournament: Tournament) -> Played:
        """The tournament with its tables' outcomes, its games read in one round trip."""
        records = self.games.store.get_many(list(tournament.game_ids))
        by_id = {
            game_id: record
            for game_id, record in zip(tournament.game_ids, records, strict=True)
            if isinstance(record, GameRecord)
        }
        outcomes = tuple(
            tuple(_outcome(by_id.get(table.game)) for table in paired.tables)
            for paired in tournament.rounds
        )
        return Played(tournament, outcomes)

    def organiser(self, tournament: Tournament, token: str | None) -> None:
        """UnauthorizedError unless ``token`` is the tournament's organiser's."""
        expected = tournament.created["token_sha256"]
        if token is None or not hmac.compare_digest(token_digest(token), expected):
            raise UnauthorizedError(
                "this needs the organiser's token, the one the tournament's creation returned:"
                " send `Authorization: Bearer <token>`"
            )

    def resource(self, played: Played) -> dict[str, Any]:
        """The tournament as everyone reads it: the seed only once it is over."""
        t = played.tournament
        created = t.created
        body: dict[str, Any] = {
            "id": t.id,
            "name": created["name"],
            "game": created["game"],
            "options": created["options"],
            "format": created["format"],
            "players": t.players,
            "seed_commitment": created["seed_commitment"],
            "rounds_planned": t.rounds_planned,
            "rules_version": created["rules_version"],
            "rounds": [
                _round_json(paired, outcomes)
                for paired, outcomes in zip(t.rounds, played.outcomes, strict=True)
            ],
            "withdrawn": t.withdrawn,
            "standings": standings_json(
                standings(t.players, played.history(whole_rounds=False), created["seed"])
            ),
            "status": "finished" if played.finished else "active",
            "created_at": created["at"],
        }
        if created["format"] == "pods":
            body["table_size"] = created["table_size"]
        if played.finished:
            body["seed"] = created["seed"]
            body["seed_salt"] = created["seed_salt"]
        return body

    def pair_next(self, tournament_id: str, token: str | None) -> dict[str, Any]:
        """Pair the next round and make its tables' games: the round with each table's links."""
        tournament = self.get(tournament_id)
        self.organiser(tournament, token)
        played = self.played(tournament)
        if played.finished:
            raise TournamentOverError(
                f"the tournament is over: its {tournament.rounds_planned} rounds are played",
                {"rounds_planned": tournament.rounds_planned},
            )
        if tournament.rounds:
            waiting = [
                table.table
                for table, outcome in zip(tournament.rounds[-1].tables, played.outcomes[-1],
                                          strict=True)
                if outcome is None
            ]  # fmt: skip
            if waiting:
                raise RoundInPlayError(
                    f"round {len(tournament.rounds)} is still being played at"
                    f" {_tables_words(waiting)}: pair the next round once every game is over",
                    {"tables": waiting},
                )
        if not self.store.hold_pairing(tournament_id):
            raise VersionConflictError(tournament.length, None)
        try:
            return self._pair(tournament, played, token or "")
        finally:
            self.store.release_pairing(tournament_id)

    def _pair(self, tournament: Tournament, played: Played, token: str) -> dict[str, Any]:
        created = tournament.created
        number = len(tournament.rounds) + 1
        if created["rules_version"] != RULES_VERSION:
            raise ImpossiblePlanError(
                f"this tournament is paired by rules {created['rules_version']!r}, and this"
                f" service pairs by {RULES_VERSION!r}: its next round cannot be paired here",
                {"rules_version": created["rules_version"]},
            )
        try:
            pairing = pair_round(
                created["format"],
                tournament.players,
                tournament.withdrawn,
                played.history(whole_rounds=True),
                created["seed"],
                tournament.table_size,
            )
        except TournamentError as error:
            # Too few players left to pair (the others withdrew), say.
            raise ImpossiblePlanError(
                f"round {number} cannot be paired: {error}", {"round": number}
            ) from None
        tables, links = [], []
        for index, table in enumerate(pairing.tables, start=1):
            record, tokens = self.games.create(
                created["game"], list(table.players), None, created["options"],
                recorder=table_token(token, number, index),
            )  # fmt: skip
            tables.append({"table": index, "players": list(table.players), "game": record.id})
            links.append({"token": tokens.recorder, "seat_tokens": tokens.seats})
        event = {
            "type": "round_paired",
            "at": utc_now(),
            "round": number,
            "tables": tables,
            "byes": list(pairing.byes),
        }
        if not self.store.append(tournament.id, tournament.length, event):
            raise VersionConflictError(tournament.length, None)
        return {
            "round": number,
            "tables": [{**table, **link} for table, link in zip(tables, links, strict=True)],
            "byes": list(pairing.byes),
        }

    def table_links(self, tournament: Tournament, token: str) -> list[list[dict[str, Any]]]:
        """Every table's tokens, per round, derived again from the organiser's ``token``."""
        rounds = []
        for paired in tournament.rounds:
            tables = []
            for table in paired.tables:
                recorder = table_token(token, paired.round, table.table)
                record = self.games.get(table.game)
                tables.append(
                    {"table": table.table, "token": recorder,
                     "seat_tokens": self.games.seat_links(record, recorder)}
                )  # fmt: skip
            rounds.append(tables)
        return rounds

    def withdraw(self, tournament_id: str, token: str | None, player: str) -> Tournament:
        """``player`` is not paired again (their points stay); withdrawing twice is once."""
        tournament = self.get(tournament_id)
        self.organiser(tournament, token)
        if player not in tournament.players:
            raise InvalidRequestError(
                f"{player!r} does not play in this tournament", {"player": "one of its players"}
            )
        if player in tournament.withdrawn:
            return tournament
        event = {"type": "withdrawn", "at": utc_now(), "player": player}
        if not self.store.append(tournament.id, tournament.length, event):
            raise VersionConflictError(tournament.length, None)
        return self.get(tournament_id)

    def export(self, tournament_id: str, token: str | None) -> dict[str, Any]:
        """The tournament, its seed and every table's record: anyone's once it is over, the
        organiser's while it is on."""
        tournament = self.get(tournament_id)
        played = self.played(tournament)
        if not played.finished:
            self.organiser(tournament, token)
        document = self.resource(played)
        document["seed"] = tournament.created["seed"]
        document["seed_salt"] = tournament.created["seed_salt"]
        document["table_size"] = tournament.created["table_size"]
        document["withdrawals"] = [
            {"player": w.player, "after_round": w.after_round} for w in tournament.withdrawals
        ]
        for paired in document["rounds"]:
            for table in paired["tables"]:
                table["record"] = self.games.export(self.games.get(table["game"]))
        return document


def _outcome(record: GameRecord | None) -> TableOutcome | None:
    if record is None:
        return None
    return table_outcome(record.status, record.result)


def _round_json(paired: PairedRound, outcomes: tuple[TableOutcome | None, ...]) -> dict[str, Any]:
    return {
        "round": paired.round,
        "tables": [
            {**table.as_json(), "result": result_json(outcome, len(table.players))}
            for table, outcome in zip(paired.tables, outcomes, strict=True)
        ],
        "byes": list(paired.byes),
    }


def _tables_words(tables: list[int]) -> str:
    if len(tables) == 1:
        return f"table {tables[0]}"
    return "tables " + ", ".join(str(t) for t in tables[:-1]) + f" and {tables[-1]}"
