"""What every YAML file of data/hammerwars/ may hold: all sections optional, files merged."""


from typing import Annotated, Literal

from pydantic import Field, field_validator

from listbuilder.engine.schema import Count, Name, Points, Schema, Text, in_range

ArmorClass = Literal["Light", "Medium", "Heavy"]
Role = Literal["Assault", "Ranged", "Support"]
Inches = Annotated[int, in_range(0, 100)]
ToHit = Annotated[int, in_range(2, 6)]
Dice = Annotated[int, in_range(1, 20)]
Small = Annotated[int, in_range(0, 20)]


class AttackModel(Schema):
    dice: Dice
    blast: bool = False
    light: ToHit
    medium: ToHit
    heavy: ToHit


class FixedAttackModel(Schema):
    dice: Dice
    blast: bool = False
    hits_on: ToHit


class UnitModel(Schema):
    name: Name
    category: Name
    role: Role
    pts: Points
    xp: Small = 0
    move: Inches
    lives: Count
    armor: ArmorClass
    range: Inches
    attacks: list[AttackModel] = Field(min_length=1, max_length=10)
    rules: list[Name] = Field(default_factory=list, max_length=20)
    examples: list[Name] = Field(default_factory=list, max_length=20)


class PoolSlotModel(Schema):
    category: Name
    plural: Name
    models: Count


class FactionModel(Schema):
    name: Name
    goals: list[Name] = Field(min_length=2, max_length=2)

    @field_validator("goals")
    @classmethod
    def _distinct(cls, goals: list[str]) -> list[str]:
        if len({g.casefold() for g in goals}) != len(goals):
            raise ValueError("the two goals must differ")
        return goals


class GoalModel(Schema):
    name: Name
    text: Text
    vp: Small
    attack: FixedAttackModel | None = None


class RuleModel(Schema):
    name: Name
    text: Text
    attack: FixedAttackModel | None = None


class DeploymentModel(Schema):
    pts_per_round: Small
    xp_per_round: Small
    pts_kept: bool
    xp_kept: bool
    zone: Inches
    enemy_gap: Inches


class MoraleLossModel(Schema):
    name: Name
    text: Text
    every: Count = 1
    morale: Small
    opponent_vp: Small = 0


class MoraleModel(Schema):
    start: Count
    zero_vp: Small
    losses: list[MoraleLossModel] = Field(default_factory=list, max_length=20)


class ActionModel(Schema):
    name: Name
    move: Small
    shoot: bool
    text: Text


class TerrainModel(Schema):
    name: Name
    text: Text
    examples: list[Name] = Field(default_factory=list, max_length=20)
    hit_modifier: Annotated[int, in_range(-5, 5)] = 0
    forbids: list[Name] = Field(default_factory=list, max_length=10)
    attack: FixedAttackModel | None = None


class CombatModel(Schema):
    natural_hit: ToHit
    blast_range: Inches
    blast_dice: Dice


class ObjectivesModel(Schema):
    markers: Count
    seize_range: Inches
    edge_gap: Inches


class HammerWarsFile(Schema):
    """One YAML file; every section is optional and the files are merged."""

    sample: bool = False
    pool: list[PoolSlotModel] = Field(default_factory=list)
    units: list[UnitModel] = Field(default_factory=list)
    factions: list[FactionModel] = Field(default_factory=list)
    goals: list[GoalModel] = Field(default_factory=list)
    rules: list[RuleModel] = Field(default_factory=list)
    deployment: DeploymentModel | None = None
    morale: MoraleModel | None = None
    actions: list[ActionModel] = Field(default_factory=list)
    terrain: list[TerrainModel] = Field(default_factory=list)
    combat: CombatModel | None = None
    objectives: ObjectivesModel | None = None
