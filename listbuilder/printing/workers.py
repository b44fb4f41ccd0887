"""Other processes for laying out cards, when that is safe and worth it.

WeasyPrint lays out one card at a time on one core; a forked child takes half of the distinct
faces while this process does the other half. Forking is only done from a process with a
single thread (the command line, the benchmark), because a fork copies locks other threads may
hold. A threaded web server instead starts a pool of two warm layout processes at start
(`start_pool`, forked from a clean fork server, each warmed up by the renderer's `warm_up` it
is handed) and hands both halves to it. Set LISTBUILDER_PRINT_WORKERS=1 for neither. Whatever
goes wrong in a child or the pool, this process lays the faces out itself.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import multiprocessing
import multiprocessing.util
import os
import pickle
import select
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

MIN_FACES = 6  # below this a fork costs more than it saves
# A server's layout processes run at a lower CPU priority (nice) than its workers: on a
# machine whose cores are all busy, a player's edit is served first and prints take what is
# left. Eight players printing 100-card rosters on two cores made another player's edits wait
# 8.5 s (p95); prints are a batch job that can wait a second more.
LAYOUT_NICENESS = 10
PARENT_POLL = 0.5  # seconds between looks at the owner where there are no pidfds


def workers() -> int:
    configured = os.environ.get("LISTBUILDER_PRINT_WORKERS", "")
    if configured.isdigit() and int(configured) >= 1:
        return min(2, int(configured))
    return min(2, os.cpu_count() or 1)


def can_fork() -> bool:
    return (hasattr(os, "fork") and threading.active_count() == 1
            and threading.current_thread() is threading.main_thread())


_POOL: ProcessPoolExecutor | None = None
# What this process must undo when it ends (the process that registered it, its cleanup).
_ENDINGS: list[tuple[int, Callable[[], None]]] = []


def on_exit(cleanup: Callable[[], None]) -> None:
    """Run `cleanup` when this process ends, in every way it ends short of SIGKILL: a normal
    exit, a layout process whose pool is shut down (multiprocessing skips atexit there), or
    one whose owner is gone (`die_with`). Never in a forked child: what this process made is
    its own to remove. WeasyPrint's font folder (2 MB in /tmp) was left by every layout
    process: 433 of them after one run of the tests."""
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


def _warm_worker(owner: int, warm_up: Callable[[], object]) -> None:
    die_with(owner)
    # a pool's process ends through multiprocessing's own exit, which runs its finalizers only
    multiprocessing.util.Finalize(None, _run_endings, exitpriority=0)
    os.nice(LAYOUT_NICENESS)  # children forked for a print's second half inherit it
    warm_up()
    # the renderer's set-up lasts the process: its full collections skip it (the sample
    # card's boxes, garbage now, are collected first rather than kept for ever)
    gc.collect()
    gc.freeze()


def _ready() -> int:
    return os.getpid()


def start_pool(warm_up: Callable[[], object]) -> bool:
    """Start two warm layout processes for a threaded server; True if they run. They are
    forked from a fork server that has imported the renderer (the module of `warm_up`, a
    function of its own: `render.warm_up`) and nothing else, so no thread's lock comes along,
    and each calls `warm_up` before its first card."""
    global _POOL
    if _POOL is None and workers() >= 2:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([warm_up.__module__])
        _POOL = ProcessPoolExecutor(max_workers=2, mp_context=context,
                                    initializer=_warm_worker, initargs=(os.getpid(), warm_up))
        try:
            for started in [_POOL.submit(_ready) for _ in range(2)]:
                started.result()
        except Exception:  # no pool (say, a main module without a __main__ guard): one process
            stop_pool()
    return _POOL is not None


def stop_pool() -> None:
    global _POOL
    if _POOL is not None:
        _POOL.shutdown()
        _POOL = None


def run_in_pool(function: Callable[..., Any], *args: Any) -> Any:
    """`function(*args)` in one of the server's layout processes (a lower priority, no share
    of this process's interpreter lock); here if there is no pool or it fails."""
    server = pool()
    if server is not None:
        try:
            return server.submit(function, *args).result()
        except (BrokenProcessPool, pickle.PicklingError, EOFError):
            pass  # a layout process killed (out of memory, say): this print is made here
    return function(*args)


def pool() -> ProcessPoolExecutor | None:
    """The server's layout processes, or None where prints fork or stay in one process."""
    return None if can_fork() else _POOL


def split_work(weights: Sequence[int]) -> list[list[int]]:
    """Face indices for each process: one share, or two of about equal weight (a long card
    costs more to lay out, and may need a second try)."""
    n = len(weights)
    if n < MIN_FACES or workers() < 2 or not (can_fork() or pool()):
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
