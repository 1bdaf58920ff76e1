"""Every shape of damage, walked through every path: reads and writes as each viewer, listings,
pages (a browser's Accept and any other client's), ``reconcile``, the worker and
``stats rebuild``. A damaged game answers 500 ``damaged_record`` (never ``internal``, never a
404), refuses appends with nothing written, and no answer quotes a value its viewer may not see;
the other games go on.

The damage is made straight in Redis, as a disk fault or a hand edit would, and read by a service
started afterwards (``fresh``). The game damaged is an observed Mada game, whose events hold each
seat's hidden cards: seat 0 deals, then seat 1 deals three of one card, then they play.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import redis
from flask import Flask
from flask.testing import FlaskClient
from rq.registry import FailedJobRegistry

from service.store.archive import archive_document
from service.store.connection import StoreClient
from service.store.damage import DamagedRecordError
from service.store.events import EventStore
from service.store.records import DamagedHeader, GameRecord
from tests.conftest import make_app
from tests.support.api import append, assert_error, create, legal, play_to_the_end
from tests.support.workers import run_cli, worker_env

# Digits no answer holds by chance: the seed is hidden from all but the recorder.
SEED = 8_123_456_789_012_345
IDEMPOTENCY_KEY = "tap-6"


@dataclass
class Played:
    """A damaged game's creation answer, its stored hidden values, and the number of events."""

    game: dict[str, Any]
    # The cards each seat dealt itself: hidden from the public and the other seat.
    hands: list[list[int]]
    version: int

    @property
    def id(self) -> str:
        return str(self.game["id"])


@pytest.fixture
def fresh(real_redis: redis.Redis, key_prefix: str, archive_dir: Path) -> Callable[[], FlaskClient]:
    def started() -> FlaskClient:
        return make_app(real_redis, key_prefix, ARCHIVE_DIR=str(archive_dir)).test_client()

    return started


def header_key(prefix: str, game_id: str) -> str:
    return f"{prefix}{{{game_id}}}:header"


def events_key(prefix: str, game_id: str) -> str:
    return f"{prefix}{{{game_id}}}:events"


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def observed_game(client: FlaskClient) -> Played:
    """Seat 0 deals, seat 1 deals three of one card, then four moves; the last with a key."""
    game = create(client, players=["Ana", "Ben"], seed=SEED, options={"chance": "observed"})
    first = legal(client, game)[0]
    assert append(client, game, first).status_code == 201
    triples = [m for m in legal(client, game) if len(set(m["cards"])) == 1]
    second = triples[-1]
    assert append(client, game, second).status_code == 201
    for number in range(4):
        key = {"Idempotency-Key": IDEMPOTENCY_KEY} if number == 3 else {}
        assert append(client, game, legal(client, game)[0], **key).status_code == 201
    return Played(game, [first["cards"], second["cards"]], version=6)


# The shapes of damage ----------------------------------------------------------------------------
def rewrite_event(client: redis.Redis, prefix: str, game_id: str, seq: int,
                  body: bytes | str) -> None:  # fmt: skip
    """Event ``seq``'s body replaced in place (its entry id, at and hash kept)."""
    key = events_key(prefix, game_id)
    entries = client.execute_command("XRANGE", key, "-", "+", NEVER_DECODE=True)
    client.delete(key)
    for entry_id, fields in entries:
        if entry_id == f"0-{seq}".encode():
            fields = {**fields, b"body": body}
        client.xadd(key, fields, id=entry_id)


def body_of(client: redis.Redis, prefix: str, game_id: str, seq: int) -> dict[str, Any]:
    ((_, fields),) = client.xrange(events_key(prefix, game_id), f"0-{seq}", f"0-{seq}")
    body: dict[str, Any] = json.loads(fields["body"])
    return body


def players_not_utf8(client: redis.Redis, prefix: str, played: Played) -> None:
    client.hset(header_key(prefix, played.id), "players", b'["a","\xff"]')


def event_body_not_utf8(client: redis.Redis, prefix: str, played: Played) -> None:
    rewrite_event(client, prefix, played.id, 3, b'{"type":"play","player":0,"card":"\xff"}')


def header_field(name: str, value: str | None) -> Callable[[redis.Redis, str, Played], None]:
    def damage(client: redis.Redis, prefix: str, played: Played) -> None:
        if value is None:
            client.hdel(header_key(prefix, played.id), name)
        else:
            client.hset(header_key(prefix, played.id), name, value)

    return damage


def stream_ids_moved(client: redis.Redis, prefix: str, played: Played) -> None:
    """Every entry moved ten ids on: as many events, none where its seq says."""
    key = events_key(prefix, played.id)
    entries = client.xrange(key)
    client.delete(key)
    for entry_id, fields in entries:
        client.xadd(key, fields, id=f"0-{int(entry_id.split('-')[1]) + 10}")


def idempotency_record_of_another_type(client: redis.Redis, prefix: str, played: Played) -> None:
    (key,) = client.keys(f"{prefix}{{{played.id}}}:idem:*")
    client.delete(key)
    client.rpush(key, "not", "a", "record")


def event_5_rewritten_illegal(client: redis.Redis, prefix: str, played: Played) -> None:
    # Move 4 again: the seat that made it has no turn now.
    rewrite_event(client, prefix, played.id, 5, json.dumps(body_of(client, prefix, played.id, 4)))


def deal_that_no_longer_fits(client: redis.Redis, prefix: str, played: Played) -> None:
    """Seat 0's deal made seat 1's: seat 1's genuine deal is then more copies than the deck has."""
    body = {"type": "deal", "player": 0, "cards": played.hands[1]}
    rewrite_event(client, prefix, played.id, 1, json.dumps(body))


@dataclass(frozen=True)
class Shape:
    damage: Callable[[redis.Redis, str, Played], None]
    # A word each damaged_record answer and the audit name (the field, or the event).
    named: str
    # The header is damaged (GET /games/{id} refuses too, listings leave the game out).
    header: bool = False
    # Only a keyed append meets it: the record reads as ever.
    keyed_append_only: bool = False


SHAPES: dict[str, Shape] = {
    "players not UTF-8": Shape(players_not_utf8, "players", header=True),
    "event body not UTF-8": Shape(event_body_not_utf8, "event 3"),
    "version abc": Shape(header_field("version", "abc"), "version", header=True),
    "version 1e3": Shape(header_field("version", "1e3"), "version", header=True),
    "version missing": Shape(header_field("version", None), "version", header=True),
    "seed 2**64": Shape(header_field("seed", str(2**64)), "seed", header=True),
    "created_at x": Shape(header_field("created_at", "x"), "created_at", header=True),
    "stream ids moved": Shape(stream_ids_moved, "event 1"),
    "idempotency record of another type": Shape(
        idempotency_record_of_another_type, "idempotency", keyed_append_only=True
    ),
    "event 5 rewritten illegal": Shape(event_5_rewritten_illegal, "event 5"),
    "a deal that no longer fits": Shape(deal_that_no_longer_fits, "event 2"),
}


# What no answer may hold -------------------------------------------------------------------------
def secrets_hidden_from(client: redis.Redis, prefix: str, played: Played, viewer: str) -> list[str]:
    """The texts ``viewer`` ("public", "seat0", "seat1") may not read in any answer about the
    game while it is on: the seed, its salt, the tokens, the hashes, the other seat's cards."""
    game = played.game
    hidden = [str(SEED), game["seed_salt"], game["token"], *game["seat_tokens"]]
    if viewer.startswith("seat"):
        hidden.remove(game["seat_tokens"][int(viewer[-1])])
    raw = client.execute_command("HGETALL", header_key(prefix, played.id), NEVER_DECODE=True)
    stored = {key.decode(): value.decode(errors="replace") for key, value in raw.items()}
    for name in ("head_hash", "seed_salt", "seed"):
        if stored.get(name):
            hidden.append(stored[name])
    seats = [0, 1] if viewer == "public" else [1 - int(viewer[-1])]
    for seat in seats:
        # As the rules' words would quote the cards (a played card is public once on the table:
        # the JSON of a state may list the same cards).
        hidden.append(str(played.hands[seat]))
    return [text for text in hidden if text]


def assert_quotes_nothing_hidden(response: Any, hidden: list[str], what: str) -> None:
    text = response.get_data(as_text=True)
    for secret in hidden:
        assert secret not in text, f"{what} quotes {secret!r}: {text[:500]}"


def assert_damaged(response: Any, named: str, what: str) -> None:
    assert response.status_code == 500, (what, response.status_code, response.get_data()[:300])
    assert response.mimetype == "application/json", what
    assert_error(response, 500, "damaged_record")
    message = response.json["error"]["message"]
    assert named in message, (what, message)
    assert played_id_named(response), (what, message)


def played_id_named(response: Any) -> bool:
    return "game " in response.json["error"]["message"]


# The walk ----------------------------------------------------------------------------------------
def read_paths(game_id: str) -> list[str]:
    url = f"/games/{game_id}"
    return [
        url, f"{url}/state", f"{url}/state?at=2", f"{url}/events", f"{url}/events?from=4",
        f"{url}/legal", f"{url}/export", f"{url}/audit",
    ]  # fmt: skip


PAGES = ("view", "view?at=2", "record", "share")
HTML = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
JSON = {"Accept": "application/json"}


def stored_now(client: redis.Redis, prefix: str, game_id: str) -> tuple[Any, ...]:
    """What an append would change: the header as stored and the stream's entries."""
    header = client.execute_command("HGETALL", header_key(prefix, game_id), NEVER_DECODE=True)
    return header, client.xlen(events_key(prefix, game_id))


@pytest.mark.parametrize("shape_name", SHAPES)
def test_every_path_answers_a_damaged_record_that_quotes_nothing_hidden(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str, fresh: Any, shape_name: str
) -> None:
    shape = SHAPES[shape_name]
    played, other = observed_game(client), observed_game(client)
    shape.damage(real_redis, key_prefix, played)
    served = fresh()
    viewers = {
        "recorder": played.game["token"],
        "seat0": played.game["seat_tokens"][0],
        "seat1": played.game["seat_tokens"][1],
        "public": None,
    }
    for viewer, token in viewers.items():
        hidden = [] if viewer == "recorder" else (
            secrets_hidden_from(real_redis, key_prefix, played, viewer)
        )  # fmt: skip
        for path in read_paths(played.id):
            response = served.get(path, headers=bearer(token))
            what = f"{viewer} GET {path}"
            assert response.status_code != 404, what
            assert_quotes_nothing_hidden(response, hidden, what)
            if response.status_code >= 500:
                assert_damaged(response, shape.named, what)
            elif path.endswith("/audit"):
                assert response.json["ok"] is shape.keyed_append_only, (what, response.json)
                if not shape.keyed_append_only:
                    problems = response.json["problems"]
                    assert any(shape.named in problem for problem in problems), (what, problems)
            else:
                # A header that does not decode refuses every read; else a read answers, or
                # asks for a token.
                assert not shape.header, (what, response.status_code)
                assert response.status_code in (200, 401), (what, response.status_code)
                assert response.status_code == 200 or viewer != "recorder", what
        for page in PAGES:
            path = f"/games/{played.id}/{page}"
            as_html = served.get(path, headers={**HTML, **bearer(token)})
            as_json = served.get(path, headers={**JSON, **bearer(token)})
            for response in (as_html, as_json):
                assert_quotes_nothing_hidden(response, hidden, f"{viewer} {path}")
                assert response.status_code != 404, (viewer, path)
            assert as_html.status_code in (200, 500), path
            if shape.header:
                assert as_html.status_code == 500, path
            if as_html.status_code >= 500:
                assert as_html.status_code == 500 and as_html.mimetype == "text/html", path
                assert shape.named in as_html.get_data(as_text=True), path
                assert_damaged(as_json, shape.named, f"{viewer} {path} (JSON)")
    if not shape.keyed_append_only:
        # The reads that need the record refuse it, as the recorder reads them.
        for path in ("/state", "/export", "/legal"):
            response = served.get(f"/games/{played.id}{path}", headers=bearer(viewers["recorder"]))
            assert_damaged(response, shape.named, f"recorder GET {path}")
    # Appends are refused, with nothing written, for each writer.
    before = stored_now(real_redis, key_prefix, played.id)
    move = {"type": "draw", "player": 0}
    key = {"Idempotency-Key": IDEMPOTENCY_KEY} if shape.keyed_append_only else {}
    # (A seat's keyed append is a request of its own: only the recorder's meets its record.)
    writers = ["recorder"] if shape.keyed_append_only else ["recorder", "seat0"]
    for token in (viewers[writer] for writer in writers):
        response = served.post(
            f"/games/{played.id}/events", json=move, headers={**bearer(token), **key}
        )
        assert_damaged(response, shape.named, "append")
        assert stored_now(real_redis, key_prefix, played.id) == before
    # Listings go on: a damaged header leaves its game out, the other game is listed.
    for listing in ("/games", "/games?player=Ana", "/games?game=mada"):
        listed = served.get(listing)
        assert listed.status_code == 200, (listing, listed.get_data()[:300])
        ids = [g["id"] for g in listed.json["games"]]
        assert other.id in ids and (played.id in ids) is not shape.header, listing
    for page in ("/", "/players/Ana/view", "/players/Ben/view"):
        for accept in (HTML, JSON):
            assert served.get(page, headers=accept).status_code == 200, page
    # The other game goes on.
    url = f"/games/{other.id}"
    assert served.get(f"{url}/state", headers=bearer(other.game["token"])).status_code == 200
    assert served.get(f"{url}/audit").json["ok"] is True
    assert append(served, other.game, legal(served, other.game)[0]).status_code == 201


@pytest.mark.parametrize("shape_name", SHAPES)
def test_the_commands_and_the_worker_pass_over_a_damaged_game_and_count_the_others(
    app: Flask, client: FlaskClient, real_redis: redis.Redis, key_prefix: str,
    archive_dir: Path, redis_url: str, shape_name: str,
) -> None:  # fmt: skip
    env = worker_env(redis_url, key_prefix, archive_dir)
    shape = SHAPES[shape_name]
    played, ended = observed_game(client), observed_game(client)
    play_to_the_end(client, ended.game, seed=1)
    sound = create(client, players=["Ana", "Ben"], seed=0)
    play_to_the_end(client, sound, seed=0)
    for game in (played, ended):
        shape.damage(real_redis, key_prefix, game)
    # As if the jobs enqueued were lost: the worker's start and reconcile find them.
    queue = app.extensions["tabletape.queue"].queue
    queue.empty()
    for command in (("reconcile",), ("worker", "--burst"), ("reconcile",), ("stats", "rebuild")):
        done = run_cli(env, *command)
        assert done.returncode == 0, (command, done.stderr)
        assert "Traceback" not in done.stderr, done.stderr
        assert str(SEED) not in done.stdout + done.stderr
    assert client.get(f"/games/{sound['id']}").json["status"] == "archived"
    assert FailedJobRegistry(queue=queue).count == 0
    # The finished game whose record is damaged is marked, not archived nor counted.
    ended_header = real_redis.execute_command(
        "HGETALL", header_key(key_prefix, ended.id), NEVER_DECODE=True
    )
    if shape.keyed_append_only:
        assert ended_header[b"status"] == b"archived"
        assert client.get("/stats/mada").json["games"] == 2
    else:
        assert ended_header[b"status"] == b"finished" and b"archive_problem" in ended_header
        assert client.get("/stats/mada").json["games"] == 1
    for game in (played, ended):
        audit = run_cli(env, "audit", game.id)
        assert "Traceback" not in audit.stderr, audit.stderr
        assert audit.returncode == (0 if shape.keyed_append_only else 1), audit.stdout
    # Every other record is exported; the damaged ones are named on stderr.
    exported = run_cli(env, "export", "--all")
    assert "Traceback" not in exported.stderr, exported.stderr
    assert sound["seed_salt"] in exported.stdout
    assert exported.returncode == (0 if shape.keyed_append_only else 1)


# What a process keeps in memory ------------------------------------------------------------------
def cached_then_damaged(
    real_redis: redis.Redis, key_prefix: str, archive_dir: Path, **config: Any
) -> tuple[Flask, FlaskClient, Played]:
    """A service that played a game (its latest state cached), whose event 5 is then rewritten
    illegal behind its back."""
    app = make_app(real_redis, key_prefix, ARCHIVE_DIR=str(archive_dir), **config)
    served = app.test_client()
    played = observed_game(served)
    event_5_rewritten_illegal(real_redis, key_prefix, played)
    return app, served, played


def assert_the_cache_vouches_for_nothing(
    served: FlaskClient, real_redis: redis.Redis, key_prefix: str, played: Played
) -> None:
    url = f"/games/{played.id}"
    for path in ("/state", "/legal", "/export"):
        response = served.get(url + path, headers=bearer(played.game["token"]))
        assert_damaged(response, "event 5", path)
    before = stored_now(real_redis, key_prefix, played.id)
    assert_damaged(append(served, played.game, {"type": "draw", "player": 0}), "event 5", "append")
    assert stored_now(real_redis, key_prefix, played.id) == before


def test_with_no_recheck_interval_a_damage_behind_a_process_back_is_seen_at_once(
    real_redis: redis.Redis, key_prefix: str, archive_dir: Path
) -> None:
    _, served, played = cached_then_damaged(
        real_redis, key_prefix, archive_dir, CACHE_RECHECK_SECONDS=0
    )
    assert_the_cache_vouches_for_nothing(served, real_redis, key_prefix, played)


def test_a_cached_state_is_checked_against_the_record_once_the_interval_passed(
    real_redis: redis.Redis, key_prefix: str, archive_dir: Path
) -> None:
    now = [1000.0]
    app = make_app(real_redis, key_prefix, ARCHIVE_DIR=str(archive_dir))
    app.extensions["tabletape"].clock = lambda: now[0]
    served = app.test_client()
    played = observed_game(served)
    event_5_rewritten_illegal(real_redis, key_prefix, played)
    # Within the interval the process trusts what it holds.
    response = served.get(f"/games/{played.id}/state", headers=bearer(played.game["token"]))
    assert response.status_code == 200
    now[0] += app.config["CACHE_RECHECK_SECONDS"] + 0.1
    assert_the_cache_vouches_for_nothing(served, real_redis, key_prefix, played)


def test_export_and_audit_never_vouch_from_the_cache(
    real_redis: redis.Redis, key_prefix: str, archive_dir: Path
) -> None:
    _, served, played = cached_then_damaged(
        real_redis, key_prefix, archive_dir, CACHE_RECHECK_SECONDS=3600
    )
    exported = served.get(f"/games/{played.id}/export", headers=bearer(played.game["token"]))
    assert_damaged(exported, "event 5", "export")
    audit = served.get(f"/games/{played.id}/audit").json
    assert audit["ok"] is False and any("event 5" in p for p in audit["problems"]), audit


@pytest.mark.parametrize("version", ["abc", "1e3"])
def test_an_append_on_a_cached_game_whose_version_does_not_decode_is_a_damaged_record(
    real_redis: redis.Redis, key_prefix: str, archive_dir: Path, version: str
) -> None:
    app = make_app(real_redis, key_prefix, ARCHIVE_DIR=str(archive_dir))
    served = app.test_client()
    played = observed_game(served)
    move = legal(served, played.game)[0]
    real_redis.hset(header_key(key_prefix, played.id), "version", version)
    before = stored_now(real_redis, key_prefix, played.id)
    # The process trusts its cached state: the store's own check meets the damage.
    response = append(served, played.game, move)
    assert_damaged(response, "version", "append")
    assert stored_now(real_redis, key_prefix, played.id) == before


def test_a_keyed_append_on_a_cached_game_whose_record_is_of_another_type_is_a_damaged_record(
    real_redis: redis.Redis, key_prefix: str, archive_dir: Path
) -> None:
    app = make_app(real_redis, key_prefix, ARCHIVE_DIR=str(archive_dir))
    served = app.test_client()
    played = observed_game(served)
    move = legal(served, played.game)[0]
    idempotency_record_of_another_type(real_redis, key_prefix, played)
    before = stored_now(real_redis, key_prefix, played.id)
    # The process trusts its cached state: the append script meets the record first.
    response = append(served, played.game, move, **{"Idempotency-Key": IDEMPOTENCY_KEY})
    assert_damaged(response, "idempotency", "append")
    assert stored_now(real_redis, key_prefix, played.id) == before
    assert append(served, played.game, move).status_code == 201


def test_a_live_read_names_an_event_that_is_not_utf8(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str
) -> None:
    played = observed_game(client)
    event_body_not_utf8(real_redis, key_prefix, played)
    store = EventStore(real_redis, key_prefix)
    with pytest.raises(DamagedRecordError, match="event 3"):
        store.wait_events(played.id, 2, 10)
    assert [event.seq for event in store.wait_events(played.id, 3, 10)] == [4, 5, 6]


@pytest.fixture(params=["RESP2", "RESP3", "cluster"])
def any_client(
    request: pytest.FixtureRequest, redis_url: str, key_prefix: str
) -> Iterator[StoreClient]:
    """The store's client as a deployment may make it: either protocol, or a cluster's."""
    if request.param == "cluster":
        yield request.getfixturevalue("cluster_redis")
        return
    protocol = 2 if request.param == "RESP2" else 3
    client = redis.Redis.from_url(redis_url, decode_responses=True, protocol=protocol)
    yield client
    keys = list(client.scan_iter(match=f"{key_prefix}*", count=1000))
    if keys:
        client.delete(*keys)
    client.close()


def test_text_that_is_not_utf8_is_a_damaged_field_whatever_the_client(
    any_client: StoreClient, key_prefix: str, archive_dir: Path
) -> None:
    served = make_app(any_client, key_prefix, ARCHIVE_DIR=str(archive_dir)).test_client()
    by_header, by_event, sound = (observed_game(served) for _ in range(3))
    players_not_utf8(any_client, key_prefix, by_header)
    event_body_not_utf8(any_client, key_prefix, by_event)
    store = EventStore(any_client, key_prefix)
    found = store.find(by_header.id)
    assert isinstance(found, DamagedHeader) and set(found.problems) == {"players"}
    listed = store.get_many([by_header.id, by_event.id, sound.id])
    assert isinstance(listed[0], DamagedHeader) and set(listed[0].problems) == {"players"}
    assert [record.id for record in listed[1:] if isinstance(record, GameRecord)] == [
        by_event.id, sound.id
    ]  # fmt: skip
    with pytest.raises(DamagedRecordError, match="event 3"):
        store.events(by_event.id)
    assert len(store.events(sound.id)) == sound.version
    # The connections are sound afterwards: the same client serves the next reads.
    assert store.find(sound.id) == store.get_many([sound.id])[0]


def test_a_read_that_meets_the_stream_dropped_by_the_archive_job_reads_the_archive(
    app: Flask, client: FlaskClient
) -> None:
    """The archive job may drop a stream (ARCHIVE_TRIM) between a read of the header and of the
    events: the events are then the archive's, not a missing entry of a damaged record."""
    game = create(client, players=["Ana", "Ben"], seed=3)
    play_to_the_end(client, game, seed=3)
    games = app.extensions["tabletape"]
    record = games.get(game["id"])
    before = games.export(record)
    games.archive.write(archive_document(record, games.store.events(record.id)))
    assert games.store.mark_archived(record.id, record.version, trim=True)
    # ``record`` was read before the trim.
    assert games.export(record) == before


def test_an_earlier_state_is_replayed_without_checking_the_latest_cached_one(
    real_redis: redis.Redis, key_prefix: str, archive_dir: Path
) -> None:
    """``state?at=`` before the cached version does not use the cached state, so it costs no
    check of the whole record: stepping through a long game stays as cheap as it was."""
    _, served, played = cached_then_damaged(
        real_redis, key_prefix, archive_dir, CACHE_RECHECK_SECONDS=0
    )
    response = served.get(f"/games/{played.id}/state?at=2", headers=bearer(played.game["token"]))
    assert response.status_code == 200, response.json
