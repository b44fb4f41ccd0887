"""What every process Listbuilder starts shares, whoever starts it (`serve`'s nginx and print
worker, a print worker's layout children): it ends with the process that started it."""

from __future__ import annotations

import ctypes

_PR_SET_PDEATHSIG = 1


def die_with_parent(signum: int) -> None:
    """Ask the kernel to send this process `signum` when its parent ends, however it ends
    (SIGKILL included): what a server starts must not outlive it and hold its port. Linux only;
    elsewhere nothing happens."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0)
    except (OSError, AttributeError):
        pass
