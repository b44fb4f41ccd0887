"""One Page 40k's roster checks: the rules have units fight on their own, so no entry joins
another. (Sizes, upgrades and the points limit are the checks every game shares.)"""

from __future__ import annotations

from collections.abc import Sequence

from listbuilder.engine.model import Roster
from listbuilder.engine.system import Priced, Violation, where_entry
from listbuilder.systems.op40k.model import Datasheet, Op40kCatalog


def check(catalog: Op40kCatalog, roster: Roster,
          priced: Sequence[Priced[Datasheet]]) -> list[Violation]:
    """One Page 40k's own limits (`RuleSystem.check`)."""
    return [Violation("op40k.no-joining", "error", where_entry(p.index, p.entry),
                      f"{p.entry.unit} joins {p.entry.joins!r}, but One Page 40k units never "
                      f"join one another: remove `joins`.")
            for p in priced if p.entry.joins]
