"""Merge the files of data/op40k/ into one catalog; cross-file problems name file and key."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from listbuilder.engine import effects
from listbuilder.engine.errors import Problems, closest
from listbuilder.engine.merge import items, single, unique
from listbuilder.engine.model import Faction, Origin, SpecialRule, Upgrade
from listbuilder.engine.system import RuleSystem, SourceFile, plural
from listbuilder.systems.op40k.model import (
    Action,
    DamageResult,
    Datasheet,
    DiceModifier,
    Facing,
    Op40kCatalog,
    ReferenceNote,
    Setup,
    Weapon,
)
from listbuilder.systems.op40k.schema import Op40kData, SystemModel, UnitModel

Doc = tuple[Origin, Op40kData]






def _check_tables(origin: Origin, tables: SystemModel, problems: Problems) -> None:
    for key, actions in (("unit_actions", tables.unit_actions),
                         ("vehicle_actions", tables.vehicle_actions)):
        names = [a.name.casefold() for a in actions]
        for i, name in enumerate(names):
            if name in names[:i]:
                problems.add(origin, ("system", key, i, "name"),
                             f"action {actions[i].name!r} is listed twice: remove one")
    for i, row in enumerate(tables.vehicle_damage):
        if row.roll_min > row.roll_max:
            problems.add(origin, ("system", "vehicle_damage", i, "roll_max"),
                         f"roll_max {row.roll_max} is below roll_min {row.roll_min}: swap them")
    hits = {roll: sum(r.roll_min <= roll <= r.roll_max for r in tables.vehicle_damage)
            for roll in range(1, tables.die + 1)}
    for count, wrong in ((0, "no row covers"), (2, "more than one row covers")):
        rolls = [str(roll) for roll, n in hits.items() if min(n, 2) == count]
        if rolls:
            problems.add(origin, ("system", "vehicle_damage"),
                         f"{wrong} a roll of {', '.join(rolls)}: give each roll 1 to "
                         f"{tables.die} exactly one row")
    for i, facing in enumerate(tables.facings):
        if (facing.dice > 1) != (facing.keep is not None):
            problems.add(origin, ("system", "facings", i, "keep"),
                         f"{facing.name} rolls {plural(facing.dice, 'die', 'dice')}: "
                         + ("say which to keep (lowest or highest)" if facing.dice > 1
                            else "remove keep, one die needs no choice"))


def _check_unit(origin: Origin, i: int, unit: UnitModel, known: _Known,
                problems: Problems) -> None:
    loc = ("units", i)
    if known.factions.get(unit.faction.casefold()) is None:
        problems.add(origin, (*loc, "faction"), f"unknown faction {unit.faction!r}"
                     f"{closest(unit.faction, known.factions.values())}: define it under factions")
    for j, rule in enumerate(unit.special_rules):
        if rule.casefold() not in known.rules:
            problems.add(origin, (*loc, "special_rules", j), f"unknown special rule {rule!r}"
                         f"{closest(rule, known.rules.values())}: define it under rules")
    for j, weapon in enumerate(unit.equipment):
        if weapon.casefold() not in known.weapons:
            problems.add(origin, (*loc, "equipment", j), f"unknown weapon {weapon!r}"
                         f"{closest(weapon, known.weapon_names)}: define it under weapons")
    for j, upgrade in enumerate(unit.upgrades):
        for at, message in effects.check(upgrade.effects, Datasheet.STATS, known.weapon_names,
                                         Datasheet.WEAPON_STATS,
                                         rules=[*known.rules.values(), upgrade.name]):
            problems.add(origin, (*loc, "upgrades", j, "effects", *at), message)
        if any(u.name.casefold() == upgrade.name.casefold() for u in unit.upgrades[:j]):
            problems.add(origin, (*loc, "upgrades", j, "name"),
                         f"upgrade {upgrade.name!r} is listed twice: remove one")
    _check_size(origin, i, unit, problems)


def _check_size(origin: Origin, i: int, unit: UnitModel, problems: Problems) -> None:
    lo, hi = unit.size_bounds()
    if unit.kind == "vehicle":
        for key, value in (("size", unit.size), ("min_size", lo), ("max_size", hi)):
            if value != 1:
                problems.add(origin, ("units", i, key),
                             f"a vehicle is a single model, {key} is {value}: set it to 1")
        return
    if lo > hi:
        problems.add(origin, ("units", i, "max_size"),
                     f"max_size {hi} is below min_size {lo}: raise it or lower min_size")
    elif not lo <= unit.size <= hi:
        problems.add(origin, ("units", i, "size"),
                     f"size {unit.size} is outside min_size {lo} to max_size {hi}: "
                     f"set it within them")


@dataclass(frozen=True)
class _Known:
    """What the data defines, keyed by the case-folded name."""

    factions: dict[str, str]
    rules: dict[str, str]
    weapons: dict[str, Weapon]

    @property
    def weapon_names(self) -> list[str]:
        return [w.name for w in self.weapons.values()]


def _units(docs: Sequence[Doc], known: _Known, problems: Problems) -> list[Datasheet]:
    out: list[Datasheet] = []
    seen: dict[tuple[str, str], str] = {}
    for origin, doc in docs:
        for i, unit in enumerate(doc.units):
            _check_unit(origin, i, unit, known, problems)
            key = (unit.faction.casefold(), unit.name.casefold())
            if key in seen:
                problems.add(origin, ("units", i, "name"),
                             f"{unit.faction} already has a unit {unit.name!r} "
                             f"(in {seen[key]}): rename or remove one")
                continue
            seen[key] = origin.file
            out.append(_datasheet(origin, unit, known))
    return out


def _datasheet(origin: Origin, unit: UnitModel, known: _Known) -> Datasheet:
    def weapon(name: str | None) -> Weapon | None:
        return known.weapons.get(name.casefold()) if name else None

    equipment = tuple(w for name in unit.equipment if (w := weapon(name)) is not None)
    upgrades = tuple(Upgrade(name=u.name, pts=u.pts, per_model=u.per_model, text=u.text,
                             effects=tuple(effects.effect_of(e) for e in u.effects))
                     for u in unit.upgrades)
    return Datasheet.from_schema(unit, equipment, upgrades, origin)


def build_catalog(system: RuleSystem[Any, Any], files: Sequence[SourceFile],
                  revision: str) -> Op40kCatalog:
    """The catalog the files make (`RuleSystem.build_catalog`), every problem reported at once."""
    """Check every file against the others and report all problems before building anything."""
    docs = [(f.origin, cast(Op40kData, f.data)) for f in files]
    problems = Problems()
    tables = single(problems, docs, "system")
    army = single(problems, docs, "army")
    if tables is not None:
        _check_tables(tables[0], tables[1], problems)
    factions = [Faction(name=f.name, text=f.text, origin=o)
                for o, _, f in unique(problems, items(docs, "factions"), "factions",
                                      what="faction")]
    rules = [SpecialRule(name=r.name, text=r.text, origin=o)
             for o, _, r in unique(problems, items(docs, "rules"), "rules", what="special rule")]
    weapons = [Weapon.from_schema(w, o)
               for o, _, w in unique(problems, items(docs, "weapons"), "weapons", what="weapon")]
    known = _Known({f.name.casefold(): f.name for f in factions},
                   {r.name.casefold(): r.name for r in rules},
                   {w.name.casefold(): w for w in weapons})
    units = _units(docs, known, problems)
    problems.raise_if_any()
    assert tables is not None and army is not None  # a missing section is a problem above

    t = tables[1]
    return Op40kCatalog(
        system=system.id, revision=revision,
        factions=tuple(factions), units=tuple(units), rules=tuple(rules),
        die=t.die, setup=Setup.from_schema(t.setup),
        unit_actions=tuple(Action.from_schema(a) for a in t.unit_actions),
        vehicle_actions=tuple(Action.from_schema(a) for a in t.vehicle_actions),
        vehicle_damage=tuple(DamageResult.from_schema(d) for d in t.vehicle_damage),
        facings=tuple(Facing.from_schema(f) for f in t.facings),
        modifiers=tuple(DiceModifier.from_schema(m) for m in t.modifiers),
        reference=tuple(ReferenceNote.from_schema(n) for n in t.reference),
        weapons=tuple(weapons), points_limit=army[1].points_limit)
