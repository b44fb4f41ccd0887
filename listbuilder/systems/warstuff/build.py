"""The WarStuff catalog built from the checked files: genres, special rules and the quickplay
units, each priced by the formula; cross-file names checked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from listbuilder.engine.errors import Problems
from listbuilder.engine.merge import items, single, unique
from listbuilder.engine.model import Faction, Origin, SpecialRule
from listbuilder.engine.system import RuleSystem, SourceFile
from listbuilder.systems.warstuff.model import WarStuffCatalog, WarStuffUnit, unit_cost
from listbuilder.systems.warstuff.schema import QualityModel, UnitModel, WarStuffFile


def build_catalog(system: RuleSystem[Any, Any], files: Sequence[SourceFile],
                  revision: str) -> WarStuffCatalog:
    """The catalog the files make (`RuleSystem.build_catalog`), every problem reported at once."""
    problems = Problems()
    docs = [(f.origin, f.data) for f in files if isinstance(f.data, WarStuffFile)]
    rules = unique(problems, items(docs, "rules"), "rules")
    genres = unique(problems, items(docs, "genres"), "genres")
    settings_found = single(problems, docs, "unit_quality")
    settings: QualityModel | None = settings_found[1] if settings_found else None
    rule_map = {r.name.casefold(): SpecialRule(name=r.name, text=r.text, cost=r.cost, origin=o)
                for o, _, r in rules}
    genre_names = {g.name.casefold() for _, _, g in genres}
    units: list[WarStuffUnit] = []
    for origin, i, u in unique(problems, items(docs, "units"), "units",
                               key=lambda u: f"{u.name} ({u.genre})"):
        if u.genre.casefold() not in genre_names:
            problems.add(origin, ("units", i, "genre"),
                         f"unknown genre {u.genre!r}: add it under genres or fix the name")
        for j, r in enumerate(u.rules):
            if r.casefold() not in rule_map:
                problems.add(origin, ("units", i, "rules", j), f"unknown special rule {r!r}")
        units.append(_unit(u, origin, rule_map, settings))
    problems.raise_if_any()
    assert settings is not None  # raise_if_any has reported its absence
    limits = next((d.warband_limits for _, d in docs if d.warband_limits), [150, 300])
    advised = next((d.advised_max_unit_cost for _, d in docs if d.advised_max_unit_cost), 75)
    return WarStuffCatalog(
        system=system.id, revision=revision,
        factions=tuple(Faction(name=g.name, text=g.text, origin=o) for o, _, g in genres),
        rules=tuple(rule_map.values()), units=tuple(units),
        points_per_quality=settings.points_per_quality, minimum_cost=settings.minimum_cost,
        quality_range=(settings.min, settings.max), warband_limits=tuple(limits),
        advised_max_unit_cost=advised,
    )

def _unit(u: UnitModel, origin: Origin, rules: dict[str, SpecialRule],
          settings: QualityModel | None) -> WarStuffUnit:
    per, minimum = (settings.points_per_quality, settings.minimum_cost) if settings else (10, 5)
    pts = unit_cost(u.quality, (rules.get(r.casefold()) for r in u.rules), per, minimum)
    return WarStuffUnit(name=u.name, faction=u.genre, category=u.genre, quality=u.quality,
                        special_rules=tuple(u.rules), pts=pts, printed_pts=u.printed_pts,
                        origin=origin)
