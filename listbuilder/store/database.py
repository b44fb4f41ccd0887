"""The database every store shares: one engine for a URL (SQLite by default, PostgreSQL for
a shared deployment), set up so that many threads and processes write to one SQLite file
safely, and the sessions each store reads and writes in."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.orm import Session, sessionmaker

BUSY_TIMEOUT_MS = 10_000  # how long an SQLite writer waits for another one before failing
# What our connections call themselves to PostgreSQL, so that `listbuilder db restore` can see
# a server on another machine (pg_stat_activity).
APPLICATION_NAME = "listbuilder"


def now() -> datetime:
    return datetime.now(UTC)


def utc(moment: datetime) -> datetime:
    """A moment read back from the database: SQLite hands datetimes back without their zone;
    they were stored as UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def make_engine(url: str) -> Engine:
    """An engine for the URL; SQLite files are set up for many threads and processes at once."""
    parsed = make_url(url)
    if parsed.drivername == "postgres":  # what many hosts hand out; SQLAlchemy wants this
        parsed = parsed.set(drivername="postgresql+psycopg")
    # hide_parameters: a database error's message (logged, shown by tracebacks) would carry
    # the statement's values, among them edit-token hashes and whole rosters.
    if parsed.get_backend_name() == "postgresql":
        return create_engine(parsed, pool_pre_ping=True, hide_parameters=True,
                             connect_args={"application_name": APPLICATION_NAME})
    if parsed.get_backend_name() != "sqlite":
        return create_engine(parsed, pool_pre_ping=True, hide_parameters=True)
    if parsed.database not in (None, "", ":memory:"):
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(parsed, hide_parameters=True)
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    # WAL: readers never wait for the writer, and a commit is one append. A writer that finds
    # the database busy waits (busy_timeout) instead of failing with "database is locked".
    # Python's sqlite3 is told to leave transactions alone (isolation_level None): the begin
    # hook below emits BEGIN itself, IMMEDIATE for writes (see `Sessions.writing`).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    _into_wal(cursor)
    cursor.execute("PRAGMA synchronous = NORMAL")  # durable at each checkpoint; safe in WAL
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.close()


def _into_wal(cursor: Any) -> None:
    # Switching a new database to WAL takes its exclusive lock, and SQLite answers "database
    # is locked" at once, without the busy timeout, when another connection holds a lock
    # meanwhile (two servers or upgrades starting together on a fresh file). Once the file is
    # in WAL it stays so, and the switch is a no-op that needs no lock.
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _sqlite_begin(connection: Connection) -> None:
    # A write that begins as a read (BEGIN DEFERRED) and then writes can fail at once with
    # SQLITE_BUSY when another writer got in between, whatever the busy timeout; taking the
    # write lock at BEGIN makes it wait its turn instead.
    options = connection.get_execution_options()
    if options.get("sqlite_one_statement", False):
        return  # no BEGIN: each statement is a transaction of its own (`RosterStore.save`)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if options.get("sqlite_immediate", False)
                               else "BEGIN")


class Sessions:
    """One engine's sessions, as every store takes them (rosters, packs, matches,
    the print cache): `reading()` for reads, and `writing()`, a transaction that takes SQLite's
    write lock as it begins (BEGIN IMMEDIATE: `_sqlite_begin`)."""

    def __init__(self, engine: Engine) -> None:
        self._read = sessionmaker(engine, expire_on_commit=False)
        self._write = sessionmaker(engine.execution_options(sqlite_immediate=True),
                                   expire_on_commit=False)

    def reading(self) -> Session:
        return self._read()

    @contextmanager
    def writing(self) -> Iterator[Session]:
        with self._write.begin() as session:
            yield session
