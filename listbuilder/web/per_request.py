"""Work done once a request: an answer to a change works out the page before the change and
the page after it, and a page draws the same forms many times, so values that cannot change
within a request are kept on `flask.g` for the rest of it."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

from flask import g

T = TypeVar("T")


def once_a_request(name: str, key: Hashable, make: Callable[[], T]) -> T:
    """`make()`, worked out once this request for each `key` of the kind `name`."""
    kept: dict[Hashable, T] = g.setdefault(name, {})
    if key not in kept:
        kept[key] = make()
    return kept[key]
