"""Cross-checks of exact results against seeded Monte Carlo runs of the same rules.

Each system's test module simulates its rules from the rule text, independently of the
resolver, then compares. The tolerance follows from the sample size: an estimated chance p
from n trials has standard error sqrt(p (1 - p) / n), so each value must fall within Z of those
(plus 1/n for the rounding of counts); a mean within Z standard errors sqrt(var / n). With
Z = 5 a correct resolver fails about once in 1.7 million comparisons; the seeds are fixed, so
the runs repeat exactly.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from typing import TypeVar

from listbuilder.engine.dice import Dist, Prob, Roller

Z = 5.0
TRIALS = 20_000
K = TypeVar("K", bound=Hashable)


def tolerance(p: float, n: int) -> float:
    return Z * math.sqrt(p * (1 - p) / n) + 1 / n


def simulate(trial: Callable[[Roller], K], seed: int, n: int = TRIALS) -> Counter[K]:
    roller = Roller(seed)
    return Counter(trial(roller) for _ in range(n))


def assert_chance(p: Prob, hits: int, n: int, what: str = "") -> None:
    estimate = hits / n
    assert abs(estimate - float(p)) <= tolerance(float(p), n), (
        f"{what}: exact {float(p):.5f}, simulated {estimate:.5f} over {n}")


def assert_matches(exact: Dist, counts: Counter[int], what: str = "") -> None:
    """Every value's chance, and the mean, agree within the sample's tolerance; a value the
    exact result calls impossible never turned up."""
    n = sum(counts.values())
    for value in set(exact.values()) | set(counts):
        p = float(exact.prob(value))
        if p == 0:
            assert counts[value] == 0, f"{what}: {value} is impossible but came up"
            continue
        assert_chance(p, counts[value], n, f"{what} value {value}")
    mean = sum(v * c for v, c in counts.items()) / n
    sd = math.sqrt(float(exact.variance()) / n)
    assert abs(mean - float(exact.mean())) <= Z * sd + 1e-12, (
        f"{what}: mean {float(exact.mean()):.4f}, simulated {mean:.4f}")


def assert_chances(exact: Mapping[K, Prob], counts: Counter[K], what: str = "") -> None:
    n = sum(counts.values())
    for key in set(exact) | set(counts):
        assert_chance(exact.get(key, 0), counts[key], n, f"{what} {key!r}")
