"""A server killed outright, started again at once: how long until it answers.

Starts `listbuilder serve` (with `--front`, as `make run` does, and without), waits until it
answers, kills gunicorn's master with SIGKILL, starts the same command again at once and
prints the seconds from the kill until the home page answers 200 again, and how many of the
requests tried meanwhile failed. Before the workers died with their master, the second start
was refused ("Port in use") for 20-27 s.

    .venv/bin/python benchmarks/restart.py [--runs 3]
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

import click

CLI = [sys.executable, "-c", "from listbuilder.commands.cli import main; main()"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def status(port: int) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", "/")
        response = connection.getresponse()
        response.read()
        return response.status
    except OSError:
        return 0
    finally:
        connection.close()


def until_answering(port: int, limit: float = 60) -> tuple[float, int]:
    """Seconds until the home page answers 200, and the tries that failed meanwhile."""
    began, failed = time.monotonic(), 0
    while time.monotonic() - began < limit:
        if status(port) == 200:
            return time.monotonic() - began, failed
        failed += 1
        time.sleep(0.05)
    raise SystemExit(f"no answer on port {port} after {limit:.0f} s")


def serve(env: dict[str, str], port: int, front: bool) -> subprocess.Popen[bytes]:
    flags = ["--front"] if front else []
    return subprocess.Popen([*CLI, "serve", "--port", str(port), *flags], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@click.command(help=__doc__.split("\n\n")[0],
               context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--runs", type=int, default=3)
def main(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "LISTBUILDER_INSTANCE": tmp}
        env.pop("DATABASE_URL", None)
        subprocess.run([*CLI, "db", "upgrade"], env=env, check=True, capture_output=True)
        for front in (True, False):
            label = "serve --front" if front else "serve"
            for run in range(1, runs + 1):
                port = free_port()
                first = serve(env, port, front)
                until_answering(port)
                first.send_signal(signal.SIGKILL)
                first.wait()
                killed = time.monotonic()
                again = serve(env, port, front)
                seconds, failed = until_answering(port)
                since_kill = time.monotonic() - killed
                print(f"{label:14} run {run}: answering {since_kill:.2f} s after the kill "
                      f"(start to first answer {seconds:.2f} s, {failed} tries failed "
                      f"meanwhile); exit of the second start: "
                      f"{'running' if again.poll() is None else again.returncode}")
                again.send_signal(signal.SIGTERM)
                again.wait(timeout=60)


if __name__ == "__main__":
    main()
