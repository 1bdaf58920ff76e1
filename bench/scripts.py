"""Whole games of Mada computed offline with the domain, and score sheets' entries: the moves the
clients will POST.

Clients replay these scripts and do no rule work while they are timed. A script is a pure function
of its seed, so the API and the bare endpoint receive exactly the same bodies.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from domain import get_game

MADA = get_game("mada")
NAMES = ("Ana", "Ben", "Caro", "Dan", "Eve")

# A deck whose Cactus cards are all 7s but a single 1. A try_luck is lost only when the 1 is
# revealed on a 7, and the script's moves avoid that: a player is never forced to try their luck
# (7s and Lemurs can always be played on a 7, and a full hand holds at most one 1), so the game
# goes on for as long as we like: the only way to record a game of 1,000+ events. (A deck of a
# single value, with which no game can ever end, is refused at creation.) The specials stay, so
# Scorpions, Lemurs, Double Lemurs and reshuffles still happen, and the state stays the size of a
# normal game's.
ENDLESS_CATALOG: dict[str, Any] = {
    "cactus": [{"value": 1, "count": 1, "pears": 1}, {"value": 7, "count": 20, "pears": 4}],
    "lemur": 4,
    "double_lemur": 3,
    "scorpion": 3,
}

# A guard only: random games of the default deck end in about a hundred moves.
_MAX_TYPICAL_MOVES = 5000


@dataclass(frozen=True)
class GameScript:
    seed: int
    players: tuple[str, ...]
    options: dict[str, Any]
    moves: tuple[dict[str, Any], ...]
    game: str = "mada"

    def create_body(self) -> dict[str, Any]:
        """The body of ``POST /games`` that starts this game on the server."""
        return {
            "game": self.game,
            "players": list(self.players),
            "seed": self.seed,
            "options": self.options,
        }


def typical_game(seed: int) -> GameScript:
    """A game of the default deck, 2 to 5 players, random legal moves until it ends."""
    players = NAMES[: 2 + seed % 4]
    return _play(seed, players, {}, _MAX_TYPICAL_MOVES)


def endless_game(seed: int, length: int) -> GameScript:
    """``length`` legal moves of a game that never ends (see ENDLESS_CATALOG), four players."""
    script = _play(seed, NAMES[:4], {"catalog": ENDLESS_CATALOG}, length, keep_going=True)
    if len(script.moves) < length:
        raise RuntimeError(f"the endless game of seed {seed} ended after {len(script.moves)} moves")
    return script


def score_sheet(seed: int, entries: int = 100) -> GameScript:
    """A score sheet of 2 to 5 players filled with ``entries`` points written down (each seat's
    own score, mostly whole, some halves), as a score pad is: no end, so that every entry is
    one more append of the same kind."""
    chooser = random.Random(seed)
    players = NAMES[: 2 + seed % 4]
    moves = tuple(
        {
            "type": "score",
            "player": chooser.randrange(len(players)),
            "points": chooser.randint(-5, 40) + (0.5 if chooser.random() < 0.2 else 0),
        }
        for _ in range(entries)
    )
    return GameScript(seed, players, {"title": "Azul"}, moves, game="scoresheet")


def _play(
    seed: int,
    players: tuple[str, ...],
    options: dict[str, Any],
    limit: int,
    *,
    keep_going: bool = False,
) -> GameScript:
    """Random legal moves; with ``keep_going``, those after which the round goes on, wherever
    there is one."""
    # The move choice has its own generator, seeded like the game: same seed, same script.
    chooser = random.Random(seed)
    state = MADA.new_game(len(players), seed, MADA.options(options, len(players)))
    moves: list[dict[str, Any]] = []
    while MADA.result(state) is None and len(moves) < limit:
        candidates = MADA.legal_moves(state)
        if keep_going:
            going = [m for m in candidates if MADA.apply(state, m).round == state.round]
            candidates = going or candidates
        move = chooser.choice(candidates)
        state = MADA.apply(state, move)
        moves.append(move)
    return GameScript(seed, players, options, tuple(moves))
