"""What the roster page asks of WarStuff (`WarStuffBuilder`): an entry counts copies of one
one-model unit, so adding one listed already adds a copy; the unit creator offers the
Qualities a design may have, and copies a quickplay unit as a design to change."""

from __future__ import annotations

from listbuilder.engine.model import UnitDesign
from listbuilder.engine.system import Builder
from listbuilder.systems.warstuff.model import WarStuffCatalog, WarStuffUnit


class WarStuffBuilder(Builder[WarStuffCatalog, WarStuffUnit]):
    def stacks_entries(self) -> bool:
        return True  # an entry counts copies of one one-model unit

    def design_qualities(self, catalog: WarStuffCatalog) -> tuple[int, ...]:
        lo, hi = catalog.quality_range
        return tuple(range(lo, hi + 1))

    def design_of(self, unit: WarStuffUnit) -> UnitDesign | None:
        return UnitDesign(name=unit.name, quality=unit.quality, rules=unit.special_rules)
