"""Games beyond those ``domain`` ships: found at start, before any request or job needs one.

A game registers itself when its module is imported (``domain.game.register`` at its bottom), so
finding a game is importing its module. Two ways to name one, both read here:
- an installed package declares an entry point in the group ``tabletape.games`` (its
  ``pyproject.toml``: ``[project.entry-points."tabletape.games"] dice = "dice_game"``);
- ``TABLETAPE_GAMES`` names modules on the path, comma-separated (``mypackage.dice``), for a
  game that is not installed: the test suite's own game is found this way.

Importing a module twice registers nothing twice (Python imports a module once).
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

import domain  # noqa: F401  (the games domain/ ships register first)

ENTRY_POINT_GROUP = "tabletape.games"


def load_games(modules: str) -> None:
    for name in (part.strip() for part in modules.split(",")):
        if name:
            importlib.import_module(name)
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        entry.load()
