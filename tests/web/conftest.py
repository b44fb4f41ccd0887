from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from webtools import Player

from listbuilder.web import create_app
from listbuilder.web.config import TestConfig


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The app on a temp SQLite file and instance folder, built-in data only, CSRF on."""
    data = tmp_path / "no-custom-data"
    data.mkdir()
    app = create_app({**{k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()},
                      "DATABASE_URL": f"sqlite:///{tmp_path / 'rosters.sqlite3'}",
                      "LISTBUILDER_DATA": str(data)},
                     instance_path=tmp_path / "instance")
    yield app
    app.extensions["listbuilder.store"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def player(client: FlaskClient) -> Player:
    return Player(client)
