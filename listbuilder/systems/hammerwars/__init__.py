"""Hammer Wars: each player fills a fixed pool of 17 one-model units and buys them onto the
table round by round (6 pts and 1 xp a round), playing for one of its faction's two goals.

A roster is the unit pool: one entry per unit type, `count` = how many models of that type the
pool holds. The pool has no points limit; the pts and xp shown are what deploying all of it
costs over the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from listbuilder.engine.cards import CardSet, UnitCard, per_model
from listbuilder.engine.cards import pts as points
from listbuilder.engine.fight import Resolver
from listbuilder.engine.model import Roster, RosterEntry
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


class HammerWars(RuleSystem[HammerWarsCatalog, HwUnit]):
    id = "hammerwars"
    order = 10
    name = "Hammer Wars"
    copies_fight_alone = True  # quick-resolve: a roster entry is one of its copies
    blurb = ("A fixed pool of 17 single-model units bought onto the table round by round, "
             "fighting for one of two faction goals.")
    data_schema = HammerWarsFile
    # the studio's form: a pack may bring goals of its own for its factions to pick
    pack_sections = ("factions", "units", "goals")
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

    def build_catalog(self, files: Sequence[SourceFile], revision: str) -> HammerWarsCatalog:
        return build_catalog(self.id, files, revision)

    # -- rules -----------------------------------------------------------------------------
    def entry_cost(self, catalog: HammerWarsCatalog, roster: Roster, entry: RosterEntry) -> int:
        unit = self.unit_of(catalog, roster, entry)
        return unit.pts * entry.count if unit is not None else 0

    def sheet_cost(self, catalog: HammerWarsCatalog, roster: Roster, entry: RosterEntry) -> str:
        """Pts and xp: a Hero or a Heavy costs both, paid round by round."""
        unit = self.unit_of(catalog, roster, entry)
        xp = unit.xp * entry.count if unit is not None else 0
        pts = self.entry_cost(catalog, roster, entry)
        return points(pts) + (f" + {xp} xp" if xp else "")

    def sheet_track(self, catalog: HammerWarsCatalog, unit: HwUnit,
                    entry: RosterEntry) -> tuple[tuple[int, ...], str]:
        """A box a life of each model in the pool."""
        return per_model(entry.count, max(1, unit.lives), "life", "lives")

    def listed(self, catalog: HammerWarsCatalog, roster: Roster) -> Listed:
        """The entries whose unit is known; the base class reports the others."""
        return [(i, entry, unit) for i, entry in enumerate(roster.entries)
                if (unit := self.unit_of(catalog, roster, entry)) is not None]

    def check(self, catalog: HammerWarsCatalog, roster: Roster) -> list[Violation]:
        listed = self.listed(catalog, roster)
        return check_goal(catalog, roster) + check_repeats(listed) + check_pool(catalog, listed)

    # -- wording ---------------------------------------------------------------------------
    def summary(self, catalog: HammerWarsCatalog,
                roster: Roster) -> tuple[tuple[str, str], ...]:
        listed = self.listed(catalog, roster)
        filled = pool_fill(catalog, listed)
        lines = [(slot.category, f"{filled[slot.category]}/{slot.models}") for slot in catalog.pool]
        pts, xp = pool_cost(listed)
        return (*lines, ("Pts to deploy all", str(pts)), ("XP to deploy all", str(xp)))

    def brief(self, catalog: HammerWarsCatalog, roster: Roster) -> tuple[tuple[str, str], ...]:
        *slots, _, _ = self.summary(catalog, roster)
        pts, xp = pool_cost(self.listed(catalog, roster))
        return (*slots, ("Deploy all", f"{pts} pts · {xp} XP"))

    def profile(self, catalog: HammerWarsCatalog, unit: HwUnit) -> Profile:
        return cards.profile(catalog, unit)

    # -- builder hooks ---------------------------------------------------------------------
    def stacks_entries(self) -> bool:
        return True  # a pool lists each unit type once, with its number of models

    def choice_options(self, catalog: HammerWarsCatalog, roster: Roster,
                       key: str) -> tuple[tuple[str, str], ...]:
        return goal_options(catalog, roster) if key == "goal" else ()

    # -- printing hooks --------------------------------------------------------------------
    def entry_card(self, catalog: HammerWarsCatalog, roster: Roster,
                   entry: RosterEntry) -> UnitCard | None:
        unit = self.unit_of(catalog, roster, entry)
        return cards.entry_card(catalog, unit, entry) if unit is not None else None

    def card_set(self, catalog: HammerWarsCatalog) -> CardSet | None:
        return cards.card_set(catalog)

    def core_rules(self, catalog: HammerWarsCatalog,
                   unit_cards: Sequence[UnitCard]) -> tuple[RuleText, ...]:
        return cards.core_rules(catalog, unit_cards)

    def sheet_choices(self, catalog: HammerWarsCatalog, roster: Roster) -> tuple[RuleText, ...]:
        return cards.sheet_choices(catalog, roster)

    # -- quick-resolve hooks ---------------------------------------------------------------
    def resolver(self) -> Resolver[HammerWarsCatalog, HwUnit]:
        from listbuilder.systems.hammerwars import resolve

        return resolve
