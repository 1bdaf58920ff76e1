"""How an append is written: one ``EventWrite`` handed to the append script
(``lua/append.lua``, through ``Scripts.append``), its reply read back as what the append came to
(``records.AppendOutcome``), and what the script could not read named as damage.

The script checks the game's version, head and writer's token and writes the event, the header and
the idempotency record in one step; every key it touches is the game's (one slot).
"""

from __future__ import annotations

from collections.abc import Callable

import redis

from service.store.codec import INTEGER
from service.store.connection import StoreClient
from service.store.damage import DamagedRecordError, damaged_header, damaged_idempotency_record
from service.store.keys import Keys
from service.store.records import (
    Appended,
    AppendOutcome,
    Conflict,
    DamagedHeader,
    EventWrite,
    Finished,
    GameRecord,
    Missing,
    OtherHead,
    Replayed,
    Revoked,
    Trimmed,
)
from service.store.scripts import Scripts

IDEMPOTENCY_TTL_SECONDS = 24 * 3600


class Appends:
    """Appends events to the games of one store (its client, keys and scripts); ``find`` reads a
    game's header the way the store does, to name what is damaged."""

    def __init__(
        self,
        client: StoreClient,
        keys: Keys,
        scripts: Scripts,
        find: Callable[[str], GameRecord | DamagedHeader | None],
    ) -> None:
        self.redis = client
        self.keys = keys
        self.scripts = scripts
        self.find = find

    def append(self, game_id: str, write: EventWrite) -> AppendOutcome:
        """Append ``write``'s event at its expected version, if the header still holds the
        writer's token (else ``Revoked``) and the expected head."""
        key = write.idempotency_key
        idempotency = self.keys.idempotency(game_id, key, write.idempotency_owner) if key else None
        try:
            reply = self.scripts.append(
                header=self.keys.header(game_id),
                events=self.keys.events(game_id),
                idempotency=idempotency,
                write=write,
                ttl=IDEMPOTENCY_TTL_SECONDS,
            )
        except redis.ResponseError as error:
            if "WRONGTYPE" in str(error):
                raise self._wrong_type(game_id, key, write.idempotency_owner) from None
            # The only other error the script can meet: an entry already at the next seq's id.
            if "equal or smaller" not in str(error):
                raise
            raise damaged_header(
                game_id,
                {"version": f"is {write.expected_version}, behind the events in the stream"},
            ) from None
        except UnicodeDecodeError:
            # The script answered with stored text that is not UTF-8 (a version, a record).
            raise self._damage(game_id, key) from None
        match reply:
            case ["appended", seq]:
                return Appended(int(seq))
            case ["replayed", record]:
                return Replayed(record)
            case ["conflict", current] if INTEGER.fullmatch(current):
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
        if key and self.redis.type(self.keys.idempotency(game_id, key, owner)) not in (
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
