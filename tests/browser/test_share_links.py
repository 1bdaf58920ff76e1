"""The links handed out at the table, in Chromium at 390x844 (api.md, "Pages: what people read
afterwards"): opened on this machine while `tabletape serve` listens beyond loopback, every link
and QR code of the share page names the local network's address, while the way back to the
recorder stays on this page's own; on loopback only, the page says that the other phones cannot
open them, and how to start the server so that they can."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from service.network import local_network_address
from tests.browser.helpers import LiveServer, create, fits_the_width


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 390, "height": 844}


def open_links(page: Page, server: LiveServer) -> dict[str, object]:
    game = create(server.client, players=["Ana", "Ben"])
    page.goto(f"{server.url}/games/{game['id']}/share#token={game['token']}")
    expect(page.locator("#links-page .link-row")).to_have_count(4)
    return game


def test_beyond_loopback_the_links_name_the_local_network(page: Page, server: LiveServer) -> None:
    address = local_network_address()
    if address is None:
        pytest.skip("this machine has no address on a network")
    port = urlsplit(server.url).port
    server.app.config["LISTEN"] = f"0.0.0.0:{port}"
    game = open_links(page, server)
    hrefs = page.locator("#links-page .link-row a.link-name").evaluate_all(
        "links => links.map(link => link.href)"
    )
    assert hrefs and all(href.startswith(f"http://{address}:{port}/games/") for href in hrefs)
    fields = page.locator("#links-page .link-row input").evaluate_all(
        "fields => fields.map(field => field.value)"
    )
    assert fields == hrefs
    back = page.locator("#links-page a.open-recorder")
    expect(back).to_have_attribute(
        "href", f"{server.url}/games/{game['id']}/record#token={game['token']}"
    )
    expect(page.locator(".share-unreachable")).to_have_count(0)


def test_on_loopback_only_the_page_says_so(page: Page, server: LiveServer) -> None:
    port = urlsplit(server.url).port
    server.app.config["LISTEN"] = f"127.0.0.1:{port}"
    open_links(page, server)
    note = page.locator(".share-unreachable")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Other phones cannot open these links")
    expect(note).to_contain_text("tabletape serve --host 0.0.0.0")
    assert fits_the_width(page)
