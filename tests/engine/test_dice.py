"""Exact distributions: each checked against its closed form (means, variances, known pmfs)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from listbuilder.engine.dice import (
    EXACT_BITS,
    Dist,
    Roller,
    StateDist,
    at_least_on,
    chance,
)

probs = st.fractions(min_value=0, max_value=1, max_denominator=36)


def total(d: Dist) -> Fraction | float:
    return sum((p for _, p in d.items()), Fraction(0))


def test_a_die_is_uniform_with_mean_7_2_and_variance_35_12() -> None:
    d6 = Dist.die(6)
    assert [d6.prob(v) for v in range(1, 7)] == [Fraction(1, 6)] * 6
    assert d6.prob(0) == 0 and d6.prob(7) == 0
    assert d6.mean() == Fraction(7, 2)
    assert d6.variance() == Fraction(35, 12)


def test_two_dice_make_the_triangle() -> None:
    two = Dist.die() + Dist.die()
    assert two.lo == 2 and two.hi == 12
    assert [two.prob(v) * 36 for v in range(2, 13)] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]


def test_a_d3_read_off_a_d6() -> None:
    d3 = Dist.die().map(lambda roll: (roll + 1) // 2)
    assert [d3.prob(v) for v in (1, 2, 3)] == [Fraction(1, 3)] * 3


@given(st.integers(0, 40), probs)
def test_binomial_mean_and_variance_are_np_and_npq(n: int, p: Fraction) -> None:
    b = Dist.binomial(n, p)
    assert b.exact
    assert total(b) == 1
    assert b.mean() == n * p
    assert b.variance() == n * p * (1 - p)


def test_binomial_by_hand() -> None:
    b = Dist.binomial(3, Fraction(1, 2))
    assert [b.prob(k) for k in range(4)] == [Fraction(1, 8), Fraction(3, 8), Fraction(3, 8),
                                             Fraction(1, 8)]
    assert b.at_least(2) == Fraction(1, 2)
    assert b.at_most(0) == Fraction(1, 8)


def test_large_binomials_continue_in_floats_with_the_same_mean() -> None:
    n, p = 600, Fraction(5, 18)
    b = Dist.binomial(n, p)
    assert not b.exact
    assert math.isclose(float(total(b)), 1.0, rel_tol=1e-12)
    assert math.isclose(float(b.mean()), float(n * p), rel_tol=1e-12)
    assert math.isclose(float(b.variance()), float(n * p * (1 - p)), rel_tol=1e-9)


def test_sums_turn_to_floats_only_past_the_exact_limit() -> None:
    third = Dist.bernoulli(Fraction(1, 3))
    small = third.repeat(20)
    assert small.exact and small.mean() == Fraction(20, 3)
    big = third.repeat(EXACT_BITS)  # a denominator of 3**640 is past the limit
    assert not big.exact
    assert math.isclose(float(big.mean()), EXACT_BITS / 3, rel_tol=1e-12)


@settings(max_examples=40)
@given(st.lists(st.tuples(st.integers(1, 8), st.integers(1, 6)), min_size=1, max_size=4))
def test_sum_of_dice_means_add_up(dice: list[tuple[int, int]]) -> None:
    """Closed form: the mean of a sum of n dice of s sides is n (s + 1) / 2."""
    d = Dist.point(0)
    for n, sides in dice:
        d = d + Dist.die(sides).repeat(n)
    assert d.mean() == sum(Fraction(n * (s + 1), 2) for n, s in dice)
    assert d.variance() == sum(Fraction(n * (s * s - 1), 12) for n, s in dice)
    assert total(d) == 1


def test_repeat_equals_adding_one_copy_at_a_time() -> None:
    step = Dist.from_probs({0: Fraction(1, 2), 1: Fraction(1, 3), 2: Fraction(1, 6)})
    slow = Dist.point(0)
    for _ in range(7):
        slow = slow + step
    fast = step.repeat(7)
    assert list(fast.items()) == list(slow.items())


def test_difference_and_clamp_give_hits_minus_blocks_never_below_zero() -> None:
    hits = Dist.binomial(2, Fraction(1, 2))
    blocks = Dist.binomial(1, Fraction(1, 2))
    lost = (hits - blocks).clamp(0, 5)
    # by hand: P(2 hits, 0 blocks) = 1/8; P(1 unblocked) = P(2,1) + P(1,0) = 1/8 + 2/8
    assert lost.prob(2) == Fraction(1, 8)
    assert lost.prob(1) == Fraction(3, 8)
    assert lost.prob(0) == Fraction(1, 2)


def test_climbing_with_one_chance_is_a_capped_binomial() -> None:
    p = Fraction(5, 12)
    climbed = Dist.point(0).climb(9, dict.fromkeys(range(4), p), cap=4)
    assert list(climbed.items()) == list(Dist.binomial(9, p).clamp(0, 4).items())
    floats = Dist.point(0).to_float().climb(9, dict.fromkeys(range(4), p), cap=4)
    assert all(math.isclose(float(a), float(b), abs_tol=1e-15)
               for (_, a), (_, b) in zip(floats.items(), climbed.items(), strict=True))


def test_climbing_when_the_chance_changes_on_the_way() -> None:
    """Two tries: 1/2 to go up from 0, then 1/3 from 1. By hand: P(2) = 1/2 x 1/3."""
    climbed = Dist.point(0).climb(2, {0: Fraction(1, 2), 1: Fraction(1, 3)}, cap=2)
    assert [climbed.prob(v) for v in range(3)] == [
        Fraction(1, 4), Fraction(1, 2) * Fraction(1, 2) + Fraction(1, 2) * Fraction(2, 3),
        Fraction(1, 6)]
    long = Dist.point(0).climb(400, {0: Fraction(1, 7), 1: Fraction(2, 7)}, cap=2)
    assert not long.exact and math.isclose(float(long.at_least(2)), 1.0)


def test_mixture_and_compound_rolls() -> None:
    # roll a die; roll that many coins: mean = 7/2 * 1/2
    coins = Dist.die().then(lambda n: Dist.binomial(n, Fraction(1, 2)))
    assert coins.mean() == Fraction(7, 4)
    assert total(coins) == 1
    half = Dist.mixture([(Fraction(1, 2), Dist.point(0)), (Fraction(1, 2), Dist.point(4))])
    assert half.mean() == 2 and half.prob(2) == 0


def test_joint_chances_of_independent_pairs() -> None:
    d6 = Dist.die()
    who = d6.joint(d6, lambda a, b: (a > b) - (b > a))
    assert who == {1: Fraction(15, 36), -1: Fraction(15, 36), 0: Fraction(6, 36)}


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="add up to 1"):
        Dist.from_probs({0: Fraction(1, 2)})
    with pytest.raises(ValueError, match="between 0 and 1"):
        Dist.bernoulli(Fraction(3, 2))
    with pytest.raises(ValueError, match="0 or more"):
        Dist.binomial(-1, Fraction(1, 2))


def test_one_die_chances() -> None:
    assert at_least_on(4) == Fraction(1, 2)
    assert at_least_on(7) == 0 and at_least_on(1) == 1
    assert chance(9) == 1 and chance(-2) == 0


def test_trimmed_range_drops_only_thin_tails() -> None:
    b = Dist.binomial(200, Fraction(1, 2))
    lo, hi = b.trimmed(1e-4)
    assert 50 < lo < 100 < hi < 150
    assert float(b.at_least(hi + 1)) < 1e-4 and float(b.at_most(lo - 1)) < 1e-4


def test_state_steps_match_the_binomial() -> None:
    """Counting successes one try at a time gives the binomial, exactly."""
    p = Fraction(2, 7)
    state: StateDist[int] = StateDist.certain(0)
    for _ in range(9):
        state = state.step(lambda k: [(1 - p, k), (p, k + 1)])
    assert list(state.to_dist(lambda k: k).items()) == list(Dist.binomial(9, p).items())
    weighted: StateDist[int] = StateDist.certain(0)
    for _ in range(9):
        weighted = weighted.step_weighted(lambda k: (7, [(5, k), (2, k + 1)]))
    assert list(weighted.to_dist(lambda k: k).items()) == list(Dist.binomial(9, p).items())
    assert state.prob(lambda k: k >= 3) == Dist.binomial(9, p).at_least(3)


def test_state_mixture() -> None:
    a: StateDist[str] = StateDist.certain("a")
    b: StateDist[str] = StateDist({"a": 1, "b": 2}, 3)
    mixed = StateDist.mix([(Fraction(1, 4), a), (Fraction(3, 4), b)])
    assert dict(mixed.items()) == {"a": Fraction(1, 2), "b": Fraction(1, 2)}


def test_rollers_repeat_with_their_seed() -> None:
    first, second = Roller(7), Roller(7)
    rolls = first.dice(200)
    assert rolls == second.dice(200)
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    roller = Roller(3)
    assert {roller.d3() for _ in range(300)} == {1, 2, 3}
