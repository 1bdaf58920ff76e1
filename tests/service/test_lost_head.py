"""An append is stored only on the head it was validated against.

A store may lose its last acknowledged write (a crash before it reached the disk under
`appendfsync everysec`). A process that remembers the lost event must never chain a new event to
it: the append script checks the previous event's hash as well as the version, and a process's
snapshot of a game is trusted only while its head is the store's. Two services share one store
here, X and Y, and the store loses X's last append, as a crash would: its stream entry and the
header's version and head go back one event.
"""

from __future__ import annotations

from typing import Any

import redis
from flask.testing import FlaskClient

from tests.conftest import make_app
from tests.support.api import append, auth, create, legal


def lose_the_last_write(client: redis.Redis, prefix: str, game_id: str) -> None:
    """What a crash does to a game whose last append had not reached the disk."""
    header, events = f"{prefix}{{{game_id}}}:header", f"{prefix}{{{game_id}}}:events"
    kept = client.xrange(events)[:-1]
    # The stream as the disk had it: the entries before the lost one, and never the lost one's
    # id (XDEL would leave the stream's last id at it).
    pipe = client.pipeline()
    pipe.delete(events)
    for entry_id, fields in kept:
        pipe.xadd(events, fields, id=entry_id)
    pipe.hset(header, mapping={"version": str(len(kept)), "head_hash": kept[-1][1]["hash"]})
    pipe.execute()


def audit(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/games/{game['id']}/audit", headers=auth(game)).json
    return answer


def test_a_process_that_remembers_a_lost_write_never_chains_to_it(
    real_redis: redis.Redis, key_prefix: str
) -> None:
    x = make_app(real_redis, key_prefix).test_client()
    y = make_app(real_redis, key_prefix).test_client()
    game = create(x, players=["Ana", "Ben"], seed=3)
    for _ in range(5):
        assert append(x, game, legal(x, game)[0]).status_code == 201
    lose_the_last_write(real_redis, key_prefix, game["id"])
    # Y, which never saw the lost event, appends on the store's head: its event 5 is another.
    assert append(y, game, legal(y, game)[-1]).status_code == 201
    # X remembers its own event 5; its next append must land on the store's event 5, not on it.
    answer = append(x, game, legal(y, game)[0])
    assert answer.status_code == 201 and answer.json["seq"] == 6
    checked = audit(y, game)
    assert checked["ok"] is True and checked["problems"] == []
    assert checked["version"] == 6


def test_a_stale_process_answers_the_true_state(real_redis: redis.Redis, key_prefix: str) -> None:
    x = make_app(real_redis, key_prefix).test_client()
    y = make_app(real_redis, key_prefix).test_client()
    game = create(x, players=["Ana", "Ben"], seed=4)
    for _ in range(3):
        assert append(x, game, legal(x, game)[0]).status_code == 201
    lose_the_last_write(real_redis, key_prefix, game["id"])
    assert append(y, game, legal(y, game)[-1]).status_code == 201
    seen_by_x = x.get(f"/games/{game['id']}/state", headers=auth(game)).json
    seen_by_y = y.get(f"/games/{game['id']}/state", headers=auth(game)).json
    assert seen_by_x == seen_by_y
    assert legal(x, game) == legal(y, game)
