"""A throwaway Redis server for the test run: Debian's redis-server on a free loopback port,
its folder a temp folder, nothing written to disk (no snapshots, no append-only file), stopped
and removed at the end. Started on demand: only tests that ask for it pay its start.

Redis runs as root without complaint (CI runs as root), so unlike pgserver no user is taken.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

START_SECONDS = 60.0  # a loaded 2-core machine: a start usually takes 50 ms, not always


class NoServer(Exception):
    """Redis could not be started here; the message says why."""


def binary() -> Path:
    """redis-server: LISTBUILDER_REDIS_SERVER, else PATH, else Debian's /usr/bin."""
    configured = os.environ.get("LISTBUILDER_REDIS_SERVER")
    if configured:
        if not os.access(configured, os.X_OK):
            raise NoServer(f"LISTBUILDER_REDIS_SERVER={configured} is not a program")
        return Path(configured)
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None)
    if found is None:
        raise NoServer("redis-server is not installed (Debian: apt-get install redis-server; "
                       "or set LISTBUILDER_REDIS_SERVER to the program)")
    return Path(found)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _pong(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class Server:
    folder: Path
    port: int
    process: subprocess.Popen[bytes]

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def stop(self) -> None:
        try:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGTERM)  # nothing to save: it ends at once
                try:
                    self.process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(self.process.pid, signal.SIGKILL)
                    self.process.wait(timeout=30)
        except ProcessLookupError:
            pass
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


def start() -> Server:
    program = binary()
    folder = Path(tempfile.mkdtemp(prefix="listbuilder-redis-"))
    log, said = folder / "redis.log", folder / "stderr.log"
    # The port is free when picked, but another process (another pytest-xdist worker's
    # server, say) may take it before Redis listens: then it starts on another.
    for _ in range(5):
        port = _free_port()
        with said.open("wb") as stderr:  # a file, not a pipe: nothing left open to close
            process = subprocess.Popen(
                [str(program), "--port", str(port), "--bind", "127.0.0.1", "--dir",
                 str(folder), "--save", "", "--appendonly", "no", "--daemonize", "no",
                 "--logfile", str(log), "--unixsocket", ""],
                cwd=folder, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=stderr, start_new_session=True)
        deadline = time.monotonic() + START_SECONDS
        while process.poll() is None and time.monotonic() < deadline:
            if _pong(port):
                return Server(folder, port, process)
            time.sleep(0.05)
        told = _told(process, log, said)
        if "Address already in use" in told:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        raise NoServer(f"redis-server did not answer on port {port}: {told}")
    shutil.rmtree(folder, ignore_errors=True)
    raise NoServer("redis-server found every port it was given taken")


def _told(process: subprocess.Popen[bytes], *logs: Path) -> str:
    """What a server that did not come up said; it is stopped if it still runs."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    told = ""
    for log in logs:
        if log.exists():
            told += "\n" + log.read_text(errors="replace")[-2000:]
        log.unlink(missing_ok=True)
    return told.strip() or f"exit status {process.returncode}"
