"""One Page 40k (1st edition): units of N models with one Quality, equipment and special rules.

The rules print no points, so our sample factions give each datasheet points per model; an
entry's `count` is the unit's size in models. The game's own tables (actions, vehicle damage,
facings, cover and elevation, setup) live in `data/op40k/system.yaml` for the dice resolver.
Readings of unclear rules: docs/rules-notes/op40k.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from listbuilder.engine.effects import Fielded
from listbuilder.engine.fight import Resolver
from listbuilder.engine.match import Play
from listbuilder.engine.model import Roster, RosterEntry
from listbuilder.engine.reminders import Reminders
from listbuilder.engine.system import Priced, RuleSystem, Totals
from listbuilder.systems.op40k import build, cards, limits
from listbuilder.systems.op40k.builder import Op40kBuilder
from listbuilder.systems.op40k.cards import Op40kCards
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

    # the game's own modules' functions are its hooks: build.py, limits.py, cards.py
    build_catalog = build.build_catalog
    check = staticmethod(limits.check)
    profile = staticmethod(cards.profile)

    # -- rules -----------------------------------------------------------------------------
    def count_bounds(self, unit: Datasheet) -> tuple[int, int | None]:
        return unit.min_size, unit.max_size

    def fielded(self, catalog: Op40kCatalog, unit: Datasheet,
                entry: RosterEntry) -> Fielded[Datasheet, Weapon]:
        return unit.fielded(catalog, entry.count, entry.upgrades)

    def entry_cost(self, catalog: Op40kCatalog, unit: Datasheet, entry: RosterEntry) -> int:
        return unit.cost(entry.count, entry.upgrades)

    # -- wording ---------------------------------------------------------------------------
    def totals(self, catalog: Op40kCatalog, roster: Roster,
               priced: Sequence[Priced[Datasheet]]) -> Totals:
        vehicles = sum(p.unit.is_vehicle for p in priced)
        models = sum(p.entry.count for p in priced if not p.unit.is_vehicle)
        return replace(super().totals(catalog, roster, priced), lines=(
            ("Units", str(len(priced) - vehicles)), ("Models", str(models)),
            ("Vehicles", str(vehicles))))

    # -- the builder, printing and quick-resolve -------------------------------------------
    def builder(self) -> Op40kBuilder:
        return Op40kBuilder(self)

    def cards(self) -> Op40kCards:
        return Op40kCards(self)

    def resolver(self) -> Resolver[Op40kCatalog, Datasheet]:
        from listbuilder.systems.op40k.resolve import RESOLVER

        return RESOLVER

    def play(self) -> Play[Any]:
        from listbuilder.systems.op40k.play import Op40kPlay

        return Op40kPlay(self)

    def reminders(self) -> Reminders:
        from listbuilder.systems.op40k.reminders import REMINDERS

        return REMINDERS
