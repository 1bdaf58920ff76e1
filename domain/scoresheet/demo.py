"""Made-up score sheets, for ``tabletape simulate`` and the benchmark: titles as a group plays
them, and points as people write them down.

The chance is the caller's (``draw(n)`` gives a number in ``range(n)``): the rules have none.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from domain.scoresheet.state import ScoresheetState

Draw = Callable[[int], int]

# (title, options besides the title): what an evening's games are recorded as.
TITLES: Final = (
    ("Azul", {"bgg_id": 230802}),
    ("Carcassonne", {"bgg_id": 822}),
    ("Codenames", {"bgg_id": 178900, "scoring": "none", "teams": "halves"}),
    ("Golf", {"scoring": "lowest"}),
    ("Pandemic", {"bgg_id": 30549, "cooperative": True, "scoring": "none"}),
    ("Ticket to Ride", {"bgg_id": 9209}),
    ("Wingspan", {"bgg_id": 266192}),
)


def demo_options(players: int, draw: Draw) -> dict[str, Any]:
    """The options of a made-up score sheet of ``players`` seats (teams need two at least)."""
    while True:
        title, options = TITLES[draw(len(TITLES))]
        if options.get("teams") and players < 2:
            continue
        made = {"title": title, **options}
        if made.get("teams") == "halves":
            made["teams"] = [list(range(0, players, 2)), list(range(1, players, 2))]
        return made


def points(draw: Draw) -> int | float:
    """Points as people write them down: mostly whole, sometimes a half."""
    whole = draw(46) - 5
    return whole + 0.5 if draw(5) == 0 else whole


def free_move(state: ScoresheetState, kind: str, draw: Draw) -> dict[str, Any]:
    """A ``score`` of one seat, or a ``round`` of every seat (one in ten without points)."""
    if kind == "score":
        return {"type": "score", "player": draw(state.players), "points": points(draw)}
    return {
        "type": "round",
        "points": [None if draw(10) == 0 else points(draw) for _ in range(state.players)],
    }
