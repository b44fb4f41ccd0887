"""Fuzzing campaign: thousands of generated and mutated inputs against the command line and a
running server, with counts of what went wrong.

    .venv/bin/python benchmarks/fuzz.py [--cli 5000] [--server 5000] [--seed 1]

Command line: a warm parent forks one child per roster file, which runs `listbuilder validate`
and, when the file reads, `export` twice (the second export must equal the first). A child
killed by a signal is a crash; one running over 2 s is a hang; its peak memory comes from the
kernel (wait4).

Server: started as `make run` starts it (`listbuilder serve`, on a temp database), then driven
over HTTP with imports of generated files, edit posts and query strings on rosters of every
system, and faction packs (generated and bent) checked and saved in the studio and added to
rosters. An answer of 500 or more, a trace in an answer or in the server's log, an answer
slower than 2 s, a server process over 200 MB, a server that dies, and a stored roster whose
export does not import back to the same bytes are each counted. The goal is zero of each.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

import click

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "tools"))

from fuzzcorpus import catalog_names, form_post, pack_text, query, roster_text  # noqa: E402

from listbuilder.commands import cli  # noqa: E402
from listbuilder.engine.library import Library  # noqa: E402

HANG = 2.0  # seconds
MEMORY = 200 * 1024 * 1024  # bytes
STARTS = {"op40k": ["Orks"], "warstuff": ["Fantasy"], "hammerwars": ["Tau"],
          "actionhammer": ["Cobalt Brigade"], "spaceempires": ["Orks"]}


# -- the command line -------------------------------------------------------------------------

def _cli_child(path: Path, out: Path) -> int:
    """Run in a forked child: validate, then export twice and compare."""
    def run(*args: str) -> int:
        try:
            cli.main.main(list(args), prog_name="listbuilder", standalone_mode=True)
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else 1
        return 0

    code = run("validate", str(path))
    if code not in (0, 1):
        return code
    first, second = out.with_suffix(".1.yaml"), out.with_suffix(".2.yaml")
    if run("export", str(path), "-o", str(first)) != 0:
        return 20
    if run("export", str(first), "-o", str(second)) != 0:
        return 21
    return code if first.read_bytes() == second.read_bytes() else 22


def fuzz_cli(count: int, rng: random.Random, library: Library) -> Counter[str]:
    names = catalog_names(library)
    cli.Library = lambda: library  # type: ignore[assignment, misc]  # each child: warm data
    found: Counter[str] = Counter()
    peak = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for i in range(count):
            path = folder / f"in{i % 50}.yaml"
            path.write_bytes(roster_text(rng, names).encode("utf-8", "surrogatepass"))
            log = folder / "child.log"
            started = time.monotonic()
            pid = os.fork()
            if pid == 0:
                fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
                os.dup2(fd, 1)
                os.dup2(fd, 2)
                code = 99
                try:
                    code = _cli_child(path, folder / "out")
                finally:
                    os._exit(code)
            status, usage = 0, None
            while True:
                done, status, usage = os.wait4(pid, os.WNOHANG)
                if done:
                    break
                if time.monotonic() - started > HANG:
                    os.kill(pid, signal.SIGKILL)
                    _, status, usage = os.wait4(pid, 0)
                    found["hangs"] += 1
                    break
                time.sleep(0.002)
            found["inputs"] += 1
            peak = max(peak, usage.ru_maxrss * 1024 if usage else 0)
            if usage and usage.ru_maxrss * 1024 > MEMORY:
                found["over memory"] += 1
            text = log.read_text(errors="replace")
            if "Traceback" in text:
                found["tracebacks"] += 1
                print(f"traceback on input {i}:\n{text[-1500:]}", file=sys.stderr)
            if os.WIFSIGNALED(status) and os.WTERMSIG(status) != signal.SIGKILL:
                found["crashes"] += 1
            elif os.WIFEXITED(status):
                code = os.WEXITSTATUS(status)
                outcome = {0: "legal", 1: "illegal", 2: "unreadable"}.get(code)
                if outcome:
                    found[outcome] += 1
                elif code == 22:
                    found["round-trip failures"] += 1
                else:
                    found[f"exit {code}"] += 1
    found["peak memory MB"] = peak // (1024 * 1024)
    return found


# -- the server -------------------------------------------------------------------------------

class Browser:
    """One player's connection: keeps the session cookie, reads CSRF tokens off pages."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie = ""
        self.conn = self.connection()

    def connection(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)

    def send(self, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str, float]:
        headers = dict(headers or {})
        if self.cookie:
            headers["Cookie"] = self.cookie
        started = time.monotonic()
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = self.connection()
                if attempt:
                    raise
        took = time.monotonic() - started
        for key, value in response.getheaders():
            if key.lower() == "set-cookie" and value.startswith("session="):
                self.cookie = value.split(";", 1)[0]
        return (response.status, {k.lower(): v for k, v in response.getheaders()},
                data.decode("utf-8", "replace"), took)

    def get(self, path: str) -> tuple[int, dict[str, str], str, float]:
        return self.send("GET", path)

    def post(self, path: str, fields: dict[str, object], htmx: bool = False
             ) -> tuple[int, dict[str, str], str, float]:
        pairs = [(k, str(x)) for k, v in fields.items()
                 for x in (v if isinstance(v, list) else [v])]
        body = urlencode(pairs).encode()
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        if htmx:
            headers["HX-Request"] = "true"
        return self.send("POST", path, body, headers)

    def upload(self, path: str, csrf: str, text: bytes, extra: dict[str, str] | None = None
               ) -> tuple[int, dict[str, str], str, float]:
        boundary = uuid.uuid4().hex
        parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
                 .encode() for k, v in {"csrf_token": csrf, **(extra or {})}.items()]
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                     f'filename="fuzz.yaml"\r\nContent-Type: application/yaml\r\n\r\n'.encode()
                     + text + b"\r\n")
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        return self.send("POST", path, body,
                         {"Content-Type": f"multipart/form-data; boundary={boundary}"})


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page) or \
        re.search(r'id="csrf_token" name="csrf_token" type="hidden" value="([^"]+)"', page)
    return found[1] if found else ""


def version_of(page: str) -> str:
    found = re.search(r'name="version" (?:type="hidden" )?value="(\d+)"', page) or \
        re.search(r'id="version" name="version" type="hidden" value="(\d+)"', page)
    return found[1] if found else "1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(folder: Path, log: Path, limits: bool = False, access_log: bool = False
                 ) -> tuple[subprocess.Popen[bytes], int]:
    """`listbuilder serve` on a database in `folder`. Without `limits`, every per-client limit
    and the per-client share of the print line are off: the fuzzed inputs all come from one
    address and are to reach the app (the attacks run with them on)."""
    from listbuilder.web.site.limits import KINDS

    port = free_port()
    env = {**os.environ, "LISTBUILDER_INSTANCE": str(folder / "instance"),
           "DATABASE_URL": f"sqlite:///{folder / 'rosters.sqlite3'}",
           "LISTBUILDER_DATA": str(folder / "no-custom-data"),
           **({} if limits else {**{kind.env: "" for kind in KINDS},
                                  "LISTBUILDER_PRINT_QUEUE_PER_CLIENT": "0"})}
    command = str(Path(sys.executable).parent / "listbuilder")
    help_text = subprocess.run([command, "--help"], capture_output=True, text=True).stdout
    if re.search(r"^\s+db\b", help_text, flags=re.M):  # migrations, as make run does
        subprocess.run([command, "db", "upgrade"], env=env, check=True, capture_output=True)
    with log.open("ab") as out:
        server = subprocess.Popen([command, "serve", "--host", "127.0.0.1", "--port", str(port),
                                   *(["--access-log"] if access_log else [])],
                                  env=env, stdout=out, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return server, port
        if server.poll() is not None:
            raise SystemExit(f"the server did not start; see {log}")
        time.sleep(0.2)
    raise SystemExit("the server did not answer within 60 s")


def process_tree_rss(pid: int) -> int:
    """The largest resident size among the server and its descendants, in bytes."""
    largest = 0
    todo = [pid]
    seen = set()
    while todo:
        current = todo.pop()
        seen.add(current)
        with contextlib.suppress(OSError):
            status = Path(f"/proc/{current}/status").read_text()
            found = re.search(r"VmRSS:\s+(\d+) kB", status)
            largest = max(largest, int(found[1]) * 1024 if found else 0)
        with contextlib.suppress(OSError):
            for child in Path(f"/proc/{current}/task").glob("*/children"):
                todo += [int(c) for c in child.read_text().split() if int(c) not in seen]
    return largest


def fuzz_server(count: int, rng: random.Random, library: Library) -> Counter[str]:
    names = {n.system: n for n in catalog_names(library)}
    found: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "no-custom-data").mkdir()
        log = folder / "server.log"
        server, port = start_server(folder, log)
        peak = 0
        try:
            browser = Browser(port)
            rosters: dict[str, str] = {}
            for system, factions in STARTS.items():
                page = browser.get(f"/new/{system}")[2]
                status, headers, _, _ = browser.post(f"/new/{system}", {
                    "csrf_token": csrf_of(page), "name": "Fuzz", "factions": factions})
                rosters[system] = headers.get("location", "").rsplit("/", 1)[-1]
            imported: list[str] = []
            packs: dict[str, str] = {}  # a pack of each system: its edit page
            for system in STARTS:
                page = browser.get("/studio")[2]
                _, headers, _, _ = browser.post("/studio/new", {
                    "csrf_token": csrf_of(page), "system": system, "name": f"Fuzz {system}"})
                packs[system] = headers.get("location", "")

            def check(answer: tuple[int, dict[str, str], str, float], what: str) -> None:
                status, _, body, took = answer
                found["inputs"] += 1
                found[f"{status // 100}xx"] += 1
                if status >= 500:
                    found["5xx answers"] += 1
                    print(f"{status} on {what}", file=sys.stderr)
                if "Traceback (most recent call last)" in body:
                    found["tracebacks in answers"] += 1
                if took > HANG:
                    found["hangs over 2 s"] += 1
                    print(f"{took:.1f} s on {what}", file=sys.stderr)

            for i in range(count):
                system = rng.choice(sorted(STARTS))
                token = rosters[system]
                kind = rng.random()
                if kind < 0.35:
                    page = browser.get("/")[2]
                    text = roster_text(rng, list(names.values())).encode("utf-8",
                                                                          "surrogatepass")
                    answer = browser.upload("/import", csrf_of(page), text)
                    check(answer, "an import")
                    if answer[0] == 302 and len(imported) < 300:
                        imported.append(answer[1]["location"].rsplit("/", 1)[-1])
                elif kind < 0.45:
                    check(fuzz_pack(browser, rng, system, packs[system], token), "a pack")
                elif kind < 0.8:
                    page = browser.get(f"/r/{token}")[2]
                    units = re.findall(r'name="unit" (?:type="hidden" )?value="([^"]+)"',
                                       page)[:40]
                    action, data = form_post(rng, names[system], units)
                    fields = {"csrf_token": csrf_of(page), "version": version_of(page), **data}
                    check(browser.post(f"/r/{token}/{action}", fields,
                                       htmx=rng.random() < 0.5), f"{action} {data}")
                else:
                    path, params = query(rng, names[system])
                    if path == "/print" and rng.random() < 0.8:
                        params["what"] = "sheet"
                    check(browser.get(f"/r/{token}{path}?{urlencode(params)}"),
                          f"GET {path} {params}")
                if i % 25 == 0:
                    rss = process_tree_rss(server.pid)
                    peak = max(peak, rss)
                    if rss > MEMORY:
                        found["over memory"] += 1
                if server.poll() is not None:
                    found["server crashes"] += 1
                    server, port = start_server(folder, log)
                    browser = Browser(port)
            # every stored roster exports to a file that imports back to the same bytes
            for token in [*rosters.values(), *imported]:
                status, _, text, _ = browser.get(f"/r/{token}/export.yaml")
                if status != 200:
                    found["round-trip failures"] += 1
                    continue
                page = browser.get("/")[2]
                again = browser.upload("/import", csrf_of(page), text.encode())
                back = browser.get(again[1].get("location", "/nowhere") + "/export.yaml")
                found["round trips"] += 1
                # an import takes a name of its own ("Fuzz (2)") when the name is taken
                if again[0] != 302 or _unnamed(back[2]) != _unnamed(text):
                    found["round-trip failures"] += 1
                    print(f"round trip failed for {token}: {again[0]}", file=sys.stderr)
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
            logged = log.read_text(errors="replace")
            found["tracebacks in the log"] = logged.count("Traceback (most recent call last)")
            if found["tracebacks in the log"]:
                print(logged[-4000:], file=sys.stderr)
        found["peak memory MB"] = peak // (1024 * 1024)
    return found


def fuzz_pack(browser: Browser, rng: random.Random, system: str, pack: str,
              roster: str) -> tuple[int, dict[str, str], str, float]:
    """A bent pack: checked as typed, saved, or (saved) added to the system's roster."""
    path = pack.split("://", 1)[-1].split("/", 1)[-1]
    page = browser.get("/" + path)[2]
    version = re.search(r'name="pack_version"[^>]*value="(\d+)"', page)
    fields = {"csrf_token": csrf_of(page), "name": f"Fuzz {system}",
              "text": pack_text(rng, system), "pack_version": version[1] if version else "1"}
    what = rng.random()
    if what < 0.5:
        return browser.post(f"/{path}/check", fields, htmx=True)
    answer = browser.post(f"/{path}", fields)
    if what < 0.8:
        return answer
    share = re.search(r'id="pack-share-link" class="link" readonly value="([^"]+)"',
                      browser.get("/" + path)[2])
    page = browser.get(f"/r/{roster}/packs")[2]
    return browser.post(f"/r/{roster}/packs/add", {
        "csrf_token": csrf_of(page), "version": version_of(page),
        "link": share[1] if share else ""})


def _unnamed(text: str) -> str:
    return re.sub(r"^name: .*$", "name:", text, count=1, flags=re.M)


def report(title: str, found: Counter[str], seconds: float) -> None:
    print(f"\n{title}: {found['inputs']} inputs in {seconds:.0f} s")
    for key in sorted(found):
        if key != "inputs":
            print(f"  {key}: {found[key]}")


@click.command(help=__doc__.split("\n\n")[0],
               context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--cli", "cli_inputs", type=int, default=5000, help="inputs for the command line")
@click.option("--server", "server_inputs", type=int, default=5000, help="inputs for the server")
@click.option("--seed", type=int, default=1)
@click.option("--attacks/--no-attacks", default=True,
              help="run the reported attacks once each (benchmarks/fuzz_attacks.py)")
def main(cli_inputs: int, server_inputs: int, seed: int, attacks: bool) -> None:
    library = Library(custom_dir=ROOT / "benchmarks" / "no-custom-data")
    for system in library.systems:
        library.catalog(system)
    bad = 0
    if cli_inputs:
        started = time.monotonic()
        found = fuzz_cli(cli_inputs, random.Random(seed), library)
        report("command line", found, time.monotonic() - started)
        bad += sum(found[k] for k in ("crashes", "hangs", "tracebacks", "over memory",
                                      "round-trip failures"))
    if server_inputs:
        started = time.monotonic()
        found = fuzz_server(server_inputs, random.Random(seed + 1), library)
        report("server", found, time.monotonic() - started)
        bad += sum(found[k] for k in ("5xx answers", "tracebacks in answers", "hangs over 2 s",
                                      "over memory", "server crashes", "round-trip failures",
                                      "tracebacks in the log"))
    if attacks:
        from fuzz_attacks import WORKED
        from fuzz_attacks import attacks as run_attacks

        started = time.monotonic()
        with tempfile.TemporaryDirectory() as tmp:
            found = run_attacks(Path(tmp))
        found["inputs"] = len(WORKED)
        report("attacks", found, time.monotonic() - started)
        bad += sum(found[k] for k in WORKED)
    print(f"\nproblems in all: {bad}")


if __name__ == "__main__":
    main()
