"""Score sheet: any game, recorded as its scores (spec/scoresheet.md, issue 29).

A title of any game, the points as they are written down (``score``, ``round``) and how it ended
(``end``): exact numbers, ranks with shared ties, lowest-wins, no points, cooperative games and
teams.

Importing the package registers the game.
"""

from domain.scoresheet.numbers import to_json
from domain.scoresheet.rules import SCORESHEET, Scoresheet, written_event
from domain.scoresheet.state import ScoresheetState
from domain.scoresheet.titles import title_key

__all__ = ["SCORESHEET", "Scoresheet", "ScoresheetState", "title_key", "to_json", "written_event"]
