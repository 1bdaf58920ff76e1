"""The damage of a stored record: ``DamagedRecordError`` and the makers of its messages.

What is read back is checked as it is decoded (``service.store.codec``): a header field or an event
that does not decode (changed behind the service's back: a hand edit, a disk fault) raises
``DamagedRecordError``, which names the field or the event, and concerns that game alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.errors import TabletapeError

# The names a DamagedHeader gives its keys when the damage is not one field's.
WHOLE_KEYS = ("header", "stream")
OTHER_TYPE = "is a key of another type"


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


def damaged_idempotency_record(game_id: str, key: str) -> DamagedRecordError:
    return DamagedRecordError(
        game_id,
        [f"the record of idempotency key {key!r} does not decode"],
        {"idempotency_key": key},
    )


def damaged_event(game_id: str, seq: int, why: str) -> DamagedRecordError:
    return DamagedRecordError(game_id, [f"event {seq} does not decode: {why}"], {"seq": seq})
