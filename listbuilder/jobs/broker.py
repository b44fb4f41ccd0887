"""Where the print queue's messages live: one Huey instance made from the settings every web
server and worker shares, so any of them on any machine reaches the same line.

- a Redis URL (LISTBUILDER_REDIS_URL): Huey's queue in Redis;
- else a PostgreSQL DATABASE_URL: Huey's tables (`huey_*`) in that same database, woken by
  LISTEN/NOTIFY and taken with SKIP LOCKED;
- else the SQLite database's folder: Huey's SQLite queue in a file beside it (one machine).

Alembic leaves Huey's tables alone (`store.admin.migrations.ours`: the `huey_` prefix).
"""

from __future__ import annotations

from pathlib import Path

from huey import Huey, MemoryHuey, PostgresHuey, RedisHuey, SqliteHuey
from sqlalchemy.engine import make_url

NAME = "listbuilder-prints"
TABLE_PREFIX = "huey"
# The tables Huey makes in a PostgreSQL database it shares with ours
QUEUE_TABLES_LOCK = 0x48554559  # "HUEY": held while Huey's tables are made
OWN_TABLES = frozenset(f"{TABLE_PREFIX}_{t}" for t in ("kv", "schedule", "task", "counter"))


def queue_file(database_url: str) -> Path | None:
    """The SQLite queue beside an SQLite database file (None: a database in memory)."""
    database = make_url(database_url).database
    if not database or database == ":memory:":
        return None
    path = Path(database)
    return path.with_name(f"{path.stem}.print-queue.sqlite3")


def make_huey(database_url: str, redis_url: str | None = None) -> Huey:
    """The queue for these settings. Results are not kept by Huey: a print's PDF goes to the
    print cache in the database, where every web server reads it (and its bound applies)."""
    if redis_url:
        return RedisHuey(NAME, url=redis_url, results=False)
    url = make_url(database_url)
    if url.get_backend_name() == "postgresql":
        dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        huey = PostgresHuey(NAME, dsn=dsn, table_prefix=TABLE_PREFIX, results=False,
                            create_tables=False)
        _create_tables_in_turn(huey)
        return huey
    path = queue_file(database_url)
    if path is None:  # a database in memory: a queue in memory too (one process)
        return MemoryHuey(NAME, results=False)
    return SqliteHuey(NAME, filename=str(path), results=False)


def _create_tables_in_turn(huey: Huey) -> None:
    """Huey's tables, made by one process at a time: servers and workers starting at once on
    a new database each ran Huey's CREATE TABLE IF NOT EXISTS, and all but one died of a
    duplicate key in PostgreSQL's catalog (2-3 of 4 processes, in 6 tries of 6)."""
    storage = huey.storage
    with storage.db(commit=True, close=True) as cursor:
        cursor.execute("select pg_advisory_xact_lock(%s)", (QUEUE_TABLES_LOCK,))
        for statement in storage.ddl:
            cursor.execute(statement)


def describe(huey: Huey) -> str:
    """Where the queue is, for messages: no password."""
    storage = huey.storage
    if isinstance(huey, RedisHuey):
        pool = storage.pool
        kwargs = pool.connection_kwargs
        return f"Redis at {kwargs.get('host', '?')}:{kwargs.get('port', '?')}"
    if isinstance(huey, PostgresHuey):
        return "the PostgreSQL database (tables huey_*)"
    if isinstance(huey, SqliteHuey):
        return f"the SQLite file {storage.filename}"
    return "this process's memory"
