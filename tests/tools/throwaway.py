"""Starting a throwaway server the tests need (PostgreSQL, Redis): skipped in words where it
can't start, but a failure in CI, which must run every test (make test installs them)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

import pytest

T = TypeVar("T")


def start_or_skip(start: Callable[[], T], cannot: type[Exception], what: str,
                  package: str) -> T:
    try:
        return start()
    except cannot as error:
        message = f"{what} could not be started for the tests: {error}"
        if os.environ.get("CI"):
            pytest.fail(f"{message} (CI must run them: make test installs {package})",
                        pytrace=False)
        pytest.skip(message)
