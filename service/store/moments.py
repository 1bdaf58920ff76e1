"""Moments as a record holds them (``created_at``, each event's ``at``, ``finished_at``): instants
that exist, in RFC 3339 UTC, as the service writes them (``2025-01-01T12:00:00.000Z``).

An import takes a record's times from outside, so they are read strictly: the exact shape first
(ASCII digits only, nothing after the zone, not even a newline), then the standard library's
calendar, which refuses a 30 February or a 25th hour. A stored time that does not parse would
stop every later reader of the record (the archive job, ``stats rebuild``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

# The shape, matched whole (``fullmatch``): a ``$`` would let a trailing newline through.
_SHAPE = re.compile(
    r"(?P<seconds>[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2})"
    r"(?:\.(?P<fraction>[0-9]{1,9}))?(?:Z|\+00:00)"
)
SHAPE_ERROR = "an instant that exists, in RFC 3339 UTC, as 2025-01-01T12:00:00.000Z"


def parse_moment(text: object) -> datetime | None:
    """The instant ``text`` names (aware, UTC), or None if it is not one that exists in the
    service's shape. Fractions past microseconds are cut (they order no two real events)."""
    if not isinstance(text, str):
        return None
    shape = _SHAPE.fullmatch(text)
    if shape is None:
        return None
    try:
        # The shape is checked above: ``fromisoformat`` reads those 19 digits and separators as
        # ``strptime`` would (and refuses the same dates), at a tenth of its cost; an import
        # reads a few per play.
        moment = datetime.fromisoformat(shape["seconds"])
    except ValueError:
        return None
    micro = int((shape["fraction"] or "0")[:6].ljust(6, "0"))
    return moment.replace(microsecond=micro, tzinfo=UTC)


def check_record_times(
    created_at: str, ats: list[str], finished_at: str | None, now: datetime
) -> dict[str, str]:
    """What is wrong with a record's times, by field (``created_at``, ``events.N.at``,
    ``finished_at``); empty when each exists, none is later than ``now`` and they are in order:
    ``created_at`` <= each event's ``at`` <= ``finished_at``. Not even a second ahead (a clock
    that runs ahead of this one's): a game imported so would take its next moves stamped before
    its own times, a record that no service would take back."""
    named = [("created_at", created_at)]
    named += [(f"events.{seq}.at", at) for seq, at in enumerate(ats, start=1)]
    if finished_at is not None:
        named.append(("finished_at", finished_at))
    problems: dict[str, str] = {}
    parsed: dict[str, datetime] = {}
    for field, text in named:
        moment = parse_moment(text)
        if moment is None:
            problems[field] = f"{text!r} is not {SHAPE_ERROR}"
        elif moment > now:
            problems[field] = f"{text} is in the future (here it is {now:%Y-%m-%dT%H:%M:%SZ})"
        else:
            parsed[field] = moment
    if problems:
        return problems
    created = parsed["created_at"]
    for field, _ in named[1:]:
        if parsed[field] < created:
            problems[field] = f"is before the record's created_at ({created_at})"
    if finished_at is not None:
        for field, _ in named[1:-1]:
            if parsed[field] > parsed["finished_at"]:
                problems.setdefault("finished_at", f"is before {field}")
    return problems
