"""The whole club set-up of docs/deploying.md, on loopback, driven by Chromium: Debian's nginx
terminating TLS with the site file `listbuilder proxy-config` prints, balancing two web
servers (`listbuilder serve --printers 0`, each its own process, folder and instance, one
LISTBUILDER_SECRET_KEY and one PostgreSQL DATABASE_URL), and two print workers
(`listbuilder worker`, each in a folder of its own), after one `listbuilder db upgrade`.

A player makes a roster and downloads its sheet: the download waits in line until a worker
has laid it out, and the PDF carries the roster's name. Then the set-up shares its state: the
roster page answered by either web server shows the roster, and the print rate limit counts
one address's prints across both servers (the counters are in the shared database)."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from browsertools import opened
from pypdf import PdfReader
from test_builder_browser import add, start, submit_start
from tlsfront import certificate

from listbuilder.commands.front import find_nginx, main_config

ROOT = Path(__file__).resolve().parents[2]
import pgserver  # noqa: E402
from servetools import CLI, environment, free_port  # noqa: E402
from throwaway import start_or_skip  # noqa: E402

pytestmark = pytest.mark.browser

Page = Any
PRINT_LIMIT = 5  # prints one address may ask for a minute, on both servers
SCRIPT_ADDRESS = "127.0.0.2"  # a second client on loopback: a count of its own
# Settings of the outer environment that would change the set-up under test
OUTSIDE = ("LISTBUILDER_REDIS_URL", "LISTBUILDER_RATELIMIT_STORAGE", "LISTBUILDER_LANES",
           "LISTBUILDER_PRINT_JOB_TIMEOUT", "FORWARDED_ALLOW_IPS", "LISTBUILDER_LIMIT_PRINT",
           "LISTBUILDER_PRINT_QUEUE", "LISTBUILDER_PRINT_QUEUE_PER_CLIENT")
# nginx's access line as the site file writes it, with the upstream that answered added
LOGGED = re.compile(r'"(?P<method>[A-Z]+) (?P<uri>\S+)" (?P<status>\d{3}) \d+ \S+ '
                    r'(?P<upstream>\S+)$')


@dataclass
class Club:
    """The running set-up: nginx's address, its access log, the web servers' addresses (as
    nginx names its upstreams), the workers' logs and the database."""

    base: str
    tls_port: int
    access_log: Path
    upstreams: list[str]
    worker_logs: list[Path]
    database_url: str
    pg: pgserver.Server
    folder: Path

    def logged(self) -> list[dict[str, str]]:
        """nginx's access lines so far, each as its parts."""
        lines = self.access_log.read_text(encoding="utf-8").splitlines()
        return [m.groupdict() for line in lines if (m := LOGGED.search(line))]


def wait_until(check: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    """Until `check()` gives something true (returned); fails saying `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:.0f} s: {what}")
        time.sleep(0.2)


def started(command: list[str], folder: Path, env: dict[str, str],
            processes: list[subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
    """A process in a session (so a process group) of its own, its output in folder/out.log;
    kept in `processes` for the cleanup."""
    with (folder / "out.log").open("wb") as out:
        proc = subprocess.Popen(command, cwd=folder, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    processes.append(proc)
    return proc


def stop_all(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM to each process group (gunicorn's workers, Huey's worker processes), then
    SIGKILL to any group still there after 60 s, newest first (nginx before its upstreams)."""
    for proc in reversed(processes):
        _signal_group(proc, signal.SIGTERM)
    for proc in reversed(processes):
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=60)
        # the leader gone, its children may not be: the group is killed whatever is left
        _signal_group(proc, signal.SIGKILL)
        proc.wait(timeout=30)


def _signal_group(proc: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):  # the whole group ended already
        os.killpg(proc.pid, sig)


def listening(proc: subprocess.Popen[bytes], port: int, folder: Path) -> None:
    """Until `proc` answers on `port`: up to two minutes (servetools' wait gives 30 s, short
    for four servers starting at once on a loaded two-core machine)."""

    def answers() -> bool:
        assert proc.poll() is None, f"{proc.args} ended:\n{logs(folder)}"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return True
        except OSError:
            return False

    wait_until(answers, f"{proc.args} listens on {port}", timeout=120)


def tail(path: Path, chars: int = 3000) -> str:
    return path.read_text(encoding="utf-8", errors="replace")[-chars:] if path.exists() else ""


def logs(folder: Path) -> str:
    """The end of every process's output, for a failure's message (the folder goes after)."""
    return "\n".join(f"--- {log}\n{tail(log)}" for log in sorted(folder.glob("*/out.log")))


@pytest.fixture(scope="module")
def pg_club() -> Iterator[tuple[pgserver.Server, str]]:
    """A throwaway PostgreSQL server of this module's own, stopped when its tests are done,
    and an empty database on it, for `listbuilder db upgrade` to make."""
    server = start_or_skip(pgserver.start, pgserver.NoServer, "PostgreSQL", "postgresql")
    try:
        yield server, server.create_database("listbuilder_club")
    finally:
        server.stop()


@pytest.fixture(scope="module")
def club(pg_club: tuple[pgserver.Server, str]) -> Iterator[Club]:
    """nginx (TLS) balancing two web servers, two print workers, one PostgreSQL database."""
    nginx_binary = find_nginx()
    if nginx_binary is None:
        pytest.fail("nginx is not installed: make test installs it", pytrace=False)
    pg, database_url = pg_club
    folder = Path(tempfile.mkdtemp(prefix="listbuilder-club-"))
    processes: list[subprocess.Popen[bytes]] = []
    shared = {"DATABASE_URL": database_url, "LISTBUILDER_SECRET_KEY": "club-secret-" + "k" * 40,
              "LISTBUILDER_LIMIT_PRINT": f"{PRINT_LIMIT} per minute"}

    def settings(name: str) -> tuple[Path, dict[str, str]]:
        place = folder / name
        place.mkdir()
        env = {k: v for k, v in environment(place).items() if k not in OUTSIDE}
        return place, {**env, **shared}

    try:
        upgrade_in, upgrade_env = settings("upgrade")
        upgrade = subprocess.run([*CLI, "db", "upgrade"], cwd=upgrade_in, env=upgrade_env,
                                 capture_output=True, text=True, timeout=300)
        assert upgrade.returncode == 0, upgrade.stderr

        ports = [free_port(), free_port()]
        servers = []
        worker_logs = []
        for i, port in enumerate(ports):
            place, env = settings(f"web{i + 1}")
            servers.append(started([*CLI, "serve", "--port", str(port), "--workers", "1",
                                    "--threads", "2", "--printers", "0"], place, env,
                                   processes))
        # all four start at once on the fresh database, as a club's machines do after the
        # upgrade: the first to reach the queue makes Huey's tables, under a lock
        # (listbuilder/jobs/broker.py; without it all but one died, 1 run in 8 here)
        for i in range(2):
            place, env = settings(f"worker{i + 1}")
            started([*CLI, "worker", "--concurrency", "1"], place, env, processes)
            worker_logs.append(place / "out.log")
        for server, port in zip(servers, ports, strict=True):
            listening(server, port, folder)

        tls_port = free_port()
        front = folder / "nginx"
        front.mkdir()
        cert, key = certificate(front)
        access_log = front / "access.log"
        upstreams = [f"127.0.0.1:{port}" for port in ports]
        site = subprocess.run(
            [*CLI, "proxy-config", "--listen", f"127.0.0.1:{tls_port}",
             "--upstream", upstreams[0], "--server-name", "127.0.0.1",
             "--certificate", str(cert), "--certificate-key", str(key),
             "--redirect-from", "", "--access-log", str(access_log),
             "--error-log", str(front / "error.log")],
            env=upgrade_env, capture_output=True, text=True, check=True).stdout
        # docs/deploying.md: any load balancer, no sticky sessions. The site file names one
        # upstream; the second server joins it, and each line logs which one answered.
        one = f"    server {upstreams[0]};\n"
        assert site.count(one) == 1 and site.count("$request_time';") == 1, site
        site = site.replace(one, one + f"    server {upstreams[1]};\n")
        site = site.replace("$request_time';", "$request_time $upstream_addr';")
        (front / "site.conf").write_text(site, encoding="utf-8")
        (front / "nginx.conf").write_text(main_config(front, front / "site.conf"))
        nginx = started([str(nginx_binary), "-p", str(front), "-c", str(front / "nginx.conf"),
                         "-e", "stderr"], front, upgrade_env, processes)
        listening(nginx, tls_port, folder)

        def workers_seen() -> bool:
            status = subprocess.run([*CLI, "worker", "status"], cwd=upgrade_in,
                                    env=upgrade_env, capture_output=True, text=True,
                                    timeout=120)
            return "workers seen lately: yes" in status.stdout

        wait_until(workers_seen, "a print worker shows itself", timeout=120)
        yield Club(f"https://127.0.0.1:{tls_port}", tls_port, access_log, upstreams,
                   worker_logs, database_url, pg, folder)
        ended = [proc.args for proc in processes if proc.poll() is not None]
        assert not ended, (ended, logs(folder))  # none of them died meanwhile
    finally:
        try:
            stop_all(processes)
            for log in folder.glob("*/out.log"):
                assert "Traceback" not in tail(log, 100_000), f"{log}:\n{tail(log)}"
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def served_by(club: Club, before: int, uri: str) -> list[str]:
    """The upstreams that answered `uri` (as logged, tokens hidden) with 200 since line
    `before` of nginx's log."""
    return [line["upstream"] for line in club.logged()[before:]
            if line["uri"] == uri and line["status"] == "200"]


def test_a_club_prints_through_nginx_two_servers_and_two_workers(
        club: Club, tls_context: Any, tmp_path: Path) -> None:
    tls_context.set_default_timeout(30_000)  # four servers on two loaded cores
    page = tls_context.new_page()
    # The Print menu's preview lays out the same PDF as the download (one print key): left to
    # load, it could make the print before the download is asked for, and the download would
    # then never wait in line, which is what this test follows. A player who scrolls past the
    # preview sees the same.
    page.route(re.compile(r"/preview\.png(\?|$)"), lambda route: route.abort())
    name = "Club Night Orks"
    start(page, club.base, "One Page 40k (1st edition)", name)
    page.get_by_label("Faction").select_option("Orks")
    submit_start(page)
    page.set_default_timeout(30_000)  # submit_start's 10 s is short behind this many processes
    add(page, "Nobz")
    add(page, "Ork Boyz")
    roster_page = page.url.split("#", 1)[0]
    assert roster_page.startswith(club.base + "/r/")

    # the print: the page waits in line, then the download arrives
    page.get_by_role("link", name="Print", exact=True).click()
    menu = page.locator("#print")
    menu.get_by_role("radio", name="Roster sheet only").check()
    with page.expect_download(timeout=180_000) as info:
        menu.get_by_role("button", name="Download PDF").click()
    got = info.value
    assert got.failure() is None
    status = page.locator("#print-status").inner_text()  # the waiting page stays as it was
    assert re.search(r"Your print is (1st in line|being laid out now)\.", status), status
    saved = tmp_path / "sheet.pdf"
    got.save_as(saved)
    assert saved.read_bytes().startswith(b"%PDF-")
    text = "\n".join(p.extract_text() or "" for p in PdfReader(saved).pages)
    assert name in text, text[:2000]
    assert any(re.search(r"listbuilder\.print: .* executed in", tail(log, 100_000))
               for log in club.worker_logs), logs(club.folder)

    # either web server shows the roster: the page loaded again until each has answered it
    before = 0
    answered: set[str] = set()

    def both_answered() -> bool:
        page.goto(roster_page)
        opened(page, "#units-title", state="attached")
        assert name in page.locator("main").inner_text()
        assert page.locator(".entry-name").get_by_text("Nobz").count() == 1
        answered.update(served_by(club, before, "/r/..."))
        return answered == set(club.upstreams)

    wait_until(both_answered, "both web servers answer the roster's page", timeout=120)
    # and the session cookie ("my rosters") each signed reads on the other
    page.goto(club.base + "/")
    opened(page, f".mine-row >> text={name}")


def test_the_print_limit_counts_across_both_servers(club: Club) -> None:
    """A client's prints are counted in the shared database: the limit's worth of prints
    answered by the two servers together, then refused, by whichever answers."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the test's own certificate
    before = len(club.logged())
    statuses = []
    for _ in range(PRINT_LIMIT + 1):
        # a new connection and no cookie each time: a new print ask, counted every time
        connection = http.client.HTTPSConnection("127.0.0.1", club.tls_port, timeout=120,
                                                 context=context,
                                                 source_address=(SCRIPT_ADDRESS, 0))
        try:
            connection.request("GET", "/systems/op40k/print/rules")
            answer = connection.getresponse()
            answer.read()
            statuses.append(answer.status)
        finally:
            connection.close()
    assert all(s in (200, 202) for s in statuses[:PRINT_LIMIT]), statuses
    assert statuses[PRINT_LIMIT] == 429, statuses

    def logged_prints() -> list[dict[str, str]]:
        return [line for line in club.logged()[before:]
                if line["uri"] == "/systems/op40k/print/rules"]

    # nginx writes a line once the answer is sent, so the last may lag the client's read
    wait_until(lambda: len(logged_prints()) >= PRINT_LIMIT + 1,
               "nginx logs every print ask", timeout=10)
    mine = logged_prints()
    assert len(mine) == PRINT_LIMIT + 1, mine
    allowed = {line["upstream"] for line in mine if line["status"] != "429"}
    assert allowed == set(club.upstreams), mine  # a count per server would have let more in
    with club.pg.admin(club.database_url) as connection:
        hits = connection.execute("SELECT hits FROM rate_limits WHERE key LIKE %s",
                                  (f"%{SCRIPT_ADDRESS}%",)).fetchall()
    assert hits and max(h for (h,) in hits) >= PRINT_LIMIT, hits
