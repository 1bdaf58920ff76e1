"""What can go wrong when a game is created or a move is applied.

The service maps each class to one HTTP status; the domain only says what went wrong and where.
"""

from __future__ import annotations

from typing import Any


class TabletapeError(Exception):
    """Base of every error the domain raises on purpose."""

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or {}


class InvalidOptionsError(TabletapeError):
    """A game cannot be created with these players or options (wrong count, unknown option...)."""


class InvalidEventError(TabletapeError):
    """An event is malformed: unknown type, missing or unknown field, value out of range."""


class IllegalMoveError(TabletapeError):
    """A well-formed event that the rules forbid now; the message names the rule."""


class GameFinishedError(TabletapeError):
    """A move was applied to a game that is already over."""


class UnknownGameError(TabletapeError):
    """No game of that name is registered."""
