"""The Redis event store: one stream of events per game, beside the game's header.

Keys of one game share the hash tag ``{id}`` so that they live in one Redis Cluster slot and one
Lua script can touch them all atomically:

- ``<prefix>{id}:header``  hash: the record's header (game, players, seed, seed_salt,
  seed_commitment, options, rules_version, record_format, the tokens' digests), plus what changes
  as it is played: version, head_hash, status, finished_at, result, and ``reopened`` while
  the figures of a finish that a retraction undid wait to be withdrawn;
- ``<prefix>{id}:events``  stream: event N has the entry id ``0-N``, so a range of moves is a range
  of ids; fields ``body`` (the event's canonical JSON), ``at``, ``hash`` (``service.store.chain``);
- ``<prefix>{id}:idem:<key>``  string: the response to an append made with that Idempotency-Key.

Games are listed through sorted sets scored by a creation serial (the counter
``<prefix>games:serial``): ``<prefix>games:all``, ``<prefix>games:game:<game>`` and
``<prefix>games:player:<name>``. They carry no hash tag: on a Redis Cluster each index is a slot
of its own, chosen by its name, so the players' indexes and the games' spread over the masters;
the index of all games (and the serial) is one slot, on one master. A creation adds one entry to
2 + players indexes, against a hundred appends or so for the game's moves on the game's own slot:
the listings are a small share of the load. If the index of all games outgrew one node, it would
be split by creation month (``games:all:<yyyy-mm>``, a page read from the newest month back). The
index writes need no atomicity (a listing skips an id whose header it cannot read): they are
single-key commands, pipelined without a transaction, which redis-py splits by node.

Every script and every MULTI touches one game's keys alone (one slot). Whether the client is a
plain Redis or a cluster is ``service.store.connection``'s business; writes acknowledged to a client
(creating a game, appending) go through its ``acknowledged_writes``, which on a cluster replies
once a replica has the write.

What is read back is checked as it is decoded: a header field or an event that does not decode
(changed behind the service's back: a hand edit, a disk fault) raises ``DamagedRecordError``, which
names the field or the event, and concerns that game alone. A record's keys are read undecoded
(``NEVER_DECODE``), whatever client the store is given, and decoded here: bytes that are not UTF-8
are a damaged field or event, never an error that stops a listing or a worker.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
import redis
from redis.client import NEVER_DECODE
from redis.commands.core import Script
from redis.exceptions import NoScriptError

from domain.errors import TabletapeError, UnknownGameError
from domain.game import get_game
from service.store.chain import FORMAT, LEGACY_FORMAT, canonical_json, event_hash, played_digest
from service.store.connection import (
    DEFAULT_REPLICA_WAIT_MS,
    StoreClient,
    acknowledged_writes,
    aim,
    blocking_client,
)

IDEMPOTENCY_TTL_SECONDS = 24 * 3600

# Stores a new game's header unless its id is taken: the check and the write are one step.
# ARGV: the header's fields and values, in pairs.
_CREATE_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
"""

# Appends one event if, and only if, the game is active at the expected version and head. The
# checks, the XADD, the header update and the idempotency record happen in one step, so two
# writers can never both append at one version, a retried key can never append twice, and an event
# is never chained to a head the store does not have (one it lost in a crash, which the appending
# process still remembers): the head the event's hash was computed from must be the header's.
# The writer's token must still be the header's, checked before anything, a replayed key
# included: a seat's link replaced (in any process) refuses its old token at once, though the
# appending process validated the move on a snapshot that still holds it.
# KEYS: header, events, and the idempotency record's key only for a keyed append. ARGV: the
# expected version, the body, at, hash, the expected head hash, the writer ('recorder', or the
# seat's index) and the SHA-256 of its token; then, only when there is one or more follows, the
# result (or ''); then, when a change of status or a key follows, the change ('' for none,
# 'abandon', or 'reopen': a retraction of a finished game's last move, which the game must be
# finished or archived for, its stream in Redis); then, for a keyed append, the record and its
# lifetime. An append sends no more than it needs: each argument is encoded, sent and parsed on
# every move.
# A replayed key renews its record's lifetime: a write of its own, so that a replica confirming
# it (service.store.connection.acknowledged_writes) confirms the recorded append too, which came
# before it.
_APPEND_SCRIPT = """
local header, events, idem = KEYS[1], KEYS[2], KEYS[3]
local current = redis.call('HMGET', header, 'version', 'status', 'head_hash', 'trimmed',
                           'token_sha256', 'seat_tokens_sha256')
if not current[1] then return {'missing'} end
local holds = current[5]
if ARGV[6] ~= 'recorder' then
    local decoded, seats = pcall(cjson.decode, current[6] or '')
    holds = decoded and type(seats) == 'table' and seats[tonumber(ARGV[6]) + 1]
end
if holds ~= ARGV[7] then return {'revoked'} end
if idem then
    local prior = redis.call('GET', idem)
    if prior then
        redis.call('EXPIRE', idem, ARGV[11])
        return {'replayed', prior}
    end
end
local change = ARGV[9] or ''
if change == 'reopen' then
    if current[2] == 'active' then return {'conflict', current[1]} end
    if current[2] ~= 'finished' and current[2] ~= 'archived' then return {'finished'} end
    if current[4] == '1' then return {'trimmed'} end
elseif current[2] ~= 'active' then
    return {'finished'}
end
if current[1] ~= ARGV[1] then return {'conflict', current[1]} end
if current[3] ~= ARGV[5] then return {'other_head', current[1]} end
local seq = tonumber(ARGV[1]) + 1
redis.call('XADD', events, '0-' .. seq, 'body', ARGV[2], 'at', ARGV[3], 'hash', ARGV[4])
if ARGV[8] and ARGV[8] ~= '' then
    redis.call('HSET', header, 'version', seq, 'head_hash', ARGV[4],
               'status', 'finished', 'finished_at', ARGV[3], 'result', ARGV[8])
elseif change == 'abandon' then
    redis.call('HSET', header, 'version', seq, 'head_hash', ARGV[4], 'status', 'abandoned')
elseif change == 'reopen' then
    -- The figures of the finish it undoes wait to be withdrawn (workers.archive): 'reopened'.
    redis.call('HSET', header, 'version', seq, 'head_hash', ARGV[4], 'status', 'active',
               'reopened', '1')
    redis.call('HDEL', header, 'finished_at', 'result')
else
    redis.call('HSET', header, 'version', seq, 'head_hash', ARGV[4])
end
if idem then
    redis.call('SET', idem, ARGV[10], 'EX', ARGV[11])
end
return {'appended', tostring(seq)}
"""

# Puts back into Redis the stream of a game whose archive replaced it (trimmed), so that its last
# move can be retracted: ARGV holds each event as body, at, hash, in order. Only on a trimmed game
# whose stream is empty: run twice, it writes once.
_RESTORE_SCRIPT = """
if redis.call('HGET', KEYS[1], 'trimmed') ~= '1' then return 0 end
if redis.call('XLEN', KEYS[2]) ~= 0 then return 0 end
for first = 1, #ARGV, 3 do
    redis.call('XADD', KEYS[2], '0-' .. ((first + 2) / 3), 'body', ARGV[first],
               'at', ARGV[first + 1], 'hash', ARGV[first + 2])
end
redis.call('HDEL', KEYS[1], 'trimmed')
return 1
"""

# Marks a finished game archived, only if it is still finished at the version the archive job
# archived (the recorder may have reopened it meanwhile); with ARGV[2] '1' the stream is dropped.
_MARK_ARCHIVED_SCRIPT = """
local current = redis.call('HMGET', KEYS[1], 'status', 'version')
if current[1] ~= 'finished' or current[2] ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'status', 'archived')
if ARGV[2] == '1' then
    redis.call('HSET', KEYS[1], 'trimmed', '1')
    redis.call('DEL', KEYS[2])
end
return 1
"""

# Reads a game's header and its stream's length in one step: a header whose version disagrees with
# its stream is then seen as it is (between two reads, an append would seem one). A key of another
# type is answered, not raised, so that the damage is named: {'wrongtype', which, header}.
_READ_SCRIPT = """
local header = redis.pcall('HGETALL', KEYS[1])
if type(header) == 'table' and header.err then return {'wrongtype', 'header', {}} end
local length = redis.pcall('XLEN', KEYS[2])
if type(length) == 'table' and length.err then return {'wrongtype', 'stream', header} end
return {'ok', length, header}
"""

# Stores a whole imported record into the game just created for it: its events (ARGV[1] of them,
# each as body, at, hash), then the header's fields (the rest of ARGV, as field, value pairs). A
# script, not MULTI, so that on a cluster its reply waits for a replica like an append's.
_IMPORT_SCRIPT = """
local count = tonumber(ARGV[1])
for seq = 1, count do
    local at = 2 + (seq - 1) * 3
    redis.call('XADD', KEYS[2], '0-' .. seq, 'body', ARGV[at], 'at', ARGV[at + 1],
               'hash', ARGV[at + 2])
end
redis.call('HSET', KEYS[1], unpack(ARGV, 2 + count * 3))
return count
"""


# The header's fields that say what was played: what export writes and import reads back.
HEADER_FIELDS = (
    "game",
    "players",
    "seed",
    "seed_salt",
    "seed_commitment",
    "options",
    "rules_version",
)


@dataclass(frozen=True)
class GameRecord:
    """A game's header as stored, with its current version and status.

    ``seed_salt`` and ``seed_commitment`` are None in a record of format 1
    (``service.store.chain``). The tokens are kept as SHA-256 digests only: the recorder's, and one
    per seat.
    """

    id: str
    game: str
    players: list[str]
    seed: int
    seed_salt: str | None
    seed_commitment: str | None
    options: dict[str, Any]
    rules_version: str
    record_format: int
    created_at: str
    version: int
    status: str
    head_hash: str
    token_sha256: str
    seat_tokens_sha256: list[str]
    # Per seat, the generation its token was derived at from the recorder's token (0 at
    # creation, one more at each replacement), so that the recorder can show the links again;
    # -1 for a token drawn at random (every seat of a record made before links could be shown
    # again).
    seat_token_generations: list[int] | None = None
    finished_at: str | None = None
    result: dict[str, Any] | None = None
    # Why the archive job refused this game (its replay disagreed with the record), if it did.
    archive_problem: str | None = None
    # The stream was dropped once the archive was verified: events are read from the archive.
    trimmed: bool = False
    # A retraction undid the game's finish: the figures counted then wait to be withdrawn.
    reopened: bool = False

    @property
    def over(self) -> bool:
        """Finished (or archived): everyone may then see everything. An abandoned game is not
        over: it ended without a result, and its secrets stay kept."""
        return self.status in ("finished", "archived")

    @property
    def header(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in HEADER_FIELDS}


class DamagedRecordError(TabletapeError):
    """A stored record fails its own checks: a header field or an event does not decode, or the
    game's rules refuse a stored event. The service is at fault, for that game alone."""

    def __init__(self, game_id: str, problems: list[str], details: dict[str, Any]) -> None:
        message = f"the stored record of game {game_id} is damaged: {'; '.join(problems)}"
        super().__init__(message, details)
        # Each in the words of an audit's problem.
        self.problems = problems


def damaged_header(game_id: str, fields: Mapping[str, str]) -> DamagedRecordError:
    """The error of a header whose ``fields`` (name -> what is wrong with it) do not decode; the
    names ``header`` and ``stream`` stand for the keys themselves."""
    problems = [
        f"the {name} {why}" if name in WHOLE_KEYS else f"header field {name!r} {why}"
        for name, why in fields.items()
    ]
    return DamagedRecordError(game_id, problems, {"fields": dict(fields)})


# The names a DamagedHeader gives its keys when the damage is not one field's.
WHOLE_KEYS = ("header", "stream")
OTHER_TYPE = "is a key of another type"


def damaged_idempotency_record(game_id: str, key: str) -> DamagedRecordError:
    return DamagedRecordError(
        game_id,
        [f"the record of idempotency key {key!r} does not decode"],
        {"idempotency_key": key},
    )


def damaged_event(game_id: str, seq: int, why: str) -> DamagedRecordError:
    return DamagedRecordError(game_id, [f"event {seq} does not decode: {why}"], {"seq": seq})


@dataclass(frozen=True)
class DamagedHeader:
    """A stored header that does not decode into a GameRecord, with what the archive job and the
    recovery read of it: they leave such a game alone once it is marked."""

    id: str
    # Field name -> what is wrong with it.
    problems: dict[str, str]
    status: str | None
    archive_problem: str | None

    def error(self) -> DamagedRecordError:
        return damaged_header(self.id, self.problems)


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    body: dict[str, Any]
    at: str
    hash: str

    def as_json(self) -> dict[str, Any]:
        return {"seq": self.seq, **self.body, "at": self.at, "hash": self.hash}


@dataclass(frozen=True)
class Appended:
    version: int


@dataclass(frozen=True)
class Replayed:
    """The idempotency key was used before: here is what was recorded for it."""

    record: str


@dataclass(frozen=True)
class Conflict:
    current_version: int


@dataclass(frozen=True)
class OtherHead:
    """The store's head at the expected version is not the one the event was chained to: the
    appending process remembers a write the store has lost."""


@dataclass(frozen=True)
class Finished:
    pass


@dataclass(frozen=True)
class Trimmed:
    """A retraction of a finished game's last move met a stream the archive replaced: it must be
    put back first (``restore_stream``)."""


@dataclass(frozen=True)
class Missing:
    pass


@dataclass(frozen=True)
class Revoked:
    """The header no longer holds the writer's token (a seat's link was replaced): nothing was
    appended, and a key used before is not replayed."""


AppendOutcome = Appended | Replayed | Conflict | OtherHead | Finished | Trimmed | Missing | Revoked


class EventStore:
    def __init__(
        self,
        client: StoreClient,
        prefix: str = "tt:",
        *,
        replica_wait_ms: int = DEFAULT_REPLICA_WAIT_MS,
    ) -> None:
        # The client must decode responses: every value here is text.
        self.redis = client
        self.prefix = prefix
        # On a cluster whose masters have replicas, a creation or an append is acknowledged once
        # a replica has it too, waiting up to ``replica_wait_ms`` for it (0: not at all).
        writes = acknowledged_writes(client, replica_wait_ms)
        self._create = writes.script(_CREATE_SCRIPT)
        self._append = writes.script(_APPEND_SCRIPT)
        self._import = writes.script(_IMPORT_SCRIPT)
        self._restore = writes.script(_RESTORE_SCRIPT)
        self._mark_archived = client.register_script(_MARK_ARCHIVED_SCRIPT)
        self._read = client.register_script(_READ_SCRIPT)

    # Keys -----------------------------------------------------------------------------------------
    def _header_key(self, game_id: str) -> str:
        return f"{self.prefix}{{{game_id}}}:header"

    def _events_key(self, game_id: str) -> str:
        return f"{self.prefix}{{{game_id}}}:events"

    def _idempotency_key(self, game_id: str, key: str, owner: str) -> str:
        # A key belongs to the viewer who used it (``owner``: "recorder", "seat0"...): another
        # viewer's same key is another request, and tells it nothing of the first.
        return f"{self.prefix}{{{game_id}}}:idem:{owner}:{key}"

    def _index_key(self, kind: str = "all", value: str = "") -> str:
        return f"{self.prefix}games:{kind}:{value}" if value else f"{self.prefix}games:{kind}"

    # Games ----------------------------------------------------------------------------------------
    def create(self, record: GameRecord) -> bool:
        """Store a new game's header and index it; False if the id is taken."""
        fields = {
            "game": record.game,
            "players": orjson.dumps(record.players).decode(),
            "seed": str(record.seed),
            "seed_salt": record.seed_salt or "",
            "seed_commitment": record.seed_commitment or "",
            "options": orjson.dumps(record.options).decode(),
            "rules_version": record.rules_version,
            "record_format": str(record.record_format),
            "created_at": record.created_at,
            "version": "0",
            "status": record.status,
            "head_hash": record.head_hash,
            "token_sha256": record.token_sha256,
            "seat_tokens_sha256": orjson.dumps(record.seat_tokens_sha256).decode(),
            "seat_token_generations": orjson.dumps(record.seat_token_generations or []).decode(),
        }
        pairs = [item for field_value in fields.items() for item in field_value]
        if not self._create(keys=[self._header_key(record.id)], args=pairs):
            return False
        # Listed once stored: an index never names a game that is not there yet.
        serial = self.redis.incr(self._index_key("serial"))
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(self._index_key(), {record.id: serial})
        pipe.zadd(self._index_key("game", record.game), {record.id: serial})
        for name in set(record.players):
            pipe.zadd(self._index_key("player", name), {record.id: serial})
        if record.seed_commitment:
            pipe.hsetnx(self._index_key("commitments"), record.seed_commitment, record.id)
        pipe.sadd(self._index_key("played", played_digest(record.header)), record.id)
        pipe.execute()
        return True

    def claim_commitment(self, commitment: str, game_id: str) -> str | None:
        """Claim a seed commitment for a game about to be imported: None once it is this game's,
        else the id of the game that holds it (a record imported twice makes one game). A claim
        whose game was never stored (an import that died between the two) is taken over."""
        return self._claim("commitments", commitment, game_id)

    def claim_record(self, digest: str, game_id: str) -> str | None:
        """Claim what a record records (``chain.record_digest``) for a game about to be
        imported, as ``claim_commitment`` claims its commitment: of two imports of one record at
        once, whatever their salt or format, one makes the game and the other is named it."""
        return self._claim("records", digest, game_id)

    def _claim(self, index: str, value: str, game_id: str) -> str | None:
        key = self._index_key(index)
        if self.redis.hsetnx(key, value, game_id):
            return None
        held: str | None = self.redis.hget(key, value)
        if held is not None and held != game_id and self.find(held) is not None:
            return held
        self.redis.hset(key, value, game_id)
        return None

    def games_played_from(self, header: Mapping[str, Any]) -> list[str]:
        """The ids of the games played from what ``header`` says (the same game, players, seed,
        options and rules), imported or made here: ``create`` indexes each."""
        return sorted(self.redis.smembers(self._index_key("played", played_digest(header))))

    def index_commitments(self, records: list[GameRecord]) -> None:
        """Index the commitments of games stored before the index was kept (the recovery does
        this as it goes over every game), and what each is played from, so that their imports
        are recognised too."""
        pipe = self.redis.pipeline(transaction=False)
        for record in records:
            if record.seed_commitment:
                pipe.hsetnx(self._index_key("commitments"), record.seed_commitment, record.id)
            pipe.sadd(self._index_key("played", played_digest(record.header)), record.id)
        pipe.execute()

    def get(self, game_id: str) -> GameRecord | None:
        """The game's record; None if there is none, DamagedRecordError if it does not decode."""
        found = self.find(game_id)
        if isinstance(found, DamagedHeader):
            raise found.error()
        return found

    def find(self, game_id: str) -> GameRecord | DamagedHeader | None:
        """The game's record, or what is wrong with it (its header, or a stream that disagrees
        with the header's version), or None if there is none."""
        keys = [self._header_key(game_id), self._events_key(game_id)]
        return _read_record(game_id, self._undecoded(self._read, keys))

    def _undecoded(self, script: Script, keys: Sequence[str]) -> Any:
        """``script``'s reply, its texts decoded here (``_text``) rather than by the client."""

        def run() -> Any:
            command = ("EVALSHA", script.sha, len(keys), *keys)
            return self.redis.execute_command(*command, **{NEVER_DECODE: True})

        try:
            reply = run()
        except NoScriptError:
            # A server that restarted or flushed its scripts: loaded again, as redis-py does.
            script.sha = self.redis.script_load(script.script)
            reply = run()
        return _text(reply)

    def get_many(self, game_ids: list[str]) -> list[GameRecord | DamagedHeader | None]:
        """``find`` for each id, in one round trip (a cluster's pipeline takes no script): each
        header, then its stream's length. An append between the two makes the stream look
        longer, never shorter: a game whose stream looks longer is read again, in one step."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.execute_command("HGETALL", self._header_key(game_id), **{NEVER_DECODE: True})
            pipe.xlen(self._events_key(game_id))
        replies = pipe.execute(raise_on_error=False)
        found: list[GameRecord | DamagedHeader | None] = []
        for index, game_id in enumerate(game_ids):
            header, length = replies[2 * index], replies[2 * index + 1]
            if isinstance(header, redis.ResponseError):
                reply: list[Any] = ["wrongtype", "header", []]
            elif isinstance(length, redis.ResponseError):
                reply = ["wrongtype", "stream", _flat(header)]
            else:
                reply = ["ok", length, _flat(_text(header))]
            record = _read_record(game_id, reply)
            if isinstance(record, DamagedHeader) and "version" in record.problems:
                record = self.find(game_id)
            found.append(record)
        return found

    def mark_archived(self, game_id: str, version: int, *, trim: bool = False) -> bool:
        """The game is archived, if it is still finished at ``version`` (False: it was reopened
        meanwhile); with ``trim`` its stream is dropped (reads go to the archive)."""
        keys = [self._header_key(game_id), self._events_key(game_id)]
        return bool(self._mark_archived(keys=keys, args=[str(version), "1" if trim else "0"]))

    def restore_stream(self, game_id: str, events: list[StoredEvent]) -> None:
        """Put a trimmed game's events back into its stream, from its archive: its finish can
        then be retracted as any game's."""
        args = [item for e in events for item in (canonical_json(e.body), e.at, e.hash)]
        self._restore(keys=[self._header_key(game_id), self._events_key(game_id)], args=args)

    def clear_reopened(self, game_id: str) -> None:
        """The figures of the finish a retraction undid are withdrawn."""
        self.redis.hdel(self._header_key(game_id), "reopened")

    def replace_seat_token(self, game_id: str, digests: list[str], generations: list[int]) -> None:
        """Store a game's seat tokens anew (a seat's link replaced): the old token stops working
        at once, since every request reads the header."""
        self.redis.hset(
            self._header_key(game_id),
            mapping={
                "seat_tokens_sha256": orjson.dumps(digests).decode(),
                "seat_token_generations": orjson.dumps(generations).decode(),
            },
        )

    def mark_archive_problem(self, game_id: str, problem: str) -> None:
        self.redis.hset(self._header_key(game_id), "archive_problem", problem)

    PAGE = 100

    def newest(
        self, *, game: str = "", player: str = "", below: int | None = None
    ) -> list[tuple[str, int]]:
        """Up to PAGE game ids with their creation serial, newest first, below a serial."""
        if player:
            key = self._index_key("player", player)
        elif game:
            key = self._index_key("game", game)
        else:
            key = self._index_key()
        top = f"({below}" if below is not None else "+inf"
        rows = self.redis.zrevrangebyscore(
            key, top, "-inf", start=0, num=self.PAGE, withscores=True
        )
        return [(game_id, int(serial)) for game_id, serial in rows]

    # Events ---------------------------------------------------------------------------------------
    def events(self, game_id: str, first: int = 1, last: int | None = None) -> list[StoredEvent]:
        """Events ``first..last`` (1-based, inclusive; ``last`` None for all that follow);
        DamagedRecordError names the first that does not decode."""
        if last is not None and last < first:
            return []
        upper = f"0-{last}" if last is not None else "+"
        try:
            entries = self.redis.execute_command(
                "XRANGE", self._events_key(game_id), f"0-{first}", upper, **{NEVER_DECODE: True}
            )
        except redis.ResponseError as error:
            if "WRONGTYPE" not in str(error):
                raise
            raise damaged_header(game_id, {"stream": OTHER_TYPE}) from None
        events = []
        for seq, (entry_id, fields) in enumerate(_text(entries), start=first):
            # Event N is the entry 0-N: an entry anywhere else was moved behind the service's back.
            if entry_id != f"0-{seq}":
                raise damaged_event(game_id, seq, f"the stream holds entry {entry_id} in its place")
            events.append(_stored_event(game_id, entry_id, fields))
        return events

    def wait_events(
        self,
        game_id: str,
        after_seq: int,
        block_ms: int,
        *,
        client: redis.Redis | None = None,
        count: int = 500,
    ) -> list[StoredEvent]:
        """Up to ``count`` events after ``after_seq``, at once if there are any, else waiting up
        to ``block_ms`` for one to be appended (XREAD BLOCK); [] if none came.

        A wait holds its connection: pass ``client`` (see ``blocking_client``) to hold one of its
        own rather than one of the shared pool's.
        """
        key = self._events_key(game_id)
        if client is not None:
            # On a cluster, the node serving the game's slot: the client follows it there.
            aim(client, self.redis, key)
        # Undecoded, as every read of a record (``_text``): an event that is not UTF-8 is named.
        reply = _text(
            (client or self.redis).execute_command(
                "XREAD", "COUNT", count, "BLOCK", max(1, block_ms), "STREAMS", key,
                f"0-{after_seq}", **{NEVER_DECODE: True},
            )
        )  # fmt: skip
        if isinstance(reply, dict):  # RESP3: {key: [entries]}
            entries = (reply.get(key) or [[]])[0]
        else:  # RESP2: [[key, entries]], or nothing
            entries = next((found for name, found in reply or [] if name == key), [])
        return [_stored_event(game_id, entry_id, fields) for entry_id, fields in entries]

    def blocking_client(self, game_id: str = "", name: str | None = None) -> redis.Redis:
        """A client of the server that holds the game's events (on a cluster, the node serving
        its slot), with the same options and a single connection of its own: for long waits that
        must not hold the shared pool's connections; ``name``: its connection's name, else the
        store's. Its owner closes it with ``client.connection_pool.disconnect()``. Made without a
        game, it is pointed at the right node by ``wait_events`` itself."""
        return blocking_client(self.redis, self._events_key(game_id), name)

    def append(
        self,
        game_id: str,
        *,
        expected_version: int,
        expected_head: str,
        canonical_body: str,
        at: str,
        hash: str,
        result: dict[str, Any] | None,
        writer: str,
        token_sha256: str,
        change: str = "",
        idempotency_key: str | None = None,
        idempotency_owner: str = "",
        idempotency_record: str = "",
    ) -> AppendOutcome:
        """Append one event at ``expected_version``, by ``writer`` ("recorder", or a seat's
        index) whose token's digest the header must still hold (else ``Revoked``); ``change`` is
        "abandon" for an abandonment, "reopen" for a retraction of a finished game's last move."""
        keys = [self._header_key(game_id), self._events_key(game_id)]
        args: list[str | int] = [
            str(expected_version), canonical_body, at, hash, expected_head, writer, token_sha256
        ]  # fmt: skip
        result_json = orjson.dumps(result).decode() if result is not None else ""
        if idempotency_key:
            keys.append(self._idempotency_key(game_id, idempotency_key, idempotency_owner))
            args += [result_json, change, idempotency_record, IDEMPOTENCY_TTL_SECONDS]
        elif change:
            args += [result_json, change]
        elif result_json:
            args.append(result_json)
        try:
            reply = self._append(keys=keys, args=args)
        except redis.ResponseError as error:
            if "WRONGTYPE" in str(error):
                raise self._wrong_type(game_id, idempotency_key, idempotency_owner) from None
            # The only other error the script can meet: an entry already at the next seq's id.
            if "equal or smaller" not in str(error):
                raise
            raise damaged_header(
                game_id, {"version": f"is {expected_version}, behind the events in the stream"}
            ) from None
        except UnicodeDecodeError:
            # The script answered with stored text that is not UTF-8 (a version, a record).
            raise self._damage(game_id, idempotency_key) from None
        match reply:
            case ["appended", seq]:
                return Appended(int(seq))
            case ["replayed", record]:
                return Replayed(record)
            case ["conflict", current] if _INTEGER.fullmatch(current):
                return Conflict(int(current))
            case ["conflict", _]:
                raise damaged_header(game_id, {"version": "is not an integer"})
            case ["other_head", _]:
                return OtherHead()
            case ["finished"]:
                return Finished()
            case ["revoked"]:
                return Revoked()
            case ["trimmed"]:
                return Trimmed()
            case _:
                return Missing()

    def _wrong_type(self, game_id: str, key: str | None, owner: str) -> DamagedRecordError:
        """The damage an append met as a key of another type: its idempotency record's, else
        the header's or the stream's."""
        if key and self.redis.type(self._idempotency_key(game_id, key, owner)) not in (
            "string",
            "none",
        ):
            return damaged_idempotency_record(game_id, key)
        return self._damage(game_id, None)

    def _damage(self, game_id: str, key: str | None) -> DamagedRecordError:
        """What is damaged in a game an append could not read: its header or stream if they do
        not decode, else the idempotency record of ``key``."""
        found = self.find(game_id)
        if isinstance(found, DamagedHeader):
            return found.error()
        if key:
            return damaged_idempotency_record(game_id, key)
        return damaged_header(game_id, {"header": "holds text that is not UTF-8"})

    def import_events(
        self,
        record: GameRecord,
        bodies: list[dict[str, Any]],
        *,
        ats: list[str],
        status: str,
        result: dict[str, Any] | None,
        finished_at: str | None,
    ) -> GameRecord:
        """Store a whole validated record's events, each at its ``at``, into a game just created
        for it, in one step (acknowledged as an append is: on a cluster with replicas, once a
        replica has it); ``status`` is the one its replay ends in."""
        head = record.head_hash
        events: list[str] = []
        for seq, (body, at) in enumerate(zip(bodies, ats, strict=True), start=1):
            head = event_hash(head, seq, at, body, record.record_format)
            events += [canonical_json(body), at, head]
        fields = {"version": str(len(bodies)), "head_hash": head, "status": status}
        if result is not None and finished_at is not None:
            fields.update(finished_at=finished_at, result=orjson.dumps(result).decode())
        pairs = [item for field_value in fields.items() for item in field_value]
        self._import(
            keys=[self._header_key(record.id), self._events_key(record.id)],
            args=[str(len(bodies)), *events, *pairs],
        )
        imported = self.get(record.id)
        assert imported is not None
        return imported

    def idempotency_record(self, game_id: str, key: str, owner: str) -> str | None:
        """The record of a keyed append, as stored (DamagedRecordError for a key of another
        type; text that is not UTF-8 keeps its bytes as surrogates, and does not decode)."""
        try:
            value = self.redis.execute_command(
                "GET", self._idempotency_key(game_id, key, owner), **{NEVER_DECODE: True}
            )
        except redis.ResponseError as error:
            if "WRONGTYPE" not in str(error):
                raise
            raise damaged_idempotency_record(game_id, key) from None
        text: str | None = _text(value)
        return text

    def ping(self) -> bool:
        return bool(self.redis.ping())


def _check_rules(game: str | None, rules_version: str | None, problems: dict[str, str]) -> None:
    """A record is played by a game of this service, under the rules it plays: a header naming
    another game or another version of the rules is damaged (it was checked at creation)."""
    if game is None:
        return
    try:
        rules = get_game(game)
    except UnknownGameError:
        problems["game"] = f"is {game!r}, no game played here"
        return
    if rules_version is not None and rules_version != rules.rules_version:
        problems["rules_version"] = (
            f"is {rules_version!r}, not {rules.rules_version!r}, the rules played here"
        )


def _flat(fields: Mapping[str, str]) -> list[str]:
    """A hash as the read script gives it: field, value, field, value..."""
    return [item for pair in fields.items() for item in pair]


def _read_record(game_id: str, reply: list[Any]) -> GameRecord | DamagedHeader | None:
    """A record from the read script's reply, checked against its stream's length."""
    outcome, second, flat = reply
    fields = dict(zip(flat[::2], flat[1::2], strict=True))
    if outcome == "wrongtype":
        return DamagedHeader(
            game_id, {second: OTHER_TYPE}, fields.get("status"), fields.get("archive_problem")
        )
    record = _record(game_id, fields)
    length = int(second)
    # An archive that replaced the stream (trimmed) leaves none to count.
    if isinstance(record, GameRecord) and not record.trimmed and length != record.version:
        return DamagedHeader(
            game_id,
            {"version": f"is {record.version}, but the stream holds {length} events"},
            record.status,
            record.archive_problem,
        )
    return record


def _record(game_id: str, fields: Mapping[str, str]) -> GameRecord | DamagedHeader | None:
    # No header at all is no game (``create`` writes every field at once); a header without its
    # version is a damaged one.
    if not fields:
        return None
    header = _HeaderFields(fields)
    values = {
        "game": header.required("game"),
        "players": header.required("players", _text_list),
        "seed": header.required("seed", _seed),
        # Empty in a record of format 1, which has no commitment.
        "seed_salt": header.optional("seed_salt") or None,
        "seed_commitment": header.optional("seed_commitment") or None,
        "options": header.required("options", _json_object),
        "rules_version": header.required("rules_version"),
        "record_format": header.optional("record_format", _record_format) or LEGACY_FORMAT,
        "created_at": header.required("created_at", _instant),
        "version": header.required("version", _integer),
        "status": header.required("status", _status),
        "head_hash": header.required("head_hash"),
        "token_sha256": header.required("token_sha256"),
        "seat_tokens_sha256": header.optional("seat_tokens_sha256", _text_list) or [],
        "seat_token_generations": header.optional("seat_token_generations", _int_list) or None,
        "finished_at": header.optional("finished_at"),
        "result": header.optional("result", _json_object),
        "archive_problem": header.optional("archive_problem"),
        "trimmed": fields.get("trimmed") == "1",
        "reopened": fields.get("reopened") == "1",
    }
    _check_rules(values["game"], values["rules_version"], header.problems)
    if header.problems:
        return DamagedHeader(
            game_id, header.problems, fields.get("status"), fields.get("archive_problem")
        )
    return GameRecord(id=game_id, **values)


class _HeaderFields:
    """Decodes a stored header's fields one at a time, noting each that does not decode."""

    def __init__(self, fields: Mapping[str, str]) -> None:
        self.fields = fields
        # Field name -> what is wrong with it.
        self.problems: dict[str, str] = {
            name: "is not UTF-8 text" for name, raw in fields.items() if _not_utf8(raw)
        }

    def required(self, name: str, decode: Callable[[str], Any] = str) -> Any:
        if name not in self.fields:
            self.problems[name] = "is missing"
        return self.optional(name, decode)

    def optional(self, name: str, decode: Callable[[str], Any] = str) -> Any:
        """The decoded field, or None when it is absent or does not decode."""
        raw = self.fields.get(name)
        if raw is None or name in self.problems:
            return None
        try:
            return decode(raw)
        except ValueError as error:
            self.problems[name] = str(error)
            return None


_INTEGER = re.compile(r"-?[0-9]+")
# What a game may be: "abandoned" is set aside without a result, and counted nowhere.
STATUSES = ("active", "finished", "archived", "abandoned")

# Each decoder raises ValueError saying what is wrong, in words that follow the field's name.


def _integer(raw: str) -> int:
    # Stricter than int(), which takes spaces, underscores and other digits than ASCII.
    if not _INTEGER.fullmatch(raw):
        raise ValueError("is not an integer")
    return int(raw)


# The seed is an unsigned 64-bit integer (spec/determinism.md).
_SEEDS = range(2**64)


def _seed(raw: str) -> int:
    value = _integer(raw)
    if value not in _SEEDS:
        raise ValueError("is not an unsigned 64-bit integer")
    return value


# An RFC 3339 instant in UTC, as the service writes them (2025-02-03T10:00:00.123Z) or an import
# keeps them; the date and time must exist too.
_INSTANT = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-]00:00)"
)


def _instant(raw: str) -> str:
    if not _INSTANT.fullmatch(raw):
        raise ValueError("is not an RFC 3339 UTC instant")
    try:
        datetime.fromisoformat(raw.upper().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError("is not an instant that exists") from None
    return raw


def _text(value: Any) -> Any:
    """A reply read undecoded (``NEVER_DECODE``), as text: bytes that are not UTF-8 keep their
    bytes as lone surrogates (``surrogateescape``), so that the field they are in is named as
    damaged (``_not_utf8``) rather than the whole read failing."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    if isinstance(value, list | tuple):
        return [_text(item) for item in value]
    if isinstance(value, dict):
        return {_text(name): _text(item) for name, item in value.items()}
    return value


def _not_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _json(raw: str) -> Any:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ValueError("is not JSON") from None


def _json_object(raw: str) -> dict[str, Any]:
    value = _json(raw)
    if not isinstance(value, dict):
        raise ValueError("is not a JSON object")
    return value


def _text_list(raw: str) -> list[str]:
    value = _json(raw)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("is not a JSON list of strings")
    return value


def _int_list(raw: str) -> list[int]:
    value = _json(raw)
    if not isinstance(value, list) or not all(type(item) is int for item in value):
        raise ValueError("is not a JSON list of integers")
    return value


def _status(raw: str) -> str:
    if raw not in STATUSES:
        raise ValueError(f"is {raw!r}, not one of {', '.join(STATUSES)}")
    return raw


def _record_format(raw: str) -> int:
    value = _integer(raw)
    if value not in (LEGACY_FORMAT, FORMAT):
        raise ValueError(f"is {value}, not a record format this service reads")
    return value


def _stored_event(game_id: str, entry_id: str, fields: Mapping[str, str]) -> StoredEvent:
    seq = int(entry_id.partition("-")[2])
    try:
        body_json, at, hash = fields["body"], fields["at"], fields["hash"]
    except KeyError as missing:
        raise damaged_event(game_id, seq, f"it has no {missing.args[0]}") from None
    for name, value in (("body", body_json), ("at", at), ("hash", hash)):
        if _not_utf8(value):
            raise damaged_event(game_id, seq, f"its {name} is not UTF-8 text")
    try:
        body = orjson.loads(body_json)
    except orjson.JSONDecodeError:
        raise damaged_event(game_id, seq, "its body is not JSON") from None
    if not isinstance(body, dict):
        raise damaged_event(game_id, seq, "its body is not a JSON object")
    if not isinstance(body.get("type"), str):
        raise damaged_event(game_id, seq, "its body has no type")
    return StoredEvent(seq=seq, body=body, at=at, hash=hash)
