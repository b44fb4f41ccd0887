"""Skirmish Test, a toy game: units with a fixed cost per model and a points limit. Sample
content we wrote to test Listbuilder's plug-in door; no seed describes it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from listbuilder.engine.match import Play
from listbuilder.engine.model import Catalog, Faction, RosterEntry, Unit
from listbuilder.engine.schema import Name, Points, Schema, Text
from listbuilder.engine.system import RuleSystem, SourceFile


@dataclass(frozen=True, kw_only=True)
class TestUnit(Unit):
    pts: int
    max_models: int


class UnitData(Schema):
    name: Name
    faction: Name
    pts: Points
    max_models: int = 10


class FactionData(Schema):
    name: Name
    text: Text | None = None


class Data(Schema):
    sample: bool = False
    factions: list[FactionData] = Field(default_factory=list)
    units: list[UnitData] = Field(default_factory=list)


# The catalog needs no tables of its own, so it is the base class, holding this game's units
TestCatalog = Catalog[TestUnit]


class TestGame(RuleSystem[TestCatalog, TestUnit]):
    id = "testgame"
    order = 900
    name = "Skirmish Test"
    blurb = "A toy game from an outside package: units at a fixed cost per model."
    data_schema = Data
    default_points_limit = 100

    def build_catalog(self, files: Sequence[SourceFile], revision: str) -> TestCatalog:
        factions: list[Faction] = []
        units: list[TestUnit] = []
        for file in files:
            doc = file.data
            assert isinstance(doc, Data)  # every file was checked against `data_schema`
            factions += [Faction(name=f.name, text=f.text or "", origin=file.origin)
                         for f in doc.factions]
            units += [TestUnit(name=u.name, faction=u.faction, pts=u.pts,
                               max_models=u.max_models, origin=file.origin) for u in doc.units]
        return TestCatalog(system=self.id, revision=revision, factions=tuple(factions),
                           units=tuple(units))

    def entry_cost(self, catalog: TestCatalog, unit: TestUnit, entry: RosterEntry) -> int:
        return unit.pts * entry.count

    def count_bounds(self, unit: TestUnit) -> tuple[int, int | None]:
        return 1, unit.max_models

    def play(self) -> Play[Any]:
        from listbuilder_testgame.play import SkirmishPlay

        return SkirmishPlay(self)
