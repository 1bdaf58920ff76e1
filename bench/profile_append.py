"""Where an append's time goes, in process: ``python -m bench --profile`` (or ``python -m
bench.profile_append`` alone).

The API app runs on Flask's test client (no gunicorn, no socket to the client; Redis is real) and
records scripted games. Two views of the same loop:
- stages: chosen functions of the append path wrapped in timers, summed per append (inclusive,
  nested as the calls are); a timer costs well under a microsecond, so these are true costs;
- cProfile: the functions with the most own time, all libraries included (cProfile inflates
  Python-heavy code, so read it for the ranking, the stages for the figures).
"""

from __future__ import annotations

import cProfile
import functools
import importlib
import inspect
import io
import json
import pstats
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bench.redis_target import RATE_LIMIT, RedisTarget
from bench.scripts import typical_game
from bench.servers import REPO

# (label, depth, object, attribute): the append path, outermost first, as it nests. Stages the
# service no longer has, or no longer calls, are left out of the report.
_STAGES: list[tuple[str, int, str, str]] = [
    ("request in Flask (wsgi_app)", 0, "flask.Flask", "wsgi_app"),
    ("before_request hooks (the rate limit)", 1, "flask.Flask", "preprocess_request"),
    ("parse body: webargs + marshmallow", 1, "service.api.views._Parser", "parse"),
    ("parse body: event_body()", 1, "service.api.views", "event_body"),
    ("GameService.append", 1, "service.games.appending.Appending", "append"),
    ("cache.get: this process's snapshot", 2, "service.games.repository.StateCache", "get"),
    (
        "_current: the record from Redis (no snapshot)",
        2,
        "service.games.appending.Appending",
        "_current",
    ),
    ("store.get: HGETALL header + decode", 3, "service.store.events.EventStore", "get"),
    ("state: rebuilt from the stream", 3, "service.games.repository.Repository", "state_at"),
    ("viewer: sha256 of the token", 2, "service.games.who_may_act", "viewer"),
    ("Mada.play: parse + check + evolve", 2, "domain.mada.rules.Mada", "play"),
    ("canonical_json (orjson, sorted keys)", 2, "service.games.prepared", "canonical_json"),
    ("prepare: the event, its hash, the answer", 2, "service.games.appending", "prepare"),
    ("event_hash: canonical JSON + sha256", 3, "service.games.prepared", "event_hash"),
    ("Mada.result", 3, "domain.mada.rules.Mada", "result"),
    ("Mada.view(full) for the response", 3, "domain.mada.rules.Mada", "view"),
    ("utc_now", 3, "service.games.prepared", "utc_now"),
    ("store.append: Lua EVALSHA round trip", 2, "service.store.events.EventStore", "append"),
    ("cache.put", 2, "service.games.repository.StateCache", "put"),
    (
        "ask_recount: archive job enqueued (a game's end)",
        2,
        "service.games.appending",
        "ask_recount",
    ),
    ("json_response (orjson)", 1, "service.api.views", "json_response"),
    ("after_request hooks", 1, "flask.Flask", "process_response"),
]


Request = tuple[str, bytes, dict[str, str]]


def measure(target: RedisTarget, appends: int, log: Any) -> dict[str, Any]:
    client = _test_client(target, RATE_LIMIT)
    requests = list(_scripted_requests(client, appends, first_seed=3_000_000_000))
    # Consecutive slices of the same games, run in this order (each continues the last).
    warmup, plain, staged, profiled = _split(requests, 4)
    # Besides, an app without the rate limiter, on games of its own: what the limiter costs.
    unlimited = _test_client(target, "")
    unlimited_warmup, unlimited_plain = _split(
        list(_scripted_requests(unlimited, 2 * len(plain), first_seed=3_100_000_000)), 2
    )

    _run(client, warmup)
    _run(unlimited, unlimited_warmup)
    per_append_us, unlimited_us = _timed_alternately((client, plain), (unlimited, unlimited_plain))

    with _stage_timers() as (seconds, calls):
        _run(client, staged)
    stages = [
        {
            "stage": label,
            "depth": depth,
            "us_per_append": seconds[label] / len(staged) * 1e6,
            "calls_per_append": calls[label] / len(staged),
        }
        for label, depth, _, _ in _STAGES
        if calls.get(label)
    ]

    profiler = cProfile.Profile()
    profiler.enable()
    _run(client, profiled)
    profiler.disable()
    top = _top_functions(profiler, len(profiled))
    log(f"  {per_append_us:.0f} us per append in process (Flask test client, real Redis)")
    return {
        "appends_timed": len(plain),
        "us_per_append_in_process": per_append_us,
        "us_per_append_in_process_without_rate_limit": unlimited_us,
        "stages": stages,
        "top_own_time": top,
    }


def _test_client(target: RedisTarget, rate_limit: str) -> Any:
    from service import create_app

    app = create_app(
        {
            "REDIS_URL": target.url,
            "KEY_PREFIX": target.prefix,
            "DATA_DIR": str(target.workdir / "profile"),
            "RATE_LIMIT": rate_limit,
        }
    )
    return app.test_client()


def _run(client: Any, batch: list[Request]) -> None:
    for path, body, headers in batch:
        response = client.post(path, data=body, headers=headers)
        if response.status_code != 201:
            raise RuntimeError(f"{path}: {response.status_code} {response.get_data()[:300]!r}")


def _timed_alternately(*runs: tuple[Any, list[Request]], chunk: int = 100) -> list[float]:
    """Microseconds per append of each (client, batch), timed in alternating chunks so that a
    drift of the machine hits every run alike."""
    spent = [0.0] * len(runs)
    for start in range(0, max(len(batch) for _, batch in runs), chunk):
        for index, (client, batch) in enumerate(runs):
            began = time.perf_counter()
            _run(client, batch[start : start + chunk])
            spent[index] += time.perf_counter() - began
    return [total / len(batch) * 1e6 for total, (_, batch) in zip(spent, runs, strict=True)]


def _scripted_requests(client: Any, appends: int, first_seed: int) -> Iterator[Request]:
    """Append requests of whole scripted games, the games created on the app as they come."""
    seed, made = first_seed, 0
    while made < appends:
        script = typical_game(seed)
        seed += 1
        created = client.post("/games", json=script.create_body()).get_json()
        for version, move in enumerate(script.moves):
            headers = {
                "Content-Type": "application/json",
                "Authorization": f"Bearer {created['token']}",
                "If-Match": str(version),
            }
            yield f"/games/{created['id']}/events", json.dumps(move).encode(), headers
            made += 1


def _split(items: list[Any], parts: int) -> list[list[Any]]:
    size = len(items) // parts
    return [items[index * size : (index + 1) * size] for index in range(parts)]


@contextmanager
def _stage_timers() -> Iterator[tuple[dict[str, float], dict[str, int]]]:
    """Wrap each stage's function in a timer for the duration of the block: seconds and calls by
    stage. The service changes: a stage it no longer has is left out, not fatal."""
    seconds: dict[str, float] = {}
    calls: dict[str, int] = {}
    undo: list[Callable[[], None]] = []
    try:
        for label, _, where, attribute in _STAGES:
            module_name, _, class_name = where.rpartition(".")
            try:
                owner: Any = getattr(importlib.import_module(module_name), class_name)
            except (ImportError, AttributeError):
                owner = importlib.import_module(where)
            try:
                # The raw attribute (a staticmethod stays one), found up the MRO if inherited.
                original = inspect.getattr_static(owner, attribute)
            except AttributeError:
                continue
            seconds[label], calls[label] = 0.0, 0
            inherited = isinstance(owner, type) and attribute not in owner.__dict__
            setattr(owner, attribute, _timed(original, label, seconds, calls))
            if inherited:
                undo.append(functools.partial(delattr, owner, attribute))
            else:
                undo.append(functools.partial(setattr, owner, attribute, original))
        yield seconds, calls
    finally:
        for restore in reversed(undo):
            restore()


def _timed(
    function: Callable[..., Any], label: str, seconds: dict[str, float], calls: dict[str, int]
) -> Any:
    if isinstance(function, staticmethod):
        return staticmethod(_timed(function.__func__, label, seconds, calls))
    clock = time.perf_counter

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        started = clock()
        try:
            return function(*args, **kwargs)
        finally:
            seconds[label] += clock() - started
            calls[label] += 1

    return timed


def _top_functions(
    profiler: cProfile.Profile, appends: int, count: int = 25
) -> list[dict[str, Any]]:
    stats = pstats.Stats(profiler, stream=io.StringIO())
    rows = []
    for (filename, line, name), (_, calls, own, cumulative, _) in stats.stats.items():  # type: ignore[attr-defined]
        rows.append(
            {
                "function": f"{_short(filename)}:{line}({name})",
                "calls_per_append": calls / appends,
                "own_us_per_append": own / appends * 1e6,
                "cumulative_us_per_append": cumulative / appends * 1e6,
            }
        )
    rows.sort(key=lambda row: row["own_us_per_append"], reverse=True)
    return rows[:count]


def _short(filename: str) -> str:
    """A path from its package: flask/app.py, service/games/appending.py, json/__init__.py."""
    filename = filename.removeprefix(f"{REPO}/")
    return re.sub(r"^.*/(site-packages|lib/python3\.\d+)/", "", filename)


if __name__ == "__main__":
    import sys

    from bench.redis_target import redis_target
    from bench.report import print_profile

    with redis_target() as scratch:
        figures = measure(scratch, 8000, lambda line: print(line, file=sys.stderr))
    print_profile(figures)
