"""Matches at the table, kept like rosters: a private link for each side (only its hash is
stored), a read-only link for spectators, and the log of events in order.

The store keeps what happened, not what it means: the rules of play (`engine/match.py` and
each game's play.py) check an event against the log before it is appended, and the state is
always the log replayed. Each change (an event appended, the last one undone) raises the
match's `version` in the same transaction that writes the log, and carries the version it was
based on: two phones adding at once take turns (the second is checked again on the log as it
now is), and an undo based on a log that has moved on is refused (`StaleMatch`), so it never
takes back the other player's event. An event's id (the phone's own, so that a tap sent twice
is kept once) stays spent for the match's whole life, undone or not (`SpentId`): a phone
retrying a tap whose answer was lost never puts back what an undo took away. The tables are
made by migrations 0011 and 0013.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from listbuilder.engine.match import MAX_EVENTS, Event
from listbuilder.store.database import Sessions, now, utc
from listbuilder.store.links import Stale, hash_token, new_private, new_public, plausible
from listbuilder.store.tables import MatchEventRow, MatchRow, MatchSpentIdRow

# An event as stored (its JSON): a kind, a side, a unit and a few short values. The web form
# reads at most MAX_EVENT_VALUES values of at most 80 characters each, well inside this.
MAX_EVENT_BYTES = 2048
# Taps a match records in its life, undone ones included: what the spent ids may grow to.
MAX_SPENT_IDS = 4 * MAX_EVENTS
WATCHER = 0  # the side of whoever holds the spectators' link: no side, read only


def new_token() -> str:
    """A side's private link: as long as a roster's edit link."""
    return new_private()[0]


@dataclass(frozen=True)
class Logged:
    """An event as kept: the event, whose phone sent it (a side; None if unknown) and when."""

    event: Event
    side: int | None
    at: datetime


@dataclass(frozen=True)
class StoredMatch:
    id: int
    system: str
    header: str  # the match file without its events: players, rosters, options
    version: int
    watch_token: str
    sides: int  # 2, or 1 for a solo game
    created: datetime
    updated: datetime
    log: tuple[Logged, ...]

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(logged.event for logged in self.log)


class StaleMatch(Stale[StoredMatch]):
    """The match changed since the version a change was based on."""

    what = "match"


class SpentId(Exception):
    """The event's id was recorded before in this match (its event may be undone since), by
    the phone of `side` (None: not known)."""

    def __init__(self, current: StoredMatch, side: int | None) -> None:
        self.current = current
        self.side = side
        super().__init__(f"an id of match {current.id} was spent by side {side}")


class MatchFull(ValueError):
    """The match holds, or has recorded, as many events as a match may."""


def new_match_row(system: str, header: str, tokens: Sequence[str]) -> MatchRow:
    """A match's row before it is added: only the hashes of its sides' tokens."""
    at = now()
    return MatchRow(side1_hash=hash_token(tokens[0]),
                    side2_hash=hash_token(tokens[1]) if len(tokens) > 1 else None,
                    watch_token=new_public(), system=system,
                    header=header, version=1, created=at, updated=at)


class MatchStore:
    """Create and find matches, append to and undo their logs, in the rosters' database."""

    def __init__(self, engine: Engine) -> None:
        self.sessions = Sessions(engine)

    def create(self, system: str, header: str, tokens: Sequence[str]) -> StoredMatch:
        """A new match with no events, for one side or two, each with its private token
        (`new_token`), of which only the hash is stored."""
        row = new_match_row(system, header, tokens)
        with self.sessions.writing() as session:
            session.add(row)
        return _stored(row, ())

    def by_token(self, token: str) -> tuple[StoredMatch, int] | None:
        """The match a link opens and whose it is: a side (1 or 2) for a private link,
        WATCHER for the spectators' link; None when no match has it."""
        if not plausible(token):
            return None
        digest = hash_token(token)
        with self.sessions.reading() as session:
            row = session.scalars(select(MatchRow).where(
                (MatchRow.side1_hash == digest) | (MatchRow.side2_hash == digest)
                | (MatchRow.watch_token == token))).first()
            if row is None:
                return None
            side = 1 if row.side1_hash == digest else 2 if row.side2_hash == digest \
                else WATCHER
            return _stored(row, _log(session, row.id)), side

    def version_by_token(self, token: str) -> int | None:
        """The version of the match a link opens, alone: what a phone polls every few
        seconds to know whether to redraw (one indexed row, no log)."""
        if not plausible(token):
            return None
        digest = hash_token(token)
        with self.sessions.reading() as session:
            return session.scalars(select(MatchRow.version).where(
                (MatchRow.side1_hash == digest) | (MatchRow.side2_hash == digest)
                | (MatchRow.watch_token == token))).first()

    def get(self, match_id: int) -> StoredMatch:
        with self.sessions.reading() as session:
            row = session.scalars(select(MatchRow).where(MatchRow.id == match_id)).first()
            if row is None:
                raise LookupError(f"match {match_id} does not exist")
            return _stored(row, _log(session, row.id))

    def spent(self, match: StoredMatch, event_id: str) -> SpentId | None:
        """Whether the match recorded this event id before (undone since or not), and whose
        phone sent it; None if never."""
        with self.sessions.reading() as session:
            found = session.execute(select(MatchSpentIdRow.side).where(
                MatchSpentIdRow.match_id == match.id,
                MatchSpentIdRow.event_id == event_id)).first()
            return None if found is None else SpentId(match, found[0])

    def append(self, match_id: int, base_version: int, event: Event,
               side: int | None, read: StoredMatch | None = None) -> StoredMatch:
        """Append `event`, sent by `side`'s phone, if the match is still at `base_version`
        (else StaleMatch: the caller checks it again on the log as it now is) and its id was
        never spent here (else SpentId). `read`, the match as the caller read it at
        `base_version`, spares reading the whole log back."""
        with self.sessions.writing() as session:
            row = self._at(session, match_id, base_version)
            count = session.scalar(select(func.count()).select_from(MatchEventRow)
                                   .where(MatchEventRow.match_id == match_id)) or 0
            if count >= MAX_EVENTS:
                raise MatchFull(f"a match holds at most {MAX_EVENTS} events")
            data = json.dumps(event.to_data(), ensure_ascii=False)
            if len(data.encode("utf-8")) > MAX_EVENT_BYTES:
                raise ValueError(f"an event is at most {MAX_EVENT_BYTES} bytes")
            if event.id:
                self._spend(session, row, event.id, side)
            at = now()
            session.add(MatchEventRow(match_id=match_id, seq=count + 1, data=data,
                                      event_id=event.id or None, side=side, at=at))
            row.version, row.updated = base_version + 1, at
            session.flush()
            # the version was `base_version` until this write: the log read with it is the
            # log this event follows
            if read is not None and read.id == match_id and read.version == base_version \
                    and len(read.log) == count:
                return _stored(row, (*read.log, Logged(event, side, utc(at))))
            return _stored(row, _log(session, match_id))

    def undo(self, match_id: int, base_version: int) -> StoredMatch:
        """Remove the last event, if the match is still at `base_version` (else StaleMatch:
        the log moved on, and the last event may be another phone's)."""
        with self.sessions.writing() as session:
            row = self._at(session, match_id, base_version)
            last = session.scalar(select(func.max(MatchEventRow.seq))
                                  .where(MatchEventRow.match_id == match_id))
            if last is not None:
                session.execute(delete(MatchEventRow).where(MatchEventRow.match_id == match_id,
                                                            MatchEventRow.seq == last))
                row.version, row.updated = base_version + 1, now()
            session.flush()
            return _stored(row, _log(session, match_id))

    def _spend(self, session: Session, row: MatchRow, event_id: str, side: int | None) -> None:
        # read in the write lock that `_at` took: of two posts of one id, one finds it spent
        spent = session.execute(select(MatchSpentIdRow.side).where(
            MatchSpentIdRow.match_id == row.id, MatchSpentIdRow.event_id == event_id)).first()
        if spent is not None:
            raise SpentId(_stored(row, _log(session, row.id)), spent[0])
        total = session.scalar(select(func.count()).select_from(MatchSpentIdRow)
                               .where(MatchSpentIdRow.match_id == row.id)) or 0
        if total >= MAX_SPENT_IDS:
            raise MatchFull(f"a match records at most {MAX_SPENT_IDS} taps, undone ones "
                            f"included")
        session.add(MatchSpentIdRow(match_id=row.id, event_id=event_id, side=side))

    def _at(self, session: Session, match_id: int, base_version: int) -> MatchRow:
        # the version moves first, in the write lock: of two changes based on one version,
        # exactly one finds it
        result = session.execute(update(MatchRow).where(
            MatchRow.id == match_id, MatchRow.version == base_version)
            .values(version=base_version))
        row = session.scalars(select(MatchRow).where(MatchRow.id == match_id)
                              .with_for_update()).first()
        if row is None:
            raise LookupError(f"match {match_id} does not exist")
        if int(getattr(result, "rowcount", 0)) != 1:
            raise StaleMatch(_stored(row, _log(session, match_id)))
        return row


def event_of(data: dict[str, object]) -> Event:
    """An event from its mapping as stored (`Event.to_data`)."""
    known = ("kind", "side", "unit", "id")
    values = tuple(sorted((k, v) for k, v in data.items() if k not in known))
    side, unit = data.get("side"), data.get("unit")
    return Event(str(data["kind"]), side if isinstance(side, int) else None,
                 unit if isinstance(unit, int) else None,
                 values,  # type: ignore[arg-type]
                 str(data.get("id") or ""))


def _log(session: Session, match_id: int) -> tuple[Logged, ...]:
    rows = session.execute(select(MatchEventRow.data, MatchEventRow.side, MatchEventRow.at)
                           .where(MatchEventRow.match_id == match_id)
                           .order_by(MatchEventRow.seq)).all()
    return tuple(Logged(event_of(json.loads(data)), side, utc(at)) for data, side, at in rows)


def _stored(row: MatchRow, log: Sequence[Logged]) -> StoredMatch:
    return StoredMatch(row.id, row.system, row.header, row.version, row.watch_token,
                       2 if row.side2_hash else 1, utc(row.created), utc(row.updated),
                       tuple(log))
