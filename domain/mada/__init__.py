"""Mada, the card game of lemurs and prickly pears (spec/mada.md).

Importing the package registers the game.
"""

from domain.mada.rules import MADA, Mada
from domain.mada.state import MadaState

__all__ = ["MADA", "Mada", "MadaState"]
