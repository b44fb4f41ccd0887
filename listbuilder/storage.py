"""Saved rosters, without accounts: each roster has a private edit token and a read-only share
token. SQLite by default, any SQLAlchemy URL (PostgreSQL for a shared deployment).

A roster is stored as its canonical YAML text (`dump_roster`), so the roster file format is the
one truth. Only a hash of the edit token is kept: a copy of the database gives no edit rights.
Saves carry the version they were based on; a stale one is refused (`StaleRoster`) and changes
nothing, so two tabs never silently overwrite each other.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import DateTime, Integer, String, Text, create_engine, select, update
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.sql.elements import ColumnElement

EDIT_TOKEN_BYTES = 32  # 256 bits
SHARE_TOKEN_BYTES = 16  # 128 bits
MAX_TEXT = 256 * 1024  # the largest roster file the reader accepts


class Base(DeclarativeBase):
    pass


class RosterRow(Base):
    __tablename__ = "rosters"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    edit_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    share_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    system: Mapped[str] = mapped_column(String(40))
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


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

    @classmethod
    def of(cls, row: RosterRow) -> Stored:
        # SQLite hands datetimes back without their zone; they were stored as UTC
        updated = row.updated if row.updated.tzinfo else row.updated.replace(tzinfo=UTC)
        return cls(row.id, row.system, row.name, row.text, row.version, row.share_token,
                   updated)


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


class RosterStore:
    """Create, find and save rosters. Safe to share between threads (one session per call)."""

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        self.engine: Engine = create_engine(url)
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        Base.metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def create(self, system: str, name: str, text: str) -> tuple[Stored, str]:
        """Save a new roster; returns it and its edit token (shown once, never stored)."""
        _check_size(text)
        token = secrets.token_urlsafe(EDIT_TOKEN_BYTES)
        now = _now()
        row = RosterRow(edit_hash=hash_token(token),
                        share_token=secrets.token_urlsafe(SHARE_TOKEN_BYTES),
                        system=system, name=name, text=text, version=1, created=now,
                        updated=now)
        with self._session.begin() as session:
            session.add(row)
        return Stored.of(row), token

    def by_edit_token(self, token: str) -> Stored | None:
        if not token or len(token) > 100:
            return None
        return self._one(RosterRow.edit_hash == hash_token(token))

    def by_share_token(self, token: str) -> Stored | None:
        if not token or len(token) > 100:
            return None
        return self._one(RosterRow.share_token == token)

    def by_edit_tokens(self, tokens: list[str]) -> list[tuple[str, Stored]]:
        """The rosters these edit tokens open, in the tokens' order; unknown ones left out."""
        hashes = {hash_token(t): t for t in tokens if t and len(t) <= 100}
        if not hashes:
            return []
        with Session(self.engine) as session:
            rows = session.scalars(select(RosterRow).where(RosterRow.edit_hash.in_(hashes)))
            found = {hashes[r.edit_hash]: Stored.of(r) for r in rows}
        return [(t, found[t]) for t in tokens if t in found]

    def save(self, roster_id: int, base_version: int, name: str, text: str) -> Stored:
        """Store a new text for the roster, if nobody saved it since `base_version`."""
        _check_size(text)
        with self._session.begin() as session:
            result = session.execute(
                update(RosterRow)
                .where(RosterRow.id == roster_id, RosterRow.version == base_version)
                .values(name=name, text=text, version=base_version + 1, updated=_now()))
            changed = getattr(result, "rowcount", 0)
            row = session.scalars(select(RosterRow).where(RosterRow.id == roster_id)).first()
            if row is None:
                raise LookupError(f"roster {roster_id} does not exist")
            current = Stored.of(row)
        if changed != 1:
            raise StaleRoster(current)
        return current

    def _one(self, condition: ColumnElement[bool]) -> Stored | None:
        with Session(self.engine) as session:
            row = session.scalars(select(RosterRow).where(condition)).first()
            return Stored.of(row) if row is not None else None


def _check_size(text: str) -> None:
    if len(text.encode("utf-8")) > MAX_TEXT:
        raise RosterTooLarge(f"the roster is larger than {MAX_TEXT // 1024} KB")
