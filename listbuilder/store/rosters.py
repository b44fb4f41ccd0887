"""Saved rosters, without accounts: each roster has a private edit token and a read-only share
token. SQLite by default, any SQLAlchemy URL (PostgreSQL for a shared deployment).

A roster is stored as its canonical YAML text (`dump_roster`), so the roster file format is the
one truth. Only a hash of the edit token is kept: a copy of the database gives no edit rights.
Saves carry the version they were based on; a stale one is refused (`StaleRoster`) and changes
nothing, so two tabs never silently overwrite each other. A deleted roster is only marked
(`deleted_at`) so it can be restored, and purged for good later (`purge_deleted`). Each save
is also kept, with what it changed in words, in the roster's history of its last saves
(`history`), which undo and redo on the roster page replay (engine/history.py).

The store also opens the database for the others that share it (`engine`), and keeps the
print cache (`prints`, store/print_cache.py). The tables are in store/tables.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import Select, Table, bindparam, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.orm import Session

from listbuilder.engine.history import HISTORY_KEPT, HistoryStep
from listbuilder.store.database import Sessions, make_engine, utc
from listbuilder.store.database import now as moment
from listbuilder.store.links import (
    Stale,
    StoredText,
    check_size,
    hash_token,
    new_linked,
    plausible,
    text_columns,
)
from listbuilder.store.print_cache import PRINT_CACHE_BYTES, PrintCache
from listbuilder.store.tables import HISTORY_LABEL, RosterHistoryRow, RosterListRow, RosterRow

MAX_TEXT = 640 * 1024  # the largest roster file the reader accepts (MAX_ROSTER_BYTES)
HISTORY_KINDS = ("edit", "undo", "redo")

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


@dataclass(frozen=True)
class Stored(StoredText):
    """A saved roster as read, detached from the database session."""

    deleted_at: datetime | None = None
    last_edit: str = ""  # the id of the last change saved from a page (RosterRow.last_edit)

    @classmethod
    def of(cls, row: RosterRow | Row[Any]) -> Stored:
        """From a mapped row or a plain result row with the same column names."""
        deleted = utc(row.deleted_at) if row.deleted_at is not None else None
        return cls(*text_columns(row), deleted, row.last_edit or "")


class StaleRoster(Stale[Stored]):
    """The roster was saved elsewhere since the version this save was based on."""

    what = "roster"


class RosterTooLarge(ValueError):
    pass


class RosterStore:
    """Create, find and save rosters; keep printed PDFs. Safe to share between threads (one
    session per call) and between processes (the database does the locking)."""

    def __init__(self, url: str, print_cache_bytes: int = PRINT_CACHE_BYTES) -> None:
        self.engine: Engine = make_engine(url)
        self.prints = PrintCache(self.engine, print_cache_bytes)
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
        row, token = new_linked(RosterRow, system=system, name=name, text=text)
        with self.sessions.writing() as session:
            session.add(row)
            session.flush()  # its id, for the history's first row: what the first undo restores
            _record(session.connection(), row.id, 1, text, "", "edit", row.created)
        return Stored.of(row), token

    def by_edit_token(self, token: str) -> Stored | None:
        """The roster this edit token opens, unless it was deleted."""
        if not plausible(token):
            return None
        return self._one(_BY_EDIT_HASH, edit_hash=hash_token(token))

    def deleted_by_edit_token(self, token: str) -> Stored | None:
        """The deleted (not yet purged) roster this edit token opened: what an undo restores."""
        if not plausible(token):
            return None
        return self._one(_DELETED_BY_EDIT_HASH, edit_hash=hash_token(token))

    def by_share_token(self, token: str) -> Stored | None:
        if not plausible(token):
            return None
        return self._one(_BY_SHARE, share=token)

    def by_edit_tokens(self, tokens: list[str]) -> list[tuple[str, Stored]]:
        """The rosters these edit tokens open, in the tokens' order; unknown and deleted ones
        left out."""
        hashes = {hash_token(t): t for t in tokens if plausible(t)}
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
        now = moment()
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
                            .values(deleted_at=moment()))
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
                RosterRow.deleted_at.is_not(None), RosterRow.deleted_at < moment() - older_than))
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
        now = moment()
        with self.sessions.writing() as session:
            if base_version is None:
                session.add(RosterListRow(lookup=lookup, sealed=sealed, version=1, updated=now))
                return True
            changed = session.execute(
                update(RosterListRow)
                .where(RosterListRow.lookup == lookup, RosterListRow.version == base_version)
                .values(sealed=sealed, version=base_version + 1, updated=now))
            return int(getattr(changed, "rowcount", 0)) == 1

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


def _check_size(text: str) -> None:
    check_size(text, MAX_TEXT, RosterTooLarge, "the roster")
