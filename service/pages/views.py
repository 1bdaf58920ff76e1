"""The pages for people, gathered: importing this module adds every page's routes to the
blueprint ``pages`` (``service.pages.blueprint``), which the app registers.

One module per page or group of pages:

- ``front``: the recent games;
- ``viewer``: a game's replay viewer, and the files of a game's drawing;
- ``recorder``: the new-game form, the recorder, a game's links and their QR codes;
- ``imports``: bringing a group's history in;
- ``statistics``: a game's statistics and leaderboard;
- ``players``: a player's page;
- ``nights``: a game night's page, and the list of them;
- ``tournaments``: a new tournament's form, and a tournament's standings and tables.
"""

from __future__ import annotations

from service.pages import (
    front,
    imports,
    nights,
    players,
    recorder,
    statistics,
    tournaments,
    viewer,
)
from service.pages.blueprint import CONTENT_SECURITY_POLICY, pages
from service.pages.players import PLAYER_GAMES
from service.pages.recorder import option_names, qr_address
from service.pages.statistics import score_histogram
from service.pages.viewer import MOVES_AROUND, shown_moves

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "MOVES_AROUND",
    "PLAYER_GAMES",
    "front",
    "imports",
    "nights",
    "option_names",
    "pages",
    "players",
    "qr_address",
    "recorder",
    "score_histogram",
    "shown_moves",
    "statistics",
    "tournaments",
    "viewer",
]
