"""Prints on Huey: asking for one (web servers) and laying it out (workers).

A print from the browser whose PDF is in the print cache is answered at once. Any other is
asked of the `Printer`: a row in the line (jobs/ledger.py), keyed by the print's key (the same
print asked twice, by one player or two, is one row), and a Huey message, a doorbell. A
`listbuilder worker` anywhere is woken by it (Huey: storage, retries, timeouts, periodic
sweeps, process supervision), takes the first print in line, lays it out, keeps the PDF in
the print cache in the database and marks the row done. The player's page asks
again every second; once done, whichever web server answers finds the PDF in the cache.

The row is what Huey does not keep: what to print (the roster's text, up to 640 KB, stays in
our database, not in the broker), the client who asked (a keyed digest, never the address),
the place in line, the problems of a print that can't be made, and which worker holds it.

The line has one order, kept by the table alone (jobs/ledger.py, `LINE`): downloads before
previews, then by the asking client's turn, then first come. A Huey message is a doorbell: it
names no print and has no priority, and the worker it wakes takes the first print waiting in
that order. Every print queued rings once, so there are never fewer doorbells than prints
waiting; a doorbell that finds none waiting does nothing. (Huey's own priority once ordered
the line too, and the table counted the player's place again by the same rule: two orders
to keep equal, now one.) A client may have `per_client` prints of a rank waiting; the whole
line `bound`, except that a client's first print (and first preview) is never turned away.

Huey delivers a task at most once: a worker killed mid-print loses it (Huey's own issues
#571, #598). So each worker process beats on the rows it holds every HEARTBEAT_SECONDS (2 s),
and any worker puts back in line (one conditional UPDATE, so once) a row whose worker
stopped beating for `job_timeout` seconds, ringing again; after MAX_ATTEMPTS such deaths the
print fails in words instead of killing a fourth worker. The task only lays out a row it moves
from waiting to running itself, so a doorbell rung twice prints nothing twice.

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
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from huey import Huey, crontab, signals
from huey.api import Task
from huey.exceptions import TaskTimeout
from sqlalchemy.engine import Row

from listbuilder.engine.library import Library
from listbuilder.jobs.broker import make_huey
from listbuilder.jobs.ledger import (
    ALIVE_SECONDS,
    DONE,
    DOWNLOAD,
    FAILED,
    RUNNING,
    WAITING,
    InLine,
    Ledger,
    LineState,
    worker_name,
)
from listbuilder.jobs.print_job import PrintJob
from listbuilder.printing import PrintError
from listbuilder.store.database import now, utc
from listbuilder.store.rosters import RosterStore

log = logging.getLogger(__name__)

STUCK = timedelta(minutes=10)  # a print waiting this long is rung for again
PRINT_TIMEOUT = 600  # seconds a print may take before Huey stops it (100 cards: about 10 s)
RETRIES = 1  # a print failing on our side (a database hiccup) is tried again at once, once
TASK = "listbuilder.print"
SEEN_KEY = "listbuilder.worker-seen"  # when a worker last showed itself (Huey's store)


class FailedOnOurSide(Exception):
    """The print failed with an error of ours, not a problem of the roster; asking again
    tries again (the row is gone)."""



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
        self.doorbell = huey.task(retries=RETRIES, context=True, name=TASK,
                                  timeout=PRINT_TIMEOUT)(self._lay_out)
        huey.periodic_task(crontab(minute="*/5"), name="listbuilder.sweep_prints")(self.sweep)
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
            row, new = self.ledger.add(key, job, rank, client, bound, per_client)
            if new:
                self._ring(row)
        place = self.ledger.place(row)
        stopped = row.status == RUNNING and not self._alive(row.heartbeat)
        return InLine(place, (place == 0 and not stopped) or self.workers_seen(), stopped)

    def _ring(self, row: Row[Any] | None = None) -> None:
        """Wake a worker: it takes the first print waiting, whichever that is. `row`, a print
        just queued, leaves the line again if the bell can't ring (no row waits for a
        doorbell forever)."""
        try:
            self.huey.enqueue(self.doorbell.s())
        except Exception:
            if row is not None:
                self.ledger.forget(row.key, WAITING)
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
            now() - utc(heartbeat)).total_seconds() < self.alive_seconds

    # the task (workers) -----------------------------------------------------------------------

    def _lay_out(self, task: Task | None = None) -> str | None:
        """The doorbell's task: lay out the first print waiting; its key (None: none waited,
        every print rung for is taken already)."""
        worker = worker_name()
        taken = self.ledger.take_next(worker)
        if taken is None:
            return None
        key, raw = taken
        try:
            pdf = PrintJob.from_json(raw).make(self.library)
        except PrintError as problem:
            self.ledger.finish(key, worker, problem.problems, failed=True)
            return key
        except TaskTimeout:
            raise  # failed in words by _timed_out
        except Exception:
            if task is not None and task.retries:  # Huey rings again in a moment
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
            return key
        self.store.prints.keep(key, pdf)  # before the row is done: a poll between the two
        self.ledger.finish(key, worker)  # finds the PDF, never a done row without one
        return key

    def _interrupted(self, signal: str, task: Task, *args: Any) -> None:
        """A worker stopping (Ctrl+C twice, a restart) hands its print to another."""
        if task.name == TASK:
            for key in self.ledger.held(worker_name()):
                if self.ledger.put_back(key, worker_name()) is not None:
                    self._ring()

    def _timed_out(self, signal: str, task: Task, *args: Any) -> None:
        if task.name == TASK:
            for key in self.ledger.held(worker_name()):
                self.ledger.finish(key, worker_name(), [
                    f"this print took longer than {PRINT_TIMEOUT // 60} minutes, so it was "
                    f"stopped: print fewer cards at once"], failed=True)

    def sweep(self) -> int:
        """Remove finished rows after a while; send again the task of any print waiting
        longer than STUCK (its doorbell lost with a broker that restarted without its data:
        a doorbell too many does nothing). How many rows went."""
        for _ in self.ledger.waiting_since(now() - STUCK):
            self._ring()
        return self.ledger.sweep()

    def recover(self) -> int:
        """Put back in line, ringing for each, the prints whose worker died; how many."""
        back = self.ledger.retake(self.job_timeout)
        for _ in back:
            self._ring()
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
