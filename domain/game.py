"""What every game provides, and the registry that finds a game by name.

A game is a value (an instance of a Game subclass) registered at the bottom of its own module, as
OpenSpiel registers its games: adding a game touches no shared code.

The contract of a game, whatever its rules:
- ``options(raw, players)`` validates and completes the creation options (defaults filled in), so
  the header stores exactly what the record replays under;
- ``new_game`` builds the state before any event, from the player count, seed and those options;
- ``apply`` validates an event against the state and returns the next state (never mutates): a
  template, the same for every game whose state counts its events (``NumberedState``): no move
  after the end, then the game's own ``play`` (parse, check, evolve), then the version counted;
- ``legal_moves`` lists complete event bodies, each of which ``apply`` accepts;
- ``result`` is ``{"winners": [...], "scores": [...]}`` once the game is over, else None.

The shapes of a game's JSON, for the API's documentation (plain JSON Schema, ``domain.shapes``):
``event_schemas`` per event type (``event_fields`` says what each field holds), ``state_schema``
for what ``view`` returns to any viewer, and ``options_schema(players)`` for the creation options.

What a game hides from whom (``domain.viewers``): the game declares its secrets here, in its own
module, and every read path of the service goes through these:
- ``view(state, viewer)`` renders the state as JSON as that viewer may see it at the table;
- ``to_act(state)`` names the seat whose decision is awaited (None once over): a seat may append
  only then;
- ``private_event_fields`` names, per event type, the fields only the event's ``player`` sees
  (the cards dealt to them, the card they drew); ``event_view`` leaves them out for anyone else;
- ``legal_for(state, viewer)``: every move for the recorder, a seat's own moves for a seat
  (``seat_legal_moves``, which a game with observed chance overrides so that the chance
  outcomes offered give away nothing the seat cannot see), nothing for the public.
- ``free_types(state, viewer)``: the event types that viewer may append now beside the listed
  moves, whose fields a list cannot hold (a number written down: a score sheet's ``score``);
  none by default (``GET /legal`` carries them as ``free``); a seat may append a free type it
  is given for its own seat (its ``player``) at any time, its decision awaited or not;
- ``written(event)`` is the event as the record stores and hashes it (one form of each value).

How the pages show the game (optional; by default nothing is drawn and moves are said by fields):
- ``browser_assets`` names a package whose files hold ``<name>.js``, the game's drawing in the
  browser (an ES module the pages import: it exports ``draw`` and, to record by touch, ``record``,
  and may import its other modules and the pages' drawing helpers, ``../../lib/draw.js``; it
  keeps nothing between calls), and any picture it loads: data to the domain, which never reads
  them; the pages serve them;
- ``seat_colours`` colours each seat; ``catalog_view`` is the public catalog the drawing takes its
  pictures from; ``option_fields`` are the new-game form's fields of the game's own options;
  ``chance_fields`` name, per event type, the fields that say what chance brought (the recorder
  picks them from what can still be unseen); ``describe`` says a move in words, the only words
  of a move: the API sends them to the pages.

What a game adds to its statistics (optional; the defaults suit a game with nothing to add):
- ``title(options)`` names the game a record is of when that is not the game itself (a score
  sheet's title, ``Title``): its key is the game every statistic and rating counts the record
  under (``stats_key``), and a key that names a game with rules is that game;
- ``rating_teams(state)`` says who is rated together in a finished game (each seat alone by
  default; a score sheet's teams), or None for a game that is not rated (a cooperative one); a
  ``result`` that carries ``ranks`` ranks its seats so, else its winners first, then by score;
- ``first_player`` names the seat that moved first, for the seat advantage;
- ``stats_counters`` counts integers in one finished game (rounds, a kind of move...); the service
  sums them over every finished game, so they must be integers to sum exactly in any order;
- ``stats_summary`` turns those sums into the figures shown, and ``length_counters`` names the
  counters that measure a game's length (shown beside the mean number of events).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, Protocol, TypeVar

from domain.errors import GameFinishedError, InvalidOptionsError, UnknownGameError
from domain.events import is_int
from domain.viewers import Viewer
from domain.words import describe_fields

S = TypeVar("S")


class NumberedState(Protocol):
    """A state that knows whether its game is over and how many events led to it."""

    @property
    def finished(self) -> bool: ...

    @property
    def version(self) -> int: ...


N = TypeVar("N", bound=NumberedState)
# Seat colours of a game whose seats have no colour of their own: eight, each its own (a score pad
# of 8), every one 4.5:1 or more against white, told apart by hue and lightness.
SEAT_COLOURS = (
    "#1d5fa8", "#b3261e", "#2e7d32", "#7b3fa0", "#8a5a00", "#00796b", "#c2185b", "#455a64",
)  # fmt: skip
Event = Mapping[str, Any]
# Who is rated together: groups of seats.
Teams = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Title:
    """The game a record is of, as people call it, when that is not the record's own game (a
    score sheet's title): ``key`` is what every statistic counts it under."""

    key: str
    name: str
    bgg_id: int | None = None


class Game(ABC, Generic[S]):
    name: str
    rules_version: str
    min_players: int
    max_players: int
    # Counters of ``stats_counters`` that measure how long a game is (rounds, turns...).
    length_counters: tuple[str, ...] = ()
    # The game's events for the API's documentation: type -> field -> what it holds. Plain data:
    # the rules validate events themselves.
    event_fields: Mapping[str, Mapping[str, str]] = {}
    # Event type -> the JSON Schema of a whole event of that type (its ``type`` included).
    event_schemas: Mapping[str, Mapping[str, Any]] = {}
    # Event type -> the fields of such an event that only its ``player`` may see while the game
    # is on (``event_view`` leaves them out for everyone else and lists them in ``hidden``).
    private_event_fields: Mapping[str, tuple[str, ...]] = {}
    # The JSON Schema of ``view``'s answer, whoever the viewer: any JSON object unless declared.
    state_schema: Mapping[str, Any] = {"type": "object"}
    # Whether every record counts under its title (``title``), never under this game's name: a
    # score sheet's figures are those of Azul, Codenames..., none are the score sheet's own.
    records_titles: bool = False
    # The package whose files draw the game in the browser (``<name>.js``), or None: no drawing.
    browser_assets: str | None = None
    # Event type ("*": any) -> the fields naming what chance brought, in observed mode.
    chance_fields: Mapping[str, tuple[str, ...]] = {}

    @abstractmethod
    def options(self, raw: Mapping[str, Any], players: int) -> dict[str, Any]: ...

    def options_schema(self, players: int) -> Mapping[str, Any]:
        """The JSON Schema of the creation options of a game of ``players``, as ``options``
        takes them: any JSON object unless the game declares its options."""
        return {"type": "object"}

    @abstractmethod
    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> S: ...

    # What ``apply`` says of a move sent once the game is over.
    finished_message: str = "the game is over: no move can follow its end"

    def apply(self: Game[N], state: N, event: Event) -> N:
        """The state after ``event``, validated against ``state`` (never mutated): refused once
        the game is over, then the game's own ``play``, then numbered ``state.version + 1``.

        ``play`` builds a new state (each change is a new copy) that nothing else holds yet: its
        version is set on it rather than on one more copy, a copy saved per event (issue #23). A
        move that changes nothing (``play`` gives ``state`` back) is numbered on a copy.
        """
        if state.finished:
            raise GameFinishedError(self.finished_message)
        after = self.play(state, event)
        if after is state:
            return replace(state, version=state.version + 1)  # type: ignore[type-var]
        object.__setattr__(after, "version", state.version + 1)
        return after

    def play(self, state: S, event: Event) -> S:
        """``event`` parsed, checked against ``state`` and played: the state it leads to, its
        version not counted yet (``apply`` counts it); the rules' error if it may not be
        played. Every game gives it, or an ``apply`` of its own."""
        raise NotImplementedError(f"{self.name} plays no move")

    @abstractmethod
    def legal_moves(self, state: S) -> list[dict[str, Any]]: ...

    @abstractmethod
    def view(self, state: S, viewer: Viewer) -> dict[str, Any]: ...

    @abstractmethod
    def to_act(self, state: S) -> int | None:
        """The seat whose decision is awaited now; None once the game is over."""

    @abstractmethod
    def result(self, state: S) -> dict[str, Any] | None: ...

    def event_view(self, event: Event, viewer: Viewer) -> dict[str, Any]:
        """An event as ``viewer`` may see it: the private fields of another seat's event are left
        out and named in ``"hidden"``."""
        private = self.private_event_fields.get(str(event.get("type")), ())
        hidden = [name for name in private if name in event]
        if not hidden or viewer.sees_all or viewer.is_seat(event.get("player")):
            return dict(event)
        shown = {name: value for name, value in event.items() if name not in hidden}
        shown["hidden"] = hidden
        return shown

    def legal_for(self, state: S, viewer: Viewer) -> list[dict[str, Any]]:
        """The moves ``viewer`` may append now: all for the recorder, a seat's own for a seat
        (none unless its decision is awaited), none for the public."""
        if viewer.sees_all:
            return self.legal_moves(state)
        if viewer.seat is None or self.to_act(state) != viewer.seat:
            return []
        return self.seat_legal_moves(state, viewer.seat)

    def free_types(self, state: S, viewer: Viewer) -> list[str]:
        """The event types ``viewer`` may append now that ``legal_for`` cannot list, their fields
        taking values no list holds (points written down). A game whose every move is listed
        (the default) has none."""
        return []

    def written(self, event: Event) -> Event:
        """``event`` as the record writes it, stores it and hashes it: in the one form of its
        values the hash chain takes (a score sheet writes the number ``2.0`` as ``2``). By
        default the event as given, the same object."""
        return event

    def demo_options(self, players: int, draw: Callable[[int], int]) -> dict[str, Any]:
        """Options for a made-up game (``tabletape simulate``, the benchmark); ``draw(n)`` gives
        a number in ``range(n)``: the caller's chance. None needed by default."""
        return {}

    def free_move(self, state: S, kind: str, draw: Callable[[int], int]) -> dict[str, Any]:
        """A move of the free type ``kind`` with made-up values, for a made-up game; ``draw``
        as for ``demo_options``. Only a game with free types makes any."""
        raise NotImplementedError(f"{self.name} has no free moves to make up")

    def seat_legal_moves(self, state: S, seat: int) -> list[dict[str, Any]]:
        """The moves of ``seat``, whose decision is awaited, as that seat may be told them. The
        default suits a game whose moves name no outcome of chance; a game recorded in observed
        mode overrides it so that the outcomes offered are those the seat cannot rule out."""
        return self.legal_moves(state)

    def check_options(self, raw: Any, players: int, known: Sequence[str]) -> None:
        """What every game checks of its creation options first: a player count it is played
        by, an object, and no option but the ``known`` ones."""
        self.check_players(players)
        check_options_object(raw)
        unknown = [str(name) for name in raw if name not in known]
        if unknown:
            raise InvalidOptionsError(
                f"unknown option(s) for {self.name}: {', '.join(unknown)};"
                f" the options are {', '.join(known)}",
                {name: "unknown option" for name in unknown},
            )

    @staticmethod
    def first_player_option(raw: Mapping[str, Any], players: int) -> int:
        """The ``first_player`` option: a seat, seat 0 when it is left out."""
        first_player = raw.get("first_player", 0)
        if not is_int(first_player) or not 0 <= first_player < players:
            raise InvalidOptionsError(
                f"first_player must be a seat from 0 to {players - 1}, got {first_player!r}",
                {"first_player": f"a seat 0..{players - 1}"},
            )
        return int(first_player)

    def played_by(self) -> str:
        """How many play it, in words: "Mada is played by 2 to 5 players"."""
        low, high = self.min_players, self.max_players
        count = f"{low} players" if low == high else f"{low} to {high} players"
        return f"{self.name.title()} is played by {count}"

    def check_players(self, players: int) -> None:
        """A player count this game is played by, or InvalidOptionsError."""
        if not is_int(players) or not self.min_players <= players <= self.max_players:
            raise InvalidOptionsError(
                f"{self.played_by()}, not {players!r}",
                {"players": f"{self.min_players} to {self.max_players} players"},
            )

    def start(self, header: Mapping[str, Any]) -> S:
        """The state before the first event of a record, from its header's players, seed and
        options."""
        return self.new_game(len(header["players"]), header["seed"], header["options"])

    def replay(
        self, players: int, seed: int, options: Mapping[str, Any], events: Iterable[Event]
    ) -> S:
        """The state after ``events``: a fold of ``apply`` from the start."""
        state = self.new_game(players, seed, options)
        for event in events:
            state = self.apply(state, event)
        return state

    def seat_colours(self, players: int) -> list[str]:
        """A CSS colour per seat, for the pages."""
        return [SEAT_COLOURS[seat % len(SEAT_COLOURS)] for seat in range(players)]

    def catalog_view(self, state: S) -> dict[str, Any]:
        """What the game's catalog says of the pieces its states name by id, for the pages to
        draw them: public (the components' faces, not who holds what)."""
        return {}

    def option_fields(self) -> list[dict[str, Any]]:
        """The new-game form's fields for the game's own options (``domain.words`` says their
        kinds); the common ones (seed, chance, first player, catalog) are the form's own."""
        return []

    def describe(
        self, event: Event, players: Sequence[str], options: Mapping[str, Any] | None = None
    ) -> str:
        """A move in words, for the viewer's move list and ``tabletape replay``. ``options`` are
        the record's (completed) options, for a game whose pieces they define (a deck of its
        own names its cards); None says the game's defaults."""
        return describe_fields(event, players)

    def title(self, options: Mapping[str, Any]) -> Title | None:
        """The title a record with these (completed) options is of, when it is not this game
        itself; None by default: a game of Mada is a game of Mada."""
        return None

    def stats_key(self, options: Mapping[str, Any]) -> str:
        """The game the statistics and ratings count a record with these options under."""
        title = self.title(options)
        return title.key if title is not None else self.name

    def rating_teams(self, state: S) -> Teams | None:
        """Who is rated together in the finished game ``state``: each seat alone by default;
        None for a game that is not rated."""
        result = self.result(state)
        seats = len(result["scores"]) if result is not None else 0
        return tuple((seat,) for seat in range(seats))

    def first_player(self, state: S) -> int:
        """The seat that moved first in the game ``state`` belongs to (any of its states)."""
        return 0

    def stats_counters(self, events: Sequence[Event], states: Sequence[S]) -> dict[str, int]:
        """What one finished game adds to its counters; ``states[i]`` follows ``events[i]``."""
        return {}

    def stats_summary(self, counters: Mapping[str, int], games: int) -> dict[str, float]:
        """The figures shown for the counters summed over ``games`` finished games."""
        return {
            f"{name}_per_game": value / games if games else 0.0 for name, value in counters.items()
        }


def check_seed(seed: Any) -> None:
    """The contract's seeds are unsigned 64-bit integers."""
    if not is_int(seed) or not 0 <= seed < 2**64:
        raise InvalidOptionsError(
            f"the seed must be an integer from 0 to 2**64 - 1, got {seed!r}",
            {"seed": "an integer 0..2**64-1"},
        )


def check_options_object(raw: Any) -> None:
    if not isinstance(raw, Mapping):
        raise InvalidOptionsError("options must be a JSON object", {"options": "an object"})


_REGISTRY: dict[str, Game[Any]] = {}


def register(game: Game[Any]) -> Game[Any]:
    if game.name in _REGISTRY:
        raise ValueError(f"game {game.name!r} is registered twice")
    _REGISTRY[game.name] = game
    return game


def get_game(name: str) -> Game[Any]:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UnknownGameError(
            f"no game named {name!r}; known games: {', '.join(sorted(_REGISTRY))}",
            {"game": f"one of {sorted(_REGISTRY)}"},
        ) from None


def game_names() -> list[str]:
    return sorted(_REGISTRY)


def most_players() -> int:
    """The most players any registered game takes: a list of names past it is refused before
    any of them is read."""
    return max(game.max_players for game in _REGISTRY.values())
