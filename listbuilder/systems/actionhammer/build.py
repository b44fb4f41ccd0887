"""Merge the checked files into one catalog, reporting what crosses files through `Problems`:
sections given twice or never, duplicate names, and names that point nowhere."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from listbuilder.engine.errors import Problems
from listbuilder.engine.model import Faction, Origin, SpecialRule
from listbuilder.engine.system import SourceFile
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
    AbilityModel,
    ActionHammerFile,
    DatasheetModel,
    FactionModel,
    StanceModel,
)

Docs = list[tuple[Origin, ActionHammerFile]]
S = TypeVar("S")
Named = TypeVar("Named", AbilityModel, FactionModel, StanceModel)


def build_catalog(system_id: str, files: Sequence[SourceFile],
                  revision: str) -> ActionHammerCatalog:
    problems = Problems()
    docs: Docs = [(f.origin, f.data) for f in files if isinstance(f.data, ActionHammerFile)]
    anchor = docs[0][0] if docs else Origin()
    army = _single(problems, docs, anchor, "army", lambda d: d.army)
    dice = _single(problems, docs, anchor, "dice", lambda d: d.dice)
    distances = _single(problems, docs, anchor, "distances", lambda d: d.distances)
    terrain = _single(problems, docs, anchor, "terrain", lambda d: d.terrain)
    game = _single(problems, docs, anchor, "game", lambda d: d.game)
    stances = _unique(problems, "stances", [(o, i, s) for o, d in docs
                                            for i, s in enumerate(d.stances)])
    abilities = _unique(problems, "abilities", [(o, i, a) for o, d in docs
                                                for i, a in enumerate(d.abilities)])
    factions = _unique(problems, "factions", [(o, i, f) for o, d in docs
                                              for i, f in enumerate(d.factions)])
    stance_names = {s.name.casefold() for _, s in stances}
    for origin, doc in docs:
        if doc.game is None:
            continue
        for key in ("opening_stance", "opening_fallback"):
            name = getattr(doc.game, key)
            if name.casefold() not in stance_names:
                problems.add(origin, ("game", key),
                             f"unknown stance {name!r}: add it under stances or fix the name")
    known = _Names(faction=frozenset(f.name.casefold() for _, f in factions),
                   ability=frozenset(a.name.casefold() for _, a in abilities))
    sheets = _datasheets(problems, docs, known)
    problems.raise_if_any()
    # raise_if_any has reported any missing section, so these hold
    assert army and dice and distances and terrain and game
    return ActionHammerCatalog(
        system=system_id, revision=revision,
        factions=tuple(Faction(name=f.name, text=f.text, origin=o) for o, f in factions),
        rules=tuple(SpecialRule(name=a.name, text=a.text, origin=o) for o, a in abilities),
        units=tuple(sheets),
        army=Army.from_schema(army), dice=Dice.from_schema(dice),
        distances=Distances.from_schema(distances), terrain=Terrain.from_schema(terrain),
        game=Game.from_schema(game),
        stances=tuple(Stance.from_schema(s, o) for o, s in stances),
    )


@dataclass(frozen=True)
class _Names:
    """Folded names the datasheets may refer to."""

    faction: frozenset[str]
    ability: frozenset[str]


def _single(problems: Problems, docs: Docs, anchor: Origin, key: str,
            get: Callable[[ActionHammerFile], S | None]) -> S | None:
    """A section that exactly one file gives (the core numbers)."""
    found: S | None = None
    first = ""
    for origin, doc in docs:
        section = get(doc)
        if section is None:
            continue
        if found is not None:
            problems.add(origin, (key,), f"{key} is already given in {first}: give it once")
            continue
        found, first = section, origin.file
    if found is None:
        problems.add(anchor, (key,), f"no file gives the {key} section: add it to system.yaml")
    return found


def _unique(problems: Problems, section: str,
            items: list[tuple[Origin, int, Named]]) -> list[tuple[Origin, Named]]:
    seen: dict[str, str] = {}
    out = []
    for origin, i, item in items:
        key = item.name.casefold()
        if key in seen:
            problems.add(origin, (section, i, "name"),
                         f"{item.name!r} is defined twice (also in {seen[key]}): keep one")
            continue
        seen[key] = origin.file
        out.append((origin, item))
    return out


def _datasheets(problems: Problems, docs: Docs, known: _Names) -> list[Datasheet]:
    out: list[Datasheet] = []
    seen: dict[tuple[str, str], str] = {}
    for origin, doc in docs:
        for i, model in enumerate(doc.datasheets):
            key = (model.faction.casefold(), model.name.casefold())
            if key in seen:
                problems.add(origin, ("datasheets", i, "name"),
                             f"{model.name!r} is already in {model.faction} (from {seen[key]}): "
                             f"rename it")
                continue
            seen[key] = origin.file
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
    for w, weapon in enumerate(model.weapons):
        for k, name in enumerate(weapon.features):
            if name.casefold() not in known.ability:
                problems.add(origin, (*at, "weapons", w, "features", k),
                             f"unknown feature {name!r}: add it under abilities or fix the name")
