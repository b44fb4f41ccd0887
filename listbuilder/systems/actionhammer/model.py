"""Frozen catalog models: datasheets, weapons and the core tables a dice resolver reads."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from listbuilder.engine.effects import Fielded, effect_of, field
from listbuilder.engine.model import BUILTIN, Catalog, Origin, Unit, Upgrade
from listbuilder.systems.actionhammer.schema import (
    MELEE,
    ArmyModel,
    DatasheetModel,
    DiceModel,
    DistancesModel,
    GameModel,
    StanceModel,
    TerrainModel,
    WeaponModel,
)

LEADER = "Leader"
CHARACTER = "Character"


@dataclass(frozen=True, kw_only=True)
class Weapon:
    name: str
    range: int | str  # inches, or "Melee"
    att: int
    sk: int
    ap: int
    features: tuple[str, ...] = ()

    @classmethod
    def from_schema(cls, model: WeaponModel) -> Weapon:
        return cls(name=model.name, range=model.range, att=model.att, sk=model.sk, ap=model.ap,
                   features=tuple(model.features))

    @property
    def melee(self) -> bool:
        return self.range == MELEE

    @property
    def range_text(self) -> str:
        return MELEE if self.melee else f'{self.range}"'


@dataclass(frozen=True, kw_only=True)
class Datasheet(Unit):
    """One datasheet: a profile shared by every model of the unit, and its points per model."""

    move: int
    save: int
    wounds: int
    morale: int
    control: int
    min_models: int
    max_models: int
    pts: int  # per model
    weapons: tuple[Weapon, ...] = ()
    wargear: tuple[Weapon, ...] = ()  # weapons only upgrades give
    text: str = ""

    # what an upgrade's effects may name (listbuilder/engine/effects.py)
    STATS: ClassVar[tuple[str, ...]] = ("move", "save", "wounds", "morale", "control")
    WEAPON_STATS: ClassVar[tuple[str, ...]] = ("range", "att", "sk", "ap")

    @classmethod
    def from_schema(cls, model: DatasheetModel, origin: Origin = BUILTIN) -> Datasheet:
        return cls(
            name=model.name, faction=model.faction, keywords=tuple(model.keywords),
            special_rules=tuple(model.abilities),
            upgrades=tuple(Upgrade(name=u.name, pts=u.pts, per_model=u.per_model, text=u.text,
                                   effects=tuple(effect_of(e) for e in u.effects))
                           for u in model.upgrades),
            move=model.move, save=model.save, wounds=model.wounds, morale=model.morale,
            control=model.control, min_models=model.models.min, max_models=model.models.max,
            pts=model.pts, weapons=tuple(Weapon.from_schema(w) for w in model.weapons),
            wargear=tuple(Weapon.from_schema(w) for w in model.wargear),
            text=model.text or "", origin=origin,
        )

    @property
    def is_leader(self) -> bool:
        return self.has_keyword(LEADER)

    @property
    def is_character(self) -> bool:
        return self.has_keyword(CHARACTER)

    def fielded(self, models: int, upgrades: Iterable[str] = ()) -> Fielded[Datasheet, Weapon]:
        """The unit as fielded with `models` models and the upgrades named (each once, in the
        datasheet's order; unknown names are reported by validation, not applied)."""
        named = set(upgrades)
        return field(self, models, self.weapons, [u for u in self.upgrades if u.name in named],
                     lambda name: next((w for w in self.wargear
                                        if w.name.casefold() == name.casefold()), None),
                     self.STATS)

    def cost(self, models: int, upgrades: tuple[str, ...] = ()) -> int:
        """Points per model x models, plus each listed upgrade (unknown names add nothing)."""
        total = self.pts * models
        for name in upgrades:
            upgrade = self.upgrade(name)
            if upgrade is not None:
                total += upgrade.pts * (models if upgrade.per_model else 1)
        return total


@dataclass(frozen=True, kw_only=True)
class Stance:
    name: str
    own_hit: int
    enemy_hit: int
    chosen: bool
    overrides_modifiers: bool
    ones_fail: bool
    control_zero: bool
    barred: tuple[str, ...]
    grounds: tuple[str, ...]
    text: str
    origin: Origin = BUILTIN

    @classmethod
    def from_schema(cls, model: StanceModel, origin: Origin = BUILTIN) -> Stance:
        return cls(name=model.name, own_hit=model.own_hit, enemy_hit=model.enemy_hit,
                   chosen=model.chosen, overrides_modifiers=model.overrides_modifiers,
                   ones_fail=model.ones_fail, control_zero=model.control_zero,
                   barred=tuple(model.barred), grounds=tuple(model.grounds), text=model.text,
                   origin=origin)

    def open_to(self, unit: Unit) -> bool:
        """May a player put this unit in the stance (as opposed to a rule imposing it)?"""
        return self.chosen and not any(unit.has_keyword(k) for k in self.barred)


# The core tables mirror their schemas field for field; each is built from a checked model.

@dataclass(frozen=True, kw_only=True)
class Army:
    recommended_points: int
    leaders_per: int
    same_datasheet_per: int
    units_per: int
    character_copies: int

    @classmethod
    def from_schema(cls, model: ArmyModel) -> Army:
        return cls(**model.model_dump())


@dataclass(frozen=True, kw_only=True)
class Dice:
    sides: int
    critical_hit: int
    always_succeeds: int
    always_fails: int
    hit_modifier_cap: int
    rerolls_per_die: int
    d3_divisor: int
    d3_rounds_up: bool
    advance_dice: int
    charge_dice: int

    @classmethod
    def from_schema(cls, model: DiceModel) -> Dice:
        return cls(**model.model_dump())

    def d3(self, d6: int) -> int:
        """A D3 read off a D6 roll: halved, rounded as the rules say."""
        whole, rest = divmod(d6, self.d3_divisor)
        return whole + (1 if rest and self.d3_rounds_up else 0)

    def capped(self, modifier: int) -> int:
        return max(-self.hit_modifier_cap, min(self.hit_modifier_cap, modifier))


@dataclass(frozen=True, kw_only=True)
class Distances:
    coherency_horizontal: int
    coherency_vertical: int
    coherency_spread: int
    engagement_horizontal: int
    engagement_vertical: int
    melee_reach: int
    pile_in: int
    consolidate: int
    objective_horizontal: int
    objective_vertical: int
    deployment_gap: int
    sight_percent: int

    @classmethod
    def from_schema(cls, model: DistancesModel) -> Distances:
        return cls(**model.model_dump())


@dataclass(frozen=True, kw_only=True)
class Terrain:
    cover_save_bonus: int
    higher_ground_height: int
    higher_ground_ap: int
    climb_height: int
    dangerous_fails_on: int
    dangerous_wounds: int

    @classmethod
    def from_schema(cls, model: TerrainModel) -> Terrain:
        return cls(**model.model_dump())


@dataclass(frozen=True, kw_only=True)
class Game:
    rounds: int
    objectives_min: int
    objectives_max: int
    objective_edge_gap: int
    objective_gap: int
    vp_per_objective: int
    vp_per_turn_max: int
    scoring_from_round: int
    charge_shot_penalty: int
    engaged_shot_penalty: int
    morale_divisor: int
    opening_stance: str
    opening_fallback: str

    @classmethod
    def from_schema(cls, model: GameModel) -> Game:
        return cls(**model.model_dump())


@dataclass(frozen=True, kw_only=True)
class ActionHammerCatalog(Catalog[Datasheet]):
    army: Army
    dice: Dice
    distances: Distances
    terrain: Terrain
    game: Game
    stances: tuple[Stance, ...] = ()

    @property
    def datasheets(self) -> tuple[Datasheet, ...]:
        return self.units

    def stance(self, name: str) -> Stance | None:
        return next((s for s in self.stances if s.name.casefold() == name.casefold()), None)

    def opening_stance(self, unit: Unit) -> Stance | None:
        """The stance a unit starts the game in: the opening one unless barred from it."""
        first = self.stance(self.game.opening_stance)
        if first is not None and first.open_to(unit):
            return first
        return self.stance(self.game.opening_fallback)
