"""`listbuilder db backup` and `db restore`: a copy of the whole database in one file, and that
file put back.

SQLite goes through its online backup API both ways. A backup reads one consistent snapshot
while the server keeps saving (WAL: the backup's read never blocks a save). A restore writes
through the same API into the live database path, after SQLite itself has folded in any
write-ahead log a killed server left behind: copying a file over a database that has a `-wal`
beside it makes SQLite apply that stale log to the copied pages, a malformed database (the
bug this module exists for). PostgreSQL goes through `pg_dump --format=custom` and
`pg_restore`.

Whatever fails, nothing is left half done: a backup is written beside its file and renamed
into place only once checked; a restore first keeps a safety copy of the database it replaces
and puts it back if anything after that fails.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import func, inspect, select, text
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

from listbuilder.store.admin import liveness, migrations
from listbuilder.store.database import BUSY_TIMEOUT_MS, make_engine
from listbuilder.store.rosters import ROSTERS
from listbuilder.store.tables import Base

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_MAGIC = b"PGDMP"  # how a pg_dump custom-format archive begins
PG_CLIENT_PACKAGE = "postgresql-client"
CHECK_ROWS = 20  # problems an integrity check reports at most: enough to show, not a flood
# The tables a restore may drop when the backup lacks them (a backup from an older revision):
# ours only, never another application's tables sharing the database.
OUR_TABLES = frozenset({*Base.metadata.tables, "alembic_version"})


class BackupError(RuntimeError):
    """A backup or restore refused or failed; the message says why and what to do."""


class _Untouched(BackupError):
    """Refused before anything was written: there is nothing to put back."""


@dataclass(frozen=True)
class Contents:
    """What a database or a backup holds, as far as the messages need."""

    tables: frozenset[str]
    revision: str | None  # recorded in alembic_version; None if there is none
    legacy: str | None  # the revision the tables match when none is recorded
    rosters: int | None  # None: no rosters table

    def described(self) -> str:
        count = self.rosters or 0
        rosters = f"{count} roster" + ("" if count == 1 else "s")
        if self.revision is not None:
            return f"{rosters} at revision {self.revision}"
        if self.legacy is not None:
            return f"{rosters} made before migrations (the tables of revision {self.legacy})"
        return "an empty database (no Listbuilder tables)"


# -- the commands ---------------------------------------------------------------------------


def backup(url: str, target: Path) -> str:
    """Write a backup of the database at `url` to `target`; the line to show."""
    if _backend(url) == "sqlite":
        contents = _sqlite_backup(_sqlite_path(url), target)
    else:
        contents = _pg_backup(url, target)
    return f"backed up {contents.described()} to {target}"


def restore(url: str, source: Path, instance: Path) -> list[str]:
    """Replace the database at `url` with the backup in `source`, unless a server is running
    on it (see `liveness`); the lines to show."""
    if _backend(url) == "sqlite":
        restored, kept = _sqlite_restore(url, _sqlite_path(url), source, instance)
    else:
        restored, kept = _pg_restore(url, source, instance)
    lines = [f"restored {restored.described()} from {source}"]
    if kept is not None and kept.exists():
        lines.append(f"the database it replaced is kept in {kept}")
    elif kept is not None:  # there was only a write-ahead log, without its database
        lines.append(f"a write-ahead log found without its database is kept in {kept}-wal")
    head = migrations.head()
    if restored.revision != head:
        lines.append(f"the backup is behind this Listbuilder's revision {head}: run "
                     f"`{migrations.UPGRADE_COMMAND}` before starting the server")
    return lines


def damage(url: str) -> str | None:
    """What is wrong with an SQLite database file (`PRAGMA quick_check`, or an error reading
    it), as a message saying what to do; None if it reads well or is not SQLite."""
    if _backend(url) != "sqlite":
        return None
    path = _sqlite_path(url)
    if not path.exists():
        return None
    try:
        with closing(_open(path, create=False)) as connection:
            problems = _problems(connection, "quick_check")
    except sqlite3.Error as error:
        problems = [str(error)]
    if not problems:
        return None
    return (f"The database at {path} is damaged ({'; '.join(problems[:3])}). Stop the server, "
            f"then restore the latest backup: `listbuilder db restore FILE` (it keeps the "
            f"damaged database aside).")


# -- SQLite ---------------------------------------------------------------------------------


def _sqlite_backup(database: Path, target: Path) -> Contents:
    if not database.is_file():
        raise BackupError(f"there is no database at {database}")
    if not target.parent.is_dir():
        raise BackupError(f"there is no folder {target.parent} to write {target.name} in")
    own = {Path(f"{database}{suffix}").resolve() for suffix in ("", "-wal", "-shm", "-journal")}
    if target.resolve() in own:
        raise BackupError(f"{target} is the database's own file: back it up to another name")
    with _draft(target) as draft:
        try:
            with closing(_open(database, create=False)) as live, \
                    closing(_open(draft)) as copy:
                # one step (pages=-1): one read transaction, so one consistent snapshot, while
                # saves go on in the WAL; in steps, every save would restart the copy
                live.backup(copy, pages=-1)
                # the copy carries the live file's WAL flag; a backup must be one file alone
                copy.execute("PRAGMA journal_mode = DELETE")
                _require_intact(copy, f"the backup written to {target}",
                                "It was not kept: try again, and check the disk")
                contents = _sqlite_contents(copy)
        except sqlite3.Error as error:
            raise BackupError(f"could not back up {database}: {error}") from error
    return contents


def _sqlite_restore(url: str, database: Path, source: Path,
                    instance: Path) -> tuple[Contents, Path | None]:
    _check_sqlite_source(source, database)
    with liveness.exclusive_use(url, instance), _staged(source, database.parent) as staged:
        try:
            src = _open(staged, create=False)
        except sqlite3.Error as error:
            raise BackupError(f"{source} can't be read as a database: {error}") from error
        with closing(src):
            try:
                # ours alone: it may carry a WAL flag (sqlite3's .backup of a live database)
                src.execute("PRAGMA journal_mode = DELETE")
                _require_intact(src, str(source), "Nothing was changed")
                wanted = _sqlite_contents(src)
            except sqlite3.Error as error:
                raise BackupError(f"{source} can't be read as a database: {error}") from error
            _require_restorable(wanted, source)
            aside = _set_aside(database)
            try:
                restored = _copy_into(src, database)
                if restored != wanted:
                    raise BackupError(f"the restored database holds {restored.described()}, "
                                      f"the backup {wanted.described()}")
            except _Untouched:
                raise
            except BaseException as error:
                _put_back(aside, database, error)
                if isinstance(error, BackupError | sqlite3.Error | OSError):
                    raise BackupError(f"{error}; the database was put back as it was") \
                        from error
                raise
    return restored, aside.path if aside else None


def _check_sqlite_source(source: Path, database: Path) -> None:
    if not source.is_file():
        raise BackupError(f"there is no file {source}")
    if database.exists() and source.resolve() == database.resolve():
        raise BackupError(f"{source} is the database itself")
    head = _head(source)
    if head.startswith(PG_MAGIC):
        raise BackupError(f"{source} is a PostgreSQL backup (pg_dump), and DATABASE_URL names an "
                          f"SQLite database: nothing was changed")
    if not head.startswith(SQLITE_MAGIC):
        raise BackupError(f"{source} is not an SQLite database (not a backup from "
                          f"`listbuilder db backup`): nothing was changed")
    wal = Path(f"{source}-wal")
    if wal.exists() and wal.stat().st_size > 0:
        # its latest changes are in that log, which a copy of the main file alone would lose
        raise BackupError(f"{source} has a write-ahead log beside it ({wal.name}): it is a live "
                          f"database, or a copy of one made by copying files. Back it up with "
                          f"`listbuilder db backup` and restore that: nothing was changed")


def _require_restorable(contents: Contents, source: Path) -> None:
    if contents.rosters is None:
        raise BackupError(f"{source} holds no rosters table: it is not a Listbuilder backup. "
                          f"Nothing was changed")
    if contents.revision is not None and not migrations.is_known(contents.revision):
        raise BackupError(
            f"{source} is at revision {contents.revision}, which this Listbuilder does not know: "
            f"it was backed up from a newer version (this one's is {migrations.head()}). "
            f"Restore it with that version. Nothing was changed")


@dataclass(frozen=True)
class _Aside:
    path: Path  # the safety copy
    moved: bool  # True: the database's own files, moved as they were (it could not be read)


def _set_aside(database: Path) -> _Aside | None:
    """Keep a safety copy of the database about to be replaced; None if there is none."""
    wal, shm = Path(f"{database}-wal"), Path(f"{database}-shm")
    safety = _unused(database.with_name(f"{database.name}.before-restore-"
                                        f"{datetime.now():%Y%m%d-%H%M%S}"))
    if not database.exists():
        if wal.exists():  # a log with no database: it must not be applied to the new one
            wal.rename(f"{safety}-wal")
            shm.unlink(missing_ok=True)
            return _Aside(safety, moved=True)
        return None
    try:
        with closing(_open(database, create=False)) as live:
            _take_out_of_wal(live)  # folds in a killed server's log, checks nobody else is in
            with closing(_open(_private(safety))) as copy:
                live.backup(copy, pages=-1)
        return _Aside(safety, moved=False)
    except sqlite3.Error as error:
        if not _named(error, "SQLITE_NOTADB", "SQLITE_CORRUPT"):
            safety.unlink(missing_ok=True)
            raise BackupError(f"could not copy {database} aside before restoring: {error}. "
                              f"Nothing was changed") from error
    # Not readable as a database: kept exactly as it is, files moved (nothing else has them
    # open: a server would have been found, and SQLite could not have opened it anyway)
    safety.unlink(missing_ok=True)
    database.rename(safety)
    if wal.exists():
        wal.rename(f"{safety}-wal")
    shm.unlink(missing_ok=True)
    return _Aside(safety, moved=True)


def _copy_into(src: sqlite3.Connection, database: Path) -> Contents:
    with closing(_open(database)) as live:
        _take_out_of_wal(live)
        src.backup(live, pages=-1)
        live.execute("PRAGMA journal_mode = WAL")  # as the server runs it
        _require_intact(live, f"the restored database {database}")
        return _sqlite_contents(live)


def _put_back(aside: _Aside | None, database: Path, cause: BaseException) -> None:
    """Undo a restore that failed after the database was set aside."""
    try:
        if aside is None or aside.moved:
            for leftover in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
                leftover.unlink(missing_ok=True)
            if aside is not None:
                if aside.path.exists():
                    aside.path.rename(database)
                if Path(f"{aside.path}-wal").exists():
                    Path(f"{aside.path}-wal").rename(f"{database}-wal")
            return
        with closing(_open(aside.path, create=False)) as copy, \
                closing(_open(database)) as live:
            _take_out_of_wal(live)
            copy.backup(live, pages=-1)
            live.execute("PRAGMA journal_mode = WAL")
            _require_intact(live, f"{database} put back")
    except BaseException as error:
        where = aside.path if aside else None
        raise BackupError(f"the restore failed ({cause}), and so did putting the database "
                          f"back ({error}); the database as it was is in {where}: restore it "
                          f"with `listbuilder db restore {where}`") from error


def _take_out_of_wal(connection: sqlite3.Connection) -> None:
    # Leaving WAL mode checkpoints the log into the file and deletes it, which SQLite does
    # only with no other connection open: a program we could not see (a server without the
    # serving lock, an sqlite3 shell) makes it fail here, before anything changed.
    try:
        mode = connection.execute("PRAGMA journal_mode = DELETE").fetchone()[0]
    except sqlite3.OperationalError as error:
        if not _named(error, "SQLITE_BUSY", "SQLITE_LOCKED"):
            raise
        mode = "wal"
    if mode != "delete":
        raise _Untouched("another program has the database open (a server, an sqlite3 "
                          "shell?): stop it first, then try again. Nothing was changed")


def _named(error: sqlite3.Error, *names: str) -> bool:
    """Whether SQLite's error is one of these, extended codes included (SQLITE_BUSY_RECOVERY
    is a SQLITE_BUSY)."""
    return getattr(error, "sqlite_errorname", "").startswith(names)


def _sqlite_contents(connection: sqlite3.Connection) -> Contents:
    tables = frozenset(row[0] for row in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'"))
    revision = legacy = None
    if "alembic_version" in tables:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        revision = row[0] if row else None
    else:
        columns = {t: {c[1] for c in connection.execute(
            "SELECT * FROM pragma_table_info(?)", (t,))} for t in tables}
        legacy = migrations.legacy_match(columns)
    rosters = (connection.execute("SELECT count(*) FROM rosters").fetchone()[0]
               if "rosters" in tables else None)
    return Contents(tables, revision, legacy, rosters)


def _require_intact(connection: sqlite3.Connection, what: str, then: str = "") -> None:
    problems = _problems(connection, "integrity_check")
    if problems:
        raise BackupError(f"{what} fails SQLite's integrity check: {'; '.join(problems[:3])}"
                          + (f". {then}" if then else ""))


def _problems(connection: sqlite3.Connection, check: str) -> list[str]:
    found = [row[0] for row in connection.execute(f"PRAGMA {check}({CHECK_ROWS})")]
    return [] if found == ["ok"] else found


def _open(path: Path, create: bool = True) -> sqlite3.Connection:
    # isolation_level None: Python's sqlite3 must not open transactions of its own around
    # our PRAGMAs; mode=rw: a database that vanished must not be made again, empty
    mode = "rwc" if create else "rw"
    connection = sqlite3.connect(f"file:{quote(str(path))}?mode={mode}", uri=True,
                                 isolation_level=None)
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return connection


@contextmanager
def _staged(source: Path, folder: Path) -> Iterator[Path]:
    """A private copy of the backup beside the database: what is checked is what is restored
    (the file can't change in between), and opening it never touches the user's file."""
    folder.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=folder, prefix=".restore-", suffix=".sqlite3")
    os.close(fd)
    staged = Path(name)
    try:
        shutil.copyfile(source, staged)
        yield staged
    finally:
        for leftover in (staged, Path(f"{staged}-wal"), Path(f"{staged}-shm"),
                         Path(f"{staged}-journal")):
            leftover.unlink(missing_ok=True)


def _sqlite_path(url: str) -> Path:
    database = make_url(url).database
    if database in (None, "", ":memory:"):
        raise BackupError("DATABASE_URL names an in-memory SQLite database: nothing to back up")
    return Path(database)


# -- PostgreSQL ------------------------------------------------------------------------------


def _pg_backup(url: str, target: Path) -> Contents:
    pg_dump = _client_program("pg_dump")
    if not target.parent.is_dir():
        raise BackupError(f"there is no folder {target.parent} to write {target.name} in")
    conninfo, env = _libpq(url)
    engine = make_engine(url)
    try:
        with _draft(target) as draft, engine.connect() as connection:
            # pg_dump reads the snapshot this transaction exported, so the rosters counted
            # here are exactly the ones in the file, whatever is saved meanwhile
            connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                snapshot = connection.execute(text("SELECT pg_export_snapshot()")).scalar_one()
                contents = _pg_contents(connection)
                _run([pg_dump, "--format=custom", f"--snapshot={snapshot}", f"--file={draft}",
                      f"--dbname={conninfo}"], env, "pg_dump")
            _run([_client_program("pg_restore"), "--list", str(draft)], env,
                 f"pg_restore could not read the backup it wrote to {target}")
    except SQLAlchemyError as error:
        raise BackupError(f"could not back up {migrations.shown(url)}: {error}") from error
    finally:
        engine.dispose()
    return contents


def _pg_restore(url: str, source: Path, instance: Path) -> tuple[Contents, Path | None]:
    pg_restore = _client_program("pg_restore")
    conninfo, env = _libpq(url)
    if not source.is_file():
        raise BackupError(f"there is no file {source}")
    if _head(source).startswith(SQLITE_MAGIC):
        raise BackupError(f"{source} is an SQLite backup, and DATABASE_URL names a PostgreSQL "
                          f"database: nothing was changed")
    if not _head(source).startswith(PG_MAGIC):
        raise BackupError(f"{source} is not a PostgreSQL backup made by `listbuilder db backup` "
                          f"(pg_dump --format=custom): nothing was changed")
    tables = _archive_tables(pg_restore, source, env)
    dumped = _run([pg_restore, "--data-only", "--table=alembic_version", "--file=-",
                   str(source)], env, f"{source} can't be read")
    revision = _copied_value(dumped) if "alembic_version" in tables else None
    _require_restorable(Contents(tables, revision, None, 0 if "rosters" in tables else None),
                        source)
    instance.mkdir(parents=True, exist_ok=True)
    with liveness.exclusive_use(url, instance):
        engine = make_engine(url)
        try:
            others = liveness.connected_elsewhere(engine)
            if others:
                raise BackupError(
                    f"{others} other Listbuilder connection(s) are open on "
                    f"{migrations.shown(url)}: a server on this or another machine? Stop the "
                    f"servers first, then try again. Nothing was changed")
            database = make_url(url).database or "listbuilder"
            safety = _unused(instance / f"{database}.before-restore-"
                                        f"{datetime.now():%Y%m%d-%H%M%S}.dump")
            try:
                _run([_client_program("pg_dump"), "--format=custom",
                      f"--file={_private(safety)}", f"--dbname={conninfo}"], env,
                     "could not keep a copy of the database before restoring; nothing was "
                     "changed")
            except BaseException:
                safety.unlink(missing_ok=True)
                raise
            engine.dispose()  # an idle connection of ours must not be in pg_restore's way
            try:
                _pg_restore_file(pg_restore, source, conninfo, env, tables, engine)
                with engine.connect() as connection:
                    restored = _pg_contents(connection)
            except BaseException as error:
                try:
                    _pg_restore_file(pg_restore, safety, conninfo, env,
                                     _archive_tables(pg_restore, safety, env), engine)
                except BaseException as again:
                    raise BackupError(
                        f"the restore failed ({error}), and so did putting the database back "
                        f"({again}); the database as it was is in {safety}: restore it with "
                        f"`listbuilder db restore {safety}`") from again
                if isinstance(error, BackupError):
                    raise BackupError(f"{error}; the database was put back as it was") from error
                raise
        except SQLAlchemyError as error:
            raise BackupError(f"could not restore into {migrations.shown(url)}: {error}") \
                from error
        finally:
            engine.dispose()
    return restored, safety


def _archive_tables(pg_restore: str, archive: Path, env: dict[str, str]) -> frozenset[str]:
    """The tables a pg_dump archive holds, from its table of contents (lines such as
    "215; 1259 16390 TABLE public rosters postgres"; not its TABLE DATA lines)."""
    listed = _run([pg_restore, "--list", str(archive)], env, f"{archive} can't be read")
    return frozenset(re.findall(r"^\d+; \d+ \d+ TABLE (?!DATA )\S+ (\S+) ", listed,
                                flags=re.M))


def _pg_restore_file(pg_restore: str, archive: Path, conninfo: str, env: dict[str, str],
                     tables: frozenset[str], engine: Engine) -> None:
    """Restore the archive holding `tables` over the database."""
    # --clean drops only what the archive holds: tables of a newer revision than the backup's
    # (or alembic_version, for a backup from before migrations) would stay and say the
    # database is further on than its rosters table is. They go first: one that refers to a
    # table of the archive (roster_history to rosters) would stop --clean dropping that one.
    # A restore that fails then is put back from the copy taken before (_pg_restore).
    extra = sorted(OUR_TABLES - tables)
    with engine.begin() as connection:
        for name in extra:
            connection.execute(text(f'DROP TABLE IF EXISTS "{name}" CASCADE'))
    # one transaction: a restore that fails anywhere leaves the database as it was
    _run([pg_restore, "--clean", "--if-exists", "--no-owner", "--single-transaction",
          "--exit-on-error", f"--dbname={conninfo}", str(archive)], env, "pg_restore failed")


def _pg_contents(connection: Connection) -> Contents:
    state = migrations.state_of(connection)
    tables = frozenset(inspect(connection).get_table_names())
    rosters = (connection.execute(select(func.count()).select_from(ROSTERS)).scalar_one()
               if "rosters" in tables else None)
    return Contents(tables, state.current, state.legacy, rosters)


def _copied_value(script: str) -> str | None:
    """The first value of a table's COPY data in a pg_restore script."""
    lines = script.splitlines()
    for n, line in enumerate(lines):
        if line.startswith("COPY ") and n + 1 < len(lines) and lines[n + 1] != "\\.":
            return lines[n + 1].split("\t")[0]
    return None


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """The URL as libpq's programs take it, and their environment: the password goes in
    PGPASSWORD, never on a command line that every user's `ps` shows."""
    parsed: URL = make_url(url)
    env = dict(os.environ)
    if parsed.password:
        env["PGPASSWORD"] = str(parsed.password)
    plain = parsed.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _client_program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed: it comes with PostgreSQL's client programs "
                          f"(Debian and Ubuntu: apt-get install {PG_CLIENT_PACKAGE})")
    return found


def _run(command: list[str], env: dict[str, str], failure: str) -> str:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        told = done.stderr.strip() or done.stdout.strip() or f"exit status {done.returncode}"
        raise BackupError(f"{failure}: {told}")
    return done.stdout


# -- files ----------------------------------------------------------------------------------


@contextmanager
def _draft(target: Path) -> Iterator[Path]:
    """A private file beside `target`, renamed onto it once the block succeeds: a failed
    backup never leaves a half file, nor spoils an earlier backup of the same name."""
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    os.close(fd)  # mkstemp made it readable by its owner alone: a backup holds share links
    draft = Path(name)
    try:
        yield draft
        _fsync(draft)
        os.replace(draft, target)
        _fsync(target.parent)
    finally:
        draft.unlink(missing_ok=True)


def _private(path: Path) -> Path:
    """Create `path` empty, readable by its owner alone (it will hold every share link)."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    return path


def _unused(path: Path) -> Path:
    """`path`, or with -2, -3 ... after it if a file of that name is there (two restores in
    one second)."""
    candidate, n = path, 1
    while candidate.exists() or Path(f"{candidate}-wal").exists():
        n += 1
        candidate = path.with_name(f"{path.name}-{n}")
    return candidate


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _head(path: Path) -> bytes:
    with path.open("rb") as f:
        return f.read(len(SQLITE_MAGIC))


def _backend(url: str) -> str:
    return make_url(url).get_backend_name()
