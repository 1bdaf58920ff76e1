"""What the tournaments' tests do again and again: create one, pair a round, finish its tables by
their own moves (a score sheet's end, or random legal moves of a game with rules)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from tests.support.api import play_to_the_end

CHESS = {"game": "scoresheet", "options": {"title": "Chess"}}

# Decides a table: the ranks per seat (None: the game ended with no winner), from its players.
Decider = Callable[[list[str]], list[int] | None]


def create_tournament(client: FlaskClient, **body: Any) -> dict[str, Any]:
    body = {"name": "Autumn cup", **CHESS, "format": "swiss", "rounds": 3, "seed": 7, **body}
    response = client.post("/tournaments", json=body)
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json
    return created


def organiser(tournament: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {tournament['token']}"}


def pair(client: FlaskClient, tournament: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/tournaments/{tournament['id']}/rounds", headers=organiser(tournament))
    assert response.status_code == 201, response.json
    paired: dict[str, Any] = response.json
    return paired


def read(client: FlaskClient, tournament: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/tournaments/{tournament['id']}")
    assert response.status_code == 200, response.json
    found: dict[str, Any] = response.json
    return found


def table_game(table: dict[str, Any]) -> dict[str, Any]:
    """A table as the games' helpers take a game: its id and its recorder's token."""
    return {"id": table["game"], "token": table["token"]}


def end_score_sheet(client: FlaskClient, table: dict[str, Any], ranks: list[int] | None) -> None:
    """Finish a score sheet's table by its own moves: a score per seat, then its end."""
    headers = {"Authorization": f"Bearer {table['token']}"}
    path = f"/games/{table['game']}/events"
    for seat in range(len(table["players"])):
        response = client.post(path, json={"type": "score", "player": seat, "points": 10 + seat},
                               headers=headers)  # fmt: skip
        assert response.status_code == 201, response.json
    end = {"type": "end", "ranks": ranks} if ranks is not None else {"type": "end", "winners": []}
    response = client.post(path, json=end, headers=headers)
    assert response.status_code == 201, response.json


def by_strength(order: list[str], draws: frozenset[frozenset[str]] = frozenset()) -> Decider:
    """Tables decided by ``order`` (first is strongest); a pair in ``draws`` ties."""

    def decide(players: list[str]) -> list[int] | None:
        if len(players) == 2 and frozenset(players) in draws:
            return [1, 1]
        places = sorted(players, key=order.index)
        return [places.index(player) + 1 for player in players]

    return decide


def play_round(client: FlaskClient, paired: dict[str, Any], decide: Decider) -> None:
    for table in paired["tables"]:
        end_score_sheet(client, table, decide(table["players"]))


def play_rule_game_round(client: FlaskClient, paired: dict[str, Any], seed: int) -> None:
    for table in paired["tables"]:
        play_to_the_end(client, table_game(table), seed=seed + table["table"])


def run_whole(
    client: FlaskClient, tournament: dict[str, Any], decide: Decider
) -> list[dict[str, Any]]:
    """Pair and play every round; the rounds as paired (with their links)."""
    rounds = []
    for _ in range(tournament["rounds_planned"]):
        paired = pair(client, tournament)
        play_round(client, paired, decide)
        rounds.append(paired)
    return rounds
