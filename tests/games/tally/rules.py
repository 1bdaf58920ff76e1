"""The rules of Tally, the whole game in one module: its state, its shapes, its views, its rules.

Fifteen cards, 1 to 5 three times each, are shuffled from the seed; each seat is dealt two. In
turn, a player plays a card from their hand onto the tally (everyone sees it) and draws the next
card of the deck (only they see it). Whoever brings the tally to exactly 15 wins; whoever takes it
past 15 loses, and the other player wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from domain.errors import GameFinishedError, IllegalMoveError
from domain.events import check_fields, event_type, is_int, seat_field, value_field
from domain.game import Event, Game, check_seed, register
from domain.rng import SplitMix64
from domain.shapes import array, described, event, integer, nullable, obj, one_of_values
from domain.viewers import Viewer

VALUES: Final = (1, 2, 3, 4, 5)
COPIES: Final = 3
# The deck in canonical order, before the shuffle: 1, 1, 1, 2, 2, 2, ... 5, 5, 5.
DECK: Final = tuple(value for value in VALUES for _ in range(COPIES))
HAND: Final = 2
TARGET: Final = 15
SEATS: Final = 2
PLAYS: Final = "plays"
OPTION_NAMES: Final = ("first_player",)
COLOURS: Final = ("#00695c", "#ad1457")

SEAT = integer(0, SEATS - 1)
CARD = integer(VALUES[0], VALUES[-1], description="a card's value")
CARDS = array(CARD)
PER_SEAT = {"type": "array", "minItems": SEATS, "maxItems": SEATS}

EVENT_SCHEMAS: Final = {"play": event("play", {"player": SEAT, "card": CARD})}
STATE_SCHEMA: Final = obj(
    {
        "version": integer(0, description="the moves it follows"),
        "status": one_of_values(["active", "finished"]),
        "players": integer(SEATS, SEATS),
        "first_player": SEAT,
        "current_player": described(nullable(SEAT), "the seat to play; null once over"),
        "tally": integer(0, description=f"the sum of the cards played; {TARGET} wins"),
        "played": described(CARDS, "the cards played onto the tally, in order"),
        "hands": described(
            {**PER_SEAT, "items": nullable(CARDS)},
            "each seat's hand; null where the viewer may not see it",
        ),
        "hand_sizes": {**PER_SEAT, "items": integer(0, HAND)},
        "deck_size": integer(0, len(DECK)),
        "winners": described(array(SEAT, 0, 1), "the winner's seat; empty until the game is over"),
    },
    {"deck": described(CARDS, "the deck, top first: the recorder's only")},
)


@dataclass(frozen=True, slots=True)
class TallyState:
    first_player: int
    # Top first.
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    # The cards played onto the tally, in order.
    played: tuple[int, ...] = ()
    turn: int = 0
    winner: int | None = None

    @property
    def tally(self) -> int:
        return sum(self.played)

    @property
    def finished(self) -> bool:
        return self.winner is not None


class Tally(Game[TallyState]):
    name = "tally"
    rules_version = "tally/1"
    min_players = SEATS
    max_players = SEATS
    length_counters = (PLAYS,)
    event_fields = {"play": {"player": "seat", "card": "a card from their hand, 1..5"}}
    event_schemas = EVENT_SCHEMAS
    state_schema = STATE_SCHEMA
    # The hooks of the service's pages: the renderer, the seats' colours, the form, the recorder.
    browser_assets: str | None = "tests.games.tally.browser"
    chance_fields: Mapping[str, tuple[str, ...]] = {}

    def options(self, raw: Mapping[str, Any], players: int) -> dict[str, Any]:
        self.check_options(raw, players, OPTION_NAMES)
        return {"first_player": self.first_player_option(raw, players)}

    def options_schema(self, players: int) -> Mapping[str, Any]:
        return obj({}, {"first_player": described(integer(0, players - 1), "who plays first")})

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> TallyState:
        first = self.options(options, players)["first_player"]
        check_seed(seed)
        deck, _ = SplitMix64(seed).shuffled(DECK)
        # Dealt one card at a time, seat 0 first: seat 0 gets cards 0 and 2, seat 1 cards 1 and 3.
        dealt = SEATS * HAND
        hands = tuple(deck[seat:dealt:SEATS] for seat in range(SEATS))
        return TallyState(first_player=first, deck=deck[dealt:], hands=hands, turn=first)

    def apply(self, state: TallyState, event: Event) -> TallyState:
        if state.finished:
            raise GameFinishedError("the game is over: no card can be played after 15 is passed")
        event_type(event, self.name, ("play",))
        check_fields(event, ("player", "card"))
        seat = seat_field(event, "player", SEATS)
        card = value_field(event, "card", lambda v: is_int(v) and v in VALUES, "a value 1..5")
        if seat != state.turn:
            raise IllegalMoveError(f"it is seat {state.turn}'s turn: seat {seat} cannot play now")
        hand = state.hands[seat]
        if card not in hand:
            raise IllegalMoveError(
                f"seat {seat} cannot play a {card}: a card must come from their hand {list(hand)}"
            )
        kept = list(hand)
        kept.remove(card)
        drawn, deck = state.deck[:1], state.deck[1:]
        hands = tuple(
            (*kept, *drawn) if index == seat else cards for index, cards in enumerate(state.hands)
        )
        after = replace(state, deck=deck, hands=hands, played=(*state.played, card))
        if after.tally == TARGET:
            return replace(after, winner=seat)
        if after.tally > TARGET:
            return replace(after, winner=1 - seat)
        return replace(after, turn=1 - seat)

    def legal_moves(self, state: TallyState) -> list[dict[str, Any]]:
        if state.finished:
            return []
        seat = state.turn
        cards = sorted(set(state.hands[seat]))
        return [{"type": "play", "player": seat, "card": card} for card in cards]

    def view(self, state: TallyState, viewer: Viewer) -> dict[str, Any]:
        shown: dict[str, Any] = {
            "version": len(state.played),
            "status": "finished" if state.finished else "active",
            "players": SEATS,
            "first_player": state.first_player,
            "current_player": self.to_act(state),
            "tally": state.tally,
            "played": list(state.played),
            "hands": [
                list(hand) if viewer.sees_all or viewer.is_seat(seat) else None
                for seat, hand in enumerate(state.hands)
            ],
            "hand_sizes": [len(hand) for hand in state.hands],
            "deck_size": len(state.deck),
            "winners": [] if state.winner is None else [state.winner],
        }
        if viewer.sees_all:
            shown["deck"] = list(state.deck)
        return shown

    def to_act(self, state: TallyState) -> int | None:
        return None if state.finished else state.turn

    def result(self, state: TallyState) -> dict[str, Any] | None:
        if state.winner is None:
            return None
        return {
            "winners": [state.winner],
            "scores": [int(seat == state.winner) for seat in range(SEATS)],
        }

    def first_player(self, state: TallyState) -> int:
        return state.first_player

    def stats_counters(
        self, events: Sequence[Event], states: Sequence[TallyState]
    ) -> dict[str, int]:
        return {PLAYS: sum(event.get("type") == "play" for event in events)}

    def seat_colours(self, players: int) -> list[str]:
        return [COLOURS[seat % len(COLOURS)] for seat in range(players)]

    def catalog_view(self, state: TallyState) -> dict[str, Any]:
        return {"values": list(VALUES), "copies": COPIES, "target": TARGET}

    def option_fields(self) -> list[dict[str, Any]]:
        return []

    def describe(
        self, event: Event, players: Sequence[str], options: Mapping[str, Any] | None = None
    ) -> str:
        """A play as "Ana plays a 4" (tally.js says the same); any other event (a retraction)
        as the service says it by default."""
        seat = event.get("player")
        if event.get("type") != "play" or not isinstance(seat, int) or isinstance(seat, bool):
            return super().describe(event, players)
        if not 0 <= seat < len(players):
            return super().describe(event, players)
        return f"{players[seat]} plays a {event.get('card')}"


TALLY: Final = register(Tally())
