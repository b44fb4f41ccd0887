from __future__ import annotations

import functools
import itertools
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import CodeType
from typing import Any

import pgserver
import pytest
import redisserver
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import BytecodeCache, Environment
from jinja2.bccache import Bucket
from throwaway import start_or_skip
from webtools import Player

from listbuilder.engine.library import Library
from listbuilder.engine.report import report
from listbuilder.engine.roster_file import LoadedRoster
from listbuilder.engine.system import Violation
from listbuilder.printing.facecache import FACES
from listbuilder.settings import TestConfig
from listbuilder.store.admin import migrations
from listbuilder.store.database import make_engine, sqlite_url
from listbuilder.store.rosters import RosterStore
from listbuilder.store.tables import Base
from listbuilder.web import create_app

ROOT = Path(__file__).resolve().parents[1]


class CompiledTemplates(BytecodeCache):
    """Each page template compiled once a test process rather than once an app. Most web tests
    make an app of their own, and each app's Jinja environment compiled every template it
    rendered again: half the CPU time of tests/web went there. A compiled template is reused
    only for the same source (its checksum), file and compile settings, so what a test sees
    is what a fresh compile gives."""

    def __init__(self) -> None:
        self.code: dict[tuple[str, str], CodeType] = {}

    def get_bucket(self, environment: Environment, name: str, filename: str | None,
                   source: str) -> Bucket:
        key = self.get_cache_key(f"{name}|{compiled_as(environment, name)}", filename)
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        bucket.code = self.code.get((bucket.key, bucket.checksum))

    def dump_bytecode(self, bucket: Bucket) -> None:
        if bucket.code is not None:
            self.code[bucket.key, bucket.checksum] = bucket.code


def compiled_as(env: Environment, name: str) -> str:
    """What a template's compiled code depends on besides its source."""
    autoescape = env.autoescape(name) if callable(env.autoescape) else env.autoescape
    return repr((env.block_start_string, env.block_end_string, env.variable_start_string,
                 env.variable_end_string, env.comment_start_string, env.comment_end_string,
                 env.line_statement_prefix, env.line_comment_prefix, env.trim_blocks,
                 env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
                 sorted(env.extensions), env.optimized, autoescape, env.is_async,
                 env.sandboxed, getattr(env.finalize, "__qualname__", env.finalize),
                 sorted(env.filters), sorted(env.tests)))


@pytest.fixture(scope="session", autouse=True)
def compiled_templates() -> Iterator[None]:
    """Every Flask app made in this test process shares one CompiledTemplates."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Flask, "jinja_options",
                      {**Flask.jinja_options, "bytecode_cache": CompiledTemplates()})
        yield


@pytest.fixture(autouse=True)
def fresh_faces():
    """Each test lays its cards out itself: a face another test laid out is not reused (a
    test of the layout or its processes would otherwise measure a cache hit)."""
    FACES.clear()
    yield
    FACES.clear()


@pytest.fixture(scope="session")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    """The built-in data only: an empty folder stands in for the player's own data."""
    return Library(custom_dir=tmp_path_factory.mktemp("no-custom-data"))


@pytest.fixture(scope="session")
def read(library: Library):
    """Read roster YAML text with the built-in data: read(text) -> LoadedRoster."""

    def _read(text: str, file: str = "test.yaml") -> LoadedRoster:
        return library.read_roster(text, file)

    return _read


@pytest.fixture(scope="session")
def violations(read):
    """Rule ids broken by a roster given as YAML text (errors and warnings)."""

    def _violations(text: str) -> list[Violation]:
        loaded = read(text)
        return report(loaded.system, loaded.catalog, loaded.roster).violations

    return _violations


# -- Markers ----------------------------------------------------------------------------------
# Each module gives its own (`pytestmark`, or a test's decorator), so a renamed or moved test
# keeps its mark; pyproject.toml registers them. `make check` leaves out every test carrying
# one; `make test` runs them all.
#
# browser   drives Chromium: every module in tests/browser/ (a test that asks for the browser
#           without the mark is refused at collection, below).
# postgres  needs the throwaway PostgreSQL server: given here by what a test uses, the
#           PostgreSQL half of the `database_url` and `empty_url` fixtures and any pg_* fixture.
# print     lays pages out with WeasyPrint.
# slow      runs Listbuilder as it is installed and served, in processes of its own: the wheel
#           built and installed by pip into a new virtual environment (about 45 s before its
#           first test), gunicorn and nginx started on real ports, and the README's commands
#           run in a shell; seconds a test.
TESTS = Path(__file__).resolve().parent


def _uses_postgres(item: pytest.Item) -> bool:
    names = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    params = callspec.params.values() if callspec is not None else ()
    return any(name.startswith("pg_") for name in names) or any(
        isinstance(value, str) and value == "postgresql" for value in params)


@pytest.hookimpl(tryfirst=True)  # before -m deselects by them
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if _uses_postgres(item):
            item.add_marker(pytest.mark.postgres)
        if "browser" in getattr(item, "fixturenames", ()) and \
                item.get_closest_marker("browser") is None:
            raise pytest.UsageError(f"{item.nodeid} drives Chromium without the browser mark: "
                                    "give its module `pytestmark = pytest.mark.browser`")


# -- Spreading the tests over processes (pytest-xdist) -----------------------------------------
# `make test` and `make check` run `pytest -n N --dist loadgroup`: each worker process has its
# own session fixtures (the library, one Chromium and app server, one PostgreSQL server on a
# port and in a folder of its own, the example prints) and its own temp folders. A module
# whose tests share a module-scoped fixture (the wheel: 45 s; a module's prints), or one of
# SHARED_SESSION_FIXTURES, is sent whole to one worker so that it is made once, not once on
# each worker its tests fell to. The browser tests all go to one worker, which drives its one
# Chromium through them while the others run the rest. Every other test goes to whichever
# worker is free, the biggest modules first.
#
# pytest-xdist's own loadgroup reads `xdist_group` marks by adding the group to the test's
# node id, which pytest 9.2's node ids no longer take (pytest-dev/pytest-xdist#1386: the
# marks are silently ignored), so the scheduler here finds the groups itself, from the
# modules' source: the controlling process does not collect the tests.
SHARED_SESSION_FIXTURES = ("example_print",)  # tests/printing/conftest.py: 36 card prints
MODULE_SCOPED = re.compile(r"""scope\s*=\s*["']module["']""")


@functools.cache
def _shares_fixtures(module: Path) -> bool:
    try:
        source = module.read_text(encoding="utf-8")
    except OSError:
        return False
    return bool(MODULE_SCOPED.search(source)) or any(
        name in source for name in SHARED_SESSION_FIXTURES)


MODULE_MARK = re.compile(r"^pytestmark = (.+)$", re.M)


@functools.cache
def _module_marks(module: Path) -> frozenset[str]:
    """The marks a test module gives all its tests (`pytestmark`), read from its source: the
    scheduler runs in the controlling process, which collects no tests."""
    try:
        found = MODULE_MARK.search(module.read_text(encoding="utf-8"))
    except OSError:
        return frozenset()
    return frozenset(re.findall(r"pytest\.mark\.(\w+)", found.group(1))) if found else frozenset()


def _long_first(root: Path, nodeid: str) -> int:
    """Where a test goes in the line: browser and real-server tests, then prints, then the
    rest (modules sent whole go before single tests, the biggest first)."""
    marks = _module_marks(root / nodeid.split("::", 1)[0])
    if marks & {"browser", "slow"}:
        return 0
    if "print" in marks:
        return 1
    return 2


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getoption("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class SharedFixturesScheduling(LoadGroupScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            if "browser" in _module_marks(config.rootpath / module):
                # one worker drives Chromium, the others run the rest: three browsers and
                # their app servers at once on two cores made timing-bound steps flaky (a
                # click landing mid-swap, a preview not drawn in 15 s)
                return "browser"
            if _shares_fixtures(config.rootpath / module):
                return module
            return str(super()._split_scope(nodeid))

        ordered = False

        def _assign_work_unit(self, node: Any) -> None:
            # The line of work put in order once, before the first is handed out: the tests
            # that take longest go first, so that the quick ones fill the end of the run.
            if not self.ordered:
                for scope in sorted(self.workqueue, key=self._first_if_long):
                    self.workqueue.move_to_end(scope)
                self.ordered = True
            super()._assign_work_unit(node)

        def _first_if_long(self, scope: str) -> tuple[int, int]:
            tests = self.workqueue[scope]
            return -len(tests), _long_first(config.rootpath, next(iter(tests)))

    return SharedFixturesScheduling(config, log)


# -- The app and its store -----------------------------------------------------------------
# On each database people run it with: a temp SQLite file, and a real
# PostgreSQL server started for the test run (one database the migrations made, emptied before
# each test). Outside CI a PostgreSQL that can't start skips its half; in CI (CI set) it
# fails loudly.
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
