"""Exact probability distributions over whole numbers, combined by convolution.

A `Dist` keeps integer weights over one common denominator, so sums of dice stay exact and
cheap (integer products, no fraction reduced at every step). When the denominator grows past
`EXACT_BITS` (hundreds of dice) the same weights continue as floats: the answers stay right to
~1e-15, and the work stays linear. `StateDist` does the same for small rule states (a model's
wounds, stunned or not) stepped through a sequence of rolls.

Nothing here samples: `Roller` (seeded) exists only so tests can cross-check a resolver
against a Monte Carlo of the same rules.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

# A probability as the API hands it out: exact while cheap, a float once the outcome space is
# large.
Prob = Fraction | float
# A weight is an int while the distribution is exact, a float afterwards (mypy's `float`
# accepts both, and Python's arithmetic turns int x float into float by itself).
Weight = float

EXACT_BITS = 640  # denominators above 2**640 (about 250 dice of 1/6 steps) go to floats

S = TypeVar("S", bound=Hashable)
K = TypeVar("K", bound=Hashable)


def _is_exact(*weights: Weight) -> bool:
    return all(type(w) is int for w in weights)


def _ratio(p: Prob) -> tuple[Weight, Weight]:
    """A probability as numerator and denominator (ints when it is exact)."""
    if isinstance(p, Fraction):
        return p.numerator, p.denominator
    if isinstance(p, int):
        return p, 1
    return float(p), 1.0


def _check_prob(p: Prob) -> None:
    if not 0 <= p <= 1:
        raise ValueError(f"a probability is between 0 and 1, got {p}")


def _settle(weights: list[Weight], den: Weight) -> tuple[list[Weight], Weight]:
    """Reduce exact weights by their common factor; go to floats past EXACT_BITS."""
    if not _is_exact(den):
        return weights, den
    ints = [int(w) for w in weights]
    g = math.gcd(int(den), *ints)
    if g > 1:
        ints = [w // g for w in ints]
        den = int(den) // g
    if int(den).bit_length() > EXACT_BITS:
        # int / int rounds correctly even when both are too large for a float
        return [w / int(den) for w in ints], 1.0
    return [*ints], den


@dataclass(frozen=True, eq=False)
class Dist:
    """P(value) for the values lo, lo + 1, ... as weights / den (see the module docstring).

    Build one with `point`, `bernoulli`, `die`, `binomial` or `from_probs`; combine with `+`
    (the sum of two independent results), `repeat`, `map` and `mixture`.
    """

    lo: int
    weights: tuple[Weight, ...]
    den: Weight

    @staticmethod
    def make(lo: int, weights: Sequence[Weight], den: Weight) -> Dist:
        ws, den = _settle(list(weights), den)
        start, end = 0, len(ws)
        while start < end and ws[start] == 0:
            start += 1
        while end > start and ws[end - 1] == 0:
            end -= 1
        if start == end:
            raise ValueError("a distribution needs at least one possible value")
        return Dist(lo + start, tuple(ws[start:end]), den)

    # -- building -------------------------------------------------------------------------
    @staticmethod
    def point(value: int = 0) -> Dist:
        return Dist(value, (1,), 1)

    @staticmethod
    def bernoulli(p: Prob) -> Dist:
        """1 with probability p, else 0."""
        _check_prob(p)
        num, den = _ratio(p)
        return Dist.make(0, [den - num, num], den)

    @staticmethod
    def die(sides: int = 6, lo: int = 1) -> Dist:
        return Dist.make(lo, [1] * sides, sides)

    @staticmethod
    def from_probs(probs: Mapping[int, Prob]) -> Dist:
        """From {value: probability}; the probabilities must add up to 1."""
        if not probs:
            raise ValueError("a distribution needs at least one possible value")
        lo, hi = min(probs), max(probs)
        parts = [_ratio(p) for p in probs.values()]
        if _is_exact(*(d for _, d in parts)):
            den = math.lcm(*(int(d) for _, d in parts))
            weights: list[Weight] = [0] * (hi - lo + 1)
            for value, p in probs.items():
                num, d = _ratio(p)
                weights[value - lo] = int(num) * (den // int(d))
            if sum(weights) != den:
                raise ValueError("probabilities must add up to 1")
            return Dist.make(lo, weights, den)
        fl: list[Weight] = [0.0] * (hi - lo + 1)
        for value, p in probs.items():
            fl[value - lo] = float(p)
        if not math.isclose(math.fsum(fl), 1.0, rel_tol=1e-9):
            raise ValueError("probabilities must add up to 1")
        return Dist.make(lo, fl, 1.0)

    @staticmethod
    def binomial(n: int, p: Prob) -> Dist:
        """Successes among n independent tries that each succeed with probability p."""
        _check_prob(p)
        if n < 0:
            raise ValueError(f"a number of tries is 0 or more, got {n}")
        num, den = _ratio(p)
        if _is_exact(num, den) and n * int(den).bit_length() <= EXACT_BITS:
            a, b = int(num), int(den) - int(num)
            # C(n,k) a^k b^(n-k) over den^n, all in integers
            weights: list[Weight] = []
            coef, apow = 1, 1
            bpows = [1] * (n + 1)
            for k in range(1, n + 1):
                bpows[k] = bpows[k - 1] * b
            for k in range(n + 1):
                weights.append(coef * apow * bpows[n - k])
                coef = coef * (n - k) // (k + 1)
                apow *= a
            return Dist.make(0, weights, int(den) ** n)
        return Dist.make(0, _binomial_floats(n, float(num) / float(den)), 1.0)

    @staticmethod
    def mixture(parts: Iterable[tuple[Prob, Dist]]) -> Dist:
        """With probability p_i the result follows dist_i (the p_i add up to 1)."""
        items = [(p, d) for p, d in parts if p != 0]
        if not items:
            raise ValueError("a mixture needs at least one part")
        lo = min(d.lo for _, d in items)
        hi = max(d.hi for _, d in items)
        ratios = [_ratio(p) for p, _ in items]
        exact = _is_exact(*(x for r in ratios for x in r)) and all(d.exact for _, d in items)
        if exact:
            den = math.lcm(*(int(pd) * int(d.den) for (_, pd), (_, d) in zip(ratios, items,
                                                                               strict=True)))
            weights: list[Weight] = [0] * (hi - lo + 1)
            for (pn, pd), (_, d) in zip(ratios, items, strict=True):
                scale = int(pn) * (den // (int(pd) * int(d.den)))
                for i, w in enumerate(d.weights):
                    weights[d.lo - lo + i] += int(w) * scale
            return Dist.make(lo, weights, den)
        fl: list[Weight] = [0.0] * (hi - lo + 1)
        for (pn, pd), (_, d) in zip(ratios, items, strict=True):
            share = float(pn) / float(pd) / float(d.den)
            for i, w in enumerate(d.weights):
                fl[d.lo - lo + i] += float(w) * share
        return Dist.make(lo, fl, 1.0)

    # -- reading --------------------------------------------------------------------------
    @property
    def exact(self) -> bool:
        return _is_exact(self.den)

    @property
    def hi(self) -> int:
        return self.lo + len(self.weights) - 1

    def values(self) -> range:
        return range(self.lo, self.hi + 1)

    def prob(self, value: int) -> Prob:
        if not self.lo <= value <= self.hi:
            return Fraction(0) if self.exact else 0.0
        return self._p(self.weights[value - self.lo])

    def _p(self, weight: Weight) -> Prob:
        if self.exact:
            return Fraction(int(weight), int(self.den))
        return float(weight) / float(self.den)

    def items(self) -> Iterator[tuple[int, Prob]]:
        for i, w in enumerate(self.weights):
            yield self.lo + i, self._p(w)

    def at_least(self, k: int) -> Prob:
        """P(value >= k)."""
        start = max(0, k - self.lo)
        if self.exact:
            return Fraction(sum(int(w) for w in self.weights[start:]), int(self.den))
        return min(1.0, math.fsum(self.weights[start:]) / float(self.den))

    def at_most(self, k: int) -> Prob:
        return 1 - self.at_least(k + 1)

    def mean(self) -> Prob:
        total = sum(w * (self.lo + i) for i, w in enumerate(self.weights))
        if self.exact:
            return Fraction(int(total), int(self.den))
        return float(total) / float(self.den)

    def variance(self) -> Prob:
        mu = self.mean()
        return sum(((v - mu) ** 2 * p for v, p in self.items()), Fraction(0) * mu)

    def to_float(self) -> Dist:
        if self.exact:
            return Dist(self.lo, tuple(int(w) / int(self.den) for w in self.weights), 1.0)
        return self

    # -- combining ------------------------------------------------------------------------
    def __add__(self, other: Dist | int) -> Dist:
        """The sum of two independent results (convolution), or a shift by a constant."""
        if isinstance(other, int):
            return Dist(self.lo + other, self.weights, self.den)
        a, b = self.weights, other.weights
        if len(a) < len(b):
            a, b = b, a
        out: list[Weight] = [0] * (len(a) + len(b) - 1)
        for j, wb in enumerate(b):
            if wb:
                for i, wa in enumerate(a):
                    out[i + j] += wa * wb
        return Dist.make(self.lo + other.lo, out, self.den * other.den)

    def __neg__(self) -> Dist:
        return Dist(-self.hi, tuple(reversed(self.weights)), self.den)

    def __sub__(self, other: Dist | int) -> Dist:
        return self + (-other)

    def repeat(self, n: int) -> Dist:
        """The sum of n independent copies (by repeated squaring)."""
        if n < 0:
            raise ValueError(f"a number of copies is 0 or more, got {n}")
        result, power = Dist.point(0), self
        while n:
            if n & 1:
                result = result + power
            n >>= 1
            if n:
                power = power + power
        return result

    def map(self, f: Callable[[int], int]) -> Dist:
        """The distribution of f(value)."""
        moved: dict[int, Weight] = {}
        for i, w in enumerate(self.weights):
            v = f(self.lo + i)
            moved[v] = moved.get(v, 0) + w
        lo = min(moved)
        weights: list[Weight] = [0] * (max(moved) - lo + 1)
        for v, w in moved.items():
            weights[v - lo] = w
        return Dist.make(lo, weights, self.den)

    def clamp(self, lo: int, hi: int) -> Dist:
        """Values below lo count as lo, above hi as hi (hits beyond the last life...)."""
        if lo > hi:
            raise ValueError(f"empty range {lo}..{hi}")
        if self.hi <= lo or self.lo >= hi:
            return Dist(lo if self.hi <= lo else hi, (self.den,), self.den)
        start, stop = max(lo, self.lo) - self.lo, min(hi, self.hi) - self.lo
        ws = list(self.weights[start:stop + 1])
        ws[0] += sum(self.weights[:start])
        ws[-1] += sum(self.weights[stop + 1:])
        return Dist(max(lo, self.lo), tuple(ws), self.den)

    def climb(self, tries: int, chance_at: Mapping[int, Prob], cap: int) -> Dist:
        """`tries` more tries, each adding 1 with a chance that depends on the value reached
        (wounds dealt, when the model taking them changes its Save), never past `cap`."""
        lo = self.lo
        size = cap - lo + 1
        if size <= 0 or tries <= 0:
            return self
        ratios = [_ratio(chance_at.get(v, 0)) for v in range(lo, cap)]
        weights: list[Weight] = list(self.weights) + [0] * (size - len(self.weights))
        den: Weight = self.den
        if _is_exact(den, *(x for r in ratios for x in r)):
            step = math.lcm(*(int(d) for _, d in ratios))
            ups = [int(n) * (step // int(d)) for n, d in ratios]
            for i in range(tries):
                moved = [w * u for w, u in zip(weights, ups, strict=False)]
                weights = [w * (step - u) for w, u in zip(weights, ups, strict=False)] + [
                    weights[-1] * step]
                for v, m in enumerate(moved):
                    weights[v + 1] += m
                den = den * step
                if i % 8 == 7 or i == tries - 1:
                    settled, den = _settle(weights, den)
                    weights = settled
                    if not _is_exact(den):
                        return Dist.make(lo, weights, den).climb(tries - i - 1, chance_at, cap)
            return Dist.make(lo, weights, den)
        floats = [float(w) / float(den) for w in weights]
        ups_f = [float(n) / float(d) for n, d in ratios]
        for _ in range(tries):
            moved_f = [w * u for w, u in zip(floats, ups_f, strict=False)]
            floats = [w * (1 - u) for w, u in zip(floats, ups_f, strict=False)] + [floats[-1]]
            for v, m in enumerate(moved_f):
                floats[v + 1] += m
        return Dist.make(lo, floats, 1.0)

    def then(self, f: Callable[[int], Dist]) -> Dist:
        """Roll this, then the result f(value) depends on it (a compound roll)."""
        return Dist.mixture((p, f(v)) for v, p in self.items())

    def joint(self, other: Dist, key: Callable[[int, int], K]) -> dict[K, Prob]:
        """P(key(x, y)) for x from this and y from `other`, independent: the chances of each
        kind of pair (who lost more, who must test...), summed without a fraction per pair."""
        sums: dict[K, Weight] = {}
        for i, wa in enumerate(self.weights):
            for j, wb in enumerate(other.weights):
                k = key(self.lo + i, other.lo + j)
                sums[k] = sums.get(k, 0) + wa * wb
        den = self.den * other.den
        if _is_exact(den):
            return {k: Fraction(int(w), int(den)) for k, w in sums.items()}
        return {k: float(w) / float(den) for k, w in sums.items()}

    def trimmed(self, below: float = 1e-4) -> tuple[int, int]:
        """The smallest value range outside which less than `below` lies on each side."""
        total = float(self.den)
        lo, hi = self.lo, self.hi
        tail = 0.0
        for i, w in enumerate(self.weights):
            tail += float(w) / total
            if tail >= below:
                lo = self.lo + i
                break
        tail = 0.0
        for i in range(len(self.weights) - 1, -1, -1):
            tail += float(self.weights[i]) / total
            if tail >= below:
                hi = self.lo + i
                break
        return lo, max(lo, hi)


def _binomial_floats(n: int, p: float) -> list[Weight]:
    if p <= 0.0:
        return [1.0] + [0.0] * n
    if p >= 1.0:
        return [0.0] * n + [1.0]
    lp, lq = math.log(p), math.log1p(-p)
    top = math.lgamma(n + 1)
    return [math.exp(top - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * lp + (n - k) * lq)
            for k in range(n + 1)]


def chance(hits: int, sides: int = 6) -> Fraction:
    """The chance that one die shows one of `hits` faces (clamped to 0..sides)."""
    return Fraction(max(0, min(sides, hits)), sides)


def at_least_on(target: int, sides: int = 6) -> Fraction:
    """The chance one die scores `target` or more, with nothing forced (2 -> 5/6, 7 -> 0)."""
    return chance(sides - target + 1, sides)


# A state's next states as (denominator, [(weight, state), ...]); the weights sum to it.
Branches = tuple[int, Sequence[tuple[int, S]]]


class StateDist(Generic[S]):
    """A distribution over rule states (any hashable value), stepped roll by roll.

    Weights share one denominator, as in `Dist`; `step` applies a roll to every state.
    """

    __slots__ = ("den", "weights")

    def __init__(self, weights: Mapping[S, Weight], den: Weight = 1) -> None:
        self.weights: dict[S, Weight] = dict(weights)
        self.den: Weight = den

    @staticmethod
    def certain(state: S) -> StateDist[S]:
        return StateDist({state: 1}, 1)

    @property
    def exact(self) -> bool:
        return _is_exact(self.den)

    @staticmethod
    def _settled(weights: dict[S, Weight], den: int) -> StateDist[S]:
        """The states' exact weights over `den`, settled as `Dist`'s are (`_settle`)."""
        settled, settled_den = _settle(list(weights.values()), den)
        return StateDist(dict(zip(weights, settled, strict=True)), settled_den)

    def step(self, f: Callable[[S], Iterable[tuple[Prob, S]]]) -> StateDist[S]:
        """Each state s becomes the states f(s) lists, each with its probability."""
        branches = {s: [(p, t) for p, t in f(s) if p != 0] for s in self.weights}
        ratios = [_ratio(p) for bs in branches.values() for p, _ in bs]
        exact = self.exact and _is_exact(*(x for r in ratios for x in r))
        if exact:
            mult = math.lcm(1, *(int(d) for _, d in ratios))
            out: dict[S, Weight] = {}
            for s, bs in branches.items():
                w = int(self.weights[s])
                for p, t in bs:
                    num, d = _ratio(p)
                    out[t] = out.get(t, 0) + w * int(num) * (mult // int(d))
            return StateDist._settled(out, int(self.den) * mult)
        fout: dict[S, Weight] = {}
        total = float(self.den)
        for s, bs in branches.items():
            share = float(self.weights[s]) / total
            for p, t in bs:
                fout[t] = fout.get(t, 0.0) + share * float(p)
        return StateDist(fout, 1.0)

    def step_weighted(self, f: Callable[[S], Branches[S]]) -> StateDist[S]:
        """As `step`, with each state's branches given as integer weights over a denominator
        (no fraction is made per branch: the fast path for rules stepped many times)."""
        branches = {s: f(s) for s in self.weights}
        if self.exact:
            mult = math.lcm(*(den for den, _ in branches.values()))
            out: dict[S, Weight] = {}
            for s, (den, bs) in branches.items():
                w = int(self.weights[s]) * (mult // den)
                for num, t in bs:
                    if num:
                        out[t] = out.get(t, 0) + w * num
            return StateDist._settled(out, int(self.den) * mult)
        fout: dict[S, Weight] = {}
        total = float(self.den)
        for s, (den, bs) in branches.items():
            share = float(self.weights[s]) / total / den
            for num, t in bs:
                if num:
                    fout[t] = fout.get(t, 0.0) + share * num
        return StateDist(fout, 1.0)

    @staticmethod
    def mix(parts: Iterable[tuple[Prob, StateDist[S]]]) -> StateDist[S]:
        """With probability p_i the state follows dist_i (the p_i add up to 1)."""
        items = [(p, d) for p, d in parts if p != 0]
        ratios = [_ratio(p) for p, _ in items]
        if all(d.exact for _, d in items) and _is_exact(*(x for r in ratios for x in r)):
            den = math.lcm(*(int(pd) * int(d.den) for (_, pd), (_, d) in zip(ratios, items,
                                                                               strict=True)))
            out: dict[S, Weight] = {}
            for (pn, pd), (_, d) in zip(ratios, items, strict=True):
                scale = int(pn) * (den // (int(pd) * int(d.den)))
                for s, w in d.weights.items():
                    out[s] = out.get(s, 0) + int(w) * scale
            return StateDist(out, den)
        fout: dict[S, Weight] = {}
        for p, d in items:
            for s, q in d.items():
                fout[s] = fout.get(s, 0.0) + float(p) * float(q)
        return StateDist(fout, 1.0)

    def prob(self, test: Callable[[S], bool]) -> Prob:
        total = sum((w for s, w in self.weights.items() if test(s)), 0)
        if self.exact:
            return Fraction(int(total), int(self.den))
        return float(total) / float(self.den)

    def to_dist(self, value: Callable[[S], int]) -> Dist:
        """The distribution of a number read off each state."""
        moved: dict[int, Weight] = {}
        for s, w in self.weights.items():
            v = value(s)
            moved[v] = moved.get(v, 0) + w
        lo = min(moved)
        weights: list[Weight] = [0] * (max(moved) - lo + 1)
        for v, w in moved.items():
            weights[v - lo] = w
        return Dist.make(lo, weights, self.den)

    def items(self) -> Iterator[tuple[S, Prob]]:
        for s, w in self.weights.items():
            yield s, (Fraction(int(w), int(self.den)) if self.exact
                      else float(w) / float(self.den))


class Roller:
    """Seeded dice for Monte Carlo cross-checks in tests; the resolvers never roll."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def d6(self) -> int:
        return int(self._random.random() * 6) + 1

    def d3(self) -> int:
        return (self.d6() + 1) // 2

    def dice(self, n: int) -> list[int]:
        r = self._random.random
        return [int(r() * 6) + 1 for _ in range(n)]

    def pick(self, items: Sequence[S], k: int) -> list[S]:
        return self._random.sample(list(items), k)
