"""Record formats: new records are written in format 2; a record written in format 1 (before the
seed commitment) keeps being read, appended to and audited in format 1, never mixed."""

from __future__ import annotations

import json
import random

import pytest
import redis
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from service.store.chain import LEGACY_FORMAT, canonical_json, header_hash, sha256_hex
from tests.support.api import append, auth, create, legal


def test_a_new_record_is_format_2_with_a_commitment_to_its_seed(client: FlaskClient) -> None:
    game = create(client)
    assert game["record_format"] == 2
    assert len(game["seed_salt"]) == 32 and int(game["seed_salt"], 16) >= 0
    committed = sha256_hex(canonical_json({"salt": game["seed_salt"], "seed": game["seed"]}))
    assert game["seed_commitment"] == committed


def test_an_audit_catches_a_seed_changed_behind_the_commitment(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str
) -> None:
    game = create(client)
    real_redis.hset(f"{key_prefix}{{{game['id']}}}:header", "seed", str(game["seed"] + 1))
    audit = client.get(f"/games/{game['id']}/audit", headers=auth(game)).json
    assert not audit["ok"]
    assert "the seed and its salt do not match the seed commitment" in audit["problems"]


def test_a_format_1_record_is_appended_to_and_audited_in_format_1(
    client: FlaskClient, real_redis: redis.Redis, key_prefix: str
) -> None:
    game = create(client, players=["Ana", "Ben"])
    # Make it what the store held before record format 2: no format, no salt, no commitment,
    # and the chain starting from the format 1 header hash.
    header_key = f"{key_prefix}{{{game['id']}}}:header"
    real_redis.hdel(header_key, "record_format", "seed_salt", "seed_commitment")
    old_header = {name: game[name] for name in ("game", "players", "seed", "options")}
    old_header["rules_version"] = game["rules_version"]
    real_redis.hset(header_key, "head_hash", header_hash(old_header, LEGACY_FORMAT))
    chooser = random.Random(1)
    for _ in range(6):
        moved = client.post(f"/games/{game['id']}/events", json=chooser.choice(legal(client, game)),
                            headers=auth(game))  # fmt: skip
        assert moved.status_code == 201
    shown = client.get(f"/games/{game['id']}", headers=auth(game)).json
    assert shown["record_format"] == 1 and shown["seed_commitment"] is None
    events = client.get(f"/games/{game['id']}/events", headers=auth(game)).json["events"]
    previous = header_hash(old_header, LEGACY_FORMAT)
    for event in events:
        body = {k: v for k, v in event.items() if k not in ("seq", "at", "hash", "void")}
        previous = sha256_hex(previous + canonical_json(body))
        assert event["hash"] == previous
    audit = client.get(f"/games/{game['id']}/audit", headers=auth(game)).json
    assert audit["ok"], audit["problems"]
    # Changing a format 1 event is caught under format 1's own chain.
    real_redis.hset(header_key, "head_hash", "0" * 64)
    assert not client.get(f"/games/{game['id']}/audit", headers=auth(game)).json["ok"]


def test_an_idempotency_key_belongs_to_the_viewer_who_used_it(client: FlaskClient) -> None:
    """The contract's example: the recorder deals seat 0's cards with a key; seat 1 sending a deal
    with the same key learns nothing from it (no 409 for other cards, no 201 for the right ones):
    its request is its own, and seat 0's deal is not seat 1's to record (403)."""
    game = create(client, players=["Ana", "Ben"], seed=5, options={"chance": "observed"})
    key = {"Idempotency-Key": "k1"}
    deal = legal(client, game)[0]
    assert deal["type"] == "deal" and deal["player"] == 0
    first = client.post(f"/games/{game['id']}/events", json=deal, headers={**auth(game), **key})
    assert first.status_code == 201
    seat_1 = {"Authorization": f"Bearer {game['seat_tokens'][1]}", **key}
    other = {**deal, "cards": [*deal["cards"][:2], "scorpion"]}
    for guess in (deal, other):
        answer = client.post(f"/games/{game['id']}/events", json=guess, headers=seat_1)
        assert answer.status_code == 403 and answer.json["error"]["code"] == "forbidden"
    # The recorder's own retry is still answered from its record, once.
    again = client.post(f"/games/{game['id']}/events", json=deal, headers={**auth(game), **key})
    assert again.status_code == 201 and again.json == first.json
    assert client.get(f"/games/{game['id']}", headers=auth(game)).json["version"] == 1


def test_the_same_key_from_two_seats_is_two_requests(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"], seed=5)
    key = {"Idempotency-Key": "tap-1"}
    for seat in (0, 1):
        token = {"Authorization": f"Bearer {game['seat_tokens'][seat]}"}
        move = client.get(f"/games/{game['id']}/legal", headers=token).json["moves"]
        while not move:  # not this seat's turn yet: the recorder plays on
            append(client, game, legal(client, game)[0])
            move = client.get(f"/games/{game['id']}/legal", headers=token).json["moves"]
        before = client.get(f"/games/{game['id']}", headers=auth(game)).json["version"]
        answer = client.post(f"/games/{game['id']}/events", json=move[0], headers={**token, **key})
        assert answer.status_code == 201 and answer.json["seq"] == before + 1


# Canonical JSON: the hashes of every record depend on it byte for byte ----------------------------
_JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
_JSON_VALUES = st.recursive(
    _JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(_JSON_VALUES)
def test_canonical_json_is_pythons_json_with_sorted_keys_and_no_spaces(value: object) -> None:
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical_json(value) == expected


@pytest.mark.parametrize(
    "value",
    [
        {"at": "2026-11-26T08:49:15.081Z", "seq": 3, "type": "play"},
        {"x": [1e-05, 1e16, -0.0, 2.5]},
        {"é": "\u2028\x00\x7f\ud800", "big": 2**64, "ints": {"1": -(2**63)}},
        {"text": ':1.5,"', "n": [1.0]},
    ],
)
def test_canonical_json_of_the_cases_that_differ_between_json_libraries(value: object) -> None:
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical_json(value) == expected
