"""Is a Listbuilder server running on this database? Asked before anything replaces the
database under it (`listbuilder db restore`).

A server holds a shared `flock` on a lock file for as long as it lives: beside the SQLite file
(`<db>.serving`), or in the instance folder for a database elsewhere. `listbuilder serve` takes
it in gunicorn's master before the app opens the database (`cli.serve`). The lock belongs to
the open file, which forked workers inherit, so it lasts while any of the server's processes
lives and the kernel drops it when the last one ends, however it ends (SIGKILL, a crash, the
machine's power): there is no pid file to go stale. Processes the server starts with exec
(nginx in front) do not inherit it (the descriptor is closed on exec), but for `serve`'s print
worker, which is handed it on purpose. Several servers may hold it at once
(shared); a restore takes it exclusively, so no server can start while the database is being
replaced, and none can be running when the restore begins.

The lock file only sees servers on this machine. For PostgreSQL, `connected_elsewhere` also
asks the database for other Listbuilder connections (`store.database.APPLICATION_NAME`), which sees
servers on every machine that has a connection open.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Engine, make_url

from listbuilder.store.database import APPLICATION_NAME


class RestoreUnderWay(RuntimeError):
    """A server was asked to start while a restore replaces its database."""


class ServerRunning(RuntimeError):
    """A restore was asked for while a server uses the database: the message says what to do."""


def lock_path(url: str, instance: Path) -> Path:
    """The lock file a server on this database holds."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        return Path(f"{parsed.database}.serving")
    # Not a file of ours to sit beside: named after what identifies the database (not the
    # user, password or driver, which can differ between two servers on the same one).
    backend = parsed.get_backend_name()
    if backend == "postgres":  # the spelling many hosts hand out (store.database.make_engine)
        backend = "postgresql"
    port = parsed.port or (5432 if backend == "postgresql" else None)
    identity = f"{backend}://{parsed.host}:{port}/{parsed.database}"
    digest = hashlib.sha256(identity.encode("utf-8")).hexdigest()[:16]
    return instance / f"{backend}-{digest}.serving"


class ServingLock:
    """The lock a running server holds. It has no `__del__` on purpose: dropping the handle
    must not release the lock, which lasts until `release` or the end of the last process
    that inherited it."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    def fileno(self) -> int | None:
        """The held descriptor, for a child that must hold the lock too (not forked: `serve`'s
        print worker), or None once released."""
        return self._fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing this process's descriptor; forked children keep theirs
            self._fd = None


def hold_serving_lock(url: str, instance: Path) -> ServingLock:
    """Mark this process (and the workers it will fork) as serving the database at `url`:
    `listbuilder serve` calls it first. Raises RestoreUnderWay if a restore holds the
    database right now."""
    path = lock_path(url, instance)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = _open(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise RestoreUnderWay(
            "a `listbuilder db restore` is replacing this database right now: start the "
            "server again when it has finished") from None
    except BaseException:
        os.close(fd)
        raise
    return ServingLock(path, fd)


def server_running(url: str, instance: Path) -> bool:
    """Whether a server on this machine holds the database's serving lock (without waiting)."""
    if not lock_path(url, instance).exists():  # no server ever ran on it here
        return False
    try:
        with exclusive_use(url, instance):
            return False
    except ServerRunning:
        return True


@contextlib.contextmanager
def exclusive_use(url: str, instance: Path) -> Iterator[Path]:
    """Hold the serving lock exclusively for the block: no server on this machine is running
    (else ServerRunning) and none can start until the block ends."""
    path = lock_path(url, instance)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = _open(path)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ServerRunning(
                f"a Listbuilder server is running on this database (it holds {path}): stop "
                f"it first, then try again") from None
        yield path
    finally:
        os.close(fd)  # drops the lock


def connected_elsewhere(engine: Engine) -> int:
    """How many other Listbuilder connections (servers, on any machine, or other commands)
    a PostgreSQL database has open; 0 for other databases."""
    if engine.dialect.name != "postgresql":
        return 0
    with engine.connect() as connection:
        found = connection.execute(text(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND application_name = :name AND pid <> pg_backend_pid()"),
            {"name": APPLICATION_NAME}).scalar_one()
    return int(found)


def _open(path: Path) -> int:
    # The file is never deleted: unlinking a lock file lets a second process lock a new file
    # of the same name while the first still holds the old one.
    return os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
