"""The roster in Redis: an append-only log of its changes, and the roster they leave.

Keys, under ``<prefix>{players}`` (one hash tag: one slot of a Redis Cluster, so a change and
its projection are written in one MULTI):

- ``:changes`` list: each change as JSON ``{"at", "name", "player"}`` (``player`` null: the name
  counts as itself again), oldest first, never rewritten. Its length is the roster's version;
- ``:roster`` hash: name -> its player, for the names that count as another: the fold of the
  changes (``domain.roster.folded``), kept so that a read is one HGETALL.

The statistics record which version they were counted with (``service.stats.rebuild``): when it
is not the roster's, a recount is due (``workers.roster``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import redis

from domain.roster import Roster, RosterChange, applied, folded
from service.store.connection import StoreClient

# The hash tag of the roster's keys.
ROOT = "{players}"


@dataclass(frozen=True)
class RosterKeys:
    prefix: str

    @property
    def changes(self) -> str:
        return f"{self.prefix}{ROOT}:changes"

    @property
    def roster(self) -> str:
        return f"{self.prefix}{ROOT}:roster"


@dataclass(frozen=True)
class Versioned:
    """The roster, and how many changes made it."""

    roster: Roster
    version: int


def current(client: StoreClient, prefix: str) -> Versioned:
    """The roster now (its projection), and its version, read together."""
    keys = RosterKeys(prefix)
    with client.pipeline(transaction=True) as pipe:
        pipe.hgetall(keys.roster)
        pipe.llen(keys.changes)
        players, version = pipe.execute()
    return Versioned(Roster(players), int(version))


def roster_of(client: StoreClient, prefix: str) -> Roster:
    return current(client, prefix).roster


def changes(client: StoreClient, prefix: str) -> list[RosterChange]:
    """Every change, oldest first."""
    return [_change(raw) for raw in client.lrange(RosterKeys(prefix).changes, 0, -1)]


def replayed(client: StoreClient, prefix: str) -> Versioned:
    """The roster as its log gives it, replayed from the first change (what a rebuild of the
    statistics reads: the log is the truth, the projection a copy of it)."""
    log = changes(client, prefix)
    return Versioned(folded(log), len(log))


def record(
    client: StoreClient,
    prefix: str,
    change: RosterChange,
    check: Callable[[Roster], None],
) -> tuple[Roster, bool]:
    """Append ``change`` and update the projection, in one MULTI under WATCH of the log; the
    roster after it, and whether it changed anything (a change that changes nothing is not
    logged). ``check`` is given the roster before it, and raises to refuse it (then nothing is
    written)."""
    keys = RosterKeys(prefix)
    while True:
        with client.pipeline(transaction=True) as pipe:
            try:
                pipe.watch(keys.changes)
                before = Roster(pipe.hgetall(keys.roster))
                after = applied(before, change)
                if after == before:
                    pipe.unwatch()
                    return after, False
                check(before)
                gone = [name for name in before.players if name not in after.players]
                moved = {
                    name: player
                    for name, player in after.players.items()
                    if before.players.get(name) != player
                }
                pipe.multi()
                pipe.rpush(keys.changes, _json(change))
                if gone:
                    pipe.hdel(keys.roster, *gone)
                if moved:
                    pipe.hset(keys.roster, mapping=moved)
                pipe.execute()
                return after, True
            except redis.WatchError:
                continue


def _json(change: RosterChange) -> str:
    return json.dumps(
        {"at": change.at, "name": change.name, "player": change.player}, ensure_ascii=False
    )


def _change(raw: str) -> RosterChange:
    found = json.loads(raw)
    return RosterChange(found["at"], found["name"], found["player"])
