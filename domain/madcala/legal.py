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
- a seat is told its moves (``seat_legal_moves``) as it could list them itself: in observed mode
  the first Commoner an action draws is then each Commoner it cannot rule out, and everything is
  worked out from a table dealt from what the seat sees (see ``_seat_deal``); in seeded mode it is
  told the list above, which names no drawn card;
- at most 64 combinations of choices per variant of an action (the first ones in the order of each
  choice's options: spaces, then seats, card slots, catalog order).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations, permutations
from math import comb
from typing import Any, Final, TypeVar, cast

from domain.chance import DrawPile
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
    pair,
    replace_at,
    side,
    side_is_empty,
    with_changes,
)

T = TypeVar("T")
# An action with its fields bound, run from a given state with a chooser for its choices.
Run = Callable[[MadcalaState, Chooser], MadcalaState]
Record = list[tuple[str, tuple[Any, ...], int]]

LEAVES_PER_VARIANT: Final = 64
MAX_ORDERS: Final = 16


def legal_moves(state: MadcalaState) -> list[dict[str, Any]]:
    """Every move as the recorder, who sees every card, is told them."""
    return _listing(_Deal(state))


def seat_legal_moves(state: MadcalaState, seat: int) -> list[dict[str, Any]]:
    """The moves of ``seat`` as it may be told them: a list it could work out itself, so that it
    gives away none of the cards it cannot see.

    Seeded mode: the recorder's list. Its bodies name no drawn card, and every variant of an
    action draws the same cards, so neither the bodies nor which of them are merged as having the
    same outcome depend on the hidden cards.

    Observed mode: a body's ``drawn`` is first each Commoner the seat cannot rule out, the distinct
    ids among the unseen ones and the other seat's hand. Listing only the unseen would tell that
    hand (the rest). The rules still draw from the unseen alone: a listed body naming a Commoner
    that is in fact in the other hand is refused as illegal (422), as the table would refuse it.
    """
    if state.finished or seat != state.current:
        return []
    if not state.observed:
        return legal_moves(state)
    return _listing(_seat_deal(state, seat))


def _listing(deal: _Deal) -> list[dict[str, Any]]:
    state = deal.state
    seat = state.current
    if state.finished:
        return []
    moves: list[dict[str, Any]] = []
    if not state.moved:
        moves += _moves(deal, seat)
    if state.turn > 1:
        moves += _plus_ones(deal, seat)
    moves += _buys(deal, seat)
    moves += _commoners(deal, seat)
    if state.moved:
        moves += _end_turns(state, seat)
    return moves


# --- what the lister knows ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Deal:
    """Where a listing runs each action from.

    ``state`` is the state an action is run from. ``first_draws``, when given, replaces the options
    of an action's first draw (the deck's distinct cards); an action whose first draw names a card
    ``state``'s deck does not hold is run again from ``holding(card)``, a state whose deck does.
    The recorder's deal is the state itself and the deck's own options.
    """

    state: MadcalaState
    first_draws: tuple[int, ...] | None = None
    holding: Callable[[int], MadcalaState] | None = None


def _seat_deal(state: MadcalaState, seat: int) -> _Deal:
    """An observed table as ``seat`` can know it: the Commoners it has not seen (the unseen ones
    and the other seat's hand, a pool it cannot tell apart) dealt again in catalog order, the deck
    getting the first ones and the other hand the rest, so that what is listed depends only on
    what the seat sees. Its first draw may name any card of the pool; naming one not dealt to the
    deck, the action runs from the table that deals that card to the deck, then the first others.
    A draw from a rebuilt deck needs nothing of this: the discard it is rebuilt from is public."""
    other = 1 - seat
    sort_key = state.deck.sort_key
    pool = tuple(sorted((*state.deck.cards, *state.hands[other]), key=sort_key))
    holding = partial(_dealt, state, other, pool)
    first_draws = tuple(dict.fromkeys(pool)) if state.deck else None
    return _Deal(holding(None), first_draws, holding)


def _dealt(
    state: MadcalaState, other: int, pool: tuple[int, ...], first: int | None
) -> MadcalaState:
    """``state`` with ``pool`` dealt in order: as many cards as its deck holds to the deck
    (``first`` among them, if given), the rest to seat ``other``'s hand."""
    rest = list(pool)
    dealt: list[int] = []
    if first is not None:
        rest.remove(first)
        dealt.append(first)
    size = len(state.deck) - len(dealt)
    assert size >= 0, "a first draw names a card only when the deck holds some"
    deck = DrawPile(
        tuple(sorted(dealt + rest[:size], key=state.deck.sort_key)), True, state.deck.sort_key
    )
    hands = pair(replace_at(state.hands, other, tuple(rest[size:])))
    return with_changes(state, deck=deck, hands=hands)


def _bind(action: Callable[..., MadcalaState], *fields: Any) -> Run:
    """``action(state, *fields, chooser)`` to run from any state (a seat's deal has several)."""

    def run(state: MadcalaState, chooser: Chooser) -> MadcalaState:
        return action(state, *fields, chooser)

    return run


# --- the actions -------------------------------------------------------------------------------


def _moves(deal: _Deal, seat: int) -> list[dict[str, Any]]:
    state = deal.state
    if side_is_empty(state, seat):
        fallback_body = {"type": "move", "player": seat, "space": None}
        return _collect(deal, [(fallback_body, _bind(_run_fallback, seat), 1)])
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
                run = _bind(move_shards, seat, space, order, last)
                variants.append((body, run, LEAVES_PER_VARIANT if not variants else 1))
        moves += _collect(deal, variants)
    return moves


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


def _plus_ones(deal: _Deal, seat: int) -> list[dict[str, Any]]:
    state = deal.state
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
                run = _bind(use_plus_one, seat, card.id, paid, effects)
                variants.append((body, run, LEAVES_PER_VARIANT if not variants else 1))
        moves += _collect(deal, variants)
    return moves


def _buys(deal: _Deal, seat: int) -> list[dict[str, Any]]:
    state = deal.state
    if not can_draw(state):
        return []
    variants: list[tuple[dict[str, Any], Run, int]] = []
    for paid in _pay_options(state, seat, COMMONER_PRICE):
        body = {"type": "buy_commoner", "player": seat, "pay": list(paid)}
        run = _bind(buy_commoner, seat, paid)
        variants.append((body, run, LEAVES_PER_VARIANT if not variants else 1))
    return _collect(deal, variants)


def _commoners(deal: _Deal, seat: int) -> list[dict[str, Any]]:
    state = deal.state
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
                    run = _bind(play_commoner, seat, card, effects)
                    variants.append((body, run, 1 if position else LEAVES_PER_VARIANT))
        moves += _collect(deal, variants)
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


class _DealtElsewhere(Exception):
    """An action's first draw named a card the deck it runs from does not hold."""

    def __init__(self, card: int) -> None:
        super().__init__(card)
        self.card = card


class _Script:
    """Answers each choice from ``prefix`` (option indices), then with the first option; keeps
    the record of every choice asked: its field, its options and the index taken. The options of
    the first draw are ``first_draws`` when given."""

    def __init__(self, prefix: Sequence[int], first_draws: tuple[int, ...] | None) -> None:
        self.prefix = prefix
        self.first_draws = first_draws
        self.record: Record = []

    def choose(self, field: str, options: Sequence[T]) -> T:
        offered = options
        first_draw = field == DRAWN and all(earlier[0] != DRAWN for earlier in self.record)
        if first_draw and self.first_draws is not None:
            # A draw's options are Commoners (ints), as ``first_draws`` are.
            options = cast(Sequence[T], self.first_draws)
        depth = len(self.record)
        index = self.prefix[depth] if depth < len(self.prefix) else 0
        self.record.append((field, tuple(options), index))
        chosen = options[index]
        if options is not offered and chosen not in offered:
            raise _DealtElsewhere(cast(int, chosen))
        return chosen


def _run(deal: _Deal, run: Run, prefix: Sequence[int]) -> tuple[Record, MadcalaState]:
    """``run`` with the choices of ``prefix``, from the deal's state or, if its first draw names a
    card that state's deck does not hold, from the state the deal holds that card in."""
    script = _Script(prefix, deal.first_draws)
    try:
        return script.record, run(deal.state, script)
    except _DealtElsewhere as elsewhere:
        assert deal.holding is not None
        # Everything before an action's first draw is the same whatever the deck holds: the run
        # takes the same choices up to it.
        script = _Script(prefix, deal.first_draws)
        return script.record, run(deal.holding(elsewhere.card), script)


def _leaves(deal: _Deal, run: Run, limit: int) -> list[tuple[Record, MadcalaState]]:
    """Up to ``limit`` combinations of choices, in lexicographic order of their option indices,
    with the state each leads to. A draw after the first of the same action is not branched on."""
    found: list[tuple[Record, MadcalaState]] = []

    def explore(prefix: list[int]) -> None:
        record, after = _run(deal, run, prefix)
        found.append((record, after))
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
    deal: _Deal, variants: Sequence[tuple[dict[str, Any], Run, int]]
) -> list[dict[str, Any]]:
    """The bodies of each variant (its fields, then its choices), one per distinct outcome."""
    seen: set[tuple[Any, ...]] = set()
    bodies: list[dict[str, Any]] = []
    for body, run, limit in variants:
        for record, after in _leaves(deal, run, limit):
            key = _outcome(after)
            if key in seen:
                continue
            seen.add(key)
            bodies.append({**body, **_choice_fields(deal.state, record)})
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
