"""What a page refuses, and how it says so: HTML to a person, the contract's JSON to any client.

The contract gives every error one JSON body, ``{"error": {"code", "message", "details"}}``, on
every path, the pages' included. A person's browser asks for ``text/html`` before JSON, and would
show that body as text; so a refused page is answered with HTML when, and only when, the request
prefers ``text/html`` to ``application/json``, and with the JSON body otherwise (no ``Accept``,
``*/*``, ``application/json``). Views raise; the pages' error handlers (``service.pages.blueprint``)
answer, through ``answer`` alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Response, make_response, render_template, request
from werkzeug.datastructures import MultiDict

from domain.errors import TabletapeError
from service.api.strict import refuse_repeated_parameters, unknown_parameters
from service.errors import InvalidRequestError, domain_error_response


class PageRefusal(Exception):
    """A request a page refuses: ``error`` says why (its status and JSON body are the
    contract's); ``template``, rendered with ``context`` and ``error``, says so to a person,
    with the page's form where it has one, so that they can put the request right."""

    def __init__(self, error: TabletapeError, template: str, context: dict[str, Any]) -> None:
        super().__init__(error.message)
        self.error = error
        self.template = template
        self.context = context


@contextmanager
def refused_with(template: str, **context: Any) -> Iterator[None]:
    """Within it, an InvalidRequestError is a PageRefusal that ``template`` shows."""
    try:
        yield
    except InvalidRequestError as error:
        raise PageRefusal(error, template, context) from None


def refuse_unknown_parameters(args: MultiDict[str, str], known: Iterable[str]) -> None:
    """InvalidRequestError naming the parameters a page takes, for any other in ``args``: a
    misspelt filter (``?playrs=3``) must never show unfiltered figures as if it had been
    applied. A form's empty field (``since=``) is a known name, and no error. A parameter given
    twice is refused too (the page would read its first value alone)."""
    taken = frozenset(known)
    unknown = sorted(set(args) - taken)
    if unknown:
        raise unknown_parameters(unknown, taken)
    refuse_repeated_parameters(args)


def wants_html() -> bool:
    """Whether the request prefers an HTML page to the contract's JSON body (a browser)."""
    return request.accept_mimetypes.best_match(["application/json", "text/html"]) == "text/html"


def answer(error: TabletapeError, template: str, **context: Any) -> Response:
    """The answer to a refused page: ``template`` (with ``error``) to a browser, else the
    contract's JSON body; the status is the contract's either way."""
    response = domain_error_response(error)
    if wants_html():
        page = render_template(template, error=error, **context)
        response = make_response(page, response.status_code)
    # The same address answers HTML or JSON by Accept: a cache must keep them apart.
    response.vary.add("Accept")
    return response
