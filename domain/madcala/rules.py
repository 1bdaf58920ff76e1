"""The rules of Madcala (spec/madcala.md): setup, checking an action, and resolving it.

``apply`` reads an event into a typed move (its shape, ``moves.py``), ``check`` judges the action's
preconditions against the rules (whose turn, the move made once, the card and what is paid), and
``resolve`` performs it, asking each choice of the event as its effect comes (a choice depends on
the effects before it). Everything is O(size of the state): no replay, no legal-move listing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

from domain.chance import CHANCE_MODES, OBSERVED, SEEDED, DrawPile
from domain.errors import IllegalMoveError, InvalidOptionsError
from domain.events import is_int
from domain.game import Event, Game, check_seed, register
from domain.madcala import display, shapes, stats
from domain.madcala.catalog import (
    DEFAULT,
    MAX_HEALTH,
    MIN_HEALTH,
    SPACE_EFFECTS,
    Catalog,
    Guest,
    commoner_order,
    normalize_catalog,
)
from domain.madcala.legal import legal_moves, seat_legal_moves
from domain.madcala.moves import (
    DRAWN,
    BuyCommoner,
    EndTurn,
    Move,
    MoveShards,
    PlayCommoner,
    UsePlusOne,
    parse_event,
)
from domain.madcala.resolve import (
    EventChooser,
    buy_commoner,
    end_turn,
    fallback,
    move_shards,
    play_commoner,
    use_plus_one,
)
from domain.madcala.state import (
    HAND_LIMIT,
    NORMAL_SHARDS,
    SEATS,
    SHARDS_PER_SPACE,
    SIDE,
    SPACES,
    MadcalaState,
    PlusOne,
    Space,
    can_draw,
    home,
    owner,
    side_is_empty,
)
from domain.madcala.views import result, view
from domain.rng import SplitMix64
from domain.viewers import Viewer

OPTION_NAMES: Final = ("guests", "first_player", "chance", "layout", "catalog", "health")


# --- setup -------------------------------------------------------------------------------------


def setup(
    seed: int,
    catalog: Catalog,
    guests: tuple[Guest, Guest],
    first_player: int | None,
    chance: str,
    layout: tuple[str, ...],
    health: int | None,
) -> MadcalaState:
    """Doublers on the Homes, 2 normal Shards on every other space, the rest in reserve less those
    on Corrupted cards; full health; the coin flip (if no first player is given) then the shuffle
    of the Commoner deck in catalog order."""
    rng = SplitMix64(seed)
    if first_player is None:
        first_player, rng = rng.below(SEATS)
    deck, rng = DrawPile.new(
        catalog.deck, observed=chance == OBSERVED, rng=rng, sort_key=commoner_order
    )
    spaces = tuple(
        Space(
            (0, 0) if index % SIDE == 0 else (SHARDS_PER_SPACE * (owner(index) == 0),
                                              SHARDS_PER_SPACE * (owner(index) == 1)),
            (index == home(0), index == home(1)),
        )
        for index in range(SPACES)
    )  # fmt: skip
    plus_ones = tuple(
        tuple(PlusOne(card, True, card.shards) for card in guest.plus_ones) for guest in guests
    )
    on_board = SHARDS_PER_SPACE * (SIDE - 1)
    reserves = tuple(
        NORMAL_SHARDS - on_board - sum(card.shards for card in cards) for cards in plus_ones
    )
    healths = tuple(health if health is not None else guest.health for guest in guests)
    return MadcalaState(
        catalog=catalog,
        layout=layout,
        guests=guests,
        first_player=first_player,
        rng=rng,
        deck=deck,
        discard=(),
        hands=((), ()),
        spaces=spaces,
        reserves=(reserves[0], reserves[1]),
        plus_ones=(plus_ones[0], plus_ones[1]),
        health=(healths[0], healths[1]),
        max_health=(healths[0], healths[1]),
        current=first_player,
    )


# --- checking ----------------------------------------------------------------------------------


def check(state: MadcalaState, move: Move) -> None:
    """Raise IllegalMoveError, naming the rule, if the rules forbid ``move`` now."""
    seat = move.player
    if seat != state.current:
        raise IllegalMoveError(
            f"it is seat {state.current}'s turn: seat {seat} cannot {move.type} now"
        )
    match move:
        case MoveShards():
            _check_move(state, move)
        case UsePlusOne():
            _check_plus_one(state, move)
        case BuyCommoner(pay=paid):
            if not can_draw(state):
                raise IllegalMoveError(
                    "no Commoner can be bought: the deck and the discard are both empty"
                )
            _check_pay(state, seat, paid)
        case PlayCommoner(card=card, effects=effects):
            entry = state.catalog.commoners[card]
            if card not in state.hands[seat]:
                raise IllegalMoveError(
                    f"seat {seat} cannot play {entry.id!r}: it is not in their hand"
                )
            if effects is not None and Counter(effects) - Counter(entry.effects):
                raise IllegalMoveError(
                    f"{entry.id!r} has the effects {list(entry.effects)}: effects must name some"
                    f" of them, each at most once, not {list(effects)}"
                )
        case EndTurn(discard=discard):
            if not state.moved:
                raise IllegalMoveError(
                    f"seat {seat} cannot end the turn before moving Shards: the move is mandatory"
                )
            hand = state.hands[seat]
            if Counter(discard) - Counter(hand):
                raise IllegalMoveError(
                    f"seat {seat} can only discard cards from their hand"
                    f" {_names(state, hand)}, not {_names(state, discard)}"
                )
            needed = max(0, len(hand) - HAND_LIMIT)
            if len(discard) != needed:
                raise IllegalMoveError(
                    f"seat {seat} holds {len(hand)} Commoners and must discard exactly {needed}"
                    f" to end the turn with at most {HAND_LIMIT}, not {len(discard)}"
                )


def _check_move(state: MadcalaState, move: MoveShards) -> None:
    seat = move.player
    if state.moved:
        raise IllegalMoveError(f"seat {seat} has already moved Shards this turn: once per turn")
    if move.space is None:
        if not side_is_empty(state, seat):
            raise IllegalMoveError(
                f"seat {seat} has Shards on their side: space null (adding Shards instead of"
                " moving) is only for a side with no Shard"
            )
        if move.order is not None or move.last_doubler is not None:
            raise IllegalMoveError("a move with space null takes no Shard: no order, no Doubler")
        return
    if owner(move.space) != seat:
        raise IllegalMoveError(
            f"space {move.space} is on seat {owner(move.space)}'s side: seat {seat} takes Shards"
            f" from their own side, spaces {home(seat)}..{home(seat) + SIDE - 1}"
        )
    taken = state.spaces[move.space]
    if taken.empty:
        raise IllegalMoveError(f"space {move.space} holds no Shard to move")
    if move.order is not None:
        if not (taken.normal[0] and taken.normal[1]):
            raise IllegalMoveError(
                f"space {move.space} does not hold both players' normal Shards: there is no order"
                " to choose"
            )
        expected = Counter({0: taken.normal[0], 1: taken.normal[1]})
        if Counter(move.order) != expected:
            raise IllegalMoveError(
                f"order must name the seat of each normal Shard taken from space {move.space}:"
                f" {taken.normal[0]} x 0 and {taken.normal[1]} x 1 in any order,"
                f" not {list(move.order)}"
            )
    if move.last_doubler is not None and not all(taken.doubler):
        raise IllegalMoveError(
            f"space {move.space} does not hold both Doublers: last_doubler is only for a move"
            " that takes both"
        )


def _check_plus_one(state: MadcalaState, move: UsePlusOne) -> None:
    seat = move.player
    if state.turn == 1:
        raise IllegalMoveError(
            "the starting player cannot use a Plus-One card on the first turn of the game"
        )
    card = next((card for card in state.plus_ones[seat] if card.card.id == move.card), None)
    if card is None:
        raise IllegalMoveError(
            f"{move.card!r} is not one of seat {seat}'s Plus-One cards"
            f" {[card.card.id for card in state.plus_ones[seat]]}"
        )
    if not card.face_up:
        reason = "spent, no Shard left" if card.card.corrupted else "face down until refreshed"
        raise IllegalMoveError(f"{move.card!r} cannot be used: it is {reason}")
    if move.effects is not None and Counter(move.effects) != Counter(card.card.effects):
        raise IllegalMoveError(
            f"a Plus-One performs all its effects {list(card.card.effects)}, in any order:"
            f" effects must list each of them, not {list(move.effects)}"
        )
    if card.card.corrupted:
        if move.pay:
            raise IllegalMoveError(
                f"{move.card!r} is Corrupted: it costs one of its own Shards, pay nothing"
            )
        return
    if len(move.pay) != card.card.cost:
        raise IllegalMoveError(
            f"{move.card!r} costs {card.card.cost} normal Shard(s): pay must name"
            f" {card.card.cost} space(s), one per Shard, not {len(move.pay)}"
        )
    _check_pay(state, seat, move.pay)


def _check_pay(state: MadcalaState, seat: int, paid: Sequence[int]) -> None:
    for space, count in sorted(Counter(paid).items()):
        held = state.spaces[space].normal[seat]
        if held < count:
            raise IllegalMoveError(
                f"seat {seat} pays with their own normal Shards only (never a Doubler): space"
                f" {space} holds {held} of theirs, and pay takes {count} from it"
            )


def _names(state: MadcalaState, cards: Sequence[int]) -> list[str]:
    return [state.catalog.commoners[card].id for card in cards]


# --- resolving ---------------------------------------------------------------------------------


def resolve(state: MadcalaState, move: Move) -> MadcalaState:
    """The state after ``move``, which ``check`` has accepted; each choice is checked as the
    effect that needs it is performed."""
    chooser = EventChooser(state, move.choices.as_dict() if not isinstance(move, EndTurn) else {})
    seat = move.player
    match move:
        case MoveShards(space=None):
            after = fallback(state, seat)
        case MoveShards(space=int(space), order=order, last_doubler=last):
            after = move_shards(state, seat, space, order, last, chooser)
        case UsePlusOne(card=card, pay=paid, effects=effects):
            printed = state.catalog.plus_one_cards[card].effects
            chosen = printed if effects is None else effects
            after = use_plus_one(state, seat, card, paid, chosen, chooser)
        case BuyCommoner(pay=paid):
            after = buy_commoner(state, seat, paid, chooser)
        case PlayCommoner(card=card, effects=effects):
            chosen = state.catalog.commoners[card].effects if effects is None else effects
            after = play_commoner(state, seat, card, chosen, chooser)
        case EndTurn(discard=discard):
            after = end_turn(state, seat, discard)
    chooser.finish()
    return after


# --- the game ----------------------------------------------------------------------------------


class Madcala(Game[MadcalaState]):
    name = "madcala"
    rules_version = "madcala/1"
    min_players = 2
    max_players = 2
    length_counters = (stats.TURNS,)
    event_fields = {
        "move": {
            "player": "seat whose turn it is",
            "space": "a space of the mover's side (0..5 for seat 0, 6..11 for seat 1) holding"
            " a Shard; null only when no space of that side holds one (the fallback)",
            "order": "optional, with both players' normal Shards taken: the seat of each normal"
            " Shard in the order placed (default: the mover's own first)",
            "last_doubler": "optional, with both Doublers taken: the seat whose Doubler lands"
            " last (default: the mover's)",
            "home_space": "when the last Shard lands on the mover's Home: the space of their"
            " side (not the Home) whose effect is performed",
            "refresh": "list of the mover's face-down Refreshable card ids, one per"
            " refresh_plus_one performed (default when each has one option)",
            "drawn": "observed mode: list of the Commoner ids drawn, in order",
        },
        "plus_one": {
            "player": "seat whose turn it is (not on the game's first turn)",
            "card": "one of the player's face-up Plus-One card ids",
            "pay": "Refreshable card: one space per Shard of its cost, each holding a normal"
            " Shard of the player's (left out or [] for a Corrupted card)",
            "place": "Corrupted card whose Shard goes to any space of the player's side: that"
            " space",
            "effects": "optional: the card's effects in the order performed (all of them;"
            " default: as printed)",
            "refresh": "list of the player's face-down Refreshable card ids, one per"
            " refresh_plus_one performed (default when each has one option)",
            "strike": "list of {space, seat}: the normal Shard each strike_shard sends back to"
            " its owner's reserve (default when each has one option)",
            "strike_card": "list of the opponent's face-up Refreshable card ids, one per"
            " strike_plus_one performed (default when each has one option)",
            "drawn": "observed mode: list of the Commoner ids drawn, in order",
        },
        "buy_commoner": {
            "player": "seat whose turn it is",
            "pay": "3 spaces, one per Shard paid, each holding a normal Shard of the player's",
            "drawn": "observed mode: [the Commoner id drawn]",
        },
        "commoner": {
            "player": "seat whose turn it is",
            "card": "a Commoner id from the player's hand",
            "effects": "optional: the card's effects performed, in order, each at most once"
            " (default: all, as printed; [] plays the card for nothing)",
            "refresh": "as for plus_one",
            "strike": "as for plus_one",
            "strike_card": "as for plus_one",
            "drawn": "observed mode: list of the Commoner ids drawn, in order",
        },
        "end_turn": {
            "player": "seat whose turn it is, after their move",
            "discard": "Commoner ids discarded to keep 2 in hand: exactly the excess (default [])",
        },
    }
    # Every Commoner an event draws goes into its player's hand (an effect draws for the seat
    # acting, never for the other), which no one else sees while the game is on. Every event that
    # can perform draw_commoner carries ``drawn``: all but end_turn.
    private_event_fields = {
        MoveShards.type: (DRAWN,),
        UsePlusOne.type: (DRAWN,),
        BuyCommoner.type: (DRAWN,),
        PlayCommoner.type: (DRAWN,),
    }

    # The shapes of its events and of its state, for the API's document (shapes.py).
    event_schemas = shapes.EVENT_SCHEMAS
    state_schema = shapes.STATE_SCHEMA
    # How the pages draw it (browser/madcala.js) and what they ask of it (display.py).
    browser_assets = "domain.madcala.browser"
    chance_fields = display.CHANCE_FIELDS

    def catalog_view(self, state: MadcalaState) -> dict[str, Any]:
        return display.catalog_view(state)

    def option_fields(self) -> list[dict[str, Any]]:
        return display.option_fields()

    def describe(
        self, event: Event, players: Sequence[str], options: Mapping[str, Any] | None = None
    ) -> str:
        """A move in the rulebook's words, which the API sends to the pages."""
        return display.describe(event, players)

    def options(self, raw: Mapping[str, Any], players: int) -> dict[str, Any]:
        self.check_options(raw, players, OPTION_NAMES)
        options: dict[str, Any] = {}
        catalog = DEFAULT
        if "catalog" in raw:
            normalized = normalize_catalog(raw["catalog"])
            catalog = Catalog.from_json(normalized)
        guest_ids = [guest.id for guest in catalog.guests]
        guests = raw.get("guests", guest_ids[:2])
        if (
            not isinstance(guests, list)
            or len(guests) != 2
            or not all(isinstance(guest, str) and guest in guest_ids for guest in guests)
            or guests[0] == guests[1]
        ):
            raise InvalidOptionsError(
                f"guests must be two different Guest ids of the catalog (seat 0's first), among"
                f" {guest_ids}; got {guests!r}"[:500],
                {"guests": "two different Guest ids"},
            )
        options["guests"] = list(guests)
        if "first_player" in raw:
            first_player = raw["first_player"]
            if not is_int(first_player) or not 0 <= first_player < SEATS:
                raise InvalidOptionsError(
                    f"first_player must be a seat, 0 or 1, got {first_player!r}"[:300],
                    {"first_player": "a seat 0..1"},
                )
            options["first_player"] = int(first_player)
        chance = raw.get("chance", SEEDED)
        if chance not in CHANCE_MODES:
            raise InvalidOptionsError(
                f"chance must be 'seeded' or 'observed', got {chance!r}"[:300],
                {"chance": "'seeded' or 'observed'"},
            )
        options["chance"] = chance
        layout = raw.get("layout", list(SPACE_EFFECTS))
        if (
            not isinstance(layout, list)
            or not all(isinstance(effect, str) for effect in layout)
            or sorted(layout) != sorted(SPACE_EFFECTS)
        ):
            raise InvalidOptionsError(
                f"layout must list the five space effects {list(SPACE_EFFECTS)} once each, in"
                f" the clockwise order after each Home; got {layout!r}"[:500],
                {"layout": "the five space effects, once each"},
            )
        options["layout"] = list(layout)
        if "health" in raw:
            health = raw["health"]
            if not is_int(health) or not MIN_HEALTH <= health <= MAX_HEALTH:
                raise InvalidOptionsError(
                    f"health must be an integer from {MIN_HEALTH} to {MAX_HEALTH}, got {health!r}"[
                        :300
                    ],
                    {"health": f"an integer {MIN_HEALTH}..{MAX_HEALTH}"},
                )
            options["health"] = int(health)
        if "catalog" in raw:
            options["catalog"] = normalized
        return options

    def options_schema(self, players: int) -> Mapping[str, Any]:
        return shapes.options_schema(players)

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> MadcalaState:
        # Options are normalized again (cheap and idempotent): no game starts from options that
        # were never checked.
        checked = self.options(options, players)
        check_seed(seed)
        catalog = Catalog.from_json(checked["catalog"]) if "catalog" in checked else DEFAULT
        first, second = (catalog.guests[catalog.guest_index[g]] for g in checked["guests"])
        return setup(
            seed,
            catalog,
            (first, second),
            checked.get("first_player"),
            checked["chance"],
            tuple(checked["layout"]),
            checked.get("health"),
        )

    def play(self, state: MadcalaState, event: Event) -> MadcalaState:
        move = parse_event(state, event)
        check(state, move)
        return resolve(state, move)

    def legal_moves(self, state: MadcalaState) -> list[dict[str, Any]]:
        return legal_moves(state)

    def seat_legal_moves(self, state: MadcalaState, seat: int) -> list[dict[str, Any]]:
        """In observed mode a first draw lists every Commoner the seat cannot rule out, the other
        hand's included; ``apply`` still refuses (422) one that is not in fact unseen."""
        return seat_legal_moves(state, seat)

    def view(self, state: MadcalaState, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer)

    def to_act(self, state: MadcalaState) -> int | None:
        return None if state.finished else state.current

    def result(self, state: MadcalaState) -> dict[str, Any] | None:
        return result(state)

    def first_player(self, state: MadcalaState) -> int:
        return state.first_player

    def stats_counters(
        self, events: Sequence[Event], states: Sequence[MadcalaState]
    ) -> dict[str, int]:
        return stats.stats_counters(events, states)

    def stats_summary(self, counters: Mapping[str, int], games: int) -> dict[str, float]:
        return stats.stats_summary(counters, games)


MADCALA: Final = register(Madcala())
