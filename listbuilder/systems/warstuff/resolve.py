"""WarStuff attacks, exactly: the Quality table to hit, the wound roll, and the special rules.

To hit, the attacker needs 4+ when both Qualities are equal, one less per point the defender is
lower and one more per point it is higher (a 6 at worst, a 2 at best). A hit is then rolled
on: a D6 plus the Wounds the defender has already taken, above its Quality, kills; otherwise
it takes a Wound. Every special rule that changes an attack is applied in a fixed order, one
state (wounds, killed, stunned) at a time: Sweep Attack before the attack; Tough, Deadly, the
wound roll, Regeneration and Poison on each hit; Fire's and Vicious' extra attacks after it;
Elite's morale test last. Readings of unclear points: docs/rules-notes.md (WarStuff).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from listbuilder.engine.dice import Branches, Dist, Prob, StateDist
from listbuilder.engine.resolve import (
    Chance,
    Option,
    Outcome,
    ResolveError,
    Resolver,
    Result,
    Side,
    Situation,
    percent,
)
from listbuilder.systems.warstuff.model import WarStuffCatalog, WarStuffUnit

MELEE, SHOOTING, ENTANGLE = "melee", "shooting", "Entangle"
SHOOTERS = ("Shooter (Short)", "Shooter (Medium)", "Shooter (Long)")
MAX_WOUNDS = 8
FIRE_QUALITY, VICIOUS_QUALITY = 3, 0  # the extra attacks' own Quality
STUNNED_QUALITY = 0
D6 = Dist.die(6)
D3 = Dist.die(6).map(lambda roll: (roll + 1) // 2)

# A state of the target: Wounds taken in all, killed, stunned.
State = tuple[int, bool, bool]



def _unit(side: Side[WarStuffUnit]) -> WarStuffUnit:
    # copies each fight alone (a roster's entry gives one of them): a count would label a
    # fight the working doesn't make
    if len(side.members) != 1 or side.members[0].count != 1:
        raise ResolveError(f"{side.label}: a WarStuff unit is one model and each copy fights "
                           f"on its own; name one unit, without a count")
    return side.unit


def modes(unit: WarStuffUnit) -> list[str]:
    out = [MELEE]
    if any(r in unit.special_rules for r in SHOOTERS):
        out.insert(0, SHOOTING)
    if ENTANGLE in unit.special_rules:
        out.append(ENTANGLE)
    return out


def to_hit(attacker_quality: int, defender_quality: int) -> int:
    """The score needed: 4+ at equal Quality, one step per point of difference, 2+ to 6+."""
    return min(6, max(2, 4 + defender_quality - attacker_quality))


@dataclass(frozen=True)
class Context:
    """The rules and bonuses in play for one attack sequence."""

    attacker: WarStuffUnit
    defender: WarStuffUnit
    mode: str
    cover: bool

    def has(self, side: WarStuffUnit, rule: str) -> bool:
        return rule in side.special_rules

    def attack_bonus(self) -> int:
        """The attacker's own bonuses to its main attack (Frenzy's D3 apart)."""
        a, d = self.attacker, self.defender
        bonus = 0
        if self.mode == SHOOTING:
            bonus += self.has(a, "Power Shot") + self.has(d, "Large")
        elif self.mode == MELEE:
            bonus += self.has(a, "Power Strike")
            bonus += self.has(a, "Large") and not self.has(d, "Large")
            bonus += self.has(d, "Small") and not self.has(a, "Small")
        return int(bonus)

    def defence_bonus(self) -> int:
        """The defender's bonuses against any attack of this sequence, extra attacks too."""
        a, d = self.attacker, self.defender
        bonus = int(self.has(d, "Armored"))
        if self.mode in (SHOOTING, ENTANGLE):
            in_cover = self.cover or self.has(d, "Camouflaged")
            if in_cover:
                bonus += max(1, 2 * self.has(d, "Camouflaged"), 3 * self.has(d, "Stealthy"))
            bonus += self.has(d, "Small")
        else:
            bonus += self.has(d, "Large") and not self.has(a, "Large")
            bonus += self.has(a, "Small") and not self.has(d, "Small")
        return int(bonus)


def _defender_quality(ctx: Context, stunned: bool) -> int:
    base = STUNNED_QUALITY if stunned else ctx.defender.quality
    return base + ctx.defence_bonus()


def _faces(n: int) -> int:
    """Faces of a D6 that do something, clamped to 0..6."""
    return max(0, min(6, n))


def _hit_effects(ctx: Context, state: State, own_rules: bool) -> Branches[State]:
    """One hit that got through: Tough, Deadly, the wound roll, Regeneration, Poison.

    Weights are over 6 x 36 x 6 x 6: Tough's die, Deadly's die then the wound roll, the
    Regeneration die and the Poison die.
    """
    wounds, _, stunned = state
    a, d = ctx.attacker, ctx.defender
    tough = 3 if ctx.has(d, "Tough") else 0  # ignored on 4+
    lands = 6 - tough
    deadly = 1 if own_rules and ctx.has(a, "Deadly") else 0  # kills on a 6
    kill_faces = _faces(6 - (_defender_quality(ctx, stunned) - wounds))  # D6 + wounds > Q
    killing = 6 * deadly + (6 - deadly) * kill_faces  # over 36
    wounding = 36 - killing
    regen = 3 if ctx.has(d, "Regeneration") else 0  # a kill becomes a Wound on 4+
    poison = 3 if own_rules and ctx.has(a, "Poison") and not ctx.has(d, "Undead") else 0
    out = [(tough * 36 * 36, state),
           (lands * killing * (6 - regen) * 6, (wounds, True, stunned))]
    for weight in (lands * killing * regen, lands * wounding * 6):
        out.append((weight * (6 - poison), (wounds + 1, False, stunned)))
        out.append((weight * poison, (wounds + 2, False, stunned)))
    return 6 * 36 * 6 * 6, out


def _attack(ctx: Context, state: State, quality: Dist | None, own_rules: bool,
            fixed_need: int | None = None) -> Branches[State]:
    """A whole attack on a living target: the roll to hit, then the hit's effects."""
    wounds, killed, stunned = state
    if killed:
        return 1, [(1, state)]
    if fixed_need is not None:
        hit, hit_den = _faces(7 - fixed_need), 6
    else:
        assert quality is not None and quality.exact
        target = _defender_quality(ctx, stunned)
        hit = sum(int(w) * _faces(7 - to_hit(q, target))
                  for q, w in zip(quality.values(), quality.weights, strict=True))
        hit_den = int(quality.den) * 6
    miss = hit_den - hit
    if ctx.mode == ENTANGLE and own_rules:
        tough = 3 if ctx.has(ctx.defender, "Tough") else 0
        return hit_den * 6, [(miss * 6, state), (hit * tough, state),
                             (hit * (6 - tough), (wounds, False, True))]
    den, effects = _hit_effects(ctx, state, own_rules)
    return hit_den * den, [(miss * den, state), *((hit * w, t) for w, t in effects)]


def _morale(ctx: Context, state: State, unit: WarStuffUnit) -> Branches[State]:
    """A morale test: a D6 above the unit's Quality stuns it (Undead: kills; Fearless passes)."""
    wounds, killed, stunned = state
    if killed or ctx.has(unit, "Fearless"):
        return 1, [(1, state)]
    fails = _faces(6 - (STUNNED_QUALITY if stunned else unit.quality))
    failed = (wounds, True, stunned) if ctx.has(unit, "Undead") else (wounds, False, True)
    return 6, [(6 - fails, state), (fails, failed)]


def _sweep(state: State) -> Branches[State]:
    """Sweep Attack: a 6 before the attack stuns the target."""
    wounds, killed, _ = state
    return (1, [(1, state)]) if killed else (6, [(5, state), (1, (wounds, False, True))])


def _fire(ctx: Context, state: State) -> Branches[State]:
    """Fire: on a 4+ the target suffers one more attack at Quality 3."""
    den, attack = _attack(ctx, state, Dist.point(FIRE_QUALITY), False)
    return 2 * den, [(den, state), *attack]


def sequence(ctx: Context, start: State) -> StateDist[State]:
    a, d = ctx.attacker, ctx.defender
    state: StateDist[State] = StateDist.certain(start)
    if ctx.mode == MELEE and ctx.has(a, "Sweep Attack") and not ctx.has(d, "Sweep Attack") \
            and not (ctx.has(d, "Large") and not ctx.has(a, "Large")):
        state = state.step_weighted(_sweep)
    quality = Dist.point(a.quality + ctx.attack_bonus())
    if ctx.mode == MELEE and ctx.has(a, "Frenzy"):
        quality = quality + D3
    if ctx.mode == ENTANGLE:
        state = state.step_weighted(lambda s: _attack(ctx, s, None, True, fixed_need=4))
    else:
        state = state.step_weighted(lambda s: _attack(ctx, s, quality, True))
    if ctx.has(a, "Fire"):
        state = state.step_weighted(lambda s: _fire(ctx, s))
    if ctx.mode == MELEE and ctx.has(a, "Vicious"):
        state = _vicious(ctx, state)
    if ctx.mode == MELEE and ctx.has(a, "Elite") and not ctx.has(d, "Elite"):
        state = state.step_weighted(lambda s: _morale(ctx, s, d))
    return state


def _vicious(ctx: Context, state: StateDist[State]) -> StateDist[State]:
    """D3 extra attacks at Quality 0: follow 1, 2 and 3 attacks, then mix them by the D3."""
    zero = Dist.point(VICIOUS_QUALITY)
    after: list[tuple[Prob, StateDist[State]]] = []
    current = state
    for n in range(1, 4):
        current = current.step_weighted(lambda s: _attack(ctx, s, zero, False))
        after.append((D3.prob(n), current))
    return StateDist.mix(after)


def _steps(ctx: Context, wounds: int, stunned: bool) -> list[str]:
    a, d = ctx.attacker, ctx.defender
    dq = _defender_quality(ctx, stunned)
    aq = a.quality + ctx.attack_bonus()
    out = []
    if ctx.mode == ENTANGLE:
        out.append("Entangle hits on 4+ and stuns; it never wounds")
    else:
        frenzy = " + D3 (Frenzy)" if ctx.mode == MELEE and ctx.has(a, "Frenzy") else ""
        out.append(f"{a.name} attacks at Quality {aq}{frenzy} against {dq}"
                   + ("" if frenzy else f": hits on {to_hit(aq, dq)}+"))
        out.append(f"a hit kills when a D6 + {wounds} Wounds beats Quality {dq}")
    for rule in ("Tough", "Regeneration", "Undead"):
        if ctx.has(d, rule):
            out.append(f"{d.name}: {rule}")
    rules = {SHOOTING: ("Deadly", "Poison", "Fire"), ENTANGLE: ("Fire",)}.get(
        ctx.mode, ("Deadly", "Poison", "Fire", "Vicious", "Sweep Attack", "Elite"))
    out += [f"{a.name}: {rule}" for rule in rules if ctx.has(a, rule)]
    return out


class WarStuffResolver(Resolver[WarStuffCatalog, WarStuffUnit]):
    """WarStuff's quick-resolve: one attack, shooting or in melee, and what it leaves."""

    copies_fight_alone = True  # a roster entry is one of its copies

    def options(self, catalog: WarStuffCatalog, attacker: Side[WarStuffUnit],
                defender: Side[WarStuffUnit]) -> tuple[Option, ...]:
        a = attacker.unit
        available = modes(a)
        return (
            Option.pick("attack", "Attack", available, available[0],
                        "A melee attack, a shooting attack (Shooter), or Entangle's stunning "
                        "shot."),
            Option.flag("cover", "Target in cover",
                        "In or behind cover: +1 Quality against shooting (Camouflaged +2, "
                        "Stealthy +3; Camouflaged units always count as in cover)."),
            Option.number("wounds", "Target's Wounds already taken", 0, MAX_WOUNDS, 0,
                          "Each Wound adds 1 to the roll that kills it."),
            Option.flag("stunned", "Target stunned", "A stunned unit counts as Quality 0."),
        )

    def resolve(self, cat: WarStuffCatalog, attacker: Side[WarStuffUnit],
                defender: Side[WarStuffUnit], situation: Situation) -> Result:
        a, d = _unit(attacker), _unit(defender)
        mode = str(situation["attack"])
        if mode not in modes(a):
            raise ResolveError(f"{a.name} can't make a {mode} attack; "
                               f"it can: {', '.join(modes(a))}")
        ctx = Context(a, d, mode, bool(situation["cover"]))
        start_wounds = int(situation["wounds"])
        stunned = bool(situation["stunned"])
        final = sequence(ctx, (start_wounds, False, stunned))
        most = max((s[0] - start_wounds for s in final.weights), default=0)
        killed_value = most + 1
        dist = final.to_dist(lambda s: killed_value if s[1] else s[0] - start_wounds)
        labels = tuple(["no wound", "1 wound", *(f"{i} wounds" for i in range(2, most + 1)),
                        "killed"])
        outcome = Outcome("effect", f"What {a.name} does to {d.name}", dist, labels=labels,
                          kill_at=killed_value)
        new_stun = Fraction(0) if stunned else final.prob(lambda s: s[2] and not s[1])
        nothing = final.prob(lambda s: not s[1] and s[0] == start_wounds and s[2] == stunned)
        chances = [Chance("No effect", nothing), Chance(f"{d.name} killed", outcome.dist.at_least(
            killed_value)), Chance(f"{d.name} stunned (and alive)", new_stun)]
        if mode == MELEE and ctx.has(d, "Elite") and not ctx.has(a, "Elite"):
            tested = StateDist.certain((0, False, False)).step_weighted(
                lambda s: _morale(ctx, s, a))
            chances.append(Chance(f"{a.name} stunned by {d.name}'s Elite",
                                  tested.prob(lambda s: s[2])))
        if mode == MELEE and ctx.has(d, "Death Blow"):
            chances.append(Chance(f"{d.name}'s Death Blow strikes back",
                                  outcome.dist.at_least(killed_value)))
        steps = _steps(ctx, start_wounds, stunned)
        kill = outcome.dist.at_least(killed_value)
        stun = f", {percent(new_stun)} to stun" if new_stun else ""
        summary = f"{percent(kill)} to kill{stun}"
        return Result(system=cat.system, attacker=a.name, defender=d.name,
                      summary=summary, outcome=outcome, chances=tuple(chances), steps=tuple(steps))


RESOLVER = WarStuffResolver()
