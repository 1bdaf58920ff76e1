"""A score sheet's state as JSON, and its result. Nothing is hidden: every viewer sees the same.

Numbers are written in their shortest form (``numbers.to_json``): an int when integral, else the
float whose repr is the exact decimal.
"""

from __future__ import annotations

from typing import Any

from domain.scoresheet import numbers
from domain.scoresheet.state import ScoresheetState
from domain.viewers import Viewer


def view(state: ScoresheetState, viewer: Viewer) -> dict[str, Any]:
    team_totals = state.team_totals()
    return {
        "version": state.version,
        "status": "finished" if state.finished else "active",
        "players": state.players,
        "title": state.title,
        "key": state.key,
        "bgg_id": state.bgg_id,
        "scoring": state.scoring,
        "cooperative": state.cooperative,
        "teams": None if state.teams is None else [list(team) for team in state.teams],
        "totals": [numbers.to_json(total) for total in state.totals],
        "entered": list(state.entered),
        "team_names": None if state.teams is None else team_names(state),
        "team_totals": (
            None if team_totals is None else [numbers.to_json(total) for total in team_totals]
        ),
        "rounds": state.rounds,
        "finished": state.finished,
        "result": result(state),
    }


def result(state: ScoresheetState) -> dict[str, Any] | None:
    """``{"winners", "ranks", "scores", "outcome"}`` once the end has fixed it; else None.
    ``ranks`` is null in a game that ended with no winner; a seat's score is null when no number
    was ever written for it (a score never written is not a 0)."""
    if not state.finished:
        return None
    return {
        "winners": list(state.winners),
        "ranks": None if state.ranks is None else list(state.ranks),
        "scores": [None if score is None else numbers.to_json(score) for score in state.scores()],
        "outcome": state.outcome,
    }


def team_names(state: ScoresheetState) -> list[str]:
    """Each team's name: the options' ("Red", "Blue"), else "Team 1", "Team 2"..."""
    if state.team_names is not None:
        return list(state.team_names)
    return [f"Team {number}" for number in range(1, len(state.teams or ()) + 1)]
