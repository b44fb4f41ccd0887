"""Run a piece of work in many threads released together, as many players or servers would."""

from __future__ import annotations

import threading
from collections.abc import Callable


def at_once(work: Callable[[int], object], count: int) -> list[BaseException]:
    """Call work(0) .. work(count - 1), each in its own thread, all released at the same moment;
    the exceptions they raised (a thread's exception is otherwise lost)."""
    barrier = threading.Barrier(count)
    errors: list[BaseException] = []

    def run(n: int) -> None:
        try:
            barrier.wait()
            work(n)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors
