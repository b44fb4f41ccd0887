"""WarStuff's catalog models and its one cost formula, `unit_cost`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from listbuilder.engine.model import Catalog, SpecialRule, Unit


@dataclass(frozen=True, kw_only=True)
class WarStuffUnit(Unit):
    quality: int
    pts: int  # by the formula
    printed_pts: int | None = None
    designed: bool = False  # designed inside a roster rather than taken from the catalog

    @property
    def genre(self) -> str | None:
        return self.faction


@dataclass(frozen=True, kw_only=True)
class WarStuffCatalog(Catalog[WarStuffUnit]):
    points_per_quality: int = 10
    minimum_cost: int = 5
    quality_range: tuple[int, int] = (1, 5)
    warband_limits: tuple[int, ...] = (150, 300)
    advised_max_unit_cost: int = 75

    def price(self, quality: int, rules: Iterable[str]) -> int:
        return unit_cost(quality, (self.rule(r) for r in rules), self.points_per_quality,
                         self.minimum_cost)


def unit_cost(quality: int, rules: Iterable[SpecialRule | None], per_quality: int = 10,
              minimum: int = 5) -> int:
    """WarStuff's formula: Quality x 10 + the rules' costs, at least 5 pts. Unknown rules add 0."""
    return max(minimum, quality * per_quality + sum((r.cost or 0) for r in rules if r))
