"""The contract's edges that hostile requests found: a path with an empty segment, a key given
twice in one object, the methods a path says it takes, options an imported record's game refuses.
"""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.support.api import assert_error, auth, create


def test_a_path_with_an_empty_segment_is_an_unknown_path_never_a_redirect(
    client: FlaskClient,
) -> None:
    for path in ("/games//abc", "/games/abc//state", "/games/abc//", "/players//stats"):
        response = client.get(path, headers={"Host": "attacker.example"})
        assert_error(response, 404, "not_found")
        assert "Location" not in response.headers, path
        assert "attacker.example" not in response.get_data(as_text=True)


def test_a_key_given_twice_in_one_object_is_refused(client: FlaskClient) -> None:
    body = '{"game": "mada", "game": "sifaka", "players": ["Ana", "Ben"]}'
    response = client.post("/games", data=body, content_type="application/json")
    details = assert_error(response, 400, "invalid_request")
    assert "game" in response.json["error"]["message"]
    assert details
    game = create(client, players=["Ana", "Ben"], seed=1)
    move = '{"type": "play", "type": "try_luck", "player": 0}'
    appended = client.post(
        f"/games/{game['id']}/events", data=move, content_type="application/json",
        headers=auth(game),
    )  # fmt: skip
    assert_error(appended, 400, "invalid_request")
    assert client.get(f"/games/{game['id']}").json["version"] == 0
    # Nested objects too.
    nested = (
        '{"game": "mada", "players": ["Ana", "Ben"],'
        ' "options": {"chance": "seeded", "chance": "observed"}}'
    )
    assert_error(client.post("/games", data=nested, content_type="application/json"), 400,
                 "invalid_request")  # fmt: skip


def test_a_key_given_twice_is_refused_whatever_the_texts_around_it_hold(
    client: FlaskClient,
) -> None:
    # Colons inside texts, a key given twice at any depth, once or more: each is refused, naming
    # the key, and appends nothing.
    game = create(client, players=["Ana", "Ben"], seed=1)
    bodies = {
        "player": '{"type": "draw", "note": "at 12:30", "player": 0, "player": 1}',
        "b": '{"type": "draw", "player": 0, "x": {"a": "1:2", "b": 1, "b": 1}}',
        "c": '{"type": "draw", "player": 0, "x": [{"c": 1}, {"c": 1, "c": 2}]}',
        "type": '{"type": "draw", "player": 0, "type": "draw"}',
    }
    for key, body in bodies.items():
        refused = client.post(
            f"/games/{game['id']}/events", data=body, content_type="application/json",
            headers=auth(game),
        )  # fmt: skip
        assert_error(refused, 400, "invalid_request")
        assert f"{key!r} twice" in refused.json["error"]["message"], body
    assert client.get(f"/games/{game['id']}").json["version"] == 0


def test_allow_names_exactly_the_methods_a_path_takes(client: FlaskClient) -> None:
    expected = {
        "/games/import": {"OPTIONS", "POST"},
        "/games": {"GET", "HEAD", "OPTIONS", "POST"},
    }
    for path, methods in expected.items():
        answered = client.open(path, method="OPTIONS")
        assert set(answered.headers["Allow"].split(", ")) == methods, path
    refused = client.get("/games/import")
    assert_error(refused, 405, "method_not_allowed")
    assert set(refused.headers["Allow"].split(", ")) == {"OPTIONS", "POST"}


def test_options_the_game_refuses_are_a_problem_of_the_first_event_of_an_import(
    client: FlaskClient,
) -> None:
    game = create(client, players=["Ana", "Ben"], seed=1)
    document = client.get(f"/games/{game['id']}/export", headers=auth(game)).json
    document["options"]["chance"] = "at random"
    details = assert_error(client.post("/games/import", json=document), 422, "illegal_move")
    assert details["event"] == 1
    assert "chance" in client.post("/games/import", json=document).json["error"]["message"]
