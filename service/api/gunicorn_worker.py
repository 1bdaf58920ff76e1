"""The gunicorn workers of `tabletape serve`: gevent (the default) or gthread, with gunicorn's own
errors in the contract's JSON body.

gunicorn answers what it cannot parse before the app sees a request (a bad request line, method
or HTTP version, a URI or headers too large, a bad header, a broken chunked body it drains) with
an HTML page, written by ``gunicorn.util.write_error``, which ``Worker.handle_error`` calls once it
has chosen the status and logged the error. This worker keeps all of that and replaces only the
writing: the same status, the contract's body. (``handle_error`` itself holds gunicorn's mapping
of its exceptions to statuses: copying it here would drift from gunicorn's as it changes.)

The gevent worker serves each connection in a greenlet, with the standard library patched by
gevent (sockets, threading, redis-py's waits): a live stream costs a greenlet, not a thread. The
gthread worker serves each request in a thread of a fixed pool. The two differ only in
``handle_request``'s signature; what they share is ``_JsonErrors``.
"""

from __future__ import annotations

import functools
import socket
from typing import Any

import orjson
from gunicorn import util
from gunicorn.workers.base import Worker
from gunicorn.workers.gthread import ThreadWorker

from service.errors import code_of_status, echoable

# What a person can do about each status gunicorn answers by itself; gunicorn's own text follows.
_MESSAGES = {
    400: "the request is not valid HTTP/1.1",
    403: "the request is forbidden",
    414: "the request line is too long: send a shorter URL",
    417: "the request's Expect header cannot be met: send the request without it",
    431: "the request's headers are too large or too many: send fewer or shorter ones",
    500: "something went wrong on our side; the error is logged",
    501: "the request's Transfer-Encoding is not supported: send chunked or a Content-Length",
}
# The statuses gunicorn answers that the contract's table lacks, each the request's fault: a
# request line too long (a URL with a long query), headers too large or too many, an Expect it
# cannot meet, an unsupported Transfer-Encoding. A client reads them as the malformed requests
# they are: 400 invalid_request, with gunicorn's reason said in the message.
_STATUSES = {status: (400, "Bad Request") for status in (414, 417, 431, 501)}


class _JsonErrors(Worker):
    def init_process(self) -> None:
        # handle_error looks write_error up on gunicorn.util at each call: in this worker's
        # process, every error gunicorn writes is written by write_json_error.
        util.write_error = write_json_error
        super().init_process()

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        if getattr(req, "answered", False):
            # The request has its answer: what failed is draining the body it left unread (a
            # broken chunk). A second answer would be read as the next request's: the
            # connection closes instead.
            self.log.warning("closing the connection: the body of %s %s cannot be drained: %s",
                             req.method, req.path, exc)  # fmt: skip
            return
        super().handle_error(req, client, addr, exc)


class JsonErrorWorker(_JsonErrors, ThreadWorker):
    """gthread."""

    def handle_request(self, req: Any, conn: Any) -> bool:
        keepalive: bool = super().handle_request(req, conn)
        req.answered = True
        return keepalive


@functools.cache
def _gevent_worker() -> type[Worker]:
    # gunicorn's gevent module imports gevent: only a process that runs that worker needs it.
    from gunicorn.workers.ggevent import GeventWorker

    class JsonErrorGeventWorker(_JsonErrors, GeventWorker):  # type: ignore[misc]
        """gevent."""

        def init_process(self) -> None:
            # The async worker closes each connection with util.close, at once: a client still
            # sending a body the answer refused (a 413) would get a reset instead of the answer.
            # gthread closes such connections as gunicorn's close_graceful does (FIN, then what
            # the client still sends is read and dropped, for at most 2 s): so does this one.
            util.close = util.close_graceful
            super().init_process()

        def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> bool:
            try:
                keepalive: bool = super().handle_request(listener_name, req, sock, addr)
            except StopIteration:
                # Answered, and the connection is to close.
                req.answered = True
                raise
            req.answered = True
            return keepalive

    return JsonErrorGeventWorker


def __getattr__(name: str) -> Any:
    # gunicorn loads a worker class by its dotted name: the gevent one is made when asked for.
    if name == "JsonErrorGeventWorker":
        return _gevent_worker()
    raise AttributeError(name)


def write_json_error(sock: socket.socket, status: int, reason: str, message: str) -> None:
    """gunicorn.util.write_error's job (the whole answer, then the connection closes), with the
    contract's body."""
    sentence = _MESSAGES.get(status, reason.lower())
    status, reason = _STATUSES.get(status, (status, reason))
    # gunicorn's own text says what it found; a 500's (its configuration's) is for the log only.
    if message and status != 500:
        sentence = f"{sentence} ({message})"
    error = {"code": code_of_status(status), "message": sentence,
             "details": {}}  # fmt: skip
    body = orjson.dumps(echoable({"error": error}))
    head = (
        f"HTTP/1.1 {status} {reason}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


# `tabletape serve --worker-class` -> the class's name in this module.
WORKER_CLASSES = {"gevent": "JsonErrorGeventWorker", "gthread": JsonErrorWorker.__name__}


def worker_class(kind: str = "gthread") -> str:
    """The dotted name gunicorn's ``worker_class`` setting takes, for ``kind`` (gevent,
    gthread)."""
    return f"{__name__}.{WORKER_CLASSES[kind]}"
