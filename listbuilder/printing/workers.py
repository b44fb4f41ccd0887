"""Other processes for laying out cards, when that is safe and worth it.

WeasyPrint lays out one card at a time on one core; a forked child takes half of the distinct
faces while this process does the other half. Forking is only done from a process with a
single thread (the command line, a print worker's process: listbuilder.jobs), because a fork
copies locks other threads may hold; from a process with threads, one process lays out all.
Set LISTBUILDER_PRINT_WORKERS=1 for never. Whatever goes wrong in a child, this process lays
the faces out itself. (Web servers lay out nothing: prints are queued for the workers.)
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pickle
import select
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

MIN_FACES = 6  # below this a fork costs more than it saves
PARENT_POLL = 0.5  # seconds between looks at the owner where there are no pidfds


def workers() -> int:
    configured = os.environ.get("LISTBUILDER_PRINT_WORKERS", "")
    if configured.isdigit() and int(configured) >= 1:
        return min(2, int(configured))
    return min(2, os.cpu_count() or 1)


def can_fork() -> bool:
    return (hasattr(os, "fork") and threading.active_count() == 1
            and threading.current_thread() is threading.main_thread())


# What this process must undo when it ends (the process that registered it, its cleanup).
_ENDINGS: list[tuple[int, Callable[[], None]]] = []


def on_exit(cleanup: Callable[[], None]) -> None:
    """Run `cleanup` when this process ends, in every way it ends short of SIGKILL: a normal
    exit, or a layout child whose owner is gone (`die_with`). Never in a forked child: what
    this process made is its own to remove. WeasyPrint's font folder (2 MB in /tmp) was left
    by every layout process: 433 of them after one run of the tests."""
    _ENDINGS.append((os.getpid(), cleanup))


def _run_endings() -> None:
    me = os.getpid()
    for pid, cleanup in _ENDINGS:
        if pid == me:
            with contextlib.suppress(Exception):
                cleanup()


atexit.register(_run_endings)


def die_with(owner: int) -> None:
    """End this process as soon as process `owner` (the server, or the command that forked
    it) ends, however it ends, SIGKILL and crashes included: layout processes never outlive
    the process that started them.

    A watcher thread waits on a pidfd of the owner, which the kernel marks readable when it
    exits; where there are no pidfds, it looks every PARENT_POLL seconds. Watching the parent
    would not do: a pool worker's parent is the fork server, which itself waits for its
    workers to end."""
    try:
        handle = os.pidfd_open(owner)
    except ProcessLookupError:
        os._exit(0)  # gone already
    except (AttributeError, OSError):
        handle = None

    def watch() -> None:
        if handle is not None:
            select.select([handle], [], [])
        else:
            while _running(owner):
                time.sleep(PARENT_POLL)
        _run_endings()
        os._exit(0)

    threading.Thread(target=watch, name="owner-watch", daemon=True).start()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def split_work(weights: Sequence[int]) -> list[list[int]]:
    """Face indices for each process: one share, or two of about equal weight (a long card
    costs more to lay out, and may need a second try)."""
    n = len(weights)
    if n < MIN_FACES or workers() < 2 or not can_fork():
        return [list(range(n))]
    shares: list[list[int]] = [[], []]
    loads = [0, 0]
    for i in sorted(range(n), key=lambda i: -weights[i]):
        lighter = loads.index(min(loads))
        shares[lighter].append(i)
        loads[lighter] += weights[i]
    return [sorted(share) for share in shares]


def in_child(work: Callable[[], Any]) -> Callable[[], Any | None]:
    """Start `work` in a forked child; the returned call waits for its result (None if the
    child failed, so the caller can do the work itself)."""
    read_end, write_end = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: do the work, send it back, leave without any cleanup
        os.close(read_end)
        die_with(parent)
        code = 0
        try:
            data = pickle.dumps(work())
        except BaseException:  # the parent redoes the work
            data, code = b"", 1
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(data)
        os._exit(code)
    os.close(write_end)

    def result() -> Any | None:
        with os.fdopen(read_end, "rb") as pipe:
            data = pipe.read()
        _, status = os.waitpid(pid, 0)
        if status != 0 or not data:
            return None
        return pickle.loads(data)

    return result
