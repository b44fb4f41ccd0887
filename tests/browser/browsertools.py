"""Helpers for the browser tests."""

from __future__ import annotations

import time
from typing import Any


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


def opened(page: Any, selector: str, state: str = "visible") -> None:
    """Wait for an element of the page a click has opened, and for the page's scripts.

    A click that navigates returns once the new page starts to arrive; its scripts are
    deferred, so a change made then (a list's pick, say) reaches no htmx handler and asks
    nothing (seen on a slow CI run). Once the document has loaded, the deferred scripts and
    their DOMContentLoaded work are done."""
    page.wait_for_selector(selector, state=state)
    until(page, "() => document.readyState === 'complete'")
