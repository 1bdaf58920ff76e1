"""Records: creating a game's record, exporting it whole, importing one exported elsewhere.

A new record commits to its seed with a fresh salt and is guarded by fresh tokens
(``who_may_act``). An export is the whole record, replayed from the seed each time (never vouched
for by a cache). An import replays a record and stores it as a new game, or rejects it whole; it
keeps what the document gives (salt, commitment, format, times), so the copy's hash chain is the
source's, and a record is imported once: it claims its commitment and the digest of what it
records as it creates the game.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from domain import get_game
from domain.errors import InvalidOptionsError
from service.errors import AlreadyImportedError, InvalidImportError, NotFoundError
from service.games.appending import ask_recount
from service.games.checkpoints import Checkpoints
from service.games.prepared import utc_now
from service.games.repository import Repository, rules_of
from service.games.who_may_act import Tokens, seat_token, token_digest
from service.signing import source_checkpoints, times_unlike_notes
from service.store.audit import replay_record
from service.store.chain import (
    FORMAT,
    LEGACY_FORMAT,
    header_hash,
    new_salt,
    played_digest,
    record_digest,
    seed_commitment,
)
from service.store.damage import DamagedRecordError
from service.store.events import EventStore
from service.store.moments import check_record_times
from service.store.records import GameRecord


@dataclass(frozen=True)
class RecordKept:
    """What a new record keeps of the one it copies (an import), or draws anew (a creation)."""

    salt: str | None
    record_format: int = FORMAT
    created_at: str | None = None
    # An import claims its commitment, and the digest of what it records
    # (``chain.record_digest``): a record is imported once.
    imported: bool = False
    record_digest: str | None = None


class Records:
    """Games' records as wholes: created, exported, imported."""

    def __init__(
        self,
        repository: Repository,
        recount: Callable[[str], object] | None = None,
        checkpoints: Checkpoints | None = None,
        recount_many: Callable[[list[str]], object] | None = None,
    ) -> None:
        self.repository = repository
        # The notes an export carries (``checkpoints``): none without a key ring.
        self.checkpoints = checkpoints or Checkpoints(None)
        # Called with an imported finished game's id: its figures are counted
        # (``appending.ask_recount``); ``recount_many`` with many at once (``ask_counts``).
        self.recount = recount
        self.recount_many = recount_many

    def create(
        self,
        game_name: str,
        players: list[str],
        seed: int | None,
        options: dict[str, Any],
        recorder: str | None = None,
    ) -> tuple[GameRecord, Tokens]:
        """A new game; ``recorder``: its recorder's token when the caller derives it (a
        tournament's table, whose links its organiser can show again), else a fresh one."""
        game = get_game(game_name)
        if not game.min_players <= len(players) <= game.max_players:
            given = f"{len(players)} name{'' if len(players) == 1 else 's'}"
            raise InvalidOptionsError(
                f"{game.played_by()}: {given} given; name each player, in seat order",
                {"players": f"{game.min_players} to {game.max_players} names"},
            )
        normalized = game.options(options, len(players))
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "big")
        # Built once here so that a bad combination fails the creation, not the first move.
        game.new_game(len(players), seed, normalized)
        header = {
            "game": game_name,
            "players": players,
            "seed": seed,
            "options": normalized,
            "rules_version": game.rules_version,
        }
        return self._create_record(header, recorder=recorder)

    def _create_record(
        self,
        played: dict[str, Any],
        kept: RecordKept | None = None,
        recorder: str | None = None,
        store_as: Callable[[GameRecord], GameRecord | None] | None = None,
    ) -> tuple[GameRecord, Tokens]:
        """A new record of what ``played`` says (game, players, seed, options, rules_version),
        in the current record format: a fresh salt commits to the seed, fresh tokens guard it.
        An import's record ``kept`` its salt, commitment, format and creation time instead.
        ``store_as`` stores the new record (None: its id is taken) and gives it back as stored:
        an import's, with its events; by default it is stored as a new game, listed as created."""
        store = self.repository.store
        kept = kept or RecordKept(salt=new_salt())
        header = {
            **{name: played[name] for name in ("game", "players", "seed", "options")},
            "rules_version": played["rules_version"],
            "seed_salt": kept.salt,
            "seed_commitment": (
                seed_commitment(played["seed"], kept.salt) if kept.salt is not None else None
            ),
        }
        recorder = recorder or secrets.token_urlsafe(24)
        generations = [0 for _ in header["players"]]
        tokens = Tokens(
            recorder=recorder,
            seats=[seat_token(recorder, seat, 0) for seat in range(len(generations))],
        )
        while True:
            game_id = secrets.token_hex(8)
            commitment = header["seed_commitment"]
            claims = []
            if kept.imported and commitment is not None:
                claims.append(("commitments", commitment))
            if kept.record_digest is not None:
                claims.append(("records", kept.record_digest))
            if claims:
                held = store.indexes.claim_import(game_id, claims)
                if held is not None:
                    # Whatever this id claimed goes to the next import that needs it.
                    store.indexes.release_claims(game_id)
                    raise AlreadyImportedError(held)
            record = GameRecord(
                id=game_id,
                created_at=kept.created_at or utc_now(),
                version=0,
                status="active",
                record_format=kept.record_format,
                head_hash=header_hash(header, kept.record_format),
                token_sha256=token_digest(tokens.recorder),
                seat_tokens_sha256=[token_digest(token) for token in tokens.seats],
                seat_token_generations=generations,
                **header,
            )
            stored = store_as(record) if store_as is not None else _stored_new(store, record)
            if stored is not None:
                return stored, tokens
            # The id was taken: its claims go, for the next id to take over.
            store.indexes.release_claims(game_id)

    def export(self, record: GameRecord) -> dict[str, Any]:
        """The whole record, each event with its ``at`` (the API gives it to the recorder only
        while the game is on); a record that does not replay is not exported
        (DamagedRecordError). What an import needs to make a copy with the same hash chain."""
        events = self.repository.stored_events(record)
        # Never vouched for by the cache: the record is replayed whole, from the seed, each time.
        self.repository.replayed_from_seed(rules_of(record), record, events)
        document = {
            **record.header,
            "record_format": record.record_format,
            "created_at": record.created_at,
            "events": [{**event.body, "at": event.at} for event in events],
        }
        if record.finished_at is not None:
            document["finished_at"] = record.finished_at
        # Once over, this service's signed note of the head; and the notes an import kept.
        document.update(self.checkpoints.of_export(record))
        return document

    def import_record(
        self, document: dict[str, Any], *, ask_count: bool = True, play: str | None = None
    ) -> tuple[GameRecord, Tokens]:
        """Replay an exported record and store it as a new game with tokens of its own, or
        reject it whole. What the document gives is kept (salt, commitment, format, created_at,
        each event's at, finished_at), so the copy's hash chain is the source's; a time it lacks
        is filled in with the import's. A record held here already (its commitment, or the same
        game, players, seed, options and moves) is an AlreadyImportedError naming its game.
        A finished one is counted, unless ``ask_count`` is False: the caller asks for it with
        others (``ask_counts``). ``play``: the play of another app the document was made from
        (``<source>:<id>``), whose claim is settled with the new game's id as it is indexed."""
        header, bodies = _as_stored(document)
        # The sender holds every value of its document: the rules' own words help it most.
        audit = replay_record(header, bodies, quote_rules=True)
        if not audit.ok:
            raise InvalidImportError(
                f"the record is rejected whole: {audit.problems[0]}",
                {"event": audit.version + 1, "problems": audit.problems},
            )
        # Known by what it records, whatever its salt, commitment or format (README, "Moving
        # games to another server"): a game here of the same game, players, seed, options and
        # moves is this record (409), and the import claims the record's digest as it creates
        # the game, so that of two imports of it at once one makes the game.
        held = self._held_copy(header, bodies)
        if held is not None:
            raise AlreadyImportedError(held)
        now = utc_now()
        ats = [event.get("at") or now for event in document["events"]]
        if audit.result is not None:
            status = "finished"
            finished_at = document.get("finished_at") or (ats[-1] if ats else now)
        else:
            status, finished_at = ("abandoned" if audit.abandoned else "active"), None
        created_at = document.get("created_at") or now
        _check_times(created_at, ats, finished_at)
        _check_times_vouched(document, created_at, finished_at)
        kept = replace(
            _kept(document, header["seed"], now), record_digest=record_digest(header, bodies)
        )
        store = self.repository.store
        # Created with its events in one step, then listed where it was played. The source's
        # notes are kept as they came, beside those this service will sign: they still verify
        # with the source's key (``service.signing``).
        record, tokens = self._create_record(
            header,
            kept,
            store_as=lambda new: store.create_imported(
                new, bodies, ats=ats, status=status, result=audit.result,
                finished_at=finished_at, source_checkpoints=source_checkpoints(document),
                play=play,
            ),
        )  # fmt: skip
        if audit.result is not None and ask_count:
            ask_recount(self.recount, record.id)
        return record, tokens

    def ask_counts(self, game_ids: list[str]) -> None:
        """Ask for the figures of many imported finished games (their archive jobs), best
        effort: in jobs of many where the service has them, else one job each."""
        if not game_ids:
            return
        if self.recount_many is not None:
            ask_recount(self.recount_many, game_ids)
            return
        for game_id in game_ids:
            ask_recount(self.recount, game_id)

    def records(self, game_id: str, document: dict[str, Any]) -> bool:
        """Whether game ``game_id`` is the record ``document`` makes: the same game, players,
        seed, options and moves, begun and finished at the same moments (its salt aside)."""
        store = self.repository.store
        held = store.get(game_id)
        if not isinstance(held, GameRecord):
            return False
        try:
            header, bodies = _as_stored(document)
            events = self.repository.stored_events(held)
        except (InvalidImportError, DamagedRecordError, NotFoundError):
            return False
        return (
            played_digest(held.header) == played_digest(header)
            and [event.body for event in events] == bodies
            and held.created_at == document.get("created_at")
            and held.finished_at == document.get("finished_at")
        )

    def _held_copy(self, header: dict[str, Any], bodies: list[dict[str, Any]]) -> str | None:
        """The id of a game held here that records what ``header`` and ``bodies`` record (the
        same game, players, seed, options and moves), made here or imported, whatever its
        format, salt or commitment; None if there is none. Only games played from the same
        header are read, and of those only the ones with as many events."""
        store = self.repository.store
        candidates = store.get_many(store.indexes.games_played_from(header))
        for candidate in candidates:
            if not isinstance(candidate, GameRecord) or candidate.version != len(bodies):
                continue
            try:
                events = self.repository.stored_events(candidate)
            except (DamagedRecordError, NotFoundError):
                continue
            if [event.body for event in events] == bodies:
                return candidate.id
        return None


def _as_stored(document: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and event bodies of an exported ``document`` as a game here stores them;
    InvalidImportError for a number of players or options the game refuses."""
    header = {
        name: document[name] for name in ("game", "players", "seed", "options", "rules_version")
    }
    game = get_game(header["game"])
    players = header["players"]
    if not game.min_players <= len(players) <= game.max_players:
        raise InvalidImportError(
            f"{game.played_by()}, not {len(players)}",
            {"players": len(players)},
        )
    # Completed with their defaults, as at creation: the header (and its hash) is then the
    # one a game created with these options would have. Options the game refuses are the
    # record's first problem: its first event could never be played under them.
    try:
        header["options"] = game.options(header["options"], len(players))
    except InvalidOptionsError as error:
        problem = f"event 1: the game's options are refused: {error.message}"
        raise InvalidImportError(
            f"the record is rejected whole: {problem}",
            {"event": 1, "problems": [problem], "options": error.details},
        ) from None
    # As the record writes them (a score sheet's 2.0 is 2): the chain is then the source's.
    bodies = [
        dict(game.written({k: v for k, v in event.items() if k != "at"}))
        for event in document["events"]
    ]
    return header, bodies


def _check_times(created_at: str, ats: list[str], finished_at: str | None) -> None:
    """InvalidImportError naming each time of a record to import (as it would be stored: given,
    or filled in) that is no instant, lies in the future, or is out of order: stored, it would
    stop the archive job and every statistics rebuild."""
    problems = check_record_times(created_at, ats, finished_at, datetime.now(UTC))
    if problems:
        field, problem = next(iter(problems.items()))
        raise InvalidImportError(f"the record's times are refused: {field} {problem}", problems)


def _check_times_vouched(
    document: dict[str, Any], created_at: str, finished_at: str | None
) -> None:
    """InvalidImportError naming each time of a record to import that a signed note it carries
    vouches for otherwise: a record moved to another date after it was signed would be counted
    and rated at that date."""
    differences = times_unlike_notes(document, created_at, finished_at)
    if differences:
        field, differs = next(iter(differences.items()))
        raise InvalidImportError(
            f"the record's times are not those its signed note vouches for: {field} is {differs}",
            differences,
        )


def _kept(document: dict[str, Any], seed: int, now: str) -> RecordKept:
    """What an imported ``document`` keeps: its salt and commitment (checked against its seed),
    its hash chain's format and its creation time; InvalidImportError for a commitment that is
    not its seed's."""
    record_format = document.get("record_format") or FORMAT
    salt, commitment = document.get("seed_salt"), document.get("seed_commitment")
    if record_format == FORMAT and salt is None:
        # Format 2 commits to the seed with a salt from the game's start: a copy without it
        # cannot be checked, and drawing a new one would make the same record look new.
        raise InvalidImportError(
            "a record of format 2 carries the seed_salt its seed_commitment was made with:"
            " without it the record is not the one it says",
            {"seed_salt": "the salt the commitment was made with"},
        )
    if record_format == LEGACY_FORMAT and (salt is not None or commitment is not None):
        # Format 1 was written before salts and commitments: a record that has them is not one.
        named = {"seed_salt": salt, "seed_commitment": commitment}
        raise InvalidImportError(
            "a record of format 1 has no seed_salt or seed_commitment (they came with format 2)",
            {name: "null in a record of format 1" for name, value in named.items() if value},
        )
    if salt is not None and commitment is not None and seed_commitment(seed, salt) != commitment:
        raise InvalidImportError(
            "the record's seed and seed_salt do not match its seed_commitment: it is not the"
            " record it says it is",
            {"seed_commitment": "the SHA-256 of the canonical JSON of {salt, seed}"},
        )
    return RecordKept(
        salt=salt,
        record_format=record_format,
        created_at=document.get("created_at") or now,
        imported=True,
    )


def _stored_new(store: EventStore, record: GameRecord) -> GameRecord | None:
    """``record`` stored and listed as a new game; None if its id is taken."""
    return record if store.create(record) else None
