"""Prints are laid out beside the edits, not in their threads: a bounded queue in the database.

A print from the browser whose PDF is in the shared print cache is answered at once. Any other
becomes a job in the table print_jobs, keyed by the print's key (the same print asked twice,
by one player or two, is one job), and the request is answered at once with the print's place
in line (`ask`). Each server process runs one print runner, a thread (`start_runner`: gunicorn's
workers start it when forked, Werkzeug's server at its first print) that claims the oldest
waiting job, lays it out through the renderer (and so the process's warm layout processes),
keeps the PDF in the print cache and marks the job done. The player's page asks again every
second; once the job is done the same address answers the PDF from the cache.

The queue lives in the database every worker and machine shares, so a poll may reach any of
them. A claim is one conditional UPDATE (`... WHERE status = 'waiting'`, then its row count),
so two runners never take the same job, on SQLite or PostgreSQL alike.

The line is shared fairly between clients (addresses, as the limits count them; each job
keeps a keyed digest of its asker's, never the address). A client may have at most
`PRINT_QUEUE_PER_CLIENT` prints waiting, and as many previews; past that, `QueueFull` with
`own` set. The whole line is bounded too (`PRINT_QUEUE` waiting; past it, `QueueFull`), but
a client's first print (and first preview) waiting is its reserve, never turned away however
full the line is. And runners take the line in turns (`fair_line`): a client's print comes
after at most one print of each other client, however many those queued (downloads still
go ahead of previews). So one address that filled its share delays another's print by one
layout at most, and can't keep it out. A runner beats on its job's row every few
seconds while laying it out; a job whose runner stopped beating for `PRINT_JOB_TIMEOUT`
seconds (its worker was killed) is put back in line, up to MAX_ATTEMPTS times. Finished and
failed jobs are swept after a while: the PDF itself lives on in the print cache.

Tests run with Flask's test client, which has no server and so no runner: `run_next_job(app)`
lays out the next job in the caller's thread.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

from flask import Flask, abort, current_app, has_request_context, request
from sqlalchemy import Table, delete, func, insert, select, text, update
from sqlalchemy.engine import Connection, Engine, Row

from listbuilder import printing
from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.printing import PrintError, PrintOptions
from listbuilder.printing.workers import run_in_pool
from listbuilder.storage import PrintJobRow, RosterStore

log = logging.getLogger(__name__)

JOBS = cast(Table, PrintJobRow.__table__)
WAITING, RUNNING, DONE, FAILED = "waiting", "running", "done", "failed"
KINDS = ("roster", "rules", "deck", "chits")
# A print's rank in the line: downloads go ahead of preview pictures. A print page asks for up
# to three previews, and one more at each option changed, before its Download: in one line the
# download waited behind every stale preview (15-60 s seen in the browser tests).
DOWNLOAD, PREVIEW = 0, 1
HEARTBEAT_SECONDS = 5.0  # how often a runner marks the job it lays out as still alive
POLL_SECONDS = 0.5  # how often an idle runner looks for work queued by another process
SWEEP_EVERY = 60.0  # seconds between two sweeps of finished jobs, in each runner
KEEP_FINISHED = timedelta(minutes=10)  # a failed job's problems are shown this long
MAX_ATTEMPTS = 3  # a job whose runner died this many times fails instead of killing a fourth
PAUSE_AFTER_ERROR = 2.0  # seconds a runner rests after its own failure (a database away)
QUEUE_LOCK = 0x5052494E  # "PRIN": PostgreSQL advisory lock taken while a job is queued


# -- what a job prints ------------------------------------------------------------------------

@dataclass(frozen=True)
class PrintJob:
    """Everything a runner in any process needs to make the print, kept as JSON in its row:
    the roster's text itself (not its id: the print is of the roster as it was asked for,
    whose text is part of the print's key), or the system and faction."""

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
        from listbuilder.web.rosters import parse_stored

        system = get_system(self.system)
        catalog = library.catalog(system)
        options = PrintOptions(**self.options)
        if self.kind == "roster":
            roster = parse_stored(self.text)
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


# -- what a player is told --------------------------------------------------------------------

@dataclass(frozen=True)
class InLine:
    """Where a print stands: 0 is being laid out now, 1 is next, and so on."""

    place: int

    @property
    def now(self) -> bool:
        return self.place == 0

    @property
    def words(self) -> str:
        return "being laid out now" if self.now else f"{ordinal(self.place)} in line"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class QueueFull(Exception):
    """The line holds as many waiting prints as it may: in all (`PRINT_QUEUE`), or of this
    client's own of this rank (`PRINT_QUEUE_PER_CLIENT`; `own`)."""

    def __init__(self, waiting: int, own: bool = False) -> None:
        self.waiting = waiting
        self.own = own
        super().__init__(f"{waiting} prints {'of this client ' if own else ''}are waiting")


def client_of_request() -> str:
    """The client asking, as the limits count it (its address: the player's own behind the
    proxy settings), as a digest keyed with the app's secret key: the table never holds an
    address, and trying every IPv4 address does not find it without the key. "" outside a
    request (a shell, a test queueing directly)."""
    if not has_request_context():
        return ""
    address = (request.remote_addr or "127.0.0.1").encode("utf-8", "surrogateescape")
    secret = current_app.secret_key or b""
    key = secret.encode("utf-8") if isinstance(secret, str) else bytes(secret)
    return hmac.new(key, b"print-client\0" + address, hashlib.sha256).hexdigest()[:32]


# -- the table --------------------------------------------------------------------------------

def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # SQLite drops the zone


@dataclass(frozen=True)
class Claimed:
    id: int
    key: str
    job: str
    claim: str


def _of_clients(clients: Collection[str | None]) -> Any:
    """The rows of these clients (None: jobs queued outside a request)."""
    named = [c for c in clients if c is not None]
    where = JOBS.c.client.in_(named)
    return where | JOBS.c.client.is_(None) if None in clients else where


def fair_line(connection: Connection) -> list[int]:
    """The ids of the waiting jobs in the order runners take them: downloads before previews;
    within a rank, by each client's turn, then by age. A job's turn is how many prints of its
    rank its client has had taken lately (being laid out, or finished within KEEP_FINISHED)
    plus its own waiting ahead of it. So a client with none taken lately has its print laid
    out after at most one print of each other client, however many they queued; and one
    that keeps printing goes behind those that don't. Reads only the index on (status,
    client, rank), never a job's text."""
    waiting = connection.execute(select(JOBS.c.id, JOBS.c.rank, JOBS.c.client)
                                 .where(JOBS.c.status == WAITING)).all()
    if not waiting:
        return []
    taken: Counter[tuple[str | None, int]] = Counter()
    for client, rank, count in connection.execute(
            select(JOBS.c.client, JOBS.c.rank, func.count())
            .where(JOBS.c.status.in_((RUNNING, DONE, FAILED)),
                   _of_clients({row.client for row in waiting}))
            .group_by(JOBS.c.client, JOBS.c.rank)):
        taken[(client, int(rank))] = int(count)
    turn: dict[int, int] = {}
    for row in sorted(waiting, key=lambda r: int(r.id)):
        mine = (row.client, int(row.rank))
        turn[row.id] = taken[mine]
        taken[mine] += 1
    return [int(r.id) for r in sorted(waiting, key=lambda r: (r.rank, turn[r.id], r.id))]


class Queue:
    """The print_jobs table of one store. Reads need no lock; a write that is one statement
    runs as a transaction of its own on SQLite (the database's write lock held inside one
    call into SQLite, as a roster's save is); queueing, which counts then inserts, holds
    the write lock (SQLite) or an advisory lock (PostgreSQL) for its few statements."""

    def __init__(self, store: RosterStore) -> None:
        self.store = store
        self.engine: Engine = store.engine
        self._locked = store.engine.execution_options(sqlite_immediate=True)
        self._one = store.engine.execution_options(sqlite_one_statement=True)

    def find(self, key: str) -> Row[Any] | None:
        with self.engine.connect() as connection:
            return connection.execute(select(JOBS).where(JOBS.c.key == key)).first()

    def place(self, row: Row[Any]) -> InLine:
        """The row's place in line, as it stands now (taken meanwhile: being laid out)."""
        if row.status != WAITING:
            return InLine(0)
        with self.engine.connect() as connection:
            line = fair_line(connection)
        return InLine(line.index(row.id) + 1 if row.id in line else 0)

    def waiting(self) -> int:
        with self.engine.connect() as connection:
            return int(connection.scalar(select(func.count()).select_from(JOBS)
                                         .where(JOBS.c.status == WAITING)) or 0)

    def add(self, key: str, job: PrintJob, bound: int, rank: int = DOWNLOAD, client: str = "",
            per_client: int = 0) -> Row[Any]:
        """Queue the print for `client`, unless it is queued already (then that job, moved up
        to `rank` if it waits below it). QueueFull (`own`) if the client has `per_client`
        prints of this rank waiting (0: no such bound); QueueFull if `bound` jobs wait in all
        and this is not the client's first of this rank. A finished job of the same key
        whose PDF left the cache is replaced."""
        with self._locked.begin() as connection:
            if connection.dialect.name == "postgresql":  # two workers counting at once
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                   {"key": QUEUE_LOCK})
            connection.execute(delete(JOBS).where(JOBS.c.key == key, JOBS.c.status == DONE))
            found = connection.execute(select(JOBS).where(JOBS.c.key == key)).first()
            if found is not None and found.status == WAITING and found.rank > rank:
                connection.execute(update(JOBS).where(JOBS.c.id == found.id).values(rank=rank))
                found = connection.execute(select(JOBS).where(JOBS.c.key == key)).first()
            if found is not None:  # queued before, or by another request meanwhile
                return found
            _check_room(connection, bound, rank, client or None, per_client)
            connection.execute(insert(JOBS).values(
                key=key, kind=job.kind, job=job.to_json(), status=WAITING, rank=rank, attempts=0,
                created=_now(), client=client or None))
            row = connection.execute(select(JOBS).where(JOBS.c.key == key)).first()
        assert row is not None
        return row

    def forget(self, job_id: int) -> None:
        with self._one.begin() as connection:
            connection.execute(delete(JOBS).where(JOBS.c.id == job_id))

    def claim(self, timeout: float) -> Claimed | None:
        """Take the oldest waiting job for this runner, or None. Jobs whose runner stopped
        beating `timeout` seconds ago go back in line first (or fail, after MAX_ATTEMPTS)."""
        self._retake(_now() - timedelta(seconds=timeout))
        for _ in range(10):  # lost races to other runners: try the next job
            with self.engine.connect() as connection:
                line = fair_line(connection)
                if not line:
                    return None
                row = connection.execute(select(JOBS.c.id, JOBS.c.key, JOBS.c.job)
                                         .where(JOBS.c.id == line[0])).first()
            if row is None:  # taken and swept meanwhile
                continue
            token = secrets.token_hex(16)
            with self._one.begin() as connection:
                taken = connection.execute(
                    update(JOBS).where(JOBS.c.id == row.id, JOBS.c.status == WAITING)
                    .values(status=RUNNING, claim=token, heartbeat=_now(),
                            attempts=JOBS.c.attempts + 1)).rowcount
            if taken == 1:
                return Claimed(row.id, row.key, row.job, token)
        return None

    def _retake(self, stale: datetime) -> None:
        with self.engine.connect() as connection:  # a read first: nearly always none
            dead = connection.execute(select(JOBS.c.id).where(
                JOBS.c.status == RUNNING, JOBS.c.heartbeat < stale)).first()
        if dead is None:
            return
        gave_up = json.dumps([
            f"this print stopped the server's printer {MAX_ATTEMPTS} times, so it was given "
            f"up: print fewer cards at once, or print them with `listbuilder print` on your "
            f"own computer"])
        with self._one.begin() as connection:
            connection.execute(update(JOBS).where(
                JOBS.c.status == RUNNING, JOBS.c.heartbeat < stale,
                JOBS.c.attempts >= MAX_ATTEMPTS).values(
                status=FAILED, problems=gave_up, claim=None, finished=_now()))
        with self._one.begin() as connection:
            back = connection.execute(update(JOBS).where(
                JOBS.c.status == RUNNING, JOBS.c.heartbeat < stale).values(
                status=WAITING, claim=None)).rowcount
        if back:
            log.warning("%d print job(s) whose runner stopped were put back in line", back)

    def beat(self, claimed: Claimed) -> None:
        with self._one.begin() as connection:
            connection.execute(update(JOBS).where(JOBS.c.id == claimed.id,
                                                  JOBS.c.claim == claimed.claim)
                               .values(heartbeat=_now()))

    def finish(self, claimed: Claimed, problems: list[str] | None = None,
               failed: bool = False) -> None:
        """Done; or failed, with the problems a player is shown (None: an error of ours).
        What it printed is let go: the PDF is in the cache, and the roster's text (up to
        640 KB) would otherwise stay as long as the row does (KEEP_FINISHED), for nothing."""
        values: dict[str, Any] = {"status": FAILED if failed else DONE, "claim": None,
                                  "finished": _now(), "job": ""}
        if failed:
            values["problems"] = json.dumps(problems) if problems is not None else None
        with self._one.begin() as connection:
            connection.execute(update(JOBS).where(JOBS.c.id == claimed.id,
                                                  JOBS.c.claim == claimed.claim)
                               .values(**values))

    def sweep(self, older_than: timedelta = KEEP_FINISHED) -> int:
        """Remove finished and failed jobs finished before `older_than` ago; how many."""
        with self._one.begin() as connection:
            return int(connection.execute(delete(JOBS).where(
                JOBS.c.status.in_((DONE, FAILED)),
                JOBS.c.finished < _now() - older_than)).rowcount or 0)


def _waiting_of(connection: Connection, client: str | None, rank: int) -> int:
    return int(connection.scalar(select(func.count()).select_from(JOBS).where(
        JOBS.c.status == WAITING, _of_clients({client}), JOBS.c.rank == rank)) or 0)


def _check_room(connection: Connection, bound: int, rank: int, client: str | None,
                per_client: int) -> None:
    """QueueFull unless the line has room for one more print of this client's at this rank.
    A client's first is always let in: a full line (others' prints) never turns it away."""
    mine = _waiting_of(connection, client, rank)
    if per_client and mine >= per_client:
        raise QueueFull(mine, own=True)
    if mine:
        waiting = int(connection.scalar(select(func.count()).select_from(JOBS)
                                        .where(JOBS.c.status == WAITING)) or 0)
        if waiting >= bound:
            raise QueueFull(waiting)


def queue_of(app: Flask) -> Queue:
    """The app's queue (made on first use, on the app's store)."""
    found = app.extensions.get("listbuilder.print_queue")
    store = cast(RosterStore, app.extensions["listbuilder.store"])
    if not isinstance(found, Queue) or found.store is not store:
        found = app.extensions["listbuilder.print_queue"] = Queue(store)
    return found


# -- asking for a print -----------------------------------------------------------------------

def _nothing() -> None:
    return None


def ask(key: str, job: PrintJob, check: Callable[[], None] = _nothing,
        rank: int = DOWNLOAD) -> bytes | InLine:
    """The PDF of this print if it is made; else its place in line, the print queued now if
    it was not (a download already queued for its preview moves ahead of the previews).
    `check` runs before a print is queued (and may raise PrintError, as a print over the card
    bound does). Raises PrintError for a print whose layout found problems,
    QueueFull when the line holds as many waiting prints as it may, in all or of this client's
    (`own`). Never lays anything out."""
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    store = cast(RosterStore, app.extensions["listbuilder.store"])
    pdf = store.cached_print(key)
    if pdf is not None:
        return pdf
    _serve_runner(app)
    queue = queue_of(app)
    row = queue.find(key)
    if row is not None and row.status == DONE:
        pdf = store.cached_print(key)  # made between the two looks?
        if pdf is not None:
            return pdf
    if row is not None and row.status == FAILED:
        problems = json.loads(row.problems) if row.problems else None
        if problems:
            raise PrintError([str(p) for p in problems])
        queue.forget(row.id)  # an error on our side: asking again tries again
        abort(500, "This print failed on our side. Reload the page to try again; if it fails "
                   "again, try other options or fewer cards.")
    if row is None or row.status == DONE:  # not asked for yet, or its PDF left the cache
        check()
        row = queue.add(key, job, int(app.config["PRINT_QUEUE"]), rank, client_of_request(),
                        int(app.config.get("PRINT_QUEUE_PER_CLIENT") or 0))
        _wake(app)
    elif row.status == WAITING and row.rank > rank:
        row = queue.add(key, job, int(app.config["PRINT_QUEUE"]), rank)
    return queue.place(row)


# -- running the queue ------------------------------------------------------------------------

def run_next_job(app: Flask, runner: Runner | None = None) -> bool:
    """Claim the oldest waiting job, lay it out in this thread, keep its PDF and mark it done
    (or failed); False if none was waiting. A `runner` beats on the job meanwhile."""
    with app.app_context():
        queue = queue_of(app)
        claimed = queue.claim(float(app.config["PRINT_JOB_TIMEOUT"]))
        if claimed is None:
            return False
        if runner is not None:
            runner.holding = claimed
        try:
            _run(app, queue, claimed)
        finally:
            if runner is not None:
                runner.holding = None
        return True


def run_jobs(app: Flask) -> int:
    """Run jobs until none is waiting; how many ran (tests, and `flask` shells)."""
    ran = 0
    while run_next_job(app):
        ran += 1
    return ran


_LIBRARIES: dict[tuple[str | None, str | None], Library] = {}


def make_print(job_json: str, builtin_dir: str | None, custom_dir: str | None) -> bytes:
    """A job's PDF, made from its JSON in whatever process runs this (a layout process: see
    `_run`), with the catalogs of the given folders, loaded once per process."""
    folders = (builtin_dir, custom_dir)
    if folders not in _LIBRARIES:
        _LIBRARIES[folders] = Library(Path(builtin_dir) if builtin_dir else None,
                                      Path(custom_dir) if custom_dir else None)
    return PrintJob.from_json(job_json).make(_LIBRARIES[folders])


def _run(app: Flask, queue: Queue, claimed: Claimed) -> None:
    library = cast(Library, app.extensions["listbuilder.library"])
    folders = [str(d) if d else None for d in (library.builtin_dir, library.custom_dir)]
    try:
        # The whole print is made in a layout process: laid out here, its Python work (the
        # templates, the imposition) would hold this worker's interpreter lock while its
        # threads answer edits, and at the workers' priority.
        pdf = run_in_pool(make_print, claimed.job, *folders)
    except PrintError as problem:
        queue.finish(claimed, problem.problems, failed=True)
        return
    except Exception:
        log.exception("print job %s failed", claimed.id)
        queue.finish(claimed, None, failed=True)
        return
    if len(pdf) > queue.store.print_cache_bytes:
        size = queue.store.print_cache_bytes // (1024 * 1024)
        queue.finish(claimed, [f"this print is larger than the server keeps ({size} MB): "
                               f"print fewer cards at once, or print them with `listbuilder "
                               f"print` on your own computer"], failed=True)
        return
    queue.store.keep_print(claimed.key, pdf)  # before it is marked done: a poll between the
    queue.finish(claimed)  # two finds the PDF, never a done job without one


class Runner:
    """One process's print runner: a thread that runs the queue's jobs one at a time, and a
    second that beats on the job held, so other processes see this one is alive."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.pid = os.getpid()
        self.wake = threading.Event()
        self.stopping = threading.Event()
        self.holding: Claimed | None = None
        self.thread = threading.Thread(target=self._run, name="print-runner", daemon=True)
        self.beats = threading.Thread(target=self._beat, name="print-heartbeat", daemon=True)

    def start(self) -> None:
        self.thread.start()
        self.beats.start()

    def alive(self) -> bool:
        return self.pid == os.getpid() and self.thread.is_alive()

    def stop(self, wait: float = 10.0) -> None:
        self.stopping.set()
        self.wake.set()
        for thread in (self.thread, self.beats):
            if thread.is_alive() and thread is not threading.current_thread():
                thread.join(wait)

    def _run(self) -> None:
        swept = 0.0
        while not self.stopping.is_set():
            ran = False
            try:
                ran = run_next_job(self.app, self)
                if time.monotonic() - swept > SWEEP_EVERY:
                    swept = time.monotonic()
                    with self.app.app_context():
                        queue_of(self.app).sweep()
            except Exception:  # the database away, say: rest, then carry on
                log.exception("the print runner failed; it carries on")
                self.stopping.wait(PAUSE_AFTER_ERROR)
            if not ran:
                self.wake.wait(POLL_SECONDS)
                self.wake.clear()

    def _beat(self) -> None:
        while not self.stopping.wait(HEARTBEAT_SECONDS):
            held = self.holding
            if held is None:
                continue
            try:
                with self.app.app_context():
                    queue_of(self.app).beat(held)
            except Exception:
                log.exception("the print runner's heartbeat failed")


_RUNNERS: dict[int, Runner] = {}
_RUNNERS_LOCK = threading.Lock()


def start_runner(app: Flask) -> Runner:
    """This process's runner for the app, started if it is not running."""
    with _RUNNERS_LOCK:
        runner = _RUNNERS.get(id(app))
        if runner is None or runner.app is not app or not runner.alive():
            runner = _RUNNERS[id(app)] = Runner(app)
            runner.start()
        return runner


def stop_runner(app: Flask) -> None:
    with _RUNNERS_LOCK:
        runner = _RUNNERS.pop(id(app), None)
    if runner is not None and runner.pid == os.getpid():
        runner.stop()


def _serve_runner(app: Flask) -> None:
    """Start this process's runner at its first print, if a real HTTP server runs the app
    (Werkzeug's development server, the browser tests' server): gunicorn's workers started
    theirs when forked, and Flask's test client is no server (it sets no SERVER_SOFTWARE)."""
    if (app.config.get("PRINT_RUNNER") and has_request_context()
            and request.environ.get("SERVER_SOFTWARE")):
        start_runner(app)


def _wake(app: Flask) -> None:
    runner = _RUNNERS.get(id(app))
    if runner is not None:
        runner.wake.set()
