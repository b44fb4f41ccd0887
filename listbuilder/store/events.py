"""Events in the rosters' database (docs/events.md): made with an organiser's private link and
a public one, the lists sealed for them, the tables of each round and their results.

Pairing a round and entering a result by hand are each one transaction that also moves the
event's version on, so two organiser tabs pairing at once make one round: the second is
refused as stale (`StaleEvent`) and shown the round the first made."""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from listbuilder.engine.events.pairing import pair_round
from listbuilder.engine.events.sealing import Sealed
from listbuilder.engine.events.standings import Game, Standing, standings
from listbuilder.store.database import Sessions, now, utc
from listbuilder.store.links import Stale, hash_token, new_linked, plausible
from listbuilder.store.matches import new_match_row
from listbuilder.store.tables import EventChangeRow, EventGameRow, EventListRow, EventRow

CODE_BYTES = 6  # a verify code: 8 characters of a link, 48 bits, short enough to type
# Lists one event takes: more than any club's tournament, and a bound on what a stranger with
# the public link can add (each list is a roster's file) and on the organiser's zip
MAX_LISTS = 512


@dataclass(frozen=True)
class StoredEvent:
    id: int
    system: str
    name: str
    version: int
    share_token: str
    points_limit: int | None
    packs: dict[str, str]  # the packs allowed: share link -> name
    data_revision: str
    rounds: int | None  # None: a league
    deadline: datetime
    seed: int
    updated: datetime

    @property
    def league(self) -> bool:
        return self.rounds is None

    def locked(self, at: datetime) -> bool:
        """Whether lists can no longer be handed in or handed in again."""
        return at >= self.deadline

    @classmethod
    def of(cls, row: EventRow) -> StoredEvent:
        return cls(row.id, row.system, row.name, row.version, row.share_token,
                   row.points_limit, json.loads(row.packs), row.data_revision, row.rounds,
                   utc(row.deadline), row.seed, utc(row.updated))


@dataclass(frozen=True)
class StoredList:
    id: int
    event_id: int
    roster_id: int
    player: str
    text: str
    sha256: str
    data_revision: str
    state: str
    problems: tuple[str, ...]
    code: str
    submitted: datetime
    flags: tuple[str, ...] = ()  # the event's own terms broken (`sealing.Terms`)

    @property
    def legal(self) -> bool:
        return self.state == "legal"

    @classmethod
    def of(cls, row: EventListRow | SimpleNamespace) -> StoredList:
        return cls(row.id, row.event_id, row.roster_id, row.player, row.text, row.sha256,
                   row.data_revision, row.state, tuple(json.loads(row.problems)), row.code,
                   utc(row.submitted), tuple(json.loads(row.flags or "[]")))


@dataclass(frozen=True)
class StoredGame:
    id: int
    round: int
    table: int
    first: int  # a list's id
    second: int | None  # None: a bye
    match_id: int | None
    winner: int | None  # 1 or 2; None: a draw once reported
    scores: tuple[int, int]
    reported: datetime | None

    @property
    def bye(self) -> bool:
        return self.second is None

    @classmethod
    def of(cls, row: EventGameRow | SimpleNamespace) -> StoredGame:
        return cls(row.id, row.round, row.table_no, row.first_id, row.second_id, row.match_id,
                   row.winner, (row.score1, row.score2),
                   utc(row.reported) if row.reported is not None else None)


class StaleEvent(Stale[StoredEvent]):
    """The event changed (a round paired, a result entered) since the page that asked."""

    what = "event"


class ListsLocked(ValueError):
    """The deadline for lists has passed."""


class RoundRefused(ValueError):
    """A round cannot be paired now; the message says why and what to do."""


class EventStore:
    """Create and find events, seal their lists, pair their rounds and keep their results."""

    def __init__(self, engine: Engine) -> None:
        self.sessions = Sessions(engine)

    def create(self, system: str, name: str, *, points_limit: int | None,
               packs: dict[str, str], data_revision: str, rounds: int | None,
               deadline: datetime) -> tuple[StoredEvent, str]:
        """A new event; returns it and the organiser's private link (never stored)."""
        row, token = new_linked(EventRow, system=system, name=name, points_limit=points_limit,
                                packs=json.dumps(packs, sort_keys=True),
                                data_revision=data_revision, rounds=rounds, deadline=deadline,
                                seed=secrets.randbelow(2**31))
        with self.sessions.writing() as session:
            session.add(row)
        return StoredEvent.of(row), token

    def by_organiser_token(self, token: str) -> StoredEvent | None:
        if not plausible(token):
            return None
        return self._one(EventRow.edit_hash == hash_token(token))

    def by_public_token(self, token: str) -> StoredEvent | None:
        if not plausible(token):
            return None
        return self._one(EventRow.share_token == token)

    def submit(self, event: StoredEvent, roster_id: int, player: str, sealed: Sealed,
               at: datetime | None = None) -> StoredList:
        """Seal a roster's list for the event, or seal it again (same roster) in place of the
        copy handed in before; its verify code stays. ListsLocked after the deadline."""
        at = at or now()
        if event.locked(at):
            raise ListsLocked(f"lists for {event.name} closed at {event.deadline:%Y-%m-%d %H:%M} "
                              "UTC; ask the organiser")
        values: dict[str, Any] = dict(player=player, text=sealed.text, sha256=sealed.sha256,
                                      data_revision=sealed.data_revision, state=sealed.state,
                                      problems=json.dumps(list(sealed.problems)),
                                      flags=json.dumps(list(sealed.flags)), submitted=at)
        with self.sessions.writing() as session:
            row = session.scalars(select(EventListRow).where(
                EventListRow.event_id == event.id, EventListRow.roster_id == roster_id)
                .with_for_update()).first()
            if row is None:
                count = session.scalar(select(func.count()).select_from(EventListRow).where(
                    EventListRow.event_id == event.id))
                if (count or 0) >= MAX_LISTS:
                    raise ListsLocked(f"{event.name} has its {MAX_LISTS} lists, the most an "
                                      "event takes; ask the organiser")
                row = EventListRow(event_id=event.id, roster_id=roster_id,
                                   code=secrets.token_urlsafe(CODE_BYTES), **values)
                session.add(row)
            else:
                for key, value in values.items():
                    setattr(row, key, value)
            session.flush()
            return StoredList.of(row)

    def lists(self, event_id: int, texts: bool = True) -> list[StoredList]:
        """The event's lists, in the order they were first handed in; without their files
        (`text` empty) when `texts` is False, as the pages that show only the verdicts want."""
        columns = [c for c in EventListRow.__table__.columns if texts or c.name != "text"]
        with self.sessions.reading() as session:
            rows = session.execute(select(*columns).where(EventListRow.event_id == event_id)
                                   .order_by(EventListRow.id)).mappings().all()
        # plain columns, read as the ORM object's attributes: a row costs some 30 µs less
        return [StoredList.of(SimpleNamespace(**{"text": "", **row})) for row in rows]

    def by_code(self, code: str) -> tuple[StoredEvent, StoredList] | None:
        """The list a verify code names, and its event."""
        if not plausible(code):
            return None
        with self.sessions.reading() as session:
            found = session.execute(select(EventRow, EventListRow)
                                    .join(EventListRow, EventListRow.event_id == EventRow.id)
                                    .where(EventListRow.code == code)).first()
            return (StoredEvent.of(found[0]), StoredList.of(found[1])) if found else None

    def games(self, event_id: int) -> list[StoredGame]:
        """Every table of every round, round by round, table by table."""
        with self.sessions.reading() as session:
            rows = session.execute(select(*EventGameRow.__table__.columns)
                                   .where(EventGameRow.event_id == event_id)
                                   .order_by(EventGameRow.round, EventGameRow.table_no)
                                   ).mappings().all()
        return [StoredGame.of(SimpleNamespace(**row)) for row in rows]

    def standings(self, event_id: int) -> list[Standing]:
        """The event's standings; each line's `player` is its list's id, as text."""
        return standings_of(self.event(event_id), self.lists(event_id, texts=False),
                            self.games(event_id))

    def event(self, event_id: int) -> StoredEvent:
        found = self._one(EventRow.id == event_id)
        if found is None:
            raise LookupError(f"event {event_id} does not exist")
        return found

    def pair(self, event: StoredEvent, present: Iterable[int] | None = None) -> list[StoredGame]:
        """Pair the next round among the lists `present` (all when None), if the event is
        still at `event.version`; RoundRefused while a result of the last round is missing,
        once every round is played, or when no pairing avoids a rematch."""
        with self.sessions.writing() as session:
            self._move_on(session, event)
            lists = [StoredList.of(row) for row in session.scalars(
                select(EventListRow).where(EventListRow.event_id == event.id)
                .order_by(EventListRow.id))]
            games = [StoredGame.of(row) for row in self._games(session, event.id)]
            last = max((g.round for g in games), default=0)
            missing = [g.table for g in games if g.round == last and g.reported is None]
            if missing:
                tables = (f"table {missing[0]}" if len(missing) == 1 else
                          f"tables {', '.join(map(str, missing[:-1]))} and {missing[-1]}")
                raise RoundRefused(f"round {last} still waits for the result of {tables}: "
                                   f"enter {'it' if len(missing) == 1 else 'them'}, then pair "
                                   f"round {last + 1}")
            if event.rounds is not None and last >= event.rounds:
                raise RoundRefused(f"all {event.rounds} rounds are played: the standings are "
                                   "final")
            wanted = set(present) if present is not None else {li.id for li in lists}
            order = [line.player for line in standings_of(event, lists, games)
                     if int(line.player) in wanted]
            if len(order) < 2:
                raise RoundRefused(f"a round needs two players at least, and {len(order)} "
                                   f"{'is' if len(order) == 1 else 'are'} here: wait for "
                                   "lists, or tick the players present")
            met: dict[str, set[str]] = {}
            for game in games:
                if game.second is not None:
                    met.setdefault(str(game.first), set()).add(str(game.second))
                    met.setdefault(str(game.second), set()).add(str(game.first))
            byes = {str(g.first) for g in games if g.bye}
            try:
                pairing = pair_round(order, met, byes)
            except ValueError as exc:
                raise RoundRefused(str(exc)) from exc
            at = now()
            rows = [EventGameRow(event_id=event.id, round=last + 1, table_no=number,
                                 first_id=int(a), second_id=int(b), score1=0, score2=0)
                    for number, (a, b) in enumerate(pairing.tables, start=1)]
            if pairing.bye is not None:
                rows.append(EventGameRow(event_id=event.id, round=last + 1,
                                         table_no=len(rows) + 1, first_id=int(pairing.bye),
                                         second_id=None, winner=1, score1=0, score2=0,
                                         reported=at))
            session.add_all(rows)
            session.flush()
            return [StoredGame.of(row) for row in rows]

    def report(self, event: StoredEvent, game_id: int, winner: int | None,
               scores: tuple[int, int], words: str = "") -> StoredGame:
        """Record a table's result (or correct it) if the event is still at `event.version`.
        `words` (an organiser's entry by hand) are kept in the event's log of changes."""
        with self.sessions.writing() as session:
            self._move_on(session, event)
            row = session.scalars(select(EventGameRow).where(
                EventGameRow.id == game_id, EventGameRow.event_id == event.id)).first()
            if row is None or row.second_id is None:
                raise LookupError(f"{event.name} has no such table to report")
            row.winner, (row.score1, row.score2), row.reported = winner, scores, now()
            if words:
                session.add(EventChangeRow(event_id=event.id, at=row.reported, words=words))
            session.flush()
            return StoredGame.of(row)

    def game(self, event_id: int, game_id: int) -> StoredGame | None:
        with self.sessions.reading() as session:
            row = session.scalars(select(EventGameRow).where(
                EventGameRow.id == game_id, EventGameRow.event_id == event_id)).first()
            return StoredGame.of(row) if row is not None else None

    def start_match(self, game: StoredGame, system: str, header: str,
                    tokens: Sequence[str]) -> int:
        """The match played at this table: made now with these side tokens (the table's, so
        both players reach it), or the one made before, when the other player tapped Play
        first. One transaction holding the table's row: two taps at once make one match."""
        with self.sessions.writing() as session:
            row = session.scalars(select(EventGameRow).where(EventGameRow.id == game.id)
                                  .with_for_update()).one()
            if row.match_id is None:
                match = new_match_row(system, header, tokens)
                session.add(match)
                session.flush()
                row.match_id = match.id
            return int(row.match_id)

    def match_ended(self, match_id: int, winner: int | None, scores: tuple[int, int]) -> bool:
        """A tracker's match that ended reports to the table it was started from, if any and
        if the table has no result yet (the first result stands; the organiser corrects by
        hand). Moves the event's version on. Whether a result was recorded."""
        with self.sessions.writing() as session:
            row = session.scalars(select(EventGameRow).where(
                EventGameRow.match_id == match_id).with_for_update()).first()
            if row is None or row.reported is not None:
                return False
            row.winner, (row.score1, row.score2), row.reported = winner, scores, now()
            session.execute(update(EventRow).where(EventRow.id == row.event_id)
                            .values(version=EventRow.version + 1, updated=row.reported))
            return True

    def amend(self, event: StoredEvent, name: str, deadline: datetime) -> StoredEvent:
        """Rename the event or move its deadline (lists open again when it moves later), if
        it is still at `event.version`; what changed is written in its log of changes."""
        with self.sessions.writing() as session:
            self._move_on(session, event)
            row = session.scalars(select(EventRow).where(EventRow.id == event.id)).one()
            said = []
            if name != row.name:
                said.append(f"renamed from {row.name!r} to {name!r}")
            if deadline != utc(row.deadline):
                said.append(f"lists now close at {deadline:%Y-%m-%d %H:%M} UTC (were to "
                            f"close at {utc(row.deadline):%Y-%m-%d %H:%M})")
            row.name, row.deadline = name, deadline
            if said:
                session.add(EventChangeRow(event_id=event.id, at=now(),
                                           words="The event " + "; ".join(said) + "."))
            session.flush()
            return StoredEvent.of(row)

    def changes(self, event_id: int) -> list[tuple[datetime, str]]:
        """What was changed by hand, oldest first."""
        with self.sessions.reading() as session:
            rows = session.execute(select(EventChangeRow.at, EventChangeRow.words)
                                   .where(EventChangeRow.event_id == event_id)
                                   .order_by(EventChangeRow.id)).all()
        return [(utc(at), words) for at, words in rows]

    def _move_on(self, session: Session, event: StoredEvent) -> None:
        moved = session.execute(update(EventRow).where(EventRow.id == event.id,
                                                       EventRow.version == event.version)
                                .values(version=event.version + 1, updated=now()))
        if int(getattr(moved, "rowcount", 0)) != 1:
            row = session.scalars(select(EventRow).where(EventRow.id == event.id)).first()
            if row is None:
                raise LookupError(f"event {event.id} does not exist")
            raise StaleEvent(StoredEvent.of(row))

    @staticmethod
    def _games(session: Session, event_id: int) -> list[EventGameRow]:
        return list(session.scalars(select(EventGameRow).where(EventGameRow.event_id == event_id)
                                    .order_by(EventGameRow.round, EventGameRow.table_no)))


    def _one(self, where: object) -> StoredEvent | None:
        with self.sessions.reading() as session:
            row = session.scalars(select(EventRow).where(where)).first()  # type: ignore[arg-type]
            return StoredEvent.of(row) if row is not None else None


def standings_of(event: StoredEvent, lists: list[StoredList],
                 games: list[StoredGame]) -> list[Standing]:
    """The standings of these lists after these games; each line's `player` is a list's id,
    as text. Players level on everything keep the event's seeded draw."""
    draw = random.Random(event.seed).sample([str(li.id) for li in lists], len(lists))
    played = [Game(str(g.first), None if g.second is None else str(g.second), g.winner,
                   g.scores) for g in games if g.reported is not None]
    return standings(draw, played)
