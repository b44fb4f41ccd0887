"""WarStuff: build-your-own one-model units, priced by a single formula.

The cost formula is `unit_cost` in model.py: Quality x 10 plus the special rules' costs, never
below 5 pts. It prices every unit, the seed's quickplay units included (their printed figure is kept
as `printed_pts`; six of them differ, see docs/rules-notes.md). Players may design units in the
roster (`designs`); an entry's `count` is the number of copies, each a one-model unit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import ClassVar

from listbuilder.engine.cards import UnitCard
from listbuilder.engine.fight import Resolver
from listbuilder.engine.model import Origin, Roster, RosterEntry, UnitDesign
from listbuilder.engine.profile import Profile, RuleText
from listbuilder.engine.system import (
    PrintedPrice,
    RuleSystem,
    SourceFile,
    Violation,
    plural,
    where_entry,
)
from listbuilder.systems.warstuff import cards
from listbuilder.systems.warstuff.build import build_catalog
from listbuilder.systems.warstuff.model import WarStuffCatalog, WarStuffUnit
from listbuilder.systems.warstuff.schema import WarStuffFile

# Rules that cannot sensibly stand together on one unit, and why (shown in the message).
CONFLICTS: tuple[tuple[str, str, str], ...] = (
    ("Fast", "Slow", "a unit cannot move both faster and slower than normal"),
    ("Large", "Small", "a unit cannot be both larger and smaller than normal"),
    ("Shooter (Short)", "Shooter (Medium)", "a unit has one shooting attack, so one range"),
    ("Shooter (Short)", "Shooter (Long)", "a unit has one shooting attack, so one range"),
    ("Shooter (Medium)", "Shooter (Long)", "a unit has one shooting attack, so one range"),
)
# Legal but paying for nothing: the second rule cancels the drawback the first is discounted for.
HOLLOW: tuple[tuple[str, str, str], ...] = (
    ("Undead", "Fearless", "Undead is -5 pts for dying on a failed morale test, "
                           "and Fearless never fails one"),
)



# -- the system -------------------------------------------------------------------------------

class WarStuff(RuleSystem[WarStuffCatalog, WarStuffUnit]):
    id = "warstuff"
    order = 30
    name = "WarStuff"
    copies_fight_alone = True  # quick-resolve: a roster entry is one of its copies
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

    def build_catalog(self, files: Sequence[SourceFile], revision: str) -> WarStuffCatalog:
        return build_catalog(self.id, files, revision)

    # -- rules -----------------------------------------------------------------------------
    def unit_of(self, catalog: WarStuffCatalog, roster: Roster,
                entry: RosterEntry) -> WarStuffUnit | None:
        design = roster.design(entry.unit)
        if design is not None:
            return WarStuffUnit(name=design.name, quality=design.quality,
                                special_rules=design.rules, designed=True,
                                pts=catalog.price(design.quality, design.rules),
                                origin=Origin(custom=True))
        return super().unit_of(catalog, roster, entry)

    def entry_cost(self, catalog: WarStuffCatalog, roster: Roster, entry: RosterEntry) -> int:
        unit = self.unit_of(catalog, roster, entry)
        return unit.pts * entry.count if unit is not None else 0

    def check(self, catalog: WarStuffCatalog, roster: Roster) -> list[Violation]:
        out: list[Violation] = []
        limit = roster.points_limit
        if limit and limit not in catalog.warband_limits:
            usual = " or ".join(str(n) for n in catalog.warband_limits)
            out.append(Violation("warstuff.custom-limit", "warning", "roster",
                                 f"A {limit} pts warband is a custom size; the rules suggest "
                                 f"{usual} pts: agree it with your opponent."))
        for i, design in enumerate(roster.designs):
            where = f"designs[{i}] {design.name}"
            out += _design_problems(catalog, design.name, design.quality, design.rules, where)
            if catalog.units_named(design.name):
                out.append(Violation("warstuff.design-name-taken", "error", where,
                                     f"{design.name!r} is already a quickplay unit: give your "
                                     f"design another name."))
        for i, entry in enumerate(roster.entries):
            unit = self.unit_of(catalog, roster, entry)
            if unit is not None and unit.pts > catalog.advised_max_unit_cost:
                out.append(Violation(
                    "warstuff.unit-over-advised", "warning", where_entry(i, entry),
                    f"{unit.name} costs {unit.pts} pts; the designers advise at most "
                    f"{catalog.advised_max_unit_cost} pts a unit for balanced games."))
        return out

    def printed_prices(self, catalog: WarStuffCatalog,
                       roster: Roster) -> tuple[PrintedPrice, ...]:
        out = []
        for entry in roster.entries:
            unit = self.unit_of(catalog, roster, entry)
            if unit is None:
                continue
            printed = unit.printed_pts
            if printed is None or printed == unit.pts:
                continue
            out.append(PrintedPrice(
                f"{unit.name}: {unit.pts} pts by the formula (printed {printed})",
                (unit.pts - printed) * entry.count,
                reading="printed-quickplay-points-or-the-formula"))
        return tuple(out)

    # -- wording ---------------------------------------------------------------------------
    def summary(self, catalog: WarStuffCatalog, roster: Roster) -> tuple[tuple[str, str], ...]:
        models = sum(e.count for e in roster.entries if self.unit_of(catalog, roster, e))
        return (("Models", str(models)), ("Designs", str(len(roster.designs))))

    def profile(self, catalog: WarStuffCatalog, unit: WarStuffUnit) -> Profile:
        return cards.profile(catalog, unit)

    # -- builder hooks ---------------------------------------------------------------------
    def stacks_entries(self) -> bool:
        return True  # an entry counts copies of one one-model unit

    def design_qualities(self, catalog: WarStuffCatalog) -> tuple[int, ...]:
        lo, hi = catalog.quality_range
        return tuple(range(lo, hi + 1))

    def design_of(self, unit: WarStuffUnit) -> UnitDesign | None:
        return UnitDesign(name=unit.name, quality=unit.quality, rules=unit.special_rules)

    # -- printing hooks --------------------------------------------------------------------
    def entry_card(self, catalog: WarStuffCatalog, roster: Roster,
                   entry: RosterEntry) -> UnitCard | None:
        unit = self.unit_of(catalog, roster, entry)
        return cards.entry_card(catalog, unit, entry) if unit is not None else None

    def sheet_track(self, catalog: WarStuffCatalog, unit: WarStuffUnit,
                    entry: RosterEntry) -> tuple[tuple[int, ...], str]:
        """A box for each wound a copy can take: a hit kills when a die and the wounds taken
        beat its Quality, so a copy with as many wounds as its Quality dies to its next hit."""
        boxes = max(1, unit.quality)
        taken = "wound taken" if boxes == 1 else "wounds taken"
        label = taken if entry.count == 1 else f"{plural(entry.count, 'model')}: {taken}"
        return (boxes,) * entry.count, label

    def core_rules(self, catalog: WarStuffCatalog,
                   unit_cards: Sequence[UnitCard]) -> tuple[RuleText, ...]:
        return cards.core_rules()

    # -- quick-resolve hooks ---------------------------------------------------------------
    def resolver(self) -> Resolver[WarStuffCatalog, WarStuffUnit]:
        from listbuilder.systems.warstuff import resolve

        return resolve


def _design_problems(catalog: WarStuffCatalog, name: str, quality: int, rules: Sequence[str],
                     where: str) -> list[Violation]:
    out: list[Violation] = []
    lo, hi = catalog.quality_range
    if not lo <= quality <= hi:
        fix = lo if quality < lo else hi
        out.append(Violation("warstuff.quality-range", "error", where,
                             f"{name} has Quality {quality}; it must be {lo} to {hi}: "
                             f"set it to {fix}."))
    folded = [r.casefold() for r in rules]
    for rule in sorted({r for r in rules if folded.count(r.casefold()) > 1}):
        out.append(Violation("warstuff.repeated-rule", "error", where,
                             f"{name} has {rule} {plural(folded.count(rule.casefold()), 'time')}; "
                             f"a rule counts once: remove the extra."))
    present = set(folded)
    for a, b in combinations(sorted(set(rules), key=str.casefold), 2):
        for x, y, why in CONFLICTS:
            if {a.casefold(), b.casefold()} == {x.casefold(), y.casefold()}:
                out.append(Violation("warstuff.conflicting-rules", "error", where,
                                     f"{name} has both {a} and {b}; {why}: remove one."))
    for x, y, why in HOLLOW:
        if x.casefold() in present and y.casefold() in present:
            out.append(Violation("warstuff.hollow-rules", "warning", where,
                                 f"{name} has {x} and {y}: {why}. Drop {x} or accept the "
                                 f"discount is unearned."))
    return out
