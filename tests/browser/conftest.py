"""Browser tests: the pages in a real headless Chromium (Debian's), driven by Playwright.

Without Chromium every test here skips, saying how to install it; on CI (CI set) a missing
Chromium fails instead, since .ci/run installs it. A failed test leaves a screenshot of its page in
tests/browser/screenshots/.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from service.signing.keys import default_key_path, make_key
from tests.browser.helpers import CHROMIUM_ARGS, INSTALL_HINT, LiveServer, chromium_path
from tests.conftest import make_app

SCREENSHOTS = Path(__file__).parent / "screenshots"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "console_error(text, ...): console errors containing text are expected"
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    # Keep each phase's report on the test, for the page fixture to see whether the test failed.
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    executable = chromium_path()
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail(f"no Chromium on CI: {INSTALL_HINT}")
        pytest.skip(INSTALL_HINT)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


@pytest.fixture
def server(real_redis: redis.Redis, key_prefix: str, tmp_path: Path) -> Iterator[LiveServer]:
    # The service's signing key, where `tabletape serve` would have made it: a finished game's
    # viewer shows its signed note.
    make_key(default_key_path(tmp_path), "tabletape.test")
    app = make_app(
        real_redis, key_prefix, DATA_DIR=str(tmp_path), ARCHIVE_DIR=str(tmp_path / "archive")
    )
    with LiveServer(app) as live:
        yield live


@pytest.fixture
def viewport() -> dict[str, int]:
    return {"width": 1280, "height": 900}


@pytest.fixture
def page(
    browser: Any, server: LiveServer, viewport: dict[str, int], request: pytest.FixtureRequest
) -> Iterator[Any]:
    """A fresh page; what it logs as errors, and any request it makes outside the service,
    fail the test. On failure, a screenshot."""
    context = browser.new_context(viewport=viewport)
    context.set_default_timeout(10_000)
    opened = context.new_page()
    problems: list[str] = []
    # A test that makes a request fail on purpose says which console error that logs.
    marker = request.node.get_closest_marker("console_error")
    allowed = tuple(marker.args) if marker else ()
    opened.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    opened.on(
        "console",
        lambda message: (
            problems.append(f"console {message.type}: {message.text}")
            if message.type == "error"
            and not _expected_console_error(message)
            and not any(text in message.text for text in allowed)
            else None
        ),
    )
    opened.on(
        "request",
        lambda sent: (
            problems.append(f"a request outside the service: {sent.url}")
            if not sent.url.startswith((server.url + "/", "data:"))
            else None
        ),
    )
    yield opened
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        SCREENSHOTS.mkdir(exist_ok=True)
        name = re.sub(r"[^\w.-]+", "_", request.node.name)
        try:
            opened.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
        except Exception as error:  # the page may be what broke
            print(f"no screenshot: {error}")
    context.close()
    assert not problems, problems


def _expected_console_error(message: Any) -> bool:
    # The viewer tries the event stream first and polls where it is missing: Chromium logs the
    # stream's failed request, and nothing else may be logged as an error.
    return "/stream" in message.text or "/stream" in message.location.get("url", "")


@pytest.fixture
def phone(browser: Any, server: LiveServer) -> Iterator[Any]:
    """A phone's page: 390x844, touch. What it logs as errors fails the test."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    context.set_default_timeout(10_000)
    opened = context.new_page()
    problems: list[str] = []
    opened.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    opened.on(
        "console",
        lambda message: (
            problems.append(message.text)
            if message.type == "error" and "/stream" not in message.text
            else None
        ),
    )
    yield opened
    context.close()
    assert not problems, problems
