"""The rate limits switched on, for the tests that count them (tests/web/site/test_limits.py and
the pack-to-roster copies); the other web tests run with them off (TestConfig)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from listbuilder.settings import TestConfig
from listbuilder.store.database import make_engine
from listbuilder.store.ratelimit import DatabaseStorage
from listbuilder.web import create_app


@pytest.fixture
def counters(database_url: str) -> Iterator[str]:
    """The database, with no counters left by an earlier test (PostgreSQL's is shared)."""
    engine = make_engine(database_url)
    try:
        DatabaseStorage(engine=engine).reset()
    finally:
        engine.dispose()
    yield database_url


@pytest.fixture
def make_app(counters: str, tmp_path: Path) -> Iterator[Callable[..., Flask]]:
    """make_app(LIMIT_CREATE="2 per minute", ...): an app on the test's database with these
    settings (every limit off unless given); each call is another worker or machine."""
    apps: list[Flask] = []
    (tmp_path / "no-data").mkdir()

    def make(**settings: Any) -> Flask:
        config = {k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()}
        config.update(DATABASE_URL=counters, LISTBUILDER_DATA=str(tmp_path / "no-data"),
                      **settings)
        app = create_app(config, instance_path=tmp_path / "instance")
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.extensions["listbuilder.store"].close()


