"""Madcala, the mancala-like duel of Wonderland (spec/madcala.md).

Importing the package registers the game.
"""

from domain.madcala.rules import MADCALA, Madcala
from domain.madcala.state import MadcalaState

__all__ = ["MADCALA", "Madcala", "MadcalaState"]
