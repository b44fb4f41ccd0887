"""Layout processes never outlive the process that started them, even when it is killed with
SIGKILL and gets no chance to stop them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.print

FORK_CHILD_AND_WAIT = """
import os, sys, time
from listbuilder.printing import workers

wait = workers.in_child(lambda: time.sleep(600))
print("ready", flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"  # a zombie has ended; only its exit status is left to collect


def _descendants(pid: int) -> set[int]:
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (FileNotFoundError, ProcessLookupError):
                continue
            child = int(stat.parent.name)
            if int(fields[1]) == parent and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _kill_and_watch(script: str, tmp_path: Path) -> tuple[set[int], set[int]]:
    (tmp_path / "main.py").write_text(script)
    proc = subprocess.Popen([sys.executable, str(tmp_path / "main.py")], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "LISTBUILDER_PRINT_WORKERS": "2",
                                 "TMPDIR": str(tmp_path)})
    try:
        assert proc.stdout is not None
        proc.stdout.readline()
        helpers = _descendants(proc.pid)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(_alive(p) for p in helpers):
            time.sleep(0.1)
        return helpers, {p for p in helpers if _alive(p)}
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_forked_layout_child_dies_with_a_killed_command(tmp_path: Path) -> None:
    helpers, left = _kill_and_watch(FORK_CHILD_AND_WAIT, tmp_path)
    assert len(helpers) == 1
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == set()
