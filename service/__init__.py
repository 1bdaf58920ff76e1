"""The Tabletape web service: HTTP API, schemas and the Redis event store.

Importing a module of the service builds nothing: ``create_app`` imports the app's modules (Flask,
the blueprints, the schemas) when it is called, so that the store's modules, the workers and the
command line load only what they use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from flask import Flask


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """The Flask app of the service (``service.app.create_app``)."""
    from service.app import create_app as build

    return build(config)


__all__ = ["create_app"]
