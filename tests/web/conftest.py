"""The app and its store, on each database people run it with: a temp SQLite file, and a real
PostgreSQL server started for the test run (one database the migrations made, emptied before
each test). Outside CI a PostgreSQL that can't start skips its half; in CI (CI set) it
fails loudly."""

from __future__ import annotations

import itertools
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pgserver
import pytest
import redisserver
from flask import Flask
from flask.testing import FlaskClient
from throwaway import start_or_skip
from webtools import Player

from listbuilder.settings import TestConfig
from listbuilder.store.admin import migrations
from listbuilder.store.database import make_engine, sqlite_url
from listbuilder.store.rosters import RosterStore
from listbuilder.store.tables import Base
from listbuilder.web import create_app

DATABASES = ["sqlite", "postgresql"]
MIGRATED = "listbuilder_test"
_names = itertools.count()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[pgserver.Server]:
    """One throwaway PostgreSQL server for the whole run."""
    server = start_or_skip(pgserver.start, pgserver.NoServer, "PostgreSQL", "postgresql")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[str]:
    """One throwaway Redis server for the whole run, started only if a test asks; its URL
    (database 0: a test that must start empty picks another number, or flushes it)."""
    server = start_or_skip(redisserver.start, redisserver.NoServer, "Redis", "redis-server")
    try:
        yield server.url()
    finally:
        server.stop()


@pytest.fixture(scope="session")
def pg_migrated(pg_server: pgserver.Server) -> str:
    """A database at the code's schema for the whole run, emptied before each test."""
    url = pg_server.create_database(MIGRATED)
    engine = make_engine(url)
    try:
        migrations.upgrade(engine)
    finally:
        engine.dispose()
    return url


@pytest.fixture
def pg_database(pg_server: pgserver.Server) -> Iterator[str]:
    """A fresh, empty PostgreSQL database; its URL."""
    name = f"test_{os.getpid()}_{next(_names)}"
    url = pg_server.create_database(name)
    yield url
    pg_server.drop_database(name)


@pytest.fixture(scope="session")
def sqlite_migrated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite file the migrations brought to the code's schema, once a test process (each
    pytest-xdist worker has its own): each test starts from a copy, as quick as the
    PostgreSQL half's emptied tables, where running the migrations took 70 ms a test."""
    path = tmp_path_factory.mktemp("sqlite-migrated") / "rosters.sqlite3"
    engine = make_engine(sqlite_url(path))
    try:
        migrations.upgrade(engine)
    finally:
        engine.dispose()
    # the last connection closed folded SQLite's write-ahead log into the file: it is whole
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    return path


@pytest.fixture(params=DATABASES)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database at the code's schema: an SQLite file, or a PostgreSQL database."""
    if request.param == "sqlite":
        path = tmp_path / "rosters.sqlite3"
        shutil.copyfile(request.getfixturevalue("sqlite_migrated"), path)
        yield sqlite_url(path)
        return
    url = request.getfixturevalue("pg_migrated")
    server: pgserver.Server = request.getfixturevalue("pg_server")
    with server.admin(url) as connection:  # far quicker than a new database per test
        # every table of ours, print_jobs too: a print left waiting by an earlier test would
        # take a place in the line's share of the address every test client asks from
        connection.execute(f"TRUNCATE {', '.join(sorted(Base.metadata.tables))} "
                           f"RESTART IDENTITY")
    yield url


@pytest.fixture
def store(database_url: str) -> Iterator[RosterStore]:
    s = RosterStore(database_url)
    yield s
    s.close()


@pytest.fixture
def app(tmp_path: Path, database_url: str) -> Iterator[Flask]:
    """The app on a fresh database and a temp instance folder, built-in data only, CSRF on."""
    data = tmp_path / "no-custom-data"
    data.mkdir()
    app = create_app({**{k: getattr(TestConfig, k) for k in dir(TestConfig) if k.isupper()},
                      "DATABASE_URL": database_url, "LISTBUILDER_DATA": str(data)},
                     instance_path=tmp_path / "instance")
    # Huey's tables in the PostgreSQL database the tests share hold the last test's tasks
    app.extensions["listbuilder.printer"].huey.flush()
    yield app
    app.extensions["listbuilder.store"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def player(client: FlaskClient) -> Player:
    return Player(client)
