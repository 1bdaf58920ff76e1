"""Every action that may come next, as complete event bodies in a fixed order, without duplicates.

The bodies are found by running the rules' own resolution (``resolve.py``) with a chooser that
tries the options of each choice, so that a body listed is one ``apply`` accepts. Two bodies with
the same outcome (the same state after them) are listed once, the first found. A choice with a
single option is left to its default; a choice field is written out whole as soon as one of its
choices has several options (and ``drawn`` is always written out in observed mode).

Some choices multiply into more bodies than a recorder needs to see; ``apply`` accepts every valid
body, listed or not. What is listed:

- the turn's actions in this order: ``move`` (until the turn's move is made), ``plus_one`` (not on
  the game's first turn), ``buy_commoner``, ``commoner``, ``end_turn`` (once the move is made);
- ``move``: each space of the mover's side holding a Shard (or ``space: null`` when none does);
  the sowing in the default order (own normal Shards first, own Doubler last) with every
  combination of the landing's choices (``home_space``, ``refresh``, ``drawn``); and, with the
  landing's first choices only, every other combination of ``order`` (every order of the normal
  Shards when there are at most 16, else only the opponent's Shards first) and ``last_doubler``;
- ``plus_one``: each face-up card; for a Refreshable card, ``pay`` from the mover's Shards taken
  greedily from their Home clockwise, then all from one space (each space holding enough); the
  first of those with every combination of the card's choices, the others (and every other order
  of the card's ``effects``) with the first choices only;
- ``buy_commoner``: the same ``pay`` options, the first with every Commoner that may be drawn;
- ``commoner``: each distinct card in hand, with each subset of its effects in printed order
  (all of them first, written without ``effects``; ``[]`` last) with every combination of their
  choices, and the other orders of each subset with the first choices only;
- ``end_turn``: each distinct set of cards that brings the hand down to 2 (``[]`` when it holds 2
  or fewer);
- in observed mode, the first Commoner an action draws is each Commoner still unseen; any further
  draw of the same action lists only the first unseen one in catalog order;
- at most 64 combinations of choices per variant of an action (the first ones in the order of each
  choice's options: spaces, then seats, card slots, catalog order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from itertools import combinations, permutations
from math import comb
from typing import Any, Final, TypeVar

from domain.madcala.moves import CHOICE_FIELDS, DRAWN, SINGLE_CHOICES
from domain.madcala.resolve import (
    Chooser,
    buy_commoner,
    fallback,
    move_shards,
    play_commoner,
    show_choice,
    use_plus_one,
)
from domain.madcala.state import (
    COMMONER_PRICE,
    HAND_LIMIT,
    SPACES,
    MadcalaState,
    Space,
    can_draw,
    home,
    side,
    side_is_empty,
)

T = TypeVar("T")
Run = Callable[[Chooser], MadcalaState]
Record = list[tuple[str, tuple[Any, ...], int]]

LEAVES_PER_VARIANT: Final = 64
MAX_ORDERS: Final = 16


def legal_moves(state: MadcalaState) -> list[dict[str, Any]]:
    if state.finished:
        return []
    seat = state.current
    moves: list[dict[str, Any]] = []
    if not state.moved:
        moves += _moves(state, seat)
    if state.turn > 1:
        moves += _plus_ones(state, seat)
    moves += _buys(state, seat)
    moves += _commoners(state, seat)
    if state.moved:
        moves += _end_turns(state, seat)
    return moves


# --- the actions -------------------------------------------------------------------------------


def _moves(state: MadcalaState, seat: int) -> list[dict[str, Any]]:
    if side_is_empty(state, seat):
        fallback_body = {"type": "move", "player": seat, "space": None}
        return _collect(state, [(fallback_body, partial(_run_fallback, state, seat), 1)])
    moves: list[dict[str, Any]] = []
    for space in side(seat):
        cell = state.spaces[space]
        if cell.empty:
            continue
        variants: list[tuple[dict[str, Any], Run, int]] = []
        for order in _orders(cell, seat):
            for last in _last_doublers(cell, seat):
                body: dict[str, Any] = {"type": "move", "player": seat, "space": space}
                if order is not None:
                    body["order"] = list(order)
                if last is not None:
                    body["last_doubler"] = last
                run = partial(_run_move, state, seat, space, order, last)
                variants.append((body, run, LEAVES_PER_VARIANT if not variants else 1))
        moves += _collect(state, variants)
    return moves


def _run_move(
    state: MadcalaState,
    seat: int,
    space: int,
    order: tuple[int, ...] | None,
    last: int | None,
    chooser: Chooser,
) -> MadcalaState:
    return move_shards(state, seat, space, order, last, chooser)


def _run_fallback(state: MadcalaState, seat: int, _chooser: Chooser) -> MadcalaState:
    return fallback(state, seat)


def _orders(cell: Space, seat: int) -> list[tuple[int, ...] | None]:
    """None (the default: own first) and the other orders of the normal Shards taken."""
    own, other = cell.normal[seat], cell.normal[1 - seat]
    if not own or not other:
        return [None]
    default = (seat,) * own + (1 - seat,) * other
    if comb(own + other, other) > MAX_ORDERS:
        return [None, (1 - seat,) * other + (seat,) * own]
    orders: list[tuple[int, ...] | None] = [None]
    for positions in combinations(range(own + other), other):
        order = tuple(1 - seat if index in positions else seat for index in range(own + other))
        if order != default:
            orders.append(order)
    return orders


def _last_doublers(cell: Space, seat: int) -> list[int | None]:
    return [None, 1 - seat] if all(cell.doubler) else [None]


def _plus_ones(state: MadcalaState, seat: int) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = []
    for used in state.plus_ones[seat]:
        if not used.face_up:
            continue
        card = used.card
        pays: list[tuple[int, ...]] = [()]
        if not card.corrupted:
            pays = _pay_options(state, seat, card.cost)
            if not pays:
                continue
        orders = _distinct_permutations(card.effects)
        variants: list[tuple[dict[str, Any], Run, int]] = []
        for index, paid in enumerate(pays):
            for position, effects in enumerate(orders):
                if index and position:
                    continue
                body: dict[str, Any] = {"type": "plus_one", "player": seat, "card": card.id}
                if not card.corrupted:
                    body["pay"] = list(paid)
                if position:
                    body["effects"] = list(effects)
                run = partial(use_plus_one, state, seat, card.id, paid, effects)
                variants.append((body, run, LEAVES_PER_VARIANT if not variants else 1))
        moves += _collect(state, variants)
    return moves


def _buys(state: MadcalaState, seat: int) -> list[dict[str, Any]]:
    if not can_draw(state):
        return []
    variants: list[tuple[dict[str, Any], Run, int]] = []
    for paid in _pay_options(state, seat, COMMONER_PRICE):
        body = {"type": "buy_commoner", "player": seat, "pay": list(paid)}
        run = partial(buy_commoner, state, seat, paid)
        variants.append((body, run, LEAVES_PER_VARIANT if not variants else 1))
    return _collect(state, variants)


def _commoners(state: MadcalaState, seat: int) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = []
    for card in sorted(set(state.hands[seat])):
        entry = state.catalog.commoners[card]
        printed = entry.effects
        variants: list[tuple[dict[str, Any], Run, int]] = []
        listed: set[tuple[str, ...]] = set()
        for size in range(len(printed), -1, -1):
            for chosen in dict.fromkeys(combinations(printed, size)):
                for position, effects in enumerate(_distinct_permutations(chosen)):
                    if effects in listed:
                        continue
                    listed.add(effects)
                    body: dict[str, Any] = {"type": "commoner", "player": seat, "card": entry.id}
                    if effects != printed:
                        body["effects"] = list(effects)
                    run = partial(play_commoner, state, seat, card, effects)
                    variants.append((body, run, 1 if position else LEAVES_PER_VARIANT))
        moves += _collect(state, variants)
    return moves


def _end_turns(state: MadcalaState, seat: int) -> list[dict[str, Any]]:
    hand = sorted(state.hands[seat])
    excess = len(hand) - HAND_LIMIT
    if excess <= 0:
        return [{"type": "end_turn", "player": seat, "discard": []}]
    names = [state.catalog.commoners[card].id for card in hand]
    return [
        {"type": "end_turn", "player": seat, "discard": list(discard)}
        for discard in dict.fromkeys(combinations(names, excess))
    ]


# --- choices -----------------------------------------------------------------------------------


class _Script:
    """Answers each choice from ``prefix`` (option indices), then with the first option; keeps
    the record of every choice asked: its field, its options and the index taken."""

    def __init__(self, prefix: Sequence[int]) -> None:
        self.prefix = prefix
        self.record: Record = []

    def choose(self, field: str, options: Sequence[T]) -> T:
        depth = len(self.record)
        index = self.prefix[depth] if depth < len(self.prefix) else 0
        self.record.append((field, tuple(options), index))
        return options[index]


def _leaves(run: Run, limit: int) -> list[tuple[Record, MadcalaState]]:
    """Up to ``limit`` combinations of choices, in lexicographic order of their option indices,
    with the state each leads to. A draw after the first of the same action is not branched on."""
    found: list[tuple[Record, MadcalaState]] = []

    def explore(prefix: list[int]) -> None:
        script = _Script(prefix)
        after = run(script)
        found.append((script.record, after))
        record = script.record
        for depth in range(len(record) - 1, len(prefix) - 1, -1):
            field, options, _ = record[depth]
            if field == DRAWN and any(earlier[0] == DRAWN for earlier in record[:depth]):
                continue
            base = [taken for _, _, taken in record[:depth]]
            for alternative in range(1, len(options)):
                if len(found) >= limit:
                    return
                explore([*base, alternative])

    explore([])
    return found


def _collect(
    state: MadcalaState, variants: Sequence[tuple[dict[str, Any], Run, int]]
) -> list[dict[str, Any]]:
    """The bodies of each variant (its fields, then its choices), one per distinct outcome."""
    seen: set[tuple[Any, ...]] = set()
    bodies: list[dict[str, Any]] = []
    for body, run, limit in variants:
        for record, after in _leaves(run, limit):
            key = _outcome(after)
            if key in seen:
                continue
            seen.add(key)
            bodies.append({**body, **_choice_fields(state, record)})
    return bodies


def _choice_fields(state: MadcalaState, record: Record) -> dict[str, Any]:
    values: dict[str, list[Any]] = {}
    several: set[str] = set()
    for field, options, index in record:
        values.setdefault(field, []).append(options[index])
        if len(options) > 1:
            several.add(field)
    fields: dict[str, Any] = {}
    for field in CHOICE_FIELDS:
        if field not in values or (field not in several and field != DRAWN):
            continue
        shown = [show_choice(state, field, value) for value in values[field]]
        fields[field] = shown[0] if field in SINGLE_CHOICES else shown
    return fields


def _outcome(state: MadcalaState) -> tuple[Any, ...]:
    return (
        state.spaces,
        state.reserves,
        tuple(tuple((card.face_up, card.shards) for card in cards) for cards in state.plus_ones),
        state.hands,
        state.deck.cards,
        state.discard,
        state.rng,
        state.health,
        state.extra_turns,
        state.finished,
    )


# --- paying ------------------------------------------------------------------------------------


def _pay_options(state: MadcalaState, seat: int, cost: int) -> list[tuple[int, ...]]:
    """Ways to pay ``cost`` of the seat's normal Shards: greedily from their Home clockwise, then
    all from one space, for each space holding enough. Empty when they hold too few."""
    clockwise = [(home(seat) + step) % SPACES for step in range(SPACES)]
    held = [(space, state.spaces[space].normal[seat]) for space in clockwise]
    if sum(count for _, count in held) < cost:
        return []
    greedy: list[int] = []
    for space, count in held:
        greedy += [space] * min(count, cost - len(greedy))
    options = [tuple(greedy)]
    options += [(space,) * cost for space, count in held if count >= cost]
    return list(dict.fromkeys(options))


def _distinct_permutations(effects: Sequence[str]) -> list[tuple[str, ...]]:
    """Every distinct order of ``effects``, the given order first."""
    return list(dict.fromkeys(permutations(effects)))
