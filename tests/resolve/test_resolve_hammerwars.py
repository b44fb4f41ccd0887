"""Hammer Wars quick-resolve: attack lines against armor classes, fixed attacks, blast dice."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from montecarlo import assert_chance, assert_matches, simulate

from listbuilder.engine.dice import Dist, Roller
from listbuilder.engine.library import Library
from listbuilder.engine.resolve import Result, Side, quick_resolve, resolve_names
from listbuilder.engine.system import RuleSystem
from listbuilder.systems.hammerwars import HammerWarsCatalog, HwUnit


@pytest.fixture(scope="module")
def hw(library: Library) -> tuple[RuleSystem, HammerWarsCatalog]:
    catalog = library.catalog("hammerwars")
    assert isinstance(catalog, HammerWarsCatalog)
    return library.systems[0], catalog


def run(hw: tuple[RuleSystem, HammerWarsCatalog], attacker: str, defender: str,
        **settings: object) -> Result:
    system, catalog = hw
    return resolve_names(system, catalog, attacker, defender, settings)


def card(hw: tuple[RuleSystem, HammerWarsCatalog], name: str) -> HwUnit:
    unit = hw[1].find_unit(name)
    assert isinstance(unit, HwUnit)
    return unit


def test_three_dice_against_medium_armor(hw) -> None:
    # Ranged Heavy: Dice 3 needing 3+ against Medium; Assault Hero has 3 lives.
    r = run(hw, "Ranged Heavy", "Assault Hero")
    p = Fraction(4, 6)
    assert [r.outcome.dist.prob(k) for k in range(4)] == [
        (1 - p) ** 3, 3 * p * (1 - p) ** 2, 3 * p * p * (1 - p), p ** 3]
    assert r.outcome.p_kill == Fraction(8, 27)
    assert r.outcome.mean == 2
    assert r.summary == "30% to kill"


def test_cover_takes_one_from_each_die(hw) -> None:
    r = run(hw, "Ranged Heavy", "Assault Hero", cover="yes")
    assert r.outcome.p_kill == Fraction(1, 8)  # 4+: half the dice, all three needed
    assert r.outcome.mean == Fraction(3, 2)


def test_ignores_cover(hw) -> None:
    # Ranged Hero: two lines of 1 die needing 3+ against Light; Ignores Cover.
    r = run(hw, "Ranged Hero", "Ranged Infantry", cover="yes")
    assert r.outcome.p_kill == 1 - Fraction(1, 3) ** 2
    only_one = run(hw, "Ranged Hero", "Ranged Infantry", line="line 2")
    assert only_one.outcome.p_kill == Fraction(2, 3)


def test_duty_and_cover_cancel(hw) -> None:
    # Support Infantry hits Heavy armor on 4+.
    assert run(hw, "Support Infantry", "Ranged Heavy", cover="yes",
               duty="yes").outcome.at_least(1) == Fraction(1, 2)
    assert run(hw, "Support Infantry", "Ranged Heavy",
               duty="yes").outcome.at_least(1) == Fraction(2, 3)


def test_a_six_always_hits_and_a_one_is_no_automatic_miss(hw) -> None:
    """Only the 6 is named: a 6+ line in cover still hits on a 6, and with Duty a 2+ line
    hits on any roll, since nothing makes a 1 miss."""
    r = run(hw, "Assault Infantry", "Assault Specialist", cover="yes")
    assert r.outcome.at_least(1) == Fraction(1, 6)
    system, catalog = hw
    sharp = card(hw, "Assault Infantry")
    sharp = replace(sharp, attacks=(replace(sharp.attacks[0], light=2),))
    target = Side.of(card(hw, "Ranged Infantry"))
    assert quick_resolve(system, catalog, Side.of(sharp), target,
                         {"duty": "yes"}).outcome.p_kill == 1
    assert quick_resolve(system, catalog, Side.of(sharp), target).outcome.p_kill == Fraction(5, 6)


def test_lives_left(hw) -> None:
    # Ranged Heavy hits Heavy armor on 3+; a Support Heavy down to 2 lives
    r = run(hw, "Ranged Heavy", "Support Heavy", lives=2)
    assert r.outcome.p_kill == Fraction(20, 27)
    assert r.outcome.dist.hi == 2  # hits beyond the last life are not counted
    full = run(hw, "Ranged Heavy", "Support Heavy")
    assert full.outcome.p_kill == 0 and full.summary == "0% to kill"


def test_energy_pulse_can_hit_one_target_twice(hw) -> None:
    """The marker may stay where it is after the first attack, so one target can take both
    Dice:1 5+ attacks; `pulse=1` is a target caught by only one."""
    twice = run(hw, "Support Hero", "Assault Hero", attack="Energy Pulse")
    assert twice.outcome.at_least(1) == 1 - Fraction(2, 3) ** 2
    assert twice.outcome.at_least(2) == Fraction(1, 9)
    once = run(hw, "Support Hero", "Assault Hero", attack="Energy Pulse", pulse=1)
    assert once.outcome.at_least(1) == Fraction(1, 3)
    # fixed attacks ignore cover and Duty
    assert run(hw, "Support Hero", "Assault Hero", attack="Energy Pulse", cover="yes",
               duty="yes").outcome.dist.prob(0) == Fraction(4, 9)


def test_trample_goal_and_dangerous_terrain(hw) -> None:
    trample = run(hw, "Support Heavy", "Ranged Infantry", attack="Trample Attack", nearby=2)
    assert trample.outcome.p_kill == Fraction(1, 2)
    assert trample.chances[0].p == Fraction(1, 2)  # its * die at each nearby unit
    assert run(hw, "Ranged Infantry", "Assault Hero",
               attack="Dangerous Terrain").outcome.at_least(1) == Fraction(1, 6)
    assert run(hw, "Ranged Infantry", "Assault Hero",
               attack="Deception (goal)").outcome.at_least(1) == Fraction(1, 2)
    options = [o for o in hw[0].resolver().options(hw[1], Side.of(card(hw, "Ranged Infantry")),
                                                   Side.of(card(hw, "Assault Hero")))]
    assert "Trample Attack" not in options[0].choices  # only units with the rule have it


def test_blast_dice_go_to_nearby_units_not_the_target(hw) -> None:
    """A `*` adds one die at each other enemy unit within 2" of the target; the target's own
    roll is unchanged. Those units are assumed to wear the target's armor."""
    alone = run(hw, "Support Specialist", "Ranged Infantry")
    crowded = run(hw, "Support Specialist", "Ranged Infantry", nearby=3)
    assert list(alone.outcome.dist.items()) == list(crowded.outcome.dist.items())
    assert crowded.outcome.p_kill == Fraction(1, 2)  # 1* needing 4+ against Light
    assert crowded.chances[0].p == Fraction(1, 2)
    assert "3 nearby" in crowded.chances[0].label
    assert not alone.chances


def test_every_pair_of_cards_resolves(hw) -> None:
    system, catalog = hw
    for a in catalog.units:
        for d in catalog.units:
            r = quick_resolve(system, catalog, Side.of(a), Side.of(d), {"cover": "yes"})
            assert sum(p for _, p in r.outcome.dist.items()) == 1
            assert r.summary.endswith("to kill")


def _simulate_lines(roller: Roller, lines: list[tuple[int, int]], modifier: int,
                    lives: int) -> int:
    hits = 0
    for dice, need in lines:
        for roll in roller.dice(dice):
            if roll == 6 or roll + modifier >= need:
                hits += 1
    return min(hits, lives)


@pytest.mark.parametrize(("attacker", "defender", "settings", "seed"), [
    ("Ranged Heavy", "Support Heavy", {"cover": "yes"}, 11),
    ("Support Heavy", "Assault Hero", {"duty": "yes"}, 12),
    ("Support Heavy", "Ranged Hero", {"cover": "yes", "duty": "yes", "lives": 2}, 13),
    ("Ranged Specialist", "Assault Infantry", {}, 14),
])
def test_matches_a_monte_carlo_of_the_rule_text(hw, attacker: str, defender: str,
                                               settings: dict[str, object], seed: int) -> None:
    a, d = card(hw, attacker), card(hw, defender)
    lives = int(str(settings.get("lives", d.lives)))
    modifier = (-1 if settings.get("cover") == "yes" else 0) + (
        1 if settings.get("duty") == "yes" else 0)
    lines = [(line.dice, line.to_hit(d.armor)) for line in a.attacks]
    counts = simulate(lambda r: _simulate_lines(r, lines, modifier, lives), seed)
    exact = run(hw, attacker, defender, **settings)
    assert_matches(exact.outcome.dist, counts, f"{attacker} vs {defender}")


def test_energy_pulse_monte_carlo(hw) -> None:
    counts = simulate(lambda r: sum(1 for roll in r.dice(2) if roll >= 5), 15)
    exact = run(hw, "Support Hero", "Assault Hero", attack="Energy Pulse").outcome.dist
    assert_matches(exact, counts, "Energy Pulse")
    assert_chance(Dist.binomial(2, Fraction(1, 3)).at_least(1), sum(
        c for v, c in counts.items() if v >= 1), sum(counts.values()), "pulse hits")


def test_copies_of_the_attacker_roll_all_their_dice(hw) -> None:
    """'4x Assault Infantry' is four units' dice at one target, and the working says so."""
    one = run(hw, "Assault Infantry", "Ranged Infantry")
    four = run(hw, "4x Assault Infantry", "Ranged Infantry")
    p = Fraction(2, 3)  # one die needing 3+ against Light armor
    assert one.outcome.p_kill == p
    assert four.outcome.p_kill == 1 - (1 - p) ** 4 == Fraction(80, 81)
    assert four.attacker == "4x Assault Infantry"
    assert "4 units x 1 die = 4 dice" in four.steps[0]


def test_a_counted_target_or_a_shared_attack_is_refused(hw) -> None:
    from listbuilder.engine.resolve import ResolveError

    with pytest.raises(ResolveError, match="the target is one unit"):
        run(hw, "Assault Infantry", "4x Ranged Infantry")
    with pytest.raises(ResolveError, match="copies of it don't add to it"):
        run(hw, "2x Assault Infantry", "Ranged Infantry", attack="Deception (goal)")


def test_each_copy_rolls_its_own_blast_die_at_each_nearby_unit(hw) -> None:
    """Each copy fires its own * line (docs/rules-notes.md, "Blast dice with copies"), so a
    unit within 2" takes one die a copy. Worked by hand from the card: the Support
    Specialist's * line hits Light armor on 4+ (1/2) and Heavy on 5+ (1/3); the Support
    Heavy's Trample die hits on 4+."""
    two = run(hw, "2x Support Specialist", "Ranged Infantry", nearby=1)
    assert two.chances[0].p == 1 - Fraction(1, 2) ** 2 == Fraction(3, 4)
    assert "2 more dice (one a unit)" in two.steps[-1]
    four = run(hw, "4x Support Specialist", "Ranged Heavy", nearby=1)
    assert four.chances[0].p == 1 - Fraction(2, 3) ** 4 == Fraction(65, 81)
    trample = run(hw, "2x Support Heavy", "Ranged Infantry", attack="Trample Attack", nearby=1)
    assert trample.chances[0].p == Fraction(3, 4)
    assert run(hw, "Support Specialist", "Ranged Infantry", nearby=1).chances[0].p == \
        Fraction(1, 2)
