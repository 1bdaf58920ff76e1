"""Score sheet: any game, recorded as its scores (spec/scoresheet.md, issue 29).

A title of any game, the points as they are written down (``score``, ``round``) and how it ended
(``end``): exact numbers, ranks with shared ties, lowest-wins, no points, cooperative games and
teams.

Not registered yet: it is registered once the service takes titles: issue 29 (the service, the
pages, the statistics and the ratings take it in later steps; until then, a game that every test
walking the registered games would meet before the pages and statistics know titles). Use the
game object, ``SCORESHEET``, directly.
"""

from domain.scoresheet.numbers import to_json
from domain.scoresheet.rules import SCORESHEET, Scoresheet, written_event
from domain.scoresheet.state import ScoresheetState
from domain.scoresheet.titles import title_key

__all__ = ["SCORESHEET", "Scoresheet", "ScoresheetState", "title_key", "to_json", "written_event"]
