"""Frozen catalog models of One Page 40k, each built by a named constructor from its schema."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from listbuilder.engine.effects import Fielded, field
from listbuilder.engine.model import Catalog, Origin, Unit, Upgrade
from listbuilder.systems.op40k.schema import (
    ActionModel,
    DamageEffect,
    DamageModel,
    FacingModel,
    Fire,
    Keep,
    Kind,
    Lasts,
    ModifierModel,
    NoteModel,
    RollKind,
    SetupModel,
    UnitModel,
    WeaponModel,
)

VEHICLE = "Vehicle"  # the keyword a vehicle carries, on its card too

@dataclass(frozen=True, kw_only=True)
class Setup:
    table_width_ft: int
    table_depth_ft: int
    min_terrain_pieces: int
    deploy_within: int  # inches from the player's own table edge
    rounds: int
    coherency: int  # inches
    unit_spacing: int  # inches kept between units outside assaults
    assault_pile_in: int  # inches the assaulted unit moves to meet its attackers
    flee_dice: int  # a fleeing unit moves this many D6 inches

    @classmethod
    def from_schema(cls, model: SetupModel) -> Setup:
        return cls(table_width_ft=model.table_width_ft, table_depth_ft=model.table_depth_ft,
                   min_terrain_pieces=model.min_terrain_pieces, deploy_within=model.deploy_within,
                   rounds=model.rounds, coherency=model.coherency, unit_spacing=model.unit_spacing,
                   assault_pile_in=model.assault_pile_in, flee_dice=model.flee_dice)


@dataclass(frozen=True, kw_only=True)
class Action:
    name: str
    move: int  # inches
    fire: Fire
    shooting_dice: int = 0  # extra dice for the whole unit's shooting roll
    assault: bool = False
    open_terrain_only: bool = False
    text: str

    @classmethod
    def from_schema(cls, model: ActionModel) -> Action:
        return cls(name=model.name, move=model.move, fire=model.fire,
                   shooting_dice=model.shooting_dice, assault=model.assault,
                   open_terrain_only=model.open_terrain_only, text=model.text)


@dataclass(frozen=True, kw_only=True)
class DamageResult:
    roll_min: int
    roll_max: int
    effect: DamageEffect
    lasts: Lasts
    text: str

    @classmethod
    def from_schema(cls, model: DamageModel) -> DamageResult:
        return cls(roll_min=model.roll_min, roll_max=model.roll_max, effect=model.effect,
                   lasts=model.lasts, text=model.text)

    def covers(self, roll: int) -> bool:
        return self.roll_min <= roll <= self.roll_max


@dataclass(frozen=True, kw_only=True)
class Facing:
    name: str
    dice: int
    keep: Keep | None  # which damage roll counts when two are rolled; None for one die
    text: str

    @classmethod
    def from_schema(cls, model: FacingModel) -> Facing:
        return cls(name=model.name, dice=model.dice, keep=model.keep, text=model.text)


@dataclass(frozen=True, kw_only=True)
class DiceModifier:
    name: str
    roll: RollKind
    dice: int  # extra dice for the whole unit's roll, not per model
    vehicles: bool  # whether vehicles get it too
    text: str

    @classmethod
    def from_schema(cls, model: ModifierModel) -> DiceModifier:
        return cls(name=model.name, roll=model.roll, dice=model.dice,
                   vehicles=model.vehicles, text=model.text)


@dataclass(frozen=True, kw_only=True)
class ReferenceNote:
    name: str
    text: str

    @classmethod
    def from_schema(cls, model: NoteModel) -> ReferenceNote:
        return cls(name=model.name, text=model.text)


@dataclass(frozen=True, kw_only=True)
class Weapon:
    name: str
    range: int  # inches; 0 is a close-combat weapon
    origin: Origin

    @classmethod
    def from_schema(cls, model: WeaponModel, origin: Origin) -> Weapon:
        return cls(name=model.name, range=model.range, origin=origin)

    @property
    def melee(self) -> bool:
        return self.range == 0


@dataclass(frozen=True, kw_only=True)
class Datasheet(Unit):
    kind: Kind
    size: int  # the size the profile prints; min_size..max_size is what a roster may field
    min_size: int
    max_size: int
    quality: int  # rolls of this or higher succeed
    pts_per_model: int
    equipment: tuple[Weapon, ...] = ()

    # what an upgrade's effects may name (listbuilder/engine/effects.py)
    STATS: ClassVar[tuple[str, ...]] = ("quality",)
    WEAPON_STATS: ClassVar[tuple[str, ...]] = ("range",)

    @classmethod
    def from_schema(cls, model: UnitModel, equipment: tuple[Weapon, ...],
                    upgrades: tuple[Upgrade, ...], origin: Origin) -> Datasheet:
        lo, hi = model.size_bounds()
        return cls(name=model.name, faction=model.faction, category=model.kind,
                   keywords=(VEHICLE,) if model.kind == "vehicle" else (),
                   special_rules=tuple(model.special_rules), upgrades=upgrades, origin=origin,
                   kind=model.kind, size=model.size, min_size=lo, max_size=hi,
                   quality=model.quality, pts_per_model=model.pts_per_model,
                   equipment=equipment)

    @property
    def is_vehicle(self) -> bool:
        return self.kind == "vehicle"

    def cost(self, models: int, upgrades: Iterable[str] = ()) -> int:
        """Points per model x models, plus each distinct upgrade named once (a repeat is
        reported, not charged twice; an unknown name adds nothing)."""
        total = self.pts_per_model * models
        for name in dict.fromkeys(upgrades):
            upgrade = self.upgrade(name)
            if upgrade is not None:
                total += upgrade.pts * (models if upgrade.per_model else 1)
        return total

    def fielded(self, catalog: Op40kCatalog, models: int,
                upgrades: Iterable[str] = ()) -> Fielded[Datasheet, Weapon]:
        """The unit as fielded: `models` models and the upgrades named (each once, in the
        datasheet's order); an upgrade's weapons come from the weapons table."""
        named = set(upgrades)
        return field(self, models, self.equipment, [u for u in self.upgrades if u.name in named],
                     catalog.weapon, self.STATS)


@dataclass(frozen=True, kw_only=True)
class Op40kCatalog(Catalog[Datasheet]):
    die: int
    setup: Setup
    unit_actions: tuple[Action, ...]
    vehicle_actions: tuple[Action, ...]
    vehicle_damage: tuple[DamageResult, ...]
    facings: tuple[Facing, ...]
    modifiers: tuple[DiceModifier, ...]
    reference: tuple[ReferenceNote, ...]
    weapons: tuple[Weapon, ...]
    points_limit: int  # the usual game size

    def actions_for(self, unit: Datasheet) -> tuple[Action, ...]:
        return self.vehicle_actions if unit.is_vehicle else self.unit_actions

    def damage(self, roll: int) -> DamageResult | None:
        return next((row for row in self.vehicle_damage if row.covers(roll)), None)

    def weapon(self, name: str) -> Weapon | None:
        return next((w for w in self.weapons if w.name.casefold() == name.casefold()), None)


