"""`listbuilder db backup` and `db restore`, run as the host runs them (the CLI in its own
process) on real SQLite files and a real PostgreSQL server: a backup taken while players save
is one consistent moment; a restore over a database whose server was killed, leaving its
write-ahead log behind, gives a sound database with every roster of the backup; a restore is
refused while a server runs, and a file that is not a good backup is refused losing nothing;
`db check` fails on a damaged database. Also: a server's lock outlives its master in its
forked workers and dies with the last of them, even by SIGKILL; database errors never carry
the statement's values."""

from __future__ import annotations

import logging
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import closing, suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pgserver
import pytest
from servetools import alive
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from listbuilder.engine.library import Library
from listbuilder.store.admin import backup, liveness, migrations
from listbuilder.store.database import make_engine, sqlite_url
from listbuilder.store.links import hash_token
from listbuilder.store.rosters import RosterStore
from listbuilder.web.rosters import open_stored

pytestmark = pytest.mark.slow

CLI = [sys.executable, "-c", "from listbuilder.commands.cli import main; main()"]
EXAMPLE = (Path(__file__).resolve().parents[2] / "examples" / "warstuff" / "legal.yaml").read_text()
HEAD = migrations.head()


def roster_text(name: str) -> str:
    """A real roster file (the web layer must open it), named `name`."""
    assert "name: Border Patrol\n" in EXAMPLE
    return EXAMPLE.replace("name: Border Patrol\n", f"name: {name}\n")


def environment(instance: Path, url: str | None = None) -> dict[str, str]:
    env = {**os.environ, "LISTBUILDER_INSTANCE": str(instance)}
    env.pop("DATABASE_URL", None)
    if url is not None:
        env["DATABASE_URL"] = url
    return env


def lb(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([*CLI, *args], env=env, capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stderr, done.stderr
    return done


def integrity(path: Path) -> list[str]:
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
        return [row[0] for row in connection.execute("PRAGMA integrity_check")]


def rosters_in(path: Path) -> dict[int, tuple[int, str]]:
    """id -> (version, text) of every roster in an SQLite file, read without changing it."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
        return {i: (v, t) for i, v, t in connection.execute(
            "SELECT id, version, text FROM rosters")}


def kept_in(line: str) -> Path:
    """The safety copy a restore's message names."""
    found = re.fullmatch(r"the database it replaced is kept in (.+)", line)
    assert found is not None, line
    return Path(found[1])


def files_of(folder: Path) -> list[str]:
    """The folder's files but SQLite's own side files and the serving lock's (made by a
    restore that got as far as taking it)."""
    return sorted(p.name for p in folder.iterdir()
                  if not p.name.endswith(("-wal", "-shm", ".serving")))


def wait_gone(pid: int) -> None:
    """Until the process has ended (its descriptors, and so its locks, are gone with it)."""
    for _ in range(3000):
        if not alive(pid):
            return
        threading.Event().wait(0.01)
    raise AssertionError(f"process {pid} did not end")


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    """Processes a test started: each one's process group is killed when the test ends."""
    processes: list[subprocess.Popen[str]] = []
    yield processes
    for process in processes:
        with suppress(ProcessLookupError):  # the group may be gone already
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        if process.stdout is not None:
            process.stdout.close()


def start(started: list[subprocess.Popen[str]], code: str, *args: str) -> tuple[
        subprocess.Popen[str], list[str]]:
    """A Python process running `code`; the lines it printed up to its line "ready"."""
    process = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE,
                               text=True, start_new_session=True)
    started.append(process)
    assert process.stdout is not None
    lines: list[str] = []
    for line in process.stdout:
        if line.strip() == "ready":
            return process, lines
        lines.append(line.strip())
    raise AssertionError(f"the process ended before it was ready: {lines}")


# A server that writes rosters, then is killed (SIGKILL) mid-life: its writes sit in the WAL.
KILLED_SERVER = """
import sys
from listbuilder.store.rosters import RosterStore
store = RosterStore(sys.argv[1])
for n in range(5):
    store.create("warstuff", f"Lost {n}", sys.argv[2].replace("Border Patrol", f"Lost {n}"))
print("ready", flush=True)
import time
time.sleep(600)
"""

# A server as gunicorn runs it: a master holding the serving lock, and a worker forked after.
LOCK_HOLDER = """
import os, sys, time
from pathlib import Path
from listbuilder.store.admin.liveness import hold_serving_lock
lock = hold_serving_lock(sys.argv[1], Path(sys.argv[2]))
worker = os.fork()
if worker == 0:
    time.sleep(600)
    os._exit(0)
print(worker)
print("ready", flush=True)
time.sleep(600)
"""


@pytest.fixture
def sqlite_site(tmp_path: Path) -> tuple[dict[str, str], Path]:
    """An instance folder with its default SQLite database, at the code's revision: the
    environment of its commands, and the database's path."""
    env = environment(tmp_path / "instance")
    done = lb(env, "db", "upgrade")
    assert done.returncode == 0, done.stderr
    return env, tmp_path / "instance" / "listbuilder.sqlite3"


# -- SQLite ----------------------------------------------------------------------------------


def test_a_backup_taken_while_players_save_restores_over_a_killed_servers_database(
        sqlite_site: tuple[dict[str, str], Path], tmp_path: Path,
        started: list[subprocess.Popen[str]]) -> None:
    env, database = sqlite_site
    url = sqlite_url(database)
    store = RosterStore(url)
    saved: dict[tuple[int, int], str] = {}  # (id, version) -> the text saved at that version
    tokens: dict[int, str] = {}
    guard = threading.Lock()
    for n in range(8):
        made, token = store.create("warstuff", f"Patrol {n}", roster_text(f"Patrol {n}"))
        saved[made.id, 1], tokens[made.id] = made.text, token
    stop, errors = threading.Event(), []
    warmed = threading.Barrier(5)  # the four players have each saved, and the test goes on

    def player(n: int) -> None:
        try:
            mine = [i for i in sorted(tokens) if i % 4 == n]
            versions = dict.fromkeys(mine, 1)
            round_ = 0
            while not stop.is_set():
                round_ += 1
                for roster_id in mine:
                    name = f"Patrol {roster_id} round {round_}"
                    done = store.save(roster_id, versions[roster_id], name, roster_text(name))
                    versions[roster_id] = done.version
                    with guard:
                        saved[roster_id, done.version] = done.text
                made, token = store.create("warstuff", f"New {n}.{round_}",
                                           roster_text(f"New {n}.{round_}"))
                with guard:
                    saved[made.id, 1], tokens[made.id] = made.text, token
                if round_ == 1:
                    warmed.wait()
        except BaseException as error:
            errors.append(error)
            warmed.abort()

    players = [threading.Thread(target=player, args=(n,)) for n in range(4)]
    for thread in players:
        thread.start()
    try:
        warmed.wait()
        target = tmp_path / "backups" / "live.sqlite3"
        target.parent.mkdir()
        done = lb(env, "db", "backup", str(target))
    finally:
        stop.set()
        for thread in players:
            thread.join()
        store.close()
    assert errors == []
    assert done.returncode == 0, done.stderr
    in_backup = rosters_in(target)
    assert done.stdout.strip() == f"backed up {len(in_backup)} rosters at revision {HEAD} " \
                                  f"to {target}"
    assert integrity(target) == ["ok"]
    assert not Path(f"{target}-wal").exists() and list(target.parent.iterdir()) == [target]
    with closing(sqlite3.connect(f"file:{target}?mode=ro", uri=True)) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert len(in_backup) > 8
    for roster_id, (version, stored_text) in in_backup.items():  # one consistent moment
        assert saved[roster_id, version] == stored_text

    # The server is killed (SIGKILL) after writing: its last writes are only in the WAL.
    killed, _ = start(started, KILLED_SERVER, url, EXAMPLE)
    killed.kill()
    killed.wait()
    assert Path(f"{database}-wal").stat().st_size > 0

    done = lb(env, "db", "restore", str(target))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"restored {len(in_backup)} rosters at revision {HEAD} from {target}"
    kept = kept_in(lines[1])
    assert kept.parent == database.parent and kept.name.startswith(
        "listbuilder.sqlite3.before-restore-")
    assert len(lines) == 2  # the backup is at the code's revision: nothing more to do
    assert integrity(database) == ["ok"]
    assert rosters_in(database) == in_backup
    # the killed server's last writes were folded into the copy kept aside, not lost
    assert integrity(kept) == ["ok"]
    assert {t for _, t in rosters_in(kept).values() if "name: Lost" in t} == {
        roster_text(f"Lost {n}") for n in range(5)}

    # every roster of the backup opens, through the store and the web layer's reader
    store = RosterStore(url)
    try:
        library = Library()
        for roster_id, (version, stored_text) in in_backup.items():
            found = store.by_edit_token(tokens[roster_id])
            assert found is not None and (found.id, found.version) == (roster_id, version)
            opened = open_stored(library, found)
            assert opened.stored.text == stored_text and opened.roster.system == "warstuff"
        more, _ = store.create("warstuff", "After", roster_text("After"))
        assert more.id > max(in_backup)
    finally:
        store.close()
    checked = lb(env, "db", "check")
    assert checked.returncode == 0, checked.stderr


def test_a_restore_is_refused_while_a_server_or_its_worker_lives(
        sqlite_site: tuple[dict[str, str], Path], tmp_path: Path,
        started: list[subprocess.Popen[str]]) -> None:
    env, database = sqlite_site
    url, instance = sqlite_url(database), Path(env["LISTBUILDER_INSTANCE"])
    store = RosterStore(url)
    store.create("warstuff", "Kept", roster_text("Kept"))
    store.close()
    target = tmp_path / "backup.sqlite3"
    assert lb(env, "db", "backup", str(target)).returncode == 0
    store = RosterStore(url)
    store.create("warstuff", "Since", roster_text("Since"))
    store.close()
    before = rosters_in(database)

    master, printed = start(started, LOCK_HOLDER, url, str(instance))
    worker = int(printed[0])
    assert liveness.server_running(url, instance)
    refused = lb(env, "db", "restore", str(target))
    assert refused.returncode == 1
    assert "a Listbuilder server is running on this database" in refused.stderr
    assert "stop it first" in refused.stderr
    assert rosters_in(database) == before and integrity(database) == ["ok"]
    assert not list(database.parent.glob("*.before-restore-*"))

    master.kill()  # SIGKILL: the master can't let go of anything itself
    master.wait()
    assert liveness.server_running(url, instance)  # its worker still holds the lock
    assert lb(env, "db", "restore", str(target)).returncode == 1
    os.kill(worker, signal.SIGKILL)
    wait_gone(worker)
    assert not liveness.server_running(url, instance)

    done = lb(env, "db", "restore", str(target))
    assert done.returncode == 0, done.stderr
    assert [t for _, t in rosters_in(database).values()] == [roster_text("Kept")]


def test_a_server_cannot_start_while_a_restore_holds_the_database(tmp_path: Path) -> None:
    url = sqlite_url(tmp_path / "db" / "rosters.sqlite3")
    with liveness.exclusive_use(url, tmp_path), \
            pytest.raises(liveness.RestoreUnderWay, match="db restore` is replacing"):
        liveness.hold_serving_lock(url, tmp_path)
    lock = liveness.hold_serving_lock(url, tmp_path)
    other = liveness.hold_serving_lock(url, tmp_path)  # two servers on one database: fine
    assert lock.path == tmp_path / "db" / "rosters.sqlite3.serving"
    assert liveness.server_running(url, tmp_path)
    lock.release()
    assert liveness.server_running(url, tmp_path)
    other.release()
    assert not liveness.server_running(url, tmp_path)


def test_the_lock_of_a_database_elsewhere_is_in_the_instance_folder(tmp_path: Path) -> None:
    url = "postgresql+psycopg://me:secret@db.internal:5432/rosters"
    same = "postgres://other@db.internal:5432/rosters"  # another user, the same database
    path = liveness.lock_path(url, tmp_path)
    assert path.parent == tmp_path and path.name.endswith(".serving")
    assert "secret" not in path.name and liveness.lock_path(same, tmp_path) == path
    assert liveness.lock_path(same.replace(":5432", ""), tmp_path) == path  # the default port
    assert liveness.lock_path(url.replace("/rosters", "/other"), tmp_path) != path
    lock = liveness.hold_serving_lock(same, tmp_path)
    try:
        assert liveness.server_running(url, tmp_path)
    finally:
        lock.release()


def _garbage(path: Path, _good: Path) -> None:
    path.write_bytes(b"not a database at all, just some bytes\n" * 200)


def _not_ours(path: Path, _good: Path) -> None:
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE notes (body TEXT)")
        connection.commit()


def _newer(path: Path, good: Path) -> None:
    path.write_bytes(good.read_bytes())
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
        connection.commit()


def _damaged(path: Path, good: Path) -> None:
    # the index on edit_hash is declared to be on share_token: its entries no longer match
    # the table's rows, which SQLite's integrity check finds (and nothing else would)
    path.write_bytes(good.read_bytes())
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA writable_schema = ON")
        connection.execute("UPDATE sqlite_master SET sql = replace(sql, '(edit_hash)', "
                           "'(share_token)') WHERE name = 'ix_rosters_edit_hash'")
        connection.commit()
    assert integrity(path) != ["ok"]


def _with_a_log(path: Path, good: Path) -> None:
    path.write_bytes(good.read_bytes())
    Path(f"{path}-wal").write_bytes(b"\x37\x7f\x06\x82" + bytes(60))


def _missing(path: Path, _good: Path) -> None:
    pass


@pytest.mark.parametrize(("make", "told"), [
    (_garbage, "is not an SQLite database"),
    (_not_ours, "holds no rosters table: it is not a Listbuilder backup"),
    (_newer, f"at revision 9999, which this Listbuilder does not know: it was backed up from "
             f"a newer version (this one's is {HEAD}). Restore it with that version"),
    (_damaged, "fails SQLite's integrity check"),
    (_with_a_log, "has a write-ahead log beside it"),
    (_missing, "there is no file"),
], ids=["garbage", "not-ours", "newer", "damaged", "with-a-log", "missing"])
def test_a_file_that_is_not_a_good_backup_is_refused_losing_nothing(
        sqlite_site: tuple[dict[str, str], Path], tmp_path: Path,
        make: Callable[[Path, Path], None], told: str) -> None:
    env, database = sqlite_site
    store = RosterStore(sqlite_url(database))
    store.create("warstuff", "Mine", roster_text("Mine"))
    store.close()
    good = tmp_path / "good.sqlite3"
    assert lb(env, "db", "backup", str(good)).returncode == 0
    before, files = rosters_in(database), files_of(database.parent)
    bad = tmp_path / "bad.sqlite3"
    make(bad, good)
    done = lb(env, "db", "restore", str(bad))
    assert done.returncode == 1
    assert told in done.stderr and done.stdout == ""
    assert rosters_in(database) == before and integrity(database) == ["ok"]
    assert files_of(database.parent) == files  # no copy aside, no file left behind


def old_roster(engine: Any) -> str:
    """A roster saved as an older revision's code saved it (today's code writes columns that
    revision lacks); its edit token."""
    token = "an-old-edit-token-of-forty-three-characters"
    with engine.begin() as connection:
        connection.execute(text(
            "INSERT INTO rosters (edit_hash, share_token, system, name, text, version, created, "
            "updated) VALUES (:hash, 'old-share-token', 'warstuff', 'Old', :text, 1, :now, "
            ":now)"), {"hash": hash_token(token), "text": roster_text("Old"),
                       "now": datetime.now(UTC)})
    return token


def test_a_backup_from_an_older_revision_is_restored_then_upgraded(tmp_path: Path) -> None:
    env = environment(tmp_path / "instance")
    database = tmp_path / "instance" / "listbuilder.sqlite3"
    engine = make_engine(sqlite_url(database))
    try:
        migrations.upgrade(engine, "0002")
        token = old_roster(engine)
    finally:
        engine.dispose()
    target = tmp_path / "old.sqlite3"
    done = lb(env, "db", "backup", str(target))
    assert done.stdout.strip() == f"backed up 1 roster at revision 0002 to {target}"
    assert lb(env, "db", "upgrade").returncode == 0

    done = lb(env, "db", "restore", str(target))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == (
        f"the backup is behind this Listbuilder's revision {HEAD}: run `listbuilder db "
        f"upgrade` before starting the server")
    assert lb(env, "db", "check").returncode == 1
    assert lb(env, "db", "upgrade").returncode == 0
    assert lb(env, "db", "check").returncode == 0
    store = RosterStore(sqlite_url(database))
    try:
        found = store.by_edit_token(token)
        assert found is not None and found.text == roster_text("Old")
    finally:
        store.close()


def test_a_damaged_database_fails_db_check_and_a_restore_replaces_it(
        sqlite_site: tuple[dict[str, str], Path], tmp_path: Path) -> None:
    env, database = sqlite_site
    store = RosterStore(sqlite_url(database))
    for n in range(30):
        store.create("warstuff", f"R{n}", roster_text(f"R{n}"))
    store.close()
    target = tmp_path / "backup.sqlite3"
    assert lb(env, "db", "backup", str(target)).returncode == 0
    with closing(sqlite3.connect(database)) as connection:
        root = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'rosters'").fetchone()[0]
        size = connection.execute("PRAGMA page_size").fetchone()[0]
    with database.open("r+b") as f:  # the rosters table's first page overwritten
        f.seek((root - 1) * size)
        f.write(b"\xa5" * size)

    checked = lb(env, "db", "check")
    assert checked.returncode == 1
    assert f"The database at {database} is damaged" in checked.stderr
    assert "`listbuilder db restore FILE`" in checked.stderr

    done = lb(env, "db", "restore", str(target))
    assert done.returncode == 0, done.stderr
    assert integrity(database) == ["ok"] and rosters_in(database) == rosters_in(target)
    assert lb(env, "db", "check").returncode == 0
    kept = sorted(database.parent.glob("listbuilder.sqlite3.before-restore-*"))
    assert len(kept) == 1 and kept[0].read_bytes()[(root - 1) * size:root * size] == \
        b"\xa5" * size  # the damaged database is kept as it was


def test_a_database_that_is_not_one_is_moved_aside_by_a_restore(
        sqlite_site: tuple[dict[str, str], Path], tmp_path: Path) -> None:
    env, database = sqlite_site
    target = tmp_path / "backup.sqlite3"
    assert lb(env, "db", "backup", str(target)).returncode == 0
    database.write_bytes(b"overwritten by something else " * 100)
    checked = lb(env, "db", "check")
    assert checked.returncode == 1 and "is damaged (file is not a database)" in checked.stderr
    done = lb(env, "db", "restore", str(target))
    assert done.returncode == 0, done.stderr
    assert integrity(database) == ["ok"]
    kept = sorted(database.parent.glob("listbuilder.sqlite3.before-restore-*"))
    assert [k.read_bytes() for k in kept] == [b"overwritten by something else " * 100]


def test_a_restore_that_fails_midway_puts_the_database_back(
        sqlite_site: tuple[dict[str, str], Path], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    env, database = sqlite_site
    url = sqlite_url(database)
    store = RosterStore(url)
    store.create("warstuff", "Old", roster_text("Old"))
    store.close()
    target = tmp_path / "backup.sqlite3"
    assert lb(env, "db", "backup", str(target)).returncode == 0
    store = RosterStore(url)
    store.create("warstuff", "Newer", roster_text("Newer"))
    store.close()
    before = rosters_in(database)
    real = backup._copy_into

    def fails_after_writing(src: sqlite3.Connection, into: Path) -> backup.Contents:
        real(src, into)  # the backup is in the database now, then something goes wrong
        assert len(rosters_in(into)) == 1
        raise OSError("disk full")

    monkeypatch.setattr(backup, "_copy_into", fails_after_writing)
    with pytest.raises(backup.BackupError,
                       match="disk full; the database was put back as it was"):
        backup.restore(url, target, Path(env["LISTBUILDER_INSTANCE"]))
    assert integrity(database) == ["ok"] and rosters_in(database) == before
    assert len(list(database.parent.glob("*.before-restore-*"))) == 1


def test_a_backup_never_leaves_a_half_file(sqlite_site: tuple[dict[str, str], Path],
                                           tmp_path: Path) -> None:
    env, database = sqlite_site
    target = tmp_path / "out" / "backup.sqlite3"
    target.parent.mkdir()
    target.write_bytes(b"yesterday's backup")
    database.write_bytes(b"not a database " * 300)
    done = lb(env, "db", "backup", str(target))
    assert done.returncode == 1 and "could not back up" in done.stderr
    assert list(target.parent.iterdir()) == [target]
    assert target.read_bytes() == b"yesterday's backup"  # an earlier backup is not spoilt


# -- PostgreSQL ------------------------------------------------------------------------------


@pytest.fixture
def pg_site(pg_server: pgserver.Server, pg_database: str,
            tmp_path: Path) -> tuple[dict[str, str], str]:
    """A fresh PostgreSQL database at the code's revision, and its commands' environment;
    skipped if this machine's pg_dump can't dump the test server (versions apart)."""
    with pg_server.admin() as connection:
        server_major = int(connection.info.server_version) // 10000
    shown = subprocess.run(["pg_dump", "--version"], capture_output=True, text=True)
    found = re.search(r"(\d+)\.\d+", shown.stdout)
    if shown.returncode != 0 or found is None:
        pytest.skip("pg_dump is not installed (postgresql-client)")
    if int(found[1]) < server_major:
        pytest.skip(f"pg_dump {found[1]} can't dump the test server's PostgreSQL {server_major}")
    env = environment(tmp_path / "instance", pg_database)
    done = lb(env, "db", "upgrade")
    assert done.returncode == 0, done.stderr
    return env, pg_database


def pg_rosters(url: str) -> dict[int, tuple[int, str]]:
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            return {i: (v, t) for i, v, t in connection.execute(
                text("SELECT id, version, text FROM rosters"))}
    finally:
        engine.dispose()


def test_postgresql_backup_and_restore(pg_site: tuple[dict[str, str], str],
                                       tmp_path: Path,
                                       started: list[subprocess.Popen[str]]) -> None:
    env, url = pg_site
    store = RosterStore(url)
    tokens = [store.create("warstuff", f"P{n}", roster_text(f"P{n}"))[1] for n in range(3)]
    target = tmp_path / "rosters.dump"
    done = lb(env, "db", "backup", str(target))  # with the store's connection open: fine
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"backed up 3 rosters at revision {HEAD} to {target}"
    assert target.read_bytes().startswith(b"PGDMP") and target.stat().st_mode & 0o077 == 0
    at_backup = pg_rosters(url)
    gone = store.by_edit_token(tokens[0])
    assert gone is not None
    store.delete(gone.id)
    store.purge_deleted(timedelta(0))
    store.create("warstuff", "Since", roster_text("Since"))

    refused = lb(env, "db", "restore", str(target))  # the store is still connected
    assert refused.returncode == 1
    assert "1 other Listbuilder connection(s) are open" in refused.stderr
    store.close()

    instance = Path(env["LISTBUILDER_INSTANCE"])
    holder, printed = start(started, LOCK_HOLDER, url, str(instance))
    refused = lb(env, "db", "restore", str(target))
    assert refused.returncode == 1 and "a Listbuilder server is running" in refused.stderr
    os.killpg(holder.pid, signal.SIGKILL)
    holder.wait()
    wait_gone(int(printed[0]))
    assert pg_rosters(url) != at_backup  # nothing was changed by the refusals

    done = lb(env, "db", "restore", str(target))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"restored 3 rosters at revision {HEAD} from {target}"
    kept = kept_in(lines[1])
    assert kept.parent == instance and kept.read_bytes().startswith(b"PGDMP")
    assert pg_rosters(url) == at_backup
    store = RosterStore(url)
    try:
        library = Library()
        for token in tokens:
            found = store.by_edit_token(token)
            assert found is not None and open_stored(library, found).roster.name.startswith("P")
        assert store.create("warstuff", "After", roster_text("After"))[0].id > max(at_backup)
    finally:
        store.close()
    assert lb(env, "db", "check").returncode == 0


def test_postgresql_restore_refuses_what_is_not_its_backup(
        pg_site: tuple[dict[str, str], str], tmp_path: Path) -> None:
    env, url = pg_site
    store = RosterStore(url)
    store.create("warstuff", "Mine", roster_text("Mine"))
    store.close()
    before = pg_rosters(url)
    garbage = tmp_path / "garbage.dump"
    garbage.write_bytes(b"PGDMP but nothing after it")
    sqlite_backup = tmp_path / "sqlite.sqlite3"
    with closing(sqlite3.connect(sqlite_backup)) as connection:
        connection.execute("CREATE TABLE rosters (id INTEGER)")
        connection.commit()
    for bad, told in [(garbage, "can't be read"),
                      (sqlite_backup, "is an SQLite backup, and DATABASE_URL names a "
                                      "PostgreSQL database")]:
        done = lb(env, "db", "restore", str(bad))
        assert done.returncode == 1 and told in done.stderr
    assert pg_rosters(url) == before
    assert not list(Path(env["LISTBUILDER_INSTANCE"]).glob("*.before-restore-*"))


def test_postgresql_backup_from_an_older_revision_is_restored_then_upgraded(
        pg_server: pgserver.Server, pg_site: tuple[dict[str, str], str],
        tmp_path: Path) -> None:
    env, url = pg_site
    name = f"older_{os.getpid()}"
    older = pg_server.create_database(name)
    try:
        engine = make_engine(older)
        try:
            migrations.upgrade(engine, "0002")
            token = old_roster(engine)
        finally:
            engine.dispose()
        target = tmp_path / "old.dump"
        done = lb({**env, "DATABASE_URL": older}, "db", "backup", str(target))
        assert done.stdout.strip() == f"backed up 1 roster at revision 0002 to {target}"
    finally:
        pg_server.drop_database(name)
    done = lb(env, "db", "restore", str(target))  # into a database at the code's revision
    assert done.returncode == 0, done.stderr
    assert "run `listbuilder db upgrade` before starting the server" in done.stdout
    upgraded = lb(env, "db", "upgrade")  # the newer revisions' tables were dropped: it works
    assert upgraded.returncode == 0, upgraded.stderr
    assert "upgraded from 0002" in upgraded.stdout
    store = RosterStore(url)
    try:
        found = store.by_edit_token(token)
        assert found is not None and found.name == "Old"
    finally:
        store.close()


# -- database errors -------------------------------------------------------------------------


def test_a_database_error_does_not_carry_the_statements_values(
        database_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A lookup by edit hash that fails in the database (here a column that is not there;
    in life "database is locked", a lost connection) is logged without the hash."""
    secret = hash_token("an edit token nobody may read in a log")
    store = RosterStore(database_url)
    try:
        with pytest.raises(DBAPIError) as raised, store.engine.connect() as connection:
            connection.execute(text("SELECT id FROM rosters WHERE edit_hash = :hash "
                                    "AND no_such_column = 1"), {"hash": secret})
    finally:
        store.close()
    logging.getLogger("listbuilder.test").error("a lookup failed", exc_info=raised.value)
    assert "SQL parameters hidden due to hide_parameters=True" in str(raised.value)
    assert secret not in str(raised.value)
    assert "a lookup failed" in caplog.text and "no_such_column" in caplog.text
    assert secret not in caplog.text
