"""Strict query parameters: a parameter an endpoint does not know is a 400 naming those it knows,
and so is a parameter given twice (``?players=2&players=3`` would be read as its first value).

A misspelt filter (``/stats/<game>?playrs=3``) must never answer unfiltered figures as if it had
been applied. What each operation knows is what the OpenAPI document says of it, built from the
same marshmallow schemas that read the query: one source, so a new parameter is known once it is
documented. The check runs before every request of the API's blueprints (the pages check their
own, ``service.pages``).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, request
from flask_smorest import Api
from werkzeug.datastructures import MultiDict

from service.errors import InvalidRequestError

# The methods of an OpenAPI path item (its other keys are "parameters", "summary"...).
_METHODS = frozenset(("get", "put", "post", "delete", "patch", "head", "options"))


def openapi_path(rule: str) -> str:
    """A werkzeug rule (``/games/<game:game_id>/state``) as OpenAPI names it
    (``/games/{game_id}/state``)."""
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule)


def known_query_parameters(spec: dict[str, Any]) -> dict[tuple[str, str], frozenset[str]]:
    """(OpenAPI path, method) -> the names of the query parameters the operation takes."""
    known = {}
    for path, item in spec["paths"].items():
        shared = item.get("parameters", [])
        for method, operation in item.items():
            if method not in _METHODS:
                continue
            parameters = [*shared, *operation.get("parameters", [])]
            names = frozenset(p["name"] for p in parameters if p.get("in") == "query")
            known[(path, method)] = names
    return known


def refuse_unknown_query_parameters(app: Flask, api: Api) -> None:
    """Install the check on ``app``, for the operations ``api`` documents."""
    table: dict[tuple[str, str], frozenset[str]] = {}

    def check() -> None:
        if not request.args or request.url_rule is None or request.method == "OPTIONS":
            return
        if not table:
            table.update(known_query_parameters(api.spec.to_dict()))
        method = "get" if request.method == "HEAD" else request.method.lower()
        known = table.get((openapi_path(request.url_rule.rule), method))
        if known is None:
            return  # not an operation of the API (a page, the docs): checked elsewhere
        unknown = sorted(set(request.args) - known)
        if unknown:
            raise unknown_parameters(unknown, known)
        refuse_repeated_parameters(request.args)

    app.before_request(check)


def unknown_parameters(unknown: list[str], known: frozenset[str]) -> InvalidRequestError:
    takes = ", ".join(sorted(known)) if known else "no query parameter"
    return InvalidRequestError(
        f"unknown query parameter{'s' if len(unknown) > 1 else ''}"
        f" {', '.join(unknown)}: this takes {takes}",
        {"unknown": unknown, "known": sorted(known)},
    )


def refuse_repeated_parameters(args: MultiDict[str, str]) -> None:
    """InvalidRequestError naming each parameter ``args`` gives more than once: the parsers read
    its first value alone, and ``?players=2&players=3`` must not answer as if it meant 2."""
    repeated = {name: len(values) for name, values in args.lists() if len(values) > 1}
    if repeated:
        named = ", ".join(f"{name} given {times} times" for name, times in repeated.items())
        raise InvalidRequestError(
            f"a query parameter is given once: {named}",
            {name: "given once" for name in repeated},
        )
