"""A value checked against a schema of the service's OpenAPI document, read as schemathesis
reads an OpenAPI 3.0 schema (``nullable`` and all)."""

from __future__ import annotations

from typing import Any

import jsonschema_rs
from schemathesis.specs.openapi.converter import to_json_schema


def openapi_errors(document: dict[str, Any], value: Any, component: str) -> list[str]:
    """Why ``value`` breaks the document's schema ``component`` (empty: it keeps to it)."""
    components = {
        name: to_json_schema(item, nullable_keyword="nullable", is_response_schema=True)
        for name, item in document["components"]["schemas"].items()
    }
    root = {**components[component], "components": {"schemas": components}}
    return [error.message for error in jsonschema_rs.validator_for(root).iter_errors(value)]
