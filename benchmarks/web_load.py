"""Many players editing at once over real HTTP: the server started as `make run` starts it
(`listbuilder db upgrade`, then `listbuilder serve`: gunicorn), and Werkzeug's development
server (what `make run` used to be) measured in the same run as the reference.

Each of N closed-loop clients (default 50, one thread and one keep-alive connection each, its
own session cookie) makes a roster (empty, or with `--roster-size` units already in it, as a
finished list has), then sends htmx edits (add a unit, change its count, remove it, again;
each a real change) with its CSRF token and the version from the last answer, until the
clients together have made the number asked (default 2,000). Prints, for
each server: edits a second, p50/p95/p99 latency of an edit (request sent to answer read),
errors (any answer but 200, or a failed connection), bytes per answer, and the CPU the server
spent on each edit (which bounds what the machine can do when nothing else runs on it).

    .venv/bin/python benchmarks/web_load.py [--clients 50] [--edits 2000] [--workers W]
        [--threads T] [--roster-size UNITS] [--database-url URL] [--no-reference]

The clients run on the same machine as the server and take some of its CPU; other work on the
machine (load average printed) slows both servers alike.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-c", "from listbuilder.cli import main; main()"]
# Werkzeug's threaded development server, as `listbuilder serve` ran it before gunicorn.
WERKZEUG = [sys.executable, "-c",
            "import sys; from listbuilder.web import create_app; "
            "create_app().run(host='127.0.0.1', port=int(sys.argv[1]), threaded=True)"]
SYSTEM, FACTION, UNIT = "op40k", "Orks", "Ork Boyz"
# what a finished Orks list holds, taken in turn for --roster-size
FILL = ("Ork Boyz", "Nobz", "Gretchin", "Lootas", "Warbikers", "Trukk", "Battlewagon")
# the version an answer brings: the saved-version mark (which the page's script copies into
# every form), or a form's own field
VERSION = re.compile(r'(?:id="saved-version" data-version|name="version" value)="(\d+)"')
CSRF = re.compile(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)  # seconds, one per edit answered 200
    sizes: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    samples: dict[int, str] = field(default_factory=dict)  # an answer's words for each status
    lock: threading.Lock = field(default_factory=threading.Lock)


class Client:
    """One player: a keep-alive connection, a session cookie, the roster it edits."""

    def __init__(self, port: int, roster_size: int = 0) -> None:
        self.port = port
        self.roster_size = roster_size  # the units in the roster before the edits measured
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookie = ""
        self.path = ""
        self.csrf = ""
        self.version = 0

    def send(self, method: str, path: str, form: dict[str, object] | None = None,
             htmx: bool = False) -> tuple[int, bytes, dict[str, str]]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if htmx:
            headers["HX-Request"] = "true"
        for attempt in range(2):  # a keep-alive connection the server closed: open a new one
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.connection.close()
                if attempt:
                    raise
        answer = {k.lower(): v for k, v in response.getheaders()}
        cookie = response.msg.get("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        if response.getheader("Connection", "").lower() == "close":
            self.connection.close()
        return response.status, data, answer

    def read_page(self, html: str) -> None:
        csrf, version = CSRF.search(html), VERSION.search(html)
        if csrf:
            self.csrf = csrf[1]
        if version:
            self.version = int(version[1])

    def start(self) -> None:
        status, data, _ = self.send("GET", f"/new/{SYSTEM}")
        self.read_page(data.decode())
        status, data, headers = self.send("POST", f"/new/{SYSTEM}", {
            "csrf_token": self.csrf, "name": "Load", "factions": [FACTION],
            "points_limit": 2000})
        if status not in (302, 303):
            raise RuntimeError(f"creating a roster answered {status}")
        self.path = urllib.parse.urlsplit(headers["location"]).path
        status, data, _ = self.send("GET", self.path)
        self.read_page(data.decode())
        for n in range(self.roster_size):
            status, data, _ = self.send("POST", f"{self.path}/add", {
                "csrf_token": self.csrf, "version": self.version, "unit": FILL[n % len(FILL)]},
                htmx=True)
            if status != 200:
                raise RuntimeError(f"filling the roster answered {status}")
            self.read_page(data.decode())

    def edit(self, step: int) -> tuple[int, bytes]:
        action = action_of(step)
        # the entry the loop adds is the last one; the ones filled in before stay
        extra: dict[str, object] = {"unit": UNIT} if action == "add" else {
            "index": self.roster_size, "unit": UNIT,
            **({"count": 16 + step % 10} if action == "entry" else {})}
        form = {"csrf_token": self.csrf, "version": self.version, **extra}
        status, data, _ = self.send("POST", f"{self.path}/{action}", form, htmx=True)
        if status == 200:
            self.read_page(data.decode())
        return status, data


def action_of(step: int) -> str:
    return ["add", "entry", "remove"][step % 3]


def words(html: bytes) -> str:
    """An error page's heading and first words, to tell errors apart."""
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode(errors="replace")))
    return text.strip()[:160]


def drive(port: int, clients: int, edits: int, roster_size: int = 0,
          started: Callable[[], None] = lambda: None) -> tuple[Results, float]:
    """Run the players; `started` is called once all have made their rosters, when the edits
    measured begin."""
    results = Results()
    tickets = itertools.count()
    players = [Client(port, roster_size) for _ in range(clients)]
    ready = threading.Barrier(clients + 1)

    def play(player: Client) -> None:
        try:
            player.start()
        except Exception as error:  # counted: a player that can't start makes no edits
            results.errors.append(f"start: {error!r}")
        ready.wait()
        if not player.path:
            return
        step = 0
        while next(tickets) < edits:
            began = time.perf_counter()
            try:
                status, data = player.edit(step)
            except Exception as error:
                with results.lock:
                    results.errors.append(repr(error))
                player.connection.close()
                continue
            took = time.perf_counter() - began
            with results.lock:
                if status == 200:
                    results.latencies.append(took)
                    results.sizes.append(len(data))
                else:
                    results.errors.append(f"HTTP {status} on {action_of(step)}")
                    results.samples.setdefault(status, words(data))
            if status != 200:  # read the page afresh: a stale version, say
                _, page, _ = player.send("GET", player.path)
                player.read_page(page.decode())
            step += 1

    threads = [threading.Thread(target=play, args=(p,)) for p in players]
    for t in threads:
        t.start()
    ready.wait()
    started()
    began = time.perf_counter()
    for t in threads:
        t.join()
    return results, time.perf_counter() - began


def machine_speed() -> float:
    """Milliseconds a fixed piece of pure Python takes here now (best of three): the virtual
    machine's speed moves between runs by half again, and this shows by how much."""
    best = float("inf")
    for _ in range(3):
        began = time.process_time()
        total = 0
        for i in range(2_000_000):
            total += i
        best = min(best, time.process_time() - began)
    return best * 1000


def server_cpu(pid: int) -> float:
    """CPU seconds used so far by the server: the process and all it started (from /proc)."""
    stats: dict[int, list[str]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            stats[int(stat.parent.name)] = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
    family, frontier = {pid}, {pid}
    while frontier:
        frontier = {p for p, fields in stats.items() if int(fields[1]) in frontier} - family
        family |= frontier
    ticks = sum(int(stats[p][11]) + int(stats[p][12]) for p in family if p in stats)
    return ticks / os.sysconf("SC_CLK_TCK")


def start_server(command: list[str], env: dict[str, str], port: int,
                 log: Path) -> subprocess.Popen[bytes]:
    # the log goes to a file: a pipe nobody reads fills up and stops a server that logs each
    # request (Werkzeug's does) in the middle of the run
    with log.open("wb") as out:
        proc = subprocess.Popen(command, env=env, cwd=ROOT, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server stopped: {log.read_text(errors='replace')[-2000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                settle(proc.pid)
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not listen within 120 s")


def settle(pid: int) -> None:
    """Wait until the server is idle: its workers' print warm-up (layout processes started and
    a sample card laid out in each) is start-up, not the edits being measured."""
    deadline = time.monotonic() + 60
    used = server_cpu(pid)
    while time.monotonic() < deadline:
        time.sleep(1)
        now = server_cpu(pid)
        if now - used < 0.05:
            return
        used = now


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    os.killpg(proc.pid, signal.SIGTERM)  # the whole group: workers and layout processes
    try:
        proc.wait(timeout=40)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def measure(label: str, command: list[str], args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="listbuilder-load-"))
    env = {**os.environ, "LISTBUILDER_INSTANCE": str(folder / "instance"),
           "LISTBUILDER_DATA": str(folder / "no-data")}
    env.pop("DATABASE_URL", None)
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    subprocess.run([*CLI, "db", "upgrade"], env=env, cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    speed = machine_speed()
    port = free_port()
    proc = start_server([*command, str(port)] if command is WERKZEUG else
                        [*command, "--port", str(port)], env, port, folder / "server.log")
    before: dict[str, float] = {}

    def started() -> None:  # making and filling the rosters is not what is measured
        before.update(server=server_cpu(proc.pid), client=time.process_time())

    try:
        results, wall = drive(port, args.clients, args.edits, args.roster_size, started)
        cpu = server_cpu(proc.pid) - before["server"]
        client_cpu = time.process_time() - before["client"]
    finally:
        stop_server(proc)
    report(label, results, wall, args.clients)
    print(f"  machine speed: a fixed Python loop took {machine_speed():.0f} ms after the run "
          f"({speed:.0f} ms before; lower is faster)")
    edits = max(1, len(results.latencies))
    print(f"  CPU per edit: server {cpu / edits * 1000:.1f} ms (so at most "
          f"{(os.cpu_count() or 1) * edits / cpu:.0f} edits/s on {os.cpu_count()} idle cores), "
          f"these clients {client_cpu / edits * 1000:.1f} ms")


def report(label: str, results: Results, wall: float, clients: int) -> None:
    done = len(results.latencies)
    print(f"\n{label}\n  {clients} clients, {done} edits answered 200 in {wall:.1f} s: "
          f"{done / wall:.0f} edits/s")
    if done >= 2:
        cuts = statistics.quantiles(results.latencies, n=100)
        print(f"  latency p50 {cuts[49] * 1000:.0f} ms, p95 {cuts[94] * 1000:.0f} ms, "
              f"p99 {cuts[98] * 1000:.0f} ms, max {max(results.latencies) * 1000:.0f} ms")
        print(f"  bytes per answer: median {statistics.median(results.sizes):,.0f}, "
              f"max {max(results.sizes):,}")
    kinds: dict[str, int] = {}
    for error in results.errors:
        kinds[error] = kinds.get(error, 0) + 1
    print(f"  errors: {len(results.errors)}"
          + "".join(f"\n    {n} x {kind[:200]}" for kind, n in sorted(kinds.items()))
          + "".join(f"\n    an answer {status}: {text}"
                    for status, text in sorted(results.samples.items())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--edits", type=int, default=2000)
    parser.add_argument("--workers", type=int, help="gunicorn workers (default: serve's)")
    parser.add_argument("--threads", type=int, help="threads a worker (default: serve's)")
    parser.add_argument("--roster-size", type=int, default=0,
                        help="units in each roster before the edits (default: none)")
    parser.add_argument("--database-url", help="a PostgreSQL URL, say (default: SQLite file)")
    parser.add_argument("--no-reference", action="store_true",
                        help="skip Werkzeug's development server")
    args = parser.parse_args()
    serve = [*CLI, "serve"]
    if args.workers:
        serve += ["--workers", str(args.workers)]
    if args.threads:
        serve += ["--threads", str(args.threads)]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load} before the run; clients and server "
          f"share the machine; database: {args.database_url or 'SQLite file'}; "
          f"{args.roster_size} units in each roster before the edits")
    measure("gunicorn (listbuilder serve, as make run starts it)", serve, args)
    if not args.no_reference:
        measure("Werkzeug development server (the reference: make run before gunicorn)",
                WERKZEUG, args)


if __name__ == "__main__":
    main()
