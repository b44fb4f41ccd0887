"""A second process for laying out cards, when that is safe and worth it.

WeasyPrint lays out one card at a time on one core; a forked child takes half of the distinct
faces while this process does the other half. Forking is only done from a process with a
single thread (the command line, the benchmark): a threaded web server keeps to one process,
because a fork copies locks other threads may hold. Set LISTBUILDER_PRINT_WORKERS=1 to never
fork. Whatever goes wrong in the child, the parent lays the faces out itself.
"""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Callable, Sequence
from typing import Any

MIN_FACES = 6  # below this a fork costs more than it saves


def workers() -> int:
    configured = os.environ.get("LISTBUILDER_PRINT_WORKERS", "")
    if configured.isdigit() and int(configured) >= 1:
        return min(2, int(configured))
    return min(2, os.cpu_count() or 1)


def can_fork() -> bool:
    return (hasattr(os, "fork") and threading.active_count() == 1
            and threading.current_thread() is threading.main_thread())


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
    pid = os.fork()
    if pid == 0:  # the child: do the work, send it back, leave without any cleanup
        os.close(read_end)
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
