"""A seat's replaced link is refused at once by every process of the service, on every path: its
appends (idempotent retries included) and the live stream opened with it. Two apps on one store
stand for two processes, each with its own snapshots of the games it serves."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import make_app
from tests.support.api import append, assert_error, auth, create, legal
from tests.support.streams import Follower, stream_url

# A stream left open ends by itself soon after its test.
STREAM_SECONDS = 6


@pytest.fixture
def apps(real_redis: redis.Redis, key_prefix: str, tmp_path: Path) -> tuple[Flask, Flask]:
    settings = {"DATA_DIR": str(tmp_path), "STREAM_SECONDS": STREAM_SECONDS}
    first, second = (make_app(real_redis, key_prefix, **settings) for _ in range(2))
    return first, second


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def seat_to_act(client: FlaskClient, game: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """The seat whose decision is awaited, and a move of its own (read through ``client``, whose
    process then holds the game's state)."""
    for seat, token in enumerate(game["seat_tokens"]):
        moves = client.get(f"/games/{game['id']}/legal", headers=bearer(token)).json["moves"]
        if moves:
            return seat, moves[0]
    raise AssertionError("no seat's decision is awaited")


def replace_link(client: FlaskClient, game: dict[str, Any], seat: int) -> str:
    response = client.post(f"/games/{game['id']}/seats/{seat}/token", headers=auth(game))
    assert response.status_code == 201
    token: str = response.json["token"]
    return token


def version(client: FlaskClient, game: dict[str, Any]) -> int:
    found: int = client.get(f"/games/{game['id']}").json["version"]
    return found


def post_move(
    client: FlaskClient, game: dict[str, Any], token: str, move: dict[str, Any], **headers: str
) -> Any:
    return client.post(
        f"/games/{game['id']}/events", json=move, headers={**bearer(token), **headers}
    )


def test_a_replaced_link_cannot_append_through_a_process_that_knew_it(
    apps: tuple[Flask, Flask],
) -> None:
    a, b = apps[0].test_client(), apps[1].test_client()
    game = create(a, players=["Ana", "Ben"], seed=7)
    seat, move = seat_to_act(b, game)  # b now holds the game, with the seat's old token
    old = game["seat_tokens"][seat]
    replace_link(a, game, seat)
    for _ in range(5):
        assert_error(post_move(b, game, old, move), 401, "unauthorized")
        assert_error(post_move(a, game, old, move), 401, "unauthorized")
    assert version(a, game) == 0


def test_a_new_link_appends_through_a_process_that_knew_the_old_one(
    apps: tuple[Flask, Flask],
) -> None:
    a, b = apps[0].test_client(), apps[1].test_client()
    game = create(a, players=["Ana", "Ben"], seed=7)
    seat, move = seat_to_act(b, game)
    new = replace_link(a, game, seat)
    response = post_move(b, game, new, move)
    assert response.status_code == 201, response.json
    assert version(a, game) == 1


def test_a_replaced_link_retrying_an_idempotency_key_is_refused(
    apps: tuple[Flask, Flask],
) -> None:
    a, b = apps[0].test_client(), apps[1].test_client()
    game = create(a, players=["Ana", "Ben"], seed=7)
    seat, move = seat_to_act(b, game)  # b holds the game before the move: it would be legal
    old = game["seat_tokens"][seat]
    assert post_move(a, game, old, move, **{"Idempotency-Key": "tap-1"}).status_code == 201
    replace_link(a, game, seat)
    # Through the process whose snapshot holds the old token, and through the other one.
    assert_error(post_move(b, game, old, move, **{"Idempotency-Key": "tap-1"}), 401,
                 "unauthorized")  # fmt: skip
    assert_error(post_move(a, game, old, move, **{"Idempotency-Key": "tap-1"}), 401,
                 "unauthorized")  # fmt: skip
    assert version(a, game) == 1


# The live stream ----------------------------------------------------------------------------------
def follow(app: Flask, game: dict[str, Any], token: str) -> Follower:
    follower = Follower(app, stream_url(game), bearer(token))
    follower.start()
    assert follower.started_streaming.wait(10)
    time.sleep(0.3)  # the follower now waits on its game's feed
    return follower


def test_a_stream_opened_with_a_replaced_link_closes_at_once(apps: tuple[Flask, Flask]) -> None:
    a = apps[0].test_client()
    game = create(a, players=["Ana", "Ben"], seed=7)
    follower = follow(apps[1], game, game["seat_tokens"][1])
    replaced = time.monotonic()
    replace_link(a, game, 1)
    follower.finish(timeout=10)
    assert time.monotonic() - replaced < 5
    assert "replaced" in follower.received[-1]["comment"]
    # Reconnecting with it is refused.
    assert_error(a.get(stream_url(game), headers=bearer(game["seat_tokens"][1])), 401,
                 "unauthorized")  # fmt: skip


def test_a_stream_opened_with_a_replaced_link_gets_none_of_the_seats_later_draws(
    apps: tuple[Flask, Flask],
) -> None:
    a = apps[0].test_client()
    game = create(a, players=["Ana", "Ben"], seed=7, options={"chance": "observed"})
    follower = follow(apps[1], game, game["seat_tokens"][1])
    replace_link(a, game, 1)
    # The recorder goes on at once: the cards dealt to seat 1, and whatever follows.
    for _ in range(4):
        assert append(a, game, legal(a, game)[0]).status_code == 201
    follower.finish(timeout=10)
    assert follower.moves() == []
    assert "replaced" in follower.received[-1]["comment"]


def test_a_stream_of_a_link_not_replaced_goes_on(apps: tuple[Flask, Flask]) -> None:
    a = apps[0].test_client()
    game = create(a, players=["Ana", "Ben"], seed=7, options={"chance": "observed"})
    follower = follow(apps[1], game, game["seat_tokens"][0])
    replace_link(a, game, 1)
    assert append(a, game, legal(a, game)[0]).status_code == 201
    follower.finish(timeout=STREAM_SECONDS + 10)
    # It went on to its time limit.
    assert [message["id"] for message in follower.moves()] == ["1"]
    assert follower.received[-1]["comment"].startswith("time limit")
