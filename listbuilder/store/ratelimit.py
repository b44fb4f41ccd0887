"""Rate-limit counters kept in the app's own database: a storage for the `limits` library
(Flask-Limiter's backend), which ships Redis, Memcached and MongoDB storages but none in SQL.

A public instance runs several worker processes, often on several machines; a counter kept in
one process's memory would let a script make its limit's worth of requests in every process.
Kept in the database every process already shares (`DATABASE_URL`, SQLite or PostgreSQL),
one client's count is the same wherever its requests land, with nothing more to run.

Fixed windows, as the `fixed-window` strategy wants: a counter starts at a key's first hit and
lasts `expiry` seconds; the first hit after that starts a new window at 1. Each hit is one
statement, an upsert (`INSERT ... ON CONFLICT DO UPDATE ... RETURNING`), so two processes
counting the same key at once never lose a hit: the database serialises them on the row.
Expired rows are harmless (the upsert restarts them) and are swept now and then.

The table is made by migration 0003, never here.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, cast

from limits.storage import Storage
from sqlalchemy import Table, bindparam, case, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

from listbuilder.store.tables import MAX_KEY, RateLimitRow

log = logging.getLogger(__name__)

SCHEME = "listbuilder-db"  # the storage URI Flask-Limiter is given for this storage
SWEEP_EVERY = 300.0  # seconds between two sweeps of expired rows, in each process


RATE_LIMITS = cast(Table, RateLimitRow.__table__)


def stored_key(key: str) -> str:
    """The key as kept: itself, or its hash if it would not fit the column. A key holds the
    client's address, which a misconfigured proxy could make arbitrarily long; a long one
    must not turn a request into a database error."""
    if len(key) <= MAX_KEY:
        return key
    return "sha256:" + hashlib.sha256(key.encode("utf-8")).hexdigest()


def _counting(insert: Any) -> Any:
    """The upsert that counts hits, for one dialect's INSERT."""
    values = insert(RATE_LIMITS).values(key=bindparam("key"), hits=bindparam("amount"),
                                        expires_at=bindparam("expires"))
    expired = RATE_LIMITS.c.expires_at <= bindparam("now")
    return values.on_conflict_do_update(
        index_elements=[RATE_LIMITS.c.key],
        set_={
            # a window that ended restarts with these hits; a running one adds them
            "hits": case((expired, values.excluded.hits),
                         else_=RATE_LIMITS.c.hits + values.excluded.hits),
            "expires_at": case((expired, values.excluded.expires_at),
                               else_=RATE_LIMITS.c.expires_at),
        }).returning(RATE_LIMITS.c.hits)


# Built once: every change saved is counted (web/site/limits.py), and building the statement at
# each count cost some 0.8 ms of Python, against 30 µs for SQLite to run it.
_COUNT = {"postgresql": _counting(postgresql.insert), "sqlite": _counting(sqlite.insert)}


class DatabaseStorage(Storage):
    """Counters in the `rate_limits` table of the database `engine` connects to (the app's
    `RosterStore` engine). `clock` is the time in seconds since the epoch; tests pass their
    own to move past a window without waiting for it."""

    # registers the class with `limits.storage.storage_from_string` (the base declares it)
    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, *,
                 engine: Engine, clock: Callable[[], float] = time.time,
                 **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        self.engine = engine
        self.clock = clock
        # On SQLite each statement is a transaction of its own (store/database.py's begin hook), so
        # the database's one write lock is held inside a single call into SQLite, never across
        # the interpreter's thread switches while other processes' writers wait; PostgreSQL
        # runs it in a transaction of its own, locking only the key's row.
        self._one_statement = engine.execution_options(sqlite_one_statement=True)
        self._next_sweep = clock() + SWEEP_EVERY
        self._sweep_lock = threading.Lock()

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count `amount` hits on the key; its count in the current window, these included."""
        now = self.clock()
        with self._one_statement.begin() as connection:
            count = int(connection.execute(_COUNT[connection.dialect.name], {
                "key": stored_key(key), "amount": amount, "expires": now + expiry,
                "now": now}).scalar_one())
        self._sweep_now_and_then(now)
        return count

    def get(self, key: str) -> int:
        """The key's count in its current window; 0 if it has none."""
        with self.engine.connect() as connection:
            found = connection.execute(
                select(RATE_LIMITS.c.hits).where(RATE_LIMITS.c.key == stored_key(key),
                                                 RATE_LIMITS.c.expires_at > self.clock())
            ).scalar_one_or_none()
        return int(found or 0)

    def get_expiry(self, key: str) -> float:
        """When the key's current window ends (seconds since the epoch); now if it has none,
        as `limits`' own storages answer."""
        now = self.clock()
        with self.engine.connect() as connection:
            found = connection.execute(
                select(RATE_LIMITS.c.expires_at).where(RATE_LIMITS.c.key == stored_key(key),
                                                       RATE_LIMITS.c.expires_at > now)
            ).scalar_one_or_none()
        return float(found) if found is not None else now

    def check(self) -> bool:
        """Whether the database answers (Flask-Limiter asks after a failure)."""
        try:
            with self.engine.connect() as connection:
                connection.execute(select(1)).scalar_one()
        except SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        """Forget every counter; how many there were."""
        with self._one_statement.begin() as connection:
            return int(connection.execute(delete(RATE_LIMITS)).rowcount)

    def clear(self, key: str) -> None:
        with self._one_statement.begin() as connection:
            connection.execute(delete(RATE_LIMITS).where(RATE_LIMITS.c.key == stored_key(key)))

    def sweep(self) -> int:
        """Remove the rows whose window has ended; how many. A row the upsert restarts at the
        same moment is not removed: its new window has not ended."""
        with self._one_statement.begin() as connection:
            return int(connection.execute(
                delete(RATE_LIMITS).where(RATE_LIMITS.c.expires_at <= self.clock())).rowcount)

    def _sweep_now_and_then(self, now: float) -> None:
        # Every client that made a limited request leaves a row; without a sweep the table
        # would keep one per address ever seen. Once every SWEEP_EVERY seconds per process is
        # a cheap indexed delete; one thread of the process does it.
        if now < self._next_sweep or not self._sweep_lock.acquire(blocking=False):
            return
        try:
            self._next_sweep = now + SWEEP_EVERY
            self.sweep()
        except SQLAlchemyError:  # the hit was counted; a sweep can wait for the next time
            log.warning("sweeping expired rate-limit counters failed", exc_info=True)
        finally:
            self._sweep_lock.release()
