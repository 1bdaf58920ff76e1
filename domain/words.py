"""Moves and options in words, for the pages: the default ``Game.describe``, and the kinds of the
new-game form's fields a game may declare in ``Game.option_fields``.

A move said from its fields: ``Ana: play card 7``, ``Ben: place at (1, 3), rotation 90``. Seats
are named, nulls and empty lists left out, and a field the type already names is not named again
(``choose target Caro``). These are the only words of a move: the API sends them beside each event
and legal move (``service.games.move_words``), and the pages show them; no page words a move.

The form's fields (plain data, one dict each, ``name`` the option's):
- ``{"kind": "per_seat", "label", "input", "choices": [[value, words], ...], "defaults": {"2":
  [...], ...}}``: one choice per seat; once any is chosen the option is sent, the seats left at
  "default" taking ``defaults[<players>]``;
- ``{"kind": "sequence", "label", "input", "item", "choices", "default": [...]}``: one choice per
  position (``item`` names a position, ``{n}`` its number, counted from ``first``, 1 unless
  given), sent when it differs from the default;
- ``{"kind": "integer", "label", "input", "min", "max"}``: sent when filled in;
- ``{"kind": "text", "label", "input", "max_length", "required", "suggest"}``: sent when filled in;
  ``suggest: "titles"`` offers the titles played before (``GET /titles``) as it is typed;
- ``{"kind": "choice", "label", "input", "choices", "default"}``: one of ``choices``, always sent;
- ``{"kind": "boolean", "label", "input", "default"}``: a checkbox, always sent;
- ``{"kind": "teams", "label", "input"}``: a team per player, sent as the seats of each team
  (``[[0, 2], [1, 3]]``) once any player has one;
- ``{"kind": "hint", "field", "text"}``: a sentence shown under a common field for this game; for
  the field ``game``, the words that name the game among the others.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# Fields an event's description leaves out, and the seat-valued ones it names.
NOT_DESCRIBED = frozenset(("seq", "type", "player", "at", "hash", "version", "void"))
SEAT_FIELDS = frozenset(("target",))


def describe_fields(event: Mapping[str, Any], players: Sequence[str]) -> str:
    who = seat_name(event.get("player"), players)
    kind = str(event.get("type", "?"))
    parts = []
    at = event.get("x") is not None and event.get("y") is not None
    if at:
        parts.append(f"at ({shown(event['x'])}, {shown(event['y'])})")
    for name, value in event.items():
        if name in NOT_DESCRIBED or value is None or value == [] or (at and name in ("x", "y")):
            continue
        said = seat_name(value, players) if name in SEAT_FIELDS else shown(value)
        label = "" if kind.endswith(f"_{name}") else f"{name.replace('_', ' ')} "
        parts.append(f"{label}{said}")
    text = kind.replace("_", " ")
    if parts:
        text += " " + ", ".join(parts)
    return f"{who}: {text}" if who else text


def seat_name(seat: Any, players: Sequence[str]) -> str:
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
        return players[seat]
    return "" if seat is None else shown(seat)


def shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "[" + ", ".join(shown(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {shown(item)}" for key, item in value.items()) + "}"
    if isinstance(value, str):
        return value.replace("_", " ")
    return str(value)
