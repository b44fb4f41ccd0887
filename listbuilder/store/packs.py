"""Saved faction packs, kept like rosters: a private edit token (only its hash is stored), a
read-only share token, and versions.

Every save keeps the text it saved as a version (`pack_versions`), found by its revision (a
digest of the text), so a roster that used a pack can name the exact text it was built with
and show what changed since. The tables are made by migration 0008. A pack keeps its last
VERSIONS_KEPT versions, as a roster keeps its last saves (engine.history.HISTORY_KEPT): a save past
that removes the oldest in its own transaction, so saving a pack again and again can't grow
the database (200 saves of a 120 KB pack added 20 MB when every version was kept).

Deleting a pack removes it and all its versions for good (no undo: the owner asked, on a page
that says so). Only its links stay, in `pack_tombstones` (migration 0009), so that they answer
"deleted by its owner" instead of "no such pack"; a roster that used it carries its text whole
and keeps working.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine

from listbuilder.engine.history import HISTORY_KEPT
from listbuilder.engine.packs import MAX_PACK_BYTES, pack_revision
from listbuilder.store.database import Sessions, now, utc
from listbuilder.store.links import (
    Stale,
    StoredText,
    check_size,
    hash_token,
    new_linked,
    plausible,
    text_columns,
)
from listbuilder.store.tables import PackRow, PackTombstoneRow, PackVersionRow

# The same count as a roster's history: a pack's author undoes and compares over the same
# span of saves as a roster's, and one bound per saved thing keeps the database's growth
# per save the same whichever is saved (docs/hostile-input.md).
VERSIONS_KEPT = HISTORY_KEPT


@dataclass(frozen=True)
class StoredPack(StoredText):
    @property
    def revision(self) -> str:
        return pack_revision(self.text)

    @classmethod
    def of(cls, row: PackRow) -> StoredPack:
        return cls(*text_columns(row))


@dataclass(frozen=True)
class PackVersion:
    version: int
    revision: str
    name: str
    saved: datetime


class StalePack(Stale[StoredPack]):
    """The pack was saved elsewhere since the version this save was based on."""

    what = "pack"


class PackTooLarge(ValueError):
    pass


class PackStore:
    """Create, find and save packs, in the rosters' database."""

    def __init__(self, engine: Engine) -> None:
        self.sessions = Sessions(engine)

    def create(self, system: str, name: str, text: str) -> tuple[StoredPack, str]:
        """Save a new pack at version 1; returns it and its edit token (never stored)."""
        _check_size(text)
        row, token = new_linked(PackRow, system=system, name=name, text=text)
        with self.sessions.writing() as session:
            session.add(row)
            session.flush()
            session.add(_version_row(row))
        return StoredPack.of(row), token

    def by_edit_token(self, token: str) -> StoredPack | None:
        if not plausible(token):
            return None
        return self._one(PackRow.edit_hash == hash_token(token))

    def by_share_token(self, token: str) -> StoredPack | None:
        if not plausible(token):
            return None
        return self._one(PackRow.share_token == token)

    def save(self, pack_id: int, base_version: int, name: str, text: str) -> StoredPack:
        """Store a new text, if nobody saved the pack since `base_version` (else StalePack)."""
        _check_size(text)
        with self.sessions.writing() as session:
            result = session.execute(
                update(PackRow).where(PackRow.id == pack_id, PackRow.version == base_version)
                .values(name=name, text=text, version=base_version + 1, updated=now()))
            changed = int(getattr(result, "rowcount", 0))
            row = session.scalars(select(PackRow).where(PackRow.id == pack_id)).first()
            if row is None:
                raise LookupError(f"pack {pack_id} does not exist")
            if changed != 1:
                raise StalePack(StoredPack.of(row))
            session.add(_version_row(row))
            # by version number, not by counting rows: one delete on the pack's index
            session.execute(delete(PackVersionRow).where(
                PackVersionRow.pack_id == pack_id,
                PackVersionRow.version <= row.version - VERSIONS_KEPT))
            return StoredPack.of(row)

    def versions(self, pack_id: int) -> list[PackVersion]:
        """The versions kept (the last VERSIONS_KEPT), newest first."""
        with self.sessions.reading() as session:
            rows = session.execute(
                select(PackVersionRow.version, PackVersionRow.revision, PackVersionRow.name,
                       PackVersionRow.saved)
                .where(PackVersionRow.pack_id == pack_id)
                .order_by(PackVersionRow.version.desc())).all()
        return [PackVersion(v, r, n, utc(s)) for v, r, n, s in rows]

    def text_at(self, pack_id: int, revision: str) -> str | None:
        """The pack's text as it was at `revision` (a roster built with it names it), while
        that version is kept; a roster carries its pack's text whole, so it never needs this."""
        with self.sessions.reading() as session:
            return session.scalars(
                select(PackVersionRow.text)
                .where(PackVersionRow.pack_id == pack_id, PackVersionRow.revision == revision)
                .limit(1)).first()

    def delete(self, pack_id: int) -> None:
        """Remove the pack and every version of it; keep its links as a tombstone. Deleting
        one already gone does nothing."""
        with self.sessions.writing() as session:
            # locked (on PostgreSQL): a second delete at the same time waits, then finds
            # nothing, instead of failing on the tombstone's unique links
            row = session.scalars(select(PackRow).where(PackRow.id == pack_id)
                                  .with_for_update()).first()
            if row is None:
                return
            session.add(PackTombstoneRow(edit_hash=row.edit_hash, share_token=row.share_token,
                                         deleted=now()))
            # the versions go by name, not by the foreign key's cascade, which SQLite applies
            # only on connections that turned foreign keys on
            session.execute(delete(PackVersionRow).where(PackVersionRow.pack_id == pack_id))
            session.execute(delete(PackRow).where(PackRow.id == pack_id))

    def deleted_by_edit_token(self, token: str) -> datetime | None:
        """When the pack this edit link opened was deleted; None if it was not."""
        if not plausible(token):
            return None
        return self._deleted(PackTombstoneRow.edit_hash == hash_token(token))

    def deleted_by_share_token(self, token: str) -> datetime | None:
        """When the pack this share link opened was deleted; None if it was not."""
        if not plausible(token):
            return None
        return self._deleted(PackTombstoneRow.share_token == token)

    def _deleted(self, where: object) -> datetime | None:
        with self.sessions.reading() as session:
            found = session.scalars(select(PackTombstoneRow.deleted)
                                    .where(where)).first()  # type: ignore[arg-type]
        return utc(found) if found is not None else None

    def _one(self, where: object) -> StoredPack | None:
        with self.sessions.reading() as session:
            row = session.scalars(select(PackRow).where(where)).first()  # type: ignore[arg-type]
            return StoredPack.of(row) if row is not None else None


def _version_row(row: PackRow) -> PackVersionRow:
    return PackVersionRow(pack_id=row.id, version=row.version, revision=pack_revision(row.text),
                          name=row.name, text=row.text, saved=row.updated)


def _check_size(text: str) -> None:
    check_size(text, MAX_PACK_BYTES, PackTooLarge, "the pack",
               "split it into packs of one faction each")
