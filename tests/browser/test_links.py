"""The links of a game in Chromium: each shown as a QR code, the links page opened again from the
recorder's page, a lost phone's link replaced there; and every page leading to /new and to the
leaderboards."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import LiveServer, create

PHONE = {"width": 390, "height": 844}


def qr_codes_drawn(page: Page, scope: str) -> int:
    """How many links of ``scope`` show a QR code the browser has drawn (an SVG image loaded)."""
    expect(page.locator(f"{scope} img.qr").first).to_have_attribute(
        "src", re.compile(r"^data:image/svg\+xml;base64,")
    )
    return int(
        page.evaluate(
            f"""() => [...document.querySelectorAll('{scope} img.qr')]
                .filter((img) => img.complete && img.naturalWidth > 50).length"""
        )
    )


@pytest.mark.parametrize("viewport", [PHONE])
def test_the_new_game_shows_each_link_as_a_qr_code(page: Page, server: LiveServer) -> None:
    page.goto(f"{server.url}/new")
    page.get_by_label("Mada").check()
    for seat, name in enumerate(["Ana", "Ben"]):
        page.locator(f"#player-{seat}").fill(name)
    page.get_by_role("button", name="Start recording").click()
    expect(page.locator("#created")).to_be_visible()
    expect(page.locator("#created img.qr")).to_have_count(4)
    page.wait_for_function(
        "() => [...document.querySelectorAll('#created img.qr')].every((i) => i.naturalWidth > 50)"
    )
    assert qr_codes_drawn(page, "#created") == 4


@pytest.mark.parametrize("viewport", [PHONE])
def test_the_recorder_opens_the_links_again_and_replaces_a_lost_phones(
    page: Page, server: LiveServer
) -> None:
    client = server.client
    game = create(client, players=["Ana", "Ben", "Caro"])
    page.goto(f"{server.url}/games/{game['id']}/record#token={game['token']}")
    expect(page.locator("#recorder")).to_have_attribute("data-ready", "true")
    page.get_by_role("link", name="Links & QR codes").click()
    expect(page.locator("#links-page .link-row")).to_have_count(5)
    seat_links = page.locator('#links-page .link-row[data-kind="seat"] a.link-name')
    hrefs = [link.get_attribute("href") or "" for link in seat_links.all()]
    assert [href.split("#token=")[1] for href in hrefs] == game["seat_tokens"]
    page.wait_for_function(
        "() => [...document.querySelectorAll('#links-page img.qr')].every((i) => i.naturalWidth)"
    )
    assert qr_codes_drawn(page, "#links-page") == 5

    # Ben's phone is lost: his link is replaced, and the old one stops working.
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role(
        "button", name="Replace Ben's link (a lost phone): the old link stops working"
    ).click()
    ben = page.locator('#links-page .link-row[data-seat="1"] a.link-name')
    expect(ben).not_to_have_attribute("href", hrefs[1])
    new_token = (ben.get_attribute("href") or "").split("#token=")[1]
    old = {"Authorization": f"Bearer {game['seat_tokens'][1]}"}
    assert client.get(f"/games/{game['id']}", headers=old).status_code == 401
    new = client.get(f"/games/{game['id']}", headers={"Authorization": f"Bearer {new_token}"})
    assert new.json["viewer"] == {"role": "seat", "seat": 1}
    expect(page.locator("#links-page .copy-note")).to_contain_text("replaced")


@pytest.mark.console_error("403")
def test_a_seats_page_offers_no_links_page(page: Page, server: LiveServer) -> None:
    game = create(server.client, players=["Ana", "Ben"])
    page.goto(f"{server.url}/games/{game['id']}/record#token={game['seat_tokens'][0]}")
    expect(page.locator("#recorder")).to_have_attribute("data-ready", "true")
    expect(page.get_by_role("link", name="Links & QR codes")).to_be_hidden()
    page.goto(f"{server.url}/games/{game['id']}/share#token={game['seat_tokens'][0]}")
    expect(page.locator("#links-message")).to_contain_text("recorder's only")
    expect(page.locator("#links-page .link-row")).to_have_count(0)


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}])
def test_every_page_leads_to_a_new_game_and_the_leaderboards(
    page: Page, server: LiveServer
) -> None:
    game = create(server.client, players=["Ana", "Ben"])
    for path in ("/", f"/games/{game['id']}/view", "/stats/mada/view", "/players/Ana/view"):
        page.goto(f"{server.url}{path}")
        page.get_by_role("link", name="New game").click()
        expect(page).to_have_url(f"{server.url}/new")
    page.goto(f"{server.url}/")
    # The menu: "Statistics" on a wide screen, "Menu" (the site's other links too) on a phone.
    page.locator(".site-header details.menu > summary").click()
    page.get_by_role("link", name="Sifaka leaderboard").click()
    expect(page).to_have_url(f"{server.url}/ratings/sifaka/view")
