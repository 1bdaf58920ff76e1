"""A whole evening at a club's table, recorded through the API for the pages people read the next
day: Mada played to its end, score sheets of every kind (Azul with a decimal and a tie, Codenames
in named teams with no points, a lost and a won Pandemic, Hearts lowest-wins, a game without a
winner), a game still under way, and an imported BG Stats history; the archive jobs drained."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.browser.helpers import LiveServer, append, new_game, play
from tests.support.api import create
from tests.support.history import Backup
from tests.support.workers import drain

TABLE = ["Alice", "Bruno", "Chloé", "Dev"]


@dataclass
class Evening:
    """The games of the evening, by what they show."""

    games: dict[str, dict[str, Any]] = field(default_factory=dict)


def sheet(server: LiveServer, players: list[str], options: dict[str, Any]) -> dict[str, Any]:
    return create(server.client, game="scoresheet", players=players, options=options)


def write(server: LiveServer, game: dict[str, Any], *moves: dict[str, Any]) -> None:
    for move in moves:
        response = append(server.client, game, move)
        assert response.status_code == 201, response.json


def an_evening(server: LiveServer) -> Evening:
    evening = Evening()
    mada = new_game(server.client, "mada", seed=3)
    play(server.client, mada, seed=3)
    evening.games["mada"] = mada

    # Azul: Chloé wins with a half point; then a tie for the win (Alice and Bruno).
    azul = sheet(server, TABLE, {"title": "Azul", "bgg_id": 230802})
    write(server, azul, {"type": "round", "points": [12, 9.5, 14.5, None]},
          {"type": "round", "points": [20, 21, 22, 3]}, {"type": "end"})  # fmt: skip
    evening.games["azul"] = azul
    tie = sheet(server, TABLE[:3], {"title": "Azul", "bgg_id": 230802})
    write(server, tie, {"type": "round", "points": [30, 30, 12]}, {"type": "end"})
    evening.games["azul-tie"] = tie

    codenames = sheet(server, TABLE, {
        "title": "Codenames", "scoring": "none", "teams": [[0, 2], [1, 3]],
        "team_names": ["Red", "Blue"],
    })  # fmt: skip
    write(server, codenames, {"type": "end", "winners": [1, 3]})
    evening.games["codenames"] = codenames

    lost = sheet(server, TABLE, {"title": "Pandemic", "scoring": "none", "cooperative": True})
    write(server, lost, {"type": "end", "outcome": "lost"})
    evening.games["pandemic-lost"] = lost
    won = sheet(server, TABLE[:2], {"title": "Pandemic", "scoring": "none", "cooperative": True})
    write(server, won, {"type": "end", "outcome": "won"})
    evening.games["pandemic-won"] = won

    hearts = sheet(server, TABLE, {"title": "Hearts", "scoring": "lowest"})
    write(server, hearts, {"type": "round", "points": [26, 0, 0, 0]},
          {"type": "round", "points": [3, 10, 13, 0]}, {"type": "end"})  # fmt: skip
    evening.games["hearts"] = hearts

    nobody = sheet(server, TABLE[1:], {"title": "Hanabi", "scoring": "none"})
    write(server, nobody, {"type": "end", "winners": []})
    evening.games["no-winner"] = nobody

    # Eight at the table, still scoring: the pad of 8.
    eight = ["Alice", "Bruno", "Chloé", "Dev", "Emma", "Farid", "Gus", "Hana"]
    ongoing = sheet(server, eight, {"title": "7 Wonders"})
    write(server, ongoing, {"type": "round", "points": [5, 7, 3, None, 8, 2, 6, 4]})
    evening.games["seven-wonders"] = ongoing

    # A history brought in from BG Stats: Dev's Carcassonne nights.
    backup = Backup()
    dev, alice = backup.player("Dev"), backup.player("Alice")
    carcassonne = backup.game("Carcassonne", bgg_id=822)
    backup.play(carcassonne, "2024-03-01 20:00:00", [(dev, "88", True), (alice, "71", False)])
    backup.play(carcassonne, "2024-03-08 20:00:00", [(dev, "64", False), (alice, "90", True)])
    response = server.client.post("/imports/bgstats", json=backup.export())
    assert response.status_code == 200, response.json
    evening.games["carcassonne"] = {"key": "carcassonne"}
    drain(server.app)
    return evening
