"""One Page 40k quick-resolve: hits minus blocks, morale, assaults and the vehicle damage table."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from montecarlo import TRIALS, assert_chance, assert_matches, simulate

from listbuilder.engine.dice import Roller
from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.engine.resolve import ResolveError, Result, Side, resolve_names
from listbuilder.engine.system import RuleSystem
from listbuilder.systems.op40k.model import Datasheet, Op40kCatalog


@pytest.fixture(scope="module")
def op(library: Library) -> tuple[RuleSystem, Op40kCatalog]:
    catalog = library.catalog("op40k")
    assert isinstance(catalog, Op40kCatalog)
    return get_system("op40k"), catalog


def run(op: tuple[RuleSystem, Op40kCatalog], attacker: str, defender: str,
        **settings: object) -> Result:
    return resolve_names(op[0], op[1], attacker, defender, settings)


def chance_of(result: Result, start: str) -> Fraction | float:
    return next(c.p for c in result.chances if c.label.startswith(start) or start in c.label)


def test_one_model_shooting_one_model(op) -> None:
    # Guardsmen hit on 4+; an Ork Boy blocks on 5+
    walk = run(op, "1x Guardsmen", "1x Ork Boyz", action="Walk")
    assert walk.outcome.p_kill == Fraction(1, 2) * Fraction(2, 3)
    hold = run(op, "1x Guardsmen", "1x Ork Boyz")  # Hold: one more die
    assert hold.outcome.p_kill == Fraction(1, 4) + Fraction(1, 2) * Fraction(2, 3)
    cover = run(op, "1x Guardsmen", "1x Ork Boyz", action="Walk", cover="yes")
    assert cover.outcome.p_kill == Fraction(1, 2) * Fraction(2, 3) ** 2
    high = run(op, "1x Guardsmen", "1x Ork Boyz", action="Walk", elevation="yes")
    assert high.outcome.p_kill == hold.outcome.p_kill


def test_morale_test_when_down_to_half_or_less(op) -> None:
    """A unit tests when an attack leaves it with half its models or fewer (counted before the
    attack); a unit wiped out has nobody left to test."""
    r = run(op, "2x Guardsmen", "2x Ork Boyz", action="Walk")
    assert [r.outcome.dist.prob(k) for k in range(3)] == [
        Fraction(5, 9), Fraction(1, 3), Fraction(1, 9)]
    assert chance_of(r, "Ork Boyz: must test") == Fraction(1, 3)
    assert chance_of(r, "Ork Boyz: flees") == Fraction(1, 3) * Fraction(2, 3)
    five = run(op, "2x Guardsmen", "5x Ork Boyz", action="Walk")
    # 5 models: a test only when 3 or more go (2 left <= 2.5); two dice can't do that
    assert chance_of(five, "must test") == 0


def test_sample_rules_change_the_dice(op) -> None:
    """Our sample rules: Tough +1 block die, Furious +1 die striking in an assault it started,
    Heavy fires only on Hold, Fearless never flees, Mob rerolls a failed test at 10+ models."""
    tough = run(op, "1x Guardsmen", "1x Nobz", action="Walk")  # Nobz: Q4, Tough
    assert tough.outcome.p_kill == Fraction(1, 2) * Fraction(1, 2) ** 2
    with pytest.raises(ResolveError, match="Heavy"):
        run(op, "Lootas", "Guardsmen", action="Walk")
    assert run(op, "Lootas", "Guardsmen", action="Hold").outcome.mean > 0
    furious = run(op, "1x Ork Boyz", "1x Guardsmen", attack="assault")
    # two dice at 5+ against one 4+ block: both hit, or one hits and the block fails
    assert furious.outcome.p_kill == Fraction(1, 9) + Fraction(4, 9) * Fraction(1, 2)
    mob = run(op, "10x Guardsmen", "20x Ork Boyz", action="Walk")
    # 10 dice can only bring 20 Boyz down to 10, still a Mob: a failed test is rolled again
    tests = chance_of(mob, "Ork Boyz: must test")
    assert tests == Fraction(1, 2) ** 10 * Fraction(2, 3) ** 20
    assert chance_of(mob, "Ork Boyz: flees") == tests * Fraction(2, 3) ** 2
    fearless = run(op, "10x Guardsmen", "5x Space Marines")
    assert chance_of(fearless, "must test") > 0 and chance_of(fearless, "flees") == 0


def test_a_vehicle_rolls_one_die_per_weapon_fired(op) -> None:
    """A vehicle is one model, so its shooting roll is a die for each weapon it fires at the
    target: every weapon on Hold (some may go elsewhere), one on Move; never the Hold bonus."""
    hold = run(op, "Leman Russ", "1x Guardsmen")
    move = run(op, "Leman Russ", "1x Guardsmen", action="Move")
    one_gun = run(op, "Leman Russ", "1x Guardsmen", weapons=1)
    # 2 dice at 4+ against a 4+ block, or 1 die
    assert hold.outcome.p_kill == Fraction(1, 4) + Fraction(1, 2) * Fraction(1, 2)
    assert move.outcome.p_kill == one_gun.outcome.p_kill == Fraction(1, 4)
    assert "cover" not in {o.key for o in get_system("op40k").resolver().options(
        op[1], Side.of(op[1].find_unit("Guardsmen")), Side.of(op[1].find_unit("Chimera")))}


def test_one_damage_roll_however_many_hits_get_through(op) -> None:
    """'When a vehicle fails to block one or more hits, roll on this table': one roll per
    attack, however many hits are unblocked. Front keeps the lower of two dice, rear the
    higher (6 destroys); Ramshackle vehicles take front hits as side hits."""
    side = run(op, "Leman Russ", "Chimera", facing="side")
    damaged = Fraction(1, 2)  # 2 dice at 4+, one 4+ block: at least one gets through
    assert chance_of(side, "Chimera: fails to block") == damaged
    assert side.outcome.p_kill == damaged * Fraction(1, 6)
    front = run(op, "Leman Russ", "Chimera", facing="front")
    rear = run(op, "Leman Russ", "Chimera", facing="rear")
    assert front.outcome.p_kill == damaged * Fraction(1, 36)
    assert rear.outcome.p_kill == damaged * Fraction(11, 36)
    # shaken on 1-3: front (lower of two) 1 - (1/2)^2; immobilised 4-5 by side: 2/6
    assert front.outcome.dist.prob(1) == damaged * Fraction(3, 4)
    assert side.outcome.dist.prob(2) == damaged * Fraction(1, 3)
    assert front.outcome.labels == ("no damage", "shaken", "immobilised", "destroyed")
    ramshackle = run(op, "Leman Russ", "Trukk", facing="front")
    trukk_damaged = 1 - Fraction(1, 4) * Fraction(1, 3) - 0  # 5+ block against 2 dice
    assert ramshackle.outcome.p_kill * 6 == chance_of(ramshackle, "Trukk: fails")
    assert trukk_damaged >= chance_of(ramshackle, "Trukk: fails")


def test_assault_loser_and_halved_units_test_morale(op) -> None:
    """Both sides strike and block at once. The side that lost more models tests, and so does
    a side brought to half its size even when it did not lose the combat; each tests once."""
    r = run(op, "2x Guardsmen", "2x Ork Boyz", attack="assault")
    assert [r.outcome.dist.prob(k) for k in range(3)] == [
        Fraction(5, 9), Fraction(1, 3), Fraction(1, 9)]
    attacker = r.others[0]
    assert [attacker.dist.prob(k) for k in range(3)] == [
        Fraction(29, 36), Fraction(1, 6), Fraction(1, 36)]
    assert chance_of(r, "Ork Boyz: loses the combat") == Fraction(61, 162)
    assert chance_of(r, "Ork Boyz: tests") == Fraction(1, 3)  # every time it is down to 1
    assert chance_of(r, "Ork Boyz: flees") == Fraction(2, 9)
    assert chance_of(r, "Guardsmen: tests") == Fraction(1, 6)
    assert chance_of(r, "Guardsmen: flees") == Fraction(1, 12)
    with pytest.raises(ResolveError, match="not allowed; use shooting"):
        run(op, "Leman Russ", "Guardsmen", attack="assault")


def _dice(r: Roller, n: int, need: int) -> int:
    return sum(1 for roll in r.dice(n) if roll >= need)


def test_shooting_matches_a_monte_carlo(op) -> None:
    # 10 Guardsmen on Hold from higher ground at 15 Ork Boyz in cover
    def trial(r: Roller) -> tuple[int, bool]:
        hits = _dice(r, 10 + 1 + 1, 4)
        blocks = _dice(r, 15 + 1, 5)
        lost = min(15, max(0, hits - blocks))
        left = 15 - lost
        fled = False
        if 0 < left <= 7:
            fled = r.d6() < 5 and (left < 10 or r.d6() < 5)
        return lost, fled
    counts = simulate(trial, 21)
    exact = run(op, "Guardsmen", "Ork Boyz", elevation="yes", cover="yes")
    assert_matches(exact.outcome.dist, Counter({k[0]: 0 for k in counts}) + Counter(
        lost for (lost, _), c in counts.items() for _ in range(c)), "shooting")
    fled = sum(c for (_, f), c in counts.items() if f)
    assert_chance(chance_of(exact, "Ork Boyz: flees"), fled, TRIALS, "flees")


def test_assault_matches_a_monte_carlo(op) -> None:
    sheets = {n: op[1].find_unit(n) for n in ("Ork Boyz", "Nobz")}
    assert all(isinstance(s, Datasheet) for s in sheets.values())

    def trial(r: Roller) -> tuple[int, int, bool, bool]:
        # 12 Ork Boyz (Q5, Furious) assault 5 Nobz (Q4, Tough)
        hits_a = _dice(r, 12 + 1, 5)
        hits_d = _dice(r, 5, 4)
        blocks_a = _dice(r, 12, 5)
        blocks_d = _dice(r, 5 + 1, 4)
        lost_d = min(5, max(0, hits_a - blocks_d))
        lost_a = min(12, max(0, hits_d - blocks_a))
        flee_d = flee_a = False
        if 5 - lost_d > 0 and (lost_d > lost_a or 2 * (5 - lost_d) <= 5):
            flee_d = r.d6() < 4
        if 12 - lost_a > 0 and (lost_a > lost_d or 2 * (12 - lost_a) <= 12):
            left = 12 - lost_a
            flee_a = r.d6() < 5 and (left < 10 or r.d6() < 5)
        return lost_d, lost_a, flee_d, flee_a
    counts = simulate(trial, 22)
    exact = run(op, "12x Ork Boyz", "5x Nobz", attack="assault")
    lost_d: Counter[int] = Counter()
    lost_a: Counter[int] = Counter()
    for (ld, la, _, _), c in counts.items():
        lost_d[ld] += c
        lost_a[la] += c
    assert_matches(exact.outcome.dist, lost_d, "Nobz lost")
    assert_matches(exact.others[0].dist, lost_a, "Boyz lost")
    assert_chance(chance_of(exact, "Nobz: flees"),
                  sum(c for k, c in counts.items() if k[2]), TRIALS, "Nobz flee")
    assert_chance(chance_of(exact, "Ork Boyz: flees"),
                  sum(c for k, c in counts.items() if k[3]), TRIALS, "Boyz flee")
    assert_chance(chance_of(exact, "Nobz: loses the combat"),
                  sum(c for k, c in counts.items() if k[0] > k[1]), TRIALS, "Nobz lose")


def test_vehicle_damage_matches_a_monte_carlo(op) -> None:
    def trial(r: Roller) -> int:
        unblocked = _dice(r, 2, 4) - _dice(r, 1, 4)
        if unblocked < 1:
            return 0
        roll = max(r.d6(), r.d6())  # rear: the harsher of two
        return 1 if roll <= 3 else 2 if roll <= 5 else 3
    exact = run(op, "Leman Russ", "Chimera", facing="rear")
    assert_matches(exact.outcome.dist, simulate(trial, 23), "rear damage")


def test_resolve_reads_the_unit_as_fielded_not_its_base_datasheet(op) -> None:
    """Quality and rules after upgrades, as the card and `validate --json` show them
    (docs/rules-notes.md, "Quick-resolve: the unit as fielded"): a squad whose upgrade makes
    it hit on 3+ and Fearless hits on 3+ and never flees."""
    from dataclasses import replace

    from listbuilder.engine.effects import AddRule, ChangeStat
    from listbuilder.engine.model import Upgrade
    from listbuilder.engine.resolve import quick_resolve

    system, cat = op
    guards = cat.find_unit("Guardsmen")
    boyz = cat.find_unit("Ork Boyz")
    assert isinstance(guards, Datasheet) and isinstance(boyz, Datasheet)
    drilled = replace(guards, upgrades=(*guards.upgrades, Upgrade(
        name="Drilled", pts=10, effects=(ChangeStat("quality", -1), AddRule("Fearless")))))
    plain = quick_resolve(system, cat, Side.of(drilled, 10), Side.of(boyz, 10),
                          {"action": "Walk"})
    better = quick_resolve(system, cat, Side.of(drilled, 10, ["Drilled"]), Side.of(boyz, 10),
                           {"action": "Walk"})
    assert f"to hit on {guards.quality}+" in " ".join(plain.steps)
    assert f"to hit on {guards.quality - 1}+" in " ".join(better.steps)
    shot = quick_resolve(system, cat, Side.of(boyz, 10), Side.of(drilled, 10, ["Drilled"]),
                         {"action": "Walk"})
    assert chance_of(shot, "flees") == 0 < chance_of(shot, "must test")


def test_a_vox_caster_or_runtherd_rerolls_a_failed_morale_test(op) -> None:
    from listbuilder.engine.resolve import quick_resolve

    system, cat = op
    boyz, guards, grots = (cat.find_unit(n) for n in ("Ork Boyz", "Guardsmen", "Gretchin"))
    for target, upgrade in ((guards, "Vox Caster"), (grots, "Runtherd")):
        assert isinstance(target, Datasheet)
        fail = 1 - Fraction(7 - target.quality, 6)
        without = quick_resolve(system, cat, Side.of(boyz, 20), Side.of(target, 10),
                                {"action": "Walk"})
        kept = quick_resolve(system, cat, Side.of(boyz, 20), Side.of(target, 10, [upgrade]),
                             {"action": "Walk", "defender_models": 10})
        assert chance_of(without, "must test") == chance_of(kept, "must test") > 0
        assert chance_of(kept, "flees") == chance_of(without, "flees") * fail
