"""The rules of Sifaka (spec/sifaka.md): setup, checking a move, and evolving the state by it.

``apply`` reads an event into a typed move (its shape), ``check`` judges it against the rules, and
``evolve`` then trusts it. Everything is O(size of the board): no replay, no legal-move listing
(but for a discard, which is checked against every anchor once).
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping, Sequence
from typing import Any, Final

from domain.chance import CHANCE_MODES, OBSERVED, SEEDED, DrawPile
from domain.errors import (
    IllegalMoveError,
    InvalidEventError,
    InvalidOptionsError,
)
from domain.game import Event, Game, check_seed, register
from domain.rng import SplitMix64
from domain.sifaka import display, shapes, stats
from domain.sifaka.catalog import (
    COUNTERS,
    DEFAULT,
    MANGO,
    MANGO_COLOURS,
    Catalog,
    deck,
    normalize_catalog,
)
from domain.sifaka.geometry import DIRECTIONS, footprint
from domain.sifaka.legal import fitting_anchors, legal_moves, seat_legal_moves
from domain.sifaka.moves import Action, Deal, Move, Place, parse_event
from domain.sifaka.state import (
    DEAL,
    DEFAULT_FACING,
    HUTS,
    MOVE,
    PLACE,
    POSITION,
    READING_ORDER,
    STARTING_SLOTS,
    Counter,
    Lying,
    Pawn,
    Placement,
    SifakaState,
    Square,
    Walk,
    blocked,
    board_lookup,
    colour_index,
    current_player,
    initial_board,
    laid,
    lying_map,
    placement_problem,
    replace_at,
    seat_colours,
    walk,
    with_changes,
)
from domain.sifaka.views import result, view
from domain.viewers import Viewer

OPTION_NAMES: Final = ("first_player", "chance", "facing", "catalog")

# What the awaited move is, for messages: "it is seat 2's turn to <...>".
_AWAITED: Final = {
    DEAL: "have a card dealt (deal)",
    PLACE: "place their Terrain card (place)",
    MOVE: "move their sifaka (move)",
}


def _value(value: int) -> int:
    """The canonical order of a colour's counters: by value."""
    return value


# --- setup -------------------------------------------------------------------------------------


def setup(
    players: int,
    seed: int,
    first_player: int,
    chance: str,
    facing: Sequence[str],
    catalog: Catalog,
) -> SifakaState:
    """The Hut cards laid, each sifaka on its hut, the deck shuffled, then each colour's counters
    (green, yellow, red), then one card dealt per seat from seat 0 (seeded; observed games wait
    for one ``deal`` event per seat)."""
    observed = chance == OBSERVED
    draw_pile, rng = DrawPile.new(
        catalog.ids, observed=observed, rng=SplitMix64(seed), sort_key=catalog.order
    )
    counter_piles = []
    for colour in MANGO_COLOURS:
        pile, rng = DrawPile.new(COUNTERS[colour], observed=observed, rng=rng, sort_key=_value)
        counter_piles.append(pile)
    colours = seat_colours(players)
    state = SifakaState(
        players=players,
        first_player=first_player,
        colours=colours,
        catalog=catalog,
        rng=rng,
        draw_pile=draw_pile,
        counter_piles=tuple(counter_piles),
        board=initial_board(),
        lying=(),
        pawns=tuple(Pawn(*HUTS[colour], facing[seat]) for seat, colour in enumerate(colours)),
        hands=(None,) * players,
        taken=((),) * players,
        turn=0,
        phase=DEAL,
        moved=(0,) * players,
    )
    if observed:
        return state
    for seat in range(players):
        if not state.draw_pile:
            break
        state = _deal(state, seat, None)
    return _start_turn(state, first_player)


def _deal(state: SifakaState, seat: int, seen: int | None) -> SifakaState:
    return with_changes(state, **_dealt(state, seat, seen))


def _dealt(state: SifakaState, seat: int, seen: int | None) -> dict[str, Any]:
    """The changes as ``seat`` takes the top card (or the card seen); the seat that empties the
    pile holds the last card drawn."""
    card, draw_pile = state.draw_pile.draw(seen)
    changes = {"draw_pile": draw_pile, "hands": replace_at(state.hands, seat, card)}
    if not draw_pile:
        changes["last_holder"] = seat
    return changes


def _start_turn(state: SifakaState, seat: int) -> SifakaState:
    return with_changes(state, **_turn_of(state.hands, seat))


def _turn_of(hands: tuple[int | None, ...], seat: int) -> dict[str, Any]:
    """The changes as ``seat`` starts its turn: it places the card it holds, or, holding none,
    goes straight to its move."""
    return {"turn": seat, "phase": PLACE if hands[seat] is not None else MOVE}


# --- checking ----------------------------------------------------------------------------------


def check(state: SifakaState, action: Action) -> Walk | None:
    """Raise IllegalMoveError, naming the rule, if the rules forbid ``action`` now. For a move,
    return the walk it makes (``evolve`` takes it rather than walking again)."""
    seat = action.player
    awaited = _AWAITED[state.phase]
    if seat != state.turn:
        raise IllegalMoveError(
            f"it is seat {state.turn}'s turn to {awaited}: seat {seat} cannot {action.type} now"
        )
    if action.type != state.phase:
        raise IllegalMoveError(f"seat {seat} must {awaited}, not {action.type}")
    match action:
        case Deal(card=card):
            if card not in state.draw_pile.cards:
                raise IllegalMoveError(
                    f"card {card} cannot be dealt: it is not among the cards still unseen"
                )
        case Place(x=None):
            anchor = next(fitting_anchors(state), None)
            if anchor is not None:
                raise IllegalMoveError(
                    f"seat {seat} cannot discard their card: it fits at {list(anchor)}"
                    " (a card is discarded only when it cannot be placed anywhere)"
                )
        case Place(x=int(x), y=int(y)):
            problem = placement_problem(state, board_lookup(state.board), blocked(state), x, y)
            if problem is not None:
                raise IllegalMoveError(f"seat {seat} cannot place a card at {[x, y]}: {problem}")
        case Move(turns=turns, draw=drawn, counter=value):
            return _check_move(state, seat, turns, drawn, value)
    return None


def _check_move(
    state: SifakaState, seat: int, turns: tuple[int, ...], drawn: int | None, value: int | None
) -> Walk:
    try:
        end = walk(board_lookup(state.board), state.pawns[seat], turns)
    except IllegalMoveError as error:
        raise IllegalMoveError(
            f"seat {seat}'s sifaka cannot turn at steps {list(turns)}: {error.message}"
        ) from None
    if state.observed:
        counter = lying_map(state).get((end.x, end.y))
        if counter is None and value is not None:
            raise IllegalMoveError(
                f"no counter lies on {[end.x, end.y]}, where the move ends: leave out counter"
            )
        if counter is not None:
            if value is None:
                raise InvalidEventError(
                    f"the move ends on {[end.x, end.y]}, on a {counter.colour} counter: an"
                    " observed game needs its value (counter)",
                    {"counter": "required when the move ends on a counter"},
                )
            unseen = state.counter_piles[colour_index(counter.colour)].cards
            if value not in unseen:
                raise IllegalMoveError(
                    f"no {counter.colour} counter of value {value} is left unseen"
                    f" (the unseen {counter.colour} values are {sorted(set(unseen))})"
                )
    if drawn is not None:
        if not state.draw_pile:
            raise IllegalMoveError("the draw pile is empty: no card is drawn, leave out draw")
        if drawn not in state.draw_pile.cards:
            raise IllegalMoveError(
                f"card {drawn} cannot be drawn: it is not among the cards still unseen"
            )
    return end


# --- evolving ----------------------------------------------------------------------------------


def evolve(state: SifakaState, action: Action, end: Walk | None = None) -> SifakaState:
    """The state after ``action``, which ``check`` has accepted; for a move, ``end`` is the walk
    ``check`` found (None: it is walked again)."""
    seat = action.player
    match action:
        case Deal(card=card):
            state = _deal(state, seat, card)
            if seat + 1 < state.players and state.draw_pile:
                return with_changes(state, turn=seat + 1)
            return _start_turn(state, state.first_player)
        case Place(x=None):
            held = _held(state, seat)
            state = with_changes(
                state,
                discarded=(*state.discarded, held),
                hands=replace_at(state.hands, seat, None),
            )
            return with_changes(state, phase=MOVE)
        case Place(x=int(x), y=int(y), rotation=rotation):
            return _place(state, seat, x, y, rotation)
        case Move(turns=turns, draw=drawn, counter=value):
            if end is None:
                end = walk(board_lookup(state.board), state.pawns[seat], turns)
            return _move(state, seat, end, drawn, value)
    raise AssertionError(f"unknown action {action!r}")  # pragma: no cover


def _held(state: SifakaState, seat: int) -> int:
    held = state.hands[seat]
    assert held is not None, "the place phase comes only with a card in hand"
    return held


def _place(state: SifakaState, seat: int, x: int, y: int, rotation: int) -> SifakaState:
    """The card's boxes replace the boxes they cover; a counter goes on each mango box, from the
    top of its colour's pile (in footprint order), while the pile has one. Rotations laying the
    same boxes are one placement: the smallest of them is recorded. The seat then moves."""
    held = _held(state, seat)
    card = state.catalog.by_id[held]
    face = card.face(rotation)
    # Of rotations laying the same boxes, the placement is recorded with the smallest (those
    # listed in ``card.rotations`` are already: only others are compared box by box).
    if rotation not in card.rotations:
        rotation = next(r for r in card.rotations if card.face(r) == face)
    squares = []
    lying = state.lying
    piles = list(state.counter_piles)
    for (sx, sy), box in zip(footprint(x, y), face, strict=True):
        squares.append(Square(sx, sy, box))
        if box.kind != MANGO or box.colour is None:
            continue
        colour = box.colour
        index = colour_index(colour)
        value: int | None = None
        if state.observed:
            # The pile holds every unseen value, those lying face down included.
            down = sum(1 for item in lying if item.counter.colour == colour)
            if len(piles[index]) == down:
                continue
        elif piles[index]:
            value, piles[index] = piles[index].draw(None)
        else:
            continue
        # In reading order, as the board: a new tuple only when a counter is laid.
        added = list(lying)
        insort(added, Lying(sx, sy, Counter(colour, value)), key=READING_ORDER)
        lying = tuple(added)
    filled = state.slots_filled
    if (x, y) in STARTING_SLOTS:
        filled = replace_at(filled, STARTING_SLOTS.index((x, y)), True)
    return with_changes(
        state,
        board=laid(state.board, squares),
        lying=lying,
        counter_piles=tuple(piles),
        hands=replace_at(state.hands, seat, None),
        placements=(*state.placements, Placement(seat, held, x, y, rotation)),
        slots_filled=filled,
        phase=MOVE,
    )


def _move(
    state: SifakaState, seat: int, end: Walk, drawn: int | None, value: int | None
) -> SifakaState:
    # Each step's changes are gathered and the state is copied once, not once per step (a copy
    # per step took a good part of a replay's time, issue #23).
    changes: dict[str, Any] = {
        "pawns": replace_at(state.pawns, seat, Pawn(end.x, end.y, end.facing)),
        "moved": replace_at(state.moved, seat, state.moved[seat] + end.boxes),
        "turns_played": state.turns_played + 1,
        **_counter_taken(state, seat, end.x, end.y, value),
    }
    if state.draw_pile:
        changes.update(_dealt(state, seat, drawn))
    draw_pile = changes.get("draw_pile", state.draw_pile)
    hands = changes.get("hands", state.hands)
    holder = changes.get("last_holder", state.last_holder)
    if not draw_pile and holder is not None and hands[holder] is None:
        # The last card drawn is down and its turn played: the game is over.
        changes["finished"] = True
    else:
        changes.update(_turn_of(hands, (seat + 1) % state.players))
    return with_changes(state, **changes)


def _counter_taken(
    state: SifakaState, seat: int, x: int, y: int, value: int | None
) -> dict[str, Any]:
    """The changes as the seat takes the counter lying where its move ends, if any (an observed
    game learns its value now, from the event)."""
    positions = list(map(POSITION, state.lying))
    if (x, y) not in positions:
        return {}
    index = positions.index((x, y))
    counter = state.lying[index].counter
    piles = state.counter_piles
    if counter.value is None:
        assert value is not None, "check requires the value of a counter taken (observed)"
        pile_index = colour_index(counter.colour)
        _, pile = piles[pile_index].draw(value)
        piles = replace_at(piles, pile_index, pile)
        counter = Counter(counter.colour, value)
    return {
        "lying": state.lying[:index] + state.lying[index + 1 :],
        "counter_piles": piles,
        "taken": replace_at(state.taken, seat, (*state.taken[seat], counter)),
    }


# --- the game ----------------------------------------------------------------------------------


class Sifaka(Game[SifakaState]):
    name = "sifaka"
    rules_version = "sifaka/1"
    min_players = 2
    max_players = 4
    length_counters = (stats.TURNS,)
    event_fields = {
        "deal": {
            "player": "seat dealt to (observed mode, at setup: one per seat from seat 0)",
            "card": "id of the Terrain card dealt",
        },
        "place": {
            "player": "seat",
            "x": "column of the card's top-left box (x grows to the east); leave out x, y and"
            " rotation to discard a card that fits nowhere",
            "y": "row of the card's top-left box (y grows to the south)",
            "rotation": "0, 90, 180 or 270 degrees clockwise (default 0)",
        },
        "move": {
            "player": "seat",
            "turns": "step numbers (1..n after landing on n palms) where the sifaka turns to face"
            " the arrow it entered (default [])",
            "draw": "observed mode: id of the card drawn after the move, while the pile has one",
            "counter": "observed mode: value of the counter taken where the move ends",
        },
    }
    # The card dealt or drawn goes to the event's player's hand, face down; the value of the
    # counter taken shows to its taker only.
    private_event_fields = {"deal": ("card",), "move": ("draw", "counter")}

    # The shapes of its events and of its state, for the API's document (shapes.py).
    event_schemas = shapes.EVENT_SCHEMAS
    state_schema = shapes.STATE_SCHEMA
    # How the pages draw it (browser/sifaka.js) and what they ask of it (display.py).
    browser_assets = "domain.sifaka.browser"
    chance_fields = display.CHANCE_FIELDS

    def seat_colours(self, players: int) -> list[str]:
        return display.colours(players)

    def catalog_view(self, state: SifakaState) -> dict[str, Any]:
        return display.catalog_view(state)

    def describe(
        self, event: Event, players: Sequence[str], options: Mapping[str, Any] | None = None
    ) -> str:
        # A card is said by its face, so the words need the game's deck (its options' catalog).
        catalog = options.get("catalog") if options else None
        return display.describe(event, players, DEFAULT if catalog is None else deck(catalog))

    def option_fields(self) -> list[dict[str, Any]]:
        return display.option_fields()

    def options(self, raw: Mapping[str, Any], players: int) -> dict[str, Any]:
        self.check_options(raw, players, OPTION_NAMES)
        first_player = self.first_player_option(raw, players)
        chance = raw.get("chance", SEEDED)
        if chance not in CHANCE_MODES:
            raise InvalidOptionsError(
                f"chance must be 'seeded' or 'observed', got {chance!r}",
                {"chance": "'seeded' or 'observed'"},
            )
        default_facing = [DEFAULT_FACING[colour] for colour in seat_colours(players)]
        facing = raw.get("facing", default_facing)
        if (
            not isinstance(facing, list)
            or len(facing) != players
            or not all(isinstance(d, str) and d in DIRECTIONS for d in facing)
        ):
            raise InvalidOptionsError(
                f"facing must list, per seat, the way its sifaka starts facing (N, E, S or W),"
                f" {players} in all; got {facing!r}",
                {"facing": f"a list of {players} x 'N', 'E', 'S' or 'W'"},
            )
        options: dict[str, Any] = {
            "first_player": int(first_player),
            "chance": chance,
            "facing": list(facing),
        }
        if "catalog" in raw:
            options["catalog"] = normalize_catalog(raw["catalog"])
        return options

    def options_schema(self, players: int) -> Mapping[str, Any]:
        return shapes.options_schema(players)

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> SifakaState:
        # Options are normalized again (cheap and idempotent) so that no caller can start a game
        # from options that were never checked.
        checked = self.options(options, players)
        check_seed(seed)
        catalog = Catalog.from_json(checked["catalog"]) if "catalog" in checked else DEFAULT
        return setup(
            players, seed, checked["first_player"], checked["chance"], checked["facing"], catalog
        )

    def play(self, state: SifakaState, event: Event) -> SifakaState:
        action = parse_event(state, event)
        return evolve(state, action, check(state, action))

    def legal_moves(self, state: SifakaState) -> list[dict[str, Any]]:
        return legal_moves(state)

    def seat_legal_moves(self, state: SifakaState, seat: int) -> list[dict[str, Any]]:
        return seat_legal_moves(state, seat)

    def view(self, state: SifakaState, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer)

    def to_act(self, state: SifakaState) -> int | None:
        return current_player(state)

    def result(self, state: SifakaState) -> dict[str, Any] | None:
        return result(state)

    def first_player(self, state: SifakaState) -> int:
        return state.first_player

    def stats_counters(
        self, events: Sequence[Event], states: Sequence[SifakaState]
    ) -> dict[str, int]:
        return stats.stats_counters(events, states)

    def stats_summary(self, counters: Mapping[str, int], games: int) -> dict[str, float]:
        return stats.stats_summary(counters, games)


SIFAKA: Final = register(Sifaka())
