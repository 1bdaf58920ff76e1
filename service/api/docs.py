"""Swagger UI's files, served by the service itself so that /docs works with no network."""

from __future__ import annotations

import swagger_ui_bundle
from flask import Blueprint, Response, send_from_directory

docs_assets = Blueprint("docs_assets", __name__)


@docs_assets.route("/swagger-ui/<path:filename>")
def swagger_ui_file(filename: str) -> Response:
    return send_from_directory(swagger_ui_bundle.swagger_ui_path, filename, max_age=86400)
