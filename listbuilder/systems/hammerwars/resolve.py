"""Hammer Wars attacks, exactly: each die of an attack line against the target's armor class.

A die hits when it scores the line's number for the target's armor or more, after the
modifiers (cover -1 unless the attacker Ignores Cover, Duty's +1); a 6 always hits. Each hit
costs the target one life. Fixed attacks (Energy Pulse, Trample Attack, a goal's attack,
dangerous terrain) hit on their own number and ignore every modifier. A `*` line or attack
also rolls one die at each other enemy unit within 2" of the target.
"""

from __future__ import annotations

from fractions import Fraction

from listbuilder.engine.dice import Dist
from listbuilder.engine.resolve import (
    Chance,
    Option,
    Outcome,
    ResolveError,
    Resolver,
    Result,
    Side,
    Situation,
    kill_summary,
    percent,
)
from listbuilder.systems.hammerwars.model import (
    Attack,
    FixedAttack,
    HammerWarsCatalog,
    HwUnit,
)

LINES = "attack lines"
IGNORES_COVER = "Ignores Cover"
MAX_NEARBY = 6


def _units(attacker: Side[HwUnit], defender: Side[HwUnit]) -> tuple[HwUnit, HwUnit, int]:
    """The two units, and how many copies of the attacker roll together ("4x Assault
    Infantry": four units' dice at one target). A target is one unit: its lives are its own."""
    for side in (attacker, defender):
        if len(side.members) != 1:
            raise ResolveError(f"{side.label}: a Hammer Wars unit is one model; name one unit")
    if defender.members[0].count != 1:
        raise ResolveError(f"{defender.label}: the target is one unit (each has its own lives); "
                           f"name it without a count")
    return attacker.unit, defender.unit, attacker.members[0].count


def fixed_attacks(catalog: HammerWarsCatalog, unit: HwUnit) -> dict[str, FixedAttack]:
    """The fixed attacks this unit may make: its rules', every goal's, and terrain's."""
    out: dict[str, FixedAttack] = {}
    for name in unit.special_rules:
        rule = catalog.hw_rule(name)
        if rule is not None and rule.attack is not None:
            out[rule.name] = rule.attack
    for goal in catalog.goals:
        if goal.attack is not None:
            out[f"{goal.name} (goal)"] = goal.attack
    for terrain in catalog.terrain:
        if terrain.attack is not None:
            out[terrain.name] = terrain.attack
    return out



def hit_chance(need: int, modifier: int, natural_hit: int = 6) -> Fraction:
    """One die: natural hits always count; otherwise the modified roll must reach `need`."""
    faces = sum(1 for roll in range(1, 7) if roll >= natural_hit or roll + modifier >= need)
    return Fraction(faces, 6)


def _dice(each: int, copies: int) -> str:
    """"1 die", or with copies "4 units x 1 die = 4 dice": the working says what it rolls."""
    one = f"{each} {'die' if each == 1 else 'dice'}"
    return one if copies == 1 else f"{copies} units x {one} = {each * copies} dice"


def _line(line: Attack, armor: str, modifier: int, natural: int) -> tuple[int, Fraction, bool]:
    return line.dice, hit_chance(line.to_hit(armor), modifier, natural), line.blast


class HammerWarsResolver(Resolver[HammerWarsCatalog, HwUnit]):
    """Hammer Wars' quick-resolve: a unit's attack lines (or a fixed attack) at one unit."""

    copies_fight_alone = True  # a roster entry is one of its copies

    def options(self, catalog: HammerWarsCatalog, attacker: Side[HwUnit],
                defender: Side[HwUnit]) -> tuple[Option, ...]:
        a, d = attacker.unit, defender.unit
        modes = [LINES, *fixed_attacks(catalog, a)]
        out = [Option.pick("attack", "Attack", modes, LINES,
                           "The unit's attack lines, or a fixed attack (a rule's, a goal's, "
                           "dangerous terrain's) that ignores every modifier.")]
        if len(a.attacks) > 1:
            lines = ["all", *(f"line {i + 1}" for i in range(len(a.attacks)))]
            out.append(Option.pick("line", "Attack line", lines, "all",
                                   "Each line may pick its own target: which lines aim at this "
                                   "one."))
        out += [
            Option.flag("cover", "Target in cover",
                        "At least half the target is in cover or hidden by terrain: -1 to hit "
                        "(not for Ignores Cover or fixed attacks)."),
            Option.flag("duty", "Duty declared",
                        "The attacker is within 2\" of its revealed Duty objective: +1 to hit."),
            Option.number("lives", "Target's lives left", 1, d.lives, d.lives,
                          f"{d.name} has {d.lives} lives when unhurt."),
            Option.number("nearby", "Other enemy units within 2\" of the target", 0, MAX_NEARBY, 0,
                          "Each takes one extra die from a * line or attack (same armor as the "
                          "target assumed)."),
        ]
        if "Energy Pulse" in modes:
            out.append(Option.number("pulse", "Energy Pulse attacks on the target", 1, 2, 2,
                                     "The marker may stay put, so a target can be caught by both "
                                     "of its attacks."))
        return tuple(out)

    def resolve(self, catalog: HammerWarsCatalog, attacker: Side[HwUnit], defender: Side[HwUnit],
                situation: Situation) -> Result:
        a, d, copies = _units(attacker, defender)
        lives = int(situation["lives"])
        nearby = int(situation["nearby"])
        mode = str(situation["attack"])
        steps: list[str] = []
        dice_groups: list[tuple[int, Fraction, bool]] = []  # dice, chance per die, blast
        if mode == LINES:
            modifier = 0
            why = []
            if situation["cover"]:
                if IGNORES_COVER in a.special_rules:
                    why.append("cover ignored")
                else:
                    modifier -= 1
                    why.append("cover -1")
            if situation["duty"]:
                modifier += 1
                why.append("Duty +1")
            chosen = str(situation.get("line", "all"))
            for i, line in enumerate(a.attacks):
                if chosen not in ("all", f"line {i + 1}"):
                    continue
                dice, p, star = _line(line, d.armor, modifier, catalog.combat.natural_hit)
                dice_groups.append((dice * copies, p, star))
                steps.append(f"line {i + 1}: {_dice(line.dice, copies)} "
                             f"needing {line.to_hit(d.armor)}+ against {d.armor} armor"
                             f"{' (' + ', '.join(why) + ')' if why else ''}: "
                             f"{percent(p)} a die ({p})")
        else:
            attack = fixed_attacks(catalog, a).get(mode)
            if attack is None:
                raise ResolveError(f"{a.name} has no attack {mode!r}")
            if copies != 1 and mode not in a.special_rules:
                raise ResolveError(f"{mode} is not {a.name}'s own attack, so copies of it don't "
                                   f"add to it: name one {a.name}")
            repeats = int(situation.get("pulse", 1)) if mode == "Energy Pulse" else 1
            p = Fraction(7 - attack.hits_on, 6)
            dice = attack.dice * repeats
            dice_groups.append((dice * copies, p, attack.blast))
            steps.append(f"{mode}: {_dice(dice, copies)} hitting on "
                         f"{attack.hits_on}+, no modifiers: {percent(p)} a die ({p})")

        if not dice_groups:
            raise ResolveError("no attack line chosen")
        hits = Dist.point(0)
        for dice, p, _ in dice_groups:
            hits = hits + Dist.binomial(dice, p)
        lost = hits.clamp(0, lives)
        outcome = Outcome("lives_lost", f"Lives lost by {d.name}", lost,
                          labels=tuple(str(i) for i in range(lives + 1)), kill_at=lives)
        chances: list[Chance] = []
        # Each attacking unit rolls its own * line, so a nearby unit takes one die per copy
        # (docs/rules-notes.md, "Blast dice with copies").
        blast = [p for _, p, is_blast in dice_groups if is_blast]
        if blast and nearby:
            each = Dist.point(0)
            for p in blast:
                each = each + Dist.binomial(copies, p)
            chances.append(Chance(f"Each of the {nearby} nearby units loses a life (* dice)",
                                  each.at_least(1)))
            per = "one more die" if copies == 1 else f"{copies} more dice (one a unit)"
            steps.append(f"* : {per} at each of {nearby} nearby "
                         f"{'unit' if nearby == 1 else 'units'}")
        return Result(system="hammerwars", attacker=attacker.label, defender=d.name,
                      summary=kill_summary(outcome), outcome=outcome, chances=tuple(chances),
                      steps=tuple(steps))


RESOLVER = HammerWarsResolver()
