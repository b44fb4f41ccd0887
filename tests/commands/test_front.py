"""`listbuilder serve --front` (what `make run` serves): nginx in front of gunicorn reads each
request whole before the app sees it, so clients that trickle their headers or bodies never
hold up other players; and a server killed outright (SIGKILL of gunicorn's master) leaves
nothing behind that keeps its port, so it starts again at once.

Real processes on loopback: the CLI, gunicorn, Debian's nginx."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from servetools import (
    Browser,
    alive,
    descendants,
    free_port,
    get,
    listening,
    start,
)

pytestmark = pytest.mark.slow

SLOW = 50  # the count of trickling connections
TRICKLE = 1.0  # seconds between a slow client's bytes


















class Trickle:
    """Connections that send a request a byte at a time, each byte TRICKLE s after the last:
    headers that never end, or a POST body that never arrives in full."""

    def __init__(self, port: int, count: int, kind: str) -> None:
        self.stop = threading.Event()
        self.sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
        start = (b"GET / HTTP/1.1\r\nHost: x\r\n" if kind == "headers" else
                 b"POST /new/warstuff HTTP/1.1\r\nHost: x\r\nContent-Type: "
                 b"application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n")
        for sock in self.sockets:
            sock.sendall(start)
        self.thread = threading.Thread(target=self.run, args=(kind,), daemon=True)
        self.thread.start()

    def run(self, kind: str) -> None:
        byte = b"X-Slow: y\r\n" if kind == "headers" else b"a"
        while not self.stop.wait(TRICKLE):
            for sock in self.sockets:
                # an OSError: nginx gave up on it (its timeouts), as it should
                with contextlib.suppress(OSError):
                    sock.sendall(byte[:1] if kind == "body" else byte)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for sock in self.sockets:
            sock.close()


@pytest.mark.parametrize("kind", ["headers", "body"])
def test_trickling_clients_leave_everyone_else_answered(front: int, kind: str) -> None:
    slow = Trickle(front, SLOW, kind)
    try:
        time.sleep(3 * TRICKLE)  # every slow connection is well under way
        answers = [get(front, "/", timeout=5) for _ in range(20)]
        answers += [get(front, "/new/op40k", timeout=5) for _ in range(5)]
    finally:
        slow.close()
    # without the front, four such connections left the home page unanswered for as long as
    # they stayed open (every gunicorn thread reading one of them)
    assert [status for status, _ in answers] == [200] * 25, answers
    print(f"{kind}: slowest of 25 answers {max(t for _, t in answers) * 1000:.0f} ms "
          f"beside {SLOW} trickling connections")


def lane_ports(site: str) -> list[int]:
    return [int(m) for m in re.findall(r"server 127\.0\.0\.1:(\d+) max_fails", site)]


def connections_to(port: int) -> int:
    """Established loopback connections whose server end is `port` (IPv4)."""
    return sum(1 for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
               if int(line.split()[1].split(":")[1], 16) == port and line.split()[3] == "01")


def test_the_front_balances_the_workers_lanes_and_steps_around_a_dead_one(
        upgraded: Path) -> None:
    """With the front, nginx sends each request to the worker with the fewest under way
    (least_conn over each worker's own port), not to the shared port where the kernel deals
    connections at random and they stay where they fell. A worker killed outright (out of
    memory, say) leaves its lane refusing until gunicorn's replacement listens there;
    meanwhile nginx sends everything to the other lane, forms included."""
    port = free_port()
    proc = start(upgraded, port, "--front")
    try:
        site = (upgraded / "instance" / "front" / "site.conf").read_text(encoding="utf-8")
        lanes = lane_ports(site)
        assert len(lanes) == 2 and "least_conn;" in site, site
        owners = [set(listening(lane).values()) for lane in lanes]
        assert [len(o) for o in owners] == [1, 1] and owners[0] != owners[1], owners
        assert owners[0] | owners[1] <= descendants(proc.pid)
        # 24 requests at once: nginx opens a connection for each to the lane with fewer
        # under way, and keeps them open (keepalive) after
        statuses: list[int] = []
        threads = [threading.Thread(target=lambda: statuses.append(
            get(port, "/new/op40k", timeout=30)[0])) for _ in range(24)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert statuses == [200] * 24
        counts = [connections_to(lane) for lane in lanes]
        print(f"connections to each lane: {counts}")
        assert min(counts) >= 4, counts  # both workers took a share, not one all of them

        player = Browser(port)
        assert player.request("GET", "/new/warstuff") == 200
        os.kill(owners[0].pop(), signal.SIGKILL)
        # what was under way in that worker is lost with it (the page's script sends a
        # change again, static/js/edits.js); this is about everything asked after
        time.sleep(0.2)
        statuses = [player.request("POST", "/new/warstuff", {
            "csrf_token": player.field("csrf_token"), "name": f"After the crash {n}",
            "factions": ["Fantasy"], "points_limit": 300}) for n in range(6)]
        statuses += [get(port, "/", timeout=30)[0] for _ in range(20)]
        assert statuses == [200] * 26, statuses
        assert player.request("GET", "/") == 200
        assert all(f"After the crash {n}" in player.html for n in range(6))
    finally:
        proc.send_signal(signal.SIGTERM)
        output = proc.communicate(timeout=60)[0].decode()
    assert "Traceback" not in output, output


@pytest.mark.parametrize("front_flag", [(), ("--front",)], ids=["gunicorn", "front"])
def test_a_server_killed_outright_starts_again_at_once(upgraded: Path,
                                                       front_flag: tuple[str, ...]) -> None:
    port = free_port()
    first = start(upgraded, port, *front_flag)
    started = descendants(first.pid)
    assert len(started) >= 2  # its workers (and nginx, with the front)
    first.kill()  # SIGKILL of the master: no hook of ours runs
    first.communicate(timeout=30)
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    # workers used to live on, each holding its own socket on the port, for 20-27 s
    assert [pid for pid in started if alive(pid)] == []
    again = start(upgraded, port, *front_flag)
    try:
        assert get(port, "/", timeout=5)[0] == 200
    finally:
        again.send_signal(signal.SIGTERM)
        output = again.communicate(timeout=60)[0].decode()
    assert "in use" not in output and "Traceback" not in output, output


def test_the_master_imports_the_idna_codec_before_its_front_thread_connects() -> None:
    """A worker forked while the master's front thread was importing the codec (its first
    connect) inherited the import's lock, held for ever: every request of that worker hung
    in werkzeug's `encode("idna")` (CI, once). Importing the front module imports it."""
    code = ("import sys; before = 'encodings.idna' in sys.modules; "
            "import listbuilder.commands.front; "
            "print(before, 'encodings.idna' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["False", "True"]
