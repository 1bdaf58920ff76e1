"""The Redis event store: one stream of events per game, beside the game's header.

How an append is stored: ``EventStore.append`` hands the event, as one ``EventWrite``, to
``appends`` and its append script (``service/store/lua/append.lua``), which checks the game's
version, head and writer's token and writes the event, the header and the idempotency record in one
step. The rest of the store is in rooms of its own:

- ``keys``: the key layout (a game's keys share the hash tag ``{id}``: one Redis Cluster slot);
- ``records``: the values (``GameRecord``, ``StoredEvent``, what an append comes to) and
  ``codec``: how each is encoded into the stored text and decoded back, checked as it is;
- ``damage``: ``DamagedRecordError``, a record that fails its own checks, for that game alone;
- ``scripts``: the Lua scripts, with their arguments by name;
- ``indexes``: the listing of games and what an import must not make twice.

Every script and every MULTI touches one game's keys alone (one slot). Whether the client is a
plain Redis or a cluster is ``service.store.connection``'s business; writes acknowledged to a client
(creating a game, appending) go through its ``acknowledged_writes``, which on a cluster replies
once a replica has the write.

A record's keys are read undecoded (``NEVER_DECODE``), whatever client the store is given, and
decoded by ``codec``: bytes that are not UTF-8 are a damaged field or event, never an error that
stops a listing or a worker.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import orjson
import redis
from redis.client import NEVER_DECODE

from service.store.appends import Appends
from service.store.chain import event_hash
from service.store.codec import (
    RulesVersionOf,
    decode_event,
    decode_header,
    encode_ending,
    encode_event,
    encode_header,
    encode_result,
    encode_seat_tokens,
    pairs,
    rules_played_here,
    text,
)
from service.store.connection import DEFAULT_REPLICA_WAIT_MS, StoreClient, aim, blocking_client
from service.store.damage import (
    OTHER_TYPE,
    damaged_event,
    damaged_header,
    damaged_idempotency_record,
)
from service.store.indexes import GameIndexes
from service.store.keys import Keys
from service.store.records import AppendOutcome, DamagedHeader, EventWrite, GameRecord, StoredEvent
from service.store.scripts import Scripts


class EventStore:
    """How a game's record is written and read: its header, its events, its idempotency records.
    The keys are ``keys``'s, the bytes ``codec``'s, the listings ``indexes``'s, the appends
    ``appends``'s."""

    def __init__(
        self,
        client: StoreClient,
        prefix: str = "tt:",
        *,
        replica_wait_ms: int = DEFAULT_REPLICA_WAIT_MS,
        rules_version_of: RulesVersionOf = rules_played_here,
    ) -> None:
        # The client must decode responses: every value here is text.
        self.redis = client
        self.prefix = prefix
        self.keys = Keys(prefix)
        self.scripts = Scripts(client, replica_wait_ms)
        self.appends = Appends(client, self.keys, self.scripts, self.find)
        self.indexes = GameIndexes(
            client, self.keys, lambda game_id: self.find(game_id) is not None
        )
        # Who asks the game registry: the store, for the one thing it needs, the rules version a
        # game is played under here (``rules_version_of``, the registry's by default), so that a
        # header naming another game or other rules is damaged wherever it is read: in a listing,
        # by the archive job and the recovery, which have no use case in front of them. The use
        # cases ask the registry for the game itself, to play it (``GameService._rules``); they
        # need not check the name again: a record the store hands them names a game played here.
        self._rules_version_of = rules_version_of

    # Games ----------------------------------------------------------------------------------------
    def create(self, record: GameRecord) -> bool:
        """Store a new game's header and index it; False if the id is taken. An import's game is
        made whole by ``create_imported``."""
        if not self.scripts.create(
            header=self.keys.header(record.id), fields=encode_header(record)
        ):
            return False
        self.indexes.add(record)
        return True

    def get(self, game_id: str) -> GameRecord | None:
        """The game's record; None if there is none, DamagedRecordError if it does not decode."""
        found = self.find(game_id)
        if isinstance(found, DamagedHeader):
            raise found.error()
        return found

    def find(self, game_id: str) -> GameRecord | DamagedHeader | None:
        """The game's record, or what is wrong with it (its header, or a stream that disagrees
        with the header's version), or None if there is none."""
        reply = self.scripts.read(
            header=self.keys.header(game_id), events=self.keys.events(game_id)
        )
        return decode_header(game_id, reply, self._rules_version_of)

    def get_many(self, game_ids: list[str]) -> list[GameRecord | DamagedHeader | None]:
        """``find`` for each id, in one round trip (a cluster's pipeline takes no script): each
        header, then its stream's length. An append between the two makes the stream look
        longer, never shorter: a game whose stream looks longer is read again, in one step."""
        pipe = self.redis.pipeline(transaction=False)
        for game_id in game_ids:
            pipe.execute_command("HGETALL", self.keys.header(game_id), **{NEVER_DECODE: True})
            pipe.xlen(self.keys.events(game_id))
        replies = pipe.execute(raise_on_error=False)
        found: list[GameRecord | DamagedHeader | None] = []
        for index, game_id in enumerate(game_ids):
            header, length = replies[2 * index], replies[2 * index + 1]
            if isinstance(header, redis.ResponseError):
                reply: list[Any] = ["wrongtype", "header", []]
            elif isinstance(length, redis.ResponseError):
                reply = ["wrongtype", "stream", pairs(header)]
            else:
                reply = ["ok", length, pairs(text(header))]
            record = decode_header(game_id, reply, self._rules_version_of)
            if isinstance(record, DamagedHeader) and "version" in record.problems:
                record = self.find(game_id)
            found.append(record)
        return found

    def mark_archived(self, game_id: str, version: int, *, trim: bool = False) -> bool:
        """The game is archived, if it is still finished at ``version`` (False: it was reopened
        meanwhile); with ``trim`` its stream is dropped (reads go to the archive)."""
        return self.scripts.mark_archived(
            header=self.keys.header(game_id),
            events=self.keys.events(game_id),
            version=version,
            trim=trim,
        )

    def restore_stream(self, game_id: str, events: list[StoredEvent]) -> None:
        """Put a trimmed game's events back into its stream, from its archive: its finish can
        then be retracted as any game's."""
        self.scripts.restore(
            header=self.keys.header(game_id),
            events=self.keys.events(game_id),
            stream=[item for e in events for item in encode_event(e.body, e.at, e.hash)],
        )

    def clear_reopened(self, game_id: str) -> None:
        """The figures of the finish a retraction undid are withdrawn."""
        self.redis.hdel(self.keys.header(game_id), "reopened")

    def replace_seat_token(self, game_id: str, digests: list[str], generations: list[int]) -> None:
        """Store a game's seat tokens anew (a seat's link replaced): the old token stops working
        at once, since every request reads the header."""
        self.redis.hset(self.keys.header(game_id), mapping=encode_seat_tokens(digests, generations))

    def mark_archive_problem(self, game_id: str, problem: str) -> None:
        self.redis.hset(self.keys.header(game_id), "archive_problem", problem)

    # Events ---------------------------------------------------------------------------------------
    def events(self, game_id: str, first: int = 1, last: int | None = None) -> list[StoredEvent]:
        """Events ``first..last`` (1-based, inclusive; ``last`` None for all that follow);
        DamagedRecordError names the first that does not decode."""
        if last is not None and last < first:
            return []
        upper = f"0-{last}" if last is not None else "+"
        try:
            entries = self.redis.execute_command(
                "XRANGE", self.keys.events(game_id), f"0-{first}", upper, **{NEVER_DECODE: True}
            )
        except redis.ResponseError as error:
            if "WRONGTYPE" not in str(error):
                raise
            raise damaged_header(game_id, {"stream": OTHER_TYPE}) from None
        events = []
        for seq, (entry_id, fields) in enumerate(text(entries), start=first):
            # Event N is the entry 0-N: an entry anywhere else was moved behind the service's back.
            if entry_id != f"0-{seq}":
                raise damaged_event(game_id, seq, f"the stream holds entry {entry_id} in its place")
            events.append(decode_event(game_id, entry_id, fields))
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
        key = self.keys.events(game_id)
        if client is not None:
            # On a cluster, the node serving the game's slot: the client follows it there.
            aim(client, self.redis, key)
        # Undecoded, as every read of a record (``text``): an event that is not UTF-8 is named.
        reply = text(
            (client or self.redis).execute_command(
                "XREAD", "COUNT", count, "BLOCK", max(1, block_ms), "STREAMS", key,
                f"0-{after_seq}", **{NEVER_DECODE: True},
            )
        )  # fmt: skip
        if isinstance(reply, dict):  # RESP3: {key: [entries]}
            entries = (reply.get(key) or [[]])[0]
        else:  # RESP2: [[key, entries]], or nothing
            entries = next((found for name, found in reply or [] if name == key), [])
        return [decode_event(game_id, entry_id, fields) for entry_id, fields in entries]

    def blocking_client(self, game_id: str = "", name: str | None = None) -> redis.Redis:
        """A client of the server that holds the game's events (on a cluster, the node serving
        its slot), with the same options and a single connection of its own: for long waits that
        must not hold the shared pool's connections; ``name``: its connection's name, else the
        store's. Its owner closes it with ``client.connection_pool.disconnect()``. Made without a
        game, it is pointed at the right node by ``wait_events`` itself."""
        return blocking_client(self.redis, self.keys.events(game_id), name)

    def append(self, game_id: str, write: EventWrite) -> AppendOutcome:
        """Append one event, as ``write`` says (``appends.Appends``)."""
        return self.appends.append(game_id, write)

    def create_imported(
        self,
        record: GameRecord,
        bodies: list[dict[str, Any]],
        *,
        ats: list[str],
        status: str,
        result: dict[str, Any] | None,
        finished_at: str | None,
        source_checkpoints: list[dict[str, Any]] | None = None,
        play: str | None = None,
    ) -> GameRecord | None:
        """A new game made whole in one step: its header, its events (each at its ``at``) and its
        ending (``status``, the one its replay ends in; the notes it came with,
        ``source_checkpoints``), by one script, so that a game is never stored without its events,
        acknowledged as an append is (on a cluster with replicas, once a replica has it); then
        indexed, where its play ended. None if the id is taken. ``play``: the play of another
        app (``<source>:<id>``) the record comes from, whose claim is settled with the game's id
        in the round trip that indexes it (``GameIndexes.settle_play``)."""
        head = record.head_hash
        stream: list[str] = []
        for seq, (body, at) in enumerate(zip(bodies, ats, strict=True), start=1):
            head = event_hash(head, seq, at, body, record.record_format)
            stream += encode_event(body, at, head)
        if not self.scripts.create_imported(
            header=self.keys.header(record.id),
            events=self.keys.events(record.id),
            fields=encode_header(record),
            count=len(bodies),
            stream=stream,
            ending=encode_ending(
                len(bodies), head, status, result, finished_at, source_checkpoints
            ),
        ):
            return None
        # The record as the store now holds it, without reading it back (a round trip a game,
        # and its decoding): the result and notes as JSON gives them back.
        kept: dict[str, Any] = {"version": len(bodies), "head_hash": head, "status": status}
        if result is not None and finished_at is not None:
            kept.update(finished_at=finished_at, result=orjson.loads(encode_result(result)))
        if source_checkpoints:
            kept["source_checkpoints"] = orjson.loads(orjson.dumps(source_checkpoints))
        imported = replace(record, **kept)
        self.indexes.add(imported, play=play)
        return imported

    def idempotency_record(self, game_id: str, key: str, owner: str) -> str | None:
        """The record of a keyed append, as stored (DamagedRecordError for a key of another
        type; text that is not UTF-8 keeps its bytes as surrogates, and does not decode)."""
        try:
            value = self.redis.execute_command(
                "GET", self.keys.idempotency(game_id, key, owner), **{NEVER_DECODE: True}
            )
        except redis.ResponseError as error:
            if "WRONGTYPE" not in str(error):
                raise
            raise damaged_idempotency_record(game_id, key) from None
        decoded: str | None = text(value)
        return decoded

    def ping(self) -> bool:
        return bool(self.redis.ping())
