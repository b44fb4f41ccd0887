"""Listbuilder served as a host serves it, in processes of its own: the command line, a free
port, the environment a test's server reads, and waiting for it to answer (gunicorn alone or
nginx in front)."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

import pytest

from listbuilder.commands.front import find_nginx

CLI = [sys.executable, "-c", "from listbuilder.commands.cli import main; main()"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment(tmp_path: Path) -> dict[str, str]:
    env = {**os.environ, "LISTBUILDER_INSTANCE": str(tmp_path / "instance"),
           "LISTBUILDER_DATA": str(tmp_path / "no-data")}
    for name in ("DATABASE_URL", "LISTBUILDER_SECRET_KEY", "LISTBUILDER_WORKERS",
                 "LISTBUILDER_THREADS"):
        env.pop(name, None)
    return env


def descendants(pid: int) -> set[int]:
    """Every process started by `pid`, and by those, read from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier}
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended


class Browser:
    """A browser without JavaScript over real HTTP: a fresh connection each request (so the
    kernel hands them to any worker), the session cookie kept, redirects followed."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.html = ""
        self.headers: dict[str, str] = {}
        self.path = ""  # where the last request ended, after redirects

    def request(self, method: str, path: str, form: dict[str, object] | None = None) -> int:
        body = urllib.parse.urlencode(form or {}, doseq=True) if form is not None else None
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.path = path
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            self.html = response.read().decode()
            self.headers = {k.lower(): v for k, v in response.getheaders()}
            for value in response.msg.get_all("Set-Cookie") or []:
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        finally:
            connection.close()
        if response.status in (302, 303):
            location = urllib.parse.urlsplit(self.headers["location"])
            return self.request("GET", location.path)
        return response.status

    def field(self, name: str) -> str:
        found = re.search(rf'name="{name}" (?:type="hidden" )?value="([^"]+)"', self.html) or \
            re.search(rf'id="{name}" name="{name}" type="hidden" value="([^"]+)"', self.html)
        assert found is not None, f"no {name} on the page"
        return found[1]


def wait_until_listening(proc: subprocess.Popen[bytes], port: int) -> None:
    """Until the server answers on its port (up to 30 s); its output if it ends instead."""
    for _ in range(300):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            assert proc.poll() is None, proc.communicate()[0].decode()
            time.sleep(0.1)


def serve(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    """`listbuilder serve` with two workers of two threads on `port`, its output piped."""
    return subprocess.Popen([*CLI, "serve", "--port", str(port), "--workers", "2",
                             "--threads", "2"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)


def listening(port: int) -> dict[int, int]:
    """The sockets listening on a loopback or any-address IPv4 port: inode -> process."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port and fields[3] == "0A":  # LISTEN
            inodes.add(int(fields[9]))
    found: dict[int, int] = {}
    for fd in Path("/proc").glob("[0-9]*/fd/*"):
        try:
            target = os.readlink(fd)
        except OSError:  # gone meanwhile, or not ours to read
            continue
        if target.startswith("socket:[") and int(target[8:-1]) in inodes:
            found[int(target[8:-1])] = int(fd.parent.parent.name)
    return found




def need_nginx() -> None:
    if find_nginx() is None:
        pytest.fail("nginx is not installed: make test installs it (scripts/system-packages.sh)",
                    pytrace=False)


def start(tmp_path: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    env = environment(tmp_path)
    proc = subprocess.Popen([*CLI, "serve", "--port", str(port), "--workers", "2",
                             "--threads", "2", *extra], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    try:
        wait_until_answering(proc, port)
    except BaseException:
        stop_and_close(proc)  # not left running (and warned about) into the next test
        raise
    return proc


# How long a server may take to answer its first page: nginx listens at once, gunicorn's
# workers load the app after it; on a machine busy with three test processes and a browser
# that has taken over 30 s (a CI run saw 502s until then).
FIRST_ANSWER = 120.0


def wait_until_answering(proc: subprocess.Popen[bytes], port: int) -> None:
    """Until `/` answers 200; else the last status and the server's own output."""
    wait_until_listening(proc, port)
    deadline = time.monotonic() + FIRST_ANSWER
    status = 0
    while time.monotonic() < deadline and proc.poll() is None:
        status = get(port, "/", timeout=10)[0]
        if status == 200:
            return
        time.sleep(0.2)
    output = stop_and_close(proc)
    raise AssertionError(f"the server listens but never answers 200 (last: {status}); "
                         f"its output:\n{output[-4000:]}")


def stop_and_close(proc: subprocess.Popen[bytes]) -> str:
    """Stop the server (its group: gunicorn's workers, nginx) and its output, as text."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGTERM)
        try:
            out = proc.communicate(timeout=20)[0]
        except subprocess.TimeoutExpired:
            proc.kill()
            out = proc.communicate()[0]
    else:
        out = proc.communicate()[0]
    return (out or b"").decode("utf-8", "replace")


def get(port: int, path: str, timeout: float) -> tuple[int, float]:
    """Status (0 if it failed or took over `timeout`) and seconds a fresh connection took."""
    began = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, time.monotonic() - began
    except OSError:
        return 0, time.monotonic() - began
    finally:
        connection.close()






