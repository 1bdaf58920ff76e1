"""No request, however malformed, gets a 500 or changes anything (fuzzed on fakeredis: fast)."""

from __future__ import annotations

from typing import Any

import fakeredis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import make_app

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)  # fmt: skip
event_like = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["play", "draw", "try_luck", "deal", "scorpion_discard",
                                 "choose_target", "round_discard", "x"]) | json_values,
        "player": st.integers(-2, 6) | json_values,
        "card": st.integers(-1, 15) | st.sampled_from(["lemur", "double_lemur", "scorpion"])
        | json_values,
        "cards": st.lists(st.integers(0, 14), max_size=4) | json_values,
        "target": st.integers(-1, 6) | json_values,
    },
)  # fmt: skip

_client = make_app(fakeredis.FakeRedis(decode_responses=True), "fuzz:").test_client()
_game = _client.post("/games", json={"game": "mada", "players": ["A", "B", "C"], "seed": 1}).json
_auth = {"Authorization": f"Bearer {_game['token']}"}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=event_like | json_values)
def test_no_event_body_gets_a_500(body: Any) -> None:
    before = _client.get(f"/games/{_game['id']}").json["version"]
    response = _client.post(f"/games/{_game['id']}/events", json=body, headers=_auth)
    assert response.status_code in (201, 400, 409, 422), response.json
    after = _client.get(f"/games/{_game['id']}").json["version"]
    if response.status_code == 201:
        assert after == before + 1
    else:
        assert set(response.json) == {"error"}
        assert after == before


@settings(max_examples=200, deadline=None)
@given(
    body=st.fixed_dictionaries(
        {},
        optional={
            "game": st.sampled_from(["mada", "chess"]) | json_values,
            "players": st.lists(st.text(max_size=5), max_size=7) | json_values,
            "seed": st.integers(-5, 2**65) | json_values,
            "options": st.fixed_dictionaries(
                {},
                optional={"first_player": json_values | st.integers(-1, 6),
                          "chance": st.sampled_from(["seeded", "observed"]) | json_values,
                          "catalog": json_values},
            ) | json_values,
        },
    )
    | json_values
)  # fmt: skip
def test_no_creation_body_gets_a_500(body: Any) -> None:
    response = _client.post("/games", json=body)
    assert response.status_code in (201, 400), response.json


@settings(max_examples=100, deadline=None)
@given(
    query=st.dictionaries(
        st.sampled_from(["at", "from", "limit", "cursor", "status", "game", "player", "x"]),
        st.text(max_size=6),
        max_size=3,
    )
)
def test_no_query_string_gets_a_500(query: dict[str, str]) -> None:
    for path in ("/games", f"/games/{_game['id']}/events", f"/games/{_game['id']}/state"):
        response = _client.get(path, query_string=query)
        assert response.status_code in (200, 400), (path, query, response.json)
