"""One Page 40k attacks, exactly: hits minus blocks, morale, and the vehicle damage table.

Shooting rolls a die per model (a vehicle: per weapon fired) needing the shooter's Quality,
+1 die on Hold (units only) and +1 from higher ground; the target blocks with a die per model
needing its own Quality, +1 in cover (never for vehicles). Each unblocked hit removes a model;
a vehicle that fails to block rolls once on the damage table, by the facing hit. In an assault
both sides strike and block at once; a side that loses more models, or is brought down to half
its size, tests morale and flees on a failure. Sample special rules that change these rolls
(Furious, Tough, Heavy, Fearless, Mob, Ramshackle) are applied as their texts say.
"""

from __future__ import annotations

from fractions import Fraction

from listbuilder.engine.dice import Dist, Prob, at_least_on
from listbuilder.engine.resolve import (
    Chance,
    Option,
    Outcome,
    ResolveError,
    Resolver,
    Result,
    Side,
    Situation,
    dice_text,
    percent,
)
from listbuilder.systems.op40k.model import Datasheet, Op40kCatalog, Weapon

SHOOTING, ASSAULT = "shooting", "assault"
MAX_MODELS = 60
OpSide = Side[Datasheet]  # an attacker or defender: one datasheet, never joined
MOB = 10  # the sample rule Mob rerolls failed morale tests while this many models strong



# Rules an upgrade gives that reroll a failed morale test (the sample Vox Caster and Runtherd).
# Mob rerolls too, while 10 strong; a test is rerolled once however many of them apply.
MORALE_REROLLS = ("Vox Caster", "Runtherd")


def _sheet(side: OpSide) -> Datasheet:
    if len(side.members) != 1:
        raise ResolveError(f"{side.label}: One Page 40k units never join; name one unit")
    return side.unit


def _fielded(cat: Op40kCatalog, side: OpSide) -> Datasheet:
    """The side's datasheet as fielded: Quality and special rules after its upgrades, as its
    card and `validate --json` show them (docs/rules-notes.md)."""
    member = side.members[0]
    return _sheet(side).fielded(cat, member.count, member.upgrades).unit


def ranged_weapons(catalog: Op40kCatalog, side: OpSide) -> tuple[Weapon, ...]:
    """The side's guns as fielded (its equipment after its upgrades), one for each model or
    mount carrying it: a Predator with sponsons has two Lascannons, so four guns to fire."""
    member = side.members[0]
    fielded = _sheet(side).fielded(catalog, member.count, member.upgrades)
    return tuple(c.weapon for c in fielded.weapons if not c.weapon.melee
                 for _ in range(c.models))


def _success(quality: int) -> Fraction:
    return at_least_on(quality)


def damage_levels(catalog: Op40kCatalog) -> tuple[str, ...]:
    """'no damage' then each damage table row's name, kindest first."""
    rows = sorted(catalog.vehicle_damage, key=lambda r: r.roll_min)
    return ("no damage", *(r.text.split(".")[0].lower() for r in rows))


def damage_roll(catalog: Op40kCatalog, facing: str, ramshackle: bool) -> Dist:
    """The damage table level (1 = first row...) one damaging hit gives, by facing."""
    face = next((f for f in catalog.facings if f.name == facing), catalog.facings[0])
    if ramshackle and face.keep == "lowest":  # Ramshackle: front hits roll like side hits
        face = next((f for f in catalog.facings if f.keep is None), face)
    rolls = Dist.die(catalog.die)
    if face.dice >= 2 and face.keep is not None:
        pairs = Dist.die(catalog.die).then(
            lambda first: rolls.map(lambda second: _keep(first, second, face.keep)))
        rolls = pairs
    rows = sorted(catalog.vehicle_damage, key=lambda r: r.roll_min)
    return rolls.map(lambda roll: 1 + next(i for i, r in enumerate(rows) if r.covers(roll)))


def _keep(a: int, b: int, keep: str | None) -> int:
    return min(a, b) if keep == "lowest" else max(a, b)


def _flee_chance(sheet: Datasheet, models_left: int) -> Fraction:
    """Chance a unit that must test fails and flees (Fearless never; Mob rerolls at 10+, a
    Vox Caster or Runtherd always)."""
    if "Fearless" in sheet.special_rules:
        return Fraction(0)
    fail = 1 - _success(sheet.quality)
    mob = "Mob" in sheet.special_rules and models_left >= MOB
    if mob or any(rule in sheet.special_rules for rule in MORALE_REROLLS):
        fail *= fail
    return fail


def _halved(before: int, lost: int) -> bool:
    left = before - lost
    return left > 0 and 2 * left <= before


def _shooting(cat: Op40kCatalog, attacker: OpSide, defender: OpSide, a: Datasheet, d: Datasheet,
              situation: Situation) -> Result:
    action = next(x for x in cat.actions_for(a) if x.name == situation["action"])
    steps = []
    if not ranged_weapons(cat, attacker):
        raise ResolveError(f"{a.name} has no ranged weapon: set attack=assault")
    if "Heavy" in a.special_rules and not a.is_vehicle and action.shooting_dice == 0:
        raise ResolveError(f"{a.name} is Heavy and fires only on Hold: set action=Hold")
    if a.is_vehicle:
        dice = int(situation["weapons"]) if action.fire == "all-weapons" else 1
        steps.append(f"{a.name}: {dice} {'weapon' if dice == 1 else 'weapons'} fired, "
                     f"a die each")
    else:
        dice = int(situation["attacker_models"]) + action.shooting_dice
        steps.append(f"{situation['attacker_models']} models shoot"
                     + (f", +{action.shooting_dice} die on {action.name}"
                        if action.shooting_dice else ""))
    extra = {m.name: m for m in cat.modifiers}
    elevation = extra.get("Elevation")
    if situation["elevation"] and elevation is not None and (elevation.vehicles
                                                             or not a.is_vehicle):
        dice += elevation.dice
        steps.append(f"+{elevation.dice} die from higher ground")
    p_hit = _success(a.quality)
    hits = Dist.binomial(dice, p_hit)
    steps.append(f"{dice_text(dice)} to hit on {a.quality}+ ({p_hit} each)")
    blocks_n, why = _block_dice(cat, d, defender_models(d, situation), situation, shooting=True)
    p_block = _success(d.quality)
    blocks = Dist.binomial(blocks_n, p_block)
    steps.append(f"{d.name}: {dice_text(blocks_n)} to block on {d.quality}+ ({p_block} each)"
                 + (f": {why}" if why else ""))
    unblocked = hits - blocks
    if d.is_vehicle:
        return _vehicle_result(cat, attacker, defender, d, unblocked, situation, steps)
    models = defender_models(d, situation)
    lost = unblocked.clamp(0, models)
    outcome = Outcome("models_lost", f"Models lost by {d.name}", lost,
                      labels=tuple(str(i) for i in range(models + 1)), kill_at=models,
                      kill_word="wipe out")
    zero: Prob = Fraction(0)
    test_p = sum((p for v, p in lost.items() if _halved(models, v)), zero)
    flee_p = sum((p * _flee_chance(d, models - v) for v, p in lost.items()
                  if _halved(models, v)), zero)
    chances = (Chance(f"{d.name}: must test morale (down to half or less)", test_p),
               Chance(f"{d.name}: flees", flee_p))
    summary = f"{percent(lost.at_least(models))} to wipe out" + (
        f", {percent(flee_p)} it flees" if flee_p else "")
    return Result(system="op40k", attacker=attacker.label, defender=defender.label,
                  summary=summary, outcome=outcome, chances=chances, steps=tuple(steps))


def defender_models(d: Datasheet, situation: Situation) -> int:
    return 1 if d.is_vehicle else int(situation["defender_models"])


def _block_dice(cat: Op40kCatalog, d: Datasheet, models: int, situation: Situation,
                shooting: bool) -> tuple[int, str]:
    n = models
    why = []
    cover = next((m for m in cat.modifiers if m.name == "Cover"), None)
    if shooting and situation.get("cover") and cover is not None:
        if d.is_vehicle and not cover.vehicles:
            why.append("no cover for vehicles")
        else:
            n += cover.dice
            why.append(f"+{cover.dice} in cover")
    if "Tough" in d.special_rules:
        n += 1
        why.append("+1 Tough")
    return n, ", ".join(why)


def _vehicle_result(cat: Op40kCatalog, attacker: OpSide, defender: OpSide, d: Datasheet,
                    unblocked: Dist, situation: Situation, steps: list[str]) -> Result:
    damaged = unblocked.at_least(1)
    facing = str(situation.get("facing", cat.facings[0].name))
    roll = damage_roll(cat, facing, "Ramshackle" in d.special_rules)
    levels = damage_levels(cat)
    level = Dist.mixture([(1 - damaged, Dist.point(0)), (damaged, roll)])
    steps.append(f"a damage roll when any hit is unblocked ({percent(damaged)}), "
                 f"hit in the {facing}")
    outcome = Outcome("damage", f"Damage to {d.name}", level, labels=levels,
                      kill_at=len(levels) - 1, kill_word="destroy")
    summary = f"{percent(level.at_least(len(levels) - 1))} to destroy"
    return Result(system="op40k", attacker=attacker.label, defender=defender.label,
                  summary=summary, outcome=outcome,
                  chances=(Chance(f"{d.name}: fails to block a hit", damaged),),
                  steps=tuple(steps))


def _assault(cat: Op40kCatalog, attacker: OpSide, defender: OpSide, a: Datasheet, d: Datasheet,
             situation: Situation) -> Result:
    if a.is_vehicle:
        raise ResolveError(f"{a.name} is a vehicle: vehicles don't assault; set attack=shooting")
    models_a = int(situation["attacker_models"])
    models_d = defender_models(d, situation)
    furious = 1 if "Furious" in a.special_rules else 0
    strikes_a = models_a + furious
    hits_a = Dist.binomial(strikes_a, _success(a.quality))
    hits_d = Dist.binomial(models_d, _success(d.quality))
    blocks_a_n, _ = _block_dice(cat, a, models_a, situation, shooting=False)
    blocks_d_n, _ = _block_dice(cat, d, models_d, situation, shooting=False)
    into_d = hits_a - Dist.binomial(blocks_d_n, _success(d.quality))
    into_a = hits_d - Dist.binomial(blocks_a_n, _success(a.quality))
    steps = [f"{a.name}: {dice_text(strikes_a)} to strike on {a.quality}+"
             + (" (+1 Furious)" if furious else "") + f", {dice_text(blocks_a_n)} to block",
             f"{d.name}: {dice_text(models_d)} to strike on {d.quality}+, "
             f"{dice_text(blocks_d_n)} to block"]
    lost_a = into_a.clamp(0, models_a)
    if d.is_vehicle:
        steps.append("the vehicle rolls on the damage table if a hit is unblocked (facing "
                     f"{situation.get('facing')})")
        roll = damage_roll(cat, str(situation.get("facing")), "Ramshackle" in d.special_rules)
        damaged = into_d.at_least(1)
        levels = damage_levels(cat)
        lost_d = Dist.mixture([(1 - damaged, Dist.point(0)), (damaged, roll)])
        outcome = Outcome("damage", f"Damage to {d.name}", lost_d, labels=levels,
                          kill_at=len(levels) - 1, kill_word="destroy")
        destroyed = lost_d.at_least(len(levels) - 1)
        def_losses = Dist.mixture([(1 - destroyed, Dist.point(0)), (destroyed, Dist.point(1))])
    else:
        lost_d = into_d.clamp(0, models_d)
        def_losses = lost_d
        outcome = Outcome("models_lost", f"Models lost by {d.name}", lost_d,
                          labels=tuple(str(i) for i in range(models_d + 1)), kill_at=models_d,
                          kill_word="wipe out")
    def kind(va: int, vd: int) -> tuple[int, bool, bool, bool, bool]:
        """Who lost more, and whether each side tests (and is still a Mob of 10+)."""
        left_a, left_d = models_a - va, models_d - vd
        d_tests = not d.is_vehicle and left_d > 0 and (vd > va or _halved(models_d, vd))
        a_tests = left_a > 0 and (va > vd or _halved(models_a, va))
        return ((vd > va) - (va > vd), d_tests, left_d >= MOB, a_tests, left_a >= MOB)

    zero: Prob = Fraction(0)
    d_loses = a_loses = draw = zero
    d_test = d_flee = a_test = a_flee = zero
    for (who, d_tests, d_mob, a_tests, a_mob), p in lost_a.joint(def_losses,
                                                                   lambda va, vd: kind(va, vd)
                                                                   ).items():
        if who > 0:
            d_loses += p
        elif who < 0:
            a_loses += p
        else:
            draw += p
        if d_tests:
            d_test += p
            d_flee += p * _flee_chance(d, MOB if d_mob else 0)
        if a_tests:
            a_test += p
            a_flee += p * _flee_chance(a, MOB if a_mob else 0)
    other = Outcome("attacker_lost", f"Models lost by {a.name}", lost_a,
                    labels=tuple(str(i) for i in range(models_a + 1)), kill_at=models_a,
                    kill_word="be wiped out")
    chances = [Chance(f"{d.name}: loses the combat", d_loses),
               Chance(f"{a.name}: loses the combat", a_loses),
               Chance("Neither side loses more models", draw)]
    if not d.is_vehicle:
        chances += [Chance(f"{d.name}: tests morale", d_test), Chance(f"{d.name}: flees", d_flee)]
    chances += [Chance(f"{a.name}: tests morale", a_test), Chance(f"{a.name}: flees", a_flee)]
    if d.is_vehicle:
        summary = f"{percent(outcome.dist.at_least(len(damage_levels(cat)) - 1))} to destroy"
    else:
        summary = f"{percent(lost_d.at_least(models_d))} to wipe out" + (
            f", {percent(d_flee)} it flees" if d_flee else "")
    return Result(system="op40k", attacker=attacker.label, defender=defender.label,
                  summary=summary, outcome=outcome, others=(other,), chances=tuple(chances),
                  steps=tuple(steps))


class Op40kResolver(Resolver[Op40kCatalog, Datasheet]):
    """One Page 40k's quick-resolve: shooting or an assault, a vehicle's damage rolls."""

    def default_models(self, unit: Datasheet) -> int:
        return unit.size  # the size the profile prints

    def options(self, cat: Op40kCatalog, attacker: OpSide, defender: OpSide) -> tuple[Option, ...]:
        a, d = attacker.unit, defender.unit
        modes = [SHOOTING] if a.is_vehicle else [SHOOTING, ASSAULT]
        actions = [x.name for x in cat.actions_for(a) if x.fire != "none"]
        default_action = actions[0]
        out = [
            Option.pick("attack", "Attack", modes, SHOOTING,
                        "Shoot, or assault (both sides strike and block; vehicles don't assault)."),
            Option.pick("action", "Shooter's action", actions, default_action,
                        "Units get +1 die on Hold; a vehicle fires every weapon on Hold, one on "
                        "Move."),
            Option.flag("elevation", "Shooting from higher ground", "+1 die to shooting."),
        ]
        if not d.is_vehicle:
            out.append(Option.flag("cover", "Target in cover",
                                   "At least half its models in cover or hidden by a tall "
                                   "obstacle: +1 block die against shooting."))
        if a.is_vehicle:
            guns = max(1, len(ranged_weapons(cat, attacker)))
            out.append(Option.number("weapons", "Weapons fired at the target", 1, guns, guns,
                                     "On Hold a vehicle may split its weapons between targets."))
        else:
            out.append(Option.number("attacker_models", f"{a.name}: models", 1,
                                     max(MAX_MODELS, attacker.members[0].fielded_models),
                                     attacker.members[0].fielded_models,
                                     "Models left in the attacking unit."))
        if d.is_vehicle:
            out.append(Option.pick("facing", "Facing hit", [f.name for f in cat.facings],
                                   cat.facings[0].name,
                                   "Front: two damage dice, the kinder counts; side: one; "
                                   "rear: two, the harsher counts."))
        else:
            out.append(Option.number("defender_models", f"{d.name}: models", 1,
                                     max(MAX_MODELS, defender.members[0].fielded_models),
                                     defender.members[0].fielded_models,
                                     "Models left in the target unit."))
        return tuple(out)

    def resolve(self, cat: Op40kCatalog, attacker: OpSide, defender: OpSide,
                situation: Situation) -> Result:
        a, d = _fielded(cat, attacker), _fielded(cat, defender)
        mode = str(situation["attack"])
        if mode == ASSAULT:
            return _assault(cat, attacker, defender, a, d, situation)
        return _shooting(cat, attacker, defender, a, d, situation)


RESOLVER = Op40kResolver()
