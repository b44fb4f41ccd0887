"""WarStuff: build-your-own one-model units, priced by a single formula.

The cost formula is `unit_cost` in model.py: Quality x 10 plus the special rules' costs, never
below 5 pts. It prices every unit, the seed's quickplay units included (their printed figure is kept
as `printed_pts`; six of them differ, see docs/rules-notes.md). Players may design units in the
roster (`designs`); an entry's `count` is the number of copies, each a one-model unit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from listbuilder.engine.fight import Resolver
from listbuilder.engine.match import Play
from listbuilder.engine.model import Origin, Roster, RosterEntry
from listbuilder.engine.reminders import Reminders
from listbuilder.engine.system import Priced, PrintedPrice, RuleSystem, Totals
from listbuilder.systems.warstuff import build, cards, limits
from listbuilder.systems.warstuff.builder import WarStuffBuilder
from listbuilder.systems.warstuff.cards import WarStuffCards
from listbuilder.systems.warstuff.model import WarStuffCatalog, WarStuffUnit
from listbuilder.systems.warstuff.schema import WarStuffFile


class WarStuff(RuleSystem[WarStuffCatalog, WarStuffUnit]):
    id = "warstuff"
    order = 30
    name = "WarStuff"
    blurb = ("Skirmish with any miniatures: design each model from a Quality and special rules, "
             "priced by one formula.")
    data_schema = WarStuffFile
    default_points_limit = 150
    min_factions = 0
    max_factions = None
    allows_designs = True
    count_label = "copies"
    faction_words = ("Genre", "Genres")
    readings: ClassVar[Mapping[str, str]] = {
        "warstuff.conflicting-rules": "which-special-rules-contradict-each-other",
        "warstuff.repeated-rule": "which-special-rules-contradict-each-other",
        "warstuff.hollow-rules": "undead-with-fearless",
        "warstuff.custom-limit": "warband-size-and-the-75-pts-advice",
        "warstuff.unit-over-advised": "warband-size-and-the-75-pts-advice",
        "warstuff.design-name-taken": "genres-and-the-knight-printed-twice",
        "warstuff.quality-range": "designed-quality",
    }

    # the game's own modules' functions are its hooks: build.py, limits.py, cards.py
    build_catalog = build.build_catalog
    check = staticmethod(limits.check)
    profile = staticmethod(cards.profile)

    # -- rules -----------------------------------------------------------------------------
    def find_units(self, catalog: WarStuffCatalog, roster: Roster,
                   entries: Sequence[RosterEntry]) -> tuple[WarStuffUnit | None, ...]:
        """An entry names one of the roster's designs, else a quickplay unit."""
        found = super().find_units(catalog, roster, entries)
        if not roster.designs:
            return found
        out = []
        for entry, unit in zip(entries, found, strict=True):
            design = roster.design(entry.unit)
            out.append(unit if design is None else WarStuffUnit(
                name=design.name, quality=design.quality, special_rules=design.rules,
                designed=True, pts=catalog.price(design.quality, design.rules),
                origin=Origin(custom=True)))
        return tuple(out)

    def entry_cost(self, catalog: WarStuffCatalog, unit: WarStuffUnit,
                   entry: RosterEntry) -> int:
        return unit.pts * entry.count

    def printed_prices(self, catalog: WarStuffCatalog,
                       priced: Sequence[Priced[WarStuffUnit]]) -> Mapping[int, PrintedPrice]:
        out = {}
        for p in priced:
            unit, printed = p.unit, p.unit.printed_pts
            if printed is None or printed == unit.pts:
                continue
            out[p.index] = PrintedPrice(
                f"{unit.name}: {unit.pts} pts by the formula (printed {printed})",
                (unit.pts - printed) * p.entry.count,
                reading="printed-quickplay-points-or-the-formula")
        return out

    # -- wording ---------------------------------------------------------------------------
    def totals(self, catalog: WarStuffCatalog, roster: Roster,
               priced: Sequence[Priced[WarStuffUnit]]) -> Totals:
        models = sum(p.entry.count for p in priced)
        return replace(super().totals(catalog, roster, priced), lines=(
            ("Models", str(models)), ("Designs", str(len(roster.designs)))))

    # -- the builder, printing and quick-resolve -------------------------------------------
    def builder(self) -> WarStuffBuilder:
        return WarStuffBuilder(self)

    def cards(self) -> WarStuffCards:
        return WarStuffCards(self)

    def resolver(self) -> Resolver[WarStuffCatalog, WarStuffUnit]:
        from listbuilder.systems.warstuff.resolve import RESOLVER

        return RESOLVER

    def play(self) -> Play[Any]:
        from listbuilder.systems.warstuff.play import WarStuffPlay

        return WarStuffPlay(self)

    def reminders(self) -> Reminders:
        from listbuilder.systems.warstuff.reminders import REMINDERS

        return REMINDERS
