"""Real Chromium (Debian's, driven by Playwright) against the app served on a free localhost
port, with a temp SQLite file and instance folder. One browser for the whole session.

Outside CI a missing Chromium skips these tests; in CI (CI set) it fails them loudly.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsertools import ARGS, CHROMIUM, phone_pair, served_app
from tlsfront import tls_front

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "output" / "screenshots"


def _need_chromium() -> None:
    if Path(CHROMIUM).exists() or shutil.which("chromium"):
        return
    message = f"Chromium is not installed at {CHROMIUM}: the browser tests need it"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI must install it: .ci/run does)", pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app on a free port in a thread; its base URL."""
    with served_app(tmp_path_factory.mktemp("browser-app")) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def context(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """A fresh browser profile (cookies, downloads) per test, at desktop size."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    ctx.set_default_timeout(15_000)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def page(context: Any) -> Any:
    return context.new_page()


@pytest.fixture
def small_phones(browser: Any) -> Iterator[tuple[Any, Any]]:
    """Two 375 x 740 phones, service workers blocked."""
    with phone_pair(browser) as made:
        yield made


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


@pytest.fixture
def tls_context(browser: Any) -> Iterator[Any]:
    """A context for a site behind the tests' own TLS certificate (test_https_browser.py,
    test_club_browser.py)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True,
                              ignore_https_errors=True)
    ctx.set_default_timeout(20_000)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture(scope="session")
def https_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The TLS front's own folder. Its database is instance/listbuilder.sqlite3, for the rare
    step no browser can take (tests/browser/test_every_post_browser.py: the game data
    updated under a saved roster)."""
    return tmp_path_factory.mktemp("https")


@pytest.fixture(scope="session")
def https(https_folder: Path) -> Iterator[str]:
    """The base address of the TLS front (nginx before `listbuilder serve`,
    tests/tools/tlsfront.py), one for the session; open it with `tls_context`."""
    with tls_front(https_folder) as (base, _log):
        yield base
