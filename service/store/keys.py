"""The key layout: every key a game or an index of games uses, built here and nowhere else.

Keys of one game share the hash tag ``{id}`` so that they live in one Redis Cluster slot and one
Lua script can touch them all atomically:

- ``<prefix>{id}:header``  hash: the record's header (game, players, seed, seed_salt,
  seed_commitment, options, rules_version, record_format, the tokens' digests), plus what changes
  as it is played: version, head_hash, status, finished_at, result, and ``reopened`` while
  the figures of a finish that a retraction undid wait to be withdrawn; an imported record's
  ``source_checkpoints`` (the signed notes it came with, JSON);
- ``<prefix>{id}:events``  stream: event N has the entry id ``0-N``, so a range of moves is a range
  of ids; fields ``body`` (the event's canonical JSON), ``at``, ``hash`` (``service.store.chain``);
- ``<prefix>{id}:idem:<owner>:<key>``  string: the response to an append made with that
  Idempotency-Key;
- ``<prefix>{id}:snapshots``  hash: version -> snapshot document (``service.store.snapshots``);
- ``<prefix>{id}:importing``  string, for a minute: an import has claimed a record for this game
  and is storing it (``service.store.indexes``).

Games are listed through sorted sets scored by when each was played (the millisecond of its
``finished_at``, else of its ``created_at``): ``<prefix>games:all``, ``<prefix>games:game:<game>``
and ``<prefix>games:player:<name>``; ``<prefix>games:commitments`` and ``<prefix>games:records``
(hashes) and ``<prefix>games:played:<digest>`` (sets) know the games an import would make twice
(``service.store.indexes`` says why none carries a hash tag). ``<prefix>archive:refused`` (a set)
holds the games the archive job refused (``service.store.queue``). ``<prefix>imports:<source>:<id>``
(a string) holds the game a play of another app became (``service.imports``);
``<prefix>imports-in-flight`` (a sorted set: a lease's id, scored by the millisecond it runs out)
counts the imports of other apps' plays running now (``service.store.import_slots``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Keys:
    """The keys of the games stored under ``prefix``."""

    prefix: str

    def header(self, game_id: str) -> str:
        return f"{self.prefix}{{{game_id}}}:header"

    def events(self, game_id: str) -> str:
        return f"{self.prefix}{{{game_id}}}:events"

    def idempotency(self, game_id: str, key: str, owner: str) -> str:
        # A key belongs to the viewer who used it (``owner``: "recorder", "seat0"...): another
        # viewer's same key is another request, and tells it nothing of the first.
        return f"{self.prefix}{{{game_id}}}:idem:{owner}:{key}"

    def snapshots(self, game_id: str) -> str:
        return f"{self.prefix}{{{game_id}}}:snapshots"

    def importing(self, game_id: str) -> str:
        return f"{self.prefix}{{{game_id}}}:importing"

    def index(self, kind: str = "all", value: str = "") -> str:
        return f"{self.prefix}games:{kind}:{value}" if value else f"{self.prefix}games:{kind}"

    def refused(self) -> str:
        return f"{self.prefix}archive:refused"

    def imports_in_flight(self) -> str:
        return f"{self.prefix}imports-in-flight"

    def imported_play(self, play: str) -> str:
        # A play of another app (``<source>:<id>``, service.imports): the game it became.
        return f"{self.prefix}imports:{play}"
