"""A throwaway PostgreSQL server for the test run: Debian's postgres binaries, a cluster in a
temp folder, listening on a free loopback port, fsync off, stopped and removed at the end.

PostgreSQL refuses to run as root (CI runs as root): then the cluster belongs to, and runs as,
the unprivileged `postgres` user that Debian's package creates.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql


class NoServer(Exception):
    """PostgreSQL could not be started here; the message says why."""


def bin_dir() -> Path:
    """Where initdb and pg_ctl are: LISTBUILDER_PG_BIN, else PATH, else Debian's newest."""
    configured = os.environ.get("LISTBUILDER_PG_BIN")
    if configured:
        return Path(configured)
    on_path = shutil.which("pg_ctl")
    if on_path:
        return Path(on_path).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if not found:
        raise NoServer("PostgreSQL's server programs are not installed (Debian: apt-get install "
                       "postgresql; or set LISTBUILDER_PG_BIN to the folder holding pg_ctl)")
    return Path(found[-1]).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    folder: Path
    port: int
    as_user: list[str]  # the command prefix that runs a program as the cluster's owner
    pg_ctl: Path

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def admin(self, url: str | None = None) -> psycopg.Connection[tuple[object, ...]]:
        """A plain connection in autocommit, to the server or to one database's URL."""
        database = url.rsplit("/", 1)[1] if url else "postgres"
        return psycopg.connect(host="127.0.0.1", port=self.port, user="postgres",
                               dbname=database, autocommit=True)

    def create_database(self, name: str, template: str | None = None) -> str:
        with self.admin() as connection:
            statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
            if template:
                statement += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
            connection.execute(statement)
        return self.url(name)

    def drop_database(self, name: str) -> None:
        with self.admin() as connection:
            connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
                               .format(sql.Identifier(name)))

    def stop(self) -> None:
        subprocess.run([*self.as_user, str(self.pg_ctl), "-D", str(self.folder / "data"),
                        "-m", "immediate", "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(self.folder, ignore_errors=True)


def start() -> Server:
    binaries = bin_dir()
    folder = Path(tempfile.mkdtemp(prefix="listbuilder-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(folder)
            raise NoServer("running as root and there is no 'postgres' user to run PostgreSQL "
                           "as (Debian's postgresql package creates it)") from None
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = ["setpriv", f"--reuid={owner.pw_uid}", f"--regid={owner.pw_gid}",
                   "--clear-groups", "--"]
    data, log = folder / "data", folder / "server.log"
    _run(as_user, folder, log, [str(binaries / "initdb"), "-D", str(data), "-U", "postgres",
                                "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"])
    # The port is free when picked, but another process (another pytest-xdist worker's
    # server, say) may take it before PostgreSQL listens: then it starts on another.
    for attempt in range(5):
        port = _free_port()
        try:
            _run(as_user, folder, log, [
                str(binaries / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60",
                "-o", f"-h 127.0.0.1 -p {port} -k {folder} -F -c max_connections=300 "
                      "-c full_page_writes=off -c synchronous_commit=off", "start"],
                 keep=attempt < 4)
        except _PortTaken:
            continue
        return Server(folder, port, as_user, binaries / "pg_ctl")
    raise AssertionError("unreachable: the last attempt raises NoServer")


class _PortTaken(Exception):
    pass


def _run(as_user: list[str], folder: Path, log: Path, step: list[str],
         keep: bool = False) -> None:
    """Run one step as the cluster's owner; NoServer (the folder removed) if it fails, or
    _PortTaken if it failed only because the port was taken and `keep` asks to try again."""
    done = subprocess.run([*as_user, *step], capture_output=True, text=True, timeout=120,
                          cwd=folder)
    if done.returncode == 0:
        return
    told = done.stderr.strip() or done.stdout.strip()
    if log.exists():
        told += "\n" + log.read_text(errors="replace")[-2000:]
        if keep and "Address already in use" in told:
            log.unlink()
            raise _PortTaken(told)
    shutil.rmtree(folder, ignore_errors=True)
    raise NoServer(f"{Path(step[0]).name} failed: {told}")
