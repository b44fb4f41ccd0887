"""A per-process store of what was used last, shared by a worker's threads: the least recently
used goes first once the weights of what is kept pass a bound."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """Up to `bound` of weight (by default one a value), the latest used kept."""

    def __init__(self, bound: int, weigh: Callable[[K], int] = lambda _: 1) -> None:
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self._bound = bound
        self._weigh = weigh
        self._held = 0

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._kept.get(key)
            if value is not None:
                self._kept.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            if key not in self._kept:
                self._held += self._weigh(key)
            self._kept[key] = value
            self._kept.move_to_end(key)
            while self._held > self._bound:
                self._held -= self._weigh(self._kept.popitem(last=False)[0])
