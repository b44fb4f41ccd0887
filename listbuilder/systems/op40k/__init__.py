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
from listbuilder.engine.effects import Fielded
from listbuilder.engine.fight import Resolver
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.profile import Profile, RuleText
from listbuilder.engine.system import RuleSystem, SourceFile, Violation, where_entry
from listbuilder.systems.op40k import cards
from listbuilder.systems.op40k.build import build_catalog
from listbuilder.systems.op40k.model import Datasheet, Op40kCatalog, Weapon
from listbuilder.systems.op40k.schema import Op40kData

__all__ = ["OnePage40k"]


class OnePage40k(RuleSystem[Op40kCatalog, Datasheet]):
    id = "op40k"
    order = 20
    name = "One Page 40k (1st edition)"
    short_name = "One Page 40k"
    blurb = "Units of N models with one Quality; alternate activations over 4 rounds."
    data_schema = Op40kData
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

    # -- rules -----------------------------------------------------------------------------
    def count_bounds(self, unit: Datasheet) -> tuple[int, int | None]:
        return unit.min_size, unit.max_size

    def fielded(self, catalog: Op40kCatalog, unit: Datasheet,
                entry: RosterEntry) -> Fielded[Datasheet, Weapon]:
        return unit.fielded(catalog, entry.count, entry.upgrades)

    def entry_cost(self, catalog: Op40kCatalog, roster: Roster, entry: RosterEntry) -> int:
        unit = self.unit_of(catalog, roster, entry)
        if unit is None:
            return 0
        return unit.pts_per_model * entry.count + upgrades_cost(unit, entry)

    def check(self, catalog: Op40kCatalog, roster: Roster) -> list[Violation]:
        out: list[Violation] = []
        for i, entry in enumerate(roster.entries):
            unit = self.unit_of(catalog, roster, entry)
            if unit is None:
                continue  # the base class reports unknown units
            if entry.joins:
                out.append(Violation(
                    "op40k.no-joining", "error", where_entry(i, entry),
                    f"{entry.unit} joins {entry.joins!r}, but One Page 40k units never join "
                    f"one another: remove `joins`."))
        return out

    # -- wording ---------------------------------------------------------------------------
    def summary(self, catalog: Op40kCatalog, roster: Roster) -> tuple[tuple[str, str], ...]:
        sheets = [(e, u) for e in roster.entries
                  if (u := self.unit_of(catalog, roster, e)) is not None]
        vehicles = sum(u.is_vehicle for _, u in sheets)
        models = sum(e.count for e, u in sheets if not u.is_vehicle)
        return (("Units", str(len(sheets) - vehicles)), ("Models", str(models)),
                ("Vehicles", str(vehicles)))

    def profile(self, catalog: Op40kCatalog, unit: Datasheet) -> Profile:
        return cards.profile(catalog, unit)

    # -- builder hooks ---------------------------------------------------------------------
    def default_count(self, unit: Datasheet) -> int:
        return unit.size  # the size the profile prints

    # -- printing hooks --------------------------------------------------------------------
    def entry_card(self, catalog: Op40kCatalog, roster: Roster,
                   entry: RosterEntry) -> UnitCard | None:
        unit = self.unit_of(catalog, roster, entry)
        if unit is None:
            return None
        return cards.entry_card(catalog, unit, entry, self.entry_cost(catalog, roster, entry))

    def core_rules(self, catalog: Op40kCatalog,
                   unit_cards: Sequence[UnitCard]) -> tuple[RuleText, ...]:
        return cards.core_rules(catalog, unit_cards)

    # -- quick-resolve hooks ---------------------------------------------------------------
    def resolve_models(self, unit: Datasheet) -> int:
        return unit.size  # the size the profile prints

    def resolver(self) -> Resolver[Op40kCatalog, Datasheet]:
        from listbuilder.systems.op40k import resolve

        return resolve


def upgrades_cost(unit: Datasheet, entry: RosterEntry) -> int:
    """Each distinct upgrade once (a repeat is reported, not charged twice)."""
    total = 0
    for name in dict.fromkeys(entry.upgrades):
        upgrade = unit.upgrade(name)
        if upgrade is not None:
            total += upgrade.pts * (entry.count if upgrade.per_model else 1)
    return total
