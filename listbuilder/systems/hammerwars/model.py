"""Frozen catalog models, each built from its schema by a named constructor."""

from __future__ import annotations

from dataclasses import dataclass

from listbuilder.engine.model import (
    BUILTIN,
    Catalog,
    Faction,
    Origin,
    SpecialRule,
    Unit,
    named,
)
from listbuilder.systems.hammerwars.schema import (
    ActionModel,
    AttackModel,
    CombatModel,
    DeploymentModel,
    FactionModel,
    FixedAttackModel,
    GoalModel,
    MoraleLossModel,
    MoraleModel,
    ObjectivesModel,
    PoolSlotModel,
    RuleModel,
    TerrainModel,
    UnitModel,
)


@dataclass(frozen=True, kw_only=True)
class Attack:
    """One attack line of a unit card: dice to roll and the score needed per armor class."""

    dice: int
    blast: bool  # the card's "*": extra dice against enemies near the target
    light: int
    medium: int
    heavy: int

    @classmethod
    def from_schema(cls, model: AttackModel) -> Attack:
        return cls(dice=model.dice, blast=model.blast, light=model.light, medium=model.medium,
                   heavy=model.heavy)

    def to_hit(self, armor: str) -> int:
        return {"Light": self.light, "Medium": self.medium, "Heavy": self.heavy}[armor]


@dataclass(frozen=True, kw_only=True)
class FixedAttack:
    """An attack made by a rule, goal or terrain: hits on a fixed score, ignoring modifiers."""

    dice: int
    blast: bool
    hits_on: int

    @classmethod
    def from_schema(cls, model: FixedAttackModel | None) -> FixedAttack | None:
        if model is None:
            return None
        return cls(dice=model.dice, blast=model.blast, hits_on=model.hits_on)


@dataclass(frozen=True, kw_only=True)
class HwUnit(Unit):
    """A unit card. Every unit is a single model."""

    role: str
    pts: int
    xp: int
    move: int
    lives: int
    armor: str
    range: int
    attacks: tuple[Attack, ...]
    examples: tuple[str, ...] = ()

    @classmethod
    def from_schema(cls, model: UnitModel, origin: Origin) -> HwUnit:
        return cls(name=model.name, category=model.category, role=model.role, pts=model.pts,
                   xp=model.xp, move=model.move, lives=model.lives, armor=model.armor,
                   range=model.range, attacks=tuple(Attack.from_schema(a) for a in model.attacks),
                   special_rules=tuple(model.rules), examples=tuple(model.examples),
                   origin=origin)


@dataclass(frozen=True, kw_only=True)
class PoolSlot:
    """How many models of one category the unit pool holds."""

    category: str
    plural: str
    models: int
    origin: Origin = BUILTIN

    @classmethod
    def from_schema(cls, model: PoolSlotModel, origin: Origin) -> PoolSlot:
        return cls(category=model.category, plural=model.plural, models=model.models,
                   origin=origin)


@dataclass(frozen=True, kw_only=True)
class HwFaction(Faction):
    goals: tuple[str, ...] = ()  # the two goals it may pick from

    @classmethod
    def from_schema(cls, model: FactionModel, origin: Origin) -> HwFaction:
        return cls(name=model.name, goals=tuple(model.goals), origin=origin)


@dataclass(frozen=True, kw_only=True)
class Goal:
    name: str
    text: str
    vp: int
    attack: FixedAttack | None = None
    origin: Origin = BUILTIN

    @classmethod
    def from_schema(cls, model: GoalModel, origin: Origin) -> Goal:
        return cls(name=model.name, text=model.text, vp=model.vp,
                   attack=FixedAttack.from_schema(model.attack), origin=origin)


@dataclass(frozen=True, kw_only=True)
class HwRule(SpecialRule):
    attack: FixedAttack | None = None

    @classmethod
    def from_schema(cls, model: RuleModel, origin: Origin) -> HwRule:
        return cls(name=model.name, text=model.text,
                   attack=FixedAttack.from_schema(model.attack), origin=origin)


@dataclass(frozen=True, kw_only=True)
class Deployment:
    pts_per_round: int
    xp_per_round: int
    pts_kept: bool  # unspent pts carry over to the next round
    xp_kept: bool
    zone: int  # inches from the own table edge
    enemy_gap: int  # inches kept from enemy units

    @classmethod
    def from_schema(cls, model: DeploymentModel) -> Deployment:
        return cls(pts_per_round=model.pts_per_round, xp_per_round=model.xp_per_round,
                   pts_kept=model.pts_kept, xp_kept=model.xp_kept, zone=model.zone,
                   enemy_gap=model.enemy_gap)


@dataclass(frozen=True, kw_only=True)
class MoraleLoss:
    name: str
    text: str
    every: int  # the event must happen this many times per loss
    morale: int
    opponent_vp: int

    @classmethod
    def from_schema(cls, model: MoraleLossModel) -> MoraleLoss:
        return cls(name=model.name, text=model.text, every=model.every, morale=model.morale,
                   opponent_vp=model.opponent_vp)


@dataclass(frozen=True, kw_only=True)
class Morale:
    start: int
    zero_vp: int  # the opponent's reward when morale reaches 0
    losses: tuple[MoraleLoss, ...]

    @classmethod
    def from_schema(cls, model: MoraleModel) -> Morale:
        return cls(start=model.start, zero_vp=model.zero_vp,
                   losses=tuple(MoraleLoss.from_schema(m) for m in model.losses))


@dataclass(frozen=True, kw_only=True)
class Action:
    name: str
    move: int  # times the unit may move its Move value
    shoot: bool
    text: str
    origin: Origin = BUILTIN

    @classmethod
    def from_schema(cls, model: ActionModel, origin: Origin) -> Action:
        return cls(name=model.name, move=model.move, shoot=model.shoot, text=model.text,
                   origin=origin)


@dataclass(frozen=True, kw_only=True)
class Terrain:
    name: str
    text: str
    examples: tuple[str, ...] = ()
    hit_modifier: int = 0  # to attack rolls against units inside
    forbids: tuple[str, ...] = ()  # actions that may not pass through it
    attack: FixedAttack | None = None  # taken by a unit entering or crossing it
    origin: Origin = BUILTIN

    @classmethod
    def from_schema(cls, model: TerrainModel, origin: Origin) -> Terrain:
        return cls(name=model.name, text=model.text, examples=tuple(model.examples),
                   hit_modifier=model.hit_modifier, forbids=tuple(model.forbids),
                   attack=FixedAttack.from_schema(model.attack), origin=origin)


@dataclass(frozen=True, kw_only=True)
class Combat:
    natural_hit: int  # a die showing this always hits
    blast_range: int
    blast_dice: int  # extra dice per enemy unit within blast_range of the target

    @classmethod
    def from_schema(cls, model: CombatModel) -> Combat:
        return cls(natural_hit=model.natural_hit, blast_range=model.blast_range,
                   blast_dice=model.blast_dice)


@dataclass(frozen=True, kw_only=True)
class Objectives:
    markers: int
    seize_range: int
    edge_gap: int  # inches from the long table edges to the outer markers

    @classmethod
    def from_schema(cls, model: ObjectivesModel) -> Objectives:
        return cls(markers=model.markers, seize_range=model.seize_range,
                   edge_gap=model.edge_gap)


@dataclass(frozen=True, kw_only=True)
class HammerWarsCatalog(Catalog[HwUnit]):
    factions: tuple[HwFaction, ...] = ()
    rules: tuple[HwRule, ...] = ()
    pool: tuple[PoolSlot, ...]
    goals: tuple[Goal, ...]
    deployment: Deployment
    morale: Morale
    actions: tuple[Action, ...]
    terrain: tuple[Terrain, ...]
    combat: Combat
    objectives: Objectives

    def hw_faction(self, name: str) -> HwFaction | None:
        return named(self.factions, name)

    def hw_rule(self, name: str) -> HwRule | None:
        return named(self.rules, name)

    def goal(self, name: str) -> Goal | None:
        return next((g for g in self.goals if g.name.casefold() == name.casefold()), None)

    def pool_slot(self, category: str) -> PoolSlot | None:
        return next((s for s in self.pool if s.category.casefold() == category.casefold()), None)
