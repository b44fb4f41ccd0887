"""One Page 40k (1st edition): units of N models with one Quality, equipment and special rules.

The rules print no points, so our sample factions give each datasheet points per model; an
entry's `count` is the unit's size in models. The game's own tables (actions, vehicle damage,
facings, cover and elevation, setup) live in `data/op40k/system.yaml` for the dice resolver.
Readings of unclear rules: docs/rules-notes/op40k.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from listbuilder.engine.cards import UnitCard
from listbuilder.engine.model import Catalog, Roster, RosterEntry, Unit
from listbuilder.engine.profile import Profile
from listbuilder.engine.system import RuleSystem, SourceFile, Violation, where_entry
from listbuilder.systems.op40k import cards
from listbuilder.systems.op40k.build import build_catalog
from listbuilder.systems.op40k.model import Datasheet, Op40kCatalog
from listbuilder.systems.op40k.schema import Op40kData

__all__ = ["OnePage40k"]


class OnePage40k(RuleSystem):
    id = "op40k"
    order = 20
    name = "One Page 40k (1st edition)"
    blurb = "Units of N models with one Quality; alternate activations over 4 rounds."
    data_schema = Op40kData
    resolve_module = "listbuilder.systems.op40k.resolve"
    default_points_limit = 500  # our choice; the rules print no points (data/op40k/army.yaml)
    min_factions = 1
    max_factions = 1
    count_label = "size"  # an entry's count is the number of models in the unit
    readings: ClassVar[Mapping[str, str]] = {
        "roster.count-bounds": "one-printed-size-or-a-range",
        "roster.repeated-upgrade": "an-upgrade-listed-twice",
        "op40k.no-joining": "units-joining-other-units",
    }

    def build_catalog(self, files: Sequence[SourceFile], revision: str) -> Op40kCatalog:
        return build_catalog(self.id, files, revision)

    def datasheet(self, catalog: Catalog, roster: Roster, entry: RosterEntry) -> Datasheet | None:
        unit = self.unit_of(catalog, roster, entry)
        return unit if isinstance(unit, Datasheet) else None

    def count_bounds(self, unit: Unit) -> tuple[int, int | None]:
        if isinstance(unit, Datasheet):
            return unit.min_size, unit.max_size
        return 1, None

    def entry_cost(self, catalog: Catalog, roster: Roster, entry: RosterEntry) -> int:
        unit = self.datasheet(catalog, roster, entry)
        if unit is None:
            return 0
        return unit.pts_per_model * entry.count + upgrades_cost(unit, entry)

    def check(self, catalog: Catalog, roster: Roster) -> list[Violation]:
        out: list[Violation] = []
        for i, entry in enumerate(roster.entries):
            unit = self.datasheet(catalog, roster, entry)
            if unit is None:
                continue  # the base class reports unknown units
            if entry.joins:
                out.append(Violation(
                    "op40k.no-joining", "error", where_entry(i, entry),
                    f"{entry.unit} joins {entry.joins!r}, but One Page 40k units never join "
                    f"one another: remove `joins`."))
        return out

    def summary(self, catalog: Catalog, roster: Roster) -> tuple[tuple[str, str], ...]:
        sheets = [(e, u) for e in roster.entries
                  if (u := self.datasheet(catalog, roster, e)) is not None]
        vehicles = sum(u.is_vehicle for _, u in sheets)
        models = sum(e.count for e, u in sheets if not u.is_vehicle)
        return (("Units", str(len(sheets) - vehicles)), ("Models", str(models)),
                ("Vehicles", str(vehicles)))


    # -- builder hooks ---------------------------------------------------------------------
    def default_count(self, unit: Unit) -> int:
        return unit.size if isinstance(unit, Datasheet) else 1  # the size the profile prints

    # -- printing hooks --------------------------------------------------------------------
    def profile(self, catalog: Catalog, unit: Unit) -> Profile:
        if isinstance(catalog, Op40kCatalog) and isinstance(unit, Datasheet):
            return cards.profile(catalog, unit)
        return super().profile(catalog, unit)

    def entry_card(self, catalog: Catalog, roster: Roster, entry: RosterEntry) -> UnitCard | None:
        unit = self.datasheet(catalog, roster, entry)
        if isinstance(catalog, Op40kCatalog) and unit is not None:
            return cards.entry_card(catalog, unit, entry, self.entry_cost(catalog, roster, entry))
        return super().entry_card(catalog, roster, entry)

    # -- quick-resolve hooks (listbuilder/systems/op40k/resolve.py) --------------------------
    def resolve_models(self, unit: Unit) -> int:
        return unit.size if isinstance(unit, Datasheet) else 1  # the size the profile prints



def upgrades_cost(unit: Datasheet, entry: RosterEntry) -> int:
    """Each distinct upgrade once (a repeat is reported, not charged twice)."""
    total = 0
    for name in dict.fromkeys(entry.upgrades):
        upgrade = unit.upgrade(name)
        if upgrade is not None:
            total += upgrade.pts * (entry.count if upgrade.per_model else 1)
    return total
