"""The links of a game, again: the recorder's page of links asks for the seats' tokens, draws each
link as a QR code, and replaces the link of a seat whose phone was lost."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.errors import InvalidRequestError
from service.pages.views import qr_address
from tests.support.api import assert_error, auth, create, legal


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_recorder_gets_the_seats_links_again(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben", "Caro"])
    response = client.get(f"/games/{game['id']}/links", headers=auth(game))
    assert response.status_code == 200
    assert response.json == {"seat_tokens": game["seat_tokens"]}
    assert response.headers["Cache-Control"] == "no-store"


def test_only_the_recorder_sees_the_seats_links(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"])
    seat = {"Authorization": f"Bearer {game['seat_tokens'][0]}"}
    assert client.get(f"/games/{game['id']}/links", headers=seat).status_code == 403
    assert client.get(f"/games/{game['id']}/links").status_code == 401
    assert client.post(f"/games/{game['id']}/seats/1/token", headers=seat).status_code == 403


def test_a_replaced_seat_link_works_and_the_old_one_is_refused(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"])
    old = game["seat_tokens"][1]
    response = client.post(f"/games/{game['id']}/seats/1/token", headers=auth(game))
    assert response.status_code == 201 and response.json["seat"] == 1
    new = response.json["token"]
    assert new != old
    refused = client.get(f"/games/{game['id']}", headers={"Authorization": f"Bearer {old}"})
    assert refused.status_code == 401
    mine = client.get(f"/games/{game['id']}", headers={"Authorization": f"Bearer {new}"})
    assert mine.json["viewer"] == {"role": "seat", "seat": 1}
    # The links page shows the new link; seat 0's is unchanged.
    again = client.get(f"/games/{game['id']}/links", headers=auth(game)).json
    assert again["seat_tokens"] == [game["seat_tokens"][0], new]
    # The new token asks for that seat's moves; the old one cannot.
    assert client.get(f"/games/{game['id']}/legal", headers=bearer(new)).status_code == 200
    assert client.get(f"/games/{game['id']}/legal", headers=bearer(old)).status_code == 401
    assert legal(client, game)  # the recorder's own token is untouched


def test_a_seat_that_is_not_there_is_not_found(client: FlaskClient) -> None:
    game = create(client, players=["Ana", "Ben"])
    assert client.post(f"/games/{game['id']}/seats/2/token", headers=auth(game)).status_code == 404


def test_a_link_is_drawn_as_a_qr_code_from_a_post_body(client: FlaskClient) -> None:
    response = client.post("/qr", json={"text": "http://127.0.0.1:8000/games/ab/record#token=x"})
    assert response.status_code == 200
    address = response.json["svg"]
    assert address.startswith("data:image/svg+xml;base64,")
    drawn = base64.b64decode(address.partition(",")[2]).decode()
    assert drawn.startswith("<svg") and "<path" in drawn
    refused = client.post("/qr", json={"text": ""})
    assert refused.status_code == 400 and refused.json["error"]["details"] == {
        "text": "1 to 512 characters"
    }


def qr_post(client: FlaskClient, body: bytes, query: str = "") -> Any:
    return client.post(f"/qr{query}", data=body, content_type="application/json")


def test_a_qr_code_body_is_read_as_strictly_as_the_api_reads_its_bodies(
    client: FlaskClient,
) -> None:
    link = b'"http://127.0.0.1:8000/games/ab/view"'
    # A key given twice, a field the page does not take, a lone surrogate (no UTF-8 for it), a
    # body that is no object: each a 400 of the contract, never a 500 nor a QR code.
    for body in (
        b'{"text": ' + link + b', "text": "x"}',
        b'{"text": ' + link + b', "colour": "red"}',
        b'{"text": "\\ud800"}',
        b"[" + link + b"]",
        b"{",
    ):
        assert_error(qr_post(client, body), 400, "invalid_request")
    details = assert_error(qr_post(client, b'{"text": ' + link + b"}", "?bogus=1"), 400,
                           "invalid_request")  # fmt: skip
    assert details == {"unknown": ["bogus"], "known": []}
    assert qr_post(client, b'{"text": ' + link + b"}").status_code == 200


def test_a_text_no_qr_code_can_hold_is_refused_not_a_500() -> None:
    with pytest.raises(InvalidRequestError) as refused:
        qr_address("\ud800")
    assert refused.value.details == {"text": "text a QR code can hold (UTF-8)"}
