"""Hammer Wars: each player fills a fixed pool of 17 one-model units and buys them onto the
table round by round (6 pts and 1 xp a round), playing for one of its faction's two goals.

A roster is the unit pool: one entry per unit type, `count` = how many models of that type the
pool holds. The pool has no points limit; the pts and xp shown are what deploying all of it
costs over the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from listbuilder.engine.cards import CardSet, UnitCard
from listbuilder.engine.model import Catalog, Roster, RosterEntry, Unit
from listbuilder.engine.profile import Profile, RuleText
from listbuilder.engine.system import ChoiceSpec, RuleSystem, SourceFile, Violation
from listbuilder.systems.hammerwars import cards
from listbuilder.systems.hammerwars.build import build_catalog
from listbuilder.systems.hammerwars.builder import goal_options
from listbuilder.systems.hammerwars.limits import (
    Listed,
    check_goal,
    check_pool,
    check_repeats,
    pool_cost,
    pool_fill,
)
from listbuilder.systems.hammerwars.model import HammerWarsCatalog, HwUnit
from listbuilder.systems.hammerwars.schema import HammerWarsFile

__all__ = ["HammerWars", "HammerWarsCatalog", "HwUnit"]


class HammerWars(RuleSystem):
    id = "hammerwars"
    order = 10
    name = "Hammer Wars"
    blurb = ("A fixed pool of 17 single-model units bought onto the table round by round, "
             "fighting for one of two faction goals.")
    data_schema = HammerWarsFile
    resolve_module = "listbuilder.systems.hammerwars.resolve"
    default_points_limit = None
    min_factions = 1
    max_factions = 1
    choices: ClassVar[dict[str, ChoiceSpec]] = {
        "goal": ChoiceSpec(str, "one of your faction's two goals", required=True),
    }
    count_label = "models in the pool"
    readings: ClassVar[Mapping[str, str]] = {
        "hammerwars.pool-short": "must-the-pool-be-filled-exactly",
        "hammerwars.pool-over": "must-the-pool-be-filled-exactly",
        "hammerwars.repeated-unit": "the-same-type-listed-twice",
        "hammerwars.goal-missing": "the-secret-goal",
    }

    def build_catalog(self, files: Sequence[SourceFile], revision: str) -> Catalog:
        return build_catalog(self.id, files, revision)

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

    def brief(self, catalog: Catalog, roster: Roster) -> tuple[tuple[str, str], ...]:
        if not isinstance(catalog, HammerWarsCatalog):
            return ()
        *slots, _, _ = self.summary(catalog, roster)
        pts, xp = pool_cost(self.listed(catalog, roster))
        return (*slots, ("Deploy all", f"{pts} pts · {xp} XP"))

    # -- builder hooks ---------------------------------------------------------------------
    def stacks_entries(self) -> bool:
        return True  # a pool lists each unit type once, with its number of models

    def choice_options(self, catalog: Catalog, roster: Roster,
                       key: str) -> tuple[tuple[str, str], ...]:
        if key == "goal" and isinstance(catalog, HammerWarsCatalog):
            return goal_options(catalog, roster)
        return ()

    # -- printing hooks --------------------------------------------------------------------
    def profile(self, catalog: Catalog, unit: Unit) -> Profile:
        if isinstance(catalog, HammerWarsCatalog) and isinstance(unit, HwUnit):
            return cards.profile(catalog, unit)
        return super().profile(catalog, unit)

    def entry_card(self, catalog: Catalog, roster: Roster, entry: RosterEntry) -> UnitCard | None:
        unit = self.unit_of(catalog, roster, entry)
        if isinstance(catalog, HammerWarsCatalog) and isinstance(unit, HwUnit):
            return cards.entry_card(catalog, unit, entry)
        return super().entry_card(catalog, roster, entry)

    def card_set(self, catalog: Catalog) -> CardSet | None:
        return cards.card_set(catalog) if isinstance(catalog, HammerWarsCatalog) else None

    def sheet_choices(self, catalog: Catalog, roster: Roster) -> tuple[RuleText, ...]:
        if isinstance(catalog, HammerWarsCatalog):
            return cards.sheet_choices(catalog, roster)
        return super().sheet_choices(catalog, roster)
