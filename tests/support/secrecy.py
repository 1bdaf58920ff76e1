"""The fields that only some viewers may see, per game."""

from __future__ import annotations

# The contract's hidden event fields: event type -> fields only the event's player sees.
PRIVATE_FIELDS: dict[str, dict[str, tuple[str, ...]]] = {
    "mada": {"deal": ("cards",), "draw": ("card",)},
    "madcala": {kind: ("drawn",) for kind in ("move", "plus_one", "buy_commoner", "commoner")},
    "sifaka": {"deal": ("card",), "move": ("draw", "counter")},
}
