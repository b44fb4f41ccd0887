"""The line of prints: the print_jobs table, what Huey's queue does not keep (what to print,
the client who asked as a keyed digest, the place in line, which worker holds a print, the
problems of a print that can't be made).

The line has one order, `LINE`: downloads before previews (`rank`), then by the asking
client's `turn`, counted when the print is queued (how many prints of that rank the client
has in the table: waiting, being laid out, or finished lately), then first come. So a client
with none lately has its print laid out after at most one of each other client's, however
many those queued. A worker takes the first waiting row in that order (`take_next`); a
player's place is counted in the same order (`place`). Huey's messages carry no order and no
print: each is a doorbell (jobs/printer.py).
"""

from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy import (
    ColumnElement,
    Table,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import Engine, Row

from listbuilder.jobs.print_job import PrintJob
from listbuilder.store.database import now, utc
from listbuilder.store.tables import PrintJobRow

JOBS = cast(Table, PrintJobRow.__table__)
WAITING, RUNNING, DONE, FAILED = "waiting", "running", "done", "failed"
# A print's rank in the line: downloads go ahead of preview pictures. A print page asks for up
# to three previews, and one more at each option changed, before its Download: in one line the
# download waited behind every stale preview (15-60 s seen in the browser tests).
DOWNLOAD, PREVIEW = 0, 1
# The line's one order: rank, then the client's turn, then first come (the table's index
# ix_print_jobs_status_rank_turn_id serves it)
LINE = (JOBS.c.rank, JOBS.c.turn, JOBS.c.id)
HEARTBEAT_SECONDS = 2.0  # how often a worker marks the prints it holds as still alive
# A worker (or the print it holds) not heard of for this long is told to the player as
# stopped: three beats (6 s), so a late beat (a busy moment) does not change the page, and the
# page, asking every second, tells the truth within 10 s of a worker's death (these 6 s, the
# page's second, its request). Not the time a print is taken back from its worker: that is
# the longer job timeout (jobs/printer.py says why).
ALIVE_SECONDS = 3 * HEARTBEAT_SECONDS
KEEP_FINISHED = timedelta(minutes=10)  # a failed print's problems are shown this long
MAX_ATTEMPTS = 3  # a print whose worker died this many times fails instead of killing a 4th
PREVIEW_EXPIRES = 300  # seconds: a preview waiting this long is not laid out (nobody looks)
QUEUE_LOCK = 0x5052494E  # "PRIN": PostgreSQL advisory lock taken while a print is queued


@dataclass(frozen=True)
class InLine:
    """Where a print stands: 0 is being laid out now, 1 is next, and so on; `workers` False
    when no worker has shown a sign of life lately (the print waits for one to start);
    `stopped` when it is held by a worker that stopped beating (place 0: it goes back in line
    at the job timeout, with a new task)."""

    place: int
    workers: bool = True
    stopped: bool = False

    @property
    def now(self) -> bool:
        return self.place == 0 and not self.stopped


class QueueFull(Exception):
    """The line holds as many waiting prints as it may: in all (`bound`), or of this client's
    own of this rank (`per_client`; `own`)."""

    def __init__(self, waiting: int, own: bool = False) -> None:
        self.waiting = waiting
        self.own = own
        super().__init__(f"{waiting} prints {'of this client ' if own else ''}are waiting")


@dataclass(frozen=True)
class LineState:
    """What the person running the server watches: how many prints wait, how long the oldest
    has, how many are being laid out, and whether any worker showed itself lately."""

    waiting: int
    oldest_seconds: float
    running: int
    workers_seen: bool


def worker_name() -> str:
    """This process, as the rows it holds name it (host and process id)."""
    return f"{socket.gethostname()}:{os.getpid()}"[:64]


def _ahead_of(row: Row[Any]) -> ColumnElement[bool]:
    """The rows before `row` in the line's order (`LINE`)."""
    return or_(*(and_(*(c == getattr(row, c.name) for c in LINE[:i]),
                      column < getattr(row, column.name))
                 for i, column in enumerate(LINE)))


class Ledger:
    """The print_jobs table of one database. Queueing, which counts then inserts, holds the
    write lock (SQLite) or an advisory lock (PostgreSQL) for its few statements; every other
    write is one conditional statement."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._locked = engine.execution_options(sqlite_immediate=True)
        self._one = engine.execution_options(sqlite_one_statement=True)

    def find(self, key: str) -> Row[Any] | None:
        with self.engine.connect() as connection:
            return connection.execute(select(JOBS).where(JOBS.c.key == key)).first()

    def place(self, row: Row[Any]) -> int:
        """The row's place in line, as `take_next` will take it: 0 being laid out, 1 next."""
        if row.status != WAITING:
            return 0
        with self.engine.connect() as connection:
            return 1 + int(connection.scalar(select(func.count()).select_from(JOBS).where(
                JOBS.c.status == WAITING, _ahead_of(row))) or 0)

    def counts(self) -> tuple[int, float, int]:
        """Prints waiting, the oldest one's wait in seconds, prints being laid out."""
        with self.engine.connect() as connection:
            waiting, oldest = connection.execute(
                select(func.count(), func.min(JOBS.c.created)).where(
                    JOBS.c.status == WAITING)).one()
            running = connection.scalar(select(func.count()).select_from(JOBS).where(
                JOBS.c.status == RUNNING))
        age = (now() - utc(oldest)).total_seconds() if oldest is not None else 0.0
        return int(waiting or 0), max(0.0, age), int(running or 0)

    def add(self, key: str, job: PrintJob, rank: int, client: str, bound: int,
            per_client: int) -> tuple[Row[Any], bool]:
        """The row of this print, queued now for `client` if it was not: (row, whether it is
        new in line, so a doorbell must ring). A waiting preview asked as a download moves
        up. QueueFull as the module says; a finished row whose PDF left the cache is
        replaced."""
        with self._locked.begin() as connection:
            if connection.dialect.name == "postgresql":  # two web servers counting at once
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                   {"key": QUEUE_LOCK})
            connection.execute(delete(JOBS).where(JOBS.c.key == key, JOBS.c.status == DONE))
            found = connection.execute(select(JOBS).where(JOBS.c.key == key)).first()
            if found is not None:
                if found.status != WAITING or found.rank <= rank:
                    return found, False
                turn = self._turn(connection, found.client, rank)
                connection.execute(update(JOBS).where(JOBS.c.id == found.id)
                                   .values(rank=rank, turn=turn))
                # its place moves up; the doorbell it rang stands
                return connection.execute(select(JOBS).where(JOBS.c.id == found.id)).one(), \
                    False
            mine = self._waiting_of(connection, client or None, rank)
            if per_client and mine >= per_client:
                raise QueueFull(mine, own=True)
            if mine:  # a client's first is let in however full the line is
                waiting = int(connection.scalar(select(func.count()).select_from(JOBS)
                                                .where(JOBS.c.status == WAITING)) or 0)
                if waiting >= bound:
                    raise QueueFull(waiting)
            connection.execute(insert(JOBS).values(
                key=key, kind=job.kind, job=job.to_json(), status=WAITING, rank=rank,
                turn=self._turn(connection, client or None, rank), attempts=0,
                created=now(), client=client or None))
            row = connection.execute(select(JOBS).where(JOBS.c.key == key)).one()
        return row, True

    @staticmethod
    def _of_client(client: str | None) -> Any:
        return JOBS.c.client.is_(None) if client is None else JOBS.c.client == client

    def _turn(self, connection: Any, client: str | None, rank: int) -> int:
        """How many prints of this rank the client has in the table (swept after a while)."""
        return int(connection.scalar(select(func.count()).select_from(JOBS).where(
            self._of_client(client), JOBS.c.rank == rank)) or 0)

    def _waiting_of(self, connection: Any, client: str | None, rank: int) -> int:
        return int(connection.scalar(select(func.count()).select_from(JOBS).where(
            JOBS.c.status == WAITING, self._of_client(client), JOBS.c.rank == rank)) or 0)

    def forget(self, key: str, status: str | None = None) -> None:
        where = [JOBS.c.key == key] + ([JOBS.c.status == status] if status else [])
        with self._one.begin() as connection:
            connection.execute(delete(JOBS).where(*where))

    def take_next(self, worker: str) -> tuple[str, str] | None:
        """Move the first print waiting in line (`LINE`) to being laid out by `worker`: its
        key and its job's JSON; None when none waits. Previews waiting longer than
        PREVIEW_EXPIRES go first: nobody is looking at them any more (asked again, they are
        queued again)."""
        with self._one.begin() as connection:
            connection.execute(delete(JOBS).where(
                JOBS.c.status == WAITING, JOBS.c.rank == PREVIEW,
                JOBS.c.created < now() - timedelta(seconds=PREVIEW_EXPIRES)))
        first = (select(JOBS.c.id).where(JOBS.c.status == WAITING).order_by(*LINE).limit(1)
                 .scalar_subquery())
        while True:
            # one statement: of two workers picking the same row, one moves it, and the
            # other finds it no longer waiting and looks again
            with self._one.begin() as connection:
                taken = connection.execute(
                    update(JOBS).where(JOBS.c.id == first, JOBS.c.status == WAITING)
                    .values(status=RUNNING, worker=worker, heartbeat=now(),
                            attempts=JOBS.c.attempts + 1)
                    .returning(JOBS.c.key, JOBS.c.job)).first()
            if taken is not None:
                return str(taken.key), str(taken.job)
            with self.engine.connect() as connection:
                if not connection.scalar(select(func.count()).select_from(JOBS)
                                         .where(JOBS.c.status == WAITING)):
                    return None

    def held(self, worker: str) -> list[str]:
        """The keys of the prints `worker` is laying out (a worker process lays out one at a
        time)."""
        with self.engine.connect() as connection:
            return [str(k) for k in connection.scalars(select(JOBS.c.key).where(
                JOBS.c.status == RUNNING, JOBS.c.worker == worker))]

    def beat(self, workers: list[str]) -> int:
        """Mark the rows these worker processes hold as alive."""
        if not workers:
            return 0
        with self._one.begin() as connection:
            return int(connection.execute(update(JOBS).where(
                JOBS.c.status == RUNNING, JOBS.c.worker.in_(workers))
                .values(heartbeat=now())).rowcount or 0)

    def finish(self, key: str, worker: str, problems: list[str] | None = None,
               failed: bool = False) -> None:
        """Done; or failed, with the problems a player is shown (None: an error of ours).
        What it printed is let go: the PDF is in the cache, and the roster's text (up to
        640 KB) would otherwise stay as long as the row does, for nothing."""
        values: dict[str, Any] = {"status": FAILED if failed else DONE, "worker": None,
                                  "finished": now(), "job": ""}
        if failed:
            values["problems"] = json.dumps(problems) if problems is not None else None
        with self._one.begin() as connection:
            connection.execute(update(JOBS).where(JOBS.c.key == key, JOBS.c.worker == worker)
                               .values(**values))

    def put_back(self, key: str, worker: str) -> Row[Any] | None:
        """Back in line (its worker is stopping, or will try again): the row, or None if this
        worker no longer held it."""
        with self._one.begin() as connection:
            back = connection.execute(update(JOBS).where(
                JOBS.c.key == key, JOBS.c.worker == worker, JOBS.c.status == RUNNING)
                .values(status=WAITING, worker=None)).rowcount
        return self.find(key) if back else None

    def retake(self, timeout: float) -> list[Row[Any]]:
        """Rows whose worker stopped beating `timeout` seconds ago, put back in line (each by
        one conditional UPDATE: one caller wins it); after MAX_ATTEMPTS, failed in words."""
        stale = now() - timedelta(seconds=timeout)
        with self.engine.connect() as connection:  # a read first: nearly always none
            dead = connection.execute(select(JOBS.c.id, JOBS.c.attempts, JOBS.c.heartbeat)
                                      .where(JOBS.c.status == RUNNING,
                                             JOBS.c.heartbeat < stale)).all()
        back: list[Row[Any]] = []
        gave_up = json.dumps([
            f"this print stopped the server's printer {MAX_ATTEMPTS} times, so it was given "
            f"up: print fewer cards at once, or print them with `listbuilder print` on your "
            f"own computer"])
        for row in dead:
            values: dict[str, Any] = {"status": WAITING, "worker": None}
            if row.attempts >= MAX_ATTEMPTS:
                values = {"status": FAILED, "worker": None, "problems": gave_up,
                          "finished": now(), "job": ""}
            with self._one.begin() as connection:
                won = connection.execute(update(JOBS).where(
                    JOBS.c.id == row.id, JOBS.c.status == RUNNING,
                    JOBS.c.heartbeat == row.heartbeat).values(**values)).rowcount
            if won and values["status"] == WAITING and (found := self._by_id(row.id)):
                back.append(found)
        return back

    def _by_id(self, row_id: int) -> Row[Any] | None:
        with self.engine.connect() as connection:
            return connection.execute(select(JOBS).where(JOBS.c.id == row_id)).first()

    def waiting_since(self, before: datetime) -> list[Row[Any]]:
        with self.engine.connect() as connection:
            return list(connection.execute(select(JOBS).where(
                JOBS.c.status == WAITING, JOBS.c.created < before)).all())

    def sweep(self, older_than: timedelta = KEEP_FINISHED) -> int:
        """Remove finished and failed rows finished before `older_than` ago; how many."""
        with self._one.begin() as connection:
            return int(connection.execute(delete(JOBS).where(
                JOBS.c.status.in_((DONE, FAILED)),
                JOBS.c.finished < now() - older_than)).rowcount or 0)
