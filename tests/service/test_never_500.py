"""No request, however malformed, gets a 500 or changes anything: fuzzed on fakeredis (fast).

Bodies are JSON *text* built here rather than values serialised by a library, so that they can
hold what a library would refuse to write: lone surrogates (escaped, or raw as bytes that are not
UTF-8), integers of thousands of digits, NaN and Infinity, any depth. Raw bytes too. Every answer
must be one of the contract's, and every rejected request must leave the store as it was.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import fakeredis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import make_app
from tests.support.api import play_to_the_end


def fuzz(examples: int) -> settings:
    # A few hundred examples in all: the suite runs in CI on 2 cores.
    return settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# The statuses and codes of the contract (spec/api.md, Errors).
CODES = {
    400: {"invalid_request"},
    401: {"unauthorized"},
    403: {"forbidden"},
    404: {"not_found"},
    405: {"method_not_allowed"},
    409: {"version_conflict", "game_finished", "idempotency_conflict"},
    413: {"too_large"},
    422: {"illegal_move"},
    429: {"rate_limited"},
}

_fake = fakeredis.FakeRedis(decode_responses=True)
_client = make_app(_fake, "fuzz:").test_client()


def _create(seed: int) -> dict[str, Any]:
    response = _client.post("/games", json={"game": "mada", "players": ["A", "B", "C"],
                                            "seed": seed})  # fmt: skip
    assert response.status_code == 201
    game: dict[str, Any] = response.json
    return game


_game = _create(1)
_finished = _create(2)
play_to_the_end(_client, _finished, seed=2)
_export = _client.get(f"/games/{_finished['id']}/export").json


def _auth(game: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['token']}"}


# JSON text ----------------------------------------------------------------------------------------
# Any character, lone surrogates included (hypothesis leaves them out of text by default).
characters = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF) | st.characters()
texts = st.text(characters, max_size=8)
strings = st.one_of(
    texts.map(json.dumps),  # escaped: "\ud800"
    texts.map(lambda text: json.dumps(text, ensure_ascii=False)),  # raw: bytes not UTF-8
    st.sampled_from(['"', '"\\', '"\\u12"', '"\\x41"', "'single'"]),
)
numbers = st.one_of(
    st.integers(-(2**70), 2**70).map(str),
    st.integers(4250, 4400).map(lambda digits: "9" * digits),  # past Python's int() limit
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-0", "01", "1.", ".5", "0x10"]),
)
scalars = st.one_of(st.sampled_from(["null", "true", "false"]), numbers, strings)
json_texts = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5).map(lambda items: "[" + ",".join(items) + "]"),
        st.lists(st.tuples(strings, inner), max_size=5).map(
            lambda pairs: "{" + ",".join(f"{key}:{value}" for key, value in pairs) + "}"
        ),
    ),
    max_leaves=16,
)
deep_texts = st.integers(1, 3000).flatmap(
    lambda depth: st.sampled_from(
        ["[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth, "[" * depth]
    )
)


def in_object(fields: dict[str, st.SearchStrategy[str]]) -> st.SearchStrategy[str]:
    """A JSON object of some of ``fields`` (each value's text drawn from its strategy)."""
    return st.fixed_dictionaries({}, optional=fields).map(
        lambda drawn: "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in drawn.items()) + "}"
    )


def value(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[str]:
    """Well-formed JSON text for ``strategy``'s values, or any JSON text."""
    return strategy.map(json.dumps) | json_texts


any_json = json_texts | deep_texts
event_texts = in_object(
    {
        "type": value(st.sampled_from(["play", "draw", "try_luck", "deal", "scorpion_discard",
                                       "choose_target", "round_discard", "retract"])),
        "player": value(st.integers(-1, 3)),
        "card": value(st.integers(-1, 15) | st.sampled_from(["lemur", "scorpion"])),
        "cards": value(st.lists(st.integers(0, 14), max_size=3)),
        "target": value(st.integers(-1, 3)),
    }
)  # fmt: skip
creation_texts = in_object(
    {
        "game": value(st.sampled_from(["mada", "madcala", "sifaka", "chess"])),
        "players": value(st.lists(st.sampled_from(["Ana", "Ben", "Caro", ""]), max_size=5)),
        "seed": value(st.integers(-5, 2**65)),
        "options": in_object({"first_player": value(st.integers(-1, 4)),
                              "chance": value(st.sampled_from(["seeded", "observed"])),
                              "catalog": any_json}) | any_json,
    }
)  # fmt: skip
import_texts = in_object(
    {
        **{name: value(st.just(_export[name]))
           for name in ("game", "players", "seed", "options", "rules_version")},
        "events": value(st.just(_export["events"][:3]))
        | st.lists(event_texts, max_size=3).map(lambda events: "[" + ",".join(events) + "]"),
        "extra": any_json,
    }
)  # fmt: skip


def encoded(text: str) -> bytes:
    # A raw lone surrogate becomes the bytes UTF-8 forbids, as a hostile client would send them.
    return text.encode("utf-8", "surrogatepass")


# Checking answers --------------------------------------------------------------------------------
def store_state(game: dict[str, Any]) -> tuple[int, int, str, int]:
    """What a rejected request must not change: every key of the store, and the game's record."""
    header = _fake.hgetall(f"fuzz:{{{game['id']}}}:header")
    events = _fake.xlen(f"fuzz:{{{game['id']}}}:events")
    return _fake.dbsize(), events, header.get("version", ""), len(header)


def assert_contract_answer(response: Any, ok: set[int]) -> None:
    status = response.status_code
    assert status in ok | set(CODES), (status, response.data[:300])
    if status >= 400:
        assert response.mimetype == "application/json"
        body = json.loads(response.data)
        assert set(body) == {"error"}, body
        assert set(body["error"]) == {"code", "message", "details"}, body
        assert body["error"]["code"] in CODES[status], body
        assert isinstance(body["error"]["message"], str) and body["error"]["message"], body
        assert isinstance(body["error"]["details"], dict), body


def post(path: str, data: bytes, game: dict[str, Any], ok: set[int]) -> None:
    before = store_state(game)
    response = _client.post(path, data=data, headers={"Content-Type": "application/json",
                                                      **_auth(game)})  # fmt: skip
    assert_contract_answer(response, ok)
    if response.status_code >= 400:
        assert store_state(game) == before, response.json


# Bodies ------------------------------------------------------------------------------------------
@fuzz(120)
@given(text=event_texts | any_json)
def test_no_event_body_gets_a_500_or_changes_the_record_when_refused(text: str) -> None:
    post(f"/games/{_game['id']}/events", encoded(text), _game, {201})


@fuzz(80)
@given(text=creation_texts | any_json)
def test_no_creation_body_gets_a_500_or_changes_anything_when_refused(text: str) -> None:
    post("/games", encoded(text), _game, {201})


@fuzz(50)
@given(text=import_texts | any_json)
def test_no_imported_record_gets_a_500_or_changes_anything_when_refused(text: str) -> None:
    post("/games/import", encoded(text), _game, {201})


@fuzz(50)
@given(data=st.binary(max_size=64))
def test_no_raw_bytes_get_a_500_at_any_write_endpoint(data: bytes) -> None:
    for path in ("/games", "/games/import", f"/games/{_game['id']}/events"):
        post(path, data, _game, {201})


# Query strings -----------------------------------------------------------------------------------
GET_PATHS = [
    "/games", "/games/{id}", "/games/{id}/events", "/games/{id}/state", "/games/{id}/legal",
    "/games/{id}/audit", "/games/{id}/export", "/stats/mada", "/players/Ana/stats", "/health",
    "/", "/games/{id}/view", "/games/{id}/record", "/stats/mada/view", "/ratings/mada/view",
    "/players/Ana/view",
]  # fmt: skip
QUERY_NAMES = ["limit", "from", "at", "cursor", "last_event_id", "game", "status", "player"]
query_values = st.one_of(
    st.sampled_from(["", "%", "%G1", "%00", "%ED%A0%80", "%C2%B2", "%C2%B9", "%D9%A3",
                     "%F0%9D%9F%91", "-1", "0", "1.5", "1e3", "+1", "%201", "9" * 20,
                     "9" * 5000, "active", "mada"]),
    st.text(max_size=12).map(lambda text: quote(text, safe="")),
    st.binary(max_size=6).map(lambda data: "".join(f"%{byte:02X}" for byte in data)),
)  # fmt: skip
# Some of the parameters the endpoints read, each once or repeated, and names none reads.
query_strings = st.tuples(
    st.dictionaries(st.sampled_from(QUERY_NAMES), st.lists(query_values, min_size=1, max_size=2),
                    min_size=1, max_size=3),
    st.lists(st.tuples(st.text(max_size=4).map(quote), query_values), max_size=1),
).map(
    lambda drawn: "&".join(
        [f"{name}={text}" for name, texts in drawn[0].items() for text in texts]
        + [f"{name}={text}" for name, text in drawn[1]]
    )
)  # fmt: skip


@fuzz(60)
@given(query=query_strings)
def test_no_query_string_gets_a_500_at_any_get_endpoint(query: str) -> None:
    before = store_state(_game)
    for game in (_game, _finished):
        for path in GET_PATHS:
            response = _client.get(path.replace("{id}", game["id"]), query_string=query,
                                   headers=_auth(game))  # fmt: skip
            assert_contract_answer(response, {200})
    # A finished game's stream sends its moves and ends: read whole, it frees its slot.
    with _client.get(f"/games/{_finished['id']}/stream", query_string=query) as stream:
        assert_contract_answer(stream, {200})
        stream.get_data()
    assert store_state(_game) == before
