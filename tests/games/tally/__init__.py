"""Tally, a small card game of the tests: two players race the tally to exactly 15.

Importing the package registers the game, as a real game's package does (rules.py, at its
bottom); its browser renderer is ``browser/tally.js``.
"""

from tests.games.tally.rules import DECK, TALLY, TARGET, Tally, TallyState

__all__ = ["DECK", "TALLY", "TARGET", "Tally", "TallyState"]
