"""Helpers for the browser tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server

from listbuilder.jobs.worker import WorkerThread
from listbuilder.settings import TestConfig
from listbuilder.web import create_app

SMALL = {"width": 375, "height": 740}  # the smallest phone the board is made for


def until(page: Any, expression: str, arg: Any = None, timeout: float = 15.0) -> Any:
    """Wait until a script expression (a function of `arg`) is true on the page.

    Playwright's wait_for_function builds its predicate with eval, which the site's
    Content-Security-Policy refuses (script-src 'self'); page.evaluate runs through the
    DevTools protocol instead, so this polls it."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout:.0f}s: {expression}")
        page.wait_for_timeout(50)


def click_settled(page: Any, locator: Any) -> None:
    """Click `locator` once it is on the screen and the page has answered the scroll that
    brought it there. A window scroll makes the page size the sticky roster column again in
    the next frame (listbuilder.js, measureColumn), which can move what is in it by a few
    hundred pixels; Playwright's own click scrolls and presses at once, and on a loaded
    machine that frame came between the press and the release: the release landed on the
    form around "Save settings", or a unit's line was not unfolded, and no click was made."""
    viewport = page.viewport_size
    for _ in range(5):
        locator.scroll_into_view_if_needed()
        page.evaluate("() => new Promise(r => requestAnimationFrame("
                      "() => requestAnimationFrame(r)))")
        box = locator.bounding_box()
        if box and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]:
            break
    locator.click()


def opened(page: Any, selector: str, state: str = "visible") -> None:
    """Wait for an element of the page a click has opened, and for the page's scripts.

    A click that navigates returns once the new page starts to arrive; its scripts are
    deferred, so a change made then (a list's pick, say) reaches no htmx handler and asks
    nothing (seen on a slow CI run). Once the document has loaded, the deferred scripts and
    their DOMContentLoaded work are done."""
    page.wait_for_selector(selector, state=state)
    until(page, "() => document.readyState === 'complete'")


def start_pack(page: Any, server: str, name: str, system: str = "actionhammer") -> None:
    """Start a pack in the studio as a player does, and wait for its page and live check."""
    page.goto(f"{server}/studio")
    page.get_by_label("Game").first.select_option(system)
    page.get_by_label("Pack name").fill(name)
    page.get_by_role("button", name="Start pack").click()
    opened(page, "#pack-check")


@contextmanager
def served_app(tmp: Path, database: str = "rosters.sqlite3") -> Iterator[str]:
    """The app on a free port in a thread, on a database of its own in `tmp`; its base URL."""
    (tmp / "no-custom-data").mkdir(exist_ok=True)
    config: dict[str, Any] = {k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()}
    config.update(DATABASE_URL=f"sqlite:///{tmp / database}",
                  LISTBUILDER_DATA=str(tmp / "no-custom-data"))
    app = create_app(config, instance_path=tmp / "instance")
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    # a print worker in a thread of the test (tests/jobs/test_print_workers.py runs them as
    # processes of their own): Huey's worker loop on the app's queue
    printer = WorkerThread(app.extensions["listbuilder.printer"]).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        thread.join(timeout=10)
        printer.stop()
        app.extensions["listbuilder.store"].close()


def _context(browser: Any, viewport: dict[str, int], phone: bool, **options: Any) -> Any:
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone,
                                  **options)
    context.set_default_timeout(15_000)
    return context


@contextmanager
def sized_page(browser: Any, viewport: dict[str, int], phone: bool = False,
               **options: Any) -> Iterator[Any]:
    """A page in a context of its own at `viewport`: a touch phone's, or a desktop's."""
    context = _context(browser, viewport, phone, **options)
    try:
        yield context.new_page()
    finally:
        context.close()


@contextmanager
def phone_pair(browser: Any, viewport: dict[str, int] = SMALL,
               workers: tuple[str, str] = ("block", "block"),
               **options: Any) -> Iterator[tuple[Any, Any]]:
    """Two touch contexts at `viewport`, two players' phones. Service workers are blocked
    unless `workers` lets one run: each worker asks the shared test server for every game's
    rules sheet, and those prints queue ahead of other tests' previews."""
    made = [_context(browser, viewport, True, service_workers=allowed, **options)
            for allowed in workers]
    try:
        yield made[0], made[1]
    finally:
        for ctx in made:
            ctx.close()




CHROMIUM = "/usr/bin/chromium"


ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


