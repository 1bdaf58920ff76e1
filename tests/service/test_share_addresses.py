"""The links handed out at the table name an address the other phones reach (api.md, "Pages: what
people read afterwards"): the share page and the new-game form give links.js the local network's
address when the page was opened on this machine and the server listens beyond it; on loopback
only they say that the other phones cannot open the links, and how to start the server so that
they can; opened at any other address, the links keep it."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.network import local_network_address, network_origin
from tests.support.api import create

HTML = {"Accept": "text/html"}
UNREACHABLE = "Other phones cannot open these links"


def pages_of(client: FlaskClient, **options: str) -> list[str]:
    game = create(client, game="scoresheet", players=["Ana", "Ben"], options={"title": "Uno"})
    return [
        client.get(path, headers=HTML, **options).data.decode()  # type: ignore[arg-type]
        for path in (f"/games/{game['id']}/share", "/new")
    ]


def test_under_another_server_the_links_keep_the_pages_address(client: FlaskClient) -> None:
    for page in pages_of(client):
        assert 'data-share-origin="http://localhost"' in page
        assert UNREACHABLE not in page


def test_on_loopback_only_the_pages_say_other_phones_cannot_open_the_links(
    app: Flask, client: FlaskClient
) -> None:
    app.config["LISTEN"] = "127.0.0.1:8000"
    for page in pages_of(client):
        assert 'data-share-origin="http://localhost"' in page
        assert UNREACHABLE in page and "tabletape serve --host 0.0.0.0" in page


def test_beyond_loopback_the_links_name_the_local_network(app: Flask, client: FlaskClient) -> None:
    address = local_network_address()
    if address is None:
        pytest.skip("this machine has no address on a network")
    app.config["LISTEN"] = "0.0.0.0:8000"
    for page in pages_of(client):
        assert f'data-share-origin="http://{address}:8000"' in page
        assert UNREACHABLE not in page
    # A server listening on one address of the network names that one.
    app.config["LISTEN"] = "192.0.2.77:8000"
    for page in pages_of(client):
        assert 'data-share-origin="http://192.0.2.77:8000"' in page
    # Opened from another phone, the links keep the address that phone used.
    app.config["LISTEN"] = "0.0.0.0:8000"
    for page in pages_of(client, base_url="http://tabletape.lan:8000"):
        assert 'data-share-origin="http://tabletape.lan:8000"' in page


def test_the_network_origin_of_a_listening_address() -> None:
    assert network_origin("127.0.0.1", 8000) is None
    assert network_origin("::1", 8000) is None
    assert network_origin("192.0.2.77", 8000) == "http://192.0.2.77:8000"
    assert network_origin("fe80::1", 8000) == "http://[fe80::1]:8000"
