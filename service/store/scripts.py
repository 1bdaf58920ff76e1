"""The store's Lua scripts (``service/store/lua/*.lua``), registered on its client, each called by a
method that takes its arguments by name and lays them out as KEYS and ARGV in the order the
script reads them (the block at the top of each file names them).

Every script touches one game's keys alone (one slot). Those whose writes are acknowledged to a
client (creating a game, appending, importing, restoring a stream) go through
``service.store.connection.acknowledged_writes``, which on a cluster replies once a replica has the
write.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from typing import Any

from redis.client import NEVER_DECODE
from redis.exceptions import NoScriptError

from service.store.codec import encode_result, pairs, text
from service.store.connection import StoreClient, acknowledged_writes
from service.store.records import EventWrite


@cache
def lua_source(package: str, name: str) -> str:
    """The text of ``lua/<name>.lua`` shipped with ``package`` (read once per process): the
    store's scripts here, the statistics' in ``service/stats/lua/``."""
    return (files(package) / "lua" / f"{name}.lua").read_text(encoding="utf-8")


def source(name: str) -> str:
    """The text of the store's ``lua/<name>.lua``."""
    return lua_source(__package__, name)


def append_argv(write: EventWrite, ttl: int) -> list[bytes]:
    """The append script's ARGV, in the order its header lists them: always eleven, a part the
    append has not ('' for no result, no change, no idempotency record) sent as ''. Encoded here,
    as UTF-8 (the client's encoding): given text, the client would ask each argument its type on
    every append, which took as long as laying out the command itself."""
    texts = (
        str(write.expected_version),
        write.canonical_body,
        write.at,
        write.hash,
        write.expected_head,
        write.writer,
        write.token_sha256,
        encode_result(write.result),
        write.change,
        write.idempotency_record,
        str(ttl),
    )
    return [text.encode() for text in texts]


class Scripts:
    """The scripts of one store's client."""

    def __init__(self, client: StoreClient, replica_wait_ms: int) -> None:
        self.redis = client
        # On a cluster whose masters have replicas, a creation or an append is acknowledged once
        # a replica has it too, waiting up to ``replica_wait_ms`` for it (0: not at all).
        writes = acknowledged_writes(client, replica_wait_ms)
        self._create = writes.script(source("create"))
        self._append = writes.script(source("append"))
        self._create_imported = writes.script(source("create_imported"))
        self._restore = writes.script(source("restore"))
        self._mark_archived = client.register_script(source("mark_archived"))
        self._read = client.register_script(source("read"))

    def create(self, *, header: str, fields: dict[str, str]) -> bool:
        """Store a new game's header ``fields`` unless ``header`` exists: False if it does."""
        return bool(self._create(keys=[header], args=pairs(fields)))

    def append(
        self, *, header: str, events: str, idempotency: str | None, write: EventWrite, ttl: int
    ) -> Any:
        """Append one event (``lua/append.lua``); ``idempotency``: the record's key of a keyed
        append, else None; ``ttl``: that record's lifetime in seconds."""
        keys = [header, events] if idempotency is None else [header, events, idempotency]
        return self._append(keys=keys, args=append_argv(write, ttl))

    def restore(self, *, header: str, events: str, stream: list[str]) -> None:
        """Put back a trimmed game's ``stream`` (body, at, hash of each event, in order)."""
        self._restore(keys=[header, events], args=stream)

    def mark_archived(self, *, header: str, events: str, version: int, trim: bool) -> bool:
        return bool(
            self._mark_archived(keys=[header, events], args=[str(version), "1" if trim else "0"])
        )

    def create_imported(
        self,
        *,
        header: str,
        events: str,
        fields: dict[str, str],
        count: int,
        stream: list[str],
        ending: dict[str, str],
    ) -> bool:
        """Store a new game's header ``fields``, its ``count`` events (``stream``: body, at, hash
        of each) and the header's ``ending``, in one step, unless ``header`` exists: False if it
        does (``lua/create_imported.lua``)."""
        args = [str(len(fields)), str(count), *pairs(fields), *stream, *pairs(ending)]
        return bool(self._create_imported(keys=[header, events], args=args))

    def read(self, *, header: str, events: str) -> Any:
        """The read script's reply, its texts decoded here (``codec.text``) rather than by the
        client."""
        keys: Sequence[str] = [header, events]
        script = self._read

        def run() -> Any:
            command = ("EVALSHA", script.sha, len(keys), *keys)
            return self.redis.execute_command(*command, **{NEVER_DECODE: True})

        try:
            reply = run()
        except NoScriptError:
            # A server that restarted or flushed its scripts: loaded again, as redis-py does.
            script.sha = self.redis.script_load(script.script)
            reply = run()
        return text(reply)
