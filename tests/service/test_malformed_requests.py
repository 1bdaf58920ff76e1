"""Malformed requests the contract names, answered with its error body whichever way in they
take: a key given twice in an import's body, a request line longer than the server reads."""

from __future__ import annotations

import json

from flask.testing import FlaskClient

from tests.support.api import assert_error
from tests.support.history import Backup


def test_an_import_body_giving_a_key_twice_is_refused_and_imports_nothing(
    client: FlaskClient,
) -> None:
    backup = Backup()
    title = backup.game("Azul")
    ann, ben = backup.player("Ann"), backup.player("Ben")
    backup.play(title, "2021-01-01 20:00:00", [(ann, "5", True), (ben, "3", False)])
    # The last "plays" would be read (orjson keeps it), hiding the first from whoever reads it.
    body = json.dumps(backup.export())[:-1] + ', "plays": []}'
    response = client.post(
        "/imports/bgstats", data=body, headers={"Content-Type": "application/json"}
    )
    details = assert_error(response, 400, "invalid_request")
    assert "'plays' given twice" in str(details)
    assert client.get("/games").json["games"] == []
