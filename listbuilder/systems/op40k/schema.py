"""The YAML edge of One Page 40k: the schema every file under data/op40k/ obeys."""


from typing import Annotated, Literal

from pydantic import Field

from listbuilder.engine.effects import EFFECTS_HINT, EffectModel
from listbuilder.engine.schema import Name, Points, Schema, Text, in_range

Fire = Literal["none", "one-unit", "reaction", "all-weapons", "one-weapon"]
DamageEffect = Literal["test-to-activate", "hold-only", "destroyed"]
Lasts = Literal["next-activation", "rest-of-game"]
Keep = Literal["lowest", "highest"]
RollKind = Literal["shooting", "block"]
Kind = Literal["unit", "vehicle"]

Inches = Annotated[int, in_range(0, 120)]
Quality = Annotated[int, in_range(2, 6)]
Size = Annotated[int, in_range(1, 100)]
Roll = Annotated[int, in_range(1, 6)]
ExtraDice = Annotated[int, in_range(0, 3)]


class SetupModel(Schema):
    table_width_ft: Annotated[int, in_range(1, 20)]
    table_depth_ft: Annotated[int, in_range(1, 20)]
    min_terrain_pieces: Annotated[int, in_range(0, 50)]
    deploy_within: Inches
    rounds: Annotated[int, in_range(1, 20)]
    coherency: Inches
    unit_spacing: Inches
    assault_pile_in: Inches
    flee_dice: Annotated[int, in_range(1, 6)]


class ActionModel(Schema):
    name: Name
    move: Inches
    fire: Fire
    shooting_dice: ExtraDice = 0
    assault: bool = False
    open_terrain_only: bool = False
    text: Text


class DamageModel(Schema):
    roll_min: Roll
    roll_max: Roll
    effect: DamageEffect
    lasts: Lasts
    text: Text


class FacingModel(Schema):
    name: Name
    dice: Annotated[int, in_range(1, 2)]
    keep: Keep | None = None
    text: Text


class ModifierModel(Schema):
    name: Name
    roll: RollKind
    dice: Annotated[int, in_range(1, 3)]
    vehicles: bool
    text: Text


class NoteModel(Schema):
    name: Name
    text: Text


class SystemModel(Schema):
    die: Literal[6]
    setup: SetupModel
    unit_actions: list[ActionModel] = Field(min_length=1)
    vehicle_actions: list[ActionModel] = Field(min_length=1)
    vehicle_damage: list[DamageModel] = Field(min_length=1)
    facings: list[FacingModel] = Field(min_length=1)
    modifiers: list[ModifierModel] = Field(default_factory=list)
    reference: list[NoteModel] = Field(default_factory=list)


class ArmyModel(Schema):
    points_limit: Annotated[int, in_range(1, 1_000_000)]


class WeaponModel(Schema):
    name: Name
    range: Inches


class UpgradeModel(Schema):
    name: Name
    pts: Points
    per_model: bool = False
    text: Text  # for the card
    effects: list[EffectModel] = Field(default_factory=list, description=EFFECTS_HINT)


class UnitModel(Schema):
    name: Name
    faction: Name
    kind: Kind = "unit"
    size: Size
    min_size: Size | None = None
    max_size: Size | None = None
    quality: Quality
    pts_per_model: Points
    equipment: list[Name] = Field(default_factory=list)
    special_rules: list[Name] = Field(default_factory=list)
    upgrades: list[UpgradeModel] = Field(default_factory=list)

    def size_bounds(self) -> tuple[int, int]:
        """The sizes a roster may field; both default to the printed size (vehicles: 1)."""
        lo = self.min_size if self.min_size is not None else self.size
        hi = self.max_size if self.max_size is not None else self.size
        return lo, hi


class Op40kData(Schema):
    """One YAML file of data/op40k/. Every section is optional; the files are merged."""

    sample: bool = False
    system: SystemModel | None = None
    army: ArmyModel | None = None
    factions: list[NoteModel] = Field(default_factory=list)
    rules: list[NoteModel] = Field(default_factory=list)
    weapons: list[WeaponModel] = Field(default_factory=list)
    units: list[UnitModel] = Field(default_factory=list)


