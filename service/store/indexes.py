"""The indexes of the games: their listing, newest first, and what an import must not make twice.

Games are listed through sorted sets scored by when each was played (``played_at``: the
millisecond of its ``finished_at``, a game not finished by its ``created_at``), members of equal
score in the order of their ids, as Redis keeps them: ``<prefix>games:all``,
``<prefix>games:game:<game>`` and ``<prefix>games:player:<name>`` (``service.store.keys``); a game
of a title (a score sheet) is also in ``games:game:<title key>``, and the hash ``games:titles``
knows every title key. So an imported history of older plays takes its place by its dates, under
tonight's games. A game is placed where it was created when it is stored (an import's, stored
whole, where its play ended: ``EventStore.create_imported``); a game finished here
is moved to its finish by the archive job, and back to its creation by the job that follows a
retraction of its finish (``workers.archive``). An abandoned game has no finish: it stays where it
was created. A store of an earlier version scored its games by a creation serial (1, 2, 3...): those
are listed last, in that order, until the recovery places them (``workers.queues``).

The indexes carry no hash tag: on a Redis Cluster each index is a slot of its own, chosen by its
name, so the players' indexes and the games' spread over the masters; the index of all games is
one slot, on one master. A creation adds one entry to 2 + players indexes, and a finish moves
them, against a hundred appends or so for the game's moves on the game's own slot: the listings
are a small share of the load. If the index of all games outgrew one node, it would be split by
month (``games:all:<yyyy-mm>``, a page read from the newest month back). The index writes need no
atomicity (a listing skips an id whose header it cannot read): they are single-key commands,
pipelined without a transaction, which redis-py splits by node.

An import is recognised by its seed commitment (``games:commitments``), by what its record
records (``games:records``, ``chain.record_digest``) and by what it is played from
(``games:played:<digest>``, ``chain.played_digest``). A play of another app is known by its id
there (``imports:<source>:<id>``, ``claim_play``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from redis.cluster import RedisCluster

from domain import get_game
from domain.errors import UnknownGameError
from domain.game import Title
from service.store.chain import played_digest
from service.store.connection import StoreClient
from service.store.keys import Keys
from service.store.moments import parse_moment
from service.store.records import GameRecord

# Give a hash field to a new owner only while it holds the old one: of two imports taking over one
# dead import's claim at once, one has it.
_TAKE_OVER = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) + 1
end
return 0
"""

# How long an import's claim of a record stands before its game is stored: past it, the import
# is taken to have died (a crash between the two), and another import of the record takes it.
CLAIM_SECONDS = 60

# Delete a key only while it holds the value given: a claim is released by its owner alone.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


# A listing's cursor as ``Place.cursor`` writes it: the millisecond a game was played (negative
# before 1970: an imported play may be dated from year 1 on), then its id as the service makes it
# (16 hex digits). Anything else is no cursor.
CURSOR = re.compile(r"(-?[0-9]{1,18})_([0-9a-f]{16})")

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MILLISECOND = timedelta(milliseconds=1)


@dataclass(frozen=True, order=True)
class Place:
    """Where a game stands in the listings: when it was played (``played_at``), then its id.
    Newest first is the highest place first; a page goes on from the place it ended at, so games
    of one time are listed each once, by id, however the pages cut them."""

    played: int
    id: str

    def cursor(self) -> str:
        """The place as a listing's ``next_cursor`` (opaque to a client)."""
        return f"{self.played}_{self.id}"

    @classmethod
    def from_cursor(cls, text: str | None) -> Place | None:
        """The place a cursor this service gave names; None for anything else."""
        found = CURSOR.fullmatch(text or "")
        return cls(int(found[1]), found[2]) if found else None


def played_at(record: GameRecord) -> int:
    """The score of ``record`` in the listings: the millisecond (since 1970) its play ended, its
    ``finished_at``; for a game not finished (active, abandoned, or reopened by a retraction of
    its end), the one it was created at. Times as the service and an import write them (an import
    checks them, ``moments.check_record_times``); a header of another shape lists the game as
    played in 1970, rather than not at all."""
    moment = parse_moment(record.finished_at) or parse_moment(record.created_at) or _EPOCH
    # In whole milliseconds, counted exactly: a float's rounding would tell two games of one time
    # apart, or one time from itself.
    return (moment - _EPOCH) // _MILLISECOND


class GameIndexes:
    """The indexes of the games stored under ``keys``; ``stored`` says whether a game's header is
    there (damaged or not)."""

    PAGE = 100

    def __init__(self, client: StoreClient, keys: Keys, stored: Callable[[str], bool]) -> None:
        self.redis = client
        self.keys = keys
        self._stored = stored

    def add(self, record: GameRecord, *, play: str | None = None) -> None:
        """Index a game just stored. Listed once stored: an index never names a game that is not
        there yet. ``play``: the play of another app it was imported from, whose claim is settled
        (``settle_play``) in the same round trip."""
        pipe = self.redis.pipeline(transaction=False)
        self._place(pipe, record)
        if record.seed_commitment:
            pipe.hsetnx(self.keys.index("commitments"), record.seed_commitment, record.id)
        pipe.sadd(self.keys.index("played", played_digest(record.header)), record.id)
        if play is not None:
            pipe.set(self.keys.imported_play(play), record.id)
        pipe.execute()

    def place(self, records: list[GameRecord]) -> None:
        """Move each game to when it was played (``played_at``) in every listing of it: a game
        finished, reopened, or indexed by an earlier version's creation serial. Idempotent: a
        game placed again from an older read of its header is placed right by the next."""
        pipe = self.redis.pipeline(transaction=False)
        for record in records:
            self._place(pipe, record)
        pipe.execute()

    def _place(self, pipe: Any, record: GameRecord) -> None:
        played = played_at(record)
        for key in self._listings(record):
            pipe.zadd(key, {record.id: played})
        title = _title_of(record)
        if title is not None:
            # A game of a title (a score sheet) is listed under its title's key too, and the key
            # is known from its first game on (``games:titles``: key -> the game recording it).
            # Filed here, where every placing passes, so that the recovery's placing files a game
            # stored under an earlier version's key under its key as now computed too.
            pipe.hsetnx(self.keys.index("titles"), title.key, record.game)

    def _listings(self, record: GameRecord) -> list[str]:
        """The indexes that list ``record``: all games, its game's, its title's, its players'."""
        keys = [self.keys.index(), self.keys.index("game", record.game)]
        title = _title_of(record)
        if title is not None:
            keys.append(self.keys.index("game", title.key))
        return keys + [self.keys.index("player", name) for name in sorted(set(record.players))]

    def newest(
        self,
        *,
        game: str = "",
        player: str = "",
        after: Place | None = None,
        since: int | None = None,
        page: int | None = None,
    ) -> tuple[list[Place], bool]:
        """Up to ``page`` (PAGE) games, newest first, after the place ``after`` (a page's last)
        and played at the millisecond ``since`` or later (any time, for None); and whether the
        index may hold more past them."""
        size = page or self.PAGE
        if player:
            key = self.keys.index("player", player)
        elif game:
            key = self.keys.index("game", game)
        else:
            key = self.keys.index()
        top = after.played if after is not None else "+inf"
        bottom = since if since is not None else "-inf"
        skip = 0
        while True:
            rows = self.redis.zrevrangebyscore(
                key, top, bottom, start=skip, num=size, withscores=True
            )
            places = [Place(int(played), game_id) for game_id, played in rows]
            # Read from the cursor's own time on: the games of that time not past the cursor
            # (their ids not below its) come first, and are left out.
            kept = [place for place in places if after is None or place < after]
            if kept or len(rows) < size:
                return kept, len(rows) == size
            skip += size  # a whole page of that time before the cursor: read on

    def titles(self) -> dict[str, str]:
        """Every title key a game was created or imported under, with the game recording it."""
        return dict(self.redis.hgetall(self.keys.index("titles")))

    def lease(self, game_id: str) -> None:
        """Say that the import of ``game_id`` is alive, for CLAIM_SECONDS: from then on, the
        claims it takes (``claim_import``) are not taken over by another import while it stores
        its game. Taken before its first claim."""
        self.redis.set(self.keys.importing(game_id), "1", ex=CLAIM_SECONDS)

    def claim_import(self, game_id: str, claims: list[tuple[str, str]]) -> str | None:
        """``lease`` the import of ``game_id``, then claim each of ``claims`` for it, in order:
        None once they are all this game's, else the id of the game holding the first that is
        not. A claim is an index and a value: "commitments" and a seed commitment (a record
        imported twice makes one game), "records" and what a record records
        (``chain.record_digest``: of two imports of one record at once, whatever their salt or
        format, one makes the game and the other is named it). A claim whose game was never
        stored (an import that died between the two) is taken over.

        In one round trip when each claim is free (a pipeline, which a plain Redis runs in
        order: the lease before the claims); a claim held goes the long way (``_claim``). On a
        cluster the lease is taken first, alone: a pipeline's commands to other nodes run in no
        set order, and a claim seen without its lease could be taken over."""
        pipe = self.redis.pipeline(transaction=False)
        if isinstance(self.redis, RedisCluster):
            self.lease(game_id)
        else:
            pipe.set(self.keys.importing(game_id), "1", ex=CLAIM_SECONDS)
        for index, value in claims:
            pipe.hsetnx(self.keys.index(index), value, game_id)
        taken = pipe.execute()[-len(claims) :] if claims else []
        for (index, value), free in zip(claims, taken, strict=True):
            if free:
                continue
            held = self._claim(index, value, game_id)
            if held is not None:
                return held
        return None

    def _claim(self, index: str, value: str, game_id: str) -> str | None:
        # The game's lease is taken first (``lease``): from the moment the claim is this game's,
        # it says that the import is alive.
        key = self.keys.index(index)
        while True:
            if self.redis.hsetnx(key, value, game_id):
                return None
            held: str | None = self.redis.hget(key, value)
            if held is None:
                continue  # released between the two: claim again
            if held == game_id:
                return None
            if self._stored(held) or self.redis.exists(self.keys.importing(held)):
                return held
            # Its import died before storing its game (its lease ran out): taken over.
            if self.redis.register_script(_TAKE_OVER)(keys=[key], args=[value, held, game_id]):
                return None

    def release_claims(self, game_id: str) -> None:
        """The claims of ``game_id``, which was not stored (its id was taken), let go: another
        import, or the same one under a new id, takes them over."""
        self.redis.delete(self.keys.importing(game_id))

    def claim_play(self, play: str, owner: str, seconds: int) -> str | None:
        """Claim a play of another app (``<source>:<id>``) for ``owner``, an import about to make
        its game, for ``seconds`` at most: None once it is ``owner``'s, else what holds it (a
        game's id, or another import's pending claim). Atomic (SET NX): of two imports of one
        play at once, one makes its game."""
        key = self.keys.imported_play(play)
        while True:
            if self.redis.set(key, owner, nx=True, ex=seconds):
                return None
            held: str | None = self.redis.get(key)
            if held is not None:
                return held
            # Released between the two: claim again.

    def settle_play(self, play: str, game_id: str) -> None:
        """The play's game is made: the claim holds its id for good."""
        self.redis.set(self.keys.imported_play(play), game_id)

    def plays_held(self, plays: list[str]) -> list[str | None]:
        """What holds each play's claim (``<source>:<id>``): a game's id, another import's
        pending claim, or None; a page of claims to a round trip (each its own slot on a
        cluster, where redis-py splits the pipeline by node)."""
        held: list[str | None] = []
        for first in range(0, len(plays), 10 * self.PAGE):
            pipe = self.redis.pipeline(transaction=False)
            for play in plays[first : first + 10 * self.PAGE]:
                pipe.get(self.keys.imported_play(play))
            held += pipe.execute()
        return held

    def release_play(self, play: str, owner: str) -> None:
        """Give up ``owner``'s claim of a play whose import failed (another's is left alone)."""
        self.redis.eval(_RELEASE, 1, self.keys.imported_play(play), owner)

    def regroup_titles(self, read: Callable[[list[str]], list[Any]]) -> int:
        """List the games of titles listed under a key of an earlier scheme (``stra-e`` for
        "Straße", before the keys of every script) under their key as now computed, and drop
        the earlier key from ``games:titles`` once nothing is listed under it; the number of
        games moved. ``read`` reads games' headers by id (``EventStore.get_many``); a game
        whose header cannot be read stays where it is. The rebuild runs it.

        Idempotent and linear in the games listed under titles: each listing is read by
        cursor, a page at a time, each game added under its key before it leaves the old one
        (a listing meanwhile may show it twice, never lose it)."""
        moved = 0
        for key in sorted(self.redis.hkeys(self.keys.index("titles"))):
            listing = self.keys.index("game", key)
            page: list[tuple[str, float]] = []
            for member in self.redis.zscan_iter(listing, count=self.PAGE):
                page.append(member)
                if len(page) == self.PAGE:
                    moved += self._regroup(key, page, read)
                    page = []
            moved += self._regroup(key, page, read)
            if not self.redis.exists(listing):
                # Nothing left under it (a sorted set emptied is gone): a key of no title now.
                self.redis.hdel(self.keys.index("titles"), key)
        return moved

    def _regroup(
        self, key: str, page: list[tuple[str, float]], read: Callable[[list[str]], list[Any]]
    ) -> int:
        """Move the games of ``page`` (ids and places listed under title key ``key``) whose
        title's key is not ``key`` now; how many moved."""
        records = read([game_id for game_id, _ in page]) if page else []
        adds = self.redis.pipeline(transaction=False)
        leaving = []
        for (game_id, played), record in zip(page, records, strict=True):
            title = _title_of(record) if isinstance(record, GameRecord) else None
            if title is None or key in (record.game, title.key):
                continue
            adds.zadd(self.keys.index("game", title.key), {game_id: played})
            adds.hsetnx(self.keys.index("titles"), title.key, record.game)
            leaving.append(game_id)
        if leaving:
            adds.execute()
            self.redis.zrem(self.keys.index("game", key), *leaving)
        return len(leaving)

    def games_played_from(self, header: Mapping[str, Any]) -> list[str]:
        """The ids of the games played from what ``header`` says (the same game, players, seed,
        options and rules), imported or made here: ``add`` indexes each."""
        return sorted(self.redis.smembers(self.keys.index("played", played_digest(header))))

    def index_commitments(self, records: list[GameRecord]) -> None:
        """Index the commitments of games stored before the index was kept (the recovery does
        this as it goes over every game), and what each is played from, so that their imports
        are recognised too."""
        pipe = self.redis.pipeline(transaction=False)
        for record in records:
            if record.seed_commitment:
                pipe.hsetnx(self.keys.index("commitments"), record.seed_commitment, record.id)
            pipe.sadd(self.keys.index("played", played_digest(record.header)), record.id)
        pipe.execute()


def _title_of(record: GameRecord) -> Title | None:
    """The title ``record`` is a game of (a score sheet's), if its game has titles; a game this
    service does not play is stored and listed all the same, under its own name."""
    try:
        return get_game(record.game).title(record.options)
    except UnknownGameError:
        return None
