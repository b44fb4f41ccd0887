"""`listbuilder serve` holds the database's serving lock (store/admin/liveness.py) in
gunicorn's master and, inherited, in every worker: `listbuilder db restore` refuses while any
of them lives, goes ahead once a killed server's processes are gone (no stale lock), and a server
does not start while a restore holds the database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from listbuilder.store.admin import liveness
from listbuilder.store.database import sqlite_url

CLI = [sys.executable, "-c", "from listbuilder.commands.cli import main; main()"]

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def environment(instance: Path) -> dict[str, str]:
    env = {**os.environ, "LISTBUILDER_INSTANCE": str(instance)}
    for name in ("DATABASE_URL", "LISTBUILDER_WORKERS", "LISTBUILDER_THREADS",
                 "LISTBUILDER_LANES"):
        env.pop(name, None)
    return env


def lb(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*CLI, *args], env=env, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def holders(lock: Path) -> set[int]:
    """The processes with the lock file open."""
    found = set()
    for fd in Path("/proc").glob("[0-9]*/fd/*"):
        try:
            if os.readlink(fd) == str(lock):
                found.add(int(fd.parent.parent.name))
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


def wait_for(check: Callable[[], bool], what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture
def site(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An instance folder whose database is at the code's revision, and a backup of it."""
    env = environment(tmp_path / "instance")
    assert lb(env, "db", "upgrade").returncode == 0
    backup = tmp_path / "backup.sqlite3"
    assert lb(env, "db", "backup", str(backup)).returncode == 0
    return env, backup


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[bytes]]]:
    processes: list[subprocess.Popen[bytes]] = []
    yield processes
    for process in processes:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=30)


def test_a_restore_waits_for_the_master_and_every_worker_of_serve(
        site: tuple[dict[str, str], Path], started: list[subprocess.Popen[bytes]]) -> None:
    env, backup = site
    instance = Path(env["LISTBUILDER_INSTANCE"])
    database = instance / "listbuilder.sqlite3"
    url = sqlite_url(database)
    port = free_port()
    server = subprocess.Popen([*CLI, "serve", "--port", str(port), "--workers", "2"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    started.append(server)

    def listening() -> bool:
        assert server.poll() is None, server.communicate()[0].decode()
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            return False

    wait_for(listening, "the server did not start listening")
    lock = liveness.lock_path(url, instance)
    assert lock == Path(f"{database}.serving")
    # the master, its two workers, and the print worker it started beside them (which has
    # the database open as much as they do)
    wait_for(lambda: len(holders(lock)) == 4, "the master and its three workers hold the lock")
    workers = holders(lock) - {server.pid}
    assert server.pid in holders(lock) and len(workers) == 3
    assert liveness.server_running(url, instance)

    refused = lb(env, "db", "restore", str(backup))
    assert refused.returncode == 1
    assert "a Listbuilder server is running on this database" in refused.stderr

    # SIGKILL: the master lets go of nothing itself; its workers end with it (they die with
    # their parent), and the kernel drops the lock with the last of them
    server.send_signal(signal.SIGKILL)
    server.wait()
    wait_for(lambda: not holders(lock), "the workers outlived the master")
    # a worker still exiting may no longer show its files in /proc yet hold the lock for a
    # moment more: the lock is let go soon after, never held on
    wait_for(lambda: not liveness.server_running(url, instance), "the lock outlived the server")
    done = lb(env, "db", "restore", str(backup))
    assert done.returncode == 0, done.stderr


def test_serve_does_not_start_while_a_restore_holds_the_database(
        site: tuple[dict[str, str], Path]) -> None:
    env, _ = site
    instance = Path(env["LISTBUILDER_INSTANCE"])
    url = sqlite_url(instance / "listbuilder.sqlite3")
    port = free_port()
    with liveness.exclusive_use(url, instance):
        done = lb(env, "serve", "--port", str(port))
    assert done.returncode == 1
    assert "a `listbuilder db restore` is replacing this database right now" in done.stderr
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        pass  # nothing listens
