"""How each action of a turn changes the table: sowing, the effects, Plus-Ones, Commoners.

Every choice an effect needs is asked of a ``Chooser`` at the moment the effect is performed, with
the options it has then (a second refresh cannot take the card the first one turned face up). When
an event is applied, the chooser reads the event's choice fields (``EventChooser``) and rejects a
choice that is not among the options; ``legal.py`` drives the same functions with a chooser that
tries the options, so that legal moves and the rules cannot disagree.

The preconditions of an action (whose turn, which card, what is paid) are ``rules.check``'s; the
functions here trust them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final, Protocol, TypeVar

from domain.chance import DrawPile
from domain.errors import IllegalMoveError
from domain.madcala.catalog import (
    ADD_SHARD,
    DAMAGE,
    DRAW_COMMONER,
    EXTRA_TURN,
    GATHER_SHARDS,
    HEAL,
    REFRESH_PLUS_ONE,
    STRIKE_PLUS_ONE,
    STRIKE_SHARD,
    TO_ANY_OWN_SPACE,
    TO_RESERVE,
    commoner_order,
)
from domain.madcala.moves import (
    DRAWN,
    HOME_SPACE,
    PLACE,
    REFRESH,
    SINGLE_CHOICES,
    STRIKE,
    STRIKE_CARD,
)
from domain.madcala.state import (
    HAND_LIMIT,
    SEATS,
    MadcalaState,
    PlusOne,
    Space,
    effect_at,
    home,
    next_space,
    pair,
    replace_at,
    side,
    with_changes,
    without,
)

T = TypeVar("T")


class Chooser(Protocol):
    def choose(self, field: str, options: Sequence[T]) -> T:
        """One of ``options`` (never empty) for the choice named ``field``."""
        ...


# What each choice field decides, for messages.
_WHAT: Final = {
    HOME_SPACE: "the space of your side whose effect your Home performs",
    PLACE: "the space of your side where the Corrupted card's Shard goes",
    REFRESH: "the face-down Refreshable card of yours a refresh turns face up",
    STRIKE: "the normal Shard a strike takes back to its owner's reserve ({space, seat})",
    STRIKE_CARD: "the face-up Refreshable card of your opponent's a strike turns face down",
    DRAWN: "the Commoner drawn",
}
_WHEN: Final = {
    HOME_SPACE: "only when the last Shard lands on your Home",
    PLACE: "only for a Corrupted card whose Shard goes to any space of your side",
    REFRESH: "one per refresh performed while you have a face-down Refreshable card",
    STRIKE: "one per strike_shard performed while a normal Shard is on the board",
    STRIKE_CARD: "one per strike_plus_one performed while your opponent has a face-up"
    " Refreshable card",
    DRAWN: "one per Commoner drawn",
}


class EventChooser:
    """Takes each choice from the event's fields, in order; a field left out defaults to the only
    option, and is required when there are several."""

    def __init__(self, state: MadcalaState, given: Mapping[str, tuple[Any, ...]]) -> None:
        self.state = state
        self.given = given
        self.used: dict[str, int] = dict.fromkeys(given, 0)

    def choose(self, field: str, options: Sequence[T]) -> T:
        values = self.given.get(field)
        if values is None:
            if len(options) == 1:
                return options[0]
            raise IllegalMoveError(
                f"the event must choose {_WHAT[field]}: give {field!r}, one of"
                f" {self._show(field, options)}",
                {field: "required here"},
            )
        index = self.used[field]
        if index >= len(values):
            raise IllegalMoveError(
                f"{field} names {len(values)} choice(s) but the event needs more:"
                f" {_WHAT[field]} is still to choose, among {self._show(field, options)}",
                {field: "too few choices"},
            )
        self.used[field] = index + 1
        value = values[index]
        for option in options:
            if option == value:
                return option
        where = field if field in SINGLE_CHOICES else f"{field}[{index}]"
        raise IllegalMoveError(
            f"{where} = {self._show(field, [value])[0]!r} is not possible now: {_WHAT[field]}"
            f" must be one of {self._show(field, options)}",
            {field: "not one of the options"},
        )

    def finish(self) -> None:
        """Every choice given was used."""
        for field, values in self.given.items():
            if self.used[field] < len(values):
                raise IllegalMoveError(
                    f"{field} names more choices than the event makes ({len(values)} given,"
                    f" {self.used[field]} made): {field} is {_WHEN[field]}",
                    {field: "more choices than the event makes"},
                )

    def _show(self, field: str, values: Iterable[Any]) -> list[Any]:
        return [show_choice(self.state, field, value) for value in values]


def show_choice(state: MadcalaState, field: str, value: Any) -> Any:
    """A choice as an event writes it."""
    if field == DRAWN:
        return state.catalog.commoners[value].id
    if field == STRIKE:
        return {"space": value[0], "seat": value[1]}
    return value


# --- the board ---------------------------------------------------------------------------------


def sow(
    state: MadcalaState,
    seat: int,
    space: int,
    order: tuple[int, ...] | None,
    last_doubler: int | None,
) -> tuple[MadcalaState, int, bool]:
    """Take every Shard from ``space`` and place them one per space clockwise, skipping the
    opponent's Home: normal Shards first (``order``, or the mover's first), then the Doublers
    (``last_doubler`` last, or the mover's). Returns the state, the last space, and whether the
    last Shard placed is a Doubler."""
    taken = state.spaces[space]
    if order is None:
        order = (seat,) * taken.normal[seat] + (1 - seat,) * taken.normal[1 - seat]
    doublers = [owner for owner in range(SEATS) if taken.doubler[owner]]
    if len(doublers) == 2:
        last = seat if last_doubler is None else last_doubler
        doublers = [1 - last, last]
    # Only the spaces the Shards leave or land on are made anew; the others are kept as they are
    # (rebuilding all twelve at each move took a good part of a replay's time, issue #23).
    spaces = list(state.spaces)
    spaces[space] = Space((0, 0), (False, False))
    at = space
    for owner in order:
        at = next_space(at, seat)
        cell = spaces[at]
        normal = pair(replace_at(cell.normal, owner, cell.normal[owner] + 1))
        spaces[at] = Space(normal, cell.doubler)
    for owner in doublers:
        at = next_space(at, seat)
        cell = spaces[at]
        spaces[at] = Space(cell.normal, pair(replace_at(cell.doubler, owner, True)))
    return with_changes(state, spaces=tuple(spaces)), at, bool(doublers)


def move_shards(
    state: MadcalaState,
    seat: int,
    space: int,
    order: tuple[int, ...] | None,
    last_doubler: int | None,
    chooser: Chooser,
) -> MadcalaState:
    """The Move Shards action, landing effect(s) included."""
    state, last, doubled = sow(state, seat, space, order, last_doubler)
    state = with_changes(state, moved=True)
    effect = effect_at(state, last)
    if effect is None:
        # Only the mover's own Home can be reached: the opponent's is skipped.
        chosen = chooser.choose(HOME_SPACE, tuple(side(seat))[1:])
        state = perform(state, seat, _effect_of(state, chosen), chooser)
        if doubled and not state.finished:
            state = with_changes(state, extra_turns=state.extra_turns + 1)
        return state
    state = perform(state, seat, effect, chooser)
    if doubled:
        state = perform(state, seat, effect, chooser)
    return state


def _effect_of(state: MadcalaState, space: int) -> str:
    effect = effect_at(state, space)
    assert effect is not None
    return effect


def fallback(state: MadcalaState, seat: int) -> MadcalaState:
    """No Shard on the mover's side: one Shard from the reserve on the Home and on each of the two
    spaces after it, as many as the reserve allows."""
    reserve = state.reserves[seat]
    spaces = state.spaces
    for space in range(home(seat), home(seat) + 3):
        if not reserve:
            break
        reserve -= 1
        spaces = _add_normal(spaces, space, seat, 1)
    reserves = replace_at(state.reserves, seat, reserve)
    return with_changes(state, spaces=spaces, reserves=pair(reserves), moved=True)


def pay(state: MadcalaState, seat: int, spaces: Sequence[int]) -> MadcalaState:
    """The mover's normal Shards on ``spaces`` (one per entry) back to their reserve."""
    board = state.spaces
    for space, count in Counter(spaces).items():
        board = _add_normal(board, space, seat, -count)
    reserves = replace_at(state.reserves, seat, state.reserves[seat] + len(spaces))
    return with_changes(state, spaces=board, reserves=pair(reserves))


def _add_normal(spaces: tuple[Space, ...], space: int, seat: int, count: int) -> tuple[Space, ...]:
    cell = spaces[space]
    normal = pair(replace_at(cell.normal, seat, cell.normal[seat] + count))
    return replace_at(spaces, space, Space(normal, cell.doubler))


# --- effects -----------------------------------------------------------------------------------


def perform_all(
    state: MadcalaState, seat: int, effects: Iterable[str], chooser: Chooser
) -> MadcalaState:
    for effect in effects:
        state = perform(state, seat, effect, chooser)
    return state


def perform(state: MadcalaState, seat: int, effect: str, chooser: Chooser) -> MadcalaState:
    """One effect for ``seat``. Once a seat's health is 0 the game is over and nothing more is
    performed, not even the rest of the same event."""
    if state.finished:
        return state
    other = 1 - seat
    if effect == ADD_SHARD:
        if not state.reserves[seat]:
            return state
        reserves = replace_at(state.reserves, seat, state.reserves[seat] - 1)
        spaces = _add_normal(state.spaces, home(seat), seat, 1)
        return with_changes(state, spaces=spaces, reserves=pair(reserves))
    if effect == HEAL:
        healed = min(state.health[seat] + 1, state.max_health[seat])
        return with_changes(state, health=pair(replace_at(state.health, seat, healed)))
    if effect == DRAW_COMMONER:
        return draw(state, seat, chooser)
    if effect == DAMAGE:
        if not state.health[other]:
            return state
        health = pair(replace_at(state.health, other, state.health[other] - 1))
        dealt = pair(replace_at(state.damage_dealt, seat, state.damage_dealt[seat] + 1))
        return with_changes(state, health=health, damage_dealt=dealt, finished=health[other] == 0)
    if effect == REFRESH_PLUS_ONE:
        options = [card.card.id for card in state.plus_ones[seat] if _refreshable(card)]
        if not options:
            return state
        return _flip(state, seat, chooser.choose(REFRESH, options), face_up=True)
    if effect == STRIKE_PLUS_ONE:
        options = [card.card.id for card in state.plus_ones[other] if _strikable(card)]
        if not options:
            return state
        return _flip(state, other, chooser.choose(STRIKE_CARD, options), face_up=False)
    if effect == GATHER_SHARDS:
        return _gather(state, seat)
    if effect == EXTRA_TURN:
        return with_changes(state, extra_turns=state.extra_turns + 1)
    assert effect == STRIKE_SHARD, effect
    shards = [
        (space, owner)
        for space, cell in enumerate(state.spaces)
        for owner in range(SEATS)
        if cell.normal[owner]
    ]
    if not shards:
        return state
    space, owner = chooser.choose(STRIKE, shards)
    reserves = replace_at(state.reserves, owner, state.reserves[owner] + 1)
    return with_changes(
        state, spaces=_add_normal(state.spaces, space, owner, -1), reserves=pair(reserves)
    )


def draw(state: MadcalaState, seat: int, chooser: Chooser) -> MadcalaState:
    """The top Commoner into ``seat``'s hand; an empty deck is first rebuilt by shuffling the
    discard (seeded: with the game's generator; observed: the table shuffles); with both empty,
    nothing."""
    if not state.deck:
        if not state.discard:
            return state
        deck, rng = DrawPile.new(
            state.discard, observed=state.observed, rng=state.rng, sort_key=commoner_order
        )
        state = with_changes(state, deck=deck, rng=rng, discard=())
    seen = chooser.choose(DRAWN, state.deck.distinct()) if state.observed else None
    card, deck = state.deck.draw(seen)
    hands = pair(replace_at(state.hands, seat, (*state.hands[seat], card)))
    return with_changes(state, deck=deck, hands=hands)


def _refreshable(card: PlusOne) -> bool:
    return not card.face_up and not card.card.corrupted


def _strikable(card: PlusOne) -> bool:
    return card.face_up and not card.card.corrupted


def _flip(state: MadcalaState, seat: int, card_id: str, *, face_up: bool) -> MadcalaState:
    cards = tuple(
        replace(card, face_up=face_up) if card.card.id == card_id else card
        for card in state.plus_ones[seat]
    )
    return with_changes(state, plus_ones=pair(replace_at(state.plus_ones, seat, cards)))


def _gather(state: MadcalaState, seat: int) -> MadcalaState:
    """Every Shard of ``seat``, Doubler included, from everywhere on the board to their Home."""
    target = home(seat)
    gathered = 0
    spaces: list[Space] = []
    for index, cell in enumerate(state.spaces):
        if index == target:
            spaces.append(cell)
            continue
        gathered += cell.normal[seat]
        spaces.append(
            Space(
                pair(replace_at(cell.normal, seat, 0)),
                pair(replace_at(cell.doubler, seat, False)),
            )
        )
    gathered_doubler = any(cell.doubler[seat] for cell in state.spaces)
    cell = spaces[target]
    spaces[target] = Space(
        pair(replace_at(cell.normal, seat, cell.normal[seat] + gathered)),
        pair(replace_at(cell.doubler, seat, gathered_doubler)),
    )
    return with_changes(state, spaces=tuple(spaces))


# --- cards -------------------------------------------------------------------------------------


def use_plus_one(
    state: MadcalaState,
    seat: int,
    card_id: str,
    paid: Sequence[int],
    effects: Sequence[str],
    chooser: Chooser,
) -> MadcalaState:
    """A Refreshable card: pay, perform, turn face down. A Corrupted card: move one of its Shards
    where it says (turning it face down, spent, if it was the last), then perform."""
    slot = next(i for i, card in enumerate(state.plus_ones[seat]) if card.card.id == card_id)
    used = state.plus_ones[seat][slot]
    if used.card.corrupted:
        left = used.shards - 1
        state = _set_card(state, seat, slot, PlusOne(used.card, left > 0, left))
        if used.card.to == TO_RESERVE:
            reserves = replace_at(state.reserves, seat, state.reserves[seat] + 1)
            state = with_changes(state, reserves=pair(reserves))
        else:
            where = (
                chooser.choose(PLACE, tuple(side(seat)))
                if used.card.to == TO_ANY_OWN_SPACE
                else home(seat)
            )
            state = with_changes(state, spaces=_add_normal(state.spaces, where, seat, 1))
        return perform_all(state, seat, effects, chooser)
    state = perform_all(pay(state, seat, paid), seat, effects, chooser)
    card = state.plus_ones[seat][slot]
    return _set_card(state, seat, slot, replace(card, face_up=False))


def _set_card(state: MadcalaState, seat: int, slot: int, card: PlusOne) -> MadcalaState:
    cards = replace_at(state.plus_ones[seat], slot, card)
    return with_changes(state, plus_ones=pair(replace_at(state.plus_ones, seat, cards)))


def buy_commoner(
    state: MadcalaState, seat: int, paid: Sequence[int], chooser: Chooser
) -> MadcalaState:
    return draw(pay(state, seat, paid), seat, chooser)


def play_commoner(
    state: MadcalaState, seat: int, card: int, effects: Sequence[str], chooser: Chooser
) -> MadcalaState:
    """The card leaves the hand, its chosen effects are performed, then it goes to the discard."""
    hands = pair(replace_at(state.hands, seat, without(state.hands[seat], card)))
    state = perform_all(with_changes(state, hands=hands), seat, effects, chooser)
    return with_changes(state, discard=(*state.discard, card))


def end_turn(state: MadcalaState, seat: int, discard: Sequence[int]) -> MadcalaState:
    """Discard down to the hand limit; then the opponent plays, or the same seat again while it is
    owed extra turns."""
    hand = state.hands[seat]
    for card in discard:
        hand = without(hand, card)
    assert len(hand) <= HAND_LIMIT
    state = with_changes(
        state,
        hands=pair(replace_at(state.hands, seat, hand)),
        discard=(*state.discard, *discard),
        turn=state.turn + 1,
        moved=False,
    )
    if state.extra_turns:
        return with_changes(state, extra_turns=state.extra_turns - 1)
    return with_changes(state, current=1 - seat)
