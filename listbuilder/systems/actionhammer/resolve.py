"""ActionHammer attacks, exactly: Skill tests, saves with AP, wounds, models and morale.

Each attack is a D6 Skill test. Hit modifiers (the two stances, penalties for shooting while
charging or engaged, Heavy, Stealthy, Hex) are summed and capped to -1..+1; a Stunned unit on
either side overrides all others. An unmodified 6 always hits and is a critical hit; an
unmodified 1 always misses, except for a unit in the Attacking stance. Each hit is saved on a
D6 of the Save or more after AP (ranged attacks: +1 in cover, AP 1 better from higher ground);
a 6 always saves and a 1 never does. Each unsaved hit is one wound; wounds go to the damaged
model first, and to a Bodyguard's models before its Leader. The result is the wounds dealt,
the models destroyed and the chance the unit then has to test morale, and fails.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from listbuilder.engine.dice import Dist, Prob, chance
from listbuilder.engine.effects import Fielded
from listbuilder.engine.resolve import (
    Chance,
    Member,
    Option,
    Outcome,
    ResolveError,
    Resolver,
    Result,
    Side,
    Situation,
    dice_text,
    kill_summary,
    percent,
)
from listbuilder.systems.actionhammer.model import ActionHammerCatalog, Datasheet, Stance, Weapon

ALL_RANGED, ALL_MELEE = "all ranged", "all melee"
MAX_MODELS = 60
# Sample weapon features and abilities that change an attack (data/actionhammer/abilities.yaml)
KEEN, DEADLY, BLAST, HEAVY, RAPID = "Keen", "Deadly", "Blast", "Heavy", "Rapid"
FRENZY, STEALTHY, FEARLESS = "Frenzy", "Stealthy", "Fearless"
BLAST_PER = 5  # Blast: +1 attack for every 5 models in the target unit
STEALTHY_RANGE = 18
AhSide = Side[Datasheet]  # one datasheet, or a Bodyguard with its Leader



def _fielded(member: Member[Datasheet]) -> Fielded[Datasheet, Weapon]:
    """A side's unit as fielded: its stats and weapons after its upgrades."""
    return member.unit.fielded(member.count, member.upgrades)


def _sheets(side: AhSide) -> list[Datasheet]:
    out = [_fielded(member).unit for member in side.members]
    if len(out) > 2 or (len(out) == 2 and not out[1].is_leader):
        raise ResolveError(f"{side.label}: a unit is one datasheet, or a Bodyguard + its Leader")
    return out


def _weapons(side: AhSide) -> list[Weapon]:
    return [c.weapon for m in side.members for c in _fielded(m).weapons]


def _stances(cat: ActionHammerCatalog, sheet: Datasheet) -> list[str]:
    return [s.name for s in cat.stances if s.open_to(sheet) or not s.chosen]


@dataclass(frozen=True)
class Volley:
    """One weapon's attacks, with its per-attack chances of a plain hit and a critical hit."""

    weapon: Weapon
    models: int
    attacks: int
    need: int  # Skill
    modifier: int
    plain: Fraction
    critical: Fraction

    @property
    def ranged(self) -> bool:
        return not self.weapon.melee


def hit_modifier(cat: ActionHammerCatalog, own: Stance, target: Stance,
                 penalties: Iterable[int]) -> int:
    """Stances plus penalties, capped; a Stunned stance on either side overrides the rest."""
    if own.overrides_modifiers or target.overrides_modifiers:
        return ((own.own_hit if own.overrides_modifiers else 0)
                + (target.enemy_hit if target.overrides_modifiers else 0))
    return cat.dice.capped(own.own_hit + target.enemy_hit + sum(penalties))


def hit_chances(cat: ActionHammerCatalog, need: int, modifier: int,
                ones_fail: bool) -> tuple[Fraction, Fraction]:
    """(plain hit, critical hit) chances of one attack."""
    dice = cat.dice
    plain = crit = 0
    for roll in range(1, dice.sides + 1):
        if roll >= dice.critical_hit:
            crit += 1
        elif roll >= dice.always_succeeds:
            plain += 1
        elif roll <= dice.always_fails and ones_fail:
            continue
        elif roll + modifier >= need:
            plain += 1
    return chance(plain, dice.sides), chance(crit, dice.sides)


def save_fails(cat: ActionHammerCatalog, save: int, modifier: int) -> Fraction:
    """Chance a save fails: a 6 always saves, a 1 never does, else roll + modifier >= Save."""
    dice = cat.dice
    saved = sum(1 for roll in range(1, dice.sides + 1)
                if roll >= dice.always_succeeds
                or (roll > dice.always_fails and roll + modifier >= save))
    return 1 - chance(saved, dice.sides)


def _stance(cat: ActionHammerCatalog, name: object) -> Stance:
    found = cat.stance(str(name))
    if found is None:
        raise ResolveError(f"no stance {name!r}")
    return found


def volleys(cat: ActionHammerCatalog, attacker: AhSide, defender_models: int,
            situation: Situation, stealthy_target: bool = False) -> list[Volley]:
    pick = str(situation["weapon"])
    own = _stance(cat, situation["attacker_stance"])
    target = _stance(cat, situation["defender_stance"])
    out = []
    for i, member in enumerate(attacker.members):
        fielded = _fielded(member)
        sheet = fielded.unit
        models = int(situation["attacker_models"]) if i == 0 else fielded.models
        for carried in fielded.weapons:
            w = carried.weapon
            # a weapon every model carries fires from every model left; one a few carry,
            # from those (casualties taken from the others first)
            firing = models if carried.models >= fielded.models else min(carried.models, models)
            if pick not in ((ALL_MELEE if w.melee else ALL_RANGED), w.name):
                continue
            penalties = []
            if situation.get("charge_shot"):
                penalties.append(cat.game.charge_shot_penalty)
            if situation.get("hexed"):
                penalties.append(-1)
            if not w.melee:
                if situation.get("engaged"):
                    penalties.append(cat.game.engaged_shot_penalty)
                if HEAVY in w.features and situation.get("moved"):
                    penalties.append(-1)
                if situation.get("far") and stealthy_target:
                    penalties.append(-1)
            modifier = hit_modifier(cat, own, target, penalties)
            att = w.att
            if RAPID in w.features and situation.get("half_range") and not w.melee:
                att += 1
            if BLAST in w.features:
                att += defender_models // BLAST_PER
            if w.melee and FRENZY in sheet.special_rules and situation.get("charged"):
                att += 1
            plain, crit = hit_chances(cat, w.sk, modifier, own.ones_fail)
            out.append(Volley(w, firing, firing * att, w.sk, modifier, plain, crit))
    if not out:
        raise ResolveError(f"{attacker.label} has no weapon {pick!r} to use here")
    return out


@dataclass(frozen=True)
class Target:
    """The defending unit as a line of wounds: a Bodyguard's models, then its Leader's."""

    sheets: tuple[Datasheet, ...]
    models: tuple[int, ...]  # models left of each sheet
    wounds_lost: int  # on the first model

    @property
    def total_wounds(self) -> int:
        return sum(s.wounds * n for s, n in zip(self.sheets, self.models, strict=True)) \
            - self.wounds_lost

    @property
    def total_models(self) -> int:
        return sum(self.models)

    def member_at(self, dealt: int) -> int:
        """Which of the sheets the next wound goes to, after `dealt` wounds."""
        position = dealt + self.wounds_lost
        for i, (sheet, n) in enumerate(zip(self.sheets, self.models, strict=True)):
            if position < sheet.wounds * n:
                return i
            position -= sheet.wounds * n
        return len(self.sheets) - 1

    def destroyed(self, dealt: int) -> int:
        position = dealt + self.wounds_lost
        out = 0
        for sheet, n in zip(self.sheets, self.models, strict=True):
            whole = min(n, position // sheet.wounds)
            out += whole
            if whole < n:
                break
            position -= sheet.wounds * n
        return out


def unsaved_chance(cat: ActionHammerCatalog, v: Volley, sheet: Datasheet,
                   situation: Situation) -> Fraction:
    ap = v.weapon.ap
    bonus = 0
    if v.ranged:
        if situation.get("higher_ground"):
            ap += cat.terrain.higher_ground_ap
        if situation.get("cover"):
            bonus += cat.terrain.cover_save_bonus
    plain = save_fails(cat, sheet.save, ap + bonus)
    if DEADLY in v.weapon.features:
        crit: Fraction = Fraction(1)
    elif KEEN in v.weapon.features:
        crit = save_fails(cat, sheet.save, ap - 1 + bonus)
    else:
        crit = plain
    return v.plain * plain + v.critical * crit


def wounds_dealt(cat: ActionHammerCatalog, shots: Sequence[Volley], target: Target,
                 situation: Situation) -> Dist:
    """Wounds dealt, capped at what the unit has left."""
    cap = target.total_wounds
    if len({s.save for s in target.sheets}) == 1:  # one Save: each attack wounds alike
        total = Dist.point(0)
        for v in shots:
            total = total + Dist.binomial(v.attacks, unsaved_chance(cat, v, target.sheets[0],
                                                                    situation))
        return total.clamp(0, cap)
    # Saves differ between the Bodyguard and its Leader: follow the wounds attack by attack.
    dealt = Dist.point(0)
    for v in shots:
        by_member = [unsaved_chance(cat, v, s, situation) for s in target.sheets]
        dealt = dealt.climb(v.attacks, {d: by_member[target.member_at(d)] for d in range(cap)},
                            cap)
    return dealt


# Rules that re-roll a failed morale test. The sample Vox Caster may do so once a game: quick
# resolve takes it as not yet spent (docs/rules-notes.md).
MORALE_REROLLS = ("Vox Caster",)


def morale_fails(cat: ActionHammerCatalog, sheets: Sequence[Datasheet]) -> Fraction:
    best = min(s.morale for s in sheets)  # the best Morale in the unit rolls
    fails = save_fails(cat, best, 0)
    if any(rule in s.special_rules for s in sheets for rule in MORALE_REROLLS):
        return fails * fails
    return fails


def _morale(cat: ActionHammerCatalog, sheets: Sequence[Datasheet], target: Target,
            dealt: Dist, situation: Situation, defender: AhSide) -> tuple[Prob, Prob]:
    """Chance the unit, still alive, is at half its start or less; and that it then fails."""
    zero: Prob = Fraction(0)
    if any(FEARLESS in s.special_rules for s in sheets):
        return zero, zero
    fails = morale_fails(cat, sheets)
    divisor = cat.game.morale_divisor
    test = zero
    start = max(int(situation.get("defender_start", target.models[0])), target.models[0])
    start += sum(_fielded(m).models for m in defender.members[1:])
    if start > 1:  # a multi-model unit counts models; a single model counts its Wounds
        for v, p in dealt.items():
            left = target.total_models - target.destroyed(v)
            if left > 0 and left * divisor <= start:
                test += p
    else:
        wounds = sheets[0].wounds
        for v, p in dealt.items():
            left = target.total_wounds - v
            if left > 0 and left * divisor <= wounds:
                test += p
    return test, test * fails


def _describe(cat: ActionHammerCatalog, v: Volley, sheet: Datasheet,
              situation: Situation) -> str:
    mod = f"{v.modifier:+d}" if v.modifier else "no modifier"
    return (f"{v.weapon.name}: {dice_text(v.attacks)} at Skill {v.need}+ ({mod}), "
            f"{percent(v.plain + v.critical)} to hit ({percent(v.critical)} critical); "
            f"{sheet.name} saves on {sheet.save}+ against AP {v.weapon.ap}: "
            f"{percent(unsaved_chance(cat, v, sheet, situation))} of attacks wound")


class ActionHammerResolver(Resolver[ActionHammerCatalog, Datasheet]):
    """ActionHammer's quick-resolve: a unit's volleys at a target unit, saves and morale."""

    def default_models(self, unit: Datasheet) -> int:
        return unit.min_models

    def options(self, cat: ActionHammerCatalog, attacker: AhSide,
                defender: AhSide) -> tuple[Option, ...]:
        try:
            a, d = _sheets(attacker), _sheets(defender)
        except ResolveError:
            return ()
        weapons = _weapons(attacker)
        ranged = [w for w in weapons if not w.melee]
        picks = ([ALL_RANGED] if ranged else []) + ([ALL_MELEE] if len(ranged) < len(weapons)
                                                    else [])
        picks += [w.name for w in weapons if w.name not in picks]
        out = [Option.pick("weapon", "Weapons", picks, picks[0],
                           "Every ranged or every melee weapon of the unit, or one weapon."),
               Option.pick("attacker_stance", "Attacker's stance", _stances(cat, a[0]), "Regular",
                           "Attacking: +1 to hit, a 1 is not an automatic miss, enemies +1 to hit "
                           "it. Defensive: -1 both ways. Stunned overrides every other modifier."),
               Option.pick("defender_stance", "Target's stance", _stances(cat, d[0]), "Regular",
                           "The target's stance changes the attacker's hit rolls the same way.")]
        a_models = _fielded(attacker.members[0]).models
        d_models = _fielded(defender.members[0]).models
        out.append(Option.number("attacker_models", f"{a[0].name}: models", 1,
                                 max(a[0].max_models, a_models), a_models,
                                 "Models of the attacking unit that fight."))
        if max(d[0].max_models, d_models) > 1:
            out.append(Option.number("defender_models", f"{d[0].name}: models left", 1,
                                     max(d[0].max_models, d_models), d_models,
                                     "Models of the target unit still on the table."))
            out.append(Option.number("defender_start", f"{d[0].name}: starting models", 1,
                                     max(d[0].max_models, d_models), d_models,
                                     "Its size at the start of the game, for the morale test."))
        out.append(Option.number("wounds_lost", f"{d[0].name}: wounds already lost", 0,
                                 d[0].wounds - 1, 0,
                                 "Wounds a model of the target has already lost (the next "
                                 "go to it)."))
        if ranged:
            out += [Option.flag("cover", "Target in cover", "Most of the target's models in "
                                                            "cover: +1 to saves against ranged "
                                                            "attacks."),
                    Option.flag("higher_ground", "Firing from higher ground",
                                "4\" up, at a target all on the ground: AP 1 better for ranged "
                                "attacks."),
                    Option.flag("engaged", "Shooting while engaged",
                                "The attacker is within 2\" of enemies: -1 to hit when shooting.")]
        out.append(Option.flag("charge_shot", "Shot before charging",
                               "The attacker shot its charge target first: -1 to hit for the rest "
                               "of its activation."))
        features = {f for w in weapons for f in w.features}
        if HEAVY in features:
            out.append(Option.flag("moved", "Attacker moved", "Heavy weapons get -1 to hit unless "
                                                              "the unit remained stationary."))
        if RAPID in features:
            out.append(Option.flag("half_range", "Within half range",
                                   "Rapid weapons get +1 attack within half their range."))
        if any(STEALTHY in s.special_rules for s in d):
            out.append(Option.flag("far", f"More than {STEALTHY_RANGE}\" away",
                                   "Stealthy targets give -1 to hit from beyond 18\"."))
        if any(FRENZY in s.special_rules for s in a):
            out.append(Option.flag("charged", "Attacker charged",
                                   "Frenzy: +1 Att to melee weapons when the unit charges."))
        out.append(Option.flag("hexed", "Attacker hexed", "Under an enemy Hex: -1 to hit."))
        return tuple(out)

    def resolve(self, cat: ActionHammerCatalog, attacker: AhSide, defender: AhSide,
                situation: Situation) -> Result:
        _sheets(attacker)
        d = _sheets(defender)
        first = int(situation.get("defender_models", _fielded(defender.members[0]).models))
        models = (first, *(_fielded(m).models for m in defender.members[1:]))
        target = Target(tuple(d), models, int(situation["wounds_lost"]))
        if target.wounds_lost >= d[0].wounds:
            raise ResolveError(f"{d[0].name} has {d[0].wounds} wounds a model: wounds_lost is "
                               f"0 to {d[0].wounds - 1}")
        stealthy = any(STEALTHY in s.special_rules for s in d)
        shots = volleys(cat, attacker, target.total_models, situation, stealthy)
        dealt = wounds_dealt(cat, shots, target, situation)
        steps = [_describe(cat, v, d[0], situation) for v in shots]
        lost = dealt.map(target.destroyed)
        total = target.total_models
        one_model = total == 1
        wounds_out = Outcome("wounds", f"Wounds dealt to {defender.label}", dealt,
                             labels=tuple(str(i) for i in range(target.total_wounds + 1)),
                             kill_at=target.total_wounds,
                             kill_word="kill" if one_model else "wipe out")
        models_out = Outcome("models_lost", f"Models destroyed in {defender.label}", lost,
                             labels=tuple(str(i) for i in range(total + 1)), kill_at=total,
                             kill_word="wipe out")
        headline, other = (wounds_out, models_out) if one_model else (models_out, wounds_out)
        test, fail = _morale(cat, d, target, dealt, situation, defender)
        chances = (Chance(f"{defender.label}: must test morale at its next activation", test),
                   Chance(f"{defender.label}: fails it and is Stunned", fail))
        summary = kill_summary(headline) + (f", {percent(fail)} it is Stunned by morale"
                                            if fail else "")
        return Result(system="actionhammer", attacker=attacker.label, defender=defender.label,
                      summary=summary, outcome=headline, others=(other,), chances=chances,
                      steps=tuple(steps))


RESOLVER = ActionHammerResolver()
