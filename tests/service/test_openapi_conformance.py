"""Schemathesis against the service's own OpenAPI document, in process: every answer keeps to its
documented status, content type, headers and schema; no request is a 500; schema-invalid requests
are refused; an undeclared method is answered 405 with ``Allow``. Positive and negative data, in
every phase schemathesis runs from a test (examples, coverage, fuzzing).

Random path ids would only ever meet 404s, so games of every kind, some being played, some over
and some abandoned, are recorded first, and a hook aims the generated requests at them: a stable
hash of what schemathesis generated picks a game (or keeps the random id, for the 404s), one of
its tokens (the recorder's, a seat's, one of no game, or none) and, for an append, sometimes a
legal move, so that games move on and end during the run. The hook leaves alone the part of a
request that a negative case breaks on purpose. Everything is fixed: the games' seeds, the hook's
choices and Hypothesis's seed, with no example database; games' ids and tokens are random, but
nothing is chosen by them. Since what the fuzzing meets is left to the hash, every read of an
abandoned game is also made once by each viewer (the recorder, a seat, the public) and checked
against the document.

On fakeredis: the contract is the same on a real server, which the other tests check.
"""

from __future__ import annotations

import atexit
import functools
import json
import random
import shutil
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import fakeredis
import schemathesis
from flask.testing import FlaskClient
from hypothesis import HealthCheck, seed, settings
from schemathesis import Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi import checks

from service.signing.keys import make_key
from tests.conftest import make_app
from tests.support.openapi import openapi_errors

CHECKS = [
    not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
    checks.negative_data_rejection,
    checks.unsupported_method,
]

# (game, players, options, moves to play first: None to the end). A small Madcala health: a duel
# of random moves then ends in a few dozen events.
RECORDED: list[tuple[str, list[str], dict[str, Any], int | None]] = [
    ("mada", ["Ana", "Ben", "Caro"], {}, 6),
    ("mada", ["Ana", "Ben"], {"chance": "observed"}, 3),
    ("mada", ["Ana", "Ben", "Caro", "Dani"], {}, None),
    ("madcala", ["Ana", "Ben"], {"health": 3}, 4),
    ("madcala", ["Ana", "Ben"], {"health": 3, "chance": "observed"}, None),
    ("sifaka", ["Ana", "Ben", "Caro"], {}, 5),
    ("sifaka", ["Ana", "Ben"], {"chance": "observed"}, 3),
    ("sifaka", ["Ana", "Ben"], {}, None),
]
# Games the recorder abandons after these moves: over without a result (status "abandoned").
ABANDONED: list[tuple[str, list[str], dict[str, Any], int]] = [
    ("mada", ["Ana", "Ben", "Caro"], {}, 4),
    ("madcala", ["Ana", "Ben"], {"health": 3}, 0),
    ("sifaka", ["Ana", "Ben"], {"chance": "observed"}, 2),
]


@dataclass(frozen=True)
class Recorded:
    id: str
    token: str
    seat_tokens: list[str]
    abandoned: bool = False


def record_games(client: FlaskClient) -> list[Recorded]:
    recorded = []
    games = [*RECORDED, *ABANDONED]
    for number, (game, players, options, moves) in enumerate(games):
        body = {"game": game, "players": players, "seed": number, "options": options}
        created = client.post("/games", json=body)
        assert created.status_code == 201, created.json
        game_json = created.json
        headers = {"Authorization": f"Bearer {game_json['token']}"}
        chooser = random.Random(number)
        made = 0
        while moves is None or made < moves:
            legal = client.get(f"/games/{game_json['id']}/legal", headers=headers).json["moves"]
            if not legal:
                break
            answer = client.post(
                f"/games/{game_json['id']}/events", json=chooser.choice(legal), headers=headers
            )
            assert answer.status_code == 201, answer.json
            made += 1
        abandoned = number >= len(RECORDED)
        if abandoned:
            answer = client.post(
                f"/games/{game_json['id']}/events", json={"type": "abandon"}, headers=headers
            )
            assert answer.json["state"]["status"] == "abandoned", answer.json
        recorded.append(
            Recorded(game_json["id"], game_json["token"], game_json["seat_tokens"], abandoned)
        )
    return recorded


def fingerprint(case: Case) -> str:
    """What schemathesis generated for ``case``, as text: the same on every run, unlike
    ``hash()`` (salted per process) or the repr of an object (which may hold its address)."""
    generated = (case.path_parameters, case.query, case.headers, case.body)
    return json.dumps(generated, sort_keys=True, default=lambda value: type(value).__name__)


def pick(choices: list[Any], fingerprint: str, purpose: str = "") -> Any:
    """One of ``choices``, chosen by a stable hash of a case's fingerprint (and of what it is
    chosen for, so that two choices about one case do not go together)."""
    return choices[zlib.crc32(f"{purpose}:{fingerprint}".encode()) % len(choices)]


class Aim:
    """Aims generated requests at the recorded games (see the module's docstring)."""

    def __init__(self, client: FlaskClient, games: list[Recorded]) -> None:
        self.client = client
        self.games = games

    def __call__(self, case: Case) -> Case:
        path = case.path_parameters or {}
        if self.broken(case, ParameterLocation.PATH):
            return case
        headers = case.headers if case.headers is not None else {}
        generated = fingerprint(case)
        if "game" in path:
            path["game"] = pick(["mada", "madcala", "sifaka", path["game"]], generated, "game")
        if "name" in path:
            path["name"] = pick(["Ana", "Ben", path["name"]], generated, "name")
        if "game_id" not in path:
            return case
        chosen = pick([*self.games, None], generated, "game_id")
        if chosen is None:
            return case
        path["game_id"] = chosen.id
        if self.broken(case, ParameterLocation.HEADER):
            return case
        case.headers = headers
        token = pick([chosen.token, *chosen.seat_tokens, None, "of-no-game"], generated, "token")
        if token is None:
            headers.pop("Authorization", None)
        else:
            headers["Authorization"] = f"Bearer {token}"
        if case.method == "POST" and token is not None:
            # A generated If-Match names a version at random: most appends would stop at it.
            legal = not self.broken(case, ParameterLocation.BODY) and pick(
                [True, False], generated, "legal"
            )
            if legal or pick([True, False], generated, "If-Match"):
                headers.pop("If-Match", None)
            if legal:
                case.body = self.legal_move(chosen.id, headers, case.body, generated)
        return case

    @staticmethod
    def broken(case: Case, location: ParameterLocation) -> bool:
        """Whether ``case`` is negative at ``location``: the part to keep as generated."""
        return case.meta is not None and case.meta.is_negative_at(location)

    def legal_move(self, game_id: str, headers: dict[str, Any], body: Any, generated: str) -> Any:
        """A move the token's holder may append now, if there is one, else ``body``."""
        answer = self.client.get(
            f"/games/{game_id}/legal", headers={"Authorization": headers["Authorization"]}
        )
        moves = answer.json["moves"] if answer.status_code == 200 else []
        return pick(moves, generated, "move") if moves else body


# The service's signing key, in a folder of the test's own (removed at exit): notes are answered.
KEYS = Path(tempfile.mkdtemp(prefix="tabletape-conformance-keys-"))
atexit.register(shutil.rmtree, KEYS, True)
make_key(KEYS / "key", "conformance")

# Built when the module is collected, as schemathesis reads the document then. Nothing is written
# outside fakeredis and KEYS: no worker runs, so no game is archived.
app = make_app(
    fakeredis.FakeRedis(decode_responses=True),
    "conformance:",
    SIGNING_KEY=str(KEYS / "key"),
    SIGNER_NAME="conformance",
    # A live stream sends what is recorded, then closes at once rather than wait for more.
    STREAM_SECONDS=0,
)
schema = schemathesis.openapi.from_wsgi("/openapi.json", app)
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])


@functools.cache
def aim() -> Aim:
    """Games recorded on first use: when the test runs, not when any test module is collected."""
    client = app.test_client()
    return Aim(client, record_games(client))


@schema.hook
def map_case(context: Any, case: Case) -> Case:
    return aim()(case)


@schema.parametrize()
@settings(max_examples=25, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@seed(1)
def test_every_answer_keeps_to_the_document(case: Case) -> None:
    case.call_and_validate(checks=CHECKS)


def test_every_read_of_an_abandoned_game_keeps_to_the_document_for_each_viewer() -> None:
    abandoned = [game for game in aim().games if game.abandoned]
    # The stream is read below: its messages are JSON inside text/event-stream, which
    # schemathesis does not read (and a response left open would hold one of its few slots).
    reads = [
        path
        for path, item in schema.raw_schema["paths"].items()
        if path.startswith("/games/{game_id}") and "get" in item and not path.endswith("/stream")
    ]
    assert len(abandoned) == len(ABANDONED) and "/games/{game_id}/state" in reads
    for game in abandoned:
        for token in (game.token, game.seat_tokens[0], None):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            for path in reads:
                operation = schema[path]["GET"]
                case = operation.Case(path_parameters={"game_id": game.id}, headers=headers)
                case.call_and_validate(checks=CHECKS)
            # The stream of a game that is over sends its end at once, as StreamEnd says.
            with aim().client.get(f"/games/{game.id}/stream", headers=headers) as stream:
                sent = stream.get_data(as_text=True)
            end = json.loads(sent.split("event: end\ndata: ")[1])
            assert end["status"] == "abandoned"
            assert_valid(end, "StreamEnd")


def assert_valid(value: Any, component: str) -> None:
    """``value`` is valid by the document's schema ``component``."""
    errors = openapi_errors(schema.raw_schema, value, component)
    assert not errors, (component, value, errors)
