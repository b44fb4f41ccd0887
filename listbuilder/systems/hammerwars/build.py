"""Schema-checked files -> one HammerWarsCatalog, with cross-file problems named by key path."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from listbuilder.engine.errors import Problems
from listbuilder.engine.model import BUILTIN, Origin
from listbuilder.engine.schema import Schema
from listbuilder.engine.system import SourceFile
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


def _items(docs: Docs, section: str) -> list[Item[T]]:
    return [(origin, i, item)
            for origin, doc in docs for i, item in enumerate(getattr(doc, section))]


def _unique(problems: Problems, items: list[Item[T]], section: str, key: str) -> list[Item[T]]:
    """The items whose `key` is new; each repeat is reported where it stands and left out."""
    seen: dict[str, Origin] = {}
    kept = []
    for origin, i, item in items:
        value = str(getattr(item, key))
        first = seen.get(value.casefold())
        if first is not None:
            also = "earlier in this file" if first.file == origin.file else f"in {first.file}"
            problems.add(origin, (section, i, key), f"{value!r} is defined twice (also {also}): "
                                                    f"keep one")
            continue
        seen[value.casefold()] = origin
        kept.append((origin, i, item))
    return kept


def _single(problems: Problems, docs: Docs, section: str, kind: type[S]) -> S | None:
    """The value of a section that exactly one file defines."""
    found = [(origin, value) for origin, doc in docs
             if isinstance(value := getattr(doc, section), kind)]
    for origin, _ in found[1:]:
        problems.add(origin, (section,), f"{section} is already defined in {found[0][0].file}: "
                                         f"keep one")
    if not found:
        problems.add(docs[0][0] if docs else BUILTIN, (),
                     f"no file defines {section}: add a {section} section")
        return None
    return found[0][1]


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


def build_catalog(files: Sequence[SourceFile], revision: str, system: str) -> HammerWarsCatalog:
    docs = [(f.origin, f.data) for f in files if isinstance(f.data, HammerWarsFile)]
    problems = Problems()
    pool: list[Item[PoolSlotModel]] = _unique(problems, _items(docs, "pool"), "pool", "category")
    units: list[Item[UnitModel]] = _unique(problems, _items(docs, "units"), "units", "name")
    factions: list[Item[FactionModel]] = _unique(problems, _items(docs, "factions"), "factions",
                                                 "name")
    goals: list[Item[GoalModel]] = _unique(problems, _items(docs, "goals"), "goals", "name")
    rules: list[Item[RuleModel]] = _unique(problems, _items(docs, "rules"), "rules", "name")
    actions: list[Item[ActionModel]] = _unique(problems, _items(docs, "actions"), "actions",
                                               "name")
    terrain: list[Item[TerrainModel]] = _unique(problems, _items(docs, "terrain"), "terrain",
                                                "name")
    deployment = _single(problems, docs, "deployment", DeploymentModel)
    morale = _single(problems, docs, "morale", MoraleModel)
    combat = _single(problems, docs, "combat", CombatModel)
    objectives = _single(problems, docs, "objectives", ObjectivesModel)

    _check_units(problems, units, _names(pool, "category"), _names(rules))
    _check_pool(problems, pool, units)
    _check_refs(problems, factions, "factions", "goals", _names(goals), "goal")
    _check_refs(problems, terrain, "terrain", "forbids", _names(actions), "action")
    problems.raise_if_any()
    # A missing section was reported above, so these hold once we get here.
    assert deployment and morale and combat and objectives
    return HammerWarsCatalog(
        system=system,
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
