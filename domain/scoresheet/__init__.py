"""Score sheet: any game, recorded as its scores (spec/scoresheet.md, issue 29).

A title of any game, the points as they are written down (``score``, ``round``) and how it ended
(``end``): exact numbers, ranks with shared ties, lowest-wins, no points, cooperative games and
teams.

Importing the package registers the game, and makes it the game that records plays of other
apps (``domain.history``: a group's history brought in, each play a finished score sheet).
"""

from typing import Any

from domain.history import Play, register_play_recorder
from domain.scoresheet.numbers import to_json
from domain.scoresheet.plays import record_play
from domain.scoresheet.rules import SCORESHEET, Scoresheet, written_event
from domain.scoresheet.state import ScoresheetState
from domain.scoresheet.titles import title_key

__all__ = ["SCORESHEET", "Scoresheet", "ScoresheetState", "title_key", "to_json", "written_event"]


@register_play_recorder
def _record_play(play: Play) -> dict[str, Any]:
    return record_play(play, SCORESHEET.name, SCORESHEET.rules_version, SCORESHEET.max_players)
