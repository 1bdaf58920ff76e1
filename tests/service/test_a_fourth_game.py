"""A fourth game, Tally (tests/games/tally), through the whole service: created, recorded, viewed,
archived, counted and rated over HTTP, with no line of service/, domain/ or workers/ naming it.

The game registers itself when its package is imported: the test session imports it (and names it
in TABLETAPE_GAMES for the processes it starts), as a deployment names a game it installs.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import tests.games.tally  # noqa: F401  (registers the game until tests/conftest.py does)
from tests.support.api import append, assert_error, auth, create, legal
from tests.support.workers import drain, run_cli, worker_env

PLAYERS = ["Ana", "Ben"]


def new_tally(client: FlaskClient, seed: int = 5, **options: Any) -> dict[str, Any]:
    return create(client, game="tally", players=PLAYERS, seed=seed, options=options)


def seat_auth(game: dict[str, Any], seat: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}


def state(client: FlaskClient, game: dict[str, Any], **headers: str) -> dict[str, Any]:
    response = client.get(f"/games/{game['id']}/state", headers=headers)
    assert response.status_code == 200, response.json
    shown: dict[str, Any] = response.json
    return shown


def play_lowest_cards(client: FlaskClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    """Play the lowest legal card each turn until the game is over; the moves played."""
    played = []
    while moves := legal(client, game):
        move = moves[0]
        response = append(client, game, move)
        assert response.status_code == 201, response.json
        played.append(move)
        assert len(played) <= 8, "a game of Tally lasts 8 plays at most"
    return played


def test_a_tally_game_is_created_with_its_rules_version_and_completed_options(
    client: FlaskClient,
) -> None:
    game = new_tally(client)
    assert (game["game"], game["rules_version"]) == ("tally", "tally/1")
    assert game["options"] == {"first_player": 0}
    assert len(game["seat_tokens"]) == 2
    assert [g["id"] for g in client.get("/games?game=tally").json["games"]] == [game["id"]]


@pytest.mark.parametrize(
    ("players", "options"),
    [(["Ana"], {}), (["Ana", "Ben", "Caro"], {}), (PLAYERS, {"first_player": 2}),
     (PLAYERS, {"chance": "observed"})],
)  # fmt: skip
def test_a_tally_game_outside_its_rules_is_refused_and_nothing_is_created(
    client: FlaskClient, players: list[str], options: dict[str, Any]
) -> None:
    body = {"game": "tally", "players": players, "seed": 1, "options": options}
    assert_error(client.post("/games", json=body), 400, "invalid_request")
    assert client.get("/games?game=tally").json["games"] == []


def test_each_seat_sees_its_own_hand_the_public_none_and_the_recorder_the_deck(
    client: FlaskClient,
) -> None:
    game = new_tally(client)
    full = state(client, game, **auth(game))
    assert [len(hand) for hand in full["hands"]] == [2, 2] and len(full["deck"]) == 11
    public = state(client, game)
    assert public["hands"] == [None, None] and "deck" not in public
    for seat in (0, 1):
        own = state(client, game, **seat_auth(game, seat))
        assert own["hands"][seat] == full["hands"][seat]
        assert own["hands"][1 - seat] is None and "deck" not in own
    # Only the seat to act is offered moves: its own cards.
    offered = client.get(f"/games/{game['id']}/legal", headers=seat_auth(game, 0)).json["moves"]
    assert sorted(move["card"] for move in offered) == sorted(set(full["hands"][0]))
    assert client.get(f"/games/{game['id']}/legal", headers=seat_auth(game, 1)).json["moves"] == []


def test_a_card_not_in_hand_and_a_play_out_of_turn_are_refused_naming_the_rule(
    client: FlaskClient,
) -> None:
    game = new_tally(client)
    hand = state(client, game, **auth(game))["hands"][0]
    missing = next(card for card in range(1, 6) if card not in hand)
    refused = append(client, game, {"type": "play", "player": 0, "card": missing})
    assert_error(refused, 422, "illegal_move")
    assert "hand" in refused.json["error"]["message"]
    late = append(client, game, {"type": "play", "player": 1, "card": 1})
    assert_error(late, 422, "illegal_move")
    assert "turn" in late.json["error"]["message"]
    assert client.get(f"/games/{game['id']}").json["version"] == 0


def test_a_whole_tally_game_ends_with_the_result_its_last_play_gives(
    client: FlaskClient,
) -> None:
    game = new_tally(client, seed=11, first_player=1)
    played = play_lowest_cards(client, game)
    assert played[0]["player"] == 1
    final = client.get(f"/games/{game['id']}").json
    assert final["status"] != "active" and final["version"] == len(played)
    tally = sum(move["card"] for move in played)
    last = played[-1]["player"]
    winner = last if tally == 15 else 1 - last
    assert tally >= 15
    assert final["result"] == {"winners": [winner], "scores": [int(s == winner) for s in (0, 1)]}
    shown = state(client, game)
    assert shown["tally"] == tally and shown["winners"] == [winner]
    # Over: everyone sees everything, and nothing more can be played.
    assert shown["hands"] == state(client, game, **auth(game))["hands"]
    assert_error(append(client, game, {"type": "play", "player": 0, "card": 1}), 409,
                 "game_finished")  # fmt: skip


def test_the_pages_show_a_tally_game_with_its_own_drawing_and_words(
    client: FlaskClient,
) -> None:
    game = new_tally(client)
    played = play_lowest_cards(client, game)
    script = "/assets/games/tally/tally.js"
    viewer = client.get(f"/games/{game['id']}/view")
    assert viewer.status_code == 200
    html = viewer.get_data(as_text=True)
    assert script in html
    first = played[0]
    assert f"{PLAYERS[first['player']]} plays a {first['card']}" in html
    assert script in client.get(f"/games/{game['id']}/record").get_data(as_text=True)
    with client.get(script) as served:
        assert served.status_code == 200 and "javascript" in served.mimetype
        # A module the pages import: it exports its drawing, registering nothing on a global.
        assert re.search(r"^export \{[^}]*\bdraw\b", served.get_data(as_text=True), re.M)
    # The game's package holds its Python too: only the drawing's files are served.
    assert client.get("/assets/games/tally/rules.py").status_code == 404
    assert client.get("/assets/games/tally/__init__.py").status_code == 404
    assert 'value="tally"' in client.get("/new").get_data(as_text=True)


def test_the_api_documents_tallys_events_and_state(client: FlaskClient) -> None:
    schemas = client.get("/openapi.json").json["components"]["schemas"]
    assert any(name.startswith("Tally") and "Event" in name for name in schemas)
    assert "TallyState" in schemas


def test_a_finished_tally_game_is_archived_counted_and_rated(
    app: Flask, client: FlaskClient
) -> None:
    game = new_tally(client, seed=3)
    played = play_lowest_cards(client, game)
    result = client.get(f"/games/{game['id']}").json["result"]
    drain(app)
    assert client.get(f"/games/{game['id']}").json["status"] == "archived"
    assert client.get(f"/games/{game['id']}/view").status_code == 200
    stats = client.get("/stats/tally").json
    assert stats["games"] == 1
    assert stats["length"] == {"mean_events": len(played), "mean_plays": len(played)}
    assert stats["seat_advantage"]["first_player_wins"] == int(result["winners"] == [0])
    assert stats["wins"] == {PLAYERS[result["winners"][0]]: 1, PLAYERS[1 - result["winners"][0]]: 0}
    ratings = client.get("/ratings/tally").json["ratings"]
    assert [(row["player"], row["games"]) for row in ratings] == [
        (PLAYERS[result["winners"][0]], 1),
        (PLAYERS[1 - result["winners"][0]], 1),
    ]
    # Tally's games are its own: the other games' figures count nothing.
    assert client.get("/stats/mada").json["games"] == 0


def test_a_worker_process_finds_tally_through_tabletape_games_and_archives_it(
    client: FlaskClient, redis_url: str, key_prefix: str, archive_dir: Path
) -> None:
    game = new_tally(client, seed=8)
    play_lowest_cards(client, game)
    env = {**worker_env(redis_url, key_prefix, archive_dir), "TABLETAPE_GAMES": "tests.games.tally"}
    done = run_cli(env, "worker", "--burst")
    assert done.returncode == 0, done.stderr
    assert client.get(f"/games/{game['id']}").json["status"] == "archived"
    assert client.get("/stats/tally").json["games"] == 1
    audited = run_cli(env, "audit", game["id"])
    assert audited.returncode == 0, audited.stdout + audited.stderr
