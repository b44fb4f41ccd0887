"""Finished PDFs, kept in the database every process shares, so that every worker process
and every machine behind a load balancer shares one print cache, bounded in bytes: the least
recently used prints go first."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from listbuilder.store.database import Sessions, now, utc
from listbuilder.store.tables import PrintRow

PRINT_CACHE_BYTES = 64 * 1024 * 1024  # the default bound of the shared print cache
TOUCH_EVERY = timedelta(minutes=1)  # a cached print's last use is written at most this often


class PrintCache:
    """PDFs by key (what was printed, and how), at most `most` bytes of them together."""

    def __init__(self, engine: Engine, most: int = PRINT_CACHE_BYTES) -> None:
        self.sessions = Sessions(engine)
        self.most = most

    def cached(self, key: str) -> bytes | None:
        """The PDF kept under this key, or None. A hit counts as a use for eviction."""
        with self.sessions.reading() as session:
            found = session.execute(select(PrintRow.pdf, PrintRow.last_used)
                                    .where(PrintRow.key == key)).first()
        if found is None:
            return None
        pdf, last_used = found
        moment = now()
        if utc(last_used) < moment - TOUCH_EVERY:  # a popular print is not a write per request
            with self.sessions.writing() as session:
                session.execute(update(PrintRow).where(PrintRow.key == key)
                                .values(last_used=moment))
        return bytes(pdf)

    def keep(self, key: str, data: bytes) -> None:
        """Keep a PDF under this key; the least recently used ones go when all of them
        together pass `most`. A PDF larger than the whole bound is not kept."""
        if len(data) > self.most:
            return
        moment = now()
        with self.sessions.writing() as session:
            session.execute(_upsert(session, {"key": key, "pdf": data, "size": len(data),
                                              "created": moment, "last_used": moment}))
            total = session.scalar(select(func.coalesce(func.sum(PrintRow.size), 0)))
            if int(total or 0) <= self.most:
                return
            kept, evicted = len(data), []  # this one stays: it is the newest use
            newest_first = select(PrintRow.key, PrintRow.size).where(PrintRow.key != key) \
                .order_by(PrintRow.last_used.desc(), PrintRow.created.desc())
            for row_key, size in session.execute(newest_first):
                kept += size
                if kept > self.most:
                    evicted.append(row_key)
            for start in range(0, len(evicted), 500):
                session.execute(delete(PrintRow).where(
                    PrintRow.key.in_(evicted[start:start + 500])))

    def size(self) -> tuple[int, int]:
        """How many PDFs the cache keeps, and their bytes together."""
        with self.sessions.reading() as session:
            count, total = session.execute(
                select(func.count(), func.coalesce(func.sum(PrintRow.size), 0))).one()
        return int(count), int(total)


def _upsert(session: Session, values: dict[str, Any]) -> Any:
    """Insert the row, or replace the one with its key: two workers may keep the same print."""
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = insert(PrintRow).values(**values)
    return statement.on_conflict_do_update(
        index_elements=[PrintRow.key],
        set_={k: statement.excluded[k] for k in values if k != "key"})
