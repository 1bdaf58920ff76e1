"""Who is looking at a game: the recorder, one seat, or the public.

The service resolves a request's viewer once, from its token; every read path then asks the game
for what that viewer may know (``Game.view``, ``Game.event_view``, ``Game.legal_for``). Nothing
outside a game's own module decides what is hidden.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal


@dataclass(frozen=True)
class Viewer:
    kind: Literal["recorder", "seat", "public"]
    # The seat's index when ``kind`` is "seat", else None.
    seat: int | None = None

    @property
    def sees_all(self) -> bool:
        """The recorder sees everything (so does everyone once the game is over: the service
        hands such reads the recorder's viewer)."""
        return self.kind == "recorder"

    def is_seat(self, seat: object) -> bool:
        """Whether this viewer is the player of ``seat`` (an event's or a hand's)."""
        return self.kind == "seat" and self.seat == seat

    def __str__(self) -> str:
        return f"seat {self.seat}" if self.kind == "seat" else self.kind


RECORDER: Final = Viewer("recorder")
PUBLIC: Final = Viewer("public")


def seat(index: int) -> Viewer:
    return Viewer("seat", index)
