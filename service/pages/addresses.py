"""The address the links handed out at the table name (the share page's, a game night's): one
the other phones can reach.

A page opened on this machine (``http://127.0.0.1:8000``) would hand out links to loopback, which
no other phone opens. So, when ``tabletape serve`` says it listens beyond loopback (``LISTEN``,
``--host 0.0.0.0``), the links name the local network's address instead; when it listens on
loopback only, the page says that other phones cannot reach it, and how to start it so that they
can. A page opened at any other address was reached so by a phone: its links keep that address.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from flask import current_app, request

from service.network import is_loopback, network_origin


@dataclass(frozen=True)
class ShareAddress:
    """The origin the links handed out start with, and whether the other phones reach it."""

    origin: str
    reachable: bool


def share_address() -> ShareAddress:
    """The address the links this request's page hands out start with (see the module's
    docstring): this page's own, unless it was opened on loopback and the server listens
    beyond it."""
    here = request.host_url.rstrip("/")
    listen = current_app.config.get("LISTEN")
    if not listen or not is_loopback(urlsplit(here).hostname or ""):
        return ShareAddress(here, True)
    host, _, port = str(listen).rpartition(":")
    origin = network_origin(host, int(port)) if port.isdigit() else None
    if origin is None:
        return ShareAddress(here, not is_loopback(host))
    return ShareAddress(origin, True)
