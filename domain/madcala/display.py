"""How the pages show Madcala: its cards from the catalog, the new-game form's fields for the
Guests, the layout and the health, the fields of a move that name the Commoners drawn, and a move in
the rulebook's words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, TypeGuard

from domain.madcala.catalog import DEFAULT, DEFAULT_CATALOG, SPACE_EFFECTS
from domain.madcala.state import SIDE, MadcalaState
from domain.words import describe_fields

CHANCE_FIELDS: Final = {"*": ("drawn",)}


def catalog_view(state: MadcalaState) -> dict[str, Any]:
    catalog = state.catalog
    return {
        "plus_ones": {
            card.id: {
                "name": card.name,
                "kind": card.kind,
                "cost": card.cost,
                "to": card.to,
                "effects": list(card.effects),
            }
            for card in catalog.plus_one_cards.values()
        },
        "commoners": {
            entry.id: {"name": entry.name, "effects": list(entry.effects)}
            for entry in catalog.commoners
        },
        "guests": {guest.id: guest.name for guest in catalog.guests},
    }


def option_fields() -> list[dict[str, Any]]:
    guests = [[guest["id"], guest["name"]] for guest in DEFAULT_CATALOG["guests"]]
    # The effects in the rulebook's words, as the plates and the moves say them.
    effects = [
        [effect, EFFECT_WORDS.get(effect, effect.replace("_", " "))] for effect in SPACE_EFFECTS
    ]
    return [
        {
            "kind": "hint",
            "field": "first_player",
            "text": "Madcala's default is a coin flip, the game's first random draw.",
        },
        {
            "name": "guests",
            "kind": "per_seat",
            "label": "Guests",
            "input": "guest",
            "choices": guests,
            "defaults": {"2": [guests[0][0], guests[1][0]]},
        },
        {
            "name": "layout",
            "kind": "sequence",
            "label": "Layout",
            "note": "the effects of the five plates clockwise after each Home",
            "input": "layout",
            # Numbered as the moves and the board number them: the Home is a side's 1st plate.
            "item": "Plate {n}",
            "first": 2,
            "choices": effects,
            "default": list(SPACE_EFFECTS),
        },
        {
            "name": "health",
            "kind": "integer",
            "label": "Health",
            "note": "optional, 1 to 99: both seats' starting and maximum health",
            "input": "health",
            "min": 1,
            "max": 99,
        },
    ]


# A move in words (Game.describe), the only words of a move (the API sends them to the pages): the
# plates by their place on a side ("the 3rd plate", "Ben's Home"), the cards by their names in the
# default catalog (an id it does not hold is said as it is written, its underscores as spaces).
EFFECT_WORDS: Final = {
    "add_shard": "Add a Shard",
    "heal": "Heal",
    "draw_commoner": "Draw a Commoner",
    "damage": "Damage",
    "refresh_plus_one": "Refresh a Plus-One",
    "gather_shards": "Gather your Shards",
    "extra_turn": "Extra turn",
    "strike_shard": "Strike a Shard",
    "strike_plus_one": "Strike a Plus-One",
}
_NAMES: Final = {
    **{card.id: card.name for card in DEFAULT.plus_one_cards.values()},
    **{entry.id: entry.name for entry in DEFAULT.commoners},
}


def describe(event: Mapping[str, Any], players: Sequence[str]) -> str:
    seat = event.get("player")
    if not _is_seat(seat, players) or event.get("type") not in _KINDS:
        return describe_fields(event, players)
    parts = [_KINDS[event["type"]](event, players, seat)]
    for strike in event.get("strike") or []:
        parts.append(
            f"strike a Shard of {_name_of(strike.get('seat'), players)}'s from"
            f" {_plate(strike.get('space'), seat, players)}"
        )
    parts += [f"strike {_card(card)}" for card in event.get("strike_card") or []]
    parts += [f"refresh {_card(card)}" for card in event.get("refresh") or []]
    parts += [f"draw {_card(card)}" for card in event.get("drawn") or []]
    if "drawn" in (event.get("hidden") or []):
        parts.append("the Commoners drawn are hidden")
    return f"{players[seat]}: {'; '.join(parts)}"


def _move(event: Mapping[str, Any], players: Sequence[str], seat: int) -> str:
    if event.get("space") is None:
        return "no Shard on the side: Shards from the reserve"
    words = f"sow from {_plate(event['space'], seat, players)}"
    order = event.get("order")
    if isinstance(order, list) and order:
        runs: list[list[Any]] = []
        for owner in order:
            if runs and runs[-1][0] == owner:
                runs[-1][1] += 1
            else:
                runs.append([owner, 1])
        words += ", " + ", then ".join(
            f"{count} of {_name_of(owner, players)}'s" for owner, count in runs
        )
    if event.get("last_doubler") is not None:
        words += f", {_name_of(event['last_doubler'], players)}'s Doubler last"
    if event.get("home_space") is not None:
        words += f"; the Home performs the effect of {_plate(event['home_space'], seat, players)}"
    return words


def _plus_one(event: Mapping[str, Any], players: Sequence[str], seat: int) -> str:
    words = f"use {_card(event.get('card'))}"
    pay = event.get("pay")
    if isinstance(pay, list) and pay:
        words += f", paying {_plural(len(pay), 'Shard')}"
    words += _effects(event)
    if event.get("place") is not None:
        words += f"; its Shard to {_plate(event['place'], seat, players)}"
    return words


def _buy(event: Mapping[str, Any], players: Sequence[str], seat: int) -> str:
    return f"buy a Commoner, paying {_plural(len(event.get('pay') or []), 'Shard')}"


def _commoner(event: Mapping[str, Any], players: Sequence[str], seat: int) -> str:
    return f"play {_card(event.get('card'))}{_effects(event)}"


def _end_turn(event: Mapping[str, Any], players: Sequence[str], seat: int) -> str:
    discard = event.get("discard") or []
    if not discard:
        return "end the turn"
    return f"end the turn, discarding {' and '.join(_card(card) for card in discard)}"


_KINDS: Final = {
    "move": _move,
    "plus_one": _plus_one,
    "buy_commoner": _buy,
    "commoner": _commoner,
    "end_turn": _end_turn,
}


def _effects(event: Mapping[str, Any]) -> str:
    effects = event.get("effects")
    if not isinstance(effects, list):
        return ""
    if not effects:
        return " for no effect"
    return (
        f" ({' then '.join(EFFECT_WORDS.get(str(e), str(e).replace('_', ' ')) for e in effects)})"
    )


def _ordinal(number: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")


def _plate(space: Any, seat: int, players: Sequence[str]) -> str:
    if not isinstance(space, int) or isinstance(space, bool) or not 0 <= space < SIDE * 2:
        return "a plate"
    owner = space // SIDE
    whose = "the" if owner == seat else f"{_name_of(owner, players)}'s"
    offset = space % SIDE
    return f"{whose} Home" if offset == 0 else f"{whose} {_ordinal(offset + 1)} plate"


def _card(card: Any) -> str:
    return _NAMES.get(str(card), str(card).replace("_", " "))


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _is_seat(seat: Any, players: Sequence[str]) -> TypeGuard[int]:
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players)


def _name_of(seat: Any, players: Sequence[str]) -> str:
    return players[seat] if _is_seat(seat, players) else "someone"
