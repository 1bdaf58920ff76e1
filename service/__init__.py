"""The Tabletape web service: HTTP API, schemas and the Redis event store."""

from service.app import create_app

__all__ = ["create_app"]
