"""Quick-resolve speed: a typical query per system, 20/60/200 attacks on multi-wound targets,
and the 20-attack case against a 1,000,000-trial numpy Monte Carlo of the same rules.

Run: .venv/bin/python benchmarks/resolve.py [--trials N]
Goals: 1 ms or less a typical query, 5 ms or less at 200 attacks, and at least 500x faster
than the Monte Carlo, with the same answer (every value within 5 standard errors).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Mapping

import click
import numpy as np

from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.engine.resolve import Result, find_side, quick_resolve

TYPICAL: list[tuple[str, str, str, Mapping[str, object]]] = [
    ("hammerwars", "Ranged Heavy", "Assault Hero", {"cover": "yes"}),
    ("op40k", "Guardsmen", "Ork Boyz", {"cover": "yes"}),
    ("op40k", "Guardsmen", "Ork Boyz", {"attack": "assault"}),
    ("warstuff", "Loki", "Thor", {}),
    ("actionhammer", "10x Line Troopers", "3x Brute Crushers", {"half_range": "yes"}),
    ("spaceempires", "Warboss + 2x Goffs Ork Boyz + Ork Warship",
     "Tactical Marines + 2x Imperial Troops", {"battle": "ground", "cards": "random hands"}),
]
# ActionHammer: N Line Troopers (1 attack each, Skill 4+, AP 0) at multi-wound units
UNIFORM = "4x Brute Crushers"  # Save 4+, 3 Wounds each: one binomial per weapon
GUARDED = "3x Shock Squad + Field Commissar"  # 2 Wounds at 3+ each, then a 4-Wound Leader at 4+


def per_call(fn: Callable[[], object], budget: float = 0.4) -> tuple[float, float]:
    """Median and best seconds per call over batches filling about `budget` seconds (the
    best shows the cost on an idle machine; the median what a busy one gives)."""
    fn()
    start = time.perf_counter()
    fn()
    once = max(time.perf_counter() - start, 1e-6)
    batch = max(1, int(0.05 / once))
    samples = []
    deadline = time.perf_counter() + budget
    while time.perf_counter() < deadline or len(samples) < 5:
        t = time.perf_counter()
        for _ in range(batch):
            fn()
        samples.append((time.perf_counter() - t) / batch)
    return statistics.median(samples), min(samples)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.3f} ms"


def both(timing: tuple[float, float]) -> str:
    return f"{ms(timing[0])} (best {ms(timing[1])})"


def query(library: Library, system_id: str, attacker: str, defender: str,
          settings: Mapping[str, object]) -> Callable[[], Result]:
    system = get_system(system_id)
    catalog = library.catalog(system)
    a = find_side(system, catalog, attacker)
    d = find_side(system, catalog, defender)
    return lambda: quick_resolve(system, catalog, a, d, settings)


def monte_carlo_uniform(trials: int, attacks: int, seed: int) -> np.ndarray:
    """Models destroyed in 4 Brute Crushers (Save 4+, 3 W) by `attacks` 4+ AP 0 shots."""
    rng = np.random.default_rng(seed)
    hit = rng.integers(1, 7, size=(trials, attacks)) >= 4  # a 6 always hits; a 1 never
    saved = rng.integers(1, 7, size=(trials, attacks)) >= 4
    wounds = np.count_nonzero(hit & ~saved, axis=1)
    return np.minimum(wounds // 3, 4)


def monte_carlo_guarded(trials: int, attacks: int, seed: int) -> np.ndarray:
    """Models destroyed in 3 Shock Squad (3+, 2 W) guarding a Field Commissar (4+, 4 W):
    each attack is saved with the Save of the model it falls on."""
    rng = np.random.default_rng(seed)
    dealt = np.zeros(trials, dtype=np.int64)
    for _ in range(attacks):
        hit = rng.integers(1, 7, size=trials) >= 4
        saved = rng.integers(1, 7, size=trials) >= np.where(dealt < 6, 3, 4)
        dealt += hit & ~saved & (dealt < 10)
    return np.where(dealt >= 10, 4, np.minimum(dealt // 2, 3))


def compare(result: Result, samples: np.ndarray) -> tuple[float, float]:
    """Largest gap between exact and simulated chances, and that gap in standard errors."""
    n = len(samples)
    counts = np.bincount(samples, minlength=result.outcome.values().stop)
    worst_gap = worst_z = 0.0
    for value in result.outcome.values():
        p = float(result.outcome.dist.prob(value))
        estimate = counts[value] / n if value < len(counts) else 0.0
        gap = abs(estimate - p)
        se = math.sqrt(max(p * (1 - p), 1e-300) / n)
        worst_gap = max(worst_gap, gap)
        worst_z = max(worst_z, gap / se if p > 0 else (0.0 if gap == 0 else math.inf))
    return worst_gap, worst_z


@click.command(help=__doc__, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--trials", type=int, default=1_000_000)
def main(trials: int) -> None:
    library = Library()
    for system_id in {t[0] for t in TYPICAL}:
        library.catalog(system_id)

    print("typical query per system (options parsed, exact result built):")
    typical = []
    for system_id, attacker, defender, settings in TYPICAL:
        fn = query(library, system_id, attacker, defender, settings)
        timing = per_call(fn)
        typical.append(timing[0])
        print(f"  {system_id:<13} {attacker} -> {defender}: {both(timing)}  ({fn().summary})")
    print(f"  slowest typical (median): {ms(max(typical))} (goal <= 1 ms)")

    print("\nmany attacks at multi-wound targets (ActionHammer, Skill 4+ AP 0 shots):")
    timed: dict[tuple[str, int], tuple[float, Result]] = {}
    for target in (UNIFORM, GUARDED):
        for attacks in (20, 60, 200):
            fn = query(library, "actionhammer", f"{attacks}x Line Troopers", target, {})
            timing = per_call(fn)
            result = fn()
            timed[(target, attacks)] = (timing[0], result)
            exact = "exact" if result.outcome.dist.exact else "float"
            print(f"  {attacks:>3} attacks -> {target}: {both(timing)} ({exact}; "
                  f"{result.summary})")
    print(f"  slowest at 200 attacks (median): "
          f"{ms(max(timed[(t, 200)][0] for t in (UNIFORM, GUARDED)))} (goal <= 5 ms)")

    print(f"\nthe 20-attack cases by a {trials:,}-trial numpy Monte Carlo:")
    for target, sim in ((UNIFORM, monte_carlo_uniform), (GUARDED, monte_carlo_guarded)):
        start = time.perf_counter()
        samples = sim(trials, 20, seed=20)
        mc_seconds = time.perf_counter() - start
        exact_seconds, result = timed[(target, 20)]
        gap, z = compare(result, samples)
        print(f"  {target}: Monte Carlo {mc_seconds * 1000:.1f} ms, exact {ms(exact_seconds)} "
              f"(median): "
              f"{mc_seconds / exact_seconds:,.0f}x faster (goal >= 500x); largest gap "
              f"{gap:.5f} = {z:.2f} standard errors (same answer: {'yes' if z <= 5 else 'NO'})")


if __name__ == "__main__":
    main()
