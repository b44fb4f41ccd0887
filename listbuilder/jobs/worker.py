"""`listbuilder worker`: Huey's consumer for the print queue, apart from the web servers.

The consumer forks `concurrency` worker processes (Huey restarts one that dies) and a
scheduler (the periodic sweep). Its main loop also tends the line every HEARTBEAT_SECONDS
(2 s): it beats on the prints its live worker processes hold, and puts back in line those of
any worker, on any machine, that stopped beating for the job timeout (`Printer.recover`).
The beat is that often so that a player's page tells a stopped worker within 10 s
(prints.ALIVE_SECONDS); one round is three small statements, nothing to a database. Each
worker process dies with the consumer (a consumer killed outright leaves no orphan laying out
beside the print it lost). The whole worker runs at a lower CPU priority (`nice`) than web
servers on the same machine.
"""

from __future__ import annotations

import logging
import os
import signal
import threading
import time
from typing import Any

from huey.consumer import Consumer, Worker

from listbuilder.jobs.ledger import HEARTBEAT_SECONDS, worker_name
from listbuilder.jobs.printer import Printer

log = logging.getLogger(__name__)
POLL_MAX_SECONDS = 1.0  # an idle worker looks at a queue that can't wake it (SQLite) this often


def _die_with_consumer() -> None:
    from listbuilder.processes import die_with_parent

    die_with_parent(signal.SIGKILL)


class PrintConsumer(Consumer):  # type: ignore[misc]
    """Huey's consumer, whose main loop also beats and recovers (no thread of ours: the
    consumer forks new workers from this process, and a fork must not copy a busy thread)."""

    def __init__(self, printer: Printer, **options: Any) -> None:
        super().__init__(printer.huey, **options)
        self.printer = printer
        self._next_tend = 0.0

    def names(self) -> list[str]:
        host = worker_name().rsplit(":", 1)[0]
        alive = [process.pid for _, process in self.worker_threads
                 if getattr(process, "pid", None) and process.is_alive()]
        return [f"{host}:{pid}" for pid in alive] or [worker_name()]

    def loop(self, health_check_ts: float | None = None) -> float | None:
        result = super().loop(health_check_ts)
        if time.monotonic() >= self._next_tend:
            self._next_tend = time.monotonic() + HEARTBEAT_SECONDS
            tend(self.printer, self.names())
        return result  # type: ignore[no-any-return]


def tend(printer: Printer, names: list[str]) -> None:
    """Beat on the prints these worker processes hold; put back those of dead workers."""
    try:
        printer.seen()
        printer.ledger.beat(names)
        printer.recover()
    except Exception:  # the database away a moment: the next round tries again
        log.exception("could not tend the print line")


def lower_priority(nice: int) -> None:
    """Run at niceness `nice` at least (set, not added: a worker started by `serve` already
    runs at it from its first instruction)."""
    if nice > os.getpriority(os.PRIO_PROCESS, 0):
        os.setpriority(os.PRIO_PROCESS, 0, nice)


def run(printer: Printer, concurrency: int = 1, nice: int = 0) -> None:
    """Run the consumer until it is stopped (SIGINT: finish the prints in hand; SIGTERM:
    hand them back to the line at once)."""
    lower_priority(nice)
    printer.huey.on_startup("listbuilder.die_with_consumer")(_die_with_consumer)

    def fresh_connections() -> None:  # a forked worker must not share the parent's sockets
        printer.store.engine.dispose(close=False)
        from listbuilder.engine.registry import all_systems
        from listbuilder.printing.render import warm_up

        warm_up()  # the renderer's set-up and every game's catalog, before the first print
        for system in all_systems():
            printer.library.catalog(system)

    printer.huey.on_startup("listbuilder.fresh_connections")(fresh_connections)
    # Huey's health check (a dead worker process forked again) as often as the beat: the
    # consumer's own loop, which beats too, so a lost process is replaced as soon as its print
    # stops being beaten on
    consumer = PrintConsumer(printer, workers=concurrency, worker_type="process",
                             max_delay=POLL_MAX_SECONDS, periodic=True,
                             health_check_interval=HEARTBEAT_SECONDS)
    tend(printer, [])  # what died before this worker started waits no longer than it must
    consumer.run()


class WorkerThread:
    """A worker in a thread of this process: the browser tests' servers, and `serve --debug`
    without a worker of its own. Huey's own Worker loop; beats and recovery in a second
    thread."""

    def __init__(self, printer: Printer) -> None:
        self.printer = printer
        self.stop_flag = threading.Event()
        self.worker = Worker(printer.huey, self.stop_flag, default_delay=0.05,
                             max_delay=0.25, backoff=1.5)
        self.threads = [threading.Thread(target=self._work, name="print-worker", daemon=True),
                        threading.Thread(target=self._tend, name="print-tend", daemon=True)]

    def start(self) -> WorkerThread:
        tend(self.printer, [worker_name()])
        for thread in self.threads:
            thread.start()
        return self

    def stop(self, wait: float = 10.0) -> None:
        self.stop_flag.set()
        for thread in self.threads:
            if thread.is_alive() and thread is not threading.current_thread():
                thread.join(wait)

    def _work(self) -> None:
        try:
            while not self.stop_flag.is_set():
                self.worker.loop()
        finally:  # this thread's connections (PostgreSQL's LISTEN is one a thread)
            self.printer.huey.storage.close()

    def _tend(self) -> None:
        while not self.stop_flag.wait(HEARTBEAT_SECONDS):
            tend(self.printer, [worker_name()])
