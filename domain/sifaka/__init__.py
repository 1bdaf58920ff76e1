"""Sifaka, the tile-laying race of lemurs after mangos (spec/sifaka.md).

Importing the package registers the game.
"""

from domain.sifaka.rules import SIFAKA, Sifaka
from domain.sifaka.state import SifakaState

__all__ = ["SIFAKA", "Sifaka", "SifakaState"]
