"""Hammer Wars: each player fills a fixed pool of 17 one-model units and buys them onto the
table round by round (6 pts and 1 xp a round), playing for one of its faction's two goals.

A roster is the unit pool: one entry per unit type, `count` = how many models of that type the
pool holds. The pool has no points limit; the pts and xp shown are what deploying all of it
costs over the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from listbuilder.engine.model import Catalog, Roster, RosterEntry
from listbuilder.engine.system import ChoiceSpec, RuleSystem, SourceFile, Violation
from listbuilder.systems.hammerwars.build import build_catalog
from listbuilder.systems.hammerwars.model import HammerWarsCatalog, HwUnit
from listbuilder.systems.hammerwars.rules import (
    Listed,
    check_goal,
    check_pool,
    check_repeats,
    pool_cost,
    pool_fill,
)
from listbuilder.systems.hammerwars.schema import HammerWarsFile

__all__ = ["HammerWars", "HammerWarsCatalog", "HwUnit"]


class HammerWars(RuleSystem):
    id = "hammerwars"
    name = "Hammer Wars"
    blurb = ("A fixed pool of 17 single-model units bought onto the table round by round, "
             "fighting for one of two faction goals.")
    data_schema = HammerWarsFile
    default_points_limit = None
    min_factions = 1
    max_factions = 1
    choices: ClassVar[dict[str, ChoiceSpec]] = {
        "goal": ChoiceSpec(str, "one of your faction's two goals", required=True),
    }
    count_label = "models in the pool"

    def build_catalog(self, files: Sequence[SourceFile], revision: str) -> Catalog:
        return build_catalog(files, revision, self.id)

    def entry_cost(self, catalog: Catalog, roster: Roster, entry: RosterEntry) -> int:
        unit = self.unit_of(catalog, roster, entry)
        return unit.pts * entry.count if isinstance(unit, HwUnit) else 0

    def listed(self, catalog: Catalog, roster: Roster) -> Listed:
        """The entries whose unit is known; the base class reports the others."""
        out = []
        for i, entry in enumerate(roster.entries):
            unit = self.unit_of(catalog, roster, entry)
            if isinstance(unit, HwUnit):
                out.append((i, entry, unit))
        return out

    def check(self, catalog: Catalog, roster: Roster) -> list[Violation]:
        if not isinstance(catalog, HammerWarsCatalog):
            return []
        listed = self.listed(catalog, roster)
        return check_goal(catalog, roster) + check_repeats(listed) + check_pool(catalog, listed)

    def summary(self, catalog: Catalog, roster: Roster) -> tuple[tuple[str, str], ...]:
        if not isinstance(catalog, HammerWarsCatalog):
            return ()
        listed = self.listed(catalog, roster)
        filled = pool_fill(catalog, listed)
        lines = [(slot.category, f"{filled[slot.category]}/{slot.models}") for slot in catalog.pool]
        pts, xp = pool_cost(listed)
        return (*lines, ("Pts to deploy all", str(pts)), ("XP to deploy all", str(xp)))
