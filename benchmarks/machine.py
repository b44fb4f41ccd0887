"""How fast this machine is right now, for benchmarks to print beside their figures: this
virtual machine's speed moves by two or three times between spells."""

from __future__ import annotations

import time


def machine_speed() -> float:
    """Milliseconds a fixed piece of pure Python takes here now (best of three): 37-41 ms in
    this machine's fast spells, two or three times that in slow ones."""
    best = float("inf")
    for _ in range(3):
        began = time.process_time()
        total = 0
        for i in range(2_000_000):
            total += i
        best = min(best, time.process_time() - began)
    return best * 1000
