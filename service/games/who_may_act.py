"""Who may act on a game: its tokens, the viewer a request's token makes of it, and who may write.

A game's secrets are tokens: the recorder's, drawn at random, and one per seat, derived from the
recorder's (``seat_token``); the store keeps their digests only. A request's Bearer token makes
it the recorder, a seat, or (no token) the public (``viewer``); a token that is not one of the
game's is refused, whatever the request. Appending needs a token of the game (``writer``); a seat
appends only its own moves, when its decision is awaited (``check_seat_may_append``); the seats'
links are the recorder's only (``recorder_only``).

Every check here reads the header it is given: a check of who may act never trusts a cache of
the thing it protects (an append on this process's cached header is checked again by the store's
append script, which holds the token's digest against the header's own).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from domain.game import Event, Game
from domain.viewers import PUBLIC, RECORDER, Viewer, seat
from service.errors import ForbiddenError, NotFoundError, UnauthorizedError
from service.store.events import EventStore
from service.store.records import GameRecord


@dataclass(frozen=True)
class Tokens:
    """A new game's secrets, returned once: the recorder's and one per seat, in seat order."""

    recorder: str
    seats: list[str]


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_token(recorder_token: str, seat: int, generation: int) -> str:
    """A seat's token, derived from the recorder's: whoever holds the recorder's token can show
    the seats' links again (the store keeps digests only), and a new generation replaces a
    lost one. As long and as random as the recorder's own token, which is its key."""
    message = f"tabletape seat {seat} generation {generation}".encode()
    digest = hmac.new(recorder_token.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def key_owner(viewer: Viewer) -> str:
    """Whose an idempotency key is, as the store names it: "recorder", "seat0", "seat1"..."""
    return "recorder" if viewer.sees_all else f"seat{viewer.seat}"


# The viewer of a request ---------------------------------------------------------------------
def viewer(record: GameRecord, token: str | None) -> Viewer:
    """Who asks, from the request's Bearer token: the recorder, a seat, or (no token) the
    public. A token that is not one of this game's is refused, whatever the request."""
    if token is None:
        return PUBLIC
    digest = token_digest(token)
    if hmac.compare_digest(digest, record.token_sha256):
        return RECORDER
    for index, seat_digest in enumerate(record.seat_tokens_sha256):
        if hmac.compare_digest(digest, seat_digest):
            return seat(index)
    raise UnauthorizedError(
        "this token is not one of the game's: send the recorder's or a seat's token, or none"
    )


def admits(record: GameRecord, token: str | None, as_viewer: Viewer) -> bool:
    """Whether the header ``record`` still takes ``token`` as ``as_viewer``'s (no token: the
    public's, always): a seat's replaced link is no longer its seat's."""
    if token is None:
        return True
    try:
        return viewer(record, token) == as_viewer
    except UnauthorizedError:
        return False


def reading_as(record: GameRecord, asker: Viewer) -> Viewer:
    """The viewer a read by ``asker`` is answered for: once a game is over, everyone sees
    everything."""
    return RECORDER if record.over else asker


def reader(record: GameRecord, token: str | None) -> Viewer:
    return reading_as(record, viewer(record, token))


# Who may write -------------------------------------------------------------------------------
def writer(record: GameRecord, token: str | None) -> Viewer:
    """The viewer an append is made by: a token of the game, the recorder's or a seat's."""
    asker = viewer(record, token)
    if asker == PUBLIC:
        raise UnauthorizedError(
            "appending needs a token of the game (the recorder's or a seat's) as a Bearer token"
        )
    return asker


def recorder_only(record: GameRecord, token: str | None, what: str) -> None:
    asker = viewer(record, token)
    if token is None:
        raise UnauthorizedError(f"{what} needs the recorder's token")
    if not asker.sees_all:
        raise ForbiddenError(f"{what} is the recorder's only, not a seat's")


def check_seat_may_append(game: Game[Any], state: Any, asker: Viewer, event: Event) -> None:
    """A seat appends only its own moves: when its decision is awaited, or at any time a free
    move the game gives the seat (a score sheet's points) for its own seat."""
    if asker.sees_all:
        return
    if event.get("type") in game.free_types(state, asker):
        if event.get("player") != asker.seat:
            raise ForbiddenError(
                f"seat {asker.seat}'s token writes seat {asker.seat}'s own points only",
                {"player": asker.seat},
            )
        return
    awaited = game.to_act(state)
    if awaited is None:
        # A game that awaits no seat (a score sheet, a game over): the seat has nothing to decide.
        raise ForbiddenError(
            f"no seat's decision is awaited: seat {asker.seat}'s token may not append a"
            f" {event.get('type')!r} here",
            {"type": event.get("type")},
        )
    if awaited != asker.seat:
        raise ForbiddenError(
            f"the decision awaited is seat {awaited}'s, not seat {asker.seat}'s",
            {"player": awaited},
        )
    if "player" in event and event["player"] != asker.seat:
        raise ForbiddenError(
            f"seat {asker.seat}'s token appends seat {asker.seat}'s moves only",
            {"player": asker.seat},
        )


# The seats' links ----------------------------------------------------------------------------
def seat_links(record: GameRecord, token: str | None) -> list[str | None]:
    """The seats' tokens again, for the recorder's page of links: None for a seat whose
    token was drawn at random (a record made before they were derived)."""
    recorder_only(record, token, "showing the seats' links again")
    assert token is not None
    generations = record.seat_token_generations or [-1] * len(record.players)
    return [
        seat_token(token, seat, generation) if generation >= 0 else None
        for seat, generation in enumerate(generations)
    ]


def replace_seat_link(store: EventStore, record: GameRecord, token: str | None, seat: int) -> str:
    """A new token for ``seat`` (its phone was lost): the old one gets 401 from now on."""
    recorder_only(record, token, "replacing a seat's link")
    assert token is not None
    if not 0 <= seat < len(record.players):
        raise NotFoundError(f"no seat {seat} in this game of {len(record.players)} players")
    generations = list(record.seat_token_generations or [-1] * len(record.players))
    generations[seat] = max(generations[seat], 0) + 1
    new = seat_token(token, seat, generations[seat])
    digests = list(record.seat_tokens_sha256)
    digests[seat] = token_digest(new)
    store.replace_seat_token(record.id, digests, generations)
    return new
