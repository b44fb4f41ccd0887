"""WarStuff's roster checks: the warband's size, each design's Quality and rules (rules that
contradict or cancel each other, a rule listed twice, a name a quickplay unit has), and the
designers' advice on a unit's cost."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from listbuilder.engine.model import Roster
from listbuilder.engine.system import Priced, Violation, plural, where_entry
from listbuilder.systems.warstuff.model import WarStuffCatalog, WarStuffUnit

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


def check(catalog: WarStuffCatalog, roster: Roster,
          priced: Sequence[Priced[WarStuffUnit]]) -> list[Violation]:
    """WarStuff's own limits (`RuleSystem.check`)."""
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
    for p in priced:
        unit = p.unit
        if unit.pts > catalog.advised_max_unit_cost:
            out.append(Violation(
                "warstuff.unit-over-advised", "warning", where_entry(p.index, p.entry),
                f"{unit.name} costs {unit.pts} pts; the designers advise at most "
                f"{catalog.advised_max_unit_cost} pts a unit for balanced games."))
    return out


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
