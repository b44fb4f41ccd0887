"""The schema every YAML file under data/actionhammer/ obeys. All sections are optional; the
loader merges the files, and `build` checks what crosses files."""


from typing import Annotated, Self

from pydantic import Field, field_validator, model_validator

from listbuilder.engine.effects import EFFECTS_HINT, EffectModel
from listbuilder.engine.schema import Count, Name, Points, Schema, Text, in_range

Inches = Annotated[int, in_range(0, 100)]
Roll = Annotated[int, in_range(1, 6)]  # a D6 face; a target of 4 means "4 or more"
Target = Annotated[int, in_range(2, 6)]  # a characteristic rolled against: Save, Sk, Morale
Modifier = Annotated[int, in_range(-1, 1)]  # hit modifiers never pass the cap of 1
Penalty = Annotated[int, in_range(-6, 0)]
MELEE = "Melee"


# -- core numbers (system.yaml) ---------------------------------------------------------------

class ArmyModel(Schema):
    recommended_points: Points
    leaders_per: Count  # one Leader per this many points of the limit
    same_datasheet_per: Count  # one unit of a datasheet name per this many points
    units_per: Count  # one unit (a Leader with its Bodyguard counts once) per this many points
    character_copies: Count


class DiceModel(Schema):
    sides: Count
    critical_hit: Roll
    always_succeeds: Roll
    always_fails: Roll
    hit_modifier_cap: Count
    rerolls_per_die: Count
    d3_divisor: Count
    d3_rounds_up: bool
    advance_dice: Count
    charge_dice: Count


class DistancesModel(Schema):
    coherency_horizontal: Inches
    coherency_vertical: Inches
    coherency_spread: Inches
    engagement_horizontal: Inches
    engagement_vertical: Inches
    melee_reach: Inches
    pile_in: Inches
    consolidate: Inches
    objective_horizontal: Inches
    objective_vertical: Inches
    deployment_gap: Inches
    sight_percent: Annotated[int, in_range(1, 100)]


class TerrainModel(Schema):
    cover_save_bonus: Count
    higher_ground_height: Inches
    higher_ground_ap: Penalty
    climb_height: Inches
    dangerous_fails_on: Roll
    dangerous_wounds: Count


class GameModel(Schema):
    rounds: Count
    objectives_min: Count
    objectives_max: Count
    objective_edge_gap: Inches
    objective_gap: Inches
    vp_per_objective: Count
    vp_per_turn_max: Count
    scoring_from_round: Count
    charge_shot_penalty: Penalty
    engaged_shot_penalty: Penalty
    morale_divisor: Count  # a test is due at this fraction (1/n) of the starting size or less
    opening_stance: Name
    opening_fallback: Name  # for units that cannot take the opening stance

    @model_validator(mode="after")
    def _objectives_ordered(self) -> Self:
        if self.objectives_min > self.objectives_max:
            raise ValueError(f"objectives_min {self.objectives_min} is above objectives_max "
                             f"{self.objectives_max}: swap them")
        return self


class StanceModel(Schema):
    name: Name
    own_hit: Modifier  # to the unit's own hit rolls
    enemy_hit: Modifier  # to enemies' hit rolls against the unit
    chosen: bool = True  # False: only imposed by a rule (a failed morale test)
    overrides_modifiers: bool = False  # all other hit modifiers are ignored
    ones_fail: bool = True  # an unmodified 1 to hit fails
    control_zero: bool = False
    barred: list[Name] = Field(default_factory=list)  # keywords that may not take the stance
    grounds: list[Name] = Field(default_factory=list)  # keywords lost while in it
    text: Text


# -- sample content (abilities.yaml, factions/*.yaml) -----------------------------------------

class AbilityModel(Schema):
    name: Name
    text: Text


class FactionModel(Schema):
    name: Name
    text: Text


class WeaponModel(Schema):
    name: Name
    range: int | str = Field(description="inches (1 to 200), or Melee")
    att: Count
    sk: Target
    ap: Penalty
    features: list[Name] = Field(default_factory=list)

    @field_validator("range")
    @classmethod
    def _range(cls, value: int | str) -> int | str:
        if isinstance(value, str) and value != MELEE:
            raise ValueError(f"must be inches or {MELEE!r}, got {value!r}")
        if isinstance(value, int) and not 1 <= value <= 200:
            raise ValueError(f"must be 1 to 200 inches, got {value}")
        return value


class ModelsModel(Schema):
    min: Count
    max: Count

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}: swap them")
        return self


class UpgradeModel(Schema):
    name: Name
    pts: Points
    per_model: bool = False
    text: Text  # for the card
    effects: list[EffectModel] = Field(default_factory=list, description=EFFECTS_HINT)


class DatasheetModel(Schema):
    name: Name
    faction: Name
    keywords: list[Name] = Field(default_factory=list)
    move: Inches
    save: Target
    wounds: Count
    morale: Target
    control: Annotated[int, in_range(0, 20)]
    models: ModelsModel
    pts: Points  # per model
    weapons: list[WeaponModel] = Field(default_factory=list)
    wargear: list[WeaponModel] = Field(default_factory=list)  # weapons only upgrades give
    abilities: list[Name] = Field(default_factory=list)
    upgrades: list[UpgradeModel] = Field(default_factory=list)
    text: Text | None = None

    @field_validator("weapons", "wargear", "upgrades")
    @classmethod
    def _names_unique(cls, items: list[WeaponModel] | list[UpgradeModel]) -> object:
        names = [item.name.casefold() for item in items]
        twice = sorted({item.name for item in items if names.count(item.name.casefold()) > 1})
        if twice:
            raise ValueError(f"{', '.join(twice)} listed twice: keep one")
        return items


class ActionHammerFile(Schema):
    sample: bool = False
    army: ArmyModel | None = None
    dice: DiceModel | None = None
    distances: DistancesModel | None = None
    terrain: TerrainModel | None = None
    game: GameModel | None = None
    stances: list[StanceModel] = Field(default_factory=list)
    abilities: list[AbilityModel] = Field(default_factory=list)
    factions: list[FactionModel] = Field(default_factory=list)
    datasheets: list[DatasheetModel] = Field(default_factory=list)
