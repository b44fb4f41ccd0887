"""Many players editing at once over real HTTP: the server started as `make run` starts it
(`listbuilder db upgrade`, then `listbuilder serve`: gunicorn), and Werkzeug's development
server (what `make run` used to be) measured in the same run as the reference. The server is
started with `serve --printers 0`: no print worker of its own (with --printers, the benchmark
starts its own print workers beside it; see --print-workers).

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
        [--tls [--no-lanes] | --front] [--pause SECONDS]
        [--printers N [--print-cards CARDS] [--print-workers K | --compare-workers]]

--pause SECONDS (default 0): each player waits between an answer and its next edit, as a
person does who reads the page and picks the next unit: a time drawn evenly from half to one
and a half times SECONDS. Without it the clients never pause, which is a stress test rather
than players: 100 of them ask as much as several thousand people at a table would. With it,
the edits a second are what the players asked for, and the latency is what each one waits.

--tls: Debian's nginx in front of gunicorn, terminating TLS on loopback with a throwaway
self-signed certificate (openssl, made for the run), configured with exactly the site file
`listbuilder proxy-config` prints (the one docs/deploying.md ships; as
tests/browser/test_https_browser.py runs it), the workers' lanes included (`serve --lanes`,
`proxy-config --lanes`: nginx sends each request to the worker with the fewest under way;
`--no-lanes` leaves them out), and the clients speak HTTPS to it. They verify
the certificate: their SSL context trusts that one certificate (and checks it names
127.0.0.1), so nothing is turned off. Over HTTPS the app wants a same-origin Referer on every
form (Flask-WTF), so every POST names the page its form is on, as a browser does (it does so
over plain HTTP too). nginx's CPU is reported beside the server's, and the statuses of its
access log. Werkzeug's reference run stays plain HTTP, straight to the server: it is what
`make run` was, never deployed behind nginx.

--front: the clients speak plain HTTP to `listbuilder serve --front`, nginx in front
balancing the workers' lanes, exactly as `make run` serves; nginx's CPU is then counted in the
server's. Without --front or --tls they reach gunicorn itself.

--printers N (default 0): N more closed-loop clients that print while the players edit. Each
imports once a roster of 100 distinct unit cards (`--print-cards`; 100 is the most a print
from the browser may lay out: LISTBUILDER_MAX_PRINT_CARDS), then asks again and again for its
PDF (GET /r/<edit token>/print?what=...&paper=...), each time with other options, so each print
is laid out anew rather than answered from the print cache (there are 528 different prints of
the cards; a run would have to make that many a printer before one came from the cache). As a
browser does, it follows the print queue: a 202 ("your print is 3rd in line") or a 503 (the
queue full) is asked again at the same address after the Retry-After the answer gives (the
page's meta refresh says the same), until the answer is the PDF (200, application/pdf). The
server then runs two spells, one after the other: the players alone, then new players with
the printers, and prints the edits' figures of both; the printers' (prints made in the spell
and so prints finished a minute, p50/p95 from first asking to the PDF, places in line the
waiting pages gave, errors); the print workers' CPU seconds in each spell, and so roughly
their CPU a print; and the ratios of the edits' p50 and p95 with printers to those without
(the aim for p95: at most 1.5, issue 41). A print still in line when the edits end is left
unfinished and counted apart (as are PDFs answered while the printers were being stopped:
they are not among the prints a minute). A print of 100 cards takes some 15 s of CPU on a
2-core virtual machine, so spells of a few seconds end before any PDF comes: give `--edits`
enough for a minute or more, or smaller prints (`--print-cards 10`) to see the queue turn
over in a short run.

--print-workers K (default 1; only with --printers): the prints are laid out by K separate
`listbuilder worker --nice 19` processes (each one print at a time: `--concurrency 1`, each
in a process group of its own, stopped with SIGTERM at the end), reading the queue any worker
of these settings would (Huey's SQLite file beside the run's SQLite database; the huey_*
tables of a --database-url PostgreSQL; Redis if LISTBUILDER_REDIS_URL is set, as the
environment is passed on). They start before the server and the benchmark waits until they
are idle (their renderer's warm-up done); on a --database-url it also waits (up to ten
minutes) until the line an earlier run left there is empty, and every printer's roster has a
name of its own so that no print comes from an earlier run's print cache. They run through
both spells, idle in the first. gunicorn's web workers never lay out a print (`serve
--printers 0`), so the server's CPU is the edits' and the print pages', and the workers' CPU
is counted apart: from /proc, every process in their process groups (the consumer, its
worker process, and any it restarted and reaped), as the server's is counted from its
process tree. Werkzeug's reference run gets the same K workers. The workers run at nice 19,
as the one `serve` starts: while clients that never pause keep every core busy, the
scheduler gives the prints what the web server and clients (at nice 0) leave, so prints a
minute then say how much is left, not how fast a worker is; with `--pause` the players
leave the cores time to print.

--compare-workers (only with --printers): gunicorn measured twice, one after the other (each
time a fresh SQLite database, or the --database-url's line emptied first): with 1 print worker,
then with 2 (--print-workers is then only the reference's), and a table of both at the end: the
printers' spell's edits a second, edits' p50 and p95 (and p95's ratio to the spell without
printers), prints a minute, and the workers' CPU seconds (and per print). The two runs are
minutes apart on a shared machine: compare them with the machine speed each prints (a fixed
Python loop, before and after).

Every client connects from 127.0.0.1, so the server runs with the per-address limits of
listbuilder/web/site/limits.py off (each LISTBUILDER_LIMIT_* set empty) and no per-address share
of the print line (LISTBUILDER_PRINT_QUEUE_PER_CLIENT=0): else 50 players making 50 rosters
in a minute would be turned away (429) as one client making too many, and 8 printers would
share one address's 3 places in line.

The clients run on the same machine as the server and take some of its CPU; other work on the
machine (load average printed) slows both servers alike. Each run's temporary folder (its
database and the logs of the server and workers) is removed at the end unless a log holds a
traceback, when its path is printed.
"""

from __future__ import annotations

import http.client
import itertools
import os
import random
import re
import secrets
import shutil
import signal
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import click
from machine import machine_speed

from listbuilder.commands.server import default_workers, free_lanes
from listbuilder.commands.worker import SERVE_NICENESS
from listbuilder.web.site.limits import KINDS

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-c", "from listbuilder.commands.cli import main; main()"]
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
# A printer's roster: this many distinct cards (--print-cards), at most the most a print from
# the browser may lay out (MAX_PRINT_CARDS' default). Ork Boyz of each size from 10 to 30 with
# each set of upgrades are 168 different cards; the first ones are taken.
PRINT_CARDS = 100
BOYZ_UPGRADES = ("Shootas", "Boss Nob", "Rokkit Launcha")
# the waiting page's place in line ("Your print is 3rd in line."), and its meta refresh
PLACE = re.compile(r"Your print is (\d+)(?:st|nd|rd|th) in line")
REFRESH = re.compile(r'<meta http-equiv="refresh" content="(\d+)')
# the limits kept per client address: every client here is 127.0.0.1 (see the docstring)
# the CPU priority `serve` gives the print worker it starts (SERVE_NICENESS): the benchmark's
# own workers run as a host's beside the web server would
WORKER_NICENESS = SERVE_NICENESS  # as `serve` starts its own
NO_LIMITS = {**{kind.env: "" for kind in KINDS}, "LISTBUILDER_PRINT_QUEUE_PER_CLIENT": "0"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Target:
    """Where the clients connect: the server itself over HTTP, or nginx in front over TLS (an
    SSL context trusting the run's own certificate)."""

    port: int
    tls: ssl.SSLContext | None = None

    @property
    def origin(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"

    def connect(self) -> http.client.HTTPConnection:
        if self.tls is not None:
            return http.client.HTTPSConnection("127.0.0.1", self.port, timeout=60,
                                               context=self.tls)
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)


@dataclass(frozen=True)
class Settings:
    """What the command line asked of a run: the clients, their edits and the printers."""

    clients: int
    edits: int
    roster_size: int
    printers: int
    print_cards: int
    database_url: str | None
    pause: float = 0.0  # seconds a player waits between edits, on average
    print_workers: int = 1  # `listbuilder worker` processes laying out the printers' prints


@dataclass
class Results:
    latencies: list[float] = field(default_factory=list)  # seconds, one per edit answered 200
    sizes: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    samples: dict[int, str] = field(default_factory=dict)  # an answer's words for each status
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class Prints:
    """What the printers saw."""

    times: list[float] = field(default_factory=list)  # seconds from first asking to the PDF
    finished: list[float] = field(default_factory=list)  # perf_counter() at each PDF
    in_spell: int = 0  # PDFs that came before the edits ended
    sizes: list[int] = field(default_factory=list)  # bytes of each PDF
    asks: int = 0  # requests for prints, first asks and asking again
    busy: int = 0  # answers 503: the queue was full
    places: Counter[int] = field(default_factory=Counter)  # places in line the pages gave
    left: int = 0  # prints still in line when the edits ended
    errors: list[str] = field(default_factory=list)
    samples: dict[int, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Client:
    """One player: a keep-alive connection, a session cookie, the roster it edits."""

    def __init__(self, target: Target, roster_size: int = 0) -> None:
        self.target = target
        self.roster_size = roster_size  # the units in the roster before the edits measured
        self.connection = target.connect()
        self.cookie = ""
        self.path = ""
        self.csrf = ""
        self.version = 0

    def send(self, method: str, path: str, form: dict[str, object] | None = None,
             htmx: bool = False, page: str = "",
             upload: tuple[str, str, bytes] | None = None) -> tuple[int, bytes, dict[str, str]]:
        """`page`: the page the form is on, sent as the Referer (the app wants one of its own
        pages there over HTTPS); `upload`: a file (field, file name, content) sent with the
        form as multipart/form-data."""
        headers = {"Cookie": self.cookie} if self.cookie else {}
        body: str | bytes | None = None
        if upload is not None:
            body, headers["Content-Type"] = multipart(form or {}, *upload)
        elif form is not None:
            body = urllib.parse.urlencode(form, doseq=True)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if page:
            headers["Referer"] = self.target.origin + page
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
            "points_limit": 2000}, page=f"/new/{SYSTEM}")
        if status not in (302, 303):
            raise RuntimeError(f"creating a roster answered {status}: {words(data)}")
        self.path = urllib.parse.urlsplit(headers["location"]).path
        status, data, _ = self.send("GET", self.path)
        self.read_page(data.decode())
        for n in range(self.roster_size):
            status, data, _ = self.send("POST", f"{self.path}/add", {
                "csrf_token": self.csrf, "version": self.version, "unit": FILL[n % len(FILL)]},
                htmx=True, page=self.path)
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
        status, data, _ = self.send("POST", f"{self.path}/{action}", form, htmx=True,
                                    page=self.path)
        if status == 200:
            self.read_page(data.decode())
        return status, data


class PrintFailed(Exception):
    def __init__(self, status: int, text: str) -> None:
        self.status = status
        self.text = text
        super().__init__(f"HTTP {status}")


class Printer(Client):
    """A player printing: imports a roster of PRINT_CARDS distinct cards once (the home page's
    "Open a roster file"), then asks for its PDF, other options each time."""

    def __init__(self, target: Target, number: int, cards: int = PRINT_CARDS) -> None:
        super().__init__(target)
        self.number = number
        self.cards = cards

    def start(self) -> None:
        status, data, _ = self.send("GET", "/")
        self.read_page(data.decode())
        status, data, headers = self.send(
            "POST", "/import", {"csrf_token": self.csrf}, page="/",
            upload=("file", "printer.yaml",
                    # a name of its own: a print's key is of the roster's text, and a run on a
                    # --database-url the last run used must not find its PDFs in the cache
                    big_roster(f"Load printer {self.number} {secrets.token_hex(4)}",
                               self.cards)))
        if status not in (302, 303):
            raise RuntimeError(f"importing a roster answered {status}: {words(data)}")
        self.path = urllib.parse.urlsplit(headers["location"]).path

    def print_once(self, query: str, prints: Prints, stop: threading.Event) -> float | None:
        """Seconds from first asking to the PDF; None if the edits ended while the print was
        still in line. PrintFailed for any answer but the PDF, a place in line or a full
        queue."""
        url = f"{self.path}/print?{query}"
        began = time.perf_counter()
        while True:
            status, data, headers = self.send("GET", url)
            with prints.lock:
                prints.asks += 1
            if status == 200 and headers.get("content-type", "").startswith("application/pdf"):
                now = time.perf_counter()
                took = now - began
                with prints.lock:
                    prints.times.append(took)
                    prints.finished.append(now)
                    prints.sizes.append(len(data))
                return took
            if status not in (202, 503):
                raise PrintFailed(status, words(data))
            html = data.decode(errors="replace")
            place = PLACE.search(html)
            with prints.lock:
                if status == 503:  # the busy page: no place in line
                    prints.busy += 1
                else:  # no number: "being laid out now"
                    prints.places[int(place[1]) if place else 0] += 1
            # as a browser does: ask again when the answer says (its meta refresh says so
            # too, for the browser without JavaScript)
            if stop.wait(again_in(headers, html)):
                return None


def again_in(headers: dict[str, str], html: str) -> float:
    """Seconds until a print in line (or turned away) may be asked again."""
    retry = headers.get("retry-after", "")
    if retry.isdigit():
        return float(retry)
    refresh = REFRESH.search(html)
    return float(refresh[1]) if refresh else 1.0


def multipart(form: dict[str, object], name: str, filename: str,
              content: bytes) -> tuple[bytes, str]:
    """A form with one file, as a browser sends it: the body and its Content-Type."""
    boundary = f"----listbuilder-load-{secrets.token_hex(8)}"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n'
             f"{value}\r\n".encode() for key, value in form.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                 f'filename="{filename}"\r\nContent-Type: application/yaml\r\n\r\n'.encode()
                 + content + b"\r\n")
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), (
        f"multipart/form-data; boundary={boundary}")


def big_roster(name: str, cards: int = PRINT_CARDS) -> bytes:
    """A roster file of `cards` entries that each print a card of their own: Ork Boyz of
    every size with every set of upgrades (no points limit to speak of: legal or not, it
    prints)."""
    sets = [ups for k in range(len(BOYZ_UPGRADES) + 1)
            for ups in itertools.combinations(BOYZ_UPGRADES, k)]
    entries = [(size, ups) for size in range(10, 31) for ups in sets][:cards]
    lines = ["format: 1", f"system: {SYSTEM}", f"name: {name}", "points_limit: 100000",
             f"factions: [{FACTION}]", "entries:"]
    for size, ups in entries:
        lines += [f"  - unit: {UNIT}", f"    count: {size}"]
        if ups:
            lines.append(f"    upgrades: [{', '.join(ups)}]")
    return ("\n".join(lines) + "\n").encode()


def print_queries() -> list[str]:
    """Every print of a roster's cards (with or without its sheet) the print menu can ask
    for, as query strings: each is a print of its own (its own cache key). The options'
    own check drops the clashes (bleed with cut marks, gutter fold with double-sided...)."""
    from listbuilder.printing import PrintError, PrintOptions

    yes = {True: "yes", False: "no"}
    out = []
    for what, paper, card, duplex, gutter, cut, bleed, ink, merge in itertools.product(
            ("all", "cards"), ("a4", "letter"), ("poker", "mini", "tarot"),
            ("none", "long", "short"), (False, True), (False, True), (False, True),
            (False, True), (True, False)):
        sent = {"what": what, "paper": paper, "card": card, "duplex": duplex,
                "gutter_fold": yes[gutter], "cut_marks": yes[cut], "bleed": yes[bleed],
                "ink_saver": yes[ink], "merge": yes[merge]}
        try:
            PrintOptions.from_strings(sent)
        except PrintError:
            continue
        out.append(urllib.parse.urlencode(sent))
    return out


def action_of(step: int) -> str:
    return ["add", "entry", "remove"][step % 3]


def words(html: bytes) -> str:
    """An error page's heading and first words, to tell errors apart."""
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.decode(errors="replace")))
    return text.strip()[:160]


def drive(target: Target, clients: int, edits: int, roster_size: int = 0, printers: int = 0,
          print_cards: int = PRINT_CARDS, started: Callable[[], None] = lambda: None,
          pause: float = 0.0) -> tuple[Results, Prints, float]:
    """Run the players, and the printers beside them until the edits are done; `started` is
    called once all have made their rosters, when the edits measured begin."""
    results, prints = Results(), Prints()
    tickets = itertools.count()
    players = [Client(target, roster_size) for _ in range(clients)]
    printing = [Printer(target, n, print_cards) for n in range(printers)]
    queries = print_queries() if printers else []
    ready = threading.Barrier(clients + printers + 1)
    done = threading.Event()  # the edits are all made: the printers stop

    def play(player: Client) -> None:
        try:
            player.start()
        except Exception as error:  # counted: a player that can't start makes no edits
            results.errors.append(f"start: {error!r}")
        ready.wait()
        if not player.path:
            return
        step = 0
        thinking = random.Random(id(player))  # each player its own pauses
        while next(tickets) < edits:
            if pause and step:
                time.sleep(thinking.uniform(0.5, 1.5) * pause)
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

    def print_loop(printer: Printer) -> None:
        try:
            printer.start()
        except Exception as error:
            prints.errors.append(f"start: {error!r}")
        ready.wait()
        if not printer.path:
            return
        # printers start at different places in the list, so that the costly prints (bleed:
        # a page a card) do not all come at once
        for n in itertools.count(printer.number * len(queries) // max(1, printers)):
            if done.is_set():
                return
            try:
                if printer.print_once(queries[n % len(queries)], prints, done) is None:
                    with prints.lock:
                        prints.left += 1
            except PrintFailed as failed:
                with prints.lock:
                    prints.errors.append(f"HTTP {failed.status} on a print")
                    prints.samples.setdefault(failed.status, failed.text)
            except Exception as error:
                with prints.lock:
                    prints.errors.append(repr(error))
                printer.connection.close()

    threads = [threading.Thread(target=play, args=(p,)) for p in players]
    printing_threads = [threading.Thread(target=print_loop, args=(p,)) for p in printing]
    for t in threads + printing_threads:
        t.start()
    ready.wait()
    started()
    began = time.perf_counter()
    for t in threads:
        t.join()
    ended = time.perf_counter()
    wall = ended - began
    done.set()
    for t in printing_threads:
        t.join()
    # a PDF answered while the printers were being told to stop is not the spell's
    prints.in_spell = sum(1 for moment in prints.finished if moment <= ended)
    return results, prints, wall


def proc_stats() -> dict[int, list[str]]:
    """Every process's /proc/<pid>/stat fields after the command name (field 3 onwards)."""
    stats: dict[int, list[str]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            stats[int(stat.parent.name)] = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
    return stats


def server_cpu(pid: int) -> float:
    """CPU seconds used so far by the server: the process and all it started (from /proc)."""
    stats = proc_stats()
    family, frontier = {pid}, {pid}
    while frontier:
        frontier = {p for p, fields in stats.items() if int(fields[1]) in frontier} - family
        family |= frontier
    ticks = sum(int(stats[p][11]) + int(stats[p][12]) for p in family if p in stats)
    return ticks / os.sysconf("SC_CLK_TCK")


def groups_cpu(groups: list[int]) -> float:
    """CPU seconds used so far by these process groups (from /proc): each member's own, and
    its children's that it reaped (a worker process Huey restarted after it died)."""
    ticks = sum(sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
                for fields in proc_stats().values() if int(fields[2]) in groups)
    return ticks / os.sysconf("SC_CLK_TCK")


def group_size(group: int) -> int:
    return sum(1 for fields in proc_stats().values() if int(fields[2]) == group)


def start_workers(count: int, env: dict[str, str], folder: Path) -> list[subprocess.Popen[bytes]]:
    """`count` print workers (`listbuilder worker --nice 19`, as `serve` starts its own), each
    in a process group of its own, once each has forked its worker process and all are idle
    (their renderer's warm-up is start-up, not the prints measured)."""
    workers: list[subprocess.Popen[bytes]] = []
    try:
        for n in range(count):
            with (folder / f"worker-{n + 1}.log").open("wb") as out:
                workers.append(subprocess.Popen(
                    [*CLI, "worker", "--nice", str(WORKER_NICENESS)], env=env, cwd=ROOT,
                    stdout=out, stderr=subprocess.STDOUT, start_new_session=True))
        deadline = time.monotonic() + 120
        for n, proc in enumerate(workers):
            # the consumer and the worker process it forks (and Huey's scheduler thread)
            while group_size(proc.pid) < 2:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log = (folder / f"worker-{n + 1}.log").read_text(errors="replace")
                    raise SystemExit(f"print worker {n + 1} did not start: {log[-2000:]}")
                time.sleep(0.2)
        settle(lambda: groups_cpu([w.pid for w in workers]))
    except BaseException:
        stop_workers(workers)
        raise
    return workers


def drain_line(env: dict[str, str], workers: list[subprocess.Popen[bytes]]) -> None:
    """Wait until the print line is empty: a --database-url the last run used keeps the prints
    it left in line (the queue is in that database), which these workers would lay out in the
    spells measured. For at most ten minutes."""
    began = time.monotonic()
    deadline = began + 600
    while True:
        status = subprocess.run([*CLI, "worker", "status"], env=env, cwd=ROOT,
                                capture_output=True, text=True).stdout
        left = sum(int(n) for n in re.findall(r"^(?:waiting|being laid out): (\d+)$", status,
                                              re.MULTILINE))
        if not left:
            break
        if time.monotonic() > deadline:
            print(f"  {plural(left, 'print')} of an earlier run still in line after 10 "
                  f"minutes: the spells share the workers with them", flush=True)
            return
        time.sleep(5)
    waited = time.monotonic() - began
    if waited > 5:
        print(f"  waited {waited:.0f} s for an earlier run's prints left in line",
              flush=True)
        settle(lambda: groups_cpu([w.pid for w in workers]))


def stop_workers(workers: list[subprocess.Popen[bytes]]) -> None:
    for proc in workers:
        if proc.poll() is None:
            stop_server(proc)  # SIGTERM: the prints in hand go back in line, as in a restart


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
                settle(lambda: server_cpu(proc.pid))
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not listen within 120 s")


def settle(cpu: Callable[[], float]) -> None:
    """Wait until processes are idle (`cpu`: the CPU seconds they used so far), for at most a
    minute: start-up (a print worker's renderer warm-up, a spell's prints still being laid
    out) is not what is measured."""
    deadline = time.monotonic() + 60
    used = cpu()
    while time.monotonic() < deadline:
        time.sleep(1)
        now = cpu()
        if now - used < 0.05:
            return
        used = now


def stop_server(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    os.killpg(proc.pid, sig)  # the whole group: workers and layout processes
    try:
        proc.wait(timeout=40)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def start_front(env: dict[str, str], app_port: int, folder: Path,
                lanes: list[str]) -> tuple[subprocess.Popen[bytes], Target]:
    """nginx terminating TLS in front of the server on `app_port`, with the site file
    `listbuilder proxy-config` prints (given `lanes`, its options for the workers' own ports)
    and a certificate made now; and how to reach it."""
    from listbuilder.commands.front import find_nginx, main_config  # only --tls needs it

    nginx = find_nginx()
    if nginx is None:
        raise SystemExit("--tls needs nginx: apt-get install nginx (make test installs it)")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    port = free_port()
    site = subprocess.run(
        [*CLI, "proxy-config", "--listen", f"127.0.0.1:{port}",
         "--upstream", f"127.0.0.1:{app_port}", "--server-name", "127.0.0.1",
         "--certificate", str(cert), "--certificate-key", str(key),
         *lanes, "--redirect-from", "", "--access-log", str(folder / "access.log"),
         "--error-log", str(folder / "error.log")],
        env=env, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    prefix = folder / "nginx"
    prefix.mkdir()
    (prefix / "site.conf").write_text(site, encoding="utf-8")
    (prefix / "nginx.conf").write_text(main_config(prefix, prefix / "site.conf"),
                                       encoding="utf-8")
    proc = start_server([nginx, "-p", str(prefix), "-c", str(prefix / "nginx.conf"),
                         "-e", "stderr"], env, port, folder / "nginx.log")
    # the clients trust this certificate alone, and check it is 127.0.0.1's
    context = ssl.create_default_context(cafile=str(cert))
    context.set_alpn_protocols(["http/1.1"])  # http.client speaks HTTP/1.1; nginx offers h2
    return proc, Target(port, context)


@dataclass
class Spell:
    """One spell of edits against a running server, printers beside them or not."""

    label: str
    results: Results
    prints: Prints
    wall: float
    cpu: float  # server CPU seconds while the edits were measured
    front_cpu: float  # nginx's
    client_cpu: float
    printers: int
    worker_cpu: float = 0.0  # the print workers' (their process groups')
    print_workers: int = 0


def spell(label: str, target: Target, proc: subprocess.Popen[bytes],
          front: subprocess.Popen[bytes] | None, settings: Settings, printers: int,
          workers: list[subprocess.Popen[bytes]] | None = None) -> Spell:
    before: dict[str, float] = {}
    groups = [worker.pid for worker in workers or []]

    def cpus() -> dict[str, float]:
        return {"server": server_cpu(proc.pid), "client": time.process_time(),
                "front": server_cpu(front.pid) if front is not None else 0.0,
                "workers": groups_cpu(groups)}

    def started() -> None:  # making and filling the rosters is not what is measured
        before.update(cpus())

    results, prints, wall = drive(target, settings.clients, settings.edits,
                                  settings.roster_size, printers, settings.print_cards, started,
                                  settings.pause)
    after = cpus()
    return Spell(label, results, prints, wall, after["server"] - before["server"],
                 after["front"] - before["front"], after["client"] - before["client"],
                 printers, after["workers"] - before["workers"], len(groups))


def measure(label: str, command: list[str], settings: Settings,
            tls: bool = False, lanes: int = 0) -> list[Spell]:
    """Start the server (`command`), and `settings.print_workers` print workers beside it if
    there are printers, and measure it; `lanes`: the number of gunicorn workers to give their
    own lanes, as docs/deploying.md has the host run them behind nginx (0: none). The spells
    measured: edits alone, then with the printers if any."""
    folder = Path(tempfile.mkdtemp(prefix="listbuilder-load-"))
    env = {**os.environ, "LISTBUILDER_INSTANCE": str(folder / "instance"),
           "LISTBUILDER_DATA": str(folder / "no-data"), **NO_LIMITS}
    env.pop("DATABASE_URL", None)
    if settings.database_url:
        env["DATABASE_URL"] = settings.database_url
    subprocess.run([*CLI, "db", "upgrade"], env=env, cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    speed = machine_speed()
    port = free_port()
    own: list[str] = []
    if lanes:
        own = ["--lanes", str(free_lanes(lanes, besides=port)), "--workers", str(lanes)]
    # started first, so that the server's start-up is measured idle (they warm up meanwhile)
    workers = (start_workers(settings.print_workers, env, folder) if settings.printers
               else [])
    if workers and settings.database_url:
        drain_line(env, workers)
    front = None
    spells: list[Spell] = []
    try:
        proc = start_server([*command, str(port)] if command is WERKZEUG else
                            [*command, "--port", str(port), *own], env, port,
                            folder / "server.log")
        try:
            target = Target(port)
            if tls:
                front, target = start_front(env, port, folder, own)
            spells.append(spell("edits alone", target, proc, front, settings, 0, workers))
            if settings.printers:
                # the first spell's work done: the second starts from idle
                settle(lambda: server_cpu(proc.pid) + groups_cpu([w.pid for w in workers]))
                printers = f"{plural(settings.printers, 'printer')}"
                spells.append(spell(f"edits with {printers} beside them", target, proc, front,
                                    settings, settings.printers, workers))
        finally:
            if front is not None:
                stop_server(front, signal.SIGQUIT)  # nginx's graceful stop
            stop_server(proc)
    finally:
        stop_workers(workers)
    lanes_said = f" and its workers' lanes from {own[1]} (least_conn)" if own else ""
    print(f"\n{label}" + (f"\n  over HTTPS: nginx (TLS) at {target.origin}, in front of the "
                          f"server at 127.0.0.1:{port}{lanes_said}" if tls else ""))
    for one in spells:
        report(one, settings.clients, len(spells) > 1)
    print(f"  machine speed: a fixed Python loop took {machine_speed():.0f} ms after the run "
          f"({speed:.0f} ms before; lower is faster)")
    if len(spells) > 1:
        compare(spells[0], spells[1])
    if tls:
        logged = access_log(folder / "access.log")
        print(f"  nginx access log: {sum(logged.values())} requests; statuses "
              + ", ".join(f"{status} x {n}" for status, n in sorted(logged.items())))
    if workers:
        print(f"  prints laid out by {plural(len(workers), 'print worker')} apart from the "
              f"server (`listbuilder worker --nice {WORKER_NICENESS}`, one print at a time "
              f"each)")
    kept = False
    for log in sorted(folder.glob("*.log")):
        crashes = log.read_text(errors="replace").count("Traceback")
        if crashes:
            print(f"  {log} holds {plural(crashes, 'traceback')}")
            kept = True
    if not kept:  # nothing to look into: the run's database and logs go
        shutil.rmtree(folder, ignore_errors=True)
    return spells


def plural(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def p95(latencies: list[float]) -> float:
    return statistics.quantiles(latencies, n=100)[94] if len(latencies) >= 2 else float("nan")


def p50(latencies: list[float]) -> float:
    return statistics.median(latencies) if latencies else float("nan")


def compare(alone: Spell, beside: Spell) -> None:
    for name, cut in (("p50", p50), ("p95", p95)):
        before, after = cut(alone.results.latencies), cut(beside.results.latencies)
        aim = " (the aim: at most 1.5)" if name == "p95" else ""
        print(f"  edits' {name}: {before * 1000:.0f} ms alone, {after * 1000:.0f} ms with "
              f"printers beside them: {after / before:.2f} times{aim}")


def prints_a_minute(one: Spell) -> float:
    return one.prints.in_spell / (one.wall / 60)


def summary(runs: list[tuple[int, list[Spell]]]) -> None:
    """The runs with 1 and 2 print workers side by side (--compare-workers)."""
    print("\nprint workers compared (the spells with printers):")
    print("  workers | edits/s | edits' p50, p95 (x alone) | prints a minute | "
          "workers' CPU s (s a print)")
    for count, spells in runs:
        alone, beside = spells[0], spells[-1]
        lat, before = beside.results.latencies, alone.results.latencies
        done = beside.prints.in_spell
        each = f"{beside.worker_cpu / done:.1f}" if done else "-"
        print(f"  {count} | {len(lat) / beside.wall:.0f} | {p50(lat) * 1000:.0f} ms, "
              f"{p95(lat) * 1000:.0f} ms (x{p95(lat) / p95(before):.2f}) | "
              f"{prints_a_minute(beside):.1f} | {beside.worker_cpu:.1f} ({each})")


def access_log(path: Path) -> Counter[str]:
    """The statuses nginx logged (its `listbuilder` format: the status after the request)."""
    statuses: Counter[str] = Counter()
    if path.exists():
        for line in path.read_text(errors="replace").splitlines():
            found = re.search(r'" (\d{3}) ', line)
            statuses[found[1] if found else "?"] += 1
    return statuses


def report(one: Spell, clients: int, named: bool) -> None:
    results = one.results
    done = len(results.latencies)
    print(f"  {one.label + ': ' if named else ''}{clients} clients, {done} edits answered 200 "
          f"in {one.wall:.1f} s: {done / one.wall:.0f} edits/s")
    if done >= 2:
        cuts = statistics.quantiles(results.latencies, n=100)
        print(f"    latency p50 {cuts[49] * 1000:.0f} ms, p95 {cuts[94] * 1000:.0f} ms, "
              f"p99 {cuts[98] * 1000:.0f} ms, max {max(results.latencies) * 1000:.0f} ms")
        print(f"    bytes per answer: median {statistics.median(results.sizes):,.0f}, "
              f"max {max(results.sizes):,}")
    print(errors_seen(results.errors, results.samples))
    edits = max(1, done)
    cores = os.cpu_count() or 1
    front = f", nginx {one.front_cpu / edits * 1000:.1f} ms" if one.front_cpu else ""
    if one.printers:
        nginx = f"; nginx {one.front_cpu:.1f} s" if one.front_cpu else ""
        print(f"    CPU in the spell: server {one.cpu:.1f} s (edits and print pages; it lays "
              f"out none), print workers {one.worker_cpu:.1f} s{nginx}; "
              f"these clients {one.client_cpu:.1f} s")
        report_prints(one.prints, one.wall, one.worker_cpu)
    else:
        idle = (f"; the idle print workers {one.worker_cpu:.1f} s in all"
                if one.print_workers else "")
        print(f"    CPU per edit: server {one.cpu / edits * 1000:.1f} ms (so at most "
              f"{cores * edits / max(one.cpu, 1e-9):.0f} edits/s on {cores} idle cores){front}, "
              f"these clients {one.client_cpu / edits * 1000:.1f} ms{idle}")


def report_prints(prints: Prints, wall: float, worker_cpu: float) -> None:
    made = len(prints.times)
    print(f"    printers: {plural(prints.in_spell, 'print')} made in {wall:.1f} s: "
          f"{prints.in_spell / (wall / 60):.1f} a minute"
          + (f", about {worker_cpu / prints.in_spell:.1f} s of the workers' CPU each"
             if prints.in_spell else "")
          + (f" ({made - prints.in_spell} more answered as the printers stopped)"
             if made > prints.in_spell else "")
          + f"; {prints.asks} asks (first asks and asking again), {prints.left} still in "
          f"line at the end, {prints.busy} turned away (503)")
    if made:
        # inclusive: a handful of prints, whose p95 must not be guessed beyond the slowest
        cuts = (statistics.quantiles(prints.times, n=100, method="inclusive") if made >= 2
                else prints.times * 99)
        print(f"      first ask to PDF: p50 {cuts[49]:.1f} s, p95 {cuts[94]:.1f} s, "
              f"max {max(prints.times):.1f} s; PDF median {statistics.median(prints.sizes):,.0f}"
              f" bytes")
    if prints.places:
        print("      places in line the waiting pages gave: " + ", ".join(
            f"{'being laid out' if place == 0 else place} x {n}"
            for place, n in sorted(prints.places.items())))
    print("  " + errors_seen(prints.errors, prints.samples).replace("\n", "\n  "))


def errors_seen(errors: list[str], samples: dict[int, str]) -> str:
    kinds = Counter(errors)
    return (f"    errors: {len(errors)}"
            + "".join(f"\n      {n} x {kind[:200]}" for kind, n in sorted(kinds.items()))
            + "".join(f"\n      an answer {status}: {text}"
                      for status, text in sorted(samples.items())))


@click.command(help=__doc__.split("\n\n")[0],
               context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--clients", type=int, default=50)
@click.option("--edits", type=int, default=2000)
@click.option("--workers", type=int, help="gunicorn workers (default: serve's)")
@click.option("--threads", type=int, help="threads a worker (default: serve's)")
@click.option("--roster-size", type=int, default=0,
              help="units in each roster before the edits (default: none)")
@click.option("--database-url", help="a PostgreSQL URL, say (default: SQLite file)")
@click.option("--no-reference", is_flag=True, help="skip Werkzeug's development server")
@click.option("--tls", is_flag=True,
              help="nginx terminating TLS in front of gunicorn (the site file of "
                   "`listbuilder proxy-config`); the clients speak HTTPS")
@click.option("--front", is_flag=True,
              help="plain HTTP to `serve --front`, nginx in front balancing the workers' "
                   "lanes, exactly as make run serves (without it: to gunicorn itself)")
@click.option("--no-lanes", is_flag=True,
              help="with --tls: nginx sends everything to the shared port, not each worker's "
                   "own (serve --lanes), to measure what the lanes change")
@click.option("--printers", type=int, default=0,
              help="clients printing a 100-card roster beside the edits, each "
                   "print laid out anew: a spell without them, then one with "
                   "(default: 0, none)")
@click.option("--print-cards", type=click.IntRange(1, PRINT_CARDS), default=PRINT_CARDS,
              metavar=f"1..{PRINT_CARDS}",
              help=f"distinct cards in a printer's roster (default: {PRINT_CARDS}, "
                   f"the most a print from the browser may have)")
@click.option("--pause", type=click.FloatRange(0), default=0.0, metavar="SECONDS",
              help="a player's pause between edits, on average (default: 0, none)")
@click.option("--print-workers", type=click.IntRange(1, 16), default=1, show_default=True,
              help="with --printers: `listbuilder worker --nice 19` processes beside the "
                   "server (`serve --printers 0`), one print at a time each")
@click.option("--compare-workers", is_flag=True,
              help="with --printers: measure gunicorn with 1 print worker, then with 2, and "
                   "show them side by side (instead of --print-workers)")
def main(clients: int, edits: int, workers: int | None, threads: int | None, roster_size: int,
         database_url: str | None, no_reference: bool, tls: bool, front: bool,
         no_lanes: bool, printers: int, print_cards: int, pause: float, print_workers: int,
         compare_workers: bool) -> None:
    if front and tls:
        raise click.UsageError("--front is make run's plain-HTTP nginx; --tls puts the host's "
                               "TLS nginx in front instead: one or the other")
    if compare_workers and not printers:
        raise click.UsageError("--compare-workers compares the prints: give --printers N")
    settings = Settings(clients, edits, roster_size, printers, print_cards, database_url,
                        pause, print_workers)
    # no print worker of the server's own: the benchmark starts them (--print-workers), so
    # that their CPU is counted apart and gunicorn's web workers never lay out a print
    serve = [*CLI, "serve", "--printers", "0"]
    if workers:
        serve += ["--workers", str(workers)]
    if threads:
        serve += ["--threads", str(threads)]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"{os.cpu_count()} cores, load average {load} before the run; clients and server "
          f"share the machine; database: {database_url or 'SQLite file'}; "
          f"{roster_size} units in each roster before the edits; "
          + (f"each player pauses {pause / 2:g} to {pause * 1.5:g} s between edits"
             if pause else "the players never pause between edits"), flush=True)
    if front:
        serve.append("--front")
    runs: list[tuple[int, list[Spell]]] = []
    for count in (1, 2) if compare_workers else (print_workers,):
        with_workers = (f", {plural(count, 'print worker')} beside it" if printers else "")
        runs.append((count, measure(
            "gunicorn (listbuilder serve" + (" --front, as make run starts it: nginx in front"
                                             if front else ", gunicorn itself") + ")"
            + (", behind nginx over HTTPS" if tls else "") + with_workers, serve,
            replace(settings, print_workers=count), tls,
            lanes=(workers or default_workers()) if tls and not no_lanes else 0)))
    if compare_workers:
        summary(runs)
    if not no_reference:
        measure("Werkzeug development server (the reference: make run before gunicorn)"
                + (", plain HTTP" if tls else "")
                + (f", {plural(print_workers, 'print worker')} beside it" if printers else ""),
                WERKZEUG, settings)
    print("\ngoals (issue 17), players who never pause: 100 through TLS (--tls --clients 100): "
          "0 errors and p95 <= 250 ms, and with 8 printers (--printers 8) p95 within 2x of "
          "it; 50 on plain HTTP (--clients 50): p95 <= 147 ms and >= 465 edits/s")


if __name__ == "__main__":
    main()
