"""WarStuff quick-resolve: the Quality table, the wound roll and every rule that changes an
attack. Expected values are worked out by hand from the rule text, as fractions."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from montecarlo import TRIALS, assert_chance, assert_matches, simulate

from listbuilder.engine.dice import Roller
from listbuilder.engine.library import Library
from listbuilder.engine.registry import get_system
from listbuilder.engine.resolve import ResolveError, Result, Side, quick_resolve, resolve_names
from listbuilder.engine.system import RuleSystem
from listbuilder.systems.warstuff.model import WarStuffCatalog, WarStuffUnit
from listbuilder.systems.warstuff.resolve import to_hit

Pair = tuple[RuleSystem, WarStuffCatalog]


@pytest.fixture(scope="module")
def ws(library: Library) -> Pair:
    catalog = library.catalog("warstuff")
    assert isinstance(catalog, WarStuffCatalog)
    return get_system("warstuff"), catalog


def run(ws: Pair, attacker: str, defender: str, **settings: object) -> Result:
    return resolve_names(ws[0], ws[1], attacker, defender, settings)


def made(name: str, quality: int, *rules: str) -> Side:
    return Side.of(WarStuffUnit(name=name, quality=quality, special_rules=rules, pts=0))


def run_units(ws: Pair, attacker: Side | str, defender: Side | str, **settings: object) -> Result:
    system, catalog = ws

    def side(x: Side | str) -> Side:
        if isinstance(x, Side):
            return x
        unit = catalog.find_unit(x)
        assert unit is not None
        return Side.of(unit)
    return quick_resolve(system, catalog, side(attacker), side(defender), settings)


def killed(r: Result) -> Fraction | float:
    p = r.outcome.p_kill
    assert p is not None
    return p


def chance_of(r: Result, part: str) -> Fraction | float:
    return next(c.p for c in r.chances if part in c.label)


def test_equal_qualities(ws) -> None:
    r = run(ws, "Human Warrior", "Orc Warrior")
    # 4+ to hit; then a D6 above Quality 2 kills, else a Wound
    assert killed(r) == Fraction(1, 2) * Fraction(4, 6)
    assert r.outcome.dist.prob(1) == Fraction(1, 2) * Fraction(2, 6)
    assert r.outcome.labels == ("no wound", "1 wound", "killed")
    assert r.summary == "33% to kill"


def test_quality_gaps_beyond_two_stay_at_2_or_6(ws) -> None:
    """The table stops at two points either way; beyond it a 6 still hits and a 1 still
    misses, so Quality 1 can hurt Quality 5 and the reverse is never certain."""
    assert [to_hit(2, q) for q in (0, 1, 2, 3, 4)] == [2, 3, 4, 5, 6]
    assert to_hit(1, 5) == 6 and to_hit(5, 0) == 2
    up = run(ws, "Goblin Warrior", "Stegosaurus")  # 1 against 4
    assert killed(up) == Fraction(1, 6) * Fraction(2, 6)
    down = run(ws, "Stegosaurus", "Goblin Warrior")
    assert killed(down) == Fraction(5, 6) * Fraction(5, 6)


def test_wounds_add_to_the_kill_roll(ws) -> None:
    r = run(ws, "Human Warrior", "Orc Warrior", wounds=2)
    assert killed(r) == Fraction(1, 2)  # D6 + 2 always beats Quality 2


def test_the_wound_roll_uses_the_modified_quality(ws) -> None:
    """A bonus 'when attacked' (Armored, cover, Large, Small) lasts the whole attack: the kill
    roll must beat the same Quality the hit was rolled against."""
    armored = run(ws, "Human Warrior", "Captain America")  # 3 + Armored = 4 against 2
    assert killed(armored) == Fraction(1, 6) * Fraction(2, 6)
    cover = run(ws, "Human Archer", "Human Warrior", cover="yes")  # 2 + 1 in cover
    assert killed(cover) == Fraction(2, 6) * Fraction(3, 6)
    assert killed(run(ws, "Human Archer", "Human Warrior")) == Fraction(1, 3)


def test_cover_bonuses_take_the_best_not_the_sum(ws) -> None:
    """Camouflaged (always in cover, +2) with Stealthy (+3 in cover) gives +3, the better of
    the two, not +5; cover never helps in melee."""
    archer = "Human Archer"
    both = run_units(ws, archer, made("Ghost", 2, "Camouflaged", "Stealthy"))
    assert killed(both) == Fraction(1, 6) * Fraction(1, 6)  # Quality 5: 6+, then a 6
    camo = run_units(ws, archer, made("Ghost", 2, "Camouflaged"))
    assert killed(camo) == Fraction(1, 6) * Fraction(2, 6)  # Quality 4
    stealthy_open = run_units(ws, archer, made("Ghost", 2, "Stealthy"))
    assert killed(stealthy_open) == Fraction(1, 3)
    stealthy_cover = run_units(ws, archer, made("Ghost", 2, "Stealthy"), cover="yes")
    assert killed(stealthy_cover) == Fraction(1, 36)
    melee = run_units(ws, "Human Warrior", made("Ghost", 2, "Camouflaged"), cover="yes")
    assert killed(melee) == Fraction(1, 3)


def test_a_stunned_target_is_quality_0_plus_its_bonuses(ws) -> None:
    """A stunned unit's Quality is 0; bonuses such as Armored still add to that 0."""
    r = run(ws, "Human Warrior", "Orc Warrior", stunned="yes")
    assert killed(r) == Fraction(5, 6)  # 2+ to hit, and any D6 beats 0
    armored = run(ws, "Human Warrior", "Captain America", stunned="yes")
    assert killed(armored) == Fraction(4, 6) * Fraction(5, 6)  # Quality 1: 3+, then 2+


def test_large_small_and_power_rules(ws) -> None:
    # Small target: melee attackers get +1, shooters face +1
    assert killed(run(ws, "Human Warrior", "Scarab Swarm")) == Fraction(4, 6) * Fraction(4, 6)
    assert killed(run(ws, "Human Archer", "Scarab Swarm")) == Fraction(2, 6) * Fraction(3, 6)
    # Large target: shooters get +1, in melee it gets +1 against units that are not Large
    assert killed(run(ws, "Human Archer", "Eldar Jetbike")) == Fraction(4, 6) * Fraction(4, 6)
    assert killed(run(ws, "Human Warrior", "Eldar Jetbike", attack="melee")) == (
        Fraction(2, 6) * Fraction(3, 6))
    # Power Strike: +1 in melee (Zombie 1 against Goblin 1)
    assert killed(run(ws, "Zombie", "Goblin Warrior")) == Fraction(4, 6) * Fraction(5, 6)
    shot = run_units(ws, made("Marksman", 2, "Power Shot", "Shooter (Long)"), "Human Warrior")
    assert killed(shot) == Fraction(4, 6) * Fraction(4, 6)


def test_frenzy_adds_a_d3_to_each_melee_attack(ws) -> None:
    r = run(ws, "Joker", "Stegosaurus", attack="melee")  # 3 + D3 against 4
    hit = Fraction(1, 3) * (Fraction(3, 6) + Fraction(4, 6) + Fraction(5, 6))
    assert killed(r) == hit * Fraction(2, 6)


def test_order_of_effects_on_a_hit(ws) -> None:
    """On each hit: Tough may ignore it (and everything it would do); then Deadly's 6 kills
    before the wound roll; a kill from either may become a Wound by Regeneration; Poison adds
    a Wound to a target still alive (never to Undead)."""
    deadly = run(ws, "Minotaur", "Stegosaurus")  # 5+ to hit; 1/6 Deadly, else D6 > 4
    assert killed(deadly) == Fraction(2, 6) * (Fraction(1, 6) + Fraction(5, 6) * Fraction(2, 6))
    tough = run(ws, "Human Warrior", "Bane")  # 6+, half ignored, then D6 > 4
    assert killed(tough) == Fraction(1, 6) * Fraction(1, 2) * Fraction(2, 6)
    poison = run(ws, "Skink Warrior", "Goblin Warrior")  # shoots: 4+, D6 > 1 kills
    assert killed(poison) == Fraction(1, 2) * Fraction(5, 6)
    assert poison.outcome.dist.prob(1) == poison.outcome.dist.prob(2) == Fraction(1, 24)
    undead = run(ws, "Skink Warrior", "Skeleton")
    assert undead.outcome.labels == ("no wound", "1 wound", "killed")  # no second Wound
    regen = run_units(ws, "Human Warrior", made("Troll King", 2, "Regeneration"))
    assert killed(regen) == Fraction(1, 2) * Fraction(4, 6) * Fraction(1, 2)
    assert regen.outcome.dist.prob(1) == Fraction(1, 2) * (Fraction(2, 6) + Fraction(4, 6) / 2)
    tough_deadly = run_units(ws, made("Hunter", 4, "Deadly"), "Bane")  # 4+, Tough, 6 or D6 > 4
    assert killed(tough_deadly) == Fraction(1, 2) * Fraction(1, 2) * (
        Fraction(1, 6) + Fraction(5, 6) * Fraction(2, 6))


def test_extra_attacks_use_their_own_quality_only(ws) -> None:
    """Fire's extra attack (Quality 3) and Vicious' (Quality 0) are made at that Quality:
    none of the attacker's own rules or bonuses apply to them, the target's defences do."""
    fire = run(ws, "Wizard", "Human Warrior")  # shoots at 2 vs 2, then Fire on a 4+
    # main: kill 1/3, wound 1/6, miss 1/2; Fire (3+) then kills on D6 + wounds > 2
    expected = (Fraction(1, 3) + Fraction(1, 2) * Fraction(1, 2) * Fraction(2, 3) * Fraction(4, 6)
                + Fraction(1, 6) * Fraction(1, 2) * Fraction(2, 3) * Fraction(5, 6))
    assert killed(fire) == expected == Fraction(53, 108)
    striker = run_units(ws, made("Pyro", 2, "Fire", "Power Strike"), "Human Warrior",
                        attack="melee")
    # main attack at 3 (Power Strike), the Fire attack still at 3, not 4
    expected = (Fraction(4, 9) + Fraction(1, 3) * Fraction(1, 2) * Fraction(4, 9)
                + Fraction(2, 9) * Fraction(1, 2) * Fraction(5, 9))
    assert killed(striker) == expected == Fraction(47, 81)


def test_elite_test_comes_after_the_attack(ws) -> None:
    """Elite's morale test is taken once the attack is over, so it never lowers the target's
    Quality for that attack; a failed test stuns (Undead: kills; Fearless: never fails)."""
    r = run(ws, "Thor", "Loki")  # 4 against 4
    assert killed(r) == Fraction(1, 2) * Fraction(2, 6)
    assert chance_of(r, "stunned") == (1 - Fraction(1, 6)) * Fraction(2, 6)  # D6 above 4
    assert r.summary == "17% to kill, 28% to stun"
    undead = run(ws, "Thor", "Skeleton")
    first = Fraction(5, 6) * Fraction(5, 6)
    assert killed(undead) == first + (1 - first) * Fraction(5, 6)
    back = run(ws, "Loki", "Thor")
    assert chance_of(back, "Loki stunned by Thor's Elite") == Fraction(2, 6)
    fearless = run_units(ws, "Thor", made("Warden", 2, "Fearless"))
    assert chance_of(fearless, "stunned") == 0


def test_sweep_attack_stuns_before_the_attack(ws) -> None:
    r = run(ws, "Saurus Warrior", "Human Warrior")  # 3 against 2
    swept = Fraction(1, 6)
    assert killed(r) == swept * Fraction(5, 6) + (1 - swept) * Fraction(4, 6) * Fraction(4, 6)
    assert chance_of(r, "stunned") == swept * Fraction(1, 6)
    large = run(ws, "Saurus Warrior", "Elephant")  # larger targets are immune
    assert chance_of(large, "stunned") == 0


def test_entangle_stuns_on_4_and_never_wounds(ws) -> None:
    r = run(ws, "Giant Spider", "Knight (Fantasy)", attack="Entangle")
    assert r.outcome.dist.prob(0) == 1
    assert chance_of(r, "stunned") == Fraction(1, 2)
    assert chance_of(run(ws, "Giant Spider", "Bane", attack="Entangle"),
                     "stunned") == Fraction(1, 4)
    with pytest.raises(ResolveError, match="not allowed"):
        run(ws, "Human Warrior", "Bane", attack="Entangle")


def test_every_quickplay_pair_resolves_and_sums_to_one(ws) -> None:
    system, catalog = ws
    units = catalog.units[::7]
    for a in units:
        for d in units:
            for mode in system.resolver().options(catalog, Side.of(a), Side.of(d))[0].choices:
                r = quick_resolve(system, catalog, Side.of(a), Side.of(d), {"attack": mode})
                assert sum(p for _, p in r.outcome.dist.items()) == 1


# -- Monte Carlo of the rule text ----------------------------------------------------------

class Sim:
    """One attack sequence played out with dice, following the rules as the notes read them."""

    def __init__(self, r: Roller, a: WarStuffUnit, d: WarStuffUnit, mode: str, cover: bool,
                 wounds: int) -> None:
        self.r, self.a, self.d, self.mode, self.cover = r, a, d, mode, cover
        self.wounds, self.dead, self.stunned = wounds, False, False

    def has(self, unit: WarStuffUnit, rule: str) -> bool:
        return rule in unit.special_rules

    def defence(self) -> int:
        a, d = self.a, self.d
        q = (0 if self.stunned else d.quality) + self.has(d, "Armored")
        if self.mode == "shooting":
            if self.cover or self.has(d, "Camouflaged"):
                q += 3 if self.has(d, "Stealthy") else 2 if self.has(d, "Camouflaged") else 1
            q += self.has(d, "Small")
        else:
            q += self.has(d, "Large") and not self.has(a, "Large")
            q += self.has(a, "Small") and not self.has(d, "Small")
        return q

    def attack(self, quality: int, own: bool) -> None:
        if self.dead:
            return
        target = self.defence()
        need = min(6, max(2, 4 + target - quality))
        if self.r.d6() < need:
            return
        if self.has(self.d, "Tough") and self.r.d6() >= 4:
            return
        kill = own and self.has(self.a, "Deadly") and self.r.d6() == 6
        if not kill:
            kill = self.r.d6() + self.wounds > target
        if kill and not (self.has(self.d, "Regeneration") and self.r.d6() >= 4):
            self.dead = True
            return
        self.wounds += 1
        if own and self.has(self.a, "Poison") and not self.has(self.d, "Undead") \
                and self.r.d6() >= 4:
            self.wounds += 1

    def play(self) -> tuple[int, bool]:
        a, d = self.a, self.d
        start = self.wounds
        melee = self.mode == "melee"
        if melee and self.has(a, "Sweep Attack") and not self.has(d, "Sweep Attack") and not (
                self.has(d, "Large") and not self.has(a, "Large")) and self.r.d6() == 6:
            self.stunned = True
        q = a.quality
        if self.mode == "shooting":
            q += self.has(a, "Power Shot") + self.has(d, "Large")
        else:
            q += self.has(a, "Power Strike") + (self.has(a, "Large") and not self.has(d, "Large"))
            q += self.has(d, "Small") and not self.has(a, "Small")
            if self.has(a, "Frenzy"):
                q += self.r.d3()
        self.attack(q, True)
        if self.has(a, "Fire") and self.r.d6() >= 4:
            self.attack(3, False)
        if melee and self.has(a, "Vicious"):
            for _ in range(self.r.d3()):
                self.attack(0, False)
        if melee and self.has(a, "Elite") and not self.has(d, "Elite") and not self.dead \
                and not self.has(d, "Fearless"):
            base = 0 if self.stunned else d.quality
            if self.r.d6() > base:
                if self.has(d, "Undead"):
                    self.dead = True
                else:
                    self.stunned = True
        return (-1 if self.dead else self.wounds - start), self.stunned and not self.dead


@pytest.mark.parametrize(("attacker", "defender", "settings", "seed"), [
    ("Loki", "Thor", {}, 31),
    ("Dragon", "Troll", {"attack": "melee"}, 32),
    ("Genestealer", "Vampire", {"wounds": 1}, 33),
    ("Joker", "Superman", {"attack": "melee"}, 34),
    ("Saurus Warrior", "Human Warrior", {}, 35),
    ("Skink Warrior", "Ghoul", {"cover": "yes"}, 36),
    ("Thor", "Zombie", {}, 37),
    ("Wizard", "Scarab Swarm", {"cover": "yes"}, 38),
])
def test_matches_a_monte_carlo_of_the_rule_text(ws, attacker: str, defender: str,
                                               settings: dict[str, object], seed: int) -> None:
    a, d = ws[1].find_unit(attacker), ws[1].find_unit(defender)
    assert isinstance(a, WarStuffUnit) and isinstance(d, WarStuffUnit)
    exact = run(ws, attacker, defender, **settings)
    mode = str(settings.get("attack", exact.situation[0][1]))
    wounds = int(str(settings.get("wounds", 0)))
    outcomes = simulate(lambda r: Sim(r, a, d, mode, settings.get("cover") == "yes",
                                      wounds).play(), seed)
    kill_value = exact.outcome.kill_at
    assert kill_value is not None
    effect: Counter[int] = Counter()
    for (w, _), c in outcomes.items():
        effect[kill_value if w < 0 else w] += c
    assert_matches(exact.outcome.dist, effect, f"{attacker} vs {defender}")
    stunned = sum(c for (_, s), c in outcomes.items() if s)
    assert_chance(chance_of(exact, "stunned (and alive)"), stunned, TRIALS, "stunned")


def test_a_count_is_refused_rather_than_shown_and_not_rolled(ws) -> None:
    """Copies each fight on their own: '4x' would label a fight the working doesn't make."""
    from listbuilder.engine.resolve import ResolveError

    with pytest.raises(ResolveError, match="each copy fights on its own"):
        run(ws, "4x Human Warrior", "Human Warrior")
