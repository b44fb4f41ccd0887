"""Saved rosters, without accounts: each roster has a private edit token and a read-only share
token. SQLite by default, any SQLAlchemy URL (PostgreSQL for a shared deployment).

A roster is stored as its canonical YAML text (`dump_roster`), so the roster file format is the
one truth. Only a hash of the edit token is kept: a copy of the database gives no edit rights.
Saves carry the version they were based on; a stale one is refused (`StaleRoster`) and changes
nothing, so two tabs never silently overwrite each other. A deleted roster is only marked
(`deleted_at`) so it can be restored, and purged for good later (`purge_deleted`). Each save
is also kept, with what it changed in words, in the roster's history of its last saves
(`history`), which undo and redo on the roster page replay (engine/history.py).

The same database keeps finished PDFs (`cached_print`, `keep_print`), so every worker process
and every machine behind a load balancer shares one print cache, bounded in bytes.

The tables are made and changed by the migrations in `listbuilder/migrations`, never here.
"""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    Select,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine, Row, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from listbuilder.engine.history import HISTORY_KEPT, HistoryStep

EDIT_TOKEN_BYTES = 32  # 256 bits
SHARE_TOKEN_BYTES = 16  # 128 bits
MAX_TEXT = 640 * 1024  # the largest roster file the reader accepts (MAX_ROSTER_BYTES)
PRINT_CACHE_BYTES = 64 * 1024 * 1024  # the default bound of the shared print cache
BUSY_TIMEOUT_MS = 10_000  # how long an SQLite writer waits for another one before failing
TOUCH_EVERY = timedelta(minutes=1)  # a cached print's last use is written at most this often
HISTORY_LABEL = 120  # the longest description of a change kept with it
HISTORY_KINDS = ("edit", "undo", "redo")
# What our connections call themselves to PostgreSQL, so that `listbuilder db restore` can see
# a server on another machine (pg_stat_activity).
APPLICATION_NAME = "listbuilder"


class Base(DeclarativeBase):
    pass


class Links:
    """The columns of what is reached by links (a roster, a pack, a deleted pack's links): its
    id, the hash of its private edit link (the link itself is never kept) and its read-only
    share link. Each table gets columns of its own, and indexes named after it."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    edit_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    share_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)


class RosterRow(Links, Base):
    __tablename__ = "rosters"

    system: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # the id of the last change saved (given by the page's script): one sent again after its
    # answer was lost is recognised instead of applied twice
    last_edit: Mapped[str | None] = mapped_column(String(40), nullable=True)


class RosterListRow(Base):
    """A player's list of rosters, shared between their devices by a private link: the edit
    links sealed with a key only that link carries (web/collection.py), found by a digest
    of the link, so the database alone opens none of them."""

    __tablename__ = "roster_lists"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    lookup: Mapped[str] = mapped_column(String(64), unique=True)
    sealed: Mapped[bytes] = mapped_column(LargeBinary)
    version: Mapped[int] = mapped_column(Integer)
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RosterHistoryRow(Base):
    """A roster's text after one of its last saves (migration 0007): what undo and redo on
    the roster page replay (listbuilder/engine/history.py). The last HISTORY_KEPT are kept."""

    __tablename__ = "roster_history"

    roster_id: Mapped[int] = mapped_column(ForeignKey("rosters.id", ondelete="CASCADE"),
                                           primary_key=True)
    # version % HISTORY_KEPT: a save writes over the row of the save HISTORY_KEPT before it,
    # so the table holds a roster's last saves with no pruning step (one statement a save)
    slot: Mapped[int] = mapped_column(Integer, primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    label: Mapped[str] = mapped_column(String(HISTORY_LABEL))  # the change, in words
    kind: Mapped[str] = mapped_column(String(8))  # edit, undo or redo
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PrintRow(Base):
    __tablename__ = "print_cache"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    pdf: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class PrintJobRow(Base):
    """A print from the browser waiting in line, being laid out, or finished: what Huey's
    queue does not keep (`listbuilder.jobs.prints`: what to print, who asked, the place in
    line, which worker holds it, a failed print's problems)."""

    __tablename__ = "print_jobs"
    __table_args__ = (Index("ix_print_jobs_status_rank_turn_id", "status", "rank", "turn", "id"),
                      # a client's share of the line and its turn are counted from here
                      Index("ix_print_jobs_status_client_rank", "status", "client", "rank"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)  # the order within a turn
    key: Mapped[str] = mapped_column(String(64), unique=True, index=True)  # the print's key
    kind: Mapped[str] = mapped_column(String(16))
    job: Mapped[str] = mapped_column(Text)  # what to print, as JSON (jobs.prints.PrintJob)
    status: Mapped[str] = mapped_column(String(16))  # waiting, running, done, failed
    # the line is ordered by rank (0 a player waits for the PDF, 1 only its preview), then
    # turn (the client's prints of that rank before this one, migration 0012), then id
    rank: Mapped[int] = mapped_column(Integer, server_default="0")
    turn: Mapped[int] = mapped_column(Integer, server_default="0")
    problems: Mapped[str | None] = mapped_column(Text, nullable=True)  # failed: JSON list
    # the worker process laying it out (host:pid), which beats on `heartbeat`
    worker: Mapped[str | None] = mapped_column(String(64), nullable=True)
    attempts: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    heartbeat: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # who asked first: a keyed digest of the client's address, never the address (migration
    # 0010); a client's share of the line and its turn are counted by it
    client: Mapped[str | None] = mapped_column(String(64), nullable=True)


ROSTERS = cast(Table, RosterRow.__table__)

# The lookups and the save, built once: SQLAlchemy keeps a built statement's cache key, where
# building it again at each call cost a few percent of an edit.
_BY_EDIT_HASH = select(ROSTERS).where(ROSTERS.c.edit_hash == bindparam("edit_hash"),
                                      ROSTERS.c.deleted_at.is_(None))
_DELETED_BY_EDIT_HASH = select(ROSTERS).where(ROSTERS.c.edit_hash == bindparam("edit_hash"),
                                              ROSTERS.c.deleted_at.is_not(None))
_BY_SHARE = select(ROSTERS).where(ROSTERS.c.share_token == bindparam("share"),
                                  ROSTERS.c.deleted_at.is_(None))
_BY_ID = select(ROSTERS).where(ROSTERS.c.id == bindparam("roster_id"))
_SAVE = (update(ROSTERS)
         .where(ROSTERS.c.id == bindparam("roster_id"),
                ROSTERS.c.version == bindparam("base_version"), ROSTERS.c.deleted_at.is_(None))
         .values(name=bindparam("name"), text=bindparam("text"),
                 version=bindparam("new_version"), updated=bindparam("now"),
                 last_edit=bindparam("last_edit")))


HISTORY = cast(Table, RosterHistoryRow.__table__)


def _recording(dialect: Any) -> Any:
    """The statement that keeps a save in the roster's history, in its slot: over the row
    there, unless that row is newer (on SQLite a save's row is written after its update has
    committed, so a slower save's row may come after a later one's)."""
    statement = dialect.insert(HISTORY)
    return statement.on_conflict_do_update(
        index_elements=[HISTORY.c.roster_id, HISTORY.c.slot],
        set_={k: statement.excluded[k] for k in ("version", "text", "label", "kind", "created")},
        where=HISTORY.c.version < statement.excluded.version)


_RECORD = {"postgresql": _recording(postgresql), "sqlite": _recording(sqlite)}
_HISTORY_STEPS = (select(HISTORY.c.version, HISTORY.c.label, HISTORY.c.kind)
                  .where(HISTORY.c.roster_id == bindparam("roster_id"))
                  .order_by(HISTORY.c.version))
_HISTORY_TEXT = select(HISTORY.c.text).where(HISTORY.c.roster_id == bindparam("roster_id"),
                                             HISTORY.c.version == bindparam("version"))


def _utc(moment: datetime) -> datetime:
    # SQLite hands datetimes back without their zone; they were stored as UTC
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Stored:
    """A saved roster as read, detached from the database session."""

    id: int
    system: str
    name: str
    text: str
    version: int
    share_token: str
    updated: datetime
    deleted_at: datetime | None = None
    last_edit: str = ""  # the id of the last change saved from a page (RosterRow.last_edit)

    @classmethod
    def of(cls, row: RosterRow | Row[Any]) -> Stored:
        """From a mapped row or a plain result row with the same column names."""
        deleted = _utc(row.deleted_at) if row.deleted_at is not None else None
        return cls(row.id, row.system, row.name, row.text, row.version, row.share_token,
                   _utc(row.updated), deleted, row.last_edit or "")


class StaleRoster(Exception):
    """The roster was saved elsewhere since the version this save was based on."""

    def __init__(self, current: Stored) -> None:
        self.current = current
        super().__init__(f"roster {current.id} is at version {current.version}")


class RosterTooLarge(ValueError):
    pass


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


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
    """One engine's sessions, as every store takes them (rosters here, packs in
    pack_storage.py): `reading()` for reads, and `writing()`, a transaction that takes SQLite's
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


class RosterStore:
    """Create, find and save rosters; keep printed PDFs. Safe to share between threads (one
    session per call) and between processes (the database does the locking)."""

    def __init__(self, url: str, print_cache_bytes: int = PRINT_CACHE_BYTES) -> None:
        self.engine: Engine = make_engine(url)
        self.print_cache_bytes = print_cache_bytes
        self.sessions = Sessions(self.engine)
        self._one_statement = self.engine.execution_options(sqlite_one_statement=True)
        # what lives as long as the store and holds connections of its own (the print
        # queue's broker): closed with it
        self.also_close: list[Callable[[], object]] = []

    def close(self) -> None:
        for close in self.also_close:
            close()
        self.engine.dispose()

    # -- rosters ------------------------------------------------------------------------------

    def create(self, system: str, name: str, text: str) -> tuple[Stored, str]:
        """Save a new roster; returns it and its edit token (shown once, never stored)."""
        _check_size(text)
        token = secrets.token_urlsafe(EDIT_TOKEN_BYTES)
        now = _now()
        row = RosterRow(edit_hash=hash_token(token),
                        share_token=secrets.token_urlsafe(SHARE_TOKEN_BYTES),
                        system=system, name=name, text=text, version=1, created=now,
                        updated=now)
        with self.sessions.writing() as session:
            session.add(row)
            session.flush()  # its id, for the history's first row: what the first undo restores
            _record(session.connection(), row.id, 1, text, "", "edit", now)
        return Stored.of(row), token

    def by_edit_token(self, token: str) -> Stored | None:
        """The roster this edit token opens, unless it was deleted."""
        if not _plausible(token):
            return None
        return self._one(_BY_EDIT_HASH, edit_hash=hash_token(token))

    def deleted_by_edit_token(self, token: str) -> Stored | None:
        """The deleted (not yet purged) roster this edit token opened: what an undo restores."""
        if not _plausible(token):
            return None
        return self._one(_DELETED_BY_EDIT_HASH, edit_hash=hash_token(token))

    def by_share_token(self, token: str) -> Stored | None:
        if not _plausible(token):
            return None
        return self._one(_BY_SHARE, share=token)

    def by_edit_tokens(self, tokens: list[str]) -> list[tuple[str, Stored]]:
        """The rosters these edit tokens open, in the tokens' order; unknown and deleted ones
        left out."""
        hashes = {hash_token(t): t for t in tokens if _plausible(t)}
        if not hashes:
            return []
        # plain rows, not mapped objects: this runs on every page (the "my rosters" list)
        with self.engine.connect() as connection:
            rows = connection.execute(select(ROSTERS).where(ROSTERS.c.edit_hash.in_(hashes),
                                                            ROSTERS.c.deleted_at.is_(None)))
            found = {hashes[r.edit_hash]: Stored.of(r) for r in rows}
        return [(t, found[t]) for t in tokens if t in found]

    def save(self, roster_id: int, base_version: int, name: str, text: str,
             read: Stored | None = None, edit_id: str = "", label: str = "",
             kind: str = "edit") -> Stored:
        """Store a new text for the roster, if nobody saved it since `base_version`. A deleted
        roster can't be saved (LookupError) until it is restored. `read`, the roster as this
        request read it, spares reading it back when the save lands; `edit_id`, the change's
        own id, is remembered as the roster's last change. The save is kept in the roster's
        history with `label` (the change in words) and `kind` (edit, undo or redo)."""
        _check_size(text)
        if kind not in HISTORY_KINDS:
            raise ValueError(f"a save is one of {HISTORY_KINDS}, not {kind!r}")
        now = _now()
        # Every edit comes here. On SQLite the conditional update is a transaction of its own:
        # the database's one write lock is then held inside a single call into SQLite, never
        # across a wait for the interpreter lock, which in a busy worker lasts milliseconds
        # while every other process's writer waits (in a transaction, it did: a quarter of an
        # edit's time under 50 players went to BEGIN IMMEDIATE). The read after it needs no
        # lock (WAL). PostgreSQL runs both in one transaction, locking only this row.
        with self._one_statement.begin() as connection:
            changed = connection.execute(_SAVE, {
                "roster_id": roster_id, "base_version": base_version, "name": name,
                "text": text, "new_version": base_version + 1, "now": now,
                "last_edit": edit_id or None}).rowcount
            if changed == 1:
                # on PostgreSQL in the save's transaction; on SQLite a statement of its own
                # after it, for the same reason as the update's (a row lost between the two
                # leaves a gap, where the history's replay starts afresh)
                _record(connection, roster_id, base_version + 1, text, label, kind, now)
            landed = changed == 1 and read is not None and read.id == roster_id
            row = None if landed else connection.execute(_BY_ID, {"roster_id": roster_id}).first()
        known = read if landed else Stored.of(row) if row is not None else None
        if known is None:
            raise LookupError(f"roster {roster_id} does not exist")
        if changed == 1:
            # the answer is what this update wrote (the rest of a roster's row never changes):
            # on SQLite another save may have followed before the read back, and this one's
            # version is still the one to answer with (its page then meets that one as stale)
            return replace(known, name=name, text=text, version=base_version + 1,
                           updated=now, deleted_at=None, last_edit=edit_id)
        if known.deleted_at is not None:
            raise LookupError(f"roster {roster_id} does not exist")
        raise StaleRoster(known)

    def history(self, roster_id: int) -> list[HistoryStep]:
        """The roster's last saves kept (at most HISTORY_KEPT), oldest first, without texts."""
        with self._one_statement.connect() as connection:  # see `_one`
            return [HistoryStep(int(r.version), r.label, r.kind) for r in
                    connection.execute(_HISTORY_STEPS, {"roster_id": roster_id})]

    def history_text(self, roster_id: int, version: int) -> str | None:
        """The roster's text as that save left it, while the history keeps it."""
        with self.engine.connect() as connection:
            found = connection.execute(_HISTORY_TEXT, {"roster_id": roster_id,
                                                       "version": version}).scalar()
        return str(found) if found is not None else None

    def delete(self, roster_id: int) -> Stored:
        """Mark the roster deleted: no link opens it and no list shows it, until `restore` or
        `purge_deleted`. Deleting a deleted roster keeps its first deletion time."""
        with self.sessions.writing() as session:
            session.execute(update(RosterRow)
                            .where(RosterRow.id == roster_id, RosterRow.deleted_at.is_(None))
                            .values(deleted_at=_now()))
            return Stored.of(_existing(session, roster_id, deleted_too=True))

    def restore(self, roster_id: int) -> Stored:
        """Undo `delete`: the roster opens by its links again, as it was."""
        with self.sessions.writing() as session:
            session.execute(update(RosterRow).where(RosterRow.id == roster_id)
                            .values(deleted_at=None))
            return Stored.of(_existing(session, roster_id))

    def purge_deleted(self, older_than: timedelta) -> int:
        """Remove for good the rosters deleted more than `older_than` ago; how many."""
        with self.sessions.writing() as session:
            result = session.execute(delete(RosterRow).where(
                RosterRow.deleted_at.is_not(None), RosterRow.deleted_at < _now() - older_than))
            return int(getattr(result, "rowcount", 0))

    def _one(self, statement: Select[Any], **params: object) -> Stored | None:
        # One SELECT reads one snapshot on its own: on SQLite it needs no BEGIN around it,
        # which added about a sixth to each read (every edit opens its roster this way)
        with self._one_statement.connect() as connection:
            row = connection.execute(statement, params).first()
            return Stored.of(row) if row is not None else None

    # -- lists of rosters shared between devices ----------------------------------------------

    def roster_list(self, lookup: str) -> tuple[bytes, int] | None:
        """The sealed list found by this digest, and its version; None if there is none."""
        with self.engine.connect() as connection:
            row = connection.execute(select(RosterListRow.sealed, RosterListRow.version)
                                     .where(RosterListRow.lookup == lookup)).first()
        return (bytes(row[0]), int(row[1])) if row is not None else None

    def put_roster_list(self, lookup: str, sealed: bytes, base_version: int | None) -> bool:
        """Store a sealed list: a new one (`base_version` None), or a new version of one still
        at `base_version`. False when another device saved it meanwhile (read it again)."""
        now = _now()
        with self.sessions.writing() as session:
            if base_version is None:
                session.add(RosterListRow(lookup=lookup, sealed=sealed, version=1, updated=now))
                return True
            changed = session.execute(
                update(RosterListRow)
                .where(RosterListRow.lookup == lookup, RosterListRow.version == base_version)
                .values(sealed=sealed, version=base_version + 1, updated=now))
            return int(getattr(changed, "rowcount", 0)) == 1

    # -- the print cache ----------------------------------------------------------------------

    def cached_print(self, key: str) -> bytes | None:
        """The PDF kept under this key, or None. A hit counts as a use for eviction."""
        with self.sessions.reading() as session:
            found = session.execute(select(PrintRow.pdf, PrintRow.last_used)
                                    .where(PrintRow.key == key)).first()
        if found is None:
            return None
        pdf, last_used = found
        now = _now()
        if _utc(last_used) < now - TOUCH_EVERY:  # a popular print is not a write per request
            with self.sessions.writing() as session:
                session.execute(update(PrintRow).where(PrintRow.key == key)
                                .values(last_used=now))
        return bytes(pdf)

    def keep_print(self, key: str, data: bytes) -> None:
        """Keep a PDF under this key; the least recently used ones go when all of them
        together pass `print_cache_bytes`. A PDF larger than the whole bound is not kept."""
        if len(data) > self.print_cache_bytes:
            return
        now = _now()
        with self.sessions.writing() as session:
            session.execute(_upsert(session, {"key": key, "pdf": data, "size": len(data),
                                              "created": now, "last_used": now}))
            total = session.scalar(select(func.coalesce(func.sum(PrintRow.size), 0)))
            if int(total or 0) <= self.print_cache_bytes:
                return
            kept, evicted = len(data), []  # this one stays: it is the newest use
            newest_first = select(PrintRow.key, PrintRow.size).where(PrintRow.key != key) \
                .order_by(PrintRow.last_used.desc(), PrintRow.created.desc())
            for row_key, size in session.execute(newest_first):
                kept += size
                if kept > self.print_cache_bytes:
                    evicted.append(row_key)
            for start in range(0, len(evicted), 500):
                session.execute(delete(PrintRow).where(
                    PrintRow.key.in_(evicted[start:start + 500])))

    def print_cache_size(self) -> tuple[int, int]:
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


def _record(connection: Connection, roster_id: int, version: int, text: str, label: str,
            kind: str, now: datetime) -> None:
    """Keep a save in the roster's history, over the save HISTORY_KEPT before it."""
    connection.execute(_RECORD[connection.dialect.name], {
        "roster_id": roster_id, "slot": version % HISTORY_KEPT, "version": version,
        "text": text, "label": label[:HISTORY_LABEL], "kind": kind, "created": now})


def _existing(session: Session, roster_id: int, deleted_too: bool = False) -> RosterRow:
    row = session.scalars(select(RosterRow).where(RosterRow.id == roster_id)).first()
    if row is None or (row.deleted_at is not None and not deleted_too):
        raise LookupError(f"roster {roster_id} does not exist")
    return row


def _plausible(token: str) -> bool:
    return bool(token) and len(token) <= 100


def _check_size(text: str) -> None:
    if len(text.encode("utf-8")) > MAX_TEXT:
        raise RosterTooLarge(f"the roster is larger than {MAX_TEXT // 1024} KB")


# -- faction packs (the store is listbuilder/pack_storage.py) ------------------------------

class PackRow(Links, Base):
    """A faction pack made in the studio, kept like a roster (migration 0008)."""

    __tablename__ = "packs"

    system: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PackVersionRow(Base):
    """The texts a pack was saved with, found by their revision (a digest of the text): its
    last pack_storage.VERSIONS_KEPT saves."""

    __tablename__ = "pack_versions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    pack_id: Mapped[int] = mapped_column(ForeignKey("packs.id", ondelete="CASCADE"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    revision: Mapped[str] = mapped_column(String(12))
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    saved: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PackTombstoneRow(Links, Base):
    """What is left of a pack its owner deleted (migration 0009): only its links, so that
    they answer "deleted by its owner" rather than "no such pack". Its name and texts go."""

    __tablename__ = "pack_tombstones"

    deleted: Mapped[datetime] = mapped_column(DateTime(timezone=True))


# -- matches (the store is listbuilder/match_storage.py) ------------------------------------

class MatchRow(Base):
    """A match at the table (migration 0011): its players' rosters and options as the match
    file's header, a private link for each side (only their hashes) and a read-only link for
    spectators. `version` counts every change, so a phone polling it sees one at once."""

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    side1_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    # None: a solo game, one side played here
    side2_hash: Mapped[str | None] = mapped_column(String(64), unique=True, index=True,
                                                   nullable=True)
    watch_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    system: Mapped[str] = mapped_column(String(40))
    header: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MatchEventRow(Base):
    """One event of a match's log, in order (`seq` from 1), as the match file writes it."""

    __tablename__ = "match_events"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    data: Mapped[str] = mapped_column(Text)  # the event's mapping, as JSON
    event_id: Mapped[str | None] = mapped_column(String(40), nullable=True)
    side: Mapped[int | None] = mapped_column(Integer, nullable=True)  # whose phone sent it
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MatchSpentIdRow(Base):
    """An event id a match has recorded, and whose phone sent it (migration 0013): kept when
    the event is undone, so a phone's retry of an undone tap is never recorded again."""

    __tablename__ = "match_spent_ids"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"),
                                          primary_key=True)
    event_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    side: Mapped[int | None] = mapped_column(Integer, nullable=True)
