"""`listbuilder serve` (what `make run` calls, after `listbuilder db upgrade`): gunicorn with
several worker processes on the built-in data. A player's session, CSRF tokens and rosters work
whichever worker answers; SIGTERM stops the server, its workers and their layout processes; a
database behind the code is refused before anything listens."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from at_once import at_once
from servetools import (
    CLI,
    Browser,
    alive,
    descendants,
    environment,
    free_port,
    listening,
    serve,
    wait_until_listening,
)

from listbuilder.commands.server import free_lanes
from listbuilder.commands.worker import SERVE_NICENESS
from listbuilder.web import _instance_secret

pytestmark = pytest.mark.slow

















@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """`make run` in small: the upgrade, then gunicorn with two workers on a free port."""
    env = environment(tmp_path)
    upgrade = subprocess.run([*CLI, "db", "upgrade"], env=env, capture_output=True, text=True)
    assert upgrade.returncode == 0, upgrade.stderr
    port = free_port()
    proc = serve(env, port)
    try:
        wait_until_listening(proc, port)
        yield proc, port
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=30)


def test_gunicorn_serves_edits_from_any_worker_and_sigterm_stops_everything(
        server: tuple[subprocess.Popen[bytes], int], tmp_path: Path) -> None:
    proc, port = server
    browser = Browser(port)
    assert browser.request("GET", "/") == 200
    assert "Hammer Wars" in browser.html and "WarStuff" in browser.html
    assert browser.headers["server"].startswith("gunicorn")
    assert (tmp_path / "instance" / "listbuilder.sqlite3").exists()
    assert (tmp_path / "instance" / "secret_key").exists()

    assert browser.request("GET", "/new/op40k") == 200
    assert browser.request("POST", "/new/op40k", {
        "csrf_token": browser.field("csrf_token"), "name": "Waaagh", "factions": ["Orks"],
        "points_limit": 500}) == 200
    edit = browser.path
    assert edit.startswith("/r/")  # the new roster's edit page
    for unit in ["Ork Boyz", "Nobz", "Ork Boyz", "Nobz"]:  # each on a fresh connection
        assert browser.request("POST", f"{edit}/add", {
            "csrf_token": browser.field("csrf_token"), "version": browser.field("version"),
            "unit": unit}) == 200
    assert browser.request("GET", f"{edit}/export.yaml") == 200
    assert browser.html.count("unit: Ork Boyz") == 2 and browser.html.count("unit: Nobz") == 2
    assert browser.request("GET", "/") == 200 and "Waaagh" in browser.html  # "my rosters"

    # each worker listens on a socket of its own, which the kernel deals connections to
    listeners = listening(port)
    assert len(listeners) == 2 and len(set(listeners.values())) == 2, listeners
    assert set(listeners.values()) <= descendants(proc.pid)

    started = descendants(proc.pid)
    assert len(started) >= 2  # the two workers, and their layout processes
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=40) == 0
    deadline = time.monotonic() + 20
    while any(alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in started if alive(pid)] == []


def niceness(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_serve_starts_a_print_worker_below_the_web_workers_which_lay_out_nothing(
        server: tuple[subprocess.Popen[bytes], int], tmp_path: Path) -> None:
    """`make run` in small starts `listbuilder worker` beside gunicorn, at nice 19 while the
    web workers run at the server's own priority, and the print is laid out in that worker's
    processes, never in a web worker."""
    proc, port = server
    web = set(listening(port).values())
    printers: set[int] = set()
    deadline = time.monotonic() + 60
    while not printers and time.monotonic() < deadline:  # Huey forks its worker process
        printers = {pid for pid in descendants(proc.pid) - web if alive(pid)
                    and b"\0worker\0" in Path(f"/proc/{pid}/cmdline").read_bytes()}
        time.sleep(0.2)
    assert printers, "serve started no print worker"
    assert {niceness(pid) for pid in printers} == {max(SERVE_NICENESS, niceness(proc.pid))}
    assert {niceness(pid) for pid in web} == {niceness(proc.pid)}

    cookies: dict[str, str] = {}

    def rules() -> http.client.HTTPResponse:
        # asked again as a browser does, with its session cookie: a print it was told is in
        # line is not counted again by the limits (cookie-less polls met 429 under load)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} \
            if cookies else {}
        connection.request("GET", "/systems/warstuff/print/rules", headers=headers)
        response = connection.getresponse()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            cookies[name.strip()] = rest.split(";", 1)[0]
        response.read()
        connection.close()
        return response

    deadline = time.monotonic() + 180
    while (answer := rules()).status == 202:
        assert time.monotonic() < deadline, "the print was not made"
        time.sleep(0.5)
    assert (answer.status, answer.getheader("Content-Type")) == (200, "application/pdf")
    family = printers.union(*(descendants(pid) for pid in printers))  # Huey's own processes
    with sqlite3.connect(tmp_path / "instance" / "listbuilder.sqlite3") as db:
        (worker,), = db.execute("SELECT worker FROM print_jobs WHERE status = 'done'")
    # the worker column is let go when a print is done: who laid it out is in its log instead
    assert worker is None
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 0
    log = proc.communicate(timeout=30)[0].decode()
    made = re.findall(r" (\d+) INFO huey: \S*listbuilder\.print: [^\n]* executed in", log)
    assert made and {int(pid) for pid in made} <= family and not {int(p) for p in made} & web


def test_each_worker_has_a_lane_of_its_own_and_a_restarted_worker_takes_it_back(
        tmp_path: Path) -> None:
    """`serve --lanes L`: worker i also listens on L+i, alone, for nginx to balance by
    requests under way (`proxy-config --lanes`); a worker killed is replaced on its lane."""
    env = environment(tmp_path)
    assert subprocess.run([*CLI, "db", "upgrade"], env=env, capture_output=True).returncode == 0
    port = free_port()
    lanes = free_lanes(2, besides=port)
    proc = subprocess.Popen([*CLI, "serve", "--port", str(port), "--workers", "2",
                             "--threads", "2", "--lanes", str(lanes)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        wait_until_listening(proc, port)
        for lane in (lanes, lanes + 1):
            wait_until_listening(proc, lane)
        owners = [set(listening(lane).values()) for lane in (lanes, lanes + 1)]
        assert [len(o) for o in owners] == [1, 1], owners  # one worker a lane
        first, second = owners[0].pop(), owners[1].pop()
        assert first != second and {first, second} <= descendants(proc.pid)
        assert [Browser(p).request("GET", "/") for p in (lanes, lanes + 1, port)] == [200] * 3

        os.kill(first, signal.SIGKILL)  # a worker dies outright; gunicorn starts another
        deadline = time.monotonic() + 60
        while set(listening(lanes).values()) in (set(), {first}):
            assert time.monotonic() < deadline, "no worker took the lane again"
            time.sleep(0.1)
        replaced = set(listening(lanes).values())
        assert len(replaced) == 1 and first not in replaced and second not in replaced
        assert set(listening(lanes + 1).values()) == {second}  # the other kept its own
        assert Browser(lanes).request("GET", "/") == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        output = proc.communicate(timeout=60)[0].decode()
    assert "Traceback" not in output and "cannot listen" not in output, output
    assert f"also listens at 127.0.0.1:{lanes} (its lane)" in output  # the first, and again
    assert output.count(f"also listens at 127.0.0.1:{lanes} (its lane)") == 2


def test_lanes_in_use_or_on_the_port_are_refused_in_words(tmp_path: Path) -> None:
    env = environment(tmp_path)
    assert subprocess.run([*CLI, "db", "upgrade"], env=env, capture_output=True).returncode == 0
    port = free_port()
    clash = subprocess.run([*CLI, "serve", "--port", str(port), "--workers", "2", "--lanes",
                            str(port - 1)], env=env, capture_output=True, text=True, timeout=120)
    assert clash.returncode == 2
    assert f"must be ports apart from --port {port}" in clash.stderr
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        taken = other.getsockname()[1]
        # the lanes start at the port in use: they are checked in order, so the refusal
        # names it whatever else the machine has open (the port before it once was: CI)
        done = subprocess.run([*CLI, "serve", "--port", str(port), "--workers", "2",
                               "--lanes", str(taken)], env=env,
                              capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert f"Port {taken} on 127.0.0.1, a worker's lane ({taken}-{taken + 1}), is in use" \
        in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_serve_refuses_a_database_behind_its_code(tmp_path: Path) -> None:
    port = free_port()
    done = subprocess.run([*CLI, "serve", "--port", str(port)], env=environment(tmp_path),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "has no Listbuilder tables yet. Run `listbuilder db upgrade`" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        pass  # nothing listens


def test_a_port_in_use_is_refused_in_words(tmp_path: Path) -> None:
    """Workers listen with SO_REUSEPORT, which would let a second server share a port with
    the first unnoticed; serve refuses instead."""
    env = environment(tmp_path)
    upgrade = subprocess.run([*CLI, "db", "upgrade"], env=env, capture_output=True, text=True)
    assert upgrade.returncode == 0, upgrade.stderr
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        done = subprocess.run([*CLI, "serve", "--port", str(port)], env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 1
        assert f"Port {port} on 127.0.0.1 is in use" in done.stderr
        assert "Traceback" not in done.stderr + done.stdout
        assert list(listening(port).values()) == [os.getpid()]




def test_bad_worker_settings_are_refused_in_words(tmp_path: Path) -> None:
    env = {**environment(tmp_path), "LISTBUILDER_WORKERS": "many"}
    upgrade = subprocess.run([*CLI, "db", "upgrade"], env=env, capture_output=True, text=True)
    assert upgrade.returncode == 0, upgrade.stderr
    done = subprocess.run([*CLI, "serve", "--port", str(free_port())], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "LISTBUILDER_WORKERS must be a whole number of at least 1, not 'many'" in done.stderr


def test_workers_starting_at_once_share_one_secret_key(tmp_path: Path) -> None:
    """Without LISTBUILDER_SECRET_KEY, the first start makes the instance's key; processes
    starting together all read the same whole key, so any of them can read the others'
    cookies and CSRF tokens."""
    keys: list[str] = []
    assert at_once(lambda _: keys.append(_instance_secret(tmp_path)), 16) == []
    assert len(set(keys)) == 1 and len(keys[0]) == 64
    assert (tmp_path / "secret_key").stat().st_mode & 0o777 == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]  # no drafts left behind


def test_the_access_log_leaves_out_edit_and_share_tokens(tmp_path: Path) -> None:
    env = environment(tmp_path)
    assert subprocess.run([*CLI, "db", "upgrade"], env=env, capture_output=True).returncode == 0
    port = free_port()
    proc = subprocess.Popen([*CLI, "serve", "--port", str(port), "--workers", "1",
                             "--threads", "1", "--access-log"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        wait_until_listening(proc, port)
        browser = Browser(port)
        assert browser.request("GET", "/new/warstuff") == 200
        assert browser.request("POST", "/new/warstuff", {
            "csrf_token": browser.field("csrf_token"), "name": "Logged",
            "factions": ["Fantasy"], "points_limit": 300}) == 200
        edit = browser.path
        share = re.search(r'href="(/s/[^"/]+)"', browser.html)
        assert share is not None, "no share link on the edit page"
        assert browser.request("GET", share[1]) == 200
        assert browser.request("GET", f"{edit}/export.yaml") == 200
        # the same roster by an encoded slash, as the app reads it
        assert browser.request("GET", edit.replace("/r/", "/r%2F") + "/export.yaml") == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        log = proc.communicate(timeout=40)[0].decode()
    edit_token, share_token = edit.split("/")[2], share[1].split("/")[2]
    assert '"GET /r/.../export.yaml HTTP/1.1" 200' in log
    assert log.count('"GET /r/.../export.yaml HTTP/1.1" 200') == 2
    assert f"Listening at: 127.0.0.1:{port} (" in log  # it said "Listening at:  (pid)"
    assert '"GET /s/... HTTP/1.1" 200' in log
    assert edit_token not in log and share_token not in log


def test_each_worker_starts_with_what_the_master_built_out_of_the_collectors_reach(
        tmp_path: Path) -> None:
    """gunicorn's pre_fork hook freezes the master's objects (the app, catalogs, templates):
    a worker's full collections then skip them, and their pages stay shared with the master."""
    import gc

    from listbuilder.commands.server import Server
    from listbuilder.web import create_app

    app = create_app({"UPGRADE_DATABASE": True, "DATABASE_URL": None},
                     instance_path=tmp_path / "instance")
    server = Server(app, f"127.0.0.1:{free_port()}", workers=2, threads=2)
    gc.unfreeze()
    try:
        server.cfg.pre_fork(SimpleNamespace(app=server, WORKERS={}), SimpleNamespace())
        assert gc.get_freeze_count() > 10_000, "the app and its catalogs are frozen"
        assert not any(type(o) is Server for o in gc.get_objects()), \
            "frozen objects are out of the collector's generations"
    finally:
        gc.unfreeze()
        app.extensions["listbuilder.store"].close()


def test_prints_waiting_when_the_server_stops_stay_in_line_for_the_next(tmp_path: Path) -> None:
    """SIGTERM with prints in line: each worker stopped its layout processes while its print
    runner still claimed jobs, so every job it took then failed with a traceback ("cannot
    schedule new futures after shutdown", 12 in one run of benchmarks/fuzz.py). A job not
    laid out must stay in line for the next server."""
    env = {**environment(tmp_path), "LISTBUILDER_PRINT_QUEUE_PER_CLIENT": "0",
           "LISTBUILDER_PRINT_QUEUE": "40"}
    assert subprocess.run([*CLI, "db", "upgrade"], env=env, capture_output=True).returncode == 0
    port = free_port()
    proc = serve(env, port)
    try:
        wait_until_listening(proc, port)
        browser = Browser(port)
        browser.request("GET", "/new/warstuff")
        assert browser.request("POST", "/new/warstuff", {
            "csrf_token": browser.field("csrf_token"), "name": "Line", "factions": ["Fantasy"],
            "points_limit": 150}) == 200
        edit = browser.path
        options = [f"paper={paper}&card={card}&cut_marks={marks}&ink_saver={ink}"
                   for paper in ("a4", "letter") for card in ("poker", "mini", "tarot")
                   for marks in ("yes", "no") for ink in ("yes", "no")]
        for query in options:  # each a print of its own: none is a cache hit
            assert browser.request("GET", f"{edit}/print?what=sheet&{query}") in (200, 202)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        output = proc.communicate(timeout=30)[0].decode()
    assert "Traceback" not in output, output[-3000:]
    with sqlite3.connect(tmp_path / "instance" / "listbuilder.sqlite3") as db:
        statuses = [row[0] for row in db.execute("SELECT status FROM print_jobs")]
    assert statuses and "failed" not in statuses, statuses
