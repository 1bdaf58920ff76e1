"""The OpenAPI document: every endpoint with its parameters, its answer's schema and its errors,
every game's shapes, and patterns that say exactly what the service's parsers take.

On fakeredis: only the document is read. (test_openapi_conformance runs Schemathesis against it.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import fakeredis
import pytest
from marshmallow import ValidationError

from domain import game_names, get_game
from service.api.requests import ascii_int
from service.api.schemas import NAME_CONTROL, NAME_SHOWS, check_name
from service.api.views import IF_MATCH_PATTERN, if_match_version
from service.errors import InvalidRequestError
from tests.conftest import make_app

# Every operation, with the errors its view can answer. Every request may be rate limited (429);
# every view that reads the store may find it down (503); a path naming a game may name none (404);
# query parameters, headers or a body may be malformed (400).
ERRORS: dict[tuple[str, str], set[int]] = {
    ("/games", "get"): {400, 429, 503},
    ("/games", "post"): {400, 413, 429, 503},
    ("/games/{game_id}", "get"): {401, 404, 429, 503},
    ("/games/{game_id}/events", "get"): {400, 401, 404, 429, 503},
    ("/games/{game_id}/events", "post"): {400, 401, 403, 404, 409, 413, 422, 429, 503},
    ("/games/{game_id}/state", "get"): {400, 401, 404, 429, 503},
    ("/games/{game_id}/legal", "get"): {401, 404, 429, 503},
    ("/games/{game_id}/audit", "get"): {401, 404, 429, 503},
    ("/games/{game_id}/export", "get"): {401, 404, 429, 503},
    ("/games/{game_id}/checkpoint", "get"): {401, 404, 429, 503},
    ("/keys", "get"): {429, 503},
    ("/games/{game_id}/links", "get"): {401, 403, 404, 429, 503},
    ("/games/{game_id}/seats/{seat}/token", "post"): {401, 403, 404, 429, 503},
    ("/games/{game_id}/stream", "get"): {400, 401, 404, 429, 503},
    ("/games/import", "post"): {400, 413, 422, 429, 503},
    ("/imports/bgstats", "post"): {400, 401, 413, 429, 503},
    ("/imports/bgg", "post"): {400, 401, 413, 429, 503},
    ("/stats/{game}", "get"): {400, 404, 429, 503},
    ("/players/{name}/stats", "get"): {400, 429, 503},
    ("/players/{a}/versus/{b}", "get"): {400, 429, 503},
    ("/ratings/{game}", "get"): {400, 404, 429, 503},
    ("/titles", "get"): {429, 503},
    ("/players/{name}/ratings/{game}/history", "get"): {404, 429, 503},
    ("/health", "get"): {429, 503},
    ("/tournaments", "post"): {400, 401, 413, 422, 429, 503},
    ("/tournaments/{tournament_id}", "get"): {404, 429, 503},
    ("/tournaments/{tournament_id}/rounds", "post"): {401, 404, 409, 422, 429, 503},
    ("/tournaments/{tournament_id}/withdraw", "post"): {400, 401, 404, 409, 413, 429, 503},
    ("/tournaments/{tournament_id}/links", "get"): {401, 404, 429, 503},
    ("/tournaments/{tournament_id}/export", "get"): {401, 404, 429, 503},
    ("/nights/{date}", "get"): {400, 429, 503},
    ("/nights", "get"): {400, 429, 503},
}

# The parameters each operation takes besides its path's, by where they go.
PARAMETERS: dict[tuple[str, str], set[tuple[str, str]]] = {
    ("/games", "get"): {
        ("query", "game"), ("query", "status"), ("query", "player"), ("query", "limit"),
        ("query", "cursor"),
    },
    ("/games/{game_id}", "get"): {("header", "Authorization")},
    ("/games/{game_id}/events", "get"): {
        ("query", "from"), ("query", "limit"), ("header", "Authorization"),
    },
    ("/games/{game_id}/legal", "get"): {("header", "Authorization")},
    ("/games/{game_id}/audit", "get"): {("header", "Authorization")},
    ("/games/{game_id}/export", "get"): {("header", "Authorization")},
    ("/games/{game_id}/checkpoint", "get"): {("header", "Authorization")},
    ("/games/{game_id}/links", "get"): {("header", "Authorization")},
    ("/games/{game_id}/seats/{seat}/token", "post"): {("header", "Authorization")},
    ("/games/{game_id}/events", "post"): {
        ("header", "Authorization"), ("header", "If-Match"), ("header", "Idempotency-Key"),
    },
    ("/games/{game_id}/state", "get"): {("query", "at"), ("header", "Authorization")},
    ("/games/{game_id}/stream", "get"): {
        ("query", "from"), ("query", "last_event_id"), ("header", "Last-Event-ID"),
        ("header", "Authorization"),
    },
    ("/stats/{game}", "get"): {
        ("query", "players"), ("query", "player"), ("query", "since"), ("query", "until"),
    },
    ("/players/{name}/stats", "get"): {
        ("query", "players"), ("query", "since"), ("query", "until"),
    },
    ("/players/{a}/versus/{b}", "get"): {
        ("query", "players"), ("query", "since"), ("query", "until"), ("query", "game"),
    },
    ("/ratings/{game}", "get"): {("query", "limit"), ("query", "cursor")},
    ("/tournaments/{tournament_id}/rounds", "post"): {("header", "Authorization")},
    ("/tournaments/{tournament_id}/withdraw", "post"): {("header", "Authorization")},
    ("/tournaments/{tournament_id}/links", "get"): {("header", "Authorization")},
    ("/tournaments/{tournament_id}/export", "get"): {("header", "Authorization")},
    ("/nights", "get"): {("query", "limit"), ("query", "cursor")},
}  # fmt: skip

WITH_BODY = {
    ("/games", "post"), ("/games/{game_id}/events", "post"), ("/games/import", "post"),
    ("/imports/bgstats", "post"), ("/imports/bgg", "post"), ("/tournaments", "post"),
    ("/tournaments/{tournament_id}/withdraw", "post"),
}  # fmt: skip


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    app = make_app(fakeredis.FakeRedis(decode_responses=True), "openapi:")
    response = app.test_client().get("/openapi.json")
    assert response.status_code == 200
    spec: dict[str, Any] = response.json
    return spec


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method != "parameters":
                yield path, method, operation


def test_every_endpoint_is_documented_and_known_to_this_test(document: dict[str, Any]) -> None:
    documented = {(path, method) for path, method, _ in operations(document)}
    assert documented == set(ERRORS)


def test_the_document_says_how_a_game_ends_as_the_service_ends_it(document: dict[str, Any]) -> None:
    # A finished game is reopened by the recorder's retraction, and a game may be abandoned.
    description = document["info"]["description"]
    assert "finished game is final" not in description
    assert '`{"type": "abandon"}`' in description and "`abandoned`" in description
    assert "reopens" in description
    for state in ("MadaState", "MadcalaState", "SifakaState", "TallyState", "StreamEnd"):
        status = document["components"]["schemas"][state]["properties"]["status"]
        assert "abandoned" in status["enum"], state
    end = document["components"]["schemas"]["StreamEnd"]["properties"]
    assert end["result"]["nullable"] is True


def test_every_operation_documents_its_success_with_a_schema(document: dict[str, Any]) -> None:
    for path, method, operation in operations(document):
        assert operation.get("summary"), f"{method} {path} has no summary"
        successes = {s: r for s, r in operation["responses"].items() if s.startswith("2")}
        assert successes, f"{method} {path} documents no success"
        for status, response in successes.items():
            content = response.get("content")
            assert content, f"{method} {path} {status} has no content"
            for kind, media in content.items():
                assert media.get("schema"), f"{method} {path} {status} {kind} has no schema"


def test_every_operation_documents_the_errors_its_view_can_answer(
    document: dict[str, Any],
) -> None:
    for path, method, operation in operations(document):
        responses = operation["responses"]
        errors = {int(status) for status in responses if status[0] in "45"}
        missing = ERRORS[path, method] - errors
        assert not missing, f"{method} {path} does not document {missing}"
        for status in errors:
            schema = responses[str(status)]["content"]["application/json"]["schema"]
            expected = "Health" if (path, status) == ("/health", 503) else "Error"
            assert schema == {"$ref": f"#/components/schemas/{expected}"}, (method, path, status)


def test_every_operation_documents_its_parameters_and_body(document: dict[str, Any]) -> None:
    for path, method, operation in operations(document):
        shared = document["paths"][path].get("parameters", [])
        given = {(p["in"], p["name"]) for p in [*shared, *operation.get("parameters", [])]}
        path_parameters = {("path", name.strip("{}")) for name in path.split("/") if "{" in name}
        assert given == path_parameters | PARAMETERS.get((path, method), set()), (method, path)
        assert ("requestBody" in operation) == ((path, method) in WITH_BODY), (method, path)


def test_every_reference_resolves(document: dict[str, Any]) -> None:
    def references(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$ref":
                    yield value
                else:
                    yield from references(value)
        elif isinstance(node, list):
            for value in node:
                yield from references(value)

    for reference in references(document):
        assert reference.startswith("#/components/"), reference
        kind, _, name = reference.removeprefix("#/components/").partition("/")
        assert name in document["components"].get(kind, {}), reference


def test_the_stream_is_documented_as_server_sent_events(document: dict[str, Any]) -> None:
    answer = document["paths"]["/games/{game_id}/stream"]["get"]["responses"]["200"]
    assert set(answer["content"]) == {"text/event-stream"}
    assert "Last-Event-ID" in answer["description"] and "event: end" in answer["description"]


def test_the_checkpoint_is_documented_as_plain_text(document: dict[str, Any]) -> None:
    answer = document["paths"]["/games/{game_id}/checkpoint"]["get"]["responses"]["200"]
    assert set(answer["content"]) == {"text/plain; charset=utf-8"}


def nodes(node: Any) -> Iterator[dict[str, Any]]:
    """Every object of the document, depth first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from nodes(value)


def test_every_schema_is_written_as_openapi_3_0_reads_it(document: dict[str, Any]) -> None:
    # The games' shapes are JSON Schema: null is converted to `nullable`, `const` to an enum.
    for node in nodes(document["components"]["schemas"]):
        assert not isinstance(node.get("type"), list), node
        assert node.get("type") != "null" and "const" not in node, node


@pytest.mark.parametrize("name", game_names())
def test_every_game_has_its_shapes_in_the_document(document: dict[str, Any], name: str) -> None:
    schemas = document["components"]["schemas"]
    title = name.capitalize()
    game = get_game(name)
    for kind in game.event_schemas:
        part = "".join(word.capitalize() for word in kind.split("_"))
        assert f"{title}{part}Event" in schemas and f"{title}Stored{part}Event" in schemas
    assert set(schemas[f"{title}Event"]["discriminator"]["mapping"]) == {
        *game.event_schemas,
        "retract",
        "abandon",
    }
    for union, member in (
        ("Event", f"{title}Event"),
        ("StoredEvent", f"{title}StoredEvent"),
        ("State", f"{title}State"),
        ("NewGame", f"New{title}Game"),
        ("Record", f"{title}Record"),
    ):
        members = schemas[union].get("anyOf", schemas[union].get("oneOf"))
        assert {"$ref": f"#/components/schemas/{member}"} in members, (union, member)


def test_the_name_pattern_takes_exactly_the_names_check_name_takes() -> None:
    shows, control = re.compile(NAME_SHOWS), re.compile(NAME_CONTROL)
    candidates = [chr(code) for code in range(0x3400)] + [
        "\u3000", "\U0001f600", "Ana", " Ana ", "Ana\n", "\u2003\u2003", "a\x85b", "\xa0x\xa0",
        "\ufeffAna", "Ana\ufffb", "Zoe\u0308",
    ]  # fmt: skip
    for name in candidates:
        try:
            check_name(name)
            taken = True
        except ValidationError:
            taken = False
        documented = bool(shows.search(name)) and not control.search(name)
        assert documented == taken, repr(name)


HEADER_VALUES = ["3", '"3"', 'W/"3"', " 3\t", "", "  ", "W/ 3", '"W/3"', '3"', "\x853\xa0", "٣",
                 "3a", "-3", "1" * 18, "1" * 19, "W/", '""']  # fmt: skip


def test_the_if_match_pattern_takes_exactly_what_the_append_reads() -> None:
    app = make_app(fakeredis.FakeRedis(decode_responses=True), "openapi:")
    for value in HEADER_VALUES:
        with app.test_request_context(headers={"If-Match": value}):
            try:
                if_match_version()
                taken = True
            except InvalidRequestError:
                taken = False
        assert bool(re.search(IF_MATCH_PATTERN, value)) == taken, repr(value)


def test_the_last_event_id_pattern_takes_exactly_what_the_stream_reads(
    document: dict[str, Any],
) -> None:
    shared = document["paths"]["/games/{game_id}/stream"]["parameters"]
    pattern = next(p for p in shared if p["name"] == "Last-Event-ID")["schema"]["pattern"]
    for value in HEADER_VALUES:
        taken = not value.strip() or ascii_int(value.strip()) is not None
        assert bool(re.search(pattern, value)) == taken, repr(value)
