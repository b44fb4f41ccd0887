"""Merge the checked files into one catalog, reporting what crosses files through `Problems`:
sections given twice or never, duplicate names, and names that point nowhere."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from listbuilder.engine import effects
from listbuilder.engine.errors import Problems
from listbuilder.engine.merge import items, single_value, unique
from listbuilder.engine.model import Faction, Origin, SpecialRule
from listbuilder.engine.system import RuleSystem, SourceFile
from listbuilder.systems.actionhammer.model import (
    ActionHammerCatalog,
    Army,
    Datasheet,
    Dice,
    Distances,
    Game,
    Stance,
    Terrain,
)
from listbuilder.systems.actionhammer.schema import (
    ActionHammerFile,
    DatasheetModel,
)

Docs = list[tuple[Origin, ActionHammerFile]]


def build_catalog(system: RuleSystem[Any, Any], files: Sequence[SourceFile],
                  revision: str) -> ActionHammerCatalog:
    """The catalog the files make (`RuleSystem.build_catalog`), every problem reported at once."""
    problems = Problems()
    docs: Docs = [(f.origin, f.data) for f in files if isinstance(f.data, ActionHammerFile)]
    army = single_value(problems, docs, "army")
    dice = single_value(problems, docs, "dice")
    distances = single_value(problems, docs, "distances")
    terrain = single_value(problems, docs, "terrain")
    game = single_value(problems, docs, "game")
    stances = unique(problems, items(docs, "stances"), "stances")
    abilities = unique(problems, items(docs, "abilities"), "abilities")
    factions = unique(problems, items(docs, "factions"), "factions")
    stance_names = {s.name.casefold() for _, _, s in stances}
    for origin, doc in docs:
        if doc.game is None:
            continue
        for key in ("opening_stance", "opening_fallback"):
            name = getattr(doc.game, key)
            if name.casefold() not in stance_names:
                problems.add(origin, ("game", key),
                             f"unknown stance {name!r}: add it under stances or fix the name")
    known = _Names(faction=frozenset(f.name.casefold() for _, _, f in factions),
                   ability=frozenset(a.name.casefold() for _, _, a in abilities))
    sheets = _datasheets(problems, docs, known)
    problems.raise_if_any()
    # raise_if_any has reported any missing section, so these hold
    assert army and dice and distances and terrain and game
    return ActionHammerCatalog(
        system=system.id, revision=revision,
        factions=tuple(Faction(name=f.name, text=f.text, origin=o) for o, _, f in factions),
        rules=tuple(SpecialRule(name=a.name, text=a.text, origin=o) for o, _, a in abilities),
        units=tuple(sheets),
        army=Army.from_schema(army), dice=Dice.from_schema(dice),
        distances=Distances.from_schema(distances), terrain=Terrain.from_schema(terrain),
        game=Game.from_schema(game),
        stances=tuple(Stance.from_schema(s, o) for o, _, s in stances),
    )


@dataclass(frozen=True)
class _Names:
    """Folded names the datasheets may refer to."""

    faction: frozenset[str]
    ability: frozenset[str]




def _datasheets(problems: Problems, docs: Docs, known: _Names) -> list[Datasheet]:
    out: list[Datasheet] = []
    for origin, i, model in unique(problems, items(docs, "datasheets"), "datasheets",
                                   key=lambda m: f"{m.name} ({m.faction})"):
        _check_names(problems, origin, i, model, known)
        out.append(Datasheet.from_schema(model, origin))
    return out


def _check_names(problems: Problems, origin: Origin, i: int, model: DatasheetModel,
                 known: _Names) -> None:
    at = ("datasheets", i)
    if model.faction.casefold() not in known.faction:
        problems.add(origin, (*at, "faction"), f"unknown faction {model.faction!r}: "
                                               f"add it under factions or fix the name")
    for j, name in enumerate(model.abilities):
        if name.casefold() not in known.ability:
            problems.add(origin, (*at, "abilities", j), f"unknown ability {name!r}: "
                                                        f"add it under abilities or fix the name")
    for key, weapons in (("weapons", model.weapons), ("wargear", model.wargear)):
        for w, weapon in enumerate(weapons):
            for k, name in enumerate(weapon.features):
                if name.casefold() not in known.ability:
                    problems.add(origin, (*at, key, w, "features", k), f"unknown feature "
                                 f"{name!r}: add it under abilities or fix the name")
    weapon_names = [w.name for w in (*model.weapons, *model.wargear)]
    for j, upgrade in enumerate(model.upgrades):
        for loc, message in effects.check(upgrade.effects, Datasheet.STATS, weapon_names,
                                          Datasheet.WEAPON_STATS,
                                          define="list it under the datasheet's wargear",
                                          rules=[*known.ability, upgrade.name]):
            problems.add(origin, (*at, "upgrades", j, "effects", *loc), message)
