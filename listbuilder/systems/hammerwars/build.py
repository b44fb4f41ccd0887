"""Schema-checked files -> one HammerWarsCatalog, with cross-file problems named by key path."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from listbuilder.engine.errors import Problems
from listbuilder.engine.merge import items, single_value, unique
from listbuilder.engine.model import Origin
from listbuilder.engine.schema import Schema
from listbuilder.engine.system import RuleSystem, SourceFile
from listbuilder.systems.hammerwars.model import (
    Action,
    Combat,
    Deployment,
    Goal,
    HammerWarsCatalog,
    HwFaction,
    HwRule,
    HwUnit,
    Morale,
    Objectives,
    PoolSlot,
    Terrain,
)
from listbuilder.systems.hammerwars.schema import (
    ActionModel,
    CombatModel,
    DeploymentModel,
    FactionModel,
    GoalModel,
    HammerWarsFile,
    MoraleModel,
    ObjectivesModel,
    PoolSlotModel,
    RuleModel,
    TerrainModel,
    UnitModel,
)

T = TypeVar("T")
S = TypeVar("S", bound=Schema)
Item = tuple[Origin, int, T]  # where an item came from, its index in that file's section, itself
Docs = Sequence[tuple[Origin, HammerWarsFile]]








def _check_units(problems: Problems, units: list[Item[UnitModel]], categories: set[str],
                 rules: set[str]) -> None:
    for origin, i, unit in units:
        if unit.category.casefold() not in categories:
            problems.add(origin, ("units", i, "category"),
                         f"category {unit.category!r} is not in the pool: use one of the "
                         f"pool's categories or add it to the pool")
        for j, rule in enumerate(unit.rules):
            if rule.casefold() not in rules:
                problems.add(origin, ("units", i, "rules", j),
                             f"unknown special rule {rule!r}: define it under rules")


def _check_pool(problems: Problems, pool: list[Item[PoolSlotModel]],
                units: list[Item[UnitModel]]) -> None:
    # A slot no card can fill would make every roster illegal.
    filled = {u.category.casefold() for _, _, u in units}
    for origin, i, slot in pool:
        if slot.category.casefold() not in filled:
            problems.add(origin, ("pool", i, "category"),
                         f"no unit card has category {slot.category!r}: add one or drop the slot")


def _check_refs(problems: Problems, items: list[Item[T]], section: str, key: str,
                known: set[str], kind: str) -> None:
    for origin, i, item in items:
        for j, name in enumerate(getattr(item, key)):
            if name.casefold() not in known:
                problems.add(origin, (section, i, key, j), f"unknown {kind} {name!r}")


def _names(items: list[Item[T]], key: str = "name") -> set[str]:
    return {str(getattr(item, key)).casefold() for _, _, item in items}


def build_catalog(system: RuleSystem[Any, Any], files: Sequence[SourceFile],
                  revision: str) -> HammerWarsCatalog:
    """The catalog the files make (`RuleSystem.build_catalog`), every problem reported at once."""
    docs = [(f.origin, f.data) for f in files if isinstance(f.data, HammerWarsFile)]
    problems = Problems()
    pool: list[Item[PoolSlotModel]] = unique(problems, items(docs, "pool"), "pool", "category")
    units: list[Item[UnitModel]] = unique(problems, items(docs, "units"), "units")
    factions: list[Item[FactionModel]] = unique(problems, items(docs, "factions"), "factions")
    goals: list[Item[GoalModel]] = unique(problems, items(docs, "goals"), "goals")
    rules: list[Item[RuleModel]] = unique(problems, items(docs, "rules"), "rules")
    actions: list[Item[ActionModel]] = unique(problems, items(docs, "actions"), "actions")
    terrain: list[Item[TerrainModel]] = unique(problems, items(docs, "terrain"), "terrain")
    deployment: DeploymentModel | None = single_value(problems, docs, "deployment")
    morale: MoraleModel | None = single_value(problems, docs, "morale")
    combat: CombatModel | None = single_value(problems, docs, "combat")
    objectives: ObjectivesModel | None = single_value(problems, docs, "objectives")

    _check_units(problems, units, _names(pool, "category"), _names(rules))
    _check_pool(problems, pool, units)
    _check_refs(problems, factions, "factions", "goals", _names(goals), "goal")
    _check_refs(problems, terrain, "terrain", "forbids", _names(actions), "action")
    problems.raise_if_any()
    # A missing section was reported above, so these hold once we get here.
    assert deployment and morale and combat and objectives
    return HammerWarsCatalog(
        system=system.id,
        revision=revision,
        pool=tuple(PoolSlot.from_schema(m, o) for o, _, m in pool),
        units=tuple(HwUnit.from_schema(m, o) for o, _, m in units),
        factions=tuple(HwFaction.from_schema(m, o) for o, _, m in factions),
        goals=tuple(Goal.from_schema(m, o) for o, _, m in goals),
        rules=tuple(HwRule.from_schema(m, o) for o, _, m in rules),
        deployment=Deployment.from_schema(deployment),
        morale=Morale.from_schema(morale),
        actions=tuple(Action.from_schema(m, o) for o, _, m in actions),
        terrain=tuple(Terrain.from_schema(m, o) for o, _, m in terrain),
        combat=Combat.from_schema(combat),
        objectives=Objectives.from_schema(objectives),
    )
