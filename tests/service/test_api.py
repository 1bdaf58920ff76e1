"""The HTTP API of spec/api.md, on the real Redis server."""

from __future__ import annotations

import random
import secrets
import threading
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from domain import game_names, get_game
from service.store.chain import new_salt, seed_commitment
from service.store.connection import StoreClient
from tests.conftest import make_app


@pytest.fixture
def real_redis(store_redis: StoreClient) -> StoreClient:
    """This module's tests run on the plain Redis, then on the cluster (tests/conftest.py)."""
    return store_redis


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    body = {"game": "mada", "players": ["Ana", "Ben", "Caro"], "seed": 42, **body}
    response = client.post("/games", json=body)
    assert response.status_code == 201, response.json
    created: dict[str, Any] = response.json
    return created


def auth(game: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['token']}"}


def legal(client: FlaskClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    """The moves the recorder may append now (GET /legal needs a token)."""
    response = client.get(f"/games/{game['id']}/legal", headers=auth(game))
    moves: list[dict[str, Any]] = response.json["moves"]
    return moves


def append(client: FlaskClient, game: dict[str, Any], move: dict[str, Any], **headers: str):
    return client.post(f"/games/{game['id']}/events", json=move, headers={**auth(game), **headers})


def play_to_the_end(client: FlaskClient, game: dict[str, Any], seed: int = 0) -> list[dict]:
    """Append random legal moves until the game is over; the 201 bodies, in order."""
    chooser = random.Random(seed)
    answers = []
    while moves := legal(client, game):
        response = append(client, game, chooser.choice(moves))
        assert response.status_code == 201, response.json
        answers.append(response.json)
        assert len(answers) < 5000, "the game does not end"
    return answers


def new_record(exported: dict[str, Any]) -> dict[str, Any]:
    """An exported record as the record of another game: the same moves by players of other
    names, with a salt and commitment of its own (the same game, players, seed, options and
    moves are one record, whatever the salt: imported again, it is a 409)."""
    salt = new_salt()
    mark = secrets.token_hex(3)
    return {
        **exported,
        "players": [f"{name} {mark}" for name in exported["players"]],
        "seed_salt": salt,
        "seed_commitment": seed_commitment(exported["seed"], salt),
    }


def bodies(exported: dict[str, Any]) -> list[dict[str, Any]]:
    """An export's events as bodies to append: without the ``at`` each was stored with."""
    return [{k: v for k, v in event.items() if k != "at"} for event in exported["events"]]


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.json
    body = response.json
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code
    assert body["error"]["message"]
    details: dict[str, Any] = body["error"]["details"]
    return details


# Creating and reading games -----------------------------------------------------------------------
def test_create_returns_the_game_its_token_and_location(client: FlaskClient) -> None:
    response = client.post("/games", json={"game": "mada", "players": ["Ana", "Ben"], "seed": 7})
    assert response.status_code == 201
    game = response.json
    assert response.headers["Location"].endswith(f"/games/{game['id']}")
    assert game["token"]
    for field in ("id", "game", "players", "seed", "options", "rules_version", "version",
                  "status", "created_at"):  # fmt: skip
        assert field in game
    assert (game["version"], game["status"], game["seed"]) == (0, "active", 7)
    assert game["rules_version"] == "mada/1"
    assert len(game["seat_tokens"]) == 2 and len(set(game["seat_tokens"])) == 2
    fetched = client.get(f"/games/{game['id']}", headers=auth(game)).json
    assert "token" not in fetched and "seat_tokens" not in fetched
    assert fetched["viewer"] == {"role": "recorder", "seat": None}
    created = {k: v for k, v in game.items() if k not in ("token", "seat_tokens")}
    assert {k: v for k, v in fetched.items() if k != "viewer"} == created


def test_a_seed_is_drawn_when_none_is_given(client: FlaskClient) -> None:
    game = client.post("/games", json={"game": "mada", "players": ["Ana", "Ben"]}).json
    assert 0 <= game["seed"] < 2**64


def test_list_games_newest_first_with_filters_and_cursor(client: FlaskClient) -> None:
    ids = [create(client, players=["Ana", name])["id"] for name in ("Ben", "Caro", "Dan")]
    listed = client.get("/games?limit=2").json
    assert [g["id"] for g in listed["games"]] == ids[::-1][:2]
    rest = client.get(f"/games?limit=2&cursor={listed['next_cursor']}").json
    assert [g["id"] for g in rest["games"]] == ids[:1]
    assert [g["id"] for g in client.get("/games?player=Caro").json["games"]] == [ids[1]]
    assert client.get("/games?status=finished").json["games"] == []
    assert len(client.get("/games?game=mada&status=active").json["games"]) == 3


# Appending -------------------------------------------------------------------------------------
def test_append_answers_seq_version_event_and_state(client: FlaskClient) -> None:
    game = create(client)
    move = legal(client, game)[0]
    response = append(client, game, move)
    assert response.status_code == 201
    body = response.json
    assert (body["seq"], body["version"]) == (1, 1)
    assert body["event"]["seq"] == 1
    assert {k: body["event"][k] for k in move} == move
    assert body["event"]["hash"] and body["event"]["at"].endswith("Z")
    assert body["state"]["version"] == 1
    assert response.headers["ETag"] == '"1"'


def test_state_at_n_equals_the_state_the_nth_append_returned(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"])
    answers = play_to_the_end(client, game, seed=3)
    for n in (1, len(answers) // 2, len(answers)):
        state = client.get(f"/games/{game['id']}/state?at={n}", headers=auth(game)).json
        assert state == answers[n - 1]["state"]


def test_a_whole_game_recorded_over_http_finishes_with_a_result(client: FlaskClient) -> None:
    game = create(client)
    answers = play_to_the_end(client, game, seed=1)
    final = client.get(f"/games/{game['id']}").json
    assert final["status"] == "finished"
    assert final["version"] == len(answers)
    assert final["finished_at"]
    assert final["result"]["winners"] == answers[-1]["state"]["winners"]
    assert final["result"]["scores"] == answers[-1]["state"]["scores"]
    assert legal(client, game) == []
    events = client.get(f"/games/{game['id']}/events").json
    assert [e["seq"] for e in events["events"]] == list(range(1, len(answers) + 1))


def test_public_state_hides_hands_and_draw_pile(client: FlaskClient) -> None:
    game = create(client)
    public = client.get(f"/games/{game['id']}/state").json
    full = client.get(f"/games/{game['id']}/state", headers=auth(game)).json
    assert "hands" in full and "draw_pile" in full
    assert public["hands"] == [None, None, None] and "draw_pile" not in public
    wrong = client.get(f"/games/{game['id']}/state", headers={"Authorization": "Bearer no"})
    assert_error(wrong, 401, "unauthorized")


def test_every_legal_move_is_accepted_as_is(client: FlaskClient) -> None:
    game = create(client)
    for move in legal(client, game):
        # Each on a fresh game made with the same seed, so in the same state.
        fresh = create(client)
        assert append(client, fresh, move).status_code == 201


def test_events_page_with_from_and_limit(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"])
    play_to_the_end(client, game)
    page = client.get(f"/games/{game['id']}/events?from=3&limit=2").json
    assert [e["seq"] for e in page["events"]] == [3, 4]
    assert all({"seq", "type", "at", "hash"} <= set(e) for e in page["events"])


# Errors -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "body",
    [
        {"game": "mada", "players": ["Ana"]},
        {"game": "mada", "players": ["A", "B", "C", "D", "E", "F"]},
        {"game": "chess", "players": ["Ana", "Ben"]},
        {"game": "mada", "players": ["Ana", "Ben"], "colour": "red"},
        {"game": "mada", "players": ["Ana", "Ben"], "seed": -1},
        {"game": "mada", "players": ["Ana", "Ben"], "seed": 2**64},
        {"game": "mada", "players": ["Ana", "Ben"], "seed": "42"},
        {"game": "mada", "players": "Ana"},
        {"game": "mada", "players": ["Ana", "Ben"], "options": {"first_player": 2}},
        {"game": "mada", "players": ["Ana", "Ben"], "options": {"chance": "dice"}},
        {"game": "mada", "players": ["Ana", "Ben"], "options": {"speed": 1}},
    ],
)
def test_bad_creations_are_400_and_create_nothing(client: FlaskClient, body: Any) -> None:
    assert_error(client.post("/games", json=body), 400, "invalid_request")
    assert client.get("/games").json["games"] == []


def test_400_details_name_the_fields(client: FlaskClient) -> None:
    details = assert_error(
        client.post("/games", json={"game": "mada", "players": ["A", "B"], "colour": 1}),
        400,
        "invalid_request",
    )
    assert "colour" in details


@pytest.mark.parametrize(
    "raw",
    ["not json", "[1, 2]", '{"type": 3}', '{"player": 0}', '{"type": "fly", "player": 0}',
     '{"type": "play", "player": 0, "card": 99}', '{"type": "draw", "player": 0, "x": 1}'],
)  # fmt: skip
def test_malformed_events_are_400_and_append_nothing(client: FlaskClient, raw: str) -> None:
    game = create(client)
    response = client.post(
        f"/games/{game['id']}/events",
        data=raw,
        headers={**auth(game), "Content-Type": "application/json"},
    )
    assert_error(response, 400, "invalid_request")
    assert client.get(f"/games/{game['id']}").json["version"] == 0


def test_append_without_or_with_a_wrong_token_is_401(client: FlaskClient) -> None:
    game = create(client)
    move = legal(client, game)[0]
    url = f"/games/{game['id']}/events"
    assert_error(client.post(url, json=move), 401, "unauthorized")
    assert_error(client.post(url, json=move, headers={"Authorization": "Bearer x"}), 401,
                 "unauthorized")  # fmt: skip
    assert client.get(f"/games/{game['id']}").json["version"] == 0


def test_unknown_game_and_route_are_404(client: FlaskClient) -> None:
    assert_error(client.get("/games/nope"), 404, "not_found")
    assert_error(client.get("/games/nope/state"), 404, "not_found")
    assert_error(client.post("/games/nope/events", json={"type": "draw"}), 404, "not_found")
    assert_error(client.get("/no/such/route"), 404, "not_found")


def test_if_match_on_a_stale_version_is_409_with_the_current_version(client: FlaskClient) -> None:
    game = create(client)
    assert append(client, game, legal(client, game)[0], **{"If-Match": "0"}).status_code == 201
    details = assert_error(
        append(client, game, legal(client, game)[0], **{"If-Match": '"0"'}), 409,
        "version_conflict",
    )  # fmt: skip
    assert details == {"current_version": 1}
    assert append(client, game, legal(client, game)[0], **{"If-Match": '"1"'}).status_code == 201


def test_a_bad_if_match_is_400(client: FlaskClient) -> None:
    game = create(client)
    assert_error(append(client, game, legal(client, game)[0], **{"If-Match": "soon"}), 400,
                 "invalid_request")  # fmt: skip


def test_a_move_on_a_finished_game_is_409_game_finished(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"])
    play_to_the_end(client, game)
    assert_error(append(client, game, {"type": "draw", "player": 0}), 409, "game_finished")


def test_a_body_over_64_kib_is_413(client: FlaskClient) -> None:
    game = create(client)
    huge = {"type": "draw", "player": 0, "padding": "x" * 70_000}
    assert_error(append(client, game, huge), 413, "too_large")
    assert_error(client.post("/games", json={"game": "mada", "players": ["x" * 70_000]}), 413,
                 "too_large")  # fmt: skip


def test_an_illegal_move_is_422_naming_the_rule(client: FlaskClient) -> None:
    game = create(client)
    waiting = legal(client, game)[0]["player"]
    other = (waiting + 1) % 3
    details = assert_error(append(client, game, {"type": "draw", "player": other}), 422,
                           "illegal_move")  # fmt: skip
    assert isinstance(details, dict)
    assert client.get(f"/games/{game['id']}").json["version"] == 0


def test_store_down_is_503_unavailable(key_prefix: str) -> None:
    down = redis.Redis(port=1, decode_responses=True, socket_connect_timeout=0.2)
    client = make_app(down, key_prefix).test_client()
    assert_error(client.post("/games", json={"game": "mada", "players": ["A", "B"]}), 503,
                 "unavailable")  # fmt: skip
    assert_error(client.get("/games/x"), 503, "unavailable")
    assert client.get("/health").status_code == 503


def test_too_many_requests_are_429_rate_limited(real_redis: redis.Redis, key_prefix: str) -> None:
    client = make_app(real_redis, key_prefix, RATE_LIMIT="3 per minute").test_client()
    for _ in range(3):
        assert client.get("/games").status_code == 200
    assert_error(client.get("/games"), 429, "rate_limited")
    assert_error(client.post("/games", json={"game": "mada", "players": ["A", "B"]}), 429,
                 "rate_limited")  # fmt: skip
    assert make_app(real_redis, key_prefix).test_client().get("/games").json["games"] == []


# Idempotency and concurrency ---------------------------------------------------------------------
def test_a_retried_idempotency_key_appends_once(client: FlaskClient) -> None:
    game = create(client)
    move = legal(client, game)[0]
    first = append(client, game, move, **{"Idempotency-Key": "tap-1"})
    again = append(client, game, move, **{"Idempotency-Key": "tap-1"})
    assert first.status_code == again.status_code == 201
    assert first.json == again.json
    assert client.get(f"/games/{game['id']}").json["version"] == 1


def test_an_idempotency_key_reused_with_another_body_is_409(client: FlaskClient) -> None:
    game = create(client)
    append(client, game, legal(client, game)[0], **{"Idempotency-Key": "tap-1"})
    other = {"type": "draw", "player": 2, "note": "different"}
    assert_error(append(client, game, other, **{"Idempotency-Key": "tap-1"}), 409,
                 "idempotency_conflict")  # fmt: skip


def test_eight_writers_at_one_version_exactly_one_wins(app: Flask) -> None:
    setup = app.test_client()
    game = create(setup)
    move = legal(setup, game)[0]
    statuses: list[int] = []
    start = threading.Barrier(8)

    def writer() -> None:
        client = app.test_client()
        start.wait()
        statuses.append(append(client, game, move, **{"If-Match": "0"}).status_code)

    threads = [threading.Thread(target=writer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] + [409] * 7
    assert setup.get(f"/games/{game['id']}").json["version"] == 1


def test_concurrent_writers_without_if_match_lose_and_duplicate_nothing(app: Flask) -> None:
    setup = app.test_client()
    game = create(setup, players=["Ana", "Ben"])
    accepted: list[int] = []
    lock = threading.Lock()

    def writer(seed: int) -> None:
        client = app.test_client()
        chooser = random.Random(seed)
        for _ in range(15):
            moves = legal(client, game)
            if not moves:
                return
            response = append(client, game, chooser.choice(moves))
            if response.status_code == 201:
                with lock:
                    accepted.append(response.json["seq"])

    threads = [threading.Thread(target=writer, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    events = setup.get(f"/games/{game['id']}/events").json
    assert sorted(accepted) == list(range(1, len(accepted) + 1))
    assert [e["seq"] for e in events["events"]] == sorted(accepted)
    assert events["version"] == len(accepted)


def test_a_process_with_a_stale_snapshot_never_appends_at_a_taken_version(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    # Two API processes on one Redis: each keeps its own snapshot of the game.
    first = make_app(real_redis, key_prefix).test_client()
    second = make_app(real_redis, key_prefix).test_client()
    game = create(first, players=["Ana", "Ben"], seed=11)
    assert append(second, game, legal(second, game)[0]).status_code == 201  # second caches v1
    assert append(first, game, legal(first, game)[0]).status_code == 201  # now at v2
    # The second's snapshot is at v1: with If-Match 1 the store refuses, naming version 2.
    stale = legal(first, game)[0]
    details = assert_error(append(second, game, stale, **{"If-Match": "1"}), 409,
                           "version_conflict")  # fmt: skip
    assert details == {"current_version": 2}
    # Without If-Match it re-reads the game and appends at v3, judged on the true state.
    response = append(second, game, stale)
    assert response.status_code == 201 and response.json["seq"] == 3
    events = first.get(f"/games/{game['id']}/events").json["events"]
    assert [e["seq"] for e in events] == [1, 2, 3]
    assert first.get(f"/games/{game['id']}/audit").json["ok"] is True


# Service ---------------------------------------------------------------------------------------
def test_health_is_ok_with_the_store_up(client: FlaskClient) -> None:
    body = client.get("/health").json
    assert body["status"] == "ok" and body["store"]["ok"] is True


def test_openapi_document_and_docs_are_served(client: FlaskClient) -> None:
    spec = client.get("/openapi.json").json
    assert {"/games", "/games/{game_id}/events", "/games/{game_id}/state"} <= set(spec["paths"])
    assert "Error" in spec["components"]["schemas"]
    # Every game's events are documented, from the game's own field descriptions.
    for name in game_names():
        for kind in get_game(name).event_fields:
            assert f"| `{kind}` |" in spec["info"]["description"]
    docs = client.get("/docs")
    assert docs.status_code == 200
    # Its scripts come from the service itself: the page works with no network.
    assert b"/swagger-ui/swagger-ui-bundle.js" in docs.data
    with client.get("/swagger-ui/swagger-ui-bundle.js") as script:
        assert script.status_code == 200


@pytest.mark.parametrize(
    ("players", "why"),
    [
        (["Ana", "A\x00na"], "control characters"),
        (["Ana", "Ben\nCaro"], "control characters"),
        (["Ana", "   "], "blank"),
        (["Ana", ""], "1 to 64"),
        (["Ana", "x" * 65], "1 to 64"),
        (["Ana", "Ana"], "distinct"),
    ],
)
def test_a_name_must_be_short_visible_and_distinct(
    client: FlaskClient, players: list[str], why: str
) -> None:
    before = client.get("/games").json["games"]
    details = assert_error(
        client.post("/games", json={"game": "mada", "players": players}), 400, "invalid_request"
    )
    assert why in str(details)
    assert client.get("/games").json["games"] == before


def test_a_name_of_64_characters_in_any_script_is_fine(client: FlaskClient) -> None:
    names = ["Ana María", "ü" * 64, "李明", "Ben 2"]
    assert create(client, players=names)["players"] == names
