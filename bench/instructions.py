"""Instructions per append, in process, for callgrind: repeatable where timings on a shared machine
are not.

``python -m bench.instructions full|bare|scoresheet|usecase APPENDS`` makes 100 untimed appends on
the API (or the bare endpoint), then APPENDS more, all through the app's WSGI callable (no
gunicorn, no socket to a client; Redis is real): Mada moves, or with ``scoresheet`` a score
sheet's entries (a player's points written down) on the API. ``usecase`` makes the API's same
Mada appends through ``GameService.append`` alone, what the view calls: no Flask, no werkzeug, no
hooks, no JSON answer; ``full`` less ``usecase`` is what the web framework costs an append. Run it
twice under callgrind and divide the difference of the totals by the difference of the counts:
what starting up costs cancels out. The process's snapshots of the games are trusted throughout
(CACHE_RECHECK_SECONDS out of reach): rechecked every 5 s of the clock, as they are served, they
would be replayed whole a number of times that follows how slowly callgrind runs. Without
REDIS_URL the run has an embedded Redis of its own: on a shared Redis, the clean-up's SCAN of every
key there varies from run to run by tens of millions of instructions, more than a hundred appends
cost.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python -m bench.instructions full 150 2>&1 | grep Collected
    (the same with 350; then (total_350 - total_150) / 200)
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

from bench.redis_target import RATE_LIMIT, redis_target
from bench.scripts import GameScript, score_sheet, typical_game
from bench.wire import DUMMY_TOKEN

WARMUP = 100
# Requests are made for this many appends whatever the count, so that both runs start alike.
PREPARED = 500

App = Callable[[dict[str, Any], Callable[..., Any]], Any]
KINDS = ("full", "bare", "scoresheet", "usecase")
RECHECK_OUT_OF_REACH = 1e9


def main() -> None:
    kind, appends = sys.argv[1], int(sys.argv[2])
    if kind not in KINDS or not 0 < appends <= PREPARED - WARMUP:
        raise SystemExit(
            f"usage: python -m bench.instructions {'|'.join(KINDS)} 1..{PREPARED - WARMUP}"
        )
    scripts = score_sheet if kind == "scoresheet" else typical_game
    with redis_target() as target:
        if kind != "bare":
            from service import create_app

            app = create_app(
                {
                    "REDIS_URL": target.url,
                    "KEY_PREFIX": target.prefix,
                    "DATA_DIR": str(target.workdir / "data"),
                    "RATE_LIMIT": RATE_LIMIT,
                    # Under callgrind a game's moves take minutes: a snapshot rechecked every 5 s
                    # of the clock (a replay of the whole game) would count the machine's speed.
                    "CACHE_RECHECK_SECONDS": RECHECK_OUT_OF_REACH,
                }
            )
            create: Callable[[Any], tuple[str, str]] | None = _creator(app.test_client())
        else:
            import os

            from bench.bare_app import create_bare_app

            os.environ["REDIS_URL"] = target.url
            os.environ["TABLETAPE_KEY_PREFIX"] = target.prefix
            app = create_bare_app()
            create = None
        requests = list(_requests(create, PREPARED, scripts))
        if kind == "usecase":
            games = app.extensions["tabletape"]
            _run_use_case(games, requests[:WARMUP])
            _run_use_case(games, requests[WARMUP : WARMUP + appends])
        else:
            _run(app.wsgi_app, requests[:WARMUP])
            _run(app.wsgi_app, requests[WARMUP : WARMUP + appends])


def _creator(client: Any) -> Callable[[Any], tuple[str, str]]:
    def create(script: Any) -> tuple[str, str]:
        created = client.post("/games", json=script.create_body()).get_json()
        return created["id"], created["token"]

    return create


def _requests(
    create: Callable[[Any], tuple[str, str]] | None,
    count: int,
    scripts: Callable[[int], GameScript],
) -> Iterator[dict[str, Any]]:
    """WSGI environs of appends, game after game (the games created on the API first)."""
    seed, made = 5_000_000, 0
    while True:
        script = scripts(seed)
        game_id, token = create(script) if create else (f"s{seed}", DUMMY_TOKEN)
        seed += 1
        for version, move in enumerate(script.moves):
            body = json.dumps(move).encode()
            yield {
                "REQUEST_METHOD": "POST",
                "PATH_INFO": f"/games/{game_id}/events",
                "SCRIPT_NAME": "",
                "QUERY_STRING": "",
                "SERVER_NAME": "127.0.0.1",
                "SERVER_PORT": "8000",
                "SERVER_PROTOCOL": "HTTP/1.1",
                "REMOTE_ADDR": "127.0.0.1",
                "CONTENT_TYPE": "application/json",
                "CONTENT_LENGTH": str(len(body)),
                "HTTP_AUTHORIZATION": f"Bearer {token}",
                "HTTP_IF_MATCH": str(version),
                "wsgi.input": io.BytesIO(body),
                "wsgi.errors": sys.stderr,
                "wsgi.url_scheme": "http",
                "wsgi.version": (1, 0),
                "wsgi.multithread": True,
                "wsgi.multiprocess": True,
                "wsgi.run_once": False,
            }
            made += 1
            if made == count:
                return


def _run(app: App, environs: list[dict[str, Any]]) -> None:
    statuses: list[str] = []
    for environ in environs:
        body = app(environ, lambda status, headers, exc_info=None: statuses.append(status))
        b"".join(body)
        if not statuses[-1].startswith("201"):
            raise RuntimeError(f"{environ['PATH_INFO']}: {statuses[-1]}")


def _run_use_case(games: Any, environs: list[dict[str, Any]]) -> None:
    """The appends of ``environs`` made through the use case the API's view calls
    (``games``, the app's ``GameService``), with the same token, body and If-Match."""
    for environ in environs:
        game_id = environ["PATH_INFO"].split("/")[2]
        token = environ["HTTP_AUTHORIZATION"].removeprefix("Bearer ")
        event = json.loads(environ["wsgi.input"].getvalue())
        games.append(game_id, token, event, if_match=int(environ["HTTP_IF_MATCH"]))


if __name__ == "__main__":
    main()
