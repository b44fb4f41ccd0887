"""`listbuilder worker`: lay out the prints players ask for, apart from the web servers, and
`listbuilder worker status`: the line as the person running the server watches it.

A worker needs only the settings the web servers have: DATABASE_URL (else the SQLite file in
the instance folder), LISTBUILDER_REDIS_URL if the queue is in Redis, LISTBUILDER_DATA if the
players' own data folder is used. Start as many as the machines have cores to spare, on any
machine that reaches the database (docs/deploying.md).
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:  # Huey, Redis and psycopg are imported by a worker, not by every command
    from listbuilder.jobs.printer import Printer

# A worker started by `serve` runs at this CPU priority below the web servers': on a machine
# whose cores are all busy, a player's edit is answered first and prints take what is left
# (the lowest there is; still never nothing, unlike SCHED_IDLE). Measured against nice 10:
# edits' p95 beside 8 printers 48-49 ms at 10, 57-58 ms at 19 in a slower spell (the
# figures: docs/deploying.md, "Print workers measured"); no clear difference either way.
SERVE_NICENESS = 19


def printer_from_settings() -> Printer:
    """The print queue of the settings in the environment, as a web server would make it."""
    from listbuilder.jobs.printer import Printer
    from listbuilder.settings import Config
    from listbuilder.store.admin import migrations
    from listbuilder.store.rosters import RosterStore

    url = migrations.configured_url()
    store = RosterStore(url, print_cache_bytes=Config.PRINT_CACHE_MB * 1024 * 1024)
    migrations.require_current(store.engine, url)
    custom = Config.LISTBUILDER_DATA
    return Printer.of_settings(store, url, Config.REDIS_URL, Config.PRINT_JOB_TIMEOUT,
                               custom_dir=Path(custom) if custom else None)


@click.group(invoke_without_command=True)
@click.option("--concurrency", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Prints laid out at once, each in a process of its own (about one a core "
                   "to spare).")
@click.option("--nice", type=click.IntRange(0, 19), default=0, show_default=True,
              help="Run at this lower CPU priority (what serve starts uses "
                   f"{SERVE_NICENESS}), so web servers on the same machine come first.")
@click.pass_context
def worker(ctx: click.Context, concurrency: int, nice: int) -> None:
    """Lay out the prints players ask for, until stopped (Ctrl+C finishes the prints in hand;
    SIGTERM hands them back to the line for another worker)."""
    if ctx.invoked_subcommand is not None:
        return
    from listbuilder.commands.server import hide_tokens_in_logs
    from listbuilder.jobs import worker as consumer
    from listbuilder.jobs.broker import describe
    from listbuilder.store.admin import migrations

    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s")
    hide_tokens_in_logs()
    try:
        printer = printer_from_settings()
    except migrations.SchemaNotCurrent as refused:
        click.echo(str(refused), err=True)
        sys.exit(1)
    click.echo(f"Print worker: {concurrency} at once, queue in {describe(printer.huey)}, "
               f"database {migrations.shown(migrations.configured_url())}")
    consumer.run(printer, concurrency=concurrency, nice=nice)


@worker.command()
def status() -> None:
    """The line now: prints waiting, the oldest's wait, prints being laid out, whether any
    worker beat lately (within prints.ALIVE_SECONDS, as a player's page says it). Exit status
    1 when prints wait and no worker beat lately."""
    state = printer_from_settings().state()
    click.echo(f"waiting: {state.waiting}")
    click.echo(f"oldest waiting: {state.oldest_seconds:.0f} s")
    click.echo(f"being laid out: {state.running}")
    click.echo(f"workers seen lately: {'yes' if state.workers_seen else 'no'}")
    if state.waiting and not state.workers_seen and not state.running:
        sys.exit(1)


def spawn_workers(count: int, nice: int = SERVE_NICENESS,
                  holding: int | None = None) -> subprocess.Popen[bytes] | None:
    """A `listbuilder worker` beside a server, ending with it however it ends; `holding`, a
    descriptor it keeps open as long as it lives (the server's serving lock: a `db restore`
    waits for the worker too, as it has the database open)."""
    if count < 1:
        return None

    def die_with_server() -> None:  # in the child, before it runs anything
        from listbuilder.jobs.worker import lower_priority
        from listbuilder.processes import die_with_parent

        die_with_parent(signal.SIGTERM)
        lower_priority(nice)

    return subprocess.Popen(
        [sys.executable, "-m", "listbuilder", "worker", "--concurrency", str(count),
         "--nice", str(nice)], preexec_fn=die_with_server, env=os.environ.copy(),
        pass_fds=() if holding is None else (holding,))
