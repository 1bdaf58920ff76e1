"""The rules of a score sheet (spec/scoresheet.md): any game, recorded as its scores.

``score`` adds one seat's points, ``round`` a round's points of every seat, and ``end`` fixes the
result: ranks by the totals (teams by their totals), or the ``ranks`` or ``winners`` the end
gives, or a cooperative game's ``outcome``. Shapes are checked first (InvalidEventError, a 400),
then the rules (IllegalMoveError, a 422 that says why).

No seat's decision is ever awaited (``to_act`` is None): who may append what is not a turn. A seat
may append ``score`` for its own seat at any time while the game is active; ``round``, ``end``,
``retract`` and ``abandon`` are the recorder's. The service enforces that, not these rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final

from domain.errors import (
    IllegalMoveError,
    InvalidEventError,
    InvalidOptionsError,
)
from domain.events import check_fields, event_type, is_int, seat_field
from domain.game import Event, Game, Teams, Title, check_seed, register
from domain.scoresheet import demo, display, numbers, shapes
from domain.scoresheet.numbers import Milli
from domain.scoresheet.options import OPTION_NAMES, check_options
from domain.scoresheet.state import (
    HIGHEST,
    OUTCOMES,
    WON,
    ScoresheetState,
    is_standing,
    seat_ranks,
    standings,
)
from domain.scoresheet.titles import title_key
from domain.scoresheet.views import result, view
from domain.viewers import Viewer

SCORE: Final = "score"
ROUND: Final = "round"
END: Final = "end"
TYPES: Final = (SCORE, ROUND, END)
FREE: Final = [SCORE, ROUND]
ROUNDS: Final = "rounds"


class Scoresheet(Game[ScoresheetState]):
    name = "scoresheet"
    rules_version = "scoresheet/1"
    min_players = 1
    max_players = 20
    length_counters = (ROUNDS,)
    event_fields = {
        SCORE: {"player": "seat", "points": numbers.WHAT},
        ROUND: {"points": "one per seat in seat order: a number, or null for no points"},
        END: {
            "ranks": "optional: one per seat in seat order, 1 best, ties shared (1, 2, 2, 4)",
            "winners": "optional: a list of seats; the others share the next rank; [] for a game"
            " that ended with no winner",
            "outcome": "a cooperative game's: 'won' or 'lost'",
        },
    }
    event_schemas = shapes.EVENT_SCHEMAS
    browser_assets = "domain.scoresheet.browser"
    records_titles = True
    state_schema = shapes.STATE_SCHEMA

    # --- options and the start ---------------------------------------------------------------

    def options(self, raw: Mapping[str, Any], players: int) -> dict[str, Any]:
        self.check_players(players)
        if isinstance(raw, Mapping) and "chance" in raw:
            raise InvalidOptionsError(
                "a score sheet has no chance: the option chance is not one of its options"
                f" ({', '.join(OPTION_NAMES)})",
                {"chance": "unknown option: a score sheet has no chance"},
            )
        self.check_options(raw, players, OPTION_NAMES)
        return check_options(raw, players)

    def options_schema(self, players: int) -> Mapping[str, Any]:
        return shapes.options_schema(players)

    def new_game(self, players: int, seed: int, options: Mapping[str, Any]) -> ScoresheetState:
        checked = self.options(options, players)
        # The seed is committed to, as every game's, and decides nothing.
        check_seed(seed)
        teams = checked.get("teams")
        return ScoresheetState(
            players=players,
            title=checked["title"],
            key=title_key(checked["title"]),
            bgg_id=checked.get("bgg_id"),
            scoring=checked["scoring"],
            cooperative=checked["cooperative"],
            teams=None if teams is None else tuple(tuple(team) for team in teams),
            team_names=tuple(checked["team_names"]) if "team_names" in checked else None,
            totals=(0,) * players,
            entered=(0,) * players,
        )

    # --- moves -------------------------------------------------------------------------------

    finished_message = "the game has ended: nothing more is written on its sheet"

    def play(self, state: ScoresheetState, event: Event) -> ScoresheetState:
        kind = event_type(event, self.name, TYPES)
        if kind == SCORE:
            check_fields(event, ("player", "points"))
            seat = seat_field(event, "player", state.players)
            points = numbers.parse(event["points"], "points")
            _check_points(state, kind)
            added = [0] * state.players
            added[seat] = points
            written = [0] * state.players
            written[seat] = 1
            after = replace(
                state,
                totals=_added(state.totals, added),
                entered=_counted(state.entered, written),
            )
        elif kind == ROUND:
            check_fields(event, ("points",))
            row = _round_points(event["points"], state.players)
            _check_points(state, kind)
            after = replace(
                state,
                totals=_added(state.totals, [points or 0 for points in row]),
                entered=_counted(state.entered, [points is not None for points in row]),
                rounds=state.rounds + 1,
            )
        else:
            check_fields(event, (), ("ranks", "winners", "outcome"))
            after = end(state, event)
        return after

    def legal_moves(self, state: ScoresheetState) -> list[dict[str, Any]]:
        """The moves no number is needed for: the ends (scoresheet.md, State). Others are
        accepted though not listed: ties and ranks, and the ``free`` types."""
        if state.finished:
            return []
        if state.cooperative:
            return [{"type": END, "outcome": outcome} for outcome in OUTCOMES]
        if state.has_points:
            return [{"type": END}]
        # With teams a seat alone cannot win: its whole team does.
        return [{"type": END, "winners": list(unit)} for unit in state.units()]

    def free_types(self, state: ScoresheetState, viewer: Viewer) -> list[str]:
        """``score`` and ``round`` take numbers a list cannot hold (none with scoring "none").
        A seat may append ``score`` for its own seat: a seat's free type; the rest is the
        recorder's."""
        if state.finished or not state.has_points:
            return []
        if viewer.sees_all:
            return list(FREE)
        return [SCORE] if viewer.seat is not None else []

    def written(self, event: Event) -> Event:
        return written_event(event)

    def demo_options(self, players: int, draw: Callable[[int], int]) -> dict[str, Any]:
        return demo.demo_options(players, draw)

    def free_move(
        self, state: ScoresheetState, kind: str, draw: Callable[[int], int]
    ) -> dict[str, Any]:
        return demo.free_move(state, kind, draw)

    def to_act(self, state: ScoresheetState) -> int | None:
        """No seat's decision is awaited, ever: a score sheet has no turns."""
        return None

    def view(self, state: ScoresheetState, viewer: Viewer) -> dict[str, Any]:
        return view(state, viewer)

    def result(self, state: ScoresheetState) -> dict[str, Any] | None:
        return result(state)

    # --- words and statistics ----------------------------------------------------------------

    def describe(
        self, event: Event, players: Sequence[str], options: Mapping[str, Any] | None = None
    ) -> str:
        return display.describe(event, players)

    def option_fields(self) -> list[dict[str, Any]]:
        return display.option_fields()

    def title(self, options: Mapping[str, Any]) -> Title | None:
        """A score sheet is a game of its title: counted under the title's key, so that every
        spelling of a title is one game, and a key naming a game with rules is that game. (None
        for options without a title: a damaged header's, which no use of it may trust.)"""
        title, bgg_id = options.get("title"), options.get("bgg_id")
        if not isinstance(title, str) or not title_key(title):
            return None
        return Title(title_key(title), title, bgg_id if isinstance(bgg_id, int) else None)

    def rating_teams(self, state: ScoresheetState) -> Teams | None:
        """Its teams, rated as teams; a cooperative game, or a game of one player (or of one
        team), is counted, not rated: there is no one to rank above anyone. Nor is a game that
        ended with no winner (no ranks): nobody won it, and nobody lost it to anyone."""
        if state.cooperative or len(state.units()) < 2:
            return None
        if state.finished and state.ranks is None:
            return None
        return state.units()

    def stats_counters(
        self, events: Sequence[Event], states: Sequence[ScoresheetState]
    ) -> dict[str, int]:
        """A score sheet's length is its number of rounds."""
        return {ROUNDS: states[-1].rounds if states else 0}


def written_event(event: Event) -> dict[str, Any]:
    """``event`` with its numbers as the record writes them, in shortest form (``2.0`` -> ``2``):
    what the service stores and hashes, so that another tool recomputes the same hashes. Fields
    that are not numbers are left as they are (the rules judge them)."""
    written = dict(event)
    if event.get("type") == SCORE and "points" in event:
        written["points"] = numbers.written(event["points"])
    elif event.get("type") == ROUND and isinstance(event.get("points"), list):
        written["points"] = [
            None if points is None else numbers.written(points) for points in event["points"]
        ]
    return written


def _check_points(state: ScoresheetState, kind: str) -> None:
    if not state.has_points:
        raise IllegalMoveError(
            f"a {kind} needs points, and this score sheet has none (scoring 'none'):"
            " its end says who won"
        )


def _round_points(row: Any, players: int) -> list[Milli | None]:
    what = f"a list of {players} x ({numbers.WHAT}, or null)"
    if not isinstance(row, list) or len(row) != players:
        raise InvalidEventError(f"points must be {what}, got {row!r}", {"points": what})
    parsed: list[Milli | None] = []
    for seat, points in enumerate(row):
        if points is None:
            parsed.append(None)
        elif not numbers.is_number(points):
            raise InvalidEventError(
                f"points[{seat}] must be {numbers.WHAT} or null, got {points!r}", {"points": what}
            )
        else:
            parsed.append(numbers.parse(points, "points"))
    return parsed


def _counted(entered: Sequence[int], written: Sequence[int]) -> tuple[int, ...]:
    """Each seat's count of numbers written, with ``written`` (1 for a seat written for now)."""
    return tuple(count + int(new) for count, new in zip(entered, written, strict=True))


def _added(totals: Sequence[Milli], added: Sequence[Milli]) -> tuple[Milli, ...]:
    after = tuple(total + points for total, points in zip(totals, added, strict=True))
    for seat, total in enumerate(after):
        if abs(total) > numbers.TOTAL_LIMIT * numbers.SCALE:
            raise IllegalMoveError(
                f"seat {seat}'s total would be {numbers.text(total)}: a score sheet keeps totals"
                " within 10^12 (so that each is written exactly)"
            )
    return after


# --- the end -----------------------------------------------------------------------------------


def end(state: ScoresheetState, event: Event) -> ScoresheetState:
    """The state once ``end`` has fixed the result (scoresheet.md, "end fixes the result").

    A field given as null is taken as left out (the result writes ``"outcome": null`` for a game
    that is not cooperative, and a client may send the same). Ranks given must be standings as
    the totals would make them (1, 2, 2, 4): 1 + the number of units (teams, or seats) ranked
    better; other numberings (1, 1, 2) are refused with the rule, not renumbered.
    """
    ranks_given = event.get("ranks")
    winners_given = event.get("winners")
    outcome = event.get("outcome")
    # Shapes first (a 400): what each field holds, whatever the game.
    if ranks_given is not None and not _is_int_list(ranks_given):
        raise InvalidEventError(
            f"ranks must be a list of integers, one per seat, got {ranks_given!r}",
            {"ranks": "a list of integers, one per seat"},
        )
    if winners_given is not None and not _is_int_list(winners_given):
        raise InvalidEventError(
            f"winners must be a list of seats, got {winners_given!r}",
            {"winners": "a list of seats"},
        )
    if outcome is not None and outcome not in OUTCOMES:
        raise InvalidEventError(
            f"outcome must be 'won' or 'lost', got {outcome!r}", {"outcome": "'won' or 'lost'"}
        )
    # Then the rules (a 422 that says why).
    if ranks_given is not None and winners_given is not None:
        raise IllegalMoveError(
            "an end gives ranks or winners, not both: the winners are the seats ranked 1"
        )
    every = tuple(range(state.players))
    if state.cooperative:
        if ranks_given is not None or winners_given is not None:
            raise IllegalMoveError(
                "a cooperative game takes no ranks or winners: the table wins or loses together;"
                " give its outcome, 'won' or 'lost'"
            )
        if outcome is None:
            raise IllegalMoveError("a cooperative game's end needs its outcome: 'won' or 'lost'")
        return replace(
            state,
            finished=True,
            winners=every if outcome == WON else (),
            ranks=(1,) * state.players,
            outcome=outcome,
        )
    if outcome is not None:
        raise IllegalMoveError(
            "only a cooperative game has an outcome: this one ends with ranks, by its totals or"
            " as the end gives them"
        )
    if winners_given == []:
        # A game that ended with no winner (a sheet that says nobody won, or says nothing of it):
        # played, and no one is ranked.
        return replace(state, finished=True, winners=(), ranks=None, outcome=None)
    if ranks_given is not None:
        ranks = _given_ranks(state, ranks_given)
    elif winners_given is not None:
        ranks = _ranks_of_winners(state, winners_given)
    elif state.has_points:
        ranks = _ranks_by_totals(state)
    else:
        raise IllegalMoveError(
            "a score sheet without points (scoring 'none') ends with its ranks or its winners"
        )
    winners = tuple(seat for seat in every if ranks[seat] == 1)
    return replace(state, finished=True, winners=winners, ranks=tuple(ranks), outcome=None)


def _ranks_by_totals(state: ScoresheetState) -> list[int]:
    unit_ranks = standings(state.unit_scores(), state.scoring == HIGHEST)
    return seat_ranks(state.units(), unit_ranks, state.players)


def _given_ranks(state: ScoresheetState, ranks: list[int]) -> list[int]:
    if len(ranks) != state.players:
        raise IllegalMoveError(
            f"ranks must be one per seat: {state.players} ranks, got {len(ranks)}"
        )
    units = state.units()
    for unit in units:
        shared = {ranks[seat] for seat in unit}
        if len(shared) > 1:
            raise IllegalMoveError(
                f"ranks split the team of seats {list(unit)} between ranks {sorted(shared)}:"
                " a team's members share their team's rank"
            )
    unit_ranks = [ranks[unit[0]] for unit in units]
    if not is_standing(unit_ranks):
        ranked = "teams" if state.teams is not None else "seats"
        raise IllegalMoveError(
            f"ranks {ranks} are not standings of the {ranked}: 1 is best, tied {ranked} share a"
            f" rank and the next rank skips (1, 2, 2, 4): a rank is 1 + the number of {ranked}"
            " ranked better"
        )
    return list(ranks)


def _ranks_of_winners(state: ScoresheetState, winners: list[int]) -> list[int]:
    outside = sorted({seat for seat in winners if not 0 <= seat < state.players})
    if outside:
        raise IllegalMoveError(
            f"winners name seats {outside} out of range: the seats are 0..{state.players - 1}"
        )
    if len(set(winners)) != len(winners):
        raise IllegalMoveError(f"winners name a seat more than once: {winners}")
    chosen = set(winners)
    units = state.units()
    won = 0
    for unit in units:
        inside = chosen.intersection(unit)
        if inside and len(inside) != len(unit):
            raise IllegalMoveError(
                f"winners split the team of seats {list(unit)}: a team wins or loses as one"
            )
        won += bool(inside)
    unit_ranks = [1 if chosen.intersection(unit) else won + 1 for unit in units]
    return seat_ranks(units, unit_ranks, state.players)


def _is_int_list(value: Any) -> bool:
    return isinstance(value, list) and all(is_int(item) for item in value)


SCORESHEET: Final = register(Scoresheet())
