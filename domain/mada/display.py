"""How the pages show Mada: the pears of each Cactus value (the drawing puts them on the cards), the
fields of a move that name what chance brought, and a move in the rulebook's words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from domain.mada.state import MadaState
from domain.words import describe_fields

# In observed mode the recorder names the cards dealt, drawn and revealed.
CHANCE_FIELDS: Final = {"deal": ("cards",), "draw": ("card",), "try_luck": ("card",)}


def catalog_view(state: MadaState) -> dict[str, Any]:
    pears = state.catalog.pears
    return {"pears": {str(value): pears[value] for value in range(1, len(pears))}}


# A move in words (Game.describe), the only words of a move (the API sends them to the pages).
_NAMES: Final = {"lemur": "Lemur", "double_lemur": "Double Lemur", "scorpion": "Scorpion"}


def describe(event: Mapping[str, Any], players: Sequence[str]) -> str:
    who = _seat(event.get("player"), players)
    card = event.get("card")
    kind = event.get("type")
    # A field this viewer may not see (a seat's deal or draw, to the others): "hidden".
    hidden = "hidden " if isinstance(event.get("hidden"), list) and event["hidden"] else ""
    if kind == "deal":
        cards = event.get("cards")
        if isinstance(cards, list) and all(_is_card(item) for item in cards):
            return f"{who} is dealt {_listed([_a_card(item) for item in cards])}"
        return f"{who} is dealt 3 {hidden}cards"
    if kind == "play":
        if card == "double_lemur":
            target = event.get("target")
            if not _is_int(target) and len(players) == 2 and _is_int(event.get("player")):
                target = 1 - event["player"]
            if _is_int(target):
                return f"{who} plays a Double Lemur and swaps piles with {_seat(target, players)}"
            return f"{who} plays a Double Lemur and swaps piles"
        return f"{who} plays {_a_card(card)}" if _is_card(card) else f"{who} plays a card"
    if kind == "draw":
        return f"{who} draws {_a_card(card)}" if _is_card(card) else f"{who} draws a {hidden}card"
    if kind == "try_luck":
        if _is_card(card):
            return f"{who} tries their luck: {_a_card(card)} comes up"
        return f"{who} tries their luck"
    if kind == "scorpion_discard":
        return f"{who} discards {_a_card(card) if _is_card(card) else 'a card'} with the Scorpion"
    if kind == "choose_target":
        return f"{who} swaps piles with {_seat(event.get('target'), players)} (Double Lemur)"
    if kind == "round_discard":
        cards = event.get("cards")
        if not isinstance(cards, list):
            return f"{who} discards after losing the round"
        if cards:
            listed = _listed([_a_card(item) for item in cards])
            return f"{who} discards {listed} after losing the round"
        return f"{who} keeps every card after losing the round"
    return describe_fields(event, players)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_card(card: Any) -> bool:
    return _is_int(card) or (isinstance(card, str) and card in _NAMES)


def _a_card(card: Any) -> str:
    if _is_int(card):
        return f"{'an' if card in (8, 11, 18) else 'a'} {card}"
    return f"a {_NAMES.get(card, card)}"


def _listed(items: list[str]) -> str:
    if len(items) <= 1:
        return items[0] if items else "nothing"
    return f"{', '.join(items[:-1])} and {items[-1]}"


def _seat(seat: Any, players: Sequence[str]) -> str:
    if seat is None:
        return "someone"
    return players[seat] if _is_int(seat) and 0 <= seat < len(players) else f"seat {seat}"
