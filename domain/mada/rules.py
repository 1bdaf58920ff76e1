"""The rules of Mada (spec/mada.md): setup, checking a move, and evolving the state by it.

``apply`` reads an event into a typed move (its shape), ``check`` judges it against the rules, and
``evolve`` then trusts it. Everything is O(size of the state): no replay, no legal-move listing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from domain.chance import CHANCE_MODES, OBSERVED, SEEDED, DrawPile
from domain.errors import IllegalMoveError, InvalidOptionsError
from domain.game import Event, Game, check_seed, register
from domain.mada import display, shapes, stats
from domain.mada.catalog import (
    CARDS_TO_END,
    DEFAULT,
    DOUBLE_LEMUR,
    HAND_LIMIT,
    LEMUR,
    SCORPION,
    Card,
    Catalog,
    card_order,
    normalize_catalog,
)
from domain.mada.legal import legal_moves, seat_legal_moves
from domain.mada.moves import (
    ChooseTarget,
    Deal,
    Draw,
    Move,
    Play,
    RoundDiscard,
    ScorpionDiscard,
    TryLuck,
    parse_event,
)
from domain.mada.state import (
    CHOOSE_TARGET,
    DEAL,
    ROUND_DISCARD,
    SCORPION_DISCARD,
    MadaState,
    Pending,
    can_draw_any,
    can_play_any,
    cards_to_reshuffle,
    current_player,
    effective_top,
    may_play,
    replace_at,
    scorpion_choices,
    with_changes,
    without,
)
from domain.mada.views import result, view
from domain.rng import SplitMix64
from domain.viewers import Viewer

OPTION_NAMES: Final = ("first_player", "chance", "catalog")

# What the awaited decision is, for messages: "it is seat 2's turn to <...>".
_AWAITED: Final = {
    None: "play, draw or try their luck",
    DEAL: "have their cards dealt (deal)",
    SCORPION_DISCARD: "choose the hand card that goes with the Scorpion (scorpion_discard)",
    CHOOSE_TARGET: "choose whose pile the Double Lemur swaps with (choose_target)",
    ROUND_DISCARD: "discard after losing the round (round_discard, possibly [])",
}
_TURN_MOVES: Final = (Play.type, Draw.type, TryLuck.type)


# --- setup -------------------------------------------------------------------------------------


def setup(players: int, seed: int, first_player: int, chance: str, catalog: Catalog) -> MadaState:
    observed = chance == OBSERVED
    draw_pile, rng = DrawPile.new(
        catalog.deck, observed=observed, rng=SplitMix64(seed), sort_key=card_order
    )
    state = MadaState(
        players=players,
        first_player=first_player,
        catalog=catalog,
        rng=rng,
        draw_pile=draw_pile,
        hands=((),) * players,
        piles=((),) * players,
        set_aside=((),) * players,
        discard=(),
        turn=first_player,
        pending=Pending(DEAL, 0) if observed else None,
        in_setup=True,
    )
    if observed:
        return state
    hands: list[tuple[Card, ...]] = [()] * players
    for dealt in range(HAND_LIMIT * players):
        card, draw_pile = draw_pile.draw(None)
        hands[dealt % players] += (card,)
    return _resolve_dealt_scorpions(with_changes(state, draw_pile=draw_pile, hands=tuple(hands)))


def _resolve_dealt_scorpions(state: MadaState) -> MadaState:
    """Dealt Scorpions resolve one at a time from seat 0; then ``first_player`` acts."""
    while (holder := _first_scorpion_holder(state)) is not None:
        hand = without(state.hands[holder], SCORPION)
        state = _reveal_scorpion(_set_hand(state, holder, hand), holder)
        if state.pending is not None:
            return state
    return _start_turn(with_changes(state, in_setup=False), state.first_player)


def _first_scorpion_holder(state: MadaState) -> int | None:
    return next((seat for seat, hand in enumerate(state.hands) if SCORPION in hand), None)


# --- checking ----------------------------------------------------------------------------------


def check(state: MadaState, move: Move) -> None:
    """Raise IllegalMoveError, naming the rule, if the rules forbid ``move`` now."""
    _check_awaited(state, move)
    seat = move.player
    hand = state.hands[seat]
    match move:
        case Deal(cards=cards):
            _check_unseen(state, cards)
        case Play(card=card, target=target):
            if card not in hand:
                raise IllegalMoveError(f"seat {seat} cannot play {card!r}: it is not in their hand")
            if not may_play(state.piles[seat], card):
                raise IllegalMoveError(
                    f"seat {seat} cannot play {card!r} on {effective_top(state.piles[seat])!r}:"
                    " a Cactus card must be equal to or higher than the top of the pile"
                )
            _check_target(seat, target)
        case Draw(card=seen):
            if len(hand) >= HAND_LIMIT:
                raise IllegalMoveError(
                    f"seat {seat} cannot draw with {len(hand)} cards in hand:"
                    f" the hand limit is {HAND_LIMIT}"
                )
            _check_drawable(state, seen)
        case TryLuck(card=seen):
            _check_drawable(state, seen)
        case ScorpionDiscard(card=card):
            if card not in scorpion_choices(hand):
                raise IllegalMoveError(
                    f"seat {seat} cannot discard {card!r} with the Scorpion:"
                    f" it must be one of their hand cards {list(scorpion_choices(hand))}"
                )
        case ChooseTarget(target=target):
            _check_target(seat, target)
        case RoundDiscard(cards=cards):
            if Counter(cards) - Counter(hand):
                raise IllegalMoveError(
                    f"seat {seat} cannot discard {list(cards)}:"
                    f" the loser discards only cards from their hand {list(hand)}"
                )


def _check_awaited(state: MadaState, move: Move) -> None:
    """The move is the decision awaited, made by the seat it is awaited from."""
    actor = current_player(state)
    kind = state.pending.kind if state.pending is not None else None
    awaited = _AWAITED[kind]
    if move.player != actor:
        raise IllegalMoveError(
            f"it is seat {actor}'s turn to {awaited}: seat {move.player} cannot {move.type} now"
        )
    allowed = _TURN_MOVES if kind is None else (kind,)
    if move.type not in allowed:
        raise IllegalMoveError(f"seat {actor} must {awaited}, not {move.type}")


def _check_target(seat: int, target: int | None) -> None:
    if target == seat:
        raise IllegalMoveError(
            f"seat {seat} cannot swap piles with themselves:"
            " a Double Lemur swaps with another player"
        )


def _check_unseen(state: MadaState, cards: tuple[Card, ...]) -> None:
    missing = Counter(cards) - Counter(state.draw_pile.cards)
    if missing:
        raise IllegalMoveError(
            f"cannot deal {list(cards)}: {sorted(missing.elements(), key=card_order)} "
            "would be more copies than the deck still holds unseen"
        )


def _check_drawable(state: MadaState, seen: Card | None) -> None:
    if not can_draw_any(state):
        raise IllegalMoveError(
            "no card can be drawn: the draw pile is empty and a reshuffle would gather nothing"
        )
    if seen is not None:
        unseen = state.draw_pile.cards or cards_to_reshuffle(state)
        if seen not in unseen:
            raise IllegalMoveError(
                f"{seen!r} cannot be drawn: no such card is left in the draw pile"
                + ("" if state.draw_pile else " once the discards are reshuffled")
            )


# --- evolving ----------------------------------------------------------------------------------


# ``also``, in the helpers below that take it: other fields changed in the same copy of the
# state (the card drawn comes with the draw pile left, the card played with the hand it left).
# Each copy of the state costs about as much as a rule's work, so an event makes as few as it can
# (issue #23).


def evolve(state: MadaState, move: Move) -> MadaState:
    """The state after ``move``, which ``check`` has accepted."""
    seat = move.player
    match move:
        case Deal(cards=cards):
            return _deal(state, seat, cards)
        case Play(card=card, target=target):
            hands = replace_at(state.hands, seat, without(state.hands[seat], card))
            if card == DOUBLE_LEMUR:
                # The event may leave out the target only with two players: then, the opponent.
                opponent = 1 - seat if target is None else target
                state = _swap_piles(_to_discard(state, card, hands=hands), seat, opponent)
            else:
                state = _onto_pile(state, seat, card, hands=hands)
            return _pass_turn(state, seat)
        case Draw(card=seen):
            card, draw_pile, state = _draw(state, seen)
            if card == SCORPION:
                return _after_scorpion(_reveal_scorpion(state, seat, draw_pile=draw_pile))
            hand = (*state.hands[seat], card)
            return _pass_turn(_set_hand(state, seat, hand, draw_pile=draw_pile), seat)
        case TryLuck(card=seen):
            return _try_luck(state, seat, seen)
        case ScorpionDiscard(card=card):
            state = with_changes(_discard_from_hand(state, seat, card), pending=None)
            return _after_scorpion(state)
        case ChooseTarget(target=target):
            return _pass_turn(_swap_piles(with_changes(state, pending=None), seat, target), seat)
        case RoundDiscard(cards=cards):
            for card in cards:
                state = _discard_from_hand(state, seat, card)
            return _start_turn(with_changes(state, pending=None), (seat + 1) % state.players)


def _deal(state: MadaState, seat: int, cards: tuple[Card, ...]) -> MadaState:
    draw_pile = state.draw_pile
    for card in cards:
        _, draw_pile = draw_pile.draw(card)
    state = with_changes(state, draw_pile=draw_pile, hands=replace_at(state.hands, seat, cards))
    if seat + 1 < state.players:
        return with_changes(state, pending=Pending(DEAL, seat + 1))
    return _resolve_dealt_scorpions(with_changes(state, pending=None))


def _try_luck(state: MadaState, seat: int, seen: Card | None) -> MadaState:
    card, draw_pile, state = _draw(state, seen)
    if card == SCORPION:
        return _after_scorpion(_reveal_scorpion(state, seat, draw_pile=draw_pile))
    if card == DOUBLE_LEMUR:
        state = _to_discard(state, card, draw_pile=draw_pile)
        if state.players == 2:
            return _pass_turn(_swap_piles(state, seat, 1 - seat), seat)
        return with_changes(state, pending=Pending(CHOOSE_TARGET, seat))
    pile = state.piles[seat]
    lost = isinstance(card, int) and not may_play(pile, card)
    # A losing card still lands on the pile, and goes to the discard with it.
    state = _onto_pile(state, seat, card, draw_pile=draw_pile)
    return _lose_round(state, seat) if lost else _pass_turn(state, seat)


def _draw(state: MadaState, seen: Card | None) -> tuple[Card, DrawPile[Card], MadaState]:
    """The card drawn, the draw pile left after it, and the state it was drawn from: ``state``, or
    when its draw pile is empty, ``state`` with the discards reshuffled into a new one.

    The caller puts the pile left into the state along with the card's own changes, in a single
    copy of the state (``also``, issue #23).
    """
    if not state.draw_pile:
        state = _reshuffle(state)
    card, draw_pile = state.draw_pile.draw(seen)
    return card, draw_pile, state


def _reshuffle(state: MadaState) -> MadaState:
    draw_pile, rng = DrawPile.new(
        cards_to_reshuffle(state), observed=state.observed, rng=state.rng, sort_key=card_order
    )
    tops = tuple(pile[-1:] for pile in state.piles)
    return with_changes(state, draw_pile=draw_pile, rng=rng, discard=(), piles=tops)


def _reveal_scorpion(state: MadaState, seat: int, **also: Any) -> MadaState:
    """The Scorpion goes on the discard; a hand card follows it now, or once its holder chooses."""
    state = _to_discard(state, SCORPION, **also)
    choices = scorpion_choices(state.hands[seat])
    if len(choices) > 1:
        return with_changes(state, pending=Pending(SCORPION_DISCARD, seat))
    if choices:
        state = _discard_from_hand(state, seat, choices[0])
    return state


def _after_scorpion(state: MadaState) -> MadaState:
    """Once a Scorpion is resolved whole: the setup goes on, or the turn passes."""
    if state.pending is not None:
        return state
    if state.in_setup:
        return _resolve_dealt_scorpions(state)
    return _pass_turn(state, state.turn)


def _onto_pile(state: MadaState, seat: int, card: Card, **also: Any) -> MadaState:
    pile = state.piles[seat]
    pile = _lemur_drags(pile) if card == LEMUR else (*pile, card)
    return with_changes(state, piles=replace_at(state.piles, seat, pile), **also)


def _lemur_drags(pile: tuple[Card, ...]) -> tuple[Card, ...]:
    """The Lemur takes the top card and the equal cards right below it down to the bottom.

    ``[a, 5, 7, 7] + Lemur`` becomes ``[7, 7, lemur, a, 5]``; a top Lemur is taken alone.
    """
    if not pile:
        return (LEMUR,)
    top = pile[-1]
    start = len(pile) - 1
    if top != LEMUR:
        while start > 0 and pile[start - 1] == top:
            start -= 1
    return (*pile[start:], LEMUR, *pile[:start])


def _lose_round(state: MadaState, loser: int) -> MadaState:
    set_aside = list(state.set_aside)
    discard = list(state.discard)
    for seat, pile in enumerate(state.piles):
        # A top Lemur is not set aside (a ruling): it goes to the discard with the rest.
        if seat != loser and pile and isinstance(pile[-1], int):
            set_aside[seat] += (pile[-1],)
            pile = pile[:-1]
        discard.extend(pile)
    state = with_changes(
        state,
        set_aside=tuple(set_aside),
        discard=tuple(discard),
        piles=((),) * state.players,
    )
    if any(len(cards) >= CARDS_TO_END for cards in state.set_aside):
        return with_changes(state, finished=True, pending=None)
    state = with_changes(state, round=state.round + 1)
    if state.hands[loser]:
        return with_changes(state, pending=Pending(ROUND_DISCARD, loser))
    return _start_turn(state, (loser + 1) % state.players)


def _pass_turn(state: MadaState, seat: int) -> MadaState:
    return _start_turn(state, (seat + 1) % state.players)


def _start_turn(state: MadaState, seat: int) -> MadaState:
    """``seat`` acts, or the first seat clockwise from it with a move (the others pass).

    When nobody can move, the game ends and is scored as it stands (a ruling).
    """
    drawable = can_draw_any(state)
    for step in range(state.players):
        candidate = (seat + step) % state.players
        if drawable or can_play_any(state, candidate):
            return with_changes(state, turn=candidate, pending=None)
    return with_changes(state, finished=True, pending=None)


def _swap_piles(state: MadaState, seat: int, target: int) -> MadaState:
    piles = replace_at(state.piles, seat, state.piles[target])
    return with_changes(state, piles=replace_at(piles, target, state.piles[seat]))


def _set_hand(state: MadaState, seat: int, hand: tuple[Card, ...], **also: Any) -> MadaState:
    return with_changes(state, hands=replace_at(state.hands, seat, hand), **also)


def _to_discard(state: MadaState, card: Card, **also: Any) -> MadaState:
    return with_changes(state, discard=(*state.discard, card), **also)


def _discard_from_hand(state: MadaState, seat: int, card: Card) -> MadaState:
    return _to_discard(_set_hand(state, seat, without(state.hands[seat], card)), card)


# --- the game ----------------------------------------------------------------------------------


class Mada(Game[MadaState]):
    name = "mada"
    rules_version = "mada/1"
    min_players = 2
    max_players = 5
    length_counters = (stats.ROUNDS,)
    event_fields = {
        "deal": {"player": "seat dealt to (observed mode, at setup)", "cards": "the 3 cards dealt"},
        "play": {
            "player": "seat",
            "card": "a card from hand: 1..13, lemur or double_lemur",
            "target": "with a double_lemur: the seat to swap piles with (optional with 2 players)",
        },
        "draw": {"player": "seat", "card": "observed mode only: the card drawn"},
        "try_luck": {"player": "seat", "card": "observed mode only: the card revealed"},
        "scorpion_discard": {"player": "seat", "card": "the hand card that goes with the Scorpion"},
        "choose_target": {"player": "seat", "target": "the seat to swap piles with"},
        "round_discard": {"player": "the loser", "cards": "hand cards to discard, in order"},
    }
    # The cards dealt to a seat and the card it drew go to its hand unseen by the others (a draw
    # names its card only in observed mode). A card tried, played or discarded is shown to all.
    private_event_fields = {"deal": ("cards",), "draw": ("card",)}

    # The shapes of its events and of its state, for the API's document (shapes.py).
    event_schemas = shapes.EVENT_SCHEMAS
    state_schema = shapes.STATE_SCHEMA
    # How the pages draw it (browser/mada.js) and what they ask of it (display.py).
    browser_assets = "domain.mada.browser"
    chance_fields = display.CHANCE_FIELDS

    def catalog_view(self, state: MadaState) -> dict[str, Any]:
        return display.catalog_view(state)

    def describe(
        self, event: Event, players: Sequence[str], options: Mapping[str, Any] | None = None
    ) -> str:
        return display.describe(event, players)

    def options(self, raw: Mapping[str, Any], players: int) -> dict[str, Any]:
        self.check_options(raw, players, OPTION_NAMES)
        first_player = self.first_player_option(raw, players)
        chance = raw.get("chance", SEEDED)
        if chance not in CHANCE_MODES:
            raise InvalidOptionsError(
                f"chance must be 'seeded' or 'observed', got {chance!r}",
                {"chance": "'seeded' or 'observed'"},
            )
        options: dict[str, Any] = {"first_player": int(first_player), "chance": chance}
        if "catalog" in raw:
            options["catalog"] = normalize_catalog(raw["catalog"], players)
        return options

    def options_schema(self, players: int) -> Mapping[str, Any]:
        return shapes.options_schema(players)

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> MadaState:
        # Options are normalized again (it is cheap and idempotent) so that no caller can start a
        # game from options that were never checked.
        checked = self.options(options, players)
        check_seed(seed)
        catalog = Catalog.from_json(checked["catalog"]) if "catalog" in checked else DEFAULT
        return setup(players, seed, checked["first_player"], checked["chance"], catalog)

    def play(self, state: MadaState, event: Event) -> MadaState:
        move = parse_event(state, event)
        check(state, move)
        return evolve(state, move)

    def legal_moves(self, state: MadaState) -> list[dict[str, Any]]:
        return legal_moves(state)

    def seat_legal_moves(self, state: MadaState, seat: int) -> list[dict[str, Any]]:
        return seat_legal_moves(state, seat)

    def view(self, state: MadaState, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer)

    def to_act(self, state: MadaState) -> int | None:
        return current_player(state)

    def result(self, state: MadaState) -> dict[str, Any] | None:
        return result(state)

    def first_player(self, state: MadaState) -> int:
        return state.first_player

    def stats_counters(
        self, events: Sequence[Event], states: Sequence[MadaState]
    ) -> dict[str, int]:
        return stats.stats_counters(events, states)

    def stats_summary(self, counters: Mapping[str, int], games: int) -> dict[str, float]:
        return stats.stats_summary(counters, games)


MADA: Final = register(Mada())
