"""Every table the app keeps, as SQLAlchemy rows. The migrations in
`store/admin/migrations` make and change them, never the app: a row here and its migration
change together, and tests/store/test_migrations.py checks that they agree."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    Double,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

HISTORY_LABEL = 120  # the longest description of a change kept with it
MAX_KEY = 255  # a rate-limit key's length; longer keys are stored as their hash


class Base(DeclarativeBase):
    pass


class Links:
    """The columns of what is reached by links (a roster, a pack, a deleted pack's links): its
    id, the hash of its private edit link (the link itself is never kept) and its read-only
    share link. Each table gets columns of its own, and indexes named after it."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    edit_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    share_token: Mapped[str] = mapped_column(String(64), unique=True, index=True)


class Versions:
    """The columns of what is changed by many hands at once (a roster, a pack, a match): its
    game, and `version`, counted up by each save, which a save based on an older one loses to
    (store/links.py `Stale`)."""

    system: Mapped[str] = mapped_column(String(40))
    version: Mapped[int] = mapped_column(Integer, default=1)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class NamedText(Versions):
    """A roster's or a pack's: a file of text with the name its owner gave it."""

    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)


class RosterRow(Links, NamedText, Base):
    __tablename__ = "rosters"

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
    queue does not keep (`listbuilder.jobs.ledger`: what to print, who asked, the place in
    line, which worker holds it, a failed print's problems)."""

    __tablename__ = "print_jobs"
    __table_args__ = (Index("ix_print_jobs_status_rank_turn_id", "status", "rank", "turn", "id"),
                      # a client's share of the line and its turn are counted from here
                      Index("ix_print_jobs_status_client_rank", "status", "client", "rank"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)  # the order within a turn
    key: Mapped[str] = mapped_column(String(64), unique=True, index=True)  # the print's key
    kind: Mapped[str] = mapped_column(String(16))
    job: Mapped[str] = mapped_column(Text)  # what to print, as JSON (jobs.print_job.PrintJob)
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


# -- faction packs (store/packs.py) ---------------------------------------------------------

class PackRow(Links, NamedText, Base):
    """A faction pack made in the studio, kept like a roster (migration 0008)."""

    __tablename__ = "packs"


class PackVersionRow(Base):
    """The texts a pack was saved with, found by their revision (a digest of the text): its
    last packs.VERSIONS_KEPT saves."""

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


# -- matches (store/matches.py) -------------------------------------------------------------

class MatchRow(Versions, Base):
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
    header: Mapped[str] = mapped_column(Text)


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


# -- events (store/events.py) ----------------------------------------------------------------

class EventRow(Links, Versions, Base):
    """A club's night, league or tournament (migration 0014): the organiser's private link
    (only its hash), the players' public link, and what the organiser set. `rounds` None is a
    league, played night after night; `seed` orders the first round's pairing."""

    __tablename__ = "events"

    name: Mapped[str] = mapped_column(String(80))
    points_limit: Mapped[int | None] = mapped_column(Integer, nullable=True)
    packs: Mapped[str] = mapped_column(Text)  # the packs allowed, as JSON: share link -> name
    data_revision: Mapped[str] = mapped_column(String(40))
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    deadline: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    seed: Mapped[int] = mapped_column(Integer)


class EventListRow(Base):
    """A list sealed for an event (engine/events/sealing.py): one a roster, replaced when its
    player hands it in again before the deadline. `code` opens its read-only verify page."""

    __tablename__ = "event_lists"
    __table_args__ = (UniqueConstraint("event_id", "roster_id",
                                       name="uq_event_lists_event_id_roster_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    roster_id: Mapped[int] = mapped_column(Integer)  # the roster it came from; may be gone
    player: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64))
    data_revision: Mapped[str] = mapped_column(String(40))
    state: Mapped[str] = mapped_column(String(10))  # legal, illegal, empty
    problems: Mapped[str] = mapped_column(Text)  # each in words, as JSON
    # the event's own terms broken (migration 0015), in words, as JSON
    flags: Mapped[str] = mapped_column(Text, server_default="[]")
    code: Mapped[str] = mapped_column(String(16), unique=True, index=True)
    submitted: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class EventGameRow(Base):
    """One table of a round: its two lists (`second` None: a bye) and, once reported, who won
    (1, 2, or None with `reported` set: a draw) and each side's score by the game's count."""

    __tablename__ = "event_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    round: Mapped[int] = mapped_column(Integer)
    table_no: Mapped[int] = mapped_column(Integer)
    first_id: Mapped[int] = mapped_column(ForeignKey("event_lists.id", ondelete="CASCADE"))
    second_id: Mapped[int | None] = mapped_column(
        ForeignKey("event_lists.id", ondelete="CASCADE"), nullable=True)
    match_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    score1: Mapped[int] = mapped_column(Integer, default=0)
    score2: Mapped[int] = mapped_column(Integer, default=0)
    reported: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class EventChangeRow(Base):
    """What was changed by hand in an event (a result entered or corrected), in words, when."""

    __tablename__ = "event_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"),
                                          index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    words: Mapped[str] = mapped_column(Text)


# -- rate limits (store/ratelimit.py) ---------------------------------------------------------

class RateLimitRow(Base):
    __tablename__ = "rate_limits"

    key: Mapped[str] = mapped_column(String(MAX_KEY), primary_key=True)
    hits: Mapped[int] = mapped_column(Integer)
    # seconds since the epoch (a float, as `limits` counts time); indexed for the sweep
    expires_at: Mapped[float] = mapped_column(Double, index=True)
