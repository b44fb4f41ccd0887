"""Prints as Huey tasks, and the table that tells a player where their print stands.

A print from the browser whose PDF is in the print cache is answered at once. Any other is
asked of the `Printer`: a row in print_jobs, keyed by the print's key (the same print asked
twice, by one player or two, is one row and one task), and a Huey task carrying that key. A
`listbuilder worker` anywhere takes the task from the queue (Huey: storage, priorities,
retries, expiry, timeouts, periodic sweeps, process supervision), lays the print out, keeps
the PDF in the print cache in the database and marks the row done. The player's page asks
again every second; once done, whichever web server answers finds the PDF in the cache.

The row is what Huey does not keep: what to print (the roster's text, up to 640 KB, stays in
our database, not in the broker), the client who asked (a keyed digest, never the address),
the place in line, the problems of a print that can't be made, and which worker holds it.

The order of the line is Huey's priority: downloads before previews, and within each, by the
asking client's turn, counted when the print is queued (how many prints of that rank the
client has in the table: waiting, being laid out, or finished lately). So a client with none
lately has its print laid out after at most one of each other client's, however many those
queued. A client may have `per_client` prints of a rank waiting; the whole line `bound`,
except that a client's first print (and first preview) is never turned away.

Huey delivers a task at most once: a worker killed mid-print loses it (Huey's own issues
#571, #598). So each worker process beats on the rows it holds every HEARTBEAT_SECONDS (2 s),
and any worker puts back in line (one conditional UPDATE, so once) a row whose worker
stopped beating for `job_timeout` seconds, with a new task; after MAX_ATTEMPTS such deaths the
print fails in words instead of killing a fourth worker. The task only lays out a row it moves
from waiting to running itself, so a task delivered twice (put back, or moved up from preview
to download) prints once.

Two deadlines read the same beats. Taking a print from its worker waits the long
`job_timeout` (30 s): a busy machine may be late with a beat, and a print taken from a live
worker is laid out twice. What the player is told waits only ALIVE_SECONDS (three beats, 6 s):
a page must tell the truth within 10 s, so a print whose worker stopped beating says so (and
that it goes back in line) instead of "being laid out now", and with no worker beating at all
the page says the print waits for a printer to start. (A late beat is only words on a page
for a moment.) The beats are the workers' clocks read by the web servers': machines keep
their clocks set (NTP).
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

from huey import Huey, crontab, signals
from huey.api import Task
from huey.exceptions import TaskTimeout
from sqlalchemy import Table, and_, delete, func, insert, or_, select, text, update
from sqlalchemy.engine import Engine, Row

from listbuilder import printing
from listbuilder.engine.catalog import parse_yaml
from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.engine.roster_file import RosterModel, to_roster
from listbuilder.engine.yaml_limits import ROSTER
from listbuilder.jobs.broker import make_huey
from listbuilder.printing import PrintError, PrintOptions
from listbuilder.store.rosters import RosterStore
from listbuilder.store.tables import PrintJobRow

log = logging.getLogger(__name__)

JOBS = cast(Table, PrintJobRow.__table__)
WAITING, RUNNING, DONE, FAILED = "waiting", "running", "done", "failed"
KINDS = ("roster", "rules", "deck", "chits")
# A print's rank in the line: downloads go ahead of preview pictures. A print page asks for up
# to three previews, and one more at each option changed, before its Download: in one line the
# download waited behind every stale preview (15-60 s seen in the browser tests).
DOWNLOAD, PREVIEW = 0, 1
TURNS = 1000  # a rank's priorities: -(rank * TURNS + turn), so a download beats any preview
HEARTBEAT_SECONDS = 2.0  # how often a worker marks the prints it holds as still alive
# A worker (or the print it holds) not heard of for this long is told to the player as
# stopped: three beats (6 s), so a late beat (a busy moment) does not change the page, and the
# page, asking every second, tells the truth within 10 s of a worker's death (these 6 s, the
# page's second, its request). Not the time a print is taken back from its worker: that is
# the longer job timeout (the module says why).
ALIVE_SECONDS = 3 * HEARTBEAT_SECONDS
KEEP_FINISHED = timedelta(minutes=10)  # a failed print's problems are shown this long
STUCK = timedelta(minutes=10)  # a print waiting this long has its task sent again
MAX_ATTEMPTS = 3  # a print whose worker died this many times fails instead of killing a 4th
PREVIEW_EXPIRES = 300  # seconds: a preview nobody asked after for this long is not laid out
PRINT_TIMEOUT = 600  # seconds a print may take before Huey stops it (100 cards: about 10 s)
RETRIES = 1  # a print failing on our side (a database hiccup) is tried again at once, once
TASK = "listbuilder.print"
SEEN_KEY = "listbuilder.worker-seen"  # when a worker last showed itself (Huey's store)
QUEUE_LOCK = 0x5052494E  # "PRIN": PostgreSQL advisory lock taken while a print is queued


# -- what a print is ----------------------------------------------------------------------------

@dataclass(frozen=True)
class PrintJob:
    """Everything a worker needs to make the print, kept as JSON in its row: the roster's text
    itself (not its id: the print is of the roster as it was asked for, whose text is part of
    the print's key), or the system and faction."""

    kind: str  # one of KINDS
    system: str
    options: Mapping[str, Any] = field(default_factory=dict)  # PrintOptions' fields
    text: str = ""  # roster prints: the roster file
    faction: str = ""  # chits

    def to_json(self) -> str:
        return json.dumps(asdict(self) | {"options": dict(self.options)}, sort_keys=True)

    @classmethod
    def from_json(cls, raw: str) -> PrintJob:
        data = json.loads(raw)
        return cls(kind=str(data["kind"]), system=str(data["system"]),
                   options=dict(data.get("options") or {}), text=str(data.get("text", "")),
                   faction=str(data.get("faction", "")))

    def make(self, library: Library) -> bytes:
        """The PDF (or the zip of images, for `format` png or tts); PrintError when the print
        can't be made as asked."""
        system = get_system(self.system)
        catalog = library.catalog(system)
        options = PrintOptions(**self.options)
        if self.kind == "roster":
            # the text was read when it was saved: read again here, with the same bounds
            roster = to_roster(RosterModel.model_validate(
                parse_yaml(self.text, "stored roster", ROSTER)))
            if roster.packs:  # the roster's own faction packs, built in beside the data
                catalog = library.catalog_with_packs(system, roster.packs)
            return printing.print_roster(catalog, system, roster, options).data
        if self.kind == "rules":
            return printing.print_rules(catalog, system, options).data
        if self.kind == "deck":
            return printing.print_deck(catalog, system, options).data
        if self.kind == "chits":
            return printing.print_chits(catalog, system, self.faction, options).data
        raise ValueError(f"unknown kind of print {self.kind!r}")


# -- what a player is told ----------------------------------------------------------------------

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

    @property
    def words(self) -> str:
        if self.now:
            return "being laid out now"
        if self.stopped:
            if not self.workers:
                return "waiting for a printer to start: the one laying it out stopped"
            return "going back in line: the printer laying it out stopped"
        if not self.workers:
            return f"{ordinal(self.place)} in line, waiting for a printer to start"
        return f"{ordinal(self.place)} in line"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class QueueFull(Exception):
    """The line holds as many waiting prints as it may: in all (`bound`), or of this client's
    own of this rank (`per_client`; `own`)."""

    def __init__(self, waiting: int, own: bool = False) -> None:
        self.waiting = waiting
        self.own = own
        super().__init__(f"{waiting} prints {'of this client ' if own else ''}are waiting")


class FailedOnOurSide(Exception):
    """The print failed with an error of ours, not a problem of the roster; asking again
    tries again (the row is gone)."""


@dataclass(frozen=True)
class LineState:
    """What the person running the server watches: how many prints wait, how long the oldest
    has, how many are being laid out, and whether any worker showed itself lately."""

    waiting: int
    oldest_seconds: float
    running: int
    workers_seen: bool


# -- the table ----------------------------------------------------------------------------------

def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite drops the zone


def priority(rank: int, turn: int) -> int:
    """Huey takes the highest priority first, the oldest first among equals."""
    return -(rank * TURNS + min(turn, TURNS - 1))


def worker_name() -> str:
    """This process, as the rows it holds name it (host and process id)."""
    return f"{socket.gethostname()}:{os.getpid()}"[:64]


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
        """The row's place in line as Huey will take it: 0 being laid out, 1 next."""
        if row.status != WAITING:
            return 0
        ahead = or_(JOBS.c.rank < row.rank,
                    and_(JOBS.c.rank == row.rank, JOBS.c.turn < row.turn),
                    and_(JOBS.c.rank == row.rank, JOBS.c.turn == row.turn, JOBS.c.id < row.id))
        with self.engine.connect() as connection:
            return 1 + int(connection.scalar(select(func.count()).select_from(JOBS).where(
                JOBS.c.status == WAITING, ahead)) or 0)

    def counts(self) -> tuple[int, float, int]:
        """Prints waiting, the oldest one's wait in seconds, prints being laid out."""
        with self.engine.connect() as connection:
            waiting, oldest = connection.execute(
                select(func.count(), func.min(JOBS.c.created)).where(
                    JOBS.c.status == WAITING)).one()
            running = connection.scalar(select(func.count()).select_from(JOBS).where(
                JOBS.c.status == RUNNING))
        age = (_now() - _utc(oldest)).total_seconds() if oldest is not None else 0.0
        return int(waiting or 0), max(0.0, age), int(running or 0)

    def add(self, key: str, job: PrintJob, rank: int, client: str, bound: int,
            per_client: int) -> tuple[Row[Any], bool]:
        """The row of this print, queued now for `client` if it was not: (row, whether a
        task must be sent). A waiting preview asked as a download moves up (a task is sent
        at the new priority; the old one finds the row taken and does nothing). QueueFull
        as the module says; a finished row whose PDF left the cache is replaced."""
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
                row = connection.execute(select(JOBS).where(JOBS.c.id == found.id)).one()
                return row, True
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
                created=_now(), client=client or None))
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

    def take(self, key: str, worker: str) -> str | None:
        """Move the row from waiting to being laid out by `worker`: its job's JSON, or None
        if it is not waiting (taken by another delivery of its task, or gone)."""
        with self._one.begin() as connection:
            taken = connection.execute(
                update(JOBS).where(JOBS.c.key == key, JOBS.c.status == WAITING)
                .values(status=RUNNING, worker=worker, heartbeat=_now(),
                        attempts=JOBS.c.attempts + 1)).rowcount
        if taken != 1:
            return None
        with self.engine.connect() as connection:
            return cast(str | None, connection.scalar(select(JOBS.c.job)
                                                      .where(JOBS.c.key == key)))

    def beat(self, workers: list[str]) -> int:
        """Mark the rows these worker processes hold as alive."""
        if not workers:
            return 0
        with self._one.begin() as connection:
            return int(connection.execute(update(JOBS).where(
                JOBS.c.status == RUNNING, JOBS.c.worker.in_(workers))
                .values(heartbeat=_now())).rowcount or 0)

    def finish(self, key: str, worker: str, problems: list[str] | None = None,
               failed: bool = False) -> None:
        """Done; or failed, with the problems a player is shown (None: an error of ours).
        What it printed is let go: the PDF is in the cache, and the roster's text (up to
        640 KB) would otherwise stay as long as the row does, for nothing."""
        values: dict[str, Any] = {"status": FAILED if failed else DONE, "worker": None,
                                  "finished": _now(), "job": ""}
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
        stale = _now() - timedelta(seconds=timeout)
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
                          "finished": _now(), "job": ""}
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
                JOBS.c.finished < _now() - older_than)).rowcount or 0)


# -- the printer: asking, and the task ----------------------------------------------------------

class Printer:
    """The print queue of one set of settings: the table in `store`'s database, the tasks on
    `huey`, the catalogs of `library` (a worker must have the same data folders as the web
    servers, as it has the same code). Web servers `ask`; workers run the task."""

    def __init__(self, store: RosterStore, library: Library, huey: Huey,
                 job_timeout: float = 30.0) -> None:
        self.store = store
        self.library = library
        self.huey = huey
        self.ledger = Ledger(store.engine)
        self.job_timeout = job_timeout
        # what a page calls alive; never longer than a row's worker keeps it
        self.alive_seconds = min(ALIVE_SECONDS, job_timeout)
        self.task = huey.task(retries=RETRIES, context=True, name=TASK,
                              timeout=PRINT_TIMEOUT)(self._lay_out)
        huey.periodic_task(crontab(minute="*/5"), name="listbuilder.sweep_prints")(self.sweep)
        huey.signal(signals.SIGNAL_EXPIRED)(self._expired)
        huey.signal(signals.SIGNAL_INTERRUPTED)(self._interrupted)
        huey.signal(signals.SIGNAL_TIMEOUT)(self._timed_out)

    @classmethod
    def of_settings(cls, store: RosterStore, database_url: str, redis_url: str | None,
                    job_timeout: float, *, library: Library | None = None,
                    custom_dir: Path | None = None) -> Printer:
        """The print queue web servers and workers of the same settings share: its tasks in
        Redis if `redis_url` is given, else in the database (broker.make_huey); closed with
        the store. `library` is the web app's catalogs; a worker passes none and gets those
        of the built-in data and `custom_dir` (LISTBUILDER_DATA)."""
        huey = make_huey(database_url, redis_url)
        store.also_close.append(huey.storage.close)
        if library is None:
            library = Library(custom_dir=custom_dir)
        return cls(store, library, huey, job_timeout=job_timeout)

    # asking (web servers) ---------------------------------------------------------------------

    def ask(self, key: str, job: PrintJob, *, rank: int = DOWNLOAD, client: str = "",
            bound: int = 16, per_client: int = 0,
            check: Callable[[], None] | None = None) -> bytes | InLine:
        """The PDF of this print if it is made; else its place in line, queued now if it was
        not. `check` runs before a print is queued (and may raise PrintError, as a print over
        the card bound does). Raises PrintError for a print whose layout found problems,
        FailedOnOurSide, QueueFull. Never lays anything out."""
        pdf = self.store.prints.cached(key)
        if pdf is not None:
            return pdf
        row = self.ledger.find(key)
        if row is not None and row.status == DONE:
            pdf = self.store.prints.cached(key)  # made between the two looks?
            if pdf is not None:
                return pdf
        if row is not None and row.status == FAILED:
            problems = json.loads(row.problems) if row.problems else None
            if problems:
                raise PrintError([str(p) for p in problems])
            self.ledger.forget(key, FAILED)  # an error on our side: asking again tries again
            raise FailedOnOurSide(key)
        if (row is None or row.status == DONE) and check is not None:
            check()
        if row is None or row.status == DONE or (row.status == WAITING and row.rank > rank):
            row, send = self.ledger.add(key, job, rank, client, bound, per_client)
            if send:
                self._send(row)
        place = self.ledger.place(row)
        stopped = row.status == RUNNING and not self._alive(row.heartbeat)
        return InLine(place, (place == 0 and not stopped) or self.workers_seen(), stopped)

    def _send(self, row: Row[Any]) -> None:
        expires = PREVIEW_EXPIRES if row.rank == PREVIEW else None
        try:
            self.huey.enqueue(self.task.s(row.key, priority=priority(row.rank, row.turn),
                                          expires=expires))
        except Exception:
            self.ledger.forget(row.key, WAITING)  # no task: no row waiting for one forever
            raise

    def state(self) -> LineState:
        waiting, oldest, running = self.ledger.counts()
        return LineState(waiting, oldest, running, self.workers_seen())

    def seen(self) -> None:
        """A worker is alive: kept in Huey's key-value store, beside the queue."""
        self.huey.put(SEEN_KEY, time.time())

    def workers_seen(self) -> bool:
        """Whether any worker showed itself within ALIVE_SECONDS (not the job timeout: the
        page says a print waits for a printer to start within 10 s of the last one
        stopping)."""
        try:
            seen = self.huey.get(SEEN_KEY, peek=True)
        except Exception:  # the broker away: say nothing of the workers
            return True
        return seen is not None and time.time() - float(seen) < self.alive_seconds

    def _alive(self, heartbeat: datetime | None) -> bool:
        """Whether a row's worker beat within ALIVE_SECONDS."""
        return heartbeat is not None and (
            _now() - _utc(heartbeat)).total_seconds() < self.alive_seconds

    # the task (workers) -----------------------------------------------------------------------

    def _lay_out(self, key: str, task: Task | None = None) -> None:
        worker = worker_name()
        raw = self.ledger.take(key, worker)
        if raw is None:
            return  # laid out already, or being laid out, by another delivery of its task
        try:
            pdf = PrintJob.from_json(raw).make(self.library)
        except PrintError as problem:
            self.ledger.finish(key, worker, problem.problems, failed=True)
            return
        except TaskTimeout:
            raise  # failed in words by _timed_out
        except Exception:
            if task is not None and task.retries:  # Huey tries it again in a moment
                self.ledger.put_back(key, worker)
            else:
                log.exception("print %s failed", key[:12])
                self.ledger.finish(key, worker, None, failed=True)
            raise
        if len(pdf) > self.store.prints.most:
            size = self.store.prints.most // (1024 * 1024)
            self.ledger.finish(key, worker, [
                f"this print is larger than the server keeps ({size} MB): print fewer cards "
                f"at once, or print them with `listbuilder print` on your own computer"],
                failed=True)
            return
        self.store.prints.keep(key, pdf)  # before the row is done: a poll between the two
        self.ledger.finish(key, worker)  # finds the PDF, never a done row without one

    def _expired(self, signal: str, task: Task, *args: Any) -> None:
        if task.name == TASK and task.args:
            self.ledger.forget(str(task.args[0]), WAITING)  # asked again: queued again

    def _interrupted(self, signal: str, task: Task, *args: Any) -> None:
        """A worker stopping (Ctrl+C twice, a restart) hands its print to another."""
        if task.name == TASK and task.args:
            row = self.ledger.put_back(str(task.args[0]), worker_name())
            if row is not None:
                self._send(row)

    def _timed_out(self, signal: str, task: Task, *args: Any) -> None:
        if task.name == TASK and task.args:
            self.ledger.finish(str(task.args[0]), worker_name(), [
                f"this print took longer than {PRINT_TIMEOUT // 60} minutes, so it was "
                f"stopped: print fewer cards at once"], failed=True)

    def sweep(self) -> int:
        """Remove finished rows after a while; send again the task of any print waiting
        longer than STUCK (its task lost with a broker that restarted without its data: a
        task delivered twice prints once). How many rows went."""
        for row in self.ledger.waiting_since(_now() - STUCK):
            self._send(row)
        return self.ledger.sweep()

    def recover(self) -> int:
        """Put back in line, with a new task each, the prints whose worker died; how many."""
        back = self.ledger.retake(self.job_timeout)
        for row in back:
            self._send(row)
        if back:
            log.warning("%d print(s) whose worker stopped were put back in line", len(back))
        return len(back)

    def run_pending(self) -> int:
        """Lay out every task in the queue in this thread, one by one; how many ran (tests,
        and shells: the work of a worker without one)."""
        ran = 0
        while (message := self.huey.dequeue()) is not None:
            try:
                self.huey.execute(message)
            except Exception:
                log.exception("a print task failed")
            ran += 1
        return ran
