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
